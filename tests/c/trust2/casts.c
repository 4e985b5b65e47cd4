/* Conversions between object pointer types, as real C uses them: a
 * length header before a string (a dynamic-string library), a structure
 * viewed as bytes, a little-endian word read out of a byte buffer,
 * `container_of` over a list built in the function, and the same macro
 * on a parameter, which input objects cannot be built for. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct hdr {
    size_t len;
    size_t alloc;
    char buf[];
};

static size_t dlen(const char *s)
{
    const struct hdr *h = (const struct hdr *)(s - sizeof(struct hdr));
    return h->len;
}

static char *dnew(const char *init, size_t n)
{
    struct hdr *h = malloc(sizeof(struct hdr) + n + 1);
    if (!h)
        return NULL;
    h->len = n;
    h->alloc = n;
    for (size_t i = 0; i < n; i++)
        h->buf[i] = init[i];
    h->buf[n] = 0;
    return h->buf;
}

/* 0: no memory, 1: short, 2: long; the header is freed through its start. */
int dstring_kind(const char *init, size_t n)
{
    if (n > 2)
        return -1;
    char *s = dnew(init, n);
    if (!s)
        return 0;
    int kind = dlen(s) > 1 ? 2 : 1;
    free(s - sizeof(struct hdr));
    return kind;
}

struct pair {
    int key;
    short tag;
};

/* The structure's first bytes: the low bytes of `key` (x86-64 is
 * little-endian). */
int first_byte(const struct pair *p)
{
    const unsigned char *b = (const unsigned char *)p;
    if (b[0] == 0x7f)
        return 1;
    if (b[1] == 0x01)
        return 2;
    return 0;
}

/* A 32-bit little-endian magic number at the start of a buffer. */
int has_magic(const unsigned char *buf, size_t len)
{
    if (len < 4)
        return -1;
    unsigned w;
    memcpy(&w, buf, sizeof w);
    if (w == 0x464c457fu)
        return 1;
    const unsigned short *h = (const unsigned short *)buf;
    if (h[1] == 0x0102)
        return 2;
    return 0;
}

struct node {
    struct node *next;
};

struct item {
    int value;
    struct node link;
};

#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

/* The sum of a two-item list linked through embedded nodes. */
int list_sum(short a, short b)
{
    struct item x = {a, {NULL}}, y = {b, {NULL}};
    x.link.next = &y.link;
    int sum = 0;
    for (struct node *n = &x.link; n; n = n->next)
        sum += container_of(n, struct item, link)->value;
    if (sum > 10)
        return 1;
    return 0;
}

/* The item around a node its caller passes: not an input Pathwise builds. */
int item_value(struct node *n)
{
    struct item *it = container_of(n, struct item, link);
    if (it->value > 3)
        return 1;
    return 0;
}

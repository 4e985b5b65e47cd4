/* Structures ending in a flexible array member (C99) as input heaps: one
   structure and a tail of elements whose length the generator chooses
   (crates/cli/tests/fam.rs). */
#include <stdlib.h>

#include "pathwise.h"

struct msg {
    int len;
    char data[];
};

/* The tail holds what `len` announces only if the caller says so. */
int check(struct msg *m)
{
    if (m->len > 2 && m->data[1] == 'x')
        return 1;
    return 0;
}

struct pkt {
    unsigned short n;
    unsigned short vals[];
};

int sum(const struct pkt *p)
{
    int s = 0;
    for (int i = 0; i < p->n; i++)
        s += p->vals[i];
    return s;
}

/* Writes into the tail: the test checks the elements afterwards. */
int fill(struct msg *m, char c)
{
    int i;
    for (i = 0; i < m->len; i++)
        m->data[i] = c;
    return i;
}

/* The precondition ties the tail to `len`: reading past it is an error. */
int third_pre(struct msg *m)
{
    if (m == 0 || m->len < 0)
        return 0;
    pathwise_array_len(m->data, m->len);
    return 1;
}

int third(struct msg *m)
{
    return m->data[2];
}

struct pt {
    int x;
    int y;
};

struct poly {
    int n;
    struct pt pts[];
};

int rightward(struct poly *p)
{
    if (p->n > 1 && p->pts[1].x > p->pts[0].x)
        return 1;
    return 0;
}

struct buf {
    struct buf *next;
    short n;
    char bytes[];
};

static int starts_with_x(const struct buf *b)
{
    return b->n > 0 && b->bytes[0] == 'x';
}

/* A pointer field in the fixed part, and the structure passed on. */
int chained(struct buf *b)
{
    if (b->next != 0 && starts_with_x(b->next))
        return 1;
    return 0;
}

/* gcc starts `vals` inside the structure's final padding (offsetof 6,
   sizeof 8): the tail's bounds are C's, the allocation sizeof-based. */
struct padded {
    int len;
    char tag;
    short vals[];
};

int padded_first(struct padded *p)
{
    if (p->tag == 'v' && p->vals[0] > 7)
        return p->vals[0];
    return 0;
}

/* An object the call allocates: the test checks its tail by name. */
struct msg *make(int n)
{
    if (n < 0 || n > 3)
        return 0;
    struct msg *m = malloc(sizeof *m + n);
    m->len = n;
    for (int i = 0; i < n; i++)
        m->data[i] = 'a' + i;
    return m;
}

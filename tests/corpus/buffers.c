/* buffers.c: byte buffers as networking and storage libraries keep them: a
 * fixed ring buffer (push, pop, bulk read), a growable string buffer
 * (append with realloc), a bounds-checked big/little-endian reader over a
 * cursor, a bounded memmem, binary search and in-place deduplication of a
 * sorted array.  Part of the Pathwise corpus (crates/cli/tests/corpus.rs):
 * each function's `// pathwise:` line gives the options its suite is
 * generated with; every test must pass natively and gcov must agree with
 * the predicted coverage. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pathwise.h"

#define RING_CAP 4

/* A single-producer ring buffer of bytes: head is the next slot written,
 * tail the next one read, count the bytes held. */
struct ring {
    unsigned char data[RING_CAP];
    unsigned head;
    unsigned tail;
    unsigned count;
};

static int ring_ok(const struct ring *r)
{
    if (r == NULL)
        return 0;
    pathwise_array_len(r, 1);
    if (r->head >= RING_CAP || r->tail >= RING_CAP || r->count > RING_CAP)
        return 0;
    return (r->tail + r->count) % RING_CAP == r->head;
}

/* Append one byte; -1 when full. */
// pathwise: gen --function ring_push --k 2 --precondition ring_push_pre
int ring_push(struct ring *r, unsigned char byte)
{
    if (r->count == RING_CAP)
        return -1;
    r->data[r->head] = byte;
    r->head = (r->head + 1) % RING_CAP;
    r->count++;
    return 0;
}

int ring_push_pre(struct ring *r, unsigned char byte)
{
    (void)byte;
    return ring_ok(r);
}

/* Remove the oldest byte into *out; -1 when empty. */
// pathwise: gen --function ring_pop --k 2 --precondition ring_pop_pre
int ring_pop(struct ring *r, unsigned char *out)
{
    if (r->count == 0)
        return -1;
    *out = r->data[r->tail];
    r->tail = (r->tail + 1) % RING_CAP;
    r->count--;
    return 0;
}

int ring_pop_pre(struct ring *r, unsigned char *out)
{
    if (out == NULL)
        return 0;
    pathwise_array_len(out, 1);
    return ring_ok(r);
}

/* Read up to len bytes into dst in at most two memcpy calls (the part up to
 * the end of the storage, then the wrapped part); returns the bytes read. */
// pathwise: gen --function ring_read --k 2 --precondition ring_read_pre
size_t ring_read(struct ring *r, unsigned char *dst, size_t len)
{
    size_t n = len < r->count ? len : r->count;
    size_t first = RING_CAP - r->tail;

    if (n == 0)
        return 0;
    if (first > n)
        first = n;
    memcpy(dst, r->data + r->tail, first);
    if (n > first)
        memcpy(dst + first, r->data, n - first);
    r->tail = (unsigned)((r->tail + n) % RING_CAP);
    r->count -= (unsigned)n;
    return n;
}

int ring_read_pre(struct ring *r, unsigned char *dst, size_t len)
{
    if (dst == NULL || len > RING_CAP)
        return 0;
    pathwise_array_len(dst, len);
    return ring_ok(r);
}

/* A growable, always NUL-terminated string buffer. */
struct sbuf {
    char *data;
    size_t len;
    size_t cap;
};

/* Append n bytes of s, growing the storage geometrically; -1 on overflow
 * or allocation failure (the buffer is then unchanged). */
// pathwise: gen --function sbuf_append --k 2 --precondition sbuf_append_pre
int sbuf_append(struct sbuf *b, const char *s, size_t n)
{
    size_t need;

    if (n > SIZE_MAX - b->len - 1)
        return -1;
    need = b->len + n + 1;
    if (need > b->cap) {
        size_t cap = b->cap ? b->cap : 4;
        char *p;

        while (cap < need)
            cap *= 2;
        p = realloc(b->data, cap);
        if (p == NULL)
            return -1;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

/* A fresh buffer (data NULL, nothing held), as sbuf_init leaves it, and up
 * to 6 bytes to append. */
int sbuf_append_pre(struct sbuf *b, const char *s, size_t n)
{
    if (b == NULL || s == NULL || n > 6)
        return 0;
    pathwise_array_len(b, 1);
    pathwise_array_len(s, n);
    return b->data == NULL && b->len == 0 && b->cap == 0;
}

/* A bounds-checked reader over a byte buffer, as in protocol decoders. */
struct reader {
    const uint8_t *buf;
    size_t len;
    size_t pos;
};

/* Read a big-endian 16-bit length followed by that many bytes' worth of
 * 32-bit little-endian words, summing them; -1 when the buffer is short. */
// pathwise: gen --function read_record --k 2 --precondition read_record_pre
long read_record(struct reader *r)
{
    uint16_t n;
    unsigned long sum = 0;

    if (r->len - r->pos < 2)
        return -1;
    n = (uint16_t)((r->buf[r->pos] << 8) | r->buf[r->pos + 1]);
    r->pos += 2;
    if (n % 4 != 0 || r->len - r->pos < n)
        return -1;
    while (n > 0) {
        const uint8_t *p = r->buf + r->pos;
        sum += (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        r->pos += 4;
        n -= 4;
    }
    return (long)(sum & 0x7fffffffUL);
}

int read_record_pre(struct reader *r)
{
    if (r == NULL || r->buf == NULL || r->len > 10 || r->pos > r->len)
        return 0;
    pathwise_array_len(r, 1);
    pathwise_array_len(r->buf, r->len);
    return 1;
}

/* memmem: the first occurrence of needle in hay, or NULL; an empty needle
 * matches at the start. */
// pathwise: gen --function mem_find --k 2 --precondition mem_find_pre
const void *mem_find(const void *hay, size_t hlen, const void *needle, size_t nlen)
{
    const unsigned char *h = hay;
    const unsigned char *n = needle;
    size_t i;

    if (nlen == 0)
        return hay;
    if (nlen > hlen)
        return NULL;
    for (i = 0; i + nlen <= hlen; i++) {
        if (h[i] == n[0] && memcmp(h + i, n, nlen) == 0)
            return h + i;
    }
    return NULL;
}

int mem_find_pre(const unsigned char *hay, size_t hlen, const unsigned char *needle, size_t nlen)
{
    if (hay == NULL || needle == NULL || hlen > 3 || nlen > 2)
        return 0;
    pathwise_array_len(hay, hlen);
    pathwise_array_len(needle, nlen);
    return 1;
}

/* Binary search in an ascending array: the index of key or -1. */
// pathwise: gen --function bsearch_int --k 2 --precondition bsearch_int_pre
int bsearch_int(const int *a, size_t n, int key)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < key)
            lo = mid + 1;
        else if (a[mid] > key)
            hi = mid;
        else
            return (int)mid;
    }
    return -1;
}

int bsearch_int_pre(const int *a, size_t n, int key)
{
    size_t i;

    (void)key;
    if (a == NULL || n > 4)
        return 0;
    pathwise_array_len(a, n);
    for (i = 1; i < n; i++)
        if (a[i - 1] >= a[i])
            return 0;
    return 1;
}

/* Remove adjacent duplicates from a sorted array in place; returns the new
 * length (std::unique). */
// pathwise: gen --function dedup_sorted --k 2 --precondition dedup_sorted_pre
size_t dedup_sorted(int *a, size_t n)
{
    size_t w = 1, r;

    if (n == 0)
        return 0;
    for (r = 1; r < n; r++) {
        if (a[r] != a[w - 1])
            a[w++] = a[r];
    }
    return w;
}

int dedup_sorted_pre(int *a, size_t n)
{
    size_t i;

    if (a == NULL || n > 4)
        return 0;
    pathwise_array_len(a, n);
    for (i = 1; i < n; i++)
        if (a[i - 1] > a[i])
            return 0;
    return 1;
}

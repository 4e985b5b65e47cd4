/* faults.c: library code whose suites hold error tests: a Java-style
 * string hash in int (signed overflow on long strings), a buffer consumer
 * guarded by assert, a mean without an empty-array check (division by
 * zero), an arg-max that reads the first element of an empty array, and
 * zlib's CRC-32 with its table built on first use in static storage.
 * Every error test must end natively as predicted (abort, a trap of the
 * undefined behaviour).  Part of the Pathwise corpus
 * (crates/cli/tests/corpus.rs): each function's `// pathwise:` line gives
 * the options its suite is generated with; every test must pass natively
 * and gcov must agree with the predicted coverage. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "pathwise.h"

/* String.hashCode() as C ports write it: in int, so it overflows (undefined
 * behaviour) once a string is long enough. */
// pathwise: gen --function java_hash --k 6 --precondition java_hash_pre --max-array-len 7
int java_hash(const char *s)
{
    int h = 0;

    while (*s)
        h = 31 * h + (unsigned char)*s++;
    return h;
}

int java_hash_pre(const char *s)
{
    return s != NULL;
}

struct buf {
    unsigned char data[8];
    size_t len;
};

/* Drop the first n bytes of the buffer; the caller must not drop more
 * than it holds (asserted). */
// pathwise: gen --function buf_consume --k 2 --precondition buf_consume_pre
void buf_consume(struct buf *b, size_t n)
{
    assert(n <= b->len);
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
}

int buf_consume_pre(struct buf *b, size_t n)
{
    if (b == NULL || b->len > sizeof b->data || n > sizeof b->data)
        return 0;
    pathwise_array_len(b, 1);
    return 1;
}

/* The mean of n samples, rounded towards zero; n == 0 divides by zero. */
// pathwise: gen --function mean --k 2 --precondition mean_pre
int mean(const int *v, size_t n)
{
    long sum = 0;
    size_t i;

    for (i = 0; i < n; i++)
        sum += v[i];
    return (int)(sum / (long)n);
}

int mean_pre(const int *v, size_t n)
{
    if (v == NULL || n > 3)
        return 0;
    pathwise_array_len(v, n);
    return 1;
}

/* The index of the largest of n values (the first of equal ones); reads
 * v[0] even when n == 0. */
// pathwise: gen --function argmax --k 2 --precondition argmax_pre
size_t argmax(const int *v, size_t n)
{
    int max = v[0];
    size_t best = 0, i;

    for (i = 1; i < n; i++) {
        if (v[i] > max) {
            max = v[i];
            best = i;
        }
    }
    return best;
}

int argmax_pre(const int *v, size_t n)
{
    if (v == NULL || n > 3)
        return 0;
    pathwise_array_len(v, n);
    return 1;
}

/* zlib's CRC-32 (reflected polynomial 0xEDB88320), the table computed on
 * the first call. */
static uint32_t crc_table[256];
static int crc_table_ready;

static void make_crc_table(void)
{
    uint32_t c;
    int n, k;

    for (n = 0; n < 256; n++) {
        c = (uint32_t)n;
        for (k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
    crc_table_ready = 1;
}

// pathwise: gen --function crc32 --k 2 --precondition crc32_pre
uint32_t crc32(uint32_t crc, const unsigned char *buf, size_t len)
{
    if (!crc_table_ready)
        make_crc_table();
    crc = crc ^ 0xffffffffu;
    while (len--)
        crc = crc_table[(crc ^ *buf++) & 0xff] ^ (crc >> 8);
    return crc ^ 0xffffffffu;
}

int crc32_pre(uint32_t crc, const unsigned char *buf, size_t len)
{
    (void)crc;
    if (buf == NULL || len > 2)
        return 0;
    pathwise_array_len(buf, len);
    return 1;
}

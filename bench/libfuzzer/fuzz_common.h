/* Helpers shared by the harnesses: turn libFuzzer's (Data, Size) into the
   arguments a real caller passes, allocated to their exact size so that
   AddressSanitizer sees any read or write past them. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Results go here so that the optimiser cannot drop a call whose result
   is unused (the corpus functions have no other side effects). */
static volatile unsigned long fz_sink;
#define FZ_SINK(x) (fz_sink += (unsigned long)(x))

/* A NUL-terminated copy of n bytes (malloc'd, n + 1 bytes; an embedded NUL
   simply ends the string early, as it would for a C caller). */
static inline char *fz_str(const uint8_t *d, size_t n)
{
    char *s = malloc(n + 1);
    if (n > 0)
        memcpy(s, d, n);
    s[n] = '\0';
    return s;
}

/* An exact copy of n bytes (malloc'd, n bytes; at least 1 byte is
   allocated so that malloc(0) is not NULL, but ASan still flags any read
   at index >= n for n > 0; for n == 0, index 0 is flagged too because
   ASan's malloc(0) has no usable byte). */
static inline unsigned char *fz_buf(const uint8_t *d, size_t n)
{
    unsigned char *b = malloc(n);
    if (b == NULL)
        b = malloc(1);
    if (n > 0)
        memcpy(b, d, n);
    return b;
}

/* Splits (d, n) at its first NUL byte into two NUL-terminated strings
   (the second is empty if there is no NUL). */
static inline void fz_split2(const uint8_t *d, size_t n, char **a, char **b)
{
    const uint8_t *z = n > 0 ? memchr(d, 0, n) : NULL;
    size_t k = z ? (size_t)(z - d) : n;
    *a = fz_str(d, k);
    *b = z ? fz_str(z + 1, n - k - 1) : fz_str(d, 0);
}

/* Takes one byte off the front of the data (0 if there is none). */
static inline unsigned fz_byte(const uint8_t **d, size_t *n)
{
    unsigned v = 0;
    if (*n > 0) {
        v = **d;
        (*d)++;
        (*n)--;
    }
    return v;
}
#endif

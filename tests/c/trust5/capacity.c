/* Buffers and the sizes that come with them: capacity checks before block
   writes, strncpy's size, qsort's and bsearch's counts, and array
   parameters declared with a length. */
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

/* Correct: the two parts fit in `cap` bytes. */
int join(char *out, size_t cap, const char *a, size_t al, const char *b, size_t bl)
{
    if (al + bl > cap)
        return -1;
    memcpy(out, a, al);
    memcpy(out + al, b, bl);
    return (int)(al + bl);
}

/* Off by one: room for the terminator is not counted. */
int copy_string(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n > cap)
        return -1;
    memcpy(dst, src, n + 1);
    return (int)n;
}

/* A limit that is not the buffer's: `max` bounds a value, the write uses
   `n` alone. */
int fill(unsigned char *buf, size_t n, int value, size_t max)
{
    if (value > (int)max)
        return -1;
    memset(buf, value, n);
    return 0;
}

/* strncpy writes `cap` bytes and leaves no terminator when the name has
   `cap` characters or more: strlen then reads past the buffer. */
int set_name(char *buf, size_t cap, const char *name)
{
    strncpy(buf, name, cap);
    return (int)strlen(buf);
}

static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* bsearch walks `n` elements of `v`. */
int contains(const int *v, size_t n, int key)
{
    return bsearch(&key, v, n, sizeof *v, cmp_int) != NULL;
}

/* qsort's byte copies of an int array whose count is an input. */
int smallest(int *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_int);
    return v[0];
}

/* Four characters, not a string: the caller passes at least four. */
int pair_sum(const char in[4])
{
    return in[0] + in[1] + in[3];
}

static const signed char tab[4] = { 1, 2, 3, 4 };

/* Two characters; the first indexes a 4-entry table unchecked. */
int lookup_first(const char in[2])
{
    return tab[(unsigned char)in[0]];
}

/* Inputs as C callers pass them: a buffer with its length, a string ending
 * at its NUL. Reading past either is a bug the tests must show; a length
 * that is an inclusive bound (`a[hi]`) or that belongs to another buffer
 * is not taken for one. */
#include <stddef.h>

/* buf has len bytes. */
unsigned checksum(const unsigned char *buf, size_t len)
{
    unsigned a = 1, b = 0;
    for (size_t i = 0; i < len; i++) {
        a = (a + buf[i]) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

/* Seeded bug: `<=` reads buf[len]. */
int sum_upto(const unsigned char *buf, size_t len)
{
    int s = 0;
    for (size_t i = 0; i <= len; i++)
        s += buf[i];
    return s;
}

/* Seeded bug: a line break skips one more byte without checking len. */
int count_padding(const char *in, int len)
{
    int pad = 0;
    for (int i = 0; i < len; i++) {
        if (in[i] == '\n') {
            i++;
            if (in[i] == '=')
                pad++;
        } else if (in[i] == '=') {
            pad++;
        }
    }
    return pad;
}

/* p has n bytes, walked up to an end pointer. */
int count_x(const char *p, size_t n)
{
    const char *end = p + n;
    int c = 0;
    while (p < end)
        if (*p++ == 'x')
            c++;
    return c;
}

/* Seeded bug: an escape skips the next character even when it is the NUL. */
int unescaped_len(const char *s)
{
    int n = 0;
    while (*s) {
        if (*s == '\\')
            s++;
        s++;
        n++;
    }
    return n;
}

/* A string read to its NUL: no error. */
int count_digits(const char *s)
{
    int n = 0;
    for (; *s; s++)
        if (*s >= '0' && *s <= '9')
            n++;
    return n;
}

/* a[lo..hi] inclusive: hi is an index, not a length. */
int max_in(const int *a, int lo, int hi)
{
    int m = a[hi];
    for (int i = lo; i < hi; i++)
        if (a[i] > m)
            m = a[i];
    return m;
}

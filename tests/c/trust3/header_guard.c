/* A decoder's guard on its header: `(data, size)` with `size` checked
 * against the bytes it reads at constant offsets, as libFuzzer's targets
 * and the parsers they call do. The read past the header then has its
 * out-of-bounds test: before, `data` was an input array that grew to
 * whatever the path read, so no read through it was ever out of bounds. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int payload_last(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned len = data[0] | data[1] << 8;
    if (len == 0 || len > 16)
        return -1;
    return data[2 + len - 1];
}

/* The same guard written `size <= 3` over four bytes, through a local. */
uint32_t word_after(const unsigned char *buf, unsigned size)
{
    const unsigned char *p = buf;
    if (size <= 3)
        return 0;
    uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return w ? p[4] : 0;
}

/* A flag compared with a constant is no length: `mode` is signed, and
 * the prefix read is not the compared count. */
int pick(const char *s, int mode, unsigned level)
{
    if (mode < 2)
        return s[0];
    if (level > 5)
        return s[1];
    return s[2];
}

/* A magic number compared with memcmp, then the byte after it. */
int after_magic(const uint8_t *d, size_t sz)
{
    if (sz < 4)
        return 0;
    if (memcmp(d, "\x89PNG", 4) != 0)
        return 0;
    return d[4] == 13;
}

/* A string passed to strlen is no array of `flags` elements, though its
 * first byte is read under `flags > 0`. */
int opt_len(const char *s, unsigned flags)
{
    if (flags > 0 && s[0] == '-')
        return (int)strlen(s);
    return 0;
}

/* A flag tested against 0 is no length of an array read at index 0. */
int get(const int *table, unsigned verbose)
{
    int r = table[0];
    if (verbose > 0)
        r = 1;
    return r;
}

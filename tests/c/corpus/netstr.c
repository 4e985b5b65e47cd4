/* Network-ish string parsing: dotted-quad IPv4 and URL percent-decoding. */
#include <stddef.h>
#include <stdint.h>

/* s is NUL-terminated; parses exactly "a.b.c.d" with each part 0..255 in
   decimal without leading zeros; returns 0 and stores the address (a in the
   top byte) in *addr (valid), or -1 */
int parse_ipv4(const char *s, uint32_t *addr)
{
    uint32_t a = 0;
    int part;
    for (part = 0; part < 4; part++) {
        unsigned v = 0;
        int digits = 0;
        if (part > 0) {
            if (*s != '.')
                return -1;
            s++;
        }
        while (*s >= '0' && *s <= '9') {
            if (digits > 0 && v == 0)
                return -1;
            v = v * 10 + (unsigned)(*s - '0');
            if (v > 255)
                return -1;
            digits++;
            s++;
        }
        if (digits == 0)
            return -1;
        a = a << 8 | v;
    }
    if (*s != '\0')
        return -1;
    *addr = a;
    return 0;
}

static int url_xval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* in is NUL-terminated; out has room for size bytes (size <= INT_MAX);
   decodes "%XX" escapes and '+' as space into out, NUL-terminated; returns
   the length written, or -1 on a bad escape or if out is too small */
int url_decode(const char *in, char *out, size_t size)
{
    size_t o = 0, i = 0;
    while (in[i] != '\0') {
        int c = (unsigned char)in[i];
        if (c == '%') {
            int hi = url_xval(in[i + 1]), lo;
            if (hi < 0)
                return -1;
            lo = url_xval(in[i + 2]);
            if (lo < 0)
                return -1;
            c = hi * 16 + lo;
            i += 3;
        } else {
            if (c == '+')
                c = ' ';
            i++;
        }
        if (o + 1 >= size)
            return -1;
        out[o++] = (char)c;
    }
    if (size == 0)
        return -1;
    out[o] = '\0';
    return (int)o;
}

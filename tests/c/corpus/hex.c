/* Hex decoding and encoding. */
#include <stddef.h>
#include <stdint.h>

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* in has len bytes; out has room for size bytes; returns the bytes decoded
   (len/2), or -1 if len is odd, out is too small or a byte is not a hex
   digit (out may then be partly written) */
long hex_decode(const char *in, size_t len, unsigned char *out, size_t size)
{
    size_t i;
    if (len % 2 != 0 || len / 2 > size)
        return -1;
    for (i = 0; i < len; i += 2) {
        int hi = hex_value(in[i]);
        int lo = hex_value(in[i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i / 2] = (unsigned char)(hi << 4 | lo);
    }
    return (long)(len / 2);
}

/* in has len bytes; out has room for size bytes; writes 2*len hex digits
   (upper case if upper) and a NUL; returns 2*len, or 0 if out is too small */
size_t hex_encode(const unsigned char *in, size_t len, char *out, size_t size,
                  int upper)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    size_t i;
    if (len > (SIZE_MAX - 1) / 2 || size < 2 * len + 1)
        return 0;
    for (i = 0; i < len; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * len] = '\0';
    return 2 * len;
}

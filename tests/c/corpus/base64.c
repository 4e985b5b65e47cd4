/* Base64 (RFC 4648) decoding and encoding. */
#include <stddef.h>
#include <stdint.h>

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* in has len bytes (len % 4 == 0 expected, '=' padding only in the last
   quantum); out has room for 3*len/4 bytes; returns the bytes written, or
   -1 on a bad length, byte or padding */
long base64_decode(const char *in, size_t len, unsigned char *out)
{
    size_t i, o = 0;
    int k;
    if (len % 4 != 0)
        return -1;
    for (i = 0; i < len; i += 4) {
        int v[4], pad = 0;
        uint32_t w;
        for (k = 0; k < 4; k++) {
            unsigned char c = (unsigned char)in[i + k];
            if (c == '=' && i + 4 == len && k >= 2) {
                v[k] = 0;
                pad++;
                continue;
            }
            if (pad)
                return -1;
            v[k] = b64_value(c);
            if (v[k] < 0)
                return -1;
        }
        w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        out[o++] = (unsigned char)(w >> 16);
        if (pad < 2)
            out[o++] = (unsigned char)(w >> 8);
        if (pad < 1)
            out[o++] = (unsigned char)w;
    }
    return (long)o;
}

/* in has len bytes (len < SIZE_MAX / 2); out has room for size bytes;
   writes 4*ceil(len/3) characters and a NUL; returns that length, or 0 if
   out is too small (then out is untouched) */
size_t base64_encode(const unsigned char *in, size_t len, char *out, size_t size)
{
    static const char tbl[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t need = (len + 2) / 3 * 4, i, o = 0;
    if (size < need + 1)
        return 0;
    for (i = 0; i < len; i += 3) {
        uint32_t w = (uint32_t)in[i] << 16;
        if (i + 1 < len)
            w |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < len)
            w |= in[i + 2];
        out[o++] = tbl[w >> 18 & 63];
        out[o++] = tbl[w >> 12 & 63];
        out[o++] = i + 1 < len ? tbl[w >> 6 & 63] : '=';
        out[o++] = i + 2 < len ? tbl[w & 63] : '=';
    }
    out[o] = '\0';
    return o;
}

/* SEEDED BUG (line 36): on a '\n' the index skips two bytes (the newline and
   the folding space that is assumed to follow it) and line 36 reads in[i]
   without re-checking i < len: "\n" or "\n " at the end of the input reads
   in[len] or in[len + 1]. */
#include <stddef.h>
#include <stdint.h>

static int lm_b64_value(unsigned char c)
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

/* in has len bytes of base64 text folded into lines ("\n " between lines),
   no padding; out has room for 3*len/4 + 1 bytes; returns the bytes
   written or -1 on a bad byte */
long b64_decode_lines_buggy(const char *in, size_t len, unsigned char *out)
{
    size_t i = 0, o = 0;
    uint32_t acc = 0;
    int bits = 0;
    while (i < len) {
        unsigned char c = (unsigned char)in[i];
        int v;
        if (c == '\n') {
            i += 2;
            c = (unsigned char)in[i];
        }
        v = lm_b64_value(c);
        if (v < 0)
            return -1;
        acc = (acc << 6 | (uint32_t)v) & 0xFFFFFF;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
        }
        i++;
    }
    return (long)o;
}

/* UTF-8 decoding, validation and encoding. */
#include <stddef.h>
#include <stdint.h>

/* buf has len bytes (len may be 0); decodes the code point at buf[0] into
   *cp (valid); returns the bytes consumed (1..4), or 0 if the sequence is
   truncated, overlong, a surrogate, above U+10FFFF or otherwise invalid */
size_t utf8_decode(const unsigned char *buf, size_t len, uint32_t *cp)
{
    unsigned char c;
    size_t n, i;
    uint32_t v, min;
    if (len == 0)
        return 0;
    c = buf[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xE0) == 0xC0) {
        n = 2; v = c & 0x1F; min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3; v = c & 0x0F; min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4; v = c & 0x07; min = 0x10000;
    } else {
        return 0;
    }
    if (len < n)
        return 0;
    for (i = 1; i < n; i++) {
        if ((buf[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (buf[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return n;
}

/* buf has len bytes; returns 1 if it is well-formed UTF-8 (RFC 3629), else 0 */
int utf8_validate(const unsigned char *buf, size_t len)
{
    size_t i = 0, need, k;
    while (i < len) {
        unsigned char c = buf[i], c1;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF)
            need = 1;
        else if (c >= 0xE0 && c <= 0xEF)
            need = 2;
        else if (c >= 0xF0 && c <= 0xF4)
            need = 3;
        else
            return 0;
        if (len - i - 1 < need)
            return 0;
        c1 = buf[i + 1];
        if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) ||
            (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F))
            return 0;
        for (k = 1; k <= need; k++) {
            if ((buf[i + k] & 0xC0) != 0x80)
                return 0;
        }
        i += need + 1;
    }
    return 1;
}

/* out has room for size bytes; encodes cp; returns the bytes written (1..4),
   or 0 if cp is a surrogate or above U+10FFFF or out is too small */
size_t utf8_encode(uint32_t cp, unsigned char *out, size_t size)
{
    static const unsigned char lead[5] = { 0, 0, 0xC0, 0xE0, 0xF0 };
    size_t n, i;
    if (cp < 0x80)
        n = 1;
    else if (cp < 0x800)
        n = 2;
    else if (cp < 0x10000)
        n = 3;
    else if (cp <= 0x10FFFF)
        n = 4;
    else
        return 0;
    if (cp >= 0xD800 && cp <= 0xDFFF)
        return 0;
    if (size < n)
        return 0;
    if (n == 1) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    for (i = n - 1; i > 0; i--) {
        out[i] = (unsigned char)(0x80 | (cp & 0x3F));
        cp >>= 6;
    }
    out[0] = (unsigned char)(lead[n] | cp);
    return n;
}

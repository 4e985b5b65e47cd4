/* encoding.c: text and binary encodings as serialisation libraries write
 * them: hexadecimal and base64 (RFC 4648) in both directions, UTF-8
 * decoding of one code point (rejecting overlong forms and surrogates) and
 * encoding, LEB128 varints in both directions, and JSON string escaping with
 * snprintf for control characters.  Part of the Pathwise corpus
 * (crates/cli/tests/corpus.rs): each function's `// pathwise:` line gives
 * the options its suite is generated with; every test must pass natively
 * and gcov must agree with the predicted coverage. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pathwise.h"

/* Lower-case hexadecimal of n bytes into out (2n + 1 bytes, terminated). */
// pathwise: gen --function hex_encode --k 2 --precondition hex_encode_pre
void hex_encode(const unsigned char *in, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;

    for (i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 0xf];
    }
    out[2 * n] = '\0';
}

int hex_encode_pre(const unsigned char *in, size_t n, char *out)
{
    if (in == NULL || out == NULL || n > 3)
        return 0;
    pathwise_array_len(in, n);
    pathwise_array_len(out, 2 * n + 1);
    return 1;
}

static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decode a hexadecimal string into out (at most outsz bytes); returns the
 * byte count, -1 on an odd length or a non-hex character, -2 when out is
 * too small. */
// pathwise: gen --function hex_decode --k 2 --precondition hex_decode_pre
long hex_decode(const char *hex, unsigned char *out, size_t outsz)
{
    size_t len = strlen(hex), i;

    if (len % 2 != 0)
        return -1;
    if (len / 2 > outsz)
        return -2;
    for (i = 0; i < len; i += 2) {
        int hi = hex_value((unsigned char)hex[i]);
        int lo = hex_value((unsigned char)hex[i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i / 2] = (unsigned char)(hi << 4 | lo);
    }
    return (long)(len / 2);
}

int hex_decode_pre(const char *hex, unsigned char *out, size_t outsz)
{
    if (hex == NULL || out == NULL || outsz > 2)
        return 0;
    pathwise_array_len(out, outsz);
    return 1;
}

static const char b64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Base64 of n bytes with '=' padding into out (4 * ceil(n / 3) + 1
 * bytes); returns the encoded length. */
// pathwise: gen --function base64_encode --k 2 --precondition base64_encode_pre
size_t base64_encode(const unsigned char *in, size_t n, char *out)
{
    size_t i, o = 0;

    for (i = 0; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = b64_alphabet[v >> 18 & 63];
        out[o++] = b64_alphabet[v >> 12 & 63];
        out[o++] = b64_alphabet[v >> 6 & 63];
        out[o++] = b64_alphabet[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)in[i + 1] << 8;
        out[o++] = b64_alphabet[v >> 18 & 63];
        out[o++] = b64_alphabet[v >> 12 & 63];
        out[o++] = i + 1 < n ? b64_alphabet[v >> 6 & 63] : '=';
        out[o++] = '=';
    }
    out[o] = '\0';
    return o;
}

int base64_encode_pre(const unsigned char *in, size_t n, char *out)
{
    if (in == NULL || out == NULL || n > 4)
        return 0;
    pathwise_array_len(in, n);
    pathwise_array_len(out, (n + 2) / 3 * 4 + 1);
    return 1;
}

static int b64_value(unsigned char c)
{
    if (isupper(c))
        return c - 'A';
    if (islower(c))
        return c - 'a' + 26;
    if (isdigit(c))
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* Decode one base64 quantum of 4 characters ("QQ==", "QUI=", "QUJD") into
 * out (3 bytes); returns the bytes produced or -1 on bad input. */
// pathwise: gen --function base64_decode_quantum --k 2 --precondition base64_decode_quantum_pre
int base64_decode_quantum(const char q[4], unsigned char out[3])
{
    int a = b64_value((unsigned char)q[0]);
    int b = b64_value((unsigned char)q[1]);
    int c, d;
    uint32_t v;

    if (a < 0 || b < 0)
        return -1;
    v = (uint32_t)a << 18 | (uint32_t)b << 12;
    if (q[2] == '=') {
        if (q[3] != '=' || (b & 15) != 0)
            return -1;
        out[0] = (unsigned char)(v >> 16);
        return 1;
    }
    c = b64_value((unsigned char)q[2]);
    if (c < 0)
        return -1;
    v |= (uint32_t)c << 6;
    if (q[3] == '=') {
        if ((c & 3) != 0)
            return -1;
        out[0] = (unsigned char)(v >> 16);
        out[1] = (unsigned char)(v >> 8);
        return 2;
    }
    d = b64_value((unsigned char)q[3]);
    if (d < 0)
        return -1;
    v |= (uint32_t)d;
    out[0] = (unsigned char)(v >> 16);
    out[1] = (unsigned char)(v >> 8);
    out[2] = (unsigned char)v;
    return 3;
}

int base64_decode_quantum_pre(const char q[4], unsigned char out[3])
{
    if (q == NULL || out == NULL)
        return 0;
    pathwise_array_len(q, 4);
    pathwise_array_len(out, 3);
    return 1;
}

/* Decode the UTF-8 sequence at s (n bytes available) into *cp; returns its
 * length, or -1 for a malformed, overlong, surrogate or out-of-range
 * sequence (RFC 3629). */
// pathwise: gen --function utf8_decode --k 2 --precondition utf8_decode_pre
int utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    uint32_t c;
    int len, i;

    if (n == 0)
        return -1;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    } else if ((s[0] & 0xE0) == 0xC0) {
        len = 2;
        c = s[0] & 0x1F;
    } else if ((s[0] & 0xF0) == 0xE0) {
        len = 3;
        c = s[0] & 0x0F;
    } else if ((s[0] & 0xF8) == 0xF0) {
        len = 4;
        c = s[0] & 0x07;
    } else {
        return -1;
    }
    if ((size_t)len > n)
        return -1;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return -1;
        c = c << 6 | (s[i] & 0x3F);
    }
    if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) || (len == 4 && c < 0x10000))
        return -1;
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return -1;
    *cp = c;
    return len;
}

int utf8_decode_pre(const unsigned char *s, size_t n, uint32_t *cp)
{
    if (s == NULL || cp == NULL || n > 4)
        return 0;
    pathwise_array_len(s, n);
    pathwise_array_len(cp, 1);
    return 1;
}

/* Encode code point cp as UTF-8 into out (4 bytes); returns the length or
 * 0 for a surrogate or a value beyond U+10FFFF. */
// pathwise: gen --function utf8_encode --k 2 --precondition utf8_encode_pre
int utf8_encode(uint32_t cp, unsigned char out[4])
{
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | cp >> 6);
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp >= 0xD800 && cp <= 0xDFFF)
        return 0;
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | cp >> 12);
        out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    if (cp > 0x10FFFF)
        return 0;
    out[0] = (unsigned char)(0xF0 | cp >> 18);
    out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

int utf8_encode_pre(uint32_t cp, unsigned char out[4])
{
    (void)cp;
    if (out == NULL)
        return 0;
    pathwise_array_len(out, 4);
    return 1;
}

/* Unsigned LEB128 (protobuf varint) of v into out (10 bytes at most);
 * returns the bytes written. */
// pathwise: gen --function varint_encode --k 2 --precondition varint_encode_pre
size_t varint_encode(uint64_t v, uint8_t *out)
{
    size_t n = 0;

    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

int varint_encode_pre(uint64_t v, uint8_t *out)
{
    (void)v;
    if (out == NULL)
        return 0;
    pathwise_array_len(out, 10);
    return 1;
}

/* Decode an unsigned LEB128 varint from n bytes; returns the bytes used,
 * 0 when the input ends inside it, -1 when it exceeds 64 bits. */
// pathwise: gen --function varint_decode --k 2 --precondition varint_decode_pre
int varint_decode(const uint8_t *in, size_t n, uint64_t *v)
{
    uint64_t result = 0;
    unsigned shift = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        uint8_t b = in[i];

        if (shift == 63 && b > 1)
            return -1;
        result |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            *v = result;
            return (int)i + 1;
        }
        shift += 7;
        if (shift > 63)
            return -1;
    }
    return 0;
}

int varint_decode_pre(const uint8_t *in, size_t n, uint64_t *v)
{
    if (in == NULL || v == NULL || n > 3)
        return 0;
    pathwise_array_len(in, n);
    pathwise_array_len(v, 1);
    return 1;
}

/* Escape a string for a JSON document into out (outsz bytes): quotes,
 * backslashes and the usual control characters by their short escapes,
 * other control characters as \u00XX.  Returns the escaped length, or -1
 * when out is too small. */
// pathwise: gen --function json_escape --k 2 --precondition json_escape_pre
int json_escape(const char *in, char *out, size_t outsz)
{
    size_t o = 0;

    for (; *in; in++) {
        unsigned char c = (unsigned char)*in;
        char esc = 0;
        char tmp[8];
        size_t len;

        switch (c) {
        case '"': esc = '"'; break;
        case '\\': esc = '\\'; break;
        case '\n': esc = 'n'; break;
        case '\t': esc = 't'; break;
        case '\r': esc = 'r'; break;
        default: break;
        }
        if (esc) {
            tmp[0] = '\\';
            tmp[1] = esc;
            len = 2;
        } else if (c < 0x20) {
            len = (size_t)snprintf(tmp, sizeof tmp, "\\u%04x", c);
        } else {
            tmp[0] = (char)c;
            len = 1;
        }
        if (o + len >= outsz)
            return -1;
        memcpy(out + o, tmp, len);
        o += len;
    }
    if (outsz == 0)
        return -1;
    out[o] = '\0';
    return (int)o;
}

int json_escape_pre(const char *in, char *out, size_t outsz)
{
    if (in == NULL || out == NULL || outsz > 8)
        return 0;
    pathwise_array_len(out, outsz);
    return 1;
}

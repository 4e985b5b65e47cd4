/* Checked integer <-> string conversions. */
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <ctype.h>

/* s is NUL-terminated: optional blanks, optional sign, decimal digits, end;
   returns 0 and stores the value in *out (valid), -1 on a syntax error,
   -2 if the value does not fit in an int */
int checked_atoi(const char *s, int *out)
{
    int neg = 0, v = 0;
    size_t i = 0;
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    if (s[i] == '+' || s[i] == '-') {
        neg = s[i] == '-';
        i++;
    }
    if (s[i] < '0' || s[i] > '9')
        return -1;
    for (; s[i] >= '0' && s[i] <= '9'; i++) {
        int d = s[i] - '0';
        if (neg) {
            if (v < (INT_MIN + d) / 10)
                return -2;
            v = v * 10 - d;
        } else {
            if (v > (INT_MAX - d) / 10)
                return -2;
            v = v * 10 + d;
        }
    }
    if (s[i] != '\0')
        return -1;
    *out = v;
    return 0;
}

/* buf has room for size bytes; writes v in decimal, NUL-terminated; returns
   its length, or -1 (buf untouched) if it does not fit */
int itoa_buf(int v, char *buf, size_t size)
{
    char tmp[12];
    size_t n = 0, i;
    unsigned int u = v < 0 ? 0u - (unsigned int)v : (unsigned int)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0)
        tmp[n++] = '-';
    if (n + 1 > size)
        return -1;
    for (i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
    return (int)n;
}

/* s is NUL-terminated: optional "0x"/"0X" then 1 to 8 hex digits; returns 0
   and stores the value in *out (valid), -1 otherwise */
int parse_hex_u32(const char *s, uint32_t *out)
{
    size_t i = 0, start;
    uint32_t v = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        i = 2;
    start = i;
    for (; s[i] != '\0'; i++) {
        unsigned char c = (unsigned char)s[i];
        uint32_t d;
        if (isdigit(c))
            d = (uint32_t)(c - '0');
        else if (isxdigit(c))
            d = (uint32_t)(tolower(c) - 'a' + 10);
        else
            return -1;
        if (i - start >= 8)
            return -1;
        v = (v << 4) | d;
    }
    if (i == start)
        return -1;
    *out = v;
    return 0;
}

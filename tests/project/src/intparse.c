/* Integer parsing with overflow checks. */
#include <limits.h>
#include "intparse.h"

int parse_digit(char c)
{
    if (c < '0' || c > '9')
        return -1;
    return c - '0';
}

int parse_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int parse_uint_pre(const char *s, int *out)
{
    return s != 0 && out != 0;
}

int parse_uint(const char *s, int *out)
{
    int v = 0;
    int d;
    if (*s == '\0')
        return -1;
    while ((d = parse_digit(*s)) >= 0) {
        if (v > (INT_MAX - d) / 10)
            return -2;
        v = v * 10 + d;
        s++;
    }
    if (*s != '\0')
        return -1;
    *out = v;
    return 0;
}

int parse_int_pre(const char *s, int *out)
{
    return s != 0 && out != 0;
}

int parse_int(const char *s, int *out)
{
    int neg = 0;
    int v;
    int rc;
    if (*s == '-') {
        neg = 1;
        s++;
    } else if (*s == '+') {
        s++;
    }
    rc = parse_uint(s, &v);
    if (rc != 0)
        return rc;
    *out = neg ? -v : v;
    return 0;
}

int parse_hex(const char *s, unsigned *out)
{
    unsigned v = 0;
    int n = 0;
    int d;
    if (s == 0 || out == 0)
        return -1;
    while ((d = parse_hex_digit(s[n])) >= 0) {
        if (n == 8)
            return -2;
        v = (v << 4) | (unsigned)d;
        n++;
    }
    if (n == 0 || s[n] != '\0')
        return -1;
    *out = v;
    return 0;
}

int clamp_int_pre(int v, int lo, int hi)
{
    (void)v;
    return lo <= hi;
}

int clamp_int(int v, int lo, int hi)
{
    if (v < lo)
        return lo;
    if (v > hi)
        return hi;
    return v;
}

int int_abs(int v)
{
    return v < 0 ? -v : v;
}

int saturating_add(int a, int b)
{
    if (b > 0 && a > INT_MAX - b)
        return INT_MAX;
    if (b < 0 && a < INT_MIN - b)
        return INT_MIN;
    return a + b;
}

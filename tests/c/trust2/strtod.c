/* strtod, strtof and atof: glibc's syntax on a symbolic string (white
 * space, sign, inf/nan, hexadecimal, point, exponent), and glibc's values
 * and end positions on the spellings that are easy to get wrong. */
#include <errno.h>
#include <stdlib.h>

/* 0: no number, 1: out of range, 2: trailing text, 3: NaN, 4: a number. */
int number_kind(const char *s)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (end == s)
        return 0;
    if (errno == ERANGE)
        return 1;
    if (*end != '\0')
        return 2;
    if (d != d)
        return 3;
    return 4;
}

static long used(double (*conv)(const char *, char **), const char *s, double want)
{
    char *end;
    errno = 0;
    double d = conv(s, &end);
    return (d == want || (d != d && want != want)) * 1000 + (errno == ERANGE) * 100 + (end - s);
}

/* Each spelling's value (exactly), `errno` and end position, as one sum. */
long spellings(void)
{
    long sum = 0;
    sum += used(strtod, "0x1.8p1", 3.0);
    sum = sum * 3 + used(strtod, "  -1e-400x", -0.0);
    sum = sum * 3 + used(strtod, "1e999", 1.0 / 0.0);
    sum = sum * 3 + used(strtod, "0x", 0.0);
    sum = sum * 3 + used(strtod, "0xg", 0.0);
    sum = sum * 3 + used(strtod, "1e+", 1.0);
    sum = sum * 3 + used(strtod, "-InFiNiTyX", -1.0 / 0.0);
    sum = sum * 3 + used(strtod, "infinit", 1.0 / 0.0);
    sum = sum * 3 + used(strtod, "nan(abc_1)z", 0.0 / 0.0);
    sum = sum * 3 + used(strtod, "nan(abc", 0.0 / 0.0);
    sum = sum * 3 + used(strtod, ".e1", 0.0);
    sum = sum * 3 + used(strtod, "4.9e-324", 4.9e-324);
    sum = sum * 3 + used(strtod, "2.2250738585072011e-308", 2.2250738585072011e-308);
    return sum;
}

/* strtof rounds the text once, to float; atof is strtod without an end. */
int float_values(void)
{
    int r = 0;
    if (strtof("0.1", NULL) == 0.1f)
        r |= 1;
    if (strtof("16777217", NULL) == 16777216.0f)
        r |= 2;
    errno = 0;
    if (strtof("1e39", NULL) == 1.0f / 0.0f && errno == ERANGE)
        r |= 4;
    if (atof(" 12.5e-1") == 1.25)
        r |= 8;
    return r;
}

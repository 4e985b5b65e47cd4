/* <stdlib.h> and <errno.h> models (crates/cli/tests/libc.rs). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

/* strtol over an input string with an end pointer and errno checks. */
long parse(const char *s)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (end == s)
        return -1;
    if (*end != '\0')
        return -2;
    if (errno == ERANGE)
        return -3;
    return v;
}

/* Base 0: decimal, octal or hexadecimal by the prefix. */
long parse_any(const char *s)
{
    char *end;
    long v = strtol(s, &end, 0);
    return v * 10 + (long)(end - s);
}

/* atoi of an input string. */
int to_int(const char *s)
{
    return atoi(s);
}

/* abs, labs, llabs: expressions, no decisions (1 path). */
long long absolutes(int a, long b, long long c)
{
    return abs(a) + labs(b) + llabs(c);
}

/* Concrete strings: the corner cases of glibc's strtol family. */
long corners(void)
{
    char *e;
    long r = 0;
    const char *x = "0xg";
    errno = 0;
    r += strtol("  -0x1f", &e, 0);                       /* -31 */
    r += strtol(x, &e, 16);                              /* 0, e at the x */
    r += (e - x) * 1000;
    r += strtol("99999999999999999999", &e, 10) == LONG_MAX;
    r += (errno == ERANGE) * 10;
    errno = 0;
    r += strtol("-9223372036854775808", &e, 10) == LONG_MIN;
    r += (errno == 0) * 100;
    r += strtoul("-1", &e, 10) == ULONG_MAX;
    r += strtoull("777", &e, 8) == 511;
    r += strtoll("zz", &e, 36) == 35 * 36 + 35;
    r += strtol("12", &e, 1) == 0;
    r += errno == EINVAL;
    r += atoi("3000000000") == -1294967296;
    r += atol("  +42x") == 42;
    r += atoll("-0") == 0;
    return r;
}

/* realloc(p, 0) frees p and returns NULL (glibc). */
int reallocs(int n)
{
    int *p = calloc(2, sizeof *p);
    int *q;
    if (n < 0 || n > 4)
        return -1;
    q = realloc(p, (size_t)n * sizeof *p);
    if (!q)
        return 0;
    q[0] = 7;
    n = q[0] + (n > 1 ? q[1] : 0);
    free(q);
    return n;
}

/* realloc of an input object to a size read from the input: shrinking
 * fills the new object, whose size stays symbolic (no byte of the copy is
 * checked against it: such a check could only fail for a length realloc
 * never copies). */
struct ivec {
    int *items;
    size_t bytes;
};

int realloc_field(struct ivec *v)
{
    int *p;
    if (v->items == NULL)
        return -1;
    p = realloc(v->items, v->bytes);
    v->items = p;
    return 0;
}

/* The strtol family on a table of strings in several bases: one path
 * whose checksum (values, end offsets, errno) the native run recomputes. */
unsigned long strtol_table(void)
{
    static const char *const strings[] = {
        "0", "-0", "+7", "  42", "\t\n\v\f\r 9", "- 1", "+-1", "0x", "0X1A", "0xg", "0x1fz", "017", "08", "-0x10",
        "zz", "Zz9", "1_000", "", " ", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "18446744073709551615", "18446744073709551616", "-18446744073709551615",
        "777777777777777777777777", "0b101", "1e5", "  +0x7fffffff", "2147483648", "-2147483649",
    };
    static const int bases[] = {0, 2, 8, 10, 16, 36};
    unsigned long sum = 0;
    unsigned i, j;
    for (i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        for (j = 0; j < sizeof bases / sizeof bases[0]; j++) {
            const char *s = strings[i];
            char *e = 0;
            unsigned long v;
            /* One call per statement: `e` and `errno` are read after it. */
            errno = 0;
            v = (unsigned long)strtol(s, &e, bases[j]);
            sum = sum * 31 + v + (unsigned long)(e - s) * 7 + (unsigned long)errno;
            errno = 0;
            v = strtoul(s, &e, bases[j]);
            sum = sum * 31 + v + (unsigned long)(e - s) * 7 + (unsigned long)errno;
            errno = 0;
            v = (unsigned long)strtoll(s, &e, bases[j]);
            sum = sum * 31 + v + (unsigned long)(e - s) * 7 + (unsigned long)errno;
            errno = 0;
            v = (unsigned long)strtoull(s, 0, bases[j]);
            sum = sum * 31 + v + (unsigned long)errno;
        }
        sum = sum * 31 + (unsigned long)atoi(strings[i]);
        sum = sum * 31 + (unsigned long)atol(strings[i]);
        sum = sum * 31 + (unsigned long)atoll(strings[i]);
    }
    return sum;
}

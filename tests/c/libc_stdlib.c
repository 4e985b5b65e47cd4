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
    r += strtol(x, &e, 16) + (e - x) * 1000;             /* 0, e at the x */
    r += strtol("99999999999999999999", &e, 10) == LONG_MAX;
    r += (errno == ERANGE) * 10;
    errno = 0;
    r += strtol("-9223372036854775808", &e, 10) == LONG_MIN;
    r += (errno == 0) * 100;
    r += strtoul("-1", &e, 10) == ULONG_MAX;
    r += strtoull("777", &e, 8) == 511;
    r += strtoll("zz", &e, 36) == 35 * 36 + 35;
    r += strtol("12", &e, 1) == 0 && errno == EINVAL;
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

/* `long double` as x87 computes it, in 80 bits (issue 26): constants that
 * are no double, arithmetic rounded to 64 bits of significand, the wider
 * exponent range, the 10 bytes in memory, `printf("%Lf")`, `strtold` and
 * the <math.h> functions with `l`. The tests check every value natively. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const long double tenth = 0.1L;
long double total;

/* A double input against a constant that is no double: x < 0.1L, x > 0.1L
 * and a NaN (x == 0.1L has no double solution). */
int near_tenth(long double x)
{
    if (x < tenth)
        return -1;
    if (x > 0.1L)
        return 1;
    return 0;
}

/* Sums of 0.1L: each 80-bit sum is no double; at most k = 3 terms. */
long double accumulate(int n)
{
    long double s = 0;
    for (int i = 0; i < n; i++)
        s += tenth;
    total = s;
    if (s > 0.25L)
        return s * 3;
    return s / 3;
}

/* The exponent range: 1e300 * 1e300 is finite in 80 bits. */
int beyond_double(int scale)
{
    long double big = 1e300L * 1e300L;
    if (scale > 0)
        return big / scale > 1e308L;
    return big * scale < -1e4000L;
}

/* fpclassify of a long double: every finite double is a normal long
 * double; a NaN, the infinities (one class) and the zeros (one class). */
int kind(long double x)
{
    switch (fpclassify(x)) {
    case FP_NAN:
        return 0;
    case FP_INFINITE:
        return 1;
    case FP_ZERO:
        return 2;
    case FP_SUBNORMAL:
        return 3;
    default:
        return 4;
    }
}

/* printf's %Lf / %Le / %Lg of values that are no doubles. */
int show(int digits)
{
    char buf[80];
    long double third = 1.0L / 3;
    if (digits < 0 || digits > 30)
        return -1;
    if (digits > 20)
        return snprintf(buf, sizeof buf, "%.*Le", digits, third) + (buf[digits + 2] - '0');
    return snprintf(buf, sizeof buf, "%.*Lf|%Lg", digits, third, 2e7L / 3) + (buf[digits + 1] - '0');
}

/* strtold, sqrtl, roundl, fminl: glibc's 80-bit results. */
long double parse_root(int which)
{
    static const char *texts[] = {"0.1", "2", "1e-4940", "-1"};
    if (which < 0 || which > 3)
        return 0;
    long double v = strtold(texts[which], NULL);
    return sqrtl(v) + roundl(v * 10) + fminl(v, tenth);
}

/* isfinite, isnan and isinf of a long double stay symbolic: finite, NaN,
 * infinite (not finite, not NaN and not infinite has no input). */
int finite_kind(long double x)
{
    if (isfinite(x))
        return 1;
    if (isnan(x))
        return 2;
    return isinf(x) ? 3 : 4;
}

/* The host libm's long double functions, in 80 bits (their argument
 * pinned): the tests compare glibc's results to the last bit. */
long double transcendental(int n)
{
    if (n < 0 || n > 8)
        return 0;
    long double x = n / 4.0L + 0.1L;
    return sinl(x) + cosl(x) + expl(x) + logl(x) + powl(x, 1.5L) + fmodl(x * 10, 3) + atan2l(x, 2) + log1pl(x)
        + tanhl(x) + cbrtl(x) + hypotl(x, 3) + exp2l(x) + log10l(x) + asinl(x / 4) + expm1l(x);
}

/* errno as glibc sets it for the functions the host computes: a pole
 * error (ERANGE) of log and logl at 0, a domain error (EDOM) of acos and
 * powl. */
int math_errno(int which)
{
    double v = which / 4;
    errno = 0;
    switch (which) {
    case 0:
        return (log(v) < 0) + 2 * errno;
    case 1:
        return (acos(v + 2) != 0) + 2 * errno;
    case 2:
        return (logl(v) < 0) + 2 * errno;
    case 3:
        return (powl(v - 1, 0.5L) != 0) + 2 * errno;
    }
    return -1;
}

/* The float forms, computed in float by the host: sinf, expf, powf, and
 * logf's pole error (ERANGE) at 0. */
int float_forms(int which)
{
    float v = which / 4;
    errno = 0;
    if (which < 0 || which > 1)
        return -1;
    float r = which == 0 ? sinf(v + 0.5f) + expf(v + 1) + powf(v + 2, 1.5f) : logf(v);
    return (r > 3.5f) + 2 * (r < 0) + 4 * errno;
}

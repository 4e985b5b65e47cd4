/* <math.h> models with exact results (crates/cli/tests/libc.rs). */
#include <errno.h>
#include <math.h>

/* Not constants, so that gcc calls the library instead of folding. */
double two_and_a_half = 2.5;

/* Rounding functions, fmin/fmax with NaNs, sqrt and errno: 1 path whose
 * result the native run checks. (The sign of fmin/fmax of zeros of both
 * signs is left out: gcc may swap their operands or fold them.) */
int rounding(void)
{
    double x = two_and_a_half;
    int r = 0;
    r += floor(-x) == -3.0;
    r += (ceil(-0.5) == 0.0 && 1 / ceil(-0.5) < 0) * 2;
    r += (round(-x) == -3.0) * 4;
    r += (trunc(-2.7) == -2.0) * 8;
    r += (fmin(x, 1.0) == 1.0) * 16;
    r += (fmax(NAN, x) == x) * 32;
    r += (fmin(x, NAN) == x) * 64;
    r += (sqrt(x) * sqrt(x) != x) * 128;
    errno = 0;
    r += (isnan(sqrt(-x)) && errno == EDOM) * 256;
    r += (fabsf(-3.5f) == 3.5f) * 512;
    r += (floorf((float)x) == 2.0f) * 1024;
    r += (roundf(0.5f) == 1.0f && ceilf(-0.25f) == 0.0f && truncf(-1.5f) == -1.0f) * 2048;
    r += (fabs(-x) == x && sqrtf(4.0f) == 2.0f && fmaxf(1.0f, 2.0f) == 2.0f && fminf(1.0f, 2.0f) == 1.0f) * 4096;
    return r;
}

/* glibc's own name for signbit, which older <math.h> headers expand it to
 * (its values are those of glibc's x86-64 build: 128 for a double). */
extern int __signbit(double);

/* modf's parts: a NaN; an infinity (the fraction a zero of its sign); an
 * integral value (the fraction -0.0 for a negative one); a fraction of
 * either sign: 7 paths. */
int parts(double x)
{
    double whole;
    double frac = modf(x, &whole);
    if (frac != frac)
        return 0;
    if (whole == INFINITY || whole == -INFINITY)
        return __signbit(frac) ? 2 : 1;
    if (frac == 0)
        return __signbit(frac) == 128 ? 4 : 3;
    return frac > 0 ? 5 : 6;
}

/* glibc's own fpclassify, which older headers expand it to: its FP_*
 * values (FP_NAN 0, FP_INFINITE 1, FP_ZERO 2, FP_SUBNORMAL 3, FP_NORMAL
 * 4), one path per class. */
extern int __fpclassify(double);

int kind(double x)
{
    switch (__fpclassify(x)) {
    case 0:
        return 10;
    case 1:
        return 11;
    case 2:
        return 12;
    case 3:
        return 13;
    default:
        return 14;
    }
}

/* Symbolic floating point (crates/cli/tests/float_paths.rs): float and
 * double inputs are IEEE values in the solver, so every feasible path of
 * these functions gets a test, with NaN, infinities, -0.0 or subnormals
 * where the path needs them. The expected path counts are worked out in
 * the test. */
#include <math.h>

/* A tolerance compare. */
int close_enough(double a, double b)
{
    if (fabs(a - b) < 1e-9)
        return 1;
    return 0;
}

/* The roots of a x^2 + b x + c: not a quadratic, two, one or none. */
int quadratic(float a, float b, float c)
{
    if (a == 0.0f)
        return -1;
    float d = b * b - 4.0f * a * c;
    if (d > 0.0f)
        return 2;
    if (d == 0.0f)
        return 1;
    return 0;
}

/* Newton's square root with a fixed number of iterations. */
double newton_sqrt(double x)
{
    if (x < 0.0)
        return -1.0;
    if (x == 0.0)
        return 0.0;
    double r = x;
    for (int i = 0; i < 4; i++)
        r = 0.5 * (r + x / r);
    return r;
}

/* A float-to-int clamp: in range, the conversion is defined. */
int clamp_to_int(float f)
{
    if (f != f)
        return 0;
    if (f >= 2147483647.0f)
        return 2147483647;
    if (f <= -2147483648.0f)
        return -2147483647 - 1;
    return (int)f;
}

/* The larger of two values, a NaN losing to a number. */
double nan_max(double a, double b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a > b)
        return a;
    return b;
}

/* The class of a float, and the sign of zeros and infinities. */
int classify(float x)
{
    switch (fpclassify(x)) {
    case FP_NAN:
        return 0;
    case FP_INFINITE:
        return signbit(x) ? 1 : 2;
    case FP_ZERO:
        return signbit(x) ? 3 : 4;
    case FP_SUBNORMAL:
        return 5;
    default:
        return 6;
    }
}

/* An unchecked conversion: out of range is undefined (an error test). */
int to_int(double d)
{
    int i = (int)d;
    if (i > 10)
        return 1;
    return 0;
}

/* Conversions of bounded values are always defined, and `d` never
 * exceeds 1e4: the ranges decide the checks and that comparison, so no
 * query has floats. */
long bounded(unsigned char c, short s)
{
    double d = c * 0.5 + s / 4.0;
    long r = (long)d + (int)(d * 1e3);
    if (d > 1e4)
        return 0;
    if (c > s)
        return r;
    return -r;
}

/* A Newton step of a polynomial in `float`: refuting `x >= 0.1` takes Z3
 * minutes. Under a time limit that query gets its budget and stays
 * undecided; the search goes on to the other branches. */
int newton_step(float in, int k)
{
    if (!(in > -0.2f && in < 0.2f))
        return 0;
    float f = in - (in * in * in) / 6.0f + (in * in * in * in * in) / 120.0f;
    float fp = 1 - (in * in) / 2.0f + (in * in * in * in) / 24.0f;
    float x = in - f / fp;
    if (!(x < 0.1f))
        return 2;
    if (k > 3)
        return 3;
    return 1;
}

/* The spread of the first three values of an array of doubles: the
 * queries read input cells at constant indices. A spread of exactly 0.5
 * is a zero-measure set of inputs that the search for models finds by
 * evaluation. */
int spread(const double *a, int n)
{
    if (n < 3)
        return -1;
    double lo = a[0], hi = a[0];
    for (int i = 1; i < 3; i++) {
        if (a[i] < lo)
            lo = a[i];
        if (a[i] > hi)
            hi = a[i];
    }
    if (hi - lo > 1e6)
        return 2;
    if (hi - lo == 0.5)
        return 1;
    return 0;
}

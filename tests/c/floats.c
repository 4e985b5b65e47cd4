/* Floating-point corpus: each function is generated for and its tests run
 * natively, so any disagreement between Pathwise's IEEE model and gcc's
 * code (x86-64, SSE) shows up as a failing test. Floating values are
 * symbolic in the engine (IEEE 754 in the solver, see
 * crates/cli/tests/float_paths.rs for exact path counts). */
#include <math.h>

double g_scale = 2.5;
float g_hist[3] = {0.5f, -1.0f};

/* Integer decisions before the conversion stay explorable. */
int halves(int n)
{
    if (n > 100)
        return 1;
    double d = n * 0.5;           /* n stays symbolic */
    if (d > 10.25)                /* a decision */
        return 2;
    return 3;
}

/* Conversions both ways, exact rounding; out of range is undefined: the
 * error needs c > 100 and u <= 7, and every branch side it takes is also
 * taken by a test that returns (a trapping test writes no coverage). */
long conversions(unsigned char c, unsigned u)
{
    double factor = 3.75;
    if (c > 100)
        factor = 1e8;
    if (u > 7)
        factor = 0.5;
    double d = c;
    float f = u;                  /* rounds to 24 bits */
    long r = (long)(d * 0.5) + (long)f + (unsigned char)(f / 1e9f);
    return r + (int)(d * factor); /* overflows int for c > 100, u <= 7 */
}

/* NaN compares unequal to itself; != is true on NaN. */
int nan_checks(int k)
{
    double z = k - k;
    double nan = z / z;
    if (k == 1)
        return nan == nan;
    if (k == 2)
        return (nan != nan) + 2 * isnan(nan) + 4 * (nan < 1.0) + 8 * !(nan >= 1.0);
    return isinf(1.0 / z) + 2 * isinf(-1.0 / z) + 4 * (-1.0 / z < 0);
}

/* Returns NaN, infinities and signed zeros: compared exactly. */
double specials(int k)
{
    double z = k - k;
    if (k == 0)
        return z / z;
    if (k == 1)
        return -1.0 / z;
    if (k == 2)
        return -z;
    return 0x1p-1074 * k;         /* subnormal */
}

/* A float input array. */
float average(const float *a, int n)
{
    float s = 0.0f;
    int i;
    for (i = 0; i < n; i++)
        s += a[i];
    if (n <= 0)
        return 0.0f;
    return s / n;
}

struct sample { char tag; double value; float weight; };

/* Struct fields and arrays of floating type, a symbolic index. */
double fields(int i)
{
    struct sample s = { 'x', 0.1, 3.0f };
    double a[4] = { 1.5, -2.25, 1e300, 0x1.8p1 };
    if (i < 0 || i >= 4)
        return -1.0;
    a[i] = a[i] * s.weight + s.value;
    s.value = a[i] * a[i];         /* 1e300 squared is inf */
    return s.value + s.tag;
}

/* Globals of floating type are outputs. */
void scale_hist(int k)
{
    int i;
    for (i = 0; i < 3; i++)
        g_hist[i] = g_hist[i] * (float)g_scale;
    if (k > 0)
        g_scale = g_scale / 3;
    else
        g_scale = -0.0;
}

/* Float parameters. */
int classify(float x, double y)
{
    if (x == 0.0f && y >= 0.0)
        return 0;
    if (x < y)
        return 1;
    return 2;
}

/* The quiet comparisons of <math.h>: false on NaN; `islessgreater` is
 * `<` or `>`. Unordered, greater, less (5), equal. */
int quiet_compare(double x, double y)
{
    if (isunordered(x, y))
        return 0;
    if (isgreater(x, y))
        return 1;
    if (isless(x, y))
        return 2 + islessgreater(x, y) + isgreaterequal(y, x) + islessequal(x, y);
    return 3;
}

/* A Test-Comp style program calling glibc's own classification functions,
 * as older <math.h> headers expand isinf/isnan/isfinite (and preprocessed
 * sv-benchmarks tasks keep), and reading the rounding mode
 * (tests/real_c_sweep.rs). */
extern int __isinff(float);
extern int __isinf(double);
extern int __isnan(double);
extern int __finite(double);
extern int fegetround(void);
extern int fesetround(int);
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);

int main(void)
{
    float f = __VERIFIER_nondet_float();
    double d = __VERIFIER_nondet_double();
    int mode = fegetround();
    if (fesetround(mode) != 0)
        return 9;
    if (__isinff(f) < 0)
        return 1; /* minus infinity */
    if (__isinff(f) > 0)
        return 2;
    if (__isnan(d))
        return 3;
    if (!__finite(d))
        return 4 + (__isinf(d) < 0);
    return 0;
}

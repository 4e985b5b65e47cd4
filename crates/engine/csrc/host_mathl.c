/* The host libm's functions that Pathwise does not model symbolically
 * (crates/engine/src/libc/math.rs and mathl.rs): their results and the
 * errno they set, exactly. Rust's FFI has no `long double`, so those
 * values cross as their 10 little-endian bytes; and Rust's own `f64::ln`
 * and the like give the value but not glibc's errno. */
#include <errno.h>
#include <math.h>
#include <string.h>

/* The double function numbered `op` (the order of `CONCRETE` in math.rs)
 * of `a` and, for two-argument functions, `b`, in `*out`; returns the
 * errno it set (0: none). */
int pathwise_host_math(int op, double a, double b, double *out)
{
    double r;
    errno = 0;
    switch (op) {
    case 0: r = sin(a); break;
    case 1: r = cos(a); break;
    case 2: r = tan(a); break;
    case 3: r = asin(a); break;
    case 4: r = acos(a); break;
    case 5: r = atan(a); break;
    case 6: r = atan2(a, b); break;
    case 7: r = sinh(a); break;
    case 8: r = cosh(a); break;
    case 9: r = tanh(a); break;
    case 10: r = exp(a); break;
    case 11: r = exp2(a); break;
    case 12: r = expm1(a); break;
    case 13: r = log(a); break;
    case 14: r = log2(a); break;
    case 15: r = log10(a); break;
    case 16: r = log1p(a); break;
    case 17: r = pow(a, b); break;
    case 18: r = cbrt(a); break;
    case 19: r = hypot(a, b); break;
    default: r = fmod(a, b); break;
    }
    *out = r;
    return errno;
}

/* The same for `float` (sinf, expf...). */
int pathwise_host_mathf(int op, float a, float b, float *out)
{
    float r;
    errno = 0;
    switch (op) {
    case 0: r = sinf(a); break;
    case 1: r = cosf(a); break;
    case 2: r = tanf(a); break;
    case 3: r = asinf(a); break;
    case 4: r = acosf(a); break;
    case 5: r = atanf(a); break;
    case 6: r = atan2f(a, b); break;
    case 7: r = sinhf(a); break;
    case 8: r = coshf(a); break;
    case 9: r = tanhf(a); break;
    case 10: r = expf(a); break;
    case 11: r = exp2f(a); break;
    case 12: r = expm1f(a); break;
    case 13: r = logf(a); break;
    case 14: r = log2f(a); break;
    case 15: r = log10f(a); break;
    case 16: r = log1pf(a); break;
    case 17: r = powf(a, b); break;
    case 18: r = cbrtf(a); break;
    case 19: r = hypotf(a, b); break;
    default: r = fmodf(a, b); break;
    }
    *out = r;
    return errno;
}

#if defined(__x86_64__) || defined(__i386__)
/* The same for `long double` (the order of `HOST_NAMES` in mathl.rs), on
 * x87 values: 10 bytes from `x` and `y`, the result's 10 in `out`. */
int pathwise_host_mathl(int op, const unsigned char *x, const unsigned char *y, unsigned char *out)
{
    long double a = 0, b = 0, r;
    memcpy(&a, x, 10);
    memcpy(&b, y, 10);
    errno = 0;
    switch (op) {
    case 0: r = sinl(a); break;
    case 1: r = cosl(a); break;
    case 2: r = tanl(a); break;
    case 3: r = asinl(a); break;
    case 4: r = acosl(a); break;
    case 5: r = atanl(a); break;
    case 6: r = atan2l(a, b); break;
    case 7: r = sinhl(a); break;
    case 8: r = coshl(a); break;
    case 9: r = tanhl(a); break;
    case 10: r = expl(a); break;
    case 11: r = exp2l(a); break;
    case 12: r = expm1l(a); break;
    case 13: r = logl(a); break;
    case 14: r = log2l(a); break;
    case 15: r = log10l(a); break;
    case 16: r = log1pl(a); break;
    case 17: r = powl(a, b); break;
    case 18: r = cbrtl(a); break;
    case 19: r = hypotl(a, b); break;
    default: r = fmodl(a, b); break;
    }
    memcpy(out, &r, 10);
    return errno;
}
#endif

/* The host libm's functions that Pathwise does not model symbolically
 * (crates/engine/src/libc/math.rs and mathl.rs): their results and the
 * errno they set, exactly. Rust's FFI has no `long double`, so those
 * values cross as their 10 little-endian bytes; and Rust's own `f64::ln`
 * and the like give the value but not glibc's errno. */
#include <errno.h>
#include <fenv.h>
#include <math.h>
#include <string.h>

/* The functions, in the order of `CONCRETE` in math.rs (an operation's
 * number is its place here); ONE takes one argument, TWO two. */
#define PATHWISE_FUNCTIONS(ONE, TWO, S)                                                               \
    ONE(0, sin##S) ONE(1, cos##S) ONE(2, tan##S) ONE(3, asin##S) ONE(4, acos##S) ONE(5, atan##S)      \
    TWO(6, atan2##S) ONE(7, sinh##S) ONE(8, cosh##S) ONE(9, tanh##S) ONE(10, exp##S) ONE(11, exp2##S) \
    ONE(12, expm1##S) ONE(13, log##S) ONE(14, log2##S) ONE(15, log10##S) ONE(16, log1p##S)           \
    TWO(17, pow##S) ONE(18, cbrt##S) TWO(19, hypot##S) TWO(20, fmod##S)

#define PATHWISE_ONE(n, f) case n: r = f(a); break;
#define PATHWISE_TWO(n, f) case n: r = f(a, b); break;

/* The function numbered `op` of `a` and, for two-argument functions, `b`:
 * its result in `r`, errno cleared first. */
#define PATHWISE_CALL(S)                                      \
    errno = 0;                                                \
    switch (op) {                                             \
        PATHWISE_FUNCTIONS(PATHWISE_ONE, PATHWISE_TWO, S)     \
    default: r = 0; break;                                    \
    }

/* The double function numbered `op`, in `*out`, computed in the rounding
 * direction `mode` (an `FE_*` value: glibc's results depend on it, as the
 * program's would); returns the errno it set (0: none). */
int pathwise_host_math(int op, int mode, double a, double b, double *out)
{
    double r;
    int saved = fegetround();
    fesetround(mode);
    PATHWISE_CALL()
    fesetround(saved);
    *out = r;
    return errno;
}

/* The same for `float` (sinf, expf...). */
int pathwise_host_mathf(int op, int mode, float a, float b, float *out)
{
    float r;
    int saved = fegetround();
    fesetround(mode);
    PATHWISE_CALL(f)
    fesetround(saved);
    *out = r;
    return errno;
}

#if defined(__x86_64__) || defined(__i386__)
/* The same for `long double` (sinl, expl...), on x87 values: 10 bytes
 * from `x` and `y`, the result's 10 in `out`, computed in direction `mode`. */
int pathwise_host_mathl(int op, int mode, const unsigned char *x, const unsigned char *y, unsigned char *out)
{
    long double a = 0, b = 0, r;
    int saved = fegetround();
    memcpy(&a, x, 10);
    memcpy(&b, y, 10);
    fesetround(mode);
    PATHWISE_CALL(l)
    fesetround(saved);
    memcpy(out, &r, 10);
    return errno;
}
#endif

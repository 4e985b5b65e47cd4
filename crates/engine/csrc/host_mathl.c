/* The host libm's `long double` functions on x87 80-bit values, for the
 * engine's library models (crates/engine/src/libc/mathl.rs): Rust's FFI has
 * no `long double`, so values cross as their 10 little-endian bytes. */
#include <math.h>
#include <string.h>

/* The function numbered `op` (the order of `CONCRETE` in mathl.rs) of `x`
 * and, for two-argument functions, `y`; the result's 10 bytes in `out`. */
void pathwise_host_mathl(int op, const unsigned char *x, const unsigned char *y, unsigned char *out)
{
    long double a = 0, b = 0, r;
    memcpy(&a, x, 10);
    memcpy(&b, y, 10);
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
}

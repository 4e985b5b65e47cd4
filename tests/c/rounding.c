/* Rounding directions (`fesetround`): arithmetic in FE_UPWARD,
 * FE_DOWNWARD and FE_TOWARDZERO as x86-64's SSE unit computes it, and the
 * paths that depend on it (crates/cli/tests/rounding.rs). Build natively
 * at -O0, or with clang's -ffp-model=strict: gcc moves floating operations
 * across fesetround calls when optimising, even with -frounding-math. */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The bounds of n / d, rounded down and up, are equal when the quotient
 * is exact. */
int exact_quotient(int n, int d) {
  if (d == 0)
    return -1;
  float fn = (float)n, fd = (float)d;
  fesetround(FE_DOWNWARD);
  float lo = fn / fd;
  fesetround(FE_UPWARD);
  float hi = fn / fd;
  fesetround(FE_TONEAREST);
  if (lo > hi)
    return -2; /* never */
  if (lo == hi)
    return 1;
  return 0;
}

/* rint in the direction the caller chose: a mode that is no direction is
 * refused; rounding up never lands below x, nor rounding down above it. */
int rint_in(int mode, double x) {
  if (fesetround(mode) != 0)
    return -1;
  double r = rint(x);
  int m = fegetround();
  fesetround(FE_TONEAREST);
  if (r > x)
    return m == FE_UPWARD ? 2 : 3;
  if (r < x)
    return 4;
  return 5;
}

/* x + y rounded up and toward zero: equal when exact or negative. */
int sum_spread(double x, double y) {
  fesetround(FE_UPWARD);
  double up = x + y;
  fesetround(FE_TOWARDZERO);
  double tz = x + y;
  fesetround(FE_TONEAREST);
  if (up != up)
    return 0;
  if (up == tz)
    return 1;
  if (up > tz)
    return 2;
  return 3; /* never: toward zero is below upward */
}

/* A square root rounded up is at least the exact root: its square, even
 * rounded to nearest, is never below x (but for NaN and x < 0). */
int sqrt_up(double x) {
  fesetround(FE_UPWARD);
  double r = sqrt(x);
  fesetround(FE_TONEAREST);
  if (r * r >= x)
    return 1;
  return 0;
}

/* long double arithmetic rounds in the direction too, in the x87 unit's
 * 64 bits: 1/3 rounded up, times 3 to nearest, is 1; rounded down, it
 * stays below 1. Its conversion to double rounds in the direction as
 * well: up, above the double nearest 1/3 (which is below 1/3); down, that
 * double. `one` is volatile so that no compiler computes the quotient
 * when it builds, to nearest. */
int third_in(int up) {
  volatile long double one = 1;
  fesetround(up ? FE_UPWARD : FE_DOWNWARD);
  long double t = one / 3;
  double d = (double)t;
  fesetround(FE_TONEAREST);
  if (t * 3 == 1)
    return d > 1.0 / 3 ? 1 : 2;
  return d < 1.0 / 3 ? 3 : 4;
}

/* printf and strtod round in the direction too, as glibc's do: 1.005 is
 * 1.00499999999999989... in binary, so "%.2f" gives 1.01 up and 1.00
 * down; "0.1" lies between two doubles, the one nearest being above. */
int decimal_in(int up) {
  char text[16];
  fesetround(up ? FE_UPWARD : FE_DOWNWARD);
  snprintf(text, sizeof text, "%.2f", 1.005);
  double tenth = strtod("0.1", 0);
  fesetround(FE_TONEAREST);
  return (text[3] - '0') * 10 + (tenth == 0.1);
}

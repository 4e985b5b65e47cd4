/* A program in the style of sv-benchmarks (Test-Comp): inputs come from
 * __VERIFIER_nondet_*() calls, errors are calls to reach_error(). It
 * includes the usual system headers, whose declarations (FILE, div_t,
 * printf...) must not get in the way of the functions that do not use them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>
#include <limits.h>
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern char __VERIFIER_nondet_char(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "sv_style.c", 3, "reach_error"); }
void __VERIFIER_assume(int);
static inline int __attribute__((always_inline)) sq(int x) { return x * x; }
__extension__ typedef long long ll;
extern int g(void) __asm__("gg");
int counter __attribute__((unused)) = 0;
int h(int *restrict p, const int * __restrict q, register int r) { volatile int v = r; return *p + *q + v; }
int uses_div(int a) {
  _Float128 x = a; /* extended floating type: unsupported */
  div_t d = div(a, 3);
  return d.quot + (int)x;
}
int main() {
  int x = __VERIFIER_nondet_int();
  unsigned int u = __VERIFIER_nondet_uint();
  _Bool b = __VERIFIER_nondet_bool();
  __signed__ int s = x;
  __const int c = 3;
  ll big = (ll)x << 33;
  int y = ({ int t = x; t + 1; });
  if (__builtin_expect(x > 10, 0)) { x = 10; }
  __VERIFIER_assume(x > -100);
  assert(x <= 10 && x < INT_MAX);
  if (y > 1000) __builtin_unreachable();
  const char *fn = __func__;
  const char *pf = __PRETTY_FUNCTION__;
  const char *name = __FUNCTION__;
  if (name[0] != 'm') reach_error();
  if (fn[1] != 'a') reach_error();
  if (pf[3] != 'n' || sizeof(__func__) != 5) reach_error();
  if (x < 0) goto out;
  x = sq(x) + s + c + b + (int)u + (int)(big >> 40);
out:
  if (x == 12345) { reach_error(); abort(); }
  return 0;
}

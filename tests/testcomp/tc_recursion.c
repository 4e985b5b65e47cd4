// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-error-call.prp
// reach_error: reachable
// testcov-goals: 10, coverable: 10 (100%: all feasible)
// gcov-branches: 10, coverable: 10 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: fib(5) for reach_error: 4 activations nested below the first; digit_sum(999): 2
// Recursion: Fibonacci of an input (0..6 by assumption) and a recursive
// digit sum; reach_error needs fib(n) == 5, i.e. n == 5 (a recursion
// depth of 5).
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tc_recursion.c", 13, "reach_error"); }
void assume_abort_if_not(int cond) { if(!cond) {abort();} }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int fib(int n) {
  if (n < 2) {
    return n;
  }
  return fib(n - 1) + fib(n - 2);
}

unsigned int digit_sum(unsigned int v) {
  if (v < 10) {
    return v;
  }
  return v % 10 + digit_sum(v / 10);
}

int main() {
  int n = __VERIFIER_nondet_int();
  assume_abort_if_not(n >= 0);
  assume_abort_if_not(n <= 6);
  unsigned int m = __VERIFIER_nondet_uint();
  assume_abort_if_not(m < 1000);
  if (digit_sum(m) == 27) {
    return 2;
  }
  if (fib(n) == 5) {
    reach_error();
  }
  return 0;
}

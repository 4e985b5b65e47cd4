// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-error-call.prp
// reach_error: reachable
// testcov-goals: 6, coverable: 6 (100%: all feasible)
// gcov-branches: 14, coverable: 14 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: no loop
// reach_error through the usual __VERIFIER_assert, under a linear
// condition on two bounded inputs that one input vector satisfies among
// few (x > y and 3x + 2y == 77 with 0 <= x, y <= 100: x = 19, y = 10 or
// x = 17, y = 13 or x = 21, y = 7, ...).
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tc_error_reachable.c", 14, "reach_error"); }
void assume_abort_if_not(int cond) { if(!cond) {abort();} }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();abort();} } return; }
extern int __VERIFIER_nondet_int(void);

int main() {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  assume_abort_if_not(x >= 0 && x <= 100);
  assume_abort_if_not(y >= 0 && y <= 100);
  int z = 3 * x + 2 * y;
  if (x > y) {
    __VERIFIER_assert(z != 77);
  }
  return 0;
}

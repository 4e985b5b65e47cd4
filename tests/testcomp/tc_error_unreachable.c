// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-error-call.prp
// reach_error: unreachable
// testcov-goals: 6, coverable: 5 (1 infeasible: the then-branch of `if (y % 4 == 2)`)
// gcov-branches: 10, coverable: 9 (1 infeasible: the then-branch of `if (y % 4 == 2)`)
// data models: ILP32 and LP64, same figures
// needs: no loop
// reach_error guarded by an impossible condition: a square is 0 or 1
// modulo 4, never 2. The then-branch of `if (y % 4 == 2)` is infeasible
// (the only infeasible branch of the corpus); every other branch is
// coverable.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tc_error_unreachable.c", 14, "reach_error"); }
void assume_abort_if_not(int cond) { if(!cond) {abort();} }
extern int __VERIFIER_nondet_int(void);

int odd_squares;

int main() {
  int x = __VERIFIER_nondet_int();
  assume_abort_if_not(x >= 0 && x < 1000);
  int y = x * x;
  if (y % 4 == 2) {
    reach_error();
  }
  if (y % 4 == 1) {
    odd_squares++;
  }
  return 0;
}

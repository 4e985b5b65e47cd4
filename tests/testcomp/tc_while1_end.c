// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-error-call.prp
// reach_error: reachable
// testcov-goals: 7, coverable: 4 (measurable by TestCov; all are feasible, see below)
// gcov-branches: 8, coverable: 5 (measurable by TestCov; all are feasible, see below)
// data models: ILP32 and LP64, same figures
// needs: 3 iterations of the for loop (constant bound) before the infinite loop
// Work, then `while (1) {}` with no input: every execution that does not
// reach reach_error runs forever. TestCov kills such a test after
// --timelimit-per-run (3 s) and measures nothing for it (no .gcda is
// written), so branch coverage only counts the tests that reach
// reach_error (__assert_fail flushes coverage first). The "coverable"
// figures above are therefore what any suite can get measured (the path
// to reach_error: loop body and exit, a set bit, the error), not what is
// feasible (all 7 goals, all 8 gcc branches). With coverage-error-call.prp,
// reach_error becomes exit(1) and the covering test ends normally.
// TestCov counts 7 goals: 2 per if and for, 1 for the body of the infinite
// loop (its exit is dead code); gcc counts 8 branches (the && has two
// conditions, the infinite loop none).
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tc_while1_end.c", 22, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);
extern short __VERIFIER_nondet_short(void);

int main() {
  unsigned char a = __VERIFIER_nondet_uchar();
  short b = __VERIFIER_nondet_short();
  int acc = 0;
  for (int i = 0; i < 3; i++) {
    if ((a >> i) & 1) {
      acc += b;
    }
  }
  if (acc == 300 && b == 100) {
    reach_error();
  }
  while (1) {
  }
}

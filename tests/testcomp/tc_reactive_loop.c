// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: reachable
// testcov-goals: 12, coverable: 12 (100%: all feasible)
// gcov-branches: 14, coverable: 14 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: 3 iterations of while (1) for reach_error, 2 for the other branches
// A reactive system: `while (1)` reading one input per iteration, a state
// machine that calls reach_error after the inputs 1, 2, 3 (three
// iterations; every other branch within two). A test ends when TestCov's
// harness runs out of inputs (it prints "No more test inputs available"
// and exits with status 1, which still records coverage).
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tc_reactive_loop.c", 15, "reach_error"); }
extern int __VERIFIER_nondet_int(void);

int state = 0;

int main() {
  while (1) {
    int in = __VERIFIER_nondet_int();
    if (in < 0 || in > 3) {
      continue;
    }
    if (state == 0) {
      if (in == 1) {
        state = 1;
      }
    } else if (state == 1) {
      if (in == 2) {
        state = 2;
      } else {
        state = 0;
      }
    } else {
      if (in == 3) {
        reach_error();
      }
      state = 0;
    }
  }
  return 0;
}

// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: reachable
// testcov-goals: 7, coverable: 4 (measurable by TestCov; all are feasible, see below)
// gcov-branches: 8, coverable: 6 (measurable by TestCov; all are feasible, see below)
// pathwise: covers 8 gcov branches, 4 TestCov goals (predicted: all 8; measurable: 6)
// data models: ILP32 and LP64, same figures
// needs: no loop bound (the server loop never ends)
// A "server" that, in one mode, configures itself from one more input and
// then loops forever without reading: every such execution runs until it
// is killed, and TestCov measures a test only when the program exits. A
// test that stops one input short of the hang ends at that input (the
// harness exits when inputs run out), so the mode check is measured; the
// configuration branches after the last input are not measurable: of
// TestCov's 7 goals (mode, port, the loop body, x) 4 can be measured, of
// gcc's 8 branches 6. Pathwise's suite reaches exactly those; without the
// shortened test, the mode-7 side would be measured by no test.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tc_server_loop.c", 16, "reach_error"); }
extern int __VERIFIER_nondet_int(void);

volatile int ticks;

int main() {
  int mode = __VERIFIER_nondet_int();
  if (mode == 7) {
    int port = __VERIFIER_nondet_int();
    if (port < 1024)
      port = 8080;
    while (1) {
      ticks = ticks + port;
    }
  }
  int x = __VERIFIER_nondet_int();
  if (x > mode && x - mode == 5)
    reach_error();
  return 0;
}

// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 17, coverable: 17 (100%: all feasible)
// gcov-branches: 26, coverable: 26 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: 7 iterations of the reactive loop
// A reactive while (1) loop (an ECA-style controller): one input per
// iteration, a small state machine over globals; the program ends only by
// exit() (a clean stop command, or too many steps) or abort() (a bad
// state).
extern int __VERIFIER_nondet_int(void);
extern void exit(int) __attribute__ ((__noreturn__));
extern void abort(void) __attribute__ ((__noreturn__));

int a1 = 1;
int a2 = 0;
int steps = 0;

int calculate_output(int input) {
  if (input == 1 && a1 == 1) {
    a1 = 2;
    return 21;
  }
  if (input == 2 && a1 == 2) {
    a2 = a2 + 3;
    return 22;
  }
  if (input == 3 && a2 > 5) {
    a1 = 3;
    return 23;
  }
  if (input == 4 && a1 == 3) {
    abort();
  }
  return -1;
}

int main() {
  while (1) {
    int input = __VERIFIER_nondet_int();
    if (input == 0) {
      exit(0);
    }
    if (input < 1 || input > 4) {
      return 2;
    }
    int out = calculate_output(input);
    steps++;
    if (steps > 6) {
      exit(out < 0 ? 1 : 3);
    }
  }
}

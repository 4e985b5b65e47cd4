// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 17, coverable: 17 (100%: all feasible)
// gcov-branches: 17, coverable: 17 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: no loop
// A calculator: switch on a char input (characters are numbers in the test
// format: '+' is 43), with a case list sharing a body, a fall-through and
// a default, then a switch on a remainder that can be negative.
extern char __VERIFIER_nondet_char(void);
extern short __VERIFIER_nondet_short(void);

int main() {
  char op = __VERIFIER_nondet_char();
  short a = __VERIFIER_nondet_short();
  short b = __VERIFIER_nondet_short();
  int r = 0;
  switch (op) {
  case '+':
    r = a + b;
    break;
  case '-':
    r = a - b;
    break;
  case '*':
    r = a * b;
    break;
  case '/':
    if (b == 0) {
      return 1;
    }
    r = a / b;
    break;
  case 'n':
  case 'N':
    r = -a;
    break;
  case 'z':
    r = 10;
    /* fall through */
  case 'i':
    r += 1;
    break;
  default:
    return 2;
  }
  int kind;
  switch (r % 4) {
  case 0:
    kind = 0;
    break;
  case 1:
  case -1:
    kind = 1;
    break;
  default:
    kind = 2;
  }
  if (kind == 2 && r > 30000) {
    return 3;
  }
  return 0;
}

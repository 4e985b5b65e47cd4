// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 8, coverable: 8 (100%: all feasible)
// gcov-branches: 16, coverable: 16 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: no loop
// Conditions built with &&, ||, ! and ?: on long, unsigned long, _Bool and
// int inputs. TestCov counts two goals per if and per ?: (the decision's
// outcomes); gcc counts two branches per atomic condition, so the two
// figures differ here.
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern int __VERIFIER_nondet_int(void);

int main() {
  long a = __VERIFIER_nondet_long();
  unsigned long b = __VERIFIER_nondet_ulong();
  _Bool f = __VERIFIER_nondet_bool();
  int c = __VERIFIER_nondet_int();
  int r = 0;
  if (a > 0 && b > 10UL) {
    r += 1;
  }
  if (a < -5 || !f) {
    r += 2;
  }
  int m = (a > c) ? 1 : -1;
  if (!(c == 7) && (f || b == 3UL)) {
    r += m;
  }
  return r;
}

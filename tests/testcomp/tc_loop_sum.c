// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 10, coverable: 10 (100%: all feasible)
// gcov-branches: 18, coverable: 18 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: 2 iterations of the loop (two negative values)
// A loop whose bound is an input (0..3 by assumption), reading one more
// input per iteration. Covering the abort in assume_abort_if_not needs a
// test that violates an assumption.
extern void abort(void);
void assume_abort_if_not(int cond) { if(!cond) {abort();} }
extern int __VERIFIER_nondet_int(void);

int main() {
  int n = __VERIFIER_nondet_int();
  assume_abort_if_not(n >= 0 && n <= 3);
  int sum = 0;
  int neg = 0;
  for (int k = 0; k < n; k++) {
    int v = __VERIFIER_nondet_int();
    assume_abort_if_not(v > -100 && v < 100);
    if (v < 0) {
      neg++;
    } else {
      sum += v;
    }
  }
  if (neg >= 2) {
    sum = -sum;
  }
  if (sum > 50) {
    return 1;
  }
  return 0;
}

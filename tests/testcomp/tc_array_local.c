// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 18, coverable: 18 (100%: all feasible)
// gcov-branches: 18, coverable: 18 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: 2 iterations of each loop
// A local array filled from inputs (length 0..4 by assumption), then the
// position of its maximum and a check that the array is sorted.
extern void abort(void);
void assume_abort_if_not(int cond) { if(!cond) {abort();} }
extern unsigned int __VERIFIER_nondet_uint(void);
extern short __VERIFIER_nondet_short(void);

int main() {
  int a[4];
  unsigned int n = __VERIFIER_nondet_uint();
  assume_abort_if_not(n <= 4);
  unsigned int k;
  for (k = 0; k < n; k++) {
    a[k] = __VERIFIER_nondet_short();
  }
  int max = -40000;
  unsigned int pos = 0;
  for (k = 0; k < n; k++) {
    if (a[k] > max) {
      max = a[k];
      pos = k;
    }
  }
  int sorted = 1;
  for (k = 1; k < n; k++) {
    if (a[k - 1] > a[k]) {
      sorted = 0;
      break;
    }
  }
  if (n > 1) {
    if (sorted) {
      if (pos != n - 1) {
        return 2;
      }
    } else {
      return 1;
    }
  }
  return 0;
}

// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 8, coverable: 8 (100%: all feasible)
// gcov-branches: 16, coverable: 16 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: no loop
// A local array of 100,000 ints of which a handful of elements are used:
// a few writes at input-chosen positions, then reads back. Large arrays
// like this are common in sv-benchmarks (buffers sized for the worst case).
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void assume_abort_if_not(int cond) {
  if (!cond) {
    abort();
  }
}

#define N 100000

int main() {
  int a[N];
  int k = __VERIFIER_nondet_int();
  assume_abort_if_not(k >= 0 && k < N - 1);
  a[0] = 1;
  a[N - 1] = 2;
  a[k] = 7;
  a[k + 1] = a[k] + 1;
  int j = __VERIFIER_nondet_int();
  assume_abort_if_not(j >= 0 && j < N);
  if (a[j] == 8) {
    if (j == N - 1) {
      return 3;
    }
    return 1;
  }
  if (a[0] == 7) {
    return 2;
  }
  return 0;
}

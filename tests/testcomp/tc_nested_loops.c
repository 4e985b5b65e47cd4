// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 11, coverable: 11 (100%: all feasible)
// gcov-branches: 12, coverable: 12 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: 3 iterations of each for loop (n = m = 3), 4 of the do-while
// Nested for loops with input bounds (unsigned long, 0..3 by
// __VERIFIER_assume), break and continue, then a do-while loop. All
// branches are covered with n = m = 3 (the inner loop runs at most 3 times
// per entry) plus n = 0.
extern void __VERIFIER_assume(int cond);
extern unsigned long __VERIFIER_nondet_ulong(void);

int main() {
  unsigned long n = __VERIFIER_nondet_ulong();
  unsigned long m = __VERIFIER_nondet_ulong();
  __VERIFIER_assume(n <= 3);
  __VERIFIER_assume(m <= 3);
  unsigned long count = 0;
  for (unsigned long i = 0; i < n; i++) {
    for (unsigned long j = 0; j < m; j++) {
      if (j > i) {
        break;
      }
      if ((i + j) % 2 == 1) {
        continue;
      }
      count++;
    }
  }
  int k = 0;
  do {
    k++;
  } while (k < (int)count);
  if (count == 4) {
    return 1;
  }
  return 0;
}

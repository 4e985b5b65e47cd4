// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 6, coverable: 6 (100%: all feasible)
// gcov-branches: 8, coverable: 8 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: 3 iterations (indices 1, 3 and 5 for the last then-branch)
// Global arrays, one initialised, indexed by inputs; assumptions through
// __VERIFIER_assume (defined by the test harness, so no branch here).
extern void __VERIFIER_assume(int cond);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);

int table[6] = {3, 1, 4, 1, 5, 9};
unsigned char hist[10];

int main() {
  int rounds = __VERIFIER_nondet_int();
  __VERIFIER_assume(rounds >= 1);
  __VERIFIER_assume(rounds <= 3);
  int r;
  for (r = 0; r < rounds; r++) {
    unsigned char idx = __VERIFIER_nondet_uchar();
    __VERIFIER_assume(idx < 6);
    hist[table[idx]]++;
  }
  if (hist[1] >= 2) {
    table[0] = 0;
  }
  if (hist[9] > 0 && table[0] == 0) {
    return 1;
  }
  return 0;
}

// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 10, coverable: 10 (100%: all feasible)
// gcov-branches: 12, coverable: 12 (100%: all feasible)
// data models: ILP32 and LP64, same figures but different inputs
// needs: no loop
// Every branch is feasible under both data models, but the inputs that take
// them differ: a suite for one model misses goals under the other.
// - x * 3 == 1 holds for the inverse of 3 modulo 2^32 (2863311531) under
//   ILP32, modulo 2^64 (12297829382473034411) under LP64;
// - the top bit of an unsigned long is bit 31 or bit 63;
// - long + unsigned int is a 32-bit unsigned long under ILP32 (-1 + 0 is
//   4294967295 > 5) but a signed long under LP64 (-1 + 0 is -1);
// - n pointers take 24 bytes for n = 6 under ILP32, n = 3 under LP64.
extern unsigned long __VERIFIER_nondet_ulong(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main() {
  unsigned long x = __VERIFIER_nondet_ulong();
  long l = __VERIFIER_nondet_long();
  unsigned int u = __VERIFIER_nondet_uint();
  unsigned int n = __VERIFIER_nondet_uint();
  int r = 0;
  if (x * 3UL == 1UL) {
    r += 1;
  } else {
    r += 2;
  }
  if (x >> (sizeof(long) * 8 - 1)) {
    r += 4;
  }
  if (l < 0) {
    if (l + u > 5) {
      r += 8;
    } else {
      r += 16;
    }
  }
  if (n < 100 && n * sizeof(void *) == 24) {
    r += 32;
  }
  return r;
}

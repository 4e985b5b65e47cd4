// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 14, coverable: 14 (100%: all feasible)
// gcov-branches: 14, coverable: 14 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: 4 iterations of the while loop (a low nibble of 0xF)
// Bit operations on unsigned inputs: rotation by an input amount, a
// population count of the low nibble (a loop of at most 4 iterations),
// masks, exclusive or.
extern void abort(void);
void assume_abort_if_not(int cond) { if(!cond) {abort();} }
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main() {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned char sh = __VERIFIER_nondet_uchar();
  assume_abort_if_not(sh < 32);
  unsigned int r = (x << sh) | (x >> ((32 - sh) & 31));
  int bits = 0;
  unsigned int v = x & 0xFu;
  while (v != 0) {
    v &= v - 1;
    bits++;
  }
  int result = 0;
  if (bits == 4) {
    result |= 1;
  }
  if ((r ^ x) == 0) {
    result |= 2;
  }
  if (x & 0x80000000u) {
    result |= 4;
  }
  if ((x | 0xFu) == 0xFFu) {
    result |= 8;
  }
  if ((x >> 4) % 3 == 2) {
    result |= 16;
  }
  return result == 31;
}

// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 20, coverable: 20 (100%: all feasible)
// gcov-branches: 20, coverable: 20 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: 4 iterations of the clz loop
// Bit manipulation on unsigned int and unsigned char: leading zeros by a
// loop, parity by folding, a byte swap, a mask of the lowest set bit, and
// a loop with a nondet bound over the bits of a word.
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

static int clz(unsigned int x) {
  int n = 0;
  if (x == 0) {
    return 32;
  }
  while (!(x & 0x80000000u)) {
    x <<= 1;
    n++;
    if (n > 3) {
      break;
    }
  }
  return n;
}

static unsigned int parity(unsigned int x) {
  x ^= x >> 16;
  x ^= x >> 8;
  x ^= x >> 4;
  return (0x6996u >> (x & 0xfu)) & 1u;
}

static unsigned int bswap(unsigned int x) {
  return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
}

int main() {
  unsigned int w = __VERIFIER_nondet_uint();
  unsigned char m = __VERIFIER_nondet_uchar();
  int r = 0;
  if (clz(w) == 2) {
    r |= 1;
  }
  if (parity(w)) {
    r |= 2;
  }
  if (bswap(w) == 0x12345678u) {
    r |= 4;
  }
  if ((w & (0u - w)) == 0x100u) {
    r |= 8;
  }
  unsigned int bits = m & 7u;
  unsigned int ones = 0;
  for (unsigned int i = 0; i < bits; i++) {
    if ((w >> i) & 1u) {
      ones++;
    }
  }
  if (ones == 3) {
    r |= 16;
  }
  return r;
}

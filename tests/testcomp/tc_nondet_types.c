// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 18, coverable: 18 (100%: all feasible)
// gcov-branches: 18, coverable: 18 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: no loop
// One input of each __VERIFIER_nondet_* type and a decision on each value,
// at the extremes of the type where the type allows it.
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern short __VERIFIER_nondet_short(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern _Bool __VERIFIER_nondet_bool(void);

int score;

int main() {
  char c = __VERIFIER_nondet_char();
  unsigned char uc = __VERIFIER_nondet_uchar();
  short s = __VERIFIER_nondet_short();
  int i = __VERIFIER_nondet_int();
  unsigned int u = __VERIFIER_nondet_uint();
  long l = __VERIFIER_nondet_long();
  unsigned long ul = __VERIFIER_nondet_ulong();
  _Bool b = __VERIFIER_nondet_bool();

  if (c < 0) {
    score += 1;
  }
  if (uc > 200) {
    score += 2;
  }
  if (s == -32768) {
    score += 3;
  }
  if (i < -1000000) {
    score += 4;
  }
  if (u == 4294967295U) {
    score += 5;
  }
  if (l < -2000000000L) {
    score += 6;
  }
  if (ul > 4000000000UL) {
    score += 7;
  }
  if (b) {
    score += 8;
  }
  if (score == 36) {
    return 1;
  }
  return 0;
}

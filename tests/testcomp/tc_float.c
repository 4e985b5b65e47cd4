// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 13, coverable: 13 (100%: all feasible)
// gcov-branches: 16, coverable: 16 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: no loop
// Floating inputs: a NaN test, integers derived from a float and a double
// (truncation toward zero), a float computed from an integer input. The
// engine's floats are symbolic (IEEE in the solver): every goal is reached,
// the NaN side with a NaN input.
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);

int result;

int main() {
  float f = __VERIFIER_nondet_float();
  double d = __VERIFIER_nondet_double();
  int n = __VERIFIER_nondet_int();
  if (f != f) {               // NaN
    result = -1;
    return 0;
  }
  if (n > 1000) {
    n = 1000;
  } else if (n < -1000) {
    n = -1000;
  }
  if (d > 1e6 || d < -1e6) {  // keeps the conversions below defined
    d = 0.5;
  }
  int i = (int)(f * 2.0f);    // an int derived from a float
  if (i == 0) {
    result = 1;
  } else {
    result = 2;
  }
  long l = (long)d;           // an int derived from a double
  if (l < 0) {
    result += 10;
  }
  double x = n / 4.0;         // n stays symbolic through the conversion
  if (x > 0.75) {
    result += 100;
  }
  return 0;
}

// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-error-call.prp
// reach_error: reachable
// testcov-goals: 15, coverable: 15 (100%: all feasible)
// gcov-branches: 21, coverable: 21 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: 3 iterations of the goto loop
// A state machine written with goto (as CIL-simplified sv-benchmarks are):
// backward jumps form the loop, a nondet bound, reach_error after the
// right sequence of inputs.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tc_goto.c", 9, "reach_error"); }
extern int __VERIFIER_nondet_int(void);

int main() {
  int n = __VERIFIER_nondet_int();
  int state = 0;
  int i = 0;
  if (n < 0 || n > 6) {
    goto out;
  }
loop:
  if (i >= n) {
    goto done;
  }
  int in = __VERIFIER_nondet_int();
  switch (state) {
  case 0:
    if (in == 3) {
      state = 1;
    }
    break;
  case 1:
    if (in > 10) {
      state = 2;
    } else {
      state = 0;
    }
    break;
  default:
    if ((unsigned int)in == 0u - (unsigned int)in && in != 0) {
      state = 3;
    }
    break;
  }
  i++;
  goto loop;
done:
  if (state == 2 && i == 3) {
    goto error;
  }
out:
  return 0;
error:
  reach_error();
  return 1;
}

// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: reachable
// testcov-goals: 12, coverable: 12
// gcov-branches: 28, coverable: 28
// data models: ILP32 and LP64, same figures
// needs: 3 iterations of each loop
// A two-dimensional variable-length array whose both dimensions are
// inputs: rows of a runtime size (m[i] strides by cols), sizeof of a row
// computed at run time, the diagonal summed, and a pointer to a row.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tc_vla_2d.c", 13, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
void assume_abort_if_not(int cond) { if (!cond) { abort(); } }

int main() {
  int rows = __VERIFIER_nondet_int();
  int cols = __VERIFIER_nondet_int();
  assume_abort_if_not(rows >= 1 && rows <= 3 && cols >= 1 && cols <= 3);
  int m[rows][cols];
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      m[i][j] = __VERIFIER_nondet_int() % 10;
  int trace = 0;
  for (int i = 0; i < rows && i < cols; i++)
    trace += m[i][i];
  int (*last)[cols] = &m[rows - 1];
  if (sizeof m[0] == 3 * sizeof(int) && (*last)[cols - 1] < 0)
    return 1;
  if (rows == 3 && cols == 3 && trace == 27)
    reach_error();
  return 0;
}

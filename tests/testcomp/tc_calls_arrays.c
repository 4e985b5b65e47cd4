// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-error-call.prp
// reach_error: reachable
// testcov-goals: 16, coverable: 16 (100%: all feasible)
// gcov-branches: 24, coverable: 24 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: 3 iterations of the insertion sort
// Nested calls that pass an array and its length: fill from inputs with a
// nondet length, insertion sort, binary search, and an error when the
// search finds the value at a particular position.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "tc_calls_arrays.c", 9, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
void assume_abort_if_not(int cond) {
  if (!cond) {
    abort();
  }
}

static void fill(int *a, int n) {
  for (int i = 0; i < n; i++) {
    a[i] = __VERIFIER_nondet_int();
  }
}

static void swap(int *x, int *y) {
  int t = *x;
  *x = *y;
  *y = t;
}

static void sort(int *a, int n) {
  for (int i = 1; i < n; i++) {
    for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
      swap(&a[j - 1], &a[j]);
    }
  }
}

static int find(const int *a, int n, int v) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] == v) {
      return mid;
    }
    if (a[mid] < v) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

int main() {
  int a[4];
  int n = __VERIFIER_nondet_int();
  assume_abort_if_not(n >= 1 && n <= 4);
  fill(a, n);
  sort(a, n);
  int v = __VERIFIER_nondet_int();
  int pos = find(a, n, v);
  if (pos == 2 && a[0] == v - 2) {
    reach_error();
  }
  return pos;
}

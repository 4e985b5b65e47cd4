// Pathwise Test-Comp corpus: hand-written sv-benchmarks-style program.
// property: coverage-branches.prp
// reach_error: absent
// testcov-goals: 12, coverable: 12 (100%: all feasible)
// gcov-branches: 18, coverable: 18 (100%: all feasible)
// data models: ILP32 and LP64, same figures
// needs: no loop
// GNU C as preprocessed .i files have it: attributes on declarations,
// __extension__, __inline, __restrict, typedefs of the libc headers, a
// static inline helper, __builtin_expect, assume_abort_if_not.
typedef unsigned int size_t;
__extension__ typedef long long int __quad_t;
__extension__ typedef unsigned long long int __u_quad_t;
typedef __quad_t quad_t;
extern void abort(void) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
extern int __VERIFIER_nondet_int(void) __attribute__ ((__nothrow__));
extern unsigned int __VERIFIER_nondet_uint(void);
extern short __VERIFIER_nondet_short(void);
void assume_abort_if_not(int cond) {
  if (!cond) {
    abort();
  }
}

static __inline int __attribute__ ((__always_inline__)) clamp(int v, int lo, int hi) {
  // Not `v < lo ? lo : (v > hi ? hi : v)`: gcc folds the inner ?: into a
  // MIN_EXPR without a branch, even at -O0, so gcov would count 2 branches
  // where the C source has 4.
  if (v < lo) {
    return lo;
  }
  if (v > hi) {
    return hi;
  }
  return v;
}

static int __attribute__((__noinline__)) sum3(const int *__restrict p) {
  return p[0] + p[1] + p[2];
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  unsigned int b = __VERIFIER_nondet_uint();
  short s = __VERIFIER_nondet_short();
  assume_abort_if_not(a > -1000 && a < 1000);
  int v[3] = { a, (int)(b & 0xffu), s };
  quad_t big = (__extension__ 1LL << 40) + a;
  int t = clamp(sum3(v), -50, 50);
  if (__builtin_expect(t == 50, 0)) {
    return 1;
  }
  if (big > (1LL << 40) + 10 && s < 0) {
    return 2;
  }
  if ((__u_quad_t)big % 7u == 3u) {
    return 3;
  }
  return 0;
}

extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "gnu_attributes.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error() __attribute__ ((__noreturn__));
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
    ERROR: {reach_error();abort();}
  }
  return;
}
__attribute__((noinline)) int f(int x) { return x; }
int __attribute__((pure)) g(int x) { return x; }
int k(int x) __attribute__((warn_unused_result));
int k(int x) { return x; }
int j(int x __attribute__((unused)), int y) { return y; }
int *__attribute__((unused)) pp;
struct __attribute__((packed)) S { int a; };
int l(void) {
  int a __attribute__((unused)) = 1;
  int __attribute__((unused)) b = 2;
  __attribute__((unused)) int c = 3;
  return a + b + c;
}
int labels(int n) {
  int i = 0;
again:;
  i++;
  if (i < n) goto again;
  return i;
}
int main() {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assert(f(x) == g(x));
  if (x == 5) __VERIFIER_error();
  return l() + labels(3) + j(1,2) + k(0);
}
typedef int aligned_int __attribute__((aligned(8)));
typedef unsigned char __attribute__((__may_alias__)) byte_alias;
aligned_int sum_aligned(aligned_int a, byte_alias b) { return a + (int)sizeof(aligned_int) + b; }

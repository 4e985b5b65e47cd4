//! Differential tests: C functions lowered to the IR and run by the test
//! interpreter must compute what gcc computes (`-fwrapv`, since the IR wraps
//! on signed overflow too).

mod common;

use common::interp::Interp;
use common::{assert_cases_match_gcc, program};

/// Each `long tN(void)` is run by gcc and by the interpreter.
const CASES: &str = r#"
#include <pathwise.h>
int g_arr[5] = {1, 2, 3};
unsigned char g_bytes[] = "az";
int g_m[2][3] = {{1, 2, 3}, {4, 5, 6}};
static int g_count;
enum colour { RED, GREEN = 5, BLUE };

static int add3(int a, int b, int c) { return a + b + c; }
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int counter(void) { static int n = 10; return n++; }
static void bump(int *p) { (*p)++; g_count += 2; }
static int sum(const int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }

long t0(void) { unsigned u = 1; int i = -1; return u < i; }
long t1(void) { return -1 < 0xFFFFFFFF; }
long t2(void) { return -1 < 2147483648; }
long t3(void) { char c = 200; return c; }
long t4(void) { unsigned char c = 250; c += 10; return c; }
long t5(void) { int x = -7; return x / 2 * 100 + x % 2; }
long t6(void) { unsigned x = 7; return (x - 10) / 2; }
long t7(void) { int x = -16; return x >> 2; }
long t8(void) { unsigned x = 0x80000000u; return x >> 4; }
long t9(void) { short s = -1; unsigned short us = s; return us + s; }
long t10(void) { long l = -5; unsigned u = 3; return l * u; }
long t11(void) { unsigned long ul = 5; long l = -1; return l < ul; }
long t12(void) { _Bool b = 42; _Bool z = 0; return b * 10 + z + (_Bool)0 * 3 + (_Bool)-2; }
long t13(void) { int x = 5; int y = x++ + ++x; return y * 100 + x; }
long t14(void) { int a[4] = {1, 2}; int *p = a + 3; return p - a + a[1] * 10 + a[3]; }
long t15(void) { int m[3][4]; for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) m[i][j] = i * 10 + j; return m[2][3] + m[1][0]; }
long t16(void) { int s = 0; for (int i = 0; i < 10; i++) { if (i % 2) continue; if (i > 6) break; s += i; } return s; }
long t17(void) { int i = 0, s = 0; do { i++; if (i == 2) continue; s += i; } while (i < 5); return s; }
long t18(void) { long r = 0; for (int k = 0; k < 6; k++) { switch (k) { case 0: r += 1; case 1: r += 10; break; case 3: r += 100; default: r += 1000; case 5: r += 10000; } } return r; }
long t19(void) { int i = 0; again: i++; if (i < 5) goto again; return i; }
long t20(void) { int a = 3, b = 0; return (a && b) * 10 + (a || b) * 100 + !(a && !b) * 1000 + !b; }
long t21(void) { int x = 5; long l = x > 3 ? 10L : x; unsigned u = x > 9 ? 1u : -1; return l + (u > 0); }
long t22(void) { return fib(10) + add3(1, 2, 3); }
long t23(void) { counter(); counter(); return counter(); }
long t24(void) { int v = 1; bump(&v); bump(&v); return v * 100 + g_count; }
long t25(void) { return sum(g_arr, 5) * 100 + g_bytes[1] + g_m[1][2] * 1000; }
long t26(void) { return sizeof(int) + sizeof(long) * 10 + sizeof g_arr * 100 + sizeof(g_m[0]) * 10000; }
long t27(void) { return RED + GREEN * 10 + BLUE * 100; }
long t28(void) { int x = 1; x <<= 4; x |= 3; x ^= 1; x &= ~4; x -= 2; x *= 3; x /= 2; x %= 7; return x; }
long t29(void) { int x = (1, 2, 3); int y; y = x = 4; return x * 10 + y; }
long t30(void) { char s[] = "hello"; int n = 0; while (s[n]) n++; return n * 100 + s[1]; }
long t31(void) { int a[3] = {[2] = 7, [0] = 1}; int z[5] = {0}; return a[0] + a[1] * 10 + a[2] * 100 + z[4]; }
long t32(void) { int x = 3; { int x = 4; x++; } return x; }
long t33(void) { int a[5] = {5, 4, 3, 2, 1}; int *p = a, *q = &a[4]; int n = 0; while (p < q) { int t = *p; *p++ = *q; *q-- = t; n++; } return a[0] * 10000 + a[1] * 1000 + a[2] * 100 + a[3] * 10 + a[4] + n * 100000; }
long t34(void) { long big = 1L << 40; int trunc = (int)(big + 7); return trunc + (big >> 38); }
long t35(void) { unsigned char c = 0xF0; return ~c + (c << 24 > 0) + (-c > 0); }
long t36(void) { int x = 10; int *p = &x; int **pp = &p; **pp = 20; return x + (p != 0) + (*pp == &x) * 100; }
long t37(void) { int x = 0; int r = ({ int y = 5; x = y * 2; x + 1; }); return r * 100 + x; }
long t38(void) { long long ll = -1; unsigned long long ull = ll; return (ull >> 63) + (ll < 0u) * 10; }
long t39(void) { int n = 0; for (;;) { if (++n == 7) break; } while (1) { n += 10; if (n > 50) break; } return n; }
long t40(void) { int x = 0x7fffffff; x++; return x == -2147483647 - 1; }
long t41(void) { signed char sc = -128; unsigned char uc = sc; return uc * 1000 + (sc >> 1); }
long t42(void) { int i = 3; int a[5] = {10, 20, 30, 40, 50}; return i[a] + *(a + 1) + (&a[4] - &a[1]) * 1000; }
long t43(void) { int x = 7; switch (x * 2) { case 14: return 1; case 15: return 2; } return 3; }
long t44(void) { int c = 'a' + '\n' * 1000; return c + '\xff'; }
long t45(void) { unsigned x = 3000000000u; long l = x; int i = x; return l + i; }
"#;

const N_CASES: usize = 46;

#[test]
fn lowered_code_computes_what_gcc_computes() {
    assert_cases_match_gcc(CASES, N_CASES);
}

#[test]
fn bench_style_functions_behave() {
    let src = r#"
void Merge(int t1[], int t2[], int t3[], int l1, int l2) {
    int i = 0, j = 0, k = 0;
    while (i < l1 && j < l2) {
        if (t1[i] < t2[j]) { t3[k] = t1[i]; i++; } else { t3[k] = t2[j]; j++; }
        k++;
    }
    while (i < l1) { t3[k] = t1[i]; i++; k++; }
    while (j < l2) { t3[k] = t2[j]; j++; k++; }
}
static int partition(int a[], int lo, int hi) {
    int pivot = a[hi], i = lo, j, t;
    for (j = lo; j < hi; j++)
        if (a[j] < pivot) { t = a[i]; a[i] = a[j]; a[j] = t; i++; }
    t = a[i]; a[i] = a[hi]; a[hi] = t;
    return i;
}
void quicksort(int a[], int lo, int hi) {
    if (lo < hi) { int p = partition(a, lo, hi); quicksort(a, lo, p - 1); quicksort(a, p + 1, hi); }
}
"#;
    let p = program(src);
    let mut it = Interp::new(&p);
    let a = it.int_array(&[1, 4, 9]);
    let b = it.int_array(&[2, 3, 10, 11]);
    let c = it.int_array(&[0; 7]);
    it.call_by_name("Merge", &[a, b, c, 3, 4]);
    assert_eq!(it.read_ints(c, 7), vec![1, 2, 3, 4, 9, 10, 11]);
    let q = it.int_array(&[5, -3, 9, 0, 2, 2, -7]);
    it.call_by_name("quicksort", &[q, 0, 6]);
    assert_eq!(it.read_ints(q, 7), vec![-7, -3, 0, 2, 2, 5, 9]);
}

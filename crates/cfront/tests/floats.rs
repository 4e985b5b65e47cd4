//! Floating point in the front end: C functions using `float` and `double`
//! lowered to the IR and run by the test interpreter (which uses the IR's
//! own IEEE semantics) must compute what gcc computes on x86-64, and
//! unsupported forms are reported with their position.

mod common;

use common::{assert_cases_match_gcc, compile, compile_err, func, insts, program};
use pathwise_ir::{InstKind, Type};

/// Each `long tN(void)` is run by gcc and by the interpreter.
const CASES: &str = r#"
#include <math.h>
double g_d = 1.0 / 3;
float g_f[4] = {1.5f, -2, 0x1.8p1f};
struct pt { char c; double x; float y; } g_pt = {'a', 2.5, -0.25f};
static long bits(double d) { union { double d; long l; } u; u.d = d; return u.l; }
static long fbits(float f) { union { float f; int i; } u; u.f = f; return u.i; }
static double half(double x) { return x / 2; }
static float scale(float x, int k) { return x * k; }

long t0(void) { double x = 0.1, y = 0.2; return bits(x + y); }
long t1(void) { float x = 0.1f, y = 0.2f; return fbits(x + y); }
long t2(void) { double d = -2.75; return (int)d * 100 + (long)(d * 4) + (unsigned char)3.99; }
long t3(void) { int i = -7; unsigned u = 4000000000u; return bits(i) + bits(u) + fbits(u) + bits((long long)-1); }
long t4(void) { double n = NAN; return (n == n) + (n != n) * 2 + (n < 1) * 4 + (n >= 1) * 8 + !(n > 0) * 16 + isnan(n) * 32; }
long t5(void) { double inf = INFINITY; return isinf(inf) + isinf(-inf) * 2 + isinf(1.0) * 4 + (-inf < 0) * 8 + isfinite(3.0) * 16 + isfinite(inf) * 32; }
long t6(void) { double z = 0.0, m = -0.0; return bits(m) + (z == m) + (m ? 10 : 20) + bits(1 / m); }
long t7(void) { double x = 1.0; x += 2; x *= 3; x -= 0.5; x /= 4; int i = 5; i += 2.7; i *= 1.5; return bits(x) + i; }
long t8(void) { float f = 1.0f; f++; ++f; f--; double d = 2.5; d++; return fbits(f) + bits(d); }
long t9(void) { return bits(g_d) + fbits(g_f[0] + g_f[1] + g_f[2] + g_f[3]); }
long t10(void) { return bits(g_pt.x) + fbits(g_pt.y) + g_pt.c + sizeof(struct pt) * 1000; }
long t11(void) { double a[3] = {1, 2.5, 3}; double s = 0; for (int i = 0; i < 3; i++) s += a[i] * i; return bits(s); }
long t12(void) { return bits(half(5)) + fbits(scale(1.5f, 3)) + bits(scale(0.1f, 10)); }
long t13(void) { float f = 16777217; double d = 16777217; return fbits(f) + bits(d) + (f == d); }
long t14(void) { double x = 1e308; float f = x; return fbits(f) + bits(x * 10) + fbits((float)1e-50); }
long t15(void) { double x = 3.7; int c = x > 3 ? 1 : 2; double y = x < 2 ? x : 2; return c + bits(y) + (x && 0.0) + (0.5 || 0) * 10; }
long t16(void) { unsigned long long big = 18446744073709551615ull; double d = big; return bits(d) + (unsigned)4294967295.0; }
long t17(void) { double d = 0x1.fffffffffffffp-1022; float f = 0x1p-149f; return bits(d) + fbits(f) + fbits(f / 2); }
long t18(void) { double x = -1.5; return bits(-x) + bits(+x) + fbits(-0.0f); }
long t19(void) { double q = 7.0 / 0.0, r = 0.0 / 0.0; return (q > 1e308) + isnan(r) * 2 + (r != r) * 4; }
long t20(void) { char c = 'A'; _Bool b = 0.5; _Bool z = 0.0; return bits(c) + b * 10 + z; }
long t21(void) { double d = 2.5; long l = (long)d + (long)-2.5 + (long long)1e18; return l; }
long t22(void) { float a = 1e20f, b = -1e20f, c = 1.0f; return fbits(a + b + c) + fbits(a + (b + c)); }
long t23(void) { double d = 1.0 / 3.0; float f = d; double back = f; return bits(back) + bits(d * 3 - 1); }
"#;

const N_CASES: usize = 24;

#[test]
fn floating_code_computes_what_gcc_computes() {
    assert_cases_match_gcc(CASES, N_CASES);
}

#[test]
fn float_operations_reach_the_ir() {
    let p = program(
        "double f(float x, int i) { double d = x; if (d < i) return -d; return d * 2 + i; }\n\
         int g(double d) { return d ? (int)d : (unsigned char)d; }",
    );
    let f = func(&p, "f");
    assert_eq!(f.params[0].ty, Type::F32);
    assert_eq!(f.ret, Some(Type::F64));
    assert_eq!((f.params[0].src.c_scalar.as_str(), f.params[0].src.scalar.ty), ("float", Type::F32));
    let kinds: Vec<&InstKind> = insts(f).map(|i| &i.kind).collect();
    assert!(kinds.iter().any(|k| matches!(k, InstKind::FCast { op: pathwise_ir::FCastOp::FPExt, .. })));
    assert!(kinds.iter().any(|k| matches!(k, InstKind::FCmp { op: pathwise_ir::FCmpOp::Olt, .. })));
    assert!(kinds.iter().any(|k| matches!(k, InstKind::FNeg { .. })));
    let g = func(&p, "g");
    assert!(insts(g).any(|i| matches!(i.kind, InstKind::FCmp { op: pathwise_ir::FCmpOp::Une, .. })));
}

#[test]
fn unsupported_floating_forms_are_reported_with_positions() {
    let c = compile(
        "_Float128 f(_Float128 x) { return x; }\n\
         int g(void) { return 0.1L > 0; }\n\
         int h(void) { return (int)__builtin_nan(\"1\"); }\n\
         double ok(double x) { return x; }\n",
    );
    let reasons: Vec<String> = c.unsupported.iter().map(|u| format!("{}: {}", u.name, u.diagnostic)).collect();
    assert_eq!(
        reasons,
        [
            "f: test.c:1:1: error: unsupported: extended floating types (`_FloatN`, `__float128`)",
            "h: test.c:3:41: error: unsupported: `__builtin_nan` with a NaN payload",
        ]
    );
    let e = compile_err("int main(void) { double x = 1.0; return x % 2; }\n");
    assert!(e.contains("test.c:1:41"), "{e}");
}

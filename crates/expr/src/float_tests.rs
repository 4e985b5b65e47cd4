//! Tests of the floating operators' concrete semantics and builders.

use super::*;
use crate::eval::eval;
use crate::solver::Model;

const DNAN: u64 = 0xfff8_0000_0000_0000;

fn d(v: f64) -> u64 {
    v.to_bits()
}

fn f(v: f32) -> u64 {
    u64::from(v.to_bits())
}

#[test]
fn nan_results_are_x86s() {
    let snan = 0x7ff0_0000_0000_0001u64;
    let qnan = 0x7ff8_0000_0000_00abu64;
    assert_eq!(eval_fbin(FpOp::Add, FpFmt::F64, d(f64::INFINITY), d(f64::NEG_INFINITY)), DNAN);
    assert_eq!(eval_fbin(FpOp::Div, FpFmt::F64, d(0.0), d(-0.0)), DNAN);
    assert_eq!(eval_fbin(FpOp::Mul, FpFmt::F32, f(0.0), f(f32::INFINITY)), 0xffc0_0000);
    // The first NaN operand, quieted.
    assert_eq!(eval_fbin(FpOp::Sub, FpFmt::F64, snan, qnan), 0x7ff8_0000_0000_0001);
    assert_eq!(eval_fbin(FpOp::Sub, FpFmt::F64, d(1.0), qnan), qnan);
    assert_eq!(eval_fun(FpUn::Sqrt, FpFmt::F64, d(-1.0)), DNAN);
    assert_eq!(eval_fun(FpUn::Sqrt, FpFmt::F64, d(-0.0)), d(-0.0));
    assert_eq!(eval_fun(FpUn::Round(RoundMode::Down), FpFmt::F64, snan), 0x7ff8_0000_0000_0001);
    // Between formats: sign and high payload bits kept.
    let wide = eval_fconv(FpConv::Fp { from: FpFmt::F32, to: FpFmt::F64 }, 32, 0xff80_0001);
    assert_eq!(wide, 0xfff8_0000_2000_0000);
    let narrow = eval_fconv(FpConv::Fp { from: FpFmt::F64, to: FpFmt::F32 }, 64, wide);
    assert_eq!(narrow, 0xffc0_0001);
}

#[test]
fn arithmetic_matches_the_host() {
    let vals = [0.0, -0.0, 1.0, -1.5, 0.1, 1e308, -1e-310, f64::MIN_POSITIVE, f64::INFINITY, 3.0, 7.25e-3];
    for &x in &vals {
        for &y in &vals {
            let native = [x + y, x - y, x * y, x / y];
            for (op, n) in [FpOp::Add, FpOp::Sub, FpOp::Mul, FpOp::Div].into_iter().zip(native) {
                let want = if n.is_nan() { DNAN } else { d(n) };
                assert_eq!(eval_fbin(op, FpFmt::F64, d(x), d(y)), want, "{x} {op:?} {y}");
            }
            assert_eq!(eval_fcmp(FpCmp::Lt, FpFmt::F64, d(x), d(y)), x < y);
            assert_eq!(eval_fcmp(FpCmp::Le, FpFmt::F64, d(x), d(y)), x <= y);
        }
    }
    assert!(!eval_fcmp(FpCmp::Eq, FpFmt::F64, DNAN, DNAN));
    assert!(eval_fcmp(FpCmp::Eq, FpFmt::F64, d(0.0), d(-0.0)));
}

#[test]
fn conversions_truncate_and_round() {
    let to_i32 = FpConv::ToSigned { from: FpFmt::F64, width: 32 };
    assert_eq!(eval_fconv(to_i32, 64, d(-2.9)), (-2i32) as u32 as u64);
    assert_eq!(eval_fconv(to_i32, 64, d(2147483648.0)), 0x8000_0000);
    assert_eq!(eval_fconv(to_i32, 64, DNAN), 0x8000_0000);
    assert!(int_in_range(FpFmt::F64, 32, true, d(-2147483648.9)));
    assert!(!int_in_range(FpFmt::F64, 32, true, d(-2147483649.0)));
    assert!(int_in_range(FpFmt::F32, 8, false, f(-0.9)));
    assert!(!int_in_range(FpFmt::F32, 8, false, f(256.0)));
    assert_eq!(eval_fconv(FpConv::FromSigned(FpFmt::F32), 32, 16_777_217), f(16_777_216.0));
    assert_eq!(eval_fconv(FpConv::FromUnsigned(FpFmt::F64), 32, 0xffff_ffff), d(4294967295.0));
    assert_eq!(eval_fconv(FpConv::FromSigned(FpFmt::F64), 8, 0xff), d(-1.0));
    assert_eq!(eval_fun(FpUn::Round(RoundMode::NearestAway), FpFmt::F32, f(-2.5)), f(-3.0));
    assert_eq!(eval_fun(FpUn::Round(RoundMode::NearestEven), FpFmt::F32, f(-2.5)), f(-2.0));
    assert_eq!(eval_fun(FpUn::Round(RoundMode::Up), FpFmt::F64, d(-0.5)), d(-0.0));
}

#[test]
fn builders_fold_and_evaluate() {
    let mut p = ExprPool::new();
    let one = p.bv_const(64, d(1.0));
    let two = p.bv_const(64, d(2.0));
    assert_eq!(p.fbin(FpOp::Add, FpFmt::F64, one, one), two);
    let x = p.var("x", Sort::Bv(64));
    let s = p.fbin(FpOp::Mul, FpFmt::F64, x, two);
    assert!(p.has_float(s) && !p.has_float(x));
    let lt = p.fcmp(FpCmp::Lt, FpFmt::F64, s, one);
    let nan = p.fp_is_nan(FpFmt::F64, x);
    let fits = p.fp_int_in_range(FpFmt::F64, 8, true, x);
    let mut m = Model::default();
    for (v, lt_v, nan_v, fits_v) in
        [(0.25, true, false, true), (f64::NAN, false, true, false), (-128.99, true, false, true)]
    {
        m.bv.insert(x, d(v));
        assert_eq!(eval(&p, lt, &m).as_bool(), Some(lt_v), "{v}");
        assert_eq!(eval(&p, nan, &m).as_bool(), Some(nan_v), "{v}");
        assert_eq!(eval(&p, fits, &m).as_bool(), Some(fits_v), "{v}");
    }
    let quarter = p.bv_const(64, d(0.25));
    let four = p.bv_const(64, d(4.0));
    let by_four = p.fbin(FpOp::Div, FpFmt::F64, x, four);
    assert_eq!(by_four, p.fbin(FpOp::Mul, FpFmt::F64, x, quarter));
    let three = p.bv_const(64, d(3.0));
    let by_three = p.fbin(FpOp::Div, FpFmt::F64, x, three);
    assert!(matches!(p.get(by_three), Expr::FBin { op: FpOp::Div, .. }));
    let c = p.fp_copysign(FpFmt::F64, one, x);
    m.bv.insert(x, d(-0.0));
    assert_eq!(eval(&p, c, &m).as_bv(), Some(d(-1.0)));
    let text = crate::smtlib::to_smtlib(&p, &crate::solver::Query { constraints: vec![lt], assumptions: vec![] });
    assert!(text.contains("fp.mul RNE") && text.contains("fp.lt"), "{text}");
}

/// The directed roundings against the host's SSE unit under `fesetround`
/// (glibc's `FE_*` values on x86-64): operands through `black_box` after
/// the mode is set, results through it before the mode is restored, so
/// that the compiler keeps each operation between the two calls.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[test]
fn directed_rounding_matches_the_host() {
    use std::hint::black_box;
    extern "C" {
        fn fesetround(mode: i32) -> i32;
    }
    let doubles = [
        1.0,
        3.0,
        -3.0,
        0.1,
        -0.1,
        1e308,
        -1e308,
        2.5e-320,
        -7e-310,
        1.0 / 3.0,
        123456789.123,
        -0.0,
        0.0,
        f64::MAX,
        f64::MIN_POSITIVE,
        1e16 + 1.0,
    ];
    let ints: [i64; 6] = [0, 16_777_217, -16_777_219, i64::MAX, i64::MIN + 1, 9_007_199_254_740_993];
    for rnd in [Rounding::Up, Rounding::Down, Rounding::TowardZero] {
        for &x in &doubles {
            // SAFETY: glibc's fesetround with one of its own modes; the
            // nearest mode is restored before any other code runs.
            let native = unsafe {
                fesetround(rnd.fenv() as i32);
                let (x, f) = (black_box(x), black_box(x as f32));
                let r = black_box((x.sqrt(), x as f32, f * 3.0));
                fesetround(0);
                r
            };
            let sqrt = eval_sqrt_in(rnd, FpFmt::F64, d(x));
            assert!(sqrt == d(native.0) || (native.0.is_nan() && FpFmt::F64.is_nan(sqrt)), "sqrt {x} {rnd:?}");
            let narrow = FpConv::Fp { from: FpFmt::F64, to: FpFmt::F32 };
            assert_eq!(eval_fconv_in(narrow, rnd, 64, d(x)), f(native.1), "(float){x} {rnd:?}");
            let three = f(3.0);
            let narrowed = eval_fconv_in(narrow, rnd, 64, d(x));
            assert_eq!(eval_fbin_in(FpOp::Mul, rnd, FpFmt::F32, narrowed, three), f(native.2), "{x}f*3 {rnd:?}");
            for &y in &doubles {
                // SAFETY: as above.
                let native = unsafe {
                    fesetround(rnd.fenv() as i32);
                    let (x, y) = (black_box(x), black_box(y));
                    let r = black_box([x + y, x - y, x * y, x / y]);
                    fesetround(0);
                    r
                };
                for (op, n) in FpOp::ALL.into_iter().zip(native) {
                    let want = if n.is_nan() { DNAN } else { d(n) };
                    assert_eq!(eval_fbin_in(op, rnd, FpFmt::F64, d(x), d(y)), want, "{x} {op:?} {y} {rnd:?}");
                }
            }
        }
        for &i in &ints {
            // SAFETY: as above.
            let native = unsafe {
                fesetround(rnd.fenv() as i32);
                let i = black_box(i);
                let r = black_box((i as f64, i as f32));
                fesetround(0);
                r
            };
            assert_eq!(eval_fconv_in(FpConv::FromSigned(FpFmt::F64), rnd, 64, i as u64), d(native.0), "{i} {rnd:?}");
            assert_eq!(eval_fconv_in(FpConv::FromSigned(FpFmt::F32), rnd, 64, i as u64), f(native.1), "{i} {rnd:?}");
            // (Rust's `u64 as f64` is a sequence of its own, whose `x - x`
            // gives -0.0 downward; gcc converts a value below 2^63 with
            // `cvtsi2sd`, the signed conversion.)
            if i >= 0 {
                let unsigned = eval_fconv_in(FpConv::FromUnsigned(FpFmt::F64), rnd, 64, i as u64);
                assert_eq!(unsigned, d(native.0), "{i} unsigned {rnd:?}");
            }
        }
    }
}

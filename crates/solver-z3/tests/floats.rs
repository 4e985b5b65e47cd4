//! Differential tests of the floating operators: Z3's floating-point
//! translation against the concrete evaluator (`pathwise_expr::float`), bit
//! for bit, on random values biased towards NaNs (quiet and signaling, both
//! signs, payloads), infinities, zeros of both signs, subnormals and
//! rounding ties; and models of floating queries that validate.
//!
//! Each case fixes the operands by constraints and asks whether the term
//! can differ from the evaluator's value: it must be unsatisfiable.

mod common;

use common::Rng;
use pathwise_expr::{
    eval, ExprId, ExprPool, FpCmp, FpConv, FpFmt, FpOp, FpUn, Model, Query, RoundMode, Rounding, SolveResult,
    SolverBackend, Sort, Value,
};
use pathwise_solver_z3::Z3Backend;

const SAMPLES: usize = 12;

/// A value of `fmt` biased towards the special cases.
fn interesting(rng: &mut Rng, fmt: FpFmt) -> u64 {
    let w = fmt.bits();
    let m = pathwise_expr::ops::mask(w);
    let sign = if rng.below(2) == 0 { 0 } else { fmt.sign_bit() };
    let v = match rng.below(12) {
        0 => 0,
        1 => fmt.inf_bits(),
        2 => fmt.inf_bits() | fmt.quiet_bit() | (rng.next() & (fmt.quiet_bit() - 1)), // quiet NaN
        3 => fmt.inf_bits() | 1 | (rng.next() & (fmt.quiet_bit() - 1)),               // signaling NaN
        4 => rng.next() & (fmt.min_normal_bits() - 1),                                // subnormal
        5 => fmt.min_normal_bits(),
        6 => FpFmt::to_bits_of(fmt, (rng.below(9) as f64 - 4.0) * 0.5), // halves: rounding ties
        7 => FpFmt::to_bits_of(fmt, 2f64.powi(rng.below(70) as i32)),
        8 => FpFmt::to_bits_of(fmt, 1.0),
        _ => rng.next(),
    };
    (v | sign) & m
}

trait Bits {
    fn to_bits_of(fmt: FpFmt, v: f64) -> u64;
}

impl Bits for FpFmt {
    fn to_bits_of(fmt: FpFmt, v: f64) -> u64 {
        match fmt {
            FpFmt::F32 => u64::from((v as f32).to_bits()),
            FpFmt::F64 => v.to_bits(),
        }
    }
}

/// Fix the variables and require that `term` equals its evaluator value.
fn assert_agrees(z3: &mut Z3Backend, p: &mut ExprPool, fix: &[(ExprId, u64)], term: ExprId, what: &str) {
    let mut m = Model::default();
    let mut constraints = Vec::new();
    for &(v, val) in fix {
        m.bv.insert(v, val);
        let k = p.bv_const(p.width(v), val);
        constraints.push(p.eq(k, v));
    }
    let want = match eval(p, term, &m) {
        Value::Bool(b) => p.bool_const(b),
        Value::Bv(x) => p.bv_const(p.width(term), x),
        Value::Array(_) => unreachable!(),
    };
    let e = p.eq(want, term);
    let differs = p.not(e);
    let q = Query { constraints, assumptions: vec![differs] };
    assert_eq!(z3.check(p, &q), SolveResult::Unsat { core: vec![0] }, "{what}: {}", p.display(term));
}

#[test]
fn floating_operators_agree_with_the_evaluator() {
    let mut z3 = Z3Backend::new(None);
    let mut p = ExprPool::new();
    let mut rng = Rng(7);
    for fmt in [FpFmt::F32, FpFmt::F64] {
        let w = fmt.bits();
        let (x, y) = (p.var(&format!("x{w}"), Sort::Bv(w)), p.var(&format!("y{w}"), Sort::Bv(w)));
        let mut terms = Vec::new();
        for op in [FpOp::Add, FpOp::Sub, FpOp::Mul, FpOp::Div] {
            for rnd in Rounding::ALL {
                terms.push(p.fbin_in(op, rnd, fmt, x, y));
            }
        }
        for op in [FpCmp::Eq, FpCmp::Lt, FpCmp::Le] {
            terms.push(p.fcmp(op, fmt, x, y));
        }
        terms.push(p.fun(FpUn::Sqrt, fmt, x));
        for rnd in [Rounding::Up, Rounding::Down, Rounding::TowardZero] {
            terms.push(p.fun(FpUn::SqrtIn(rnd), fmt, x));
        }
        for mode in
            [RoundMode::NearestEven, RoundMode::NearestAway, RoundMode::Down, RoundMode::Up, RoundMode::TowardZero]
        {
            terms.push(p.fun(FpUn::Round(mode), fmt, x));
        }
        let other = if fmt == FpFmt::F32 { FpFmt::F64 } else { FpFmt::F32 };
        terms.push(p.fconv(FpConv::Fp { from: fmt, to: other }, x));
        for width in [8, 32, 64] {
            terms.push(p.fconv(FpConv::ToSigned { from: fmt, width }, x));
            terms.push(p.fconv(FpConv::ToUnsigned { from: fmt, width }, x));
            terms.push(p.fp_int_in_range(fmt, width, true, x));
        }
        for to in [FpFmt::F32, FpFmt::F64] {
            terms.push(p.fconv(FpConv::FromSigned(to), x));
            terms.push(p.fconv(FpConv::FromUnsigned(to), x));
        }
        // A tree: its inner results stay floats in Z3.
        let s = p.fbin(FpOp::Sub, fmt, x, y);
        let q = p.fbin(FpOp::Mul, fmt, s, s);
        let r = p.fun(FpUn::Sqrt, fmt, q);
        terms.push(r);
        terms.push(p.fcmp(FpCmp::Lt, fmt, r, y));
        for &t in &terms {
            for _ in 0..SAMPLES {
                let (a, b) = (interesting(&mut rng, fmt), interesting(&mut rng, fmt));
                assert_agrees(&mut z3, &mut p, &[(x, a), (y, b)], t, &format!("{fmt:?} x={a:#x} y={b:#x}"));
            }
        }
    }
}

/// The solver finds the special values a path needs, and its models hold
/// under the evaluator (every model is validated by the backend).
#[test]
fn models_of_floating_queries_have_special_values() {
    let mut z3 = Z3Backend::new(None);
    let mut p = ExprPool::new();
    let fmt = FpFmt::F64;
    let x = p.var("x", Sort::Bv(64));
    let y = p.var("y", Sort::Bv(64));
    let one = p.bv_const(64, 1f64.to_bits());
    let zero = p.bv_const(64, 0);
    // x + 1 == x: a large number or an infinity; not NaN.
    let sum = p.fbin(FpOp::Add, fmt, x, one);
    let cases = [
        ("nan", p.fp_is_nan(fmt, x)),
        ("x + 1 == x", p.fcmp(FpCmp::Eq, fmt, sum, x)),
        ("x * y is NaN, y finite", {
            let m = p.fbin(FpOp::Mul, fmt, x, y);
            let n = p.fp_is_nan(fmt, m);
            let xn = p.fp_is_nan(fmt, x);
            let nx = p.not(xn);
            let fin = p.fp_is_finite(fmt, y);
            let a = p.and(n, nx);
            p.and(a, fin)
        }),
        ("-0.0", {
            let z = p.fcmp(FpCmp::Eq, fmt, x, zero);
            let s = p.fp_sign(fmt, x);
            p.and(z, s)
        }),
        ("0 < x < min normal", {
            let min = p.bv_const(64, f64::MIN_POSITIVE.to_bits());
            let a = p.fcmp(FpCmp::Lt, fmt, zero, x);
            let b = p.fcmp(FpCmp::Lt, fmt, x, min);
            p.and(a, b)
        }),
    ];
    for (what, c) in cases {
        let q = Query { constraints: vec![c], assumptions: vec![] };
        match z3.check(&p, &q) {
            SolveResult::Sat(m) => assert_eq!(eval(&p, c, &m), Value::Bool(true), "{what}"),
            r => panic!("{what}: {r:?}"),
        }
    }
    // No float is below itself, and x < y < x is impossible.
    let lt = p.fcmp(FpCmp::Lt, fmt, x, y);
    let gt = p.fcmp(FpCmp::Lt, fmt, y, x);
    let both = p.and(lt, gt);
    let q = Query { constraints: vec![both], assumptions: vec![] };
    assert!(matches!(z3.check(&p, &q), SolveResult::Unsat { .. }));
}

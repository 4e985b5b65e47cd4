//! Differential tests: Z3's semantics of every operator against
//! `pathwise_expr::ops` (and the concrete evaluator for extensions,
//! extraction and the signed-multiplication check), on edge-biased random constants of widths 1, 8, 16, 32, 64,
//! including division by zero and shifts by at least the width.
//!
//! Each case fixes `x` and `y` by constraints and asks Z3 whether
//! `op(x, y) != expected` is satisfiable: it must be unsatisfiable, which
//! proves Z3 computes exactly `expected`.

mod common;

use common::Rng;
use pathwise_expr::ops::{eval_bin, eval_cmp, smul_fits};
use pathwise_expr::{eval, BvCmp, BvOp, ExprId, ExprPool, Query, SolveResult, SolverBackend, Sort, Value};
use pathwise_solver_z3::Z3Backend;

const WIDTHS: [u32; 5] = [1, 8, 16, 32, 64];
const OPS: [BvOp; 13] = BvOp::ALL;
const CMPS: [BvCmp; 4] = BvCmp::ALL;
const SAMPLES: usize = 40;

/// Fix `x = vx`, `y = vy` and require that `term = expected` is implied.
fn assert_implied(
    z3: &mut Z3Backend,
    p: &mut ExprPool,
    fix: &[(ExprId, u64)],
    term: ExprId,
    expected: ExprId,
    what: &str,
) {
    let mut constraints = Vec::new();
    for &(v, val) in fix {
        let k = p.bv_const(p.width(v), val);
        constraints.push(p.eq(k, v));
    }
    let e = p.eq(expected, term);
    let differs = p.not(e);
    let q = Query { constraints, assumptions: vec![differs] };
    assert_eq!(z3.check(p, &q), SolveResult::Unsat { core: vec![0] }, "{what}");
}

#[test]
fn binary_operators_agree_with_ops() {
    let mut z3 = Z3Backend::new(None);
    let mut p = ExprPool::new();
    let mut rng = Rng(1);
    for w in WIDTHS {
        let (x, y) = (p.var(&format!("x{w}"), Sort::Bv(w)), p.var(&format!("y{w}"), Sort::Bv(w)));
        for op in OPS {
            let term = p.bin(op, x, y);
            for s in 0..SAMPLES {
                let (a, b) = (rng.interesting(w), rng.interesting(w));
                // Make sure the edge cases are hit whatever the PRNG does.
                let b = match s {
                    0 => 0,
                    1 => w as u64 & pathwise_expr::ops::mask(w),
                    _ => b,
                };
                let want = eval_bin(op, w, a, b);
                let expected = p.bv_const(w, want);
                assert_implied(
                    &mut z3,
                    &mut p,
                    &[(x, a), (y, b)],
                    term,
                    expected,
                    &format!("{op:?}/{w} {a:#x} {b:#x} = {want:#x}"),
                );
            }
        }
    }
}

#[test]
fn comparisons_agree_with_ops() {
    let mut z3 = Z3Backend::new(None);
    let mut p = ExprPool::new();
    let mut rng = Rng(2);
    for w in WIDTHS {
        let (x, y) = (p.var(&format!("x{w}"), Sort::Bv(w)), p.var(&format!("y{w}"), Sort::Bv(w)));
        for op in CMPS {
            let term = p.cmp(op, x, y);
            for _ in 0..SAMPLES {
                let (a, b) = (rng.interesting(w), rng.interesting(w));
                let want = eval_cmp(op, w, a, b);
                let expected = p.bool_const(want);
                assert_implied(
                    &mut z3,
                    &mut p,
                    &[(x, a), (y, b)],
                    term,
                    expected,
                    &format!("{op:?}/{w} {a:#x} {b:#x} = {want}"),
                );
            }
        }
    }
}

#[test]
fn signed_multiplication_check_agrees_with_ops() {
    let mut z3 = Z3Backend::new(None);
    let mut p = ExprPool::new();
    let mut rng = Rng(5);
    for w in WIDTHS {
        let (x, y) = (p.var(&format!("x{w}"), Sort::Bv(w)), p.var(&format!("y{w}"), Sort::Bv(w)));
        let term = p.smul_no_overflow(x, y);
        for _ in 0..SAMPLES * 2 {
            let (a, b) = (rng.interesting(w), rng.interesting(w));
            let want = smul_fits(w, a, b);
            let mut m = pathwise_expr::Model::default();
            m.bv.insert(x, a);
            m.bv.insert(y, b);
            assert_eq!(eval(&p, term, &m), Value::Bool(want), "evaluator {w} {a:#x} {b:#x}");
            let expected = p.bool_const(want);
            let what = format!("smul_no_overflow/{w} {a:#x} {b:#x} = {want}");
            assert_implied(&mut z3, &mut p, &[(x, a), (y, b)], term, expected, &what);
        }
        // The other direction: Z3's overflowing products really overflow.
        let overflows = p.not(term);
        let q = Query { constraints: vec![overflows], assumptions: vec![] };
        match z3.check(&p, &q) {
            SolveResult::Sat(m) => {
                let (a, b) = (m.bv.get(&x).copied().unwrap_or(0), m.bv.get(&y).copied().unwrap_or(0));
                assert!(!smul_fits(w, a, b), "{w}: {a:#x} * {b:#x} fits");
            }
            r => panic!("{w}: {r:?}"),
        }
    }
}

#[test]
fn extensions_and_extraction_agree_with_the_evaluator() {
    let mut z3 = Z3Backend::new(None);
    let mut p = ExprPool::new();
    let mut rng = Rng(3);
    for w in WIDTHS {
        let x = p.var(&format!("x{w}"), Sort::Bv(w));
        let mut terms = Vec::new();
        for to in WIDTHS.into_iter().filter(|&t| t > w) {
            terms.push(p.zext(x, to));
            terms.push(p.sext(x, to));
        }
        for _ in 0..4 {
            let lo = rng.below(w as u64) as u32;
            let hi = lo + rng.below((w - lo) as u64) as u32;
            terms.push(p.extract(x, hi, lo));
        }
        for &t in &terms {
            for _ in 0..8 {
                let a = rng.interesting(w);
                let mut m = pathwise_expr::Model::default();
                m.bv.insert(x, a);
                let Value::Bv(want) = eval(&p, t, &m) else { panic!("bit-vector") };
                let expected = p.bv_const(p.width(t), want);
                let what = format!("{} with x = {a:#x}", p.display(t));
                assert_implied(&mut z3, &mut p, &[(x, a)], t, expected, &what);
            }
        }
    }
}

#[test]
fn models_of_operator_equations_evaluate_consistently() {
    // The other direction: let Z3 pick x, y with op(x, y) = r for a fixed
    // r, and check the model with the concrete evaluator.
    let mut z3 = Z3Backend::new(None);
    let mut p = ExprPool::new();
    let mut rng = Rng(4);
    for w in WIDTHS {
        let (x, y) = (p.var(&format!("x{w}"), Sort::Bv(w)), p.var(&format!("y{w}"), Sort::Bv(w)));
        for op in OPS {
            let term = p.bin(op, x, y);
            let r = rng.interesting(w);
            let k = p.bv_const(w, r);
            let c = p.eq(k, term);
            let q = Query { constraints: vec![c], assumptions: vec![] };
            match z3.check(&p, &q) {
                SolveResult::Sat(m) => {
                    let (a, b) = (m.bv.get(&x).copied().unwrap_or(0), m.bv.get(&y).copied().unwrap_or(0));
                    assert_eq!(eval_bin(op, w, a, b), r, "{op:?}/{w}: {a:#x}, {b:#x}");
                }
                SolveResult::Unsat { .. } => {} // e.g. no x, y with x * y odd... fine
                SolveResult::Unknown(e) => panic!("{op:?}/{w}: unknown: {e}"),
            }
        }
    }
}

//! The integer route of the Z3 backend (queries whose arithmetic never
//! wraps under their own bounds are checked with `QF_LIA`), refereed
//! differentially: on random queries mixing every operator the route
//! translates, and others that keep queries on bit-vectors, the backend
//! with the route, the backend without it and an independent SMT-LIB
//! oracle must agree on every answer; every model must satisfy the query
//! (the backend validates it) and every core must be unsatisfiable by
//! itself, as the oracle decides.

mod common;

use common::Rng;
use pathwise_expr::linear::integer_exact;
use pathwise_expr::{BvCmp, BvOp, ExprId, ExprPool, Query, SolveResult, SolverBackend, Sort};
use pathwise_solver_z3::{SmtLibOracle, Z3Backend};

/// A random term over `vars` (32-bit, some sign- or zero-extended 8-bit
/// ones) of depth at most `depth`.
fn term(p: &mut ExprPool, rng: &mut Rng, vars: &[ExprId], depth: u32) -> ExprId {
    if depth == 0 || rng.below(3) == 0 {
        return match rng.below(4) {
            0 => p.bv_const(32, (rng.below(41) as i64 - 20) as u64),
            _ => vars[rng.below(vars.len() as u64) as usize],
        };
    }
    let a = term(p, rng, vars, depth - 1);
    match rng.below(24) {
        0..=8 => {
            let b = term(p, rng, vars, depth - 1);
            p.bin(BvOp::Add, a, b)
        }
        9..=13 => {
            let b = term(p, rng, vars, depth - 1);
            p.bin(BvOp::Sub, a, b)
        }
        14..=16 => {
            let k = p.bv_const(32, (rng.below(7) as i64 - 3) as u64);
            p.bin(BvOp::Mul, k, a)
        }
        17 | 18 => {
            let s = p.bv_const(32, rng.below(3));
            let op = [BvOp::Shl, BvOp::AShr, BvOp::LShr][rng.below(3) as usize];
            p.bin(op, a, s)
        }
        19 | 20 => {
            // Low bits, widened back: exact only when the value fits.
            let low = p.extract(a, 7, 0);
            if rng.below(2) == 0 {
                p.sext(low, 32)
            } else {
                p.zext(low, 32)
            }
        }
        21 | 22 => {
            let b = term(p, rng, vars, depth - 1);
            let c = atom(p, rng, vars, depth - 1);
            p.ite(c, a, b)
        }
        _ => {
            // Bitwise logic: the query stays on bit-vectors.
            let b = term(p, rng, vars, depth - 1);
            p.bin(BvOp::And, a, b)
        }
    }
}

fn atom(p: &mut ExprPool, rng: &mut Rng, vars: &[ExprId], depth: u32) -> ExprId {
    let a = term(p, rng, vars, depth);
    let b = term(p, rng, vars, depth);
    let ops = [BvCmp::Slt, BvCmp::Sle, BvCmp::Ult, BvCmp::Ule];
    let c = match rng.below(6) {
        0 | 1 => p.eq(a, b),
        _ => p.cmp(ops[rng.below(4) as usize], a, b),
    };
    if rng.below(3) == 0 {
        p.not(c)
    } else {
        c
    }
}

/// `lo <= x <= hi`, signed.
fn bounds(p: &mut ExprPool, x: ExprId, lo: i64, hi: i64) -> [ExprId; 2] {
    let w = p.width(x);
    let (l, h) = (p.bv_const(w, lo as u64), p.bv_const(w, hi as u64));
    [p.cmp(BvCmp::Sle, l, x), p.cmp(BvCmp::Sle, x, h)]
}

fn answer(r: &SolveResult) -> Option<bool> {
    match r {
        SolveResult::Sat(_) => Some(true),
        SolveResult::Unsat { .. } => Some(false),
        SolveResult::Unknown(_) => None,
    }
}

#[test]
fn the_integer_route_agrees_with_bit_vectors_and_an_oracle() {
    let mut rng = Rng(2026);
    let mut p = ExprPool::new();
    let x: Vec<ExprId> = (0..4).map(|i| p.var(&format!("x{i}"), Sort::Bv(32))).collect();
    let c8 = p.var("c", Sort::Bv(8));
    let c = p.sext(c8, 32);
    let u8v = p.var("u", Sort::Bv(8));
    let u = p.zext(u8v, 32);
    let vars: Vec<ExprId> = x.iter().copied().chain([c, u]).collect();
    let mut with = Z3Backend::new(Some(20_000));
    let mut without = Z3Backend::new(Some(20_000)).without_integers();
    let mut oracle = SmtLibOracle::default();
    let (mut sat, mut unsat, mut routed) = (0, 0, 0);
    for round in 0..400 {
        let mut constraints = Vec::new();
        let mut assumptions = Vec::new();
        // Bounds on most variables, small or (sometimes) wide enough to
        // wrap, as constraints or as assumptions.
        for &v in &x {
            if rng.below(12) == 0 {
                continue;
            }
            let r = if rng.below(10) == 0 { 1 << 30 } else { 1 + rng.below(120) as i64 };
            let b = bounds(&mut p, v, -r, r);
            if rng.below(2) == 0 {
                constraints.extend(b);
            } else {
                assumptions.extend(b);
            }
        }
        for _ in 0..(1 + rng.below(5)) {
            let a = atom(&mut p, &mut rng, &vars, 2);
            if rng.below(2) == 0 {
                constraints.push(a);
            } else {
                assumptions.push(a);
            }
        }
        let q = Query { constraints, assumptions };
        if integer_exact(&p, &q).is_some_and(|e| e.sums_variables) {
            routed += 1;
        }
        let (a, b) = (with.check(&p, &q), without.check(&p, &q));
        let truth = oracle.satisfiable(&p, &q);
        assert_eq!(answer(&a), truth, "round {round}: with integers {a:?}\n{}", pathwise_expr::to_smtlib(&p, &q));
        assert_eq!(answer(&b), truth, "round {round}: bit-vectors only");
        match a {
            SolveResult::Sat(_) => sat += 1,
            SolveResult::Unsat { core } => {
                unsat += 1;
                let sub = Query {
                    constraints: q.constraints.clone(),
                    assumptions: core.iter().map(|&i| q.assumptions[i]).collect(),
                };
                assert_eq!(oracle.satisfiable(&p, &sub), Some(false), "round {round}: core {core:?} is satisfiable");
            }
            SolveResult::Unknown(why) => panic!("round {round}: unknown: {why}"),
        }
    }
    assert_eq!(with.stats().integer_checks, routed);
    assert_eq!(without.stats().integer_checks, 0);
    assert!(routed > 100 && sat > 50 && unsat > 50, "routed {routed}, sat {sat}, unsat {unsat}");
}

/// The query that made the bit-vector solver take seconds: a chain of
/// bounded linear updates whose last condition contradicts the bounds.
#[test]
fn bounded_linear_chains_go_to_the_integer_solver() {
    let mut p = ExprPool::new();
    let v: Vec<ExprId> = (0..6).map(|i| p.var(&format!("v{i}"), Sort::Bv(32))).collect();
    let mut assumptions = Vec::new();
    for &x in &v {
        assumptions.extend(bounds(&mut p, x, -100, 100));
    }
    // s = v0 + v1 - v2 + 3*v3 - v4 + v5 must exceed 800: at most 700.
    let mut s = v[0];
    for (i, &x) in v.iter().enumerate().skip(1) {
        let t = if i == 3 {
            let k = p.bv_const(32, 3);
            p.bin(BvOp::Mul, k, x)
        } else {
            x
        };
        s = if i % 2 == 0 { p.bin(BvOp::Sub, s, t) } else { p.bin(BvOp::Add, s, t) };
    }
    let lim = p.bv_const(32, 800);
    let over = p.cmp(BvCmp::Slt, lim, s);
    let q = Query { constraints: vec![over], assumptions };
    let mut z3 = Z3Backend::new(None);
    let SolveResult::Unsat { core } = z3.check(&p, &q) else { panic!("expected unsat") };
    assert_eq!(z3.stats().integer_checks, 1);
    // Every bound made the sum exact, so every one is in the core.
    assert_eq!(core, (0..12).collect::<Vec<_>>());
    // Over bit-vectors the same query without the bounds is satisfiable
    // (the sum wraps): the core must not be smaller.
    let q = Query { constraints: vec![over], assumptions: vec![] };
    assert!(matches!(z3.check(&p, &q), SolveResult::Sat(_)));
}

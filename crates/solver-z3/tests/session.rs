//! [`Z3Session`], refereed differentially: random sequences of asserted
//! constraints (bounded linear arithmetic, which the session checks over
//! the integers; bitwise logic, which moves it to bit-vectors; clauses
//! over boolean variables, as the covers of `--method vc` add them) and
//! checks under random assumptions. Every answer must be the oracle's on
//! the query of everything asserted so far, every model must satisfy it,
//! and every core must be unsatisfiable by itself.

mod common;

use common::Rng;
use pathwise_expr::{BvCmp, BvOp, ExprId, ExprPool, Query, Session, SolveResult, Sort};
use pathwise_solver_z3::{Models, SmtLibOracle, Z3Session};

fn term(p: &mut ExprPool, rng: &mut Rng, vars: &[ExprId], bools: &[ExprId], depth: u32, bitwise: bool) -> ExprId {
    if depth == 0 || rng.below(3) == 0 {
        return match rng.below(4) {
            0 => p.bv_const(32, (rng.below(41) as i64 - 20) as u64),
            _ => vars[rng.below(vars.len() as u64) as usize],
        };
    }
    let a = term(p, rng, vars, bools, depth - 1, bitwise);
    let b = term(p, rng, vars, bools, depth - 1, bitwise);
    match rng.below(10) {
        0..=3 => p.bin(BvOp::Add, a, b),
        4 | 5 => p.bin(BvOp::Sub, a, b),
        6 => {
            let k = p.bv_const(32, (rng.below(7) as i64 - 3) as u64);
            p.bin(BvOp::Mul, k, a)
        }
        7 | 8 => {
            let c = bools[rng.below(bools.len() as u64) as usize];
            p.ite(c, a, b)
        }
        _ if bitwise => p.bin(BvOp::Xor, a, b),
        _ => p.bin(BvOp::Add, a, b),
    }
}

fn atom(p: &mut ExprPool, rng: &mut Rng, vars: &[ExprId], bools: &[ExprId], bitwise: bool) -> ExprId {
    let a = term(p, rng, vars, bools, 2, bitwise);
    let b = term(p, rng, vars, bools, 2, bitwise);
    let c = match rng.below(4) {
        0 => p.eq(a, b),
        1 => p.cmp(BvCmp::Slt, a, b),
        2 => p.cmp(BvCmp::Sle, a, b),
        _ => p.cmp(BvCmp::Ule, a, b),
    };
    if rng.below(3) == 0 {
        p.not(c)
    } else {
        c
    }
}

/// A clause over the boolean variables (a blocking or enabling clause).
fn clause(p: &mut ExprPool, rng: &mut Rng, bools: &[ExprId]) -> ExprId {
    let mut c = p.bool_const(false);
    for _ in 0..(1 + rng.below(3)) {
        let v = bools[rng.below(bools.len() as u64) as usize];
        let lit = if rng.below(2) == 0 { p.not(v) } else { v };
        c = p.or(c, lit);
    }
    c
}

#[test]
fn sessions_agree_with_an_oracle() {
    let mut rng = Rng(12);
    let mut oracle = SmtLibOracle::default();
    let (mut sat, mut unsat, mut integers) = (0, 0, 0);
    for round in 0..60 {
        let mut p = ExprPool::new();
        let vars: Vec<ExprId> = (0..4).map(|i| p.var(&format!("x{i}"), Sort::Bv(32))).collect();
        let bools: Vec<ExprId> = (0..4).map(|i| p.var(&format!("b{i}"), Sort::Bool)).collect();
        let mut base = Vec::new();
        for &v in &vars {
            let r = 1 + rng.below(100);
            let (lo, hi) = (p.bv_const(32, (-(r as i64)) as u64), p.bv_const(32, r));
            base.push(p.cmp(BvCmp::Sle, lo, v));
            base.push(p.cmp(BvCmp::Sle, v, hi));
        }
        for _ in 0..3 {
            let a = atom(&mut p, &mut rng, &vars, &bools, false);
            let b = bools[rng.below(4) as usize];
            base.push(p.eq(b, a));
        }
        let models = if round % 2 == 0 { Models::Close } else { Models::Diverse };
        let mut s = Z3Session::with_models(&p, &base, models);
        integers += u64::from(s.stats().integers);
        let mut asserted = base.clone();
        for step in 0..8 {
            match rng.below(4) {
                0 => {
                    let c = clause(&mut p, &mut rng, &bools);
                    s.assert(&p, c);
                    asserted.push(c);
                }
                1 => {
                    // Bitwise logic after the first steps: the session
                    // moves to bit-vectors (the rounds before stay exact).
                    let c = atom(&mut p, &mut rng, &vars, &bools, step > 4);
                    s.assert(&p, c);
                    asserted.push(c);
                }
                _ => {}
            }
            let assumptions: Vec<ExprId> = (0..rng.below(3))
                .map(|_| {
                    if rng.below(2) == 0 {
                        clause(&mut p, &mut rng, &bools)
                    } else {
                        atom(&mut p, &mut rng, &vars, &bools, false)
                    }
                })
                .collect();
            let q = Query { constraints: asserted.clone(), assumptions: assumptions.clone() };
            let truth = oracle.satisfiable(&p, &q);
            match s.check(&p, &assumptions) {
                SolveResult::Sat(m) => {
                    sat += 1;
                    assert_eq!(truth, Some(true), "round {round} step {step}");
                    let roots: Vec<ExprId> = asserted.iter().chain(&assumptions).copied().collect();
                    assert!(pathwise_expr::eval::satisfies(&p, &roots, &m), "round {round} step {step}: model");
                }
                SolveResult::Unsat { core } => {
                    unsat += 1;
                    assert_eq!(truth, Some(false), "round {round} step {step}");
                    let sub = Query {
                        constraints: asserted.clone(),
                        assumptions: core.iter().map(|&i| assumptions[i]).collect(),
                    };
                    assert_eq!(oracle.satisfiable(&p, &sub), Some(false), "round {round} step {step}: core");
                }
                SolveResult::Unknown(why) => panic!("round {round} step {step}: unknown: {why}"),
            }
        }
        if s.stats().fallbacks > 0 {
            assert!(!s.stats().integers);
        }
    }
    assert!(sat > 100 && unsat > 30 && integers > 40, "sat {sat}, unsat {unsat}, integer sessions {integers}");
}

/// A bounded linear formula is checked over the integers from the start;
/// a constraint with bitwise logic moves the session to bit-vectors, after
/// which it still answers with everything asserted before.
#[test]
fn a_session_moves_to_bit_vectors_when_it_must() {
    let mut p = ExprPool::new();
    let x = p.var("x", Sort::Bv(32));
    let y = p.var("y", Sort::Bv(32));
    let mut base = Vec::new();
    for v in [x, y] {
        let (lo, hi) = (p.bv_const(32, (-100i64) as u64), p.bv_const(32, 100));
        base.push(p.cmp(BvCmp::Sle, lo, v));
        base.push(p.cmp(BvCmp::Sle, v, hi));
    }
    let s = p.bin(BvOp::Add, x, y);
    let k = p.bv_const(32, 150);
    base.push(p.cmp(BvCmp::Slt, k, s));
    let mut z3 = Z3Session::new(&p, &base);
    assert!(z3.stats().integers);
    assert!(matches!(z3.check(&p, &[]), SolveResult::Sat(_)));
    // x & 1 == 1 and y & 1 == 1: both odd, x + y > 150.
    let one = p.bv_const(32, 1);
    for v in [x, y] {
        let a = p.bin(BvOp::And, v, one);
        let odd = p.eq(a, one);
        z3.assert(&p, odd);
    }
    assert!(!z3.stats().integers);
    let SolveResult::Sat(m) = z3.check(&p, &[]) else { panic!("expected sat") };
    let (vx, vy) = (m.bv[&x] as u32 as i32, m.bv[&y] as u32 as i32);
    assert!(vx % 2 != 0 && vy % 2 != 0 && vx + vy > 150 && vx <= 100 && vy <= 100, "{vx} {vy}");
    // x + y > 198 with both odd and at most 99: impossible.
    let k = p.bv_const(32, 198);
    let over = p.cmp(BvCmp::Slt, k, s);
    assert!(matches!(z3.check(&p, &[over]), SolveResult::Unsat { core } if core == vec![0]));
}

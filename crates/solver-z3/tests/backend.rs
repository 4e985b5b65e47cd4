//! Behaviour of the Z3 backend: unsat cores, models (arrays in particular,
//! checked with the concrete evaluator), timeouts, pools, caching and the
//! SMT-LIB dump.

mod common;

use common::Rng;
use pathwise_expr::eval::satisfies;
use pathwise_expr::{
    to_smtlib, BvCmp, BvOp, CachingSolver, ExprId, ExprPool, Model, Query, SolveResult, SolverBackend, Sort,
};
use pathwise_solver_z3::{Reuse, Z3Backend};

fn sat_model(r: SolveResult) -> Model {
    match r {
        SolveResult::Sat(m) => m,
        other => panic!("expected sat, got {other:?}"),
    }
}

/// All constraints and assumptions of `q` hold under `m` (arrays read as
/// default + entries).
fn check_model(p: &ExprPool, q: &Query, m: &Model) {
    let roots: Vec<ExprId> = q.constraints.iter().chain(&q.assumptions).copied().collect();
    assert!(satisfies(p, &roots, m), "model {m:?} does not satisfy the query");
}

#[test]
fn unsat_core_names_the_conflicting_assumption() {
    let mut p = ExprPool::new();
    let (x, y) = (p.var("x", Sort::Bv(32)), p.var("y", Sort::Bv(32)));
    let (five, ten, one) = (p.bv_const(32, 5), p.bv_const(32, 10), p.bv_const(32, 1));
    let lt5 = p.cmp(BvCmp::Ult, x, five);
    let gt10 = p.cmp(BvCmp::Ult, ten, x);
    let y1 = p.eq(one, y);
    let mut z3 = Z3Backend::new(None);
    let q = Query { constraints: vec![lt5], assumptions: vec![gt10, y1] };
    assert_eq!(z3.check(&p, &q), SolveResult::Unsat { core: vec![0] });
    let q = Query { constraints: vec![lt5], assumptions: vec![y1, gt10] };
    assert_eq!(z3.check(&p, &q), SolveResult::Unsat { core: vec![1] });
    // Duplicated assumptions: the first occurrence is reported.
    let q = Query { constraints: vec![lt5], assumptions: vec![y1, gt10, gt10] };
    assert_eq!(z3.check(&p, &q), SolveResult::Unsat { core: vec![1] });
    // Unsatisfiable constraints alone: empty core.
    let q = Query { constraints: vec![lt5, gt10], assumptions: vec![y1] };
    assert_eq!(z3.check(&p, &q), SolveResult::Unsat { core: vec![] });
    // A constant-false assumption is in the core (Z3 would drop it if it
    // were passed directly as an assumption).
    let f = p.bool_const(false);
    let q = Query { constraints: vec![lt5], assumptions: vec![y1, f] };
    assert_eq!(z3.check(&p, &q), SolveResult::Unsat { core: vec![1] });
    // And satisfiable without the conflicting one.
    let q = Query { constraints: vec![lt5], assumptions: vec![y1] };
    let m = sat_model(z3.check(&p, &q));
    assert!(m.bv[&x] < 5 && m.bv[&y] == 1);
    check_model(&p, &q, &m);
}

#[test]
fn array_model_is_consistent() {
    let mut p = ExprPool::new();
    let a = p.var("A", Sort::Array { index: 32, elem: 8 });
    let i = p.var("i", Sort::Bv(32));
    let (three, seven, nine) = (p.bv_const(32, 3), p.bv_const(8, 7), p.bv_const(8, 9));
    let a3 = p.select(a, three);
    let ai = p.select(a, i);
    let c1 = p.eq(seven, a3);
    let c2 = p.eq(nine, ai);
    let e = p.eq(three, i);
    let c3 = p.not(e);
    let q = Query { constraints: vec![c1, c2, c3], assumptions: vec![] };
    let mut z3 = Z3Backend::new(None);
    let m = sat_model(z3.check(&p, &q));
    let av = &m.arrays[&a];
    let iv = m.bv[&i];
    assert_ne!(iv, 3);
    assert_eq!(av.get(3), 7);
    assert_eq!(av.get(iv), 9);
    check_model(&p, &q, &m);
}

#[test]
fn array_models_with_stores_ites_const_arrays_and_equalities() {
    let mut p = ExprPool::new();
    let srt = Sort::Array { index: 8, elem: 16 };
    let (a, b) = (p.var("A", srt), p.var("B", srt));
    let (i, j, v) = (p.var("i", Sort::Bv(8)), p.var("j", Sort::Bv(8)), p.var("v", Sort::Bv(16)));
    let k = p.bv_const(16, 1234);
    let st = p.store(a, i, v);
    let rj = p.select(st, j);
    let c1 = p.eq(k, rj);
    let eij = p.eq(i, j);
    let c2 = p.not(eij);
    // B = store(A, i, v) as arrays (extensional equality).
    let c3 = p.eq(b, st);
    let bi = p.select(b, i);
    let c4 = p.cmp(BvCmp::Ult, k, bi);
    let zero = p.bv_const(16, 0);
    let ca = p.const_array(8, zero);
    let b_or_c = p.ite(c2, b, ca);
    let r = p.select(b_or_c, j);
    let c5 = p.eq(k, r);
    let q = Query { constraints: vec![c1, c2, c3, c4, c5], assumptions: vec![] };
    let mut z3 = Z3Backend::new(None);
    let m = sat_model(z3.check(&p, &q));
    check_model(&p, &q, &m);
    assert_eq!(m.arrays[&a].get(m.bv[&j]), 1234);
    assert!(m.bv[&v] > 1234);
}

/// Random small queries mixing arrays and bit-vectors: every sat answer's
/// model satisfies the query under the concrete evaluator, and every
/// unsat answer's core is by itself unsatisfiable with the constraints.
#[test]
fn random_queries_give_valid_models_and_cores() {
    let mut rng = Rng(7);
    let mut p = ExprPool::new();
    let mut z3 = Z3Backend::new(None);
    let arrays = [p.var("A", Sort::Array { index: 8, elem: 8 }), p.var("B", Sort::Array { index: 8, elem: 8 })];
    let idx = [p.var("i", Sort::Bv(8)), p.var("j", Sort::Bv(8))];
    let (mut sat, mut unsat) = (0, 0);
    for _ in 0..300 {
        let mut atoms = Vec::new();
        for _ in 0..(2 + rng.below(6)) {
            let arr = arrays[rng.below(2) as usize];
            let arr = if rng.below(3) == 0 {
                let k = p.bv_const(8, rng.below(8));
                let val = p.bv_const(8, rng.below(256));
                p.store(arr, k, val)
            } else {
                arr
            };
            let index = if rng.below(2) == 0 { idx[rng.below(2) as usize] } else { p.bv_const(8, rng.below(8)) };
            let rd = p.select(arr, index);
            let k = p.bv_const(8, rng.below(16));
            let offset = p.bv_const(8, rng.below(4));
            let lhs = p.bin(BvOp::Add, rd, offset);
            let ops = [BvCmp::Ult, BvCmp::Ule, BvCmp::Slt, BvCmp::Sle];
            let atom = match rng.below(3) {
                0 => p.eq(k, lhs),
                1 => p.cmp(ops[rng.below(4) as usize], lhs, k),
                _ => {
                    let e = p.eq(k, lhs);
                    p.not(e)
                }
            };
            atoms.push(atom);
        }
        let split = rng.below(atoms.len() as u64 + 1) as usize;
        let q = Query { constraints: atoms[..split].to_vec(), assumptions: atoms[split..].to_vec() };
        match z3.check(&p, &q) {
            SolveResult::Sat(m) => {
                sat += 1;
                check_model(&p, &q, &m);
            }
            SolveResult::Unsat { core } => {
                unsat += 1;
                let sub = Query { constraints: q.constraints.clone(), assumptions: core.iter().map(|&c| q.assumptions[c]).collect() };
                assert!(matches!(z3.check(&p, &sub), SolveResult::Unsat { .. }), "core {core:?} of {q:?} is satisfiable");
            }
            SolveResult::Unknown(e) => panic!("unknown: {e}"),
        }
    }
    assert!(sat > 30 && unsat > 30, "sat {sat}, unsat {unsat}: the generator should produce both");
}

#[test]
fn boolean_and_one_bit_variables() {
    let mut p = ExprPool::new();
    let b = p.var("b", Sort::Bool);
    let x = p.var("x", Sort::Bv(1));
    let one = p.bv_const(1, 1);
    let x1 = p.eq(one, x);
    let nb = p.not(b);
    let c = p.or(nb, x1);
    let q = Query { constraints: vec![c, b], assumptions: vec![] };
    let mut z3 = Z3Backend::new(None);
    let m = sat_model(z3.check(&p, &q));
    assert_eq!((m.bv[&b], m.bv[&x]), (1, 1));
    check_model(&p, &q, &m);
}

#[test]
fn timeout_gives_unknown() {
    // Factor a 62-bit semiprime (2147483647 * 2147483629): hard for bit-blasting.
    let mut p = ExprPool::new();
    let (x, y) = (p.var("x", Sort::Bv(64)), p.var("y", Sort::Bv(64)));
    let n = p.bv_const(64, 2147483647u64 * 2147483629u64);
    let (one, lim) = (p.bv_const(64, 1), p.bv_const(64, 1 << 32));
    let prod = p.bin(BvOp::Mul, x, y);
    let cs = vec![p.eq(n, prod), p.cmp(BvCmp::Ult, one, x), p.cmp(BvCmp::Ult, one, y), p.cmp(BvCmp::Ult, x, lim), p.cmp(BvCmp::Ult, y, lim)];
    let mut z3 = Z3Backend::new(Some(1));
    let r = z3.check(&p, &Query { constraints: cs, assumptions: vec![] });
    assert!(matches!(r, SolveResult::Unknown(_)), "{r:?}");
    // The backend is still usable afterwards.
    let c = p.cmp(BvCmp::Ult, x, one);
    let m = sat_model(z3.check(&p, &Query { constraints: vec![c], assumptions: vec![] }));
    assert_eq!(m.bv[&x], 0);
}

#[test]
fn translation_cache_is_reset_for_another_pool() {
    let mut z3 = Z3Backend::new(None);
    // Same ids, different terms: in p1 id 2 is `x == 5`, in p2 `x != 5`.
    let mut p1 = ExprPool::new();
    let x = p1.var("x", Sort::Bv(8));
    let five = p1.bv_const(8, 5);
    let c1 = p1.eq(five, x);
    let mut p2 = ExprPool::new();
    let x2 = p2.var("x", Sort::Bv(8));
    let five2 = p2.bv_const(8, 5);
    let e = p2.cmp(BvCmp::Ult, five2, x2);
    let ten = p2.bv_const(8, 10);
    let c2 = p2.cmp(BvCmp::Ult, x2, ten);
    assert_eq!((x, five, c1), (x2, five2, e));
    let m = sat_model(z3.check(&p1, &Query { constraints: vec![c1], assumptions: vec![] }));
    assert_eq!(m.bv[&x], 5);
    let m = sat_model(z3.check(&p2, &Query { constraints: vec![e, c2], assumptions: vec![] }));
    assert!(m.bv[&x2] > 5 && m.bv[&x2] < 10);
    // Translations are kept across queries on one pool.
    let before = z3.cached_translations();
    z3.check(&p2, &Query { constraints: vec![e], assumptions: vec![] });
    assert_eq!(z3.cached_translations(), before);
}

#[test]
fn all_reuse_strategies_agree() {
    let mut p = ExprPool::new();
    let x = p.var("x", Sort::Bv(16));
    let (five, ten) = (p.bv_const(16, 5), p.bv_const(16, 10));
    let lt5 = p.cmp(BvCmp::Ult, x, five);
    let gt10 = p.cmp(BvCmp::Ult, ten, x);
    for reuse in [Reuse::PushPop, Reuse::Reset, Reuse::Fresh] {
        let mut z3 = Z3Backend::with_reuse(None, reuse);
        for _ in 0..3 {
            let q = Query { constraints: vec![lt5], assumptions: vec![gt10] };
            assert_eq!(z3.check(&p, &q), SolveResult::Unsat { core: vec![0] }, "{reuse:?}");
            let q = Query { constraints: vec![], assumptions: vec![gt10] };
            assert!(sat_model(z3.check(&p, &q)).bv[&x] > 10, "{reuse:?}");
        }
    }
}

#[test]
fn caching_solver_over_z3_hits_with_identical_results() {
    let mut p = ExprPool::new();
    let a = p.var("A", Sort::Array { index: 32, elem: 8 });
    let i = p.var("i", Sort::Bv(32));
    let ai = p.select(a, i);
    let (k, lim) = (p.bv_const(8, 42), p.bv_const(32, 100));
    let c1 = p.eq(k, ai);
    let c2 = p.cmp(BvCmp::Ult, lim, i);
    let mut s = CachingSolver::new(Z3Backend::new(None));
    let q = Query { constraints: vec![c1], assumptions: vec![c2] };
    let r1 = s.check(&p, &q);
    let r2 = s.check(&p, &q);
    assert_eq!(r1, r2);
    check_model(&p, &q, &sat_model(r1));
    // Permuted and duplicated: still a hit.
    let q2 = Query { constraints: vec![c1, c1], assumptions: vec![c2] };
    s.check(&p, &q2);
    // Constraints and assumptions are different roles: not a hit.
    let q3 = Query { constraints: vec![c2], assumptions: vec![c1] };
    s.check(&p, &q3);
    let st = s.stats();
    assert_eq!((st.queries, st.cache_hits, st.backend_calls), (4, 2, 2));
    assert!(st.backend_time > std::time::Duration::ZERO);
}

#[test]
fn smtlib_dump_is_accepted_by_z3_and_agrees() {
    let mut p = ExprPool::new();
    let a = p.var("A", Sort::Array { index: 32, elem: 8 });
    let i = p.var("idx 1", Sort::Bv(32));
    let ai = p.select(a, i);
    let w = p.sext(ai, 32);
    let sq = p.bin(BvOp::Mul, w, w);
    let (k, zero) = (p.bv_const(32, 49), p.bv_const(8, 0));
    let c1 = p.eq(k, sq);
    let ca = p.const_array(32, zero);
    let st = p.store(ca, i, ai);
    let three = p.bv_const(32, 3);
    let r = p.select(st, three);
    let c2 = p.eq(zero, r);
    let ex = p.extract(i, 7, 0);
    let b = p.bv_const(8, 3);
    let c3 = p.cmp(BvCmp::Slt, ex, b);
    let q = Query { constraints: vec![c1, c2], assumptions: vec![c3] };
    let text = to_smtlib(&p, &q);
    let solver = z3::Solver::new();
    solver.from_string(text.as_str());
    // Z3 reports parse errors only through its (disabled) error handler:
    // check that every assertion arrived.
    assert_eq!(solver.get_assertions().len(), 3, "{text}");
    let lit = z3::ast::Bool::new_const("pw!a0");
    assert_eq!(solver.check_assumptions(&[lit.clone()]), z3::SatResult::Sat, "{text}");
    let r = Z3Backend::new(None).check(&p, &q);
    assert!(matches!(r, SolveResult::Sat(_)), "{r:?}");
    // And an unsatisfiable variant.
    let c4 = p.cmp(BvCmp::Slt, b, ex);
    let q = Query { constraints: vec![c1, c2, c4], assumptions: vec![c3] };
    let solver = z3::Solver::new();
    let text = to_smtlib(&p, &q);
    solver.from_string(text.as_str());
    assert_eq!(solver.get_assertions().len(), 4, "{text}");
    assert_eq!(solver.check_assumptions(&[lit]), z3::SatResult::Unsat);
    assert_eq!(Z3Backend::new(None).check(&p, &q), SolveResult::Unsat { core: vec![0] });
}

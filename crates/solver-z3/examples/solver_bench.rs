//! Throughput of the Z3 backend on typical small symbolic-execution queries.
//!
//! Each query is a path condition of 10–20 comparisons over reads of an
//! input array `A` (byte elements, 64-bit offsets) at constant offsets and at
//! symbolic offsets `i + k`, plus a bound on `i`; the last comparison is the
//! branch being tested (an assumption). The constraints hold for a random
//! concrete input (as in concolic execution), the branch is arbitrary, so
//! both sat and unsat queries occur. Constants vary per query so that Z3
//! does real work each time.
//!
//! A second workload is shaped like the engine's queries on Merge (the
//! `merge` benchmark of `pathwise-engine`): two sorted input arrays of
//! 32-bit integers read only at constant byte offsets, 64-bit lengths tied
//! to 32-bit parameters, the precondition as constraints and a path's
//! branches (the last one negated) as assumptions. Queries of one input
//! share their prefixes, and inputs share most atoms, as in a depth-first
//! search. Once constant-index reads are Ackermannized these queries are
//! pure bit-vector logic.
//!
//! A third workload has only 32-bit integers (`x + k < y`, `x * k <= c`,
//! ...), where multiplication makes bit-blasting the dominant cost.
//!
//! Each workload runs with several [`Reuse`] strategies (the default,
//! `Guarded`, keeps the parts of past queries in the solver; the array and
//! arithmetic workloads are random, hence its worst case), and the
//! constant-index one also with other logics for the solver of array-free
//! queries (`QF_ABV`, the default, is Z3's SMT core; `QF_BV` and `QF_FD` its
//! SAT-based bit-vector solvers; `""` its default solver).
//!
//! Run with `cargo run --release -p pathwise-solver-z3 --example solver_bench`.

use std::time::Instant;

use pathwise_expr::{BvCmp, BvOp, CachingSolver, ExprPool, Query, SolveResult, SolverBackend, Sort};
use pathwise_solver_z3::{Reuse, Z3Backend};

const QUERIES: usize = 1000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One path-condition-like query, built concolically: a random concrete
/// input is drawn and every constraint is made true under it (a real path
/// condition is satisfiable), while the branch (the assumption) is
/// arbitrary, so about half of the queries are unsatisfiable.
fn make_query(p: &mut ExprPool, rng: &mut Rng) -> Query {
    let a = p.var("A", Sort::Array { index: 64, elem: 8 });
    let i = p.var("i", Sort::Bv(64));
    let bytes: Vec<u64> = (0..80).map(|_| rng.below(256)).collect();
    let len = 16 + rng.below(48);
    let iv = rng.below(len);
    let lenk = p.bv_const(64, len);
    let mut atoms = vec![p.cmp(BvCmp::Ult, i, lenk)];
    let n = 10 + rng.below(11) as usize;
    let ops = [BvCmp::Ult, BvCmp::Ule, BvCmp::Slt, BvCmp::Sle];
    while atoms.len() < n {
        let (index, at) = if rng.below(2) == 0 {
            let c = rng.below(16);
            (p.bv_const(64, c), c)
        } else {
            let c = rng.below(4);
            let k = p.bv_const(64, c);
            (p.bin(BvOp::Add, i, k), iv + c)
        };
        let rd = p.select(a, index);
        // Engine-like: bytes widened to int before comparing.
        let wide = p.sext(rd, 32);
        let conc = pathwise_expr::ops::to_signed(bytes[at as usize], 8) as u64 & 0xffff_ffff;
        let kv = rng.below(200).wrapping_sub(100) & 0xffff_ffff;
        let k = p.bv_const(32, kv);
        let (atom, holds) = match rng.below(4) {
            0 => (p.eq(k, wide), conc == kv),
            1 => {
                let e = p.eq(k, wide);
                (p.not(e), conc != kv)
            }
            _ => {
                let op = ops[rng.below(4) as usize];
                (p.cmp(op, wide, k), pathwise_expr::ops::eval_cmp(op, 32, conc, kv))
            }
        };
        let last = atoms.len() + 1 == n;
        atoms.push(if holds || last { atom } else { p.not(atom) });
    }
    let branch = atoms.pop().expect("n >= 10");
    Query { constraints: atoms, assumptions: vec![branch] }
}

/// A bit-vector-only path condition: 32-bit integers `x0..x3` compared
/// with each other and with constants after small arithmetic (the kind of
/// conditions loops and integer parameters produce), made true by a random
/// concrete input except for the branch.
fn make_bv_query(p: &mut ExprPool, rng: &mut Rng) -> Query {
    let xs: Vec<_> = (0..4).map(|k| p.var(&format!("x{k}"), Sort::Bv(32))).collect();
    let vals: Vec<u64> = (0..4).map(|_| rng.below(1000).wrapping_sub(500) & 0xffff_ffff).collect();
    let n = 10 + rng.below(11) as usize;
    let ops = [BvCmp::Ult, BvCmp::Ule, BvCmp::Slt, BvCmp::Sle];
    let bin_ops = [BvOp::Add, BvOp::Sub, BvOp::Mul, BvOp::And, BvOp::Shl];
    let mut atoms = Vec::new();
    while atoms.len() < n {
        let (a, b) = (rng.below(4) as usize, rng.below(4) as usize);
        let op = bin_ops[rng.below(bin_ops.len() as u64) as usize];
        let kv = 1 + rng.below(7);
        let k = p.bv_const(32, kv);
        let lhs = p.bin(op, xs[a], k);
        let lv = pathwise_expr::ops::eval_bin(op, 32, vals[a], kv);
        let (rhs, rv) = if rng.below(2) == 0 {
            (xs[b], vals[b])
        } else {
            let c = rng.below(1000).wrapping_sub(500) & 0xffff_ffff;
            (p.bv_const(32, c), c)
        };
        let cop = ops[rng.below(4) as usize];
        let atom = p.cmp(cop, lhs, rhs);
        let holds = pathwise_expr::ops::eval_cmp(cop, 32, lv, rv);
        let last = atoms.len() + 1 == n;
        atoms.push(if holds || last { atom } else { p.not(atom) });
    }
    let branch = atoms.pop().expect("n >= 10");
    Query { constraints: atoms, assumptions: vec![branch] }
}

/// Merge-like path conditions (see the module doc): `per_input` queries per
/// random sorted input, `count` in all.
fn make_const_index_queries(p: &mut ExprPool, rng: &mut Rng, count: usize, per_input: usize) -> Vec<Query> {
    let srt = Sort::Array { index: 64, elem: 32 };
    let ts = [p.var("t1", srt), p.var("t2", srt)];
    let lens = [p.var("t1.len", Sort::Bv(64)), p.var("t2.len", Sort::Bv(64))];
    let ls = [p.var("l1", Sort::Bv(32)), p.var("l2", Sort::Bv(32))];
    let (c16, c4, c10000) = (p.bv_const(64, 16), p.bv_const(64, 4), p.bv_const(32, 10000));
    let (zero, lo, hi) = (p.bv_const(32, 0), p.bv_const(32, (-100i64) as u64), p.bv_const(32, 100));
    let mut constraints = Vec::new();
    for k in 0..2 {
        let wide = p.sext(ls[k], 64);
        constraints.push(p.cmp(BvCmp::Ule, lens[k], c16));
        constraints.push(p.eq(lens[k], wide));
        constraints.push(p.cmp(BvCmp::Sle, zero, ls[k]));
        constraints.push(p.cmp(BvCmp::Sle, ls[k], c10000));
    }
    let mut out = Vec::new();
    while out.len() < count {
        let n = [rng.below(9), rng.below(9)];
        let vals: Vec<Vec<i64>> = n
            .iter()
            .map(|&len| {
                let mut v: Vec<i64> = (0..len).map(|_| rng.below(201) as i64 - 100).collect();
                v.sort_unstable();
                v
            })
            .collect();
        // The path: atoms in execution order, each as it holds.
        let mut path = Vec::new();
        let mut reads: Vec<Vec<_>> = vec![Vec::new(), Vec::new()];
        for k in 0..2 {
            let bytes = p.bin(BvOp::Mul, c4, lens[k]);
            for i in 0..=n[k] {
                let ic = p.bv_const(32, i);
                let more = p.cmp(BvCmp::Slt, ic, ls[k]);
                path.push(if i < n[k] { more } else { p.not(more) });
                if i == n[k] {
                    break;
                }
                let off = p.bv_const(64, 4 * i);
                path.push(p.cmp(BvCmp::Ult, off, bytes));
                let rd = p.select(ts[k], off);
                path.push(p.cmp(BvCmp::Sle, lo, rd));
                path.push(p.cmp(BvCmp::Sle, rd, hi));
                if let Some(&prev) = reads[k].last() {
                    path.push(p.cmp(BvCmp::Sle, prev, rd));
                }
                reads[k].push(rd);
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < reads[0].len() && j < reads[1].len() {
            let lt = p.cmp(BvCmp::Slt, reads[0][i], reads[1][j]);
            if vals[0][i] < vals[1][j] {
                path.push(lt);
                i += 1;
            } else {
                path.push(p.not(lt));
                j += 1;
            }
        }
        for _ in 0..per_input {
            let b = rng.below(path.len() as u64) as usize;
            let mut assumptions = path[..b].to_vec();
            assumptions.push(p.not(path[b]));
            out.push(Query { constraints: constraints.clone(), assumptions });
        }
    }
    out.truncate(count);
    out
}

fn run(name: &str, backend: &mut dyn SolverBackend, p: &ExprPool, queries: &[Query]) {
    let (mut sat, mut unsat, mut unknown) = (0, 0, 0);
    let start = Instant::now();
    for q in queries {
        match backend.check(p, q) {
            SolveResult::Sat(_) => sat += 1,
            SolveResult::Unsat { .. } => unsat += 1,
            SolveResult::Unknown(_) => unknown += 1,
        }
    }
    let t = start.elapsed();
    let n = queries.len() as f64;
    println!(
        "{name:<28} {:>9.0} queries/s  {:>8.1} µs/query  (sat {sat}, unsat {unsat}, unknown {unknown})",
        n / t.as_secs_f64(),
        t.as_secs_f64() * 1e6 / n,
    );
}

fn main() {
    let mut p = ExprPool::new();
    let mut rng = Rng(42);
    let queries: Vec<Query> = (0..QUERIES).map(|_| make_query(&mut p, &mut rng)).collect();
    let atoms: usize = queries.iter().map(|q| q.constraints.len() + q.assumptions.len()).sum();
    println!(
        "array workload: {QUERIES} queries, {:.1} comparisons each on average, pool of {} nodes",
        atoms as f64 / QUERIES as f64,
        p.len()
    );

    // Warm up the thread-local Z3 context (first use initialises it).
    let _ = Z3Backend::new(None).check(&p, &queries[0]);

    for reuse in [Reuse::Guarded, Reuse::PushPop, Reuse::Reset, Reuse::Fresh] {
        let mut z3 = Z3Backend::with_reuse(None, reuse);
        run(&format!("Z3Backend ({reuse:?})"), &mut z3, &p, &queries);
    }
    // Second pass on one backend: translations are already cached.
    let mut z3 = Z3Backend::new(None);
    run("Z3Backend (cold cache)", &mut z3, &p, &queries);
    run("Z3Backend (warm cache)", &mut z3, &p, &queries);
    let s = z3.stats();
    println!(
        "  per query: {:.1} µs in Z3 check proper, {:.1} µs reading models",
        s.check_time.as_secs_f64() * 1e6 / s.checks as f64,
        s.model_time.as_secs_f64() * 1e6 / s.checks as f64
    );

    // Caching: every query asked twice (the second time is a hit).
    let mut cached = CachingSolver::new(Z3Backend::new(None));
    let twice: Vec<Query> = queries.iter().flat_map(|q| [q.clone(), q.clone()]).collect();
    run("CachingSolver (each twice)", &mut cached, &p, &twice);
    let st = cached.stats();
    println!(
        "  {} queries, {} hits, {} backend calls, {:.1} µs per backend call",
        st.queries,
        st.cache_hits,
        st.backend_calls,
        st.backend_time.as_secs_f64() * 1e6 / st.backend_calls.max(1) as f64
    );

    let mut p = ExprPool::new();
    let queries = make_const_index_queries(&mut p, &mut rng, QUERIES, 4);
    let atoms: usize = queries.iter().map(|q| q.constraints.len() + q.assumptions.len()).sum();
    println!(
        "constant-index workload: {QUERIES} queries, {:.1} atoms each on average, pool of {} nodes",
        atoms as f64 / QUERIES as f64,
        p.len()
    );
    for reuse in [Reuse::Guarded, Reuse::PushPop] {
        for logic in ["QF_ABV", "QF_BV", "QF_FD", ""] {
            let mut z3 = Z3Backend::with_bv_logic(None, reuse, logic);
            run(&format!("Z3Backend ({reuse:?}, {logic:?})"), &mut z3, &p, &queries);
            if (reuse, logic) == (Reuse::default(), "QF_ABV") {
                let s = z3.stats();
                println!(
                    "  per query: {:.1} µs in Z3 check proper, {:.1} µs reading models; {} of {} without arrays",
                    s.check_time.as_secs_f64() * 1e6 / s.checks as f64,
                    s.model_time.as_secs_f64() * 1e6 / s.checks as f64,
                    s.bv_checks,
                    s.checks
                );
            }
        }
    }

    let mut p = ExprPool::new();
    let queries: Vec<Query> = (0..QUERIES).map(|_| make_bv_query(&mut p, &mut rng)).collect();
    println!("bit-vector workload: {QUERIES} queries over four 32-bit integers");
    for reuse in [Reuse::Guarded, Reuse::PushPop] {
        run(&format!("Z3Backend ({reuse:?})"), &mut Z3Backend::with_reuse(None, reuse), &p, &queries);
    }
}

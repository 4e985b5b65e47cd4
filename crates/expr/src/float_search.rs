//! Models of floating-point queries found by search, before the solver.
//!
//! Z3 decides a floating query by bit-blasting IEEE circuits: a product
//! or quotient of `double`s is thousands of clauses, and a satisfiable
//! query that needs a value *near* a boundary (`b * b - 4 * a * c == 0`,
//! a polynomial above a threshold) can take seconds or exhaust the
//! query's budget. Yet such queries usually have many models, and the
//! exact evaluator ([`crate::eval`]) computes a candidate's truth in
//! microseconds. [`FloatSearch`] therefore first looks for a model by
//! evaluation, as XSat and JFS do:
//!
//! 1. every variable starts at its value in the *hint* (the current run's
//!    input, which satisfies a path prefix's constraints but the negated
//!    last one: the search only has to move it across one boundary), or
//!    at zero; each then tries candidate values
//!    (special values, the query's own constants and their neighbours),
//!    keeping a change that lowers the *distance* of the query from
//!    being true;
//! 2. then random local moves, in the space where adjacent floating
//!    values are adjacent integers ([`ordered`]): steps of 2^j ulps, which
//!    change the magnitude or only the last bits.
//!
//! The distance of a comparison is the logarithm of how far apart its
//! operands are (in ulps for floats), so that a move that brings two
//! values closer is rewarded before they meet; conjunctions add,
//! disjunctions take the smaller (see [`Distance`]).
//!
//! **Sound and deterministic.** The search only ever answers `sat`, with a
//! model the evaluator checks against every constraint and assumption;
//! anything else goes to the backend unchanged, so an unsatisfiable query
//! costs the search's budget and nothing else. The budget counts
//! evaluations, never time, and the pseudo-random moves come from a fixed
//! seed: the same query gets the same answer on every machine.
//!
//! An input array read at constant indices (`a[0] < a[1]`, after a loop
//! over a known length) is searched cell by cell, each `select(A, i)` a
//! scalar of its own; queries that read one at a symbolic index or store
//! to it, or that have no floating operator, go straight to the backend:
//! their values are not scalars the search can set, or the bit-vector
//! solver is fast at them anyway.
//! Reads of constant arrays (a `const double T[362]` lookup table indexed
//! by a converted input) are evaluated like any other operator.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::eval::Evaluator;
use crate::float::{FpCmp, FpConv, FpFmt};
use crate::ops::{mask, to_signed, BvCmp};
use crate::pool::{children, Expr, ExprId, ExprPool, Sort};
use crate::solver::{Model, Query, SolveResult, SolverBackend};

/// Counters of a [`FloatSearch`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FloatSearchStats {
    /// Floating queries the search tried.
    pub tried: u64,
    /// Of them, those it answered with a model.
    pub found: u64,
}

/// A [`SolverBackend`] that searches for a model of each floating query
/// before asking `inner` (see the module doc).
pub struct FloatSearch<B: SolverBackend> {
    inner: B,
    stats: FloatSearchStats,
    /// Where the search starts (see [`FloatSearch::set_hint`]).
    hint: Model,
}

impl<B: SolverBackend> FloatSearch<B> {
    pub fn new(inner: B) -> FloatSearch<B> {
        FloatSearch { inner, stats: FloatSearchStats::default(), hint: Model::default() }
    }

    /// Start later searches from `hint`'s values, its array cells
    /// included (variables it lacks start at zero). The caller gives the
    /// inputs of the run whose prefix it solves; any model found is still
    /// checked, so a stale hint only costs evaluations.
    pub fn set_hint(&mut self, hint: &Model) {
        self.hint.clone_from(hint);
    }

    pub fn stats(&self) -> FloatSearchStats {
        self.stats
    }

    pub fn inner(&self) -> &B {
        &self.inner
    }

    pub fn inner_mut(&mut self) -> &mut B {
        &mut self.inner
    }
}

impl<B: SolverBackend> SolverBackend for FloatSearch<B> {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolveResult {
        let roots: Vec<ExprId> = query.constraints.iter().chain(&query.assumptions).copied().collect();
        if roots.iter().any(|&r| pool.has_float(r)) {
            if let Some(space) = Space::of(pool, &roots) {
                self.stats.tried += 1;
                if let Some(model) = space.search(pool, &roots, &self.hint) {
                    self.stats.found += 1;
                    return SolveResult::Sat(model);
                }
            }
        }
        self.inner.check(pool, query)
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.inner.set_deadline(deadline);
    }
}

/// Queries larger than this many nodes are left to the backend: each
/// evaluation would cost too much for a useful number of them.
const MAX_NODES: usize = 20_000;

/// The evaluation budget: about this many node visits in all, and
/// between [`MIN_EVALS`] and [`MAX_EVALS`] evaluations.
const NODE_VISITS: usize = 4_000_000;
const MIN_EVALS: usize = 100;
const MAX_EVALS: usize = 4_000;

/// One variable of the query and the values it tries first.
struct Var {
    /// The variable, or the `select` of an input array's cell.
    id: ExprId,
    /// For a cell: the array variable and the index.
    cell: Option<(ExprId, u64)>,
    width: u32,
    /// The floating format the variable is used in, if any.
    fmt: Option<FpFmt>,
    /// Index of the values it tries first in [`Space::candidates`].
    candidates: usize,
}

/// The variables of a query and the search's budget.
struct Space {
    vars: Vec<Var>,
    /// Candidate values, one list per floating format or integer width
    /// among the variables (they depend on nothing else).
    candidates: Vec<Vec<u64>>,
    evals: usize,
}

impl Space {
    /// The search space of `roots`; `None` when the query has an array
    /// variable or is too large (see the module doc).
    fn of(pool: &ExprPool, roots: &[ExprId]) -> Option<Space> {
        let mut seen = FxHashSet::default();
        let mut stack: Vec<ExprId> = roots.to_vec();
        let mut vars: Vec<(ExprId, u32, Option<(ExprId, u64)>)> = Vec::new();
        let mut float_use: Vec<(ExprId, FpFmt)> = Vec::new();
        let mut consts: Vec<(u32, u64)> = Vec::new();
        let mut float_consts: Vec<(FpFmt, u64)> = Vec::new();
        while let Some(e) = stack.pop() {
            if !seen.insert(e) {
                continue;
            }
            if seen.len() > MAX_NODES {
                return None;
            }
            let node = pool.get(e);
            if let Some(cell) = input_cell(pool, node) {
                // A read of an input array at a constant index is a scalar
                // of its own (the array itself is not visited).
                vars.push((e, pool.width(e), Some(cell)));
                continue;
            }
            match *node {
                Expr::Var { sort: Sort::Bv(w), .. } => vars.push((e, w, None)),
                // An input array read otherwise (at a symbolic index, or
                // stored to) is not made of scalars the search can set;
                // reads of constant arrays (a lookup table) evaluate like
                // the rest.
                Expr::Var { .. } => return None,
                Expr::BvConst { width, value } => consts.push((width, value)),
                Expr::FBin { fmt, a, b, .. } | Expr::FCmp { fmt, a, b, .. } => {
                    float_use.extend([(a, fmt), (b, fmt)]);
                }
                Expr::FUn { fmt, a, .. } => float_use.push((a, fmt)),
                Expr::FConv { op, a } => {
                    if let FpConv::Fp { from, .. } | FpConv::ToSigned { from, .. } | FpConv::ToUnsigned { from, .. } =
                        op
                    {
                        float_use.push((a, from));
                    }
                }
                _ => {}
            }
            stack.extend(children(node));
        }
        for &(e, fmt) in &float_use {
            if let Expr::BvConst { value, .. } = *pool.get(e) {
                float_consts.push((fmt, value));
            }
        }
        vars.sort_unstable();
        // The first format a variable is an operand of.
        let mut fmt_of: FxHashMap<ExprId, FpFmt> = FxHashMap::default();
        for &(e, fmt) in &float_use {
            fmt_of.entry(e).or_insert(fmt);
        }
        let mut lists: FxHashMap<(Option<FpFmt>, u32), usize> = FxHashMap::default();
        let mut candidates = Vec::new();
        let vars = vars
            .into_iter()
            .map(|(id, width, cell)| {
                let fmt = fmt_of.get(&id).copied();
                let list = *lists.entry((fmt, width)).or_insert_with(|| {
                    candidates.push(match fmt {
                        Some(f) => float_candidates(f, &float_consts),
                        None => int_candidates(width, &consts),
                    });
                    candidates.len() - 1
                });
                Var { id, cell, width, fmt, candidates: list }
            })
            .collect();
        Some(Space { vars, candidates, evals: (NODE_VISITS / seen.len().max(1)).clamp(MIN_EVALS, MAX_EVALS) })
    }

    /// A model of `roots`, if the search finds one within its budget,
    /// starting from `hint`'s values.
    fn search(&self, pool: &ExprPool, roots: &[ExprId], hint: &Model) -> Option<Model> {
        let start = |v: &Var| match v.cell {
            Some((array, index)) => hint.arrays.get(&array).map_or(0, |a| a.get(index)),
            None => hint.bv.get(&v.id).copied().unwrap_or(0),
        };
        let values = self.vars.iter().map(|v| start(v) & mask(v.width)).collect();
        let mut state = Walk { pool, roots, space: self, values, evals: 0 };
        let mut best = state.score()?;
        // Candidate values, one variable at a time, while they help.
        for _round in 0..3 {
            let before = best;
            for i in 0..self.vars.len() {
                for &c in &self.candidates[self.vars[i].candidates] {
                    if best == 0.0 || state.evals >= self.evals {
                        break;
                    }
                    best = state.try_value(i, c, best, false)?;
                }
            }
            if best == 0.0 || best >= before || state.evals >= self.evals {
                break;
            }
        }
        // Random local moves; equal scores are accepted, to cross plateaus.
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        while best > 0.0 && state.evals < self.evals && !self.vars.is_empty() {
            let i = rng.below(self.vars.len() as u64) as usize;
            let v = state.values[i];
            let var = &self.vars[i];
            let tries = &self.candidates[var.candidates];
            let next = match (var.fmt, rng.below(8)) {
                (_, 0) if !tries.is_empty() => tries[rng.below(tries.len() as u64) as usize],
                (Some(f), 1) => v ^ f.sign_bit(),
                (Some(f), _) => {
                    let j = rng.below(u64::from(f.bits() - 1));
                    let step = 1i64 << j;
                    from_ordered(f, ordered(f, v).saturating_add(if rng.below(2) == 0 { step } else { -step }))
                }
                (None, _) => {
                    let j = rng.below(u64::from(var.width));
                    let step = 1u64 << j;
                    (if rng.below(2) == 0 { v.wrapping_add(step) } else { v.wrapping_sub(step) }) & mask(var.width)
                }
            };
            best = state.try_value(i, next, best, true)?;
        }
        (best == 0.0).then(|| state.model()).filter(|m| crate::eval::satisfies(pool, roots, m))
    }
}

/// The search's current assignment.
struct Walk<'a> {
    pool: &'a ExprPool,
    roots: &'a [ExprId],
    space: &'a Space,
    values: Vec<u64>,
    evals: usize,
}

impl Walk<'_> {
    fn model(&self) -> Model {
        let mut m = Model::default();
        for (var, &v) in self.space.vars.iter().zip(&self.values) {
            match var.cell {
                Some((array, index)) => {
                    m.arrays.entry(array).or_default().entries.insert(index, v);
                }
                None => {
                    m.bv.insert(var.id, v);
                }
            }
        }
        m
    }

    /// The distance of the current assignment (`None`: a root is not a
    /// boolean, which a well-formed query never has).
    fn score(&mut self) -> Option<f64> {
        self.evals += 1;
        let model = self.model();
        let mut d = Distance { pool: self.pool, ev: Evaluator::new(self.pool, &model) };
        let mut total = 0.0;
        for &r in self.roots {
            total += d.to_be(r, true)?;
        }
        Some(total)
    }

    /// Sets variable `i` to `v` if that lowers the distance below `best`
    /// (or keeps it, with `plateau`); the distance kept.
    fn try_value(&mut self, i: usize, v: u64, best: f64, plateau: bool) -> Option<f64> {
        let old = self.values[i];
        if old == v {
            return Some(best);
        }
        self.values[i] = v;
        let s = self.score()?;
        if s < best || (plateau && s == best) {
            Some(s)
        } else {
            self.values[i] = old;
            Some(best)
        }
    }
}

/// How far a boolean expression is from a wanted value: 0 when it has it,
/// else at least 1, growing with the logarithm of the distance between
/// the operands of the comparisons that decide it.
struct Distance<'a> {
    pool: &'a ExprPool,
    ev: Evaluator<'a>,
}

/// The distance (in the logarithm's scale) of a NaN operand from an
/// ordered comparison: as far as operands e^33, about 2^48, ulps apart,
/// so that a finite value of ordinary magnitude is nearer.
const NAN_DISTANCE: f64 = 33.0;

impl Distance<'_> {
    fn bv(&mut self, e: ExprId) -> Option<u64> {
        self.ev.eval(e).as_bv()
    }

    fn to_be(&mut self, e: ExprId, want: bool) -> Option<f64> {
        let pool = self.pool;
        let node = pool.get(e);
        Some(match *node {
            Expr::Not(a) => self.to_be(a, !want)?,
            Expr::And(a, b) | Expr::Or(a, b) => {
                let conj = matches!(node, Expr::And(..)) == want;
                let (x, y) = (self.to_be(a, want)?, self.to_be(b, want)?);
                if conj {
                    x + y
                } else {
                    x.min(y)
                }
            }
            _ => {
                let holds = self.ev.eval(e).as_bool()?;
                if holds == want {
                    0.0
                } else {
                    1.0 + self.gap(node, want)?.ln_1p()
                }
            }
        })
    }

    /// How far apart the operands of a comparison that does not have the
    /// wanted value are (0 when that cannot be said).
    fn gap(&mut self, node: &Expr, want: bool) -> Option<f64> {
        Some(match *node {
            Expr::FCmp { op, fmt, a, b } => {
                let (x, y) = (self.bv(a)?, self.bv(b)?);
                if fmt.is_nan(x) || fmt.is_nan(y) {
                    return Some(if want { NAN_DISTANCE.exp_m1() } else { 0.0 });
                }
                let (x, y) = (ordered(fmt, x), ordered(fmt, y));
                match (op, want) {
                    (FpCmp::Eq, true) => x.abs_diff(y) as f64,
                    // x == y (and not wanted): one ulp away.
                    (FpCmp::Eq, false) => 1.0,
                    (FpCmp::Lt, true) | (FpCmp::Le, true) => x.saturating_sub(y).unsigned_abs() as f64,
                    (FpCmp::Lt, false) | (FpCmp::Le, false) => y.saturating_sub(x).unsigned_abs() as f64,
                }
            }
            Expr::Cmp { op, a, b } => {
                let w = self.pool.width(a);
                let (x, y) = (self.bv(a)?, self.bv(b)?);
                let (x, y) = match op {
                    BvCmp::Slt | BvCmp::Sle => (i128::from(to_signed(x, w)), i128::from(to_signed(y, w))),
                    BvCmp::Ult | BvCmp::Ule => (i128::from(x), i128::from(y)),
                };
                (if want { x - y } else { y - x }).unsigned_abs() as f64
            }
            Expr::Eq(a, b) if matches!(self.pool.sort(a), Sort::Bv(_)) => {
                let (x, y) = (self.bv(a)?, self.bv(b)?);
                if want {
                    let w = self.pool.width(a);
                    (x.wrapping_sub(y) & mask(w)).min(y.wrapping_sub(x) & mask(w)) as f64
                } else {
                    1.0
                }
            }
            _ => 0.0,
        })
    }
}

/// The array variable and index of a read of an input array at a
/// constant index (`select(A, 3)`), if `node` is one.
fn input_cell(pool: &ExprPool, node: &Expr) -> Option<(ExprId, u64)> {
    let Expr::Select { array, index } = *node else { return None };
    match (pool.get(array), pool.get(index)) {
        (Expr::Var { .. }, &Expr::BvConst { value, .. }) => Some((array, value)),
        _ => None,
    }
}

/// The position of a floating value in the order of values: adjacent
/// values are adjacent integers, -0.0 and +0.0 are both 0, and the
/// negative values are below them.
pub fn ordered(fmt: FpFmt, bits: u64) -> i64 {
    let mag = (bits & fmt.abs_mask()) as i64;
    if bits & fmt.sign_bit() != 0 {
        -mag
    } else {
        mag
    }
}

/// The inverse of [`ordered`], saturating at the infinities (0 is +0.0).
pub fn from_ordered(fmt: FpFmt, k: i64) -> u64 {
    let inf = fmt.inf_bits() as i64;
    let k = k.clamp(-inf, inf);
    if k < 0 {
        fmt.sign_bit() | k.unsigned_abs()
    } else {
        k as u64
    }
}

/// Values a floating variable tries first: zeros, small integers and
/// fractions, the extremes and the infinities and NaN, and the query's own
/// constants of its format, with their neighbours and negations.
fn float_candidates(fmt: FpFmt, consts: &[(FpFmt, u64)]) -> Vec<u64> {
    let from_f64 = |v: f64| match fmt {
        FpFmt::F32 => u64::from((v as f32).to_bits()),
        FpFmt::F64 => v.to_bits(),
    };
    let mut out: Vec<u64> =
        [0.0, 1.0, -1.0, 2.0, 0.5, -2.0, 10.0, 100.0, 1e6, 1e-6, 3.0, -0.5].iter().map(|&v| from_f64(v)).collect();
    out.extend([fmt.sign_bit(), fmt.inf_bits(), fmt.sign_bit() | fmt.inf_bits(), fmt.default_nan() & fmt.abs_mask()]);
    out.extend([fmt.inf_bits() - 1, fmt.min_normal_bits(), 1]);
    let mut own: Vec<u64> = consts.iter().filter(|&&(f, _)| f == fmt).map(|&(_, v)| v).collect();
    own.sort_unstable();
    own.dedup();
    for v in own {
        if fmt.is_nan(v) {
            continue;
        }
        let k = ordered(fmt, v);
        for w in [v, from_ordered(fmt, k + 1), from_ordered(fmt, k - 1), v ^ fmt.sign_bit()] {
            out.push(w);
        }
    }
    let mut seen = FxHashSet::default();
    out.retain(|&v| seen.insert(v));
    out
}

/// Values an integer variable tries first: small values, the extremes,
/// and the query's constants of its width with their neighbours.
fn int_candidates(width: u32, consts: &[(u32, u64)]) -> Vec<u64> {
    let m = mask(width);
    let top = if width == 0 { 0 } else { 1u64 << (width - 1) };
    let mut out = vec![0, 1, m, 2, top, top.wrapping_sub(1) & m];
    let mut own: Vec<u64> = consts.iter().filter(|&&(w, _)| w == width).map(|&(_, v)| v).collect();
    own.sort_unstable();
    own.dedup();
    for v in own {
        out.extend([v, v.wrapping_add(1) & m, v.wrapping_sub(1) & m]);
    }
    let mut seen = FxHashSet::default();
    out.retain(|&v| seen.insert(v));
    out
}

/// A small deterministic pseudo-random generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::FpOp;

    /// A backend that must not be asked: the search answers first.
    struct Unreachable(u32);

    impl SolverBackend for Unreachable {
        fn check(&mut self, _pool: &ExprPool, _query: &Query) -> SolveResult {
            self.0 += 1;
            SolveResult::Unknown("asked".into())
        }
    }

    fn f64c(p: &mut ExprPool, v: f64) -> ExprId {
        p.bv_const(64, v.to_bits())
    }

    /// `b * b - 4 * a * c == 0` with `a != 0`: a double zero discriminant,
    /// which bit-blasting finds slowly.
    fn discriminant(p: &mut ExprPool) -> Vec<ExprId> {
        let d = FpFmt::F64;
        let (a, b, c) = (p.var("a", Sort::Bv(64)), p.var("b", Sort::Bv(64)), p.var("c", Sort::Bv(64)));
        let four = f64c(p, 4.0);
        let zero = f64c(p, 0.0);
        let bb = p.fbin(FpOp::Mul, d, b, b);
        let fa = p.fbin(FpOp::Mul, d, four, a);
        let fac = p.fbin(FpOp::Mul, d, fa, c);
        let disc = p.fbin(FpOp::Sub, d, bb, fac);
        let a_is_zero = p.fcmp(FpCmp::Eq, d, a, zero);
        let a_nonzero = p.not(a_is_zero);
        vec![a_nonzero, p.fcmp(FpCmp::Eq, d, disc, zero)]
    }

    #[test]
    fn finds_a_zero_discriminant_without_the_backend() {
        let mut p = ExprPool::new();
        let roots = discriminant(&mut p);
        let mut s = FloatSearch::new(Unreachable(0));
        let r = s.check(&p, &Query { constraints: roots.clone(), assumptions: vec![] });
        let SolveResult::Sat(m) = r else { panic!("no model: {r:?}") };
        assert!(crate::eval::satisfies(&p, &roots, &m));
        assert_eq!((s.stats(), s.inner().0), (FloatSearchStats { tried: 1, found: 1 }, 0));
    }

    #[test]
    fn reaches_a_threshold_of_a_polynomial() {
        // x * x * x - 2 * x > 1000.5 and x < 11: near the top of a narrow band.
        let mut p = ExprPool::new();
        let d = FpFmt::F64;
        let x = p.var("x", Sort::Bv(64));
        let two = f64c(&mut p, 2.0);
        let x2 = p.fbin(FpOp::Mul, d, x, x);
        let x3 = p.fbin(FpOp::Mul, d, x2, x);
        let tx = p.fbin(FpOp::Mul, d, two, x);
        let poly = p.fbin(FpOp::Sub, d, x3, tx);
        let t = f64c(&mut p, 1000.5);
        let eleven = f64c(&mut p, 11.0);
        let roots = vec![p.fcmp(FpCmp::Lt, d, t, poly), p.fcmp(FpCmp::Lt, d, x, eleven)];
        let m = Space::of(&p, &roots).unwrap().search(&p, &roots, &Model::default()).expect("a model");
        let v = f64::from_bits(m.bv[&x]);
        assert!(v * v * v - 2.0 * v > 1000.5 && v < 11.0, "{v}");
    }

    #[test]
    fn unsatisfiable_queries_and_symbolic_array_reads_go_to_the_backend() {
        let mut p = ExprPool::new();
        let d = FpFmt::F64;
        let x = p.var("x", Sort::Bv(64));
        let lt = p.fcmp(FpCmp::Lt, d, x, x);
        let mut s = FloatSearch::new(Unreachable(0));
        let r = s.check(&p, &Query { constraints: vec![lt], assumptions: vec![] });
        assert_eq!(r, SolveResult::Unknown("asked".into()));
        assert_eq!((s.stats(), s.inner().0), (FloatSearchStats { tried: 1, found: 0 }, 1));
        // An input array read at a constant index: the cell is searched,
        // and the model gives the array's entry.
        let arr = p.var("A", Sort::Array { index: 64, elem: 64 });
        let i = p.bv_const(64, 3);
        let y = p.select(arr, i);
        let one = f64c(&mut p, 1.0);
        let q = p.fcmp(FpCmp::Eq, d, y, one);
        let r = s.check(&p, &Query { constraints: vec![q], assumptions: vec![] });
        let SolveResult::Sat(m) = r else { panic!("no model: {r:?}") };
        assert_eq!(m.arrays[&arr].get(3), 1f64.to_bits());
        assert!(crate::eval::satisfies(&p, &[q], &m));
        assert_eq!(s.stats(), FloatSearchStats { tried: 2, found: 1 });
        // Read at a symbolic index: the backend's.
        let j = p.var("j", Sort::Bv(64));
        let z = p.select(arr, j);
        let q = p.fcmp(FpCmp::Eq, d, z, one);
        let r = s.check(&p, &Query { constraints: vec![q], assumptions: vec![] });
        assert_eq!(r, SolveResult::Unknown("asked".into()));
        assert_eq!(s.stats().tried, 2, "an array read at a symbolic index is not searched");
    }

    #[test]
    fn reads_of_a_constant_table_are_evaluated() {
        // T = {0.5, 2.0, 8.0} (a store chain over a constant array);
        // T[(int)x] > 1.5 && T[(int)x] < 4.0 && x >= 0: x in [1, 2).
        let mut p = ExprPool::new();
        let d = FpFmt::F64;
        let x = p.var("x", Sort::Bv(64));
        let zero_bits = p.bv_const(64, 0);
        let mut t = p.const_array(32, zero_bits);
        for (i, v) in [0.5f64, 2.0, 8.0].into_iter().enumerate() {
            let (i, v) = (p.bv_const(32, i as u64), f64c(&mut p, v));
            t = p.store(t, i, v);
        }
        let i = p.fconv(FpConv::ToSigned { from: d, width: 32 }, x);
        let ti = p.select(t, i);
        let (lo, hi, zero) = (f64c(&mut p, 1.5), f64c(&mut p, 4.0), f64c(&mut p, 0.0));
        let roots = vec![p.fcmp(FpCmp::Lt, d, lo, ti), p.fcmp(FpCmp::Lt, d, ti, hi), p.fcmp(FpCmp::Le, d, zero, x)];
        let m = Space::of(&p, &roots).expect("searched").search(&p, &roots, &Model::default()).expect("a model");
        let v = f64::from_bits(m.bv[&x]);
        assert!((1.0..2.0).contains(&v), "{v}");
    }

    #[test]
    fn the_same_query_gets_the_same_model() {
        let mut p = ExprPool::new();
        let roots = discriminant(&mut p);
        let space = Space::of(&p, &roots).unwrap();
        let none = Model::default();
        assert_eq!(space.search(&p, &roots, &none), space.search(&p, &roots, &none));
    }

    #[test]
    fn the_search_starts_from_the_hint() {
        // 1e15 < x < 1e15 + 64: a hint inside is the answer as it is; from
        // zero, the search would take a candidate (a neighbour of 1e15).
        let mut p = ExprPool::new();
        let d = FpFmt::F64;
        let x = p.var("x", Sort::Bv(64));
        let (lo, hi) = (f64c(&mut p, 1e15), f64c(&mut p, 1e15 + 64.0));
        let roots = vec![p.fcmp(FpCmp::Lt, d, lo, x), p.fcmp(FpCmp::Lt, d, x, hi)];
        let space = Space::of(&p, &roots).unwrap();
        let mut hint = Model::default();
        hint.bv.insert(x, (1e15f64 + 11.25).to_bits());
        assert_eq!(space.search(&p, &roots, &hint), Some(hint.clone()));
        let from_zero = space.search(&p, &roots, &Model::default()).expect("a model");
        assert_ne!(from_zero, hint);
        // A hint outside moves in: x < 1e15 + 64 fails for the hint only.
        hint.bv.insert(x, (1e15f64 + 64.0).to_bits());
        let m = space.search(&p, &roots, &hint).expect("a model");
        let v = f64::from_bits(m.bv[&x]);
        assert!(v > 1e15 && v < 1e15 + 64.0, "{v}");
    }

    #[test]
    fn an_array_cell_starts_from_the_hints_array() {
        let mut p = ExprPool::new();
        let d = FpFmt::F64;
        let arr = p.var("A", Sort::Array { index: 64, elem: 64 });
        let i = p.bv_const(64, 2);
        let y = p.select(arr, i);
        let (lo, hi) = (f64c(&mut p, 1e15), f64c(&mut p, 1e15 + 64.0));
        let roots = vec![p.fcmp(FpCmp::Lt, d, lo, y), p.fcmp(FpCmp::Lt, d, y, hi)];
        let mut hint = Model::default();
        hint.arrays.entry(arr).or_default().entries.insert(2, (1e15f64 + 11.25).to_bits());
        let mut s = FloatSearch::new(Unreachable(0));
        s.set_hint(&hint);
        let r = s.check(&p, &Query { constraints: roots, assumptions: vec![] });
        let SolveResult::Sat(m) = r else { panic!("no model: {r:?}") };
        assert_eq!(m.arrays[&arr].get(2), (1e15f64 + 11.25).to_bits(), "the hint's cell, as it is");
    }

    #[test]
    fn ordered_positions_are_adjacent_and_invertible() {
        let d = FpFmt::F64;
        for v in [0.0f64, -0.0, 1.0, -1.0, f64::MIN_POSITIVE, 5e-324, f64::MAX, f64::INFINITY, -f64::INFINITY] {
            let k = ordered(d, v.to_bits());
            let back = f64::from_bits(from_ordered(d, k));
            assert!(back == v, "{v}");
            if v.is_finite() && v >= 0.0 {
                assert_eq!(f64::from_bits(from_ordered(d, k + 1)), next_up(v), "{v}");
            }
        }
        assert_eq!(ordered(d, (-0.0f64).to_bits()), 0);
        assert!(ordered(d, (-1.0f64).to_bits()) < ordered(d, (-0.5f64).to_bits()));
    }

    fn next_up(v: f64) -> f64 {
        f64::from_bits(if v == 0.0 { 1 } else { v.to_bits() + 1 })
    }
}

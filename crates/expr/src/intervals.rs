//! A cheap refutation procedure run before the solver: bounds on single
//! variables (KLEE's range-based fast path, restricted to proving
//! unsatisfiability).
//!
//! Every conjunct of the form `x op c` or `c op x` (with `x` a bit-vector
//! variable, `c` a constant and `op` one of `=`, `<`, `<=` signed or
//! unsigned, possibly negated) narrows a signed and an unsigned interval of
//! `x`; an empty interval proves the query unsatisfiable, and the conjuncts
//! that narrowed it form the core. Anything else is ignored, so the answer
//! is either a proof or "don't know". In the k-path search most infeasible
//! prefixes are of this kind: a loop condition on a counter against a bound
//! that an earlier exit already fixed.
//!
//! A conjunct stating that a signed multiplication overflows (`not
//! smul_no_overflow(x, y)`, the violation the error search asks for) is
//! refuted when the signed bounds of its operands (variables, possibly
//! sign-extended, or constants) keep every product in range: refuting a
//! 64-bit multiplier with a bit-blasting solver takes it a long time, even
//! with both operands bounded to a few thousand values.

use rustc_hash::FxHashMap;

use crate::ops::{mask, to_signed};
use crate::pool::{Expr, ExprId, ExprPool};
use crate::solver::Query;
use crate::BvCmp;

/// Bounds of one variable, with the conjuncts that produced each bound.
#[derive(Clone, Debug)]
pub(crate) struct Bounds {
    pub(crate) slo: (i128, Option<usize>),
    pub(crate) shi: (i128, Option<usize>),
    pub(crate) ulo: (i128, Option<usize>),
    pub(crate) uhi: (i128, Option<usize>),
}

impl Bounds {
    pub(crate) fn new(width: u32) -> Bounds {
        let smax = (1i128 << (width - 1)) - 1;
        Bounds { slo: (-smax - 1, None), shi: (smax, None), ulo: (0, None), uhi: (mask(width) as i128, None) }
    }
}

/// An atom `x op c` read off a conjunct: which bound it sets.
pub(crate) enum Atom {
    /// `x >= v` (signed or unsigned).
    Lo(bool, i128),
    /// `x <= v`.
    Hi(bool, i128),
    Eq(i128, i128),
}

/// If the conjuncts of `query` (constraints first, then assumptions, each
/// with its index in that order) are refuted by variable bounds, the
/// indices of the *assumptions* among the refuting conjuncts.
pub fn refute(pool: &ExprPool, query: &Query) -> Option<Vec<usize>> {
    let mut bounds: FxHashMap<ExprId, Bounds> = FxHashMap::default();
    let n_constraints = query.constraints.len();
    for (i, &c) in query.constraints.iter().chain(&query.assumptions).enumerate() {
        let Some((var, width, atoms)) = atoms(pool, c) else { continue };
        let b = bounds.entry(var).or_insert_with(|| Bounds::new(width));
        for atom in atoms {
            apply(b, atom, i);
        }
        for (lo, hi) in [(b.slo, b.shi), (b.ulo, b.uhi)] {
            if lo.0 > hi.0 {
                let mut core: Vec<usize> = [lo.1, hi.1]
                    .into_iter()
                    .flatten()
                    .filter(|&j| j >= n_constraints)
                    .map(|j| j - n_constraints)
                    .collect();
                core.sort_unstable();
                core.dedup();
                return Some(core);
            }
        }
    }
    let conjuncts = query.constraints.iter().chain(&query.assumptions).enumerate();
    let core = conjuncts.filter_map(|(i, &c)| product_fits(pool, &bounds, c).map(|mut s| (s.push(i), s).1)).next()?;
    let mut core: Vec<usize> = core.into_iter().filter(|&j| j >= n_constraints).map(|j| j - n_constraints).collect();
    core.sort_unstable();
    core.dedup();
    Some(core)
}

/// If `c` is `not smul_no_overflow(x, y)` and the bounds keep `x * y` in
/// range, the conjuncts that set the bounds used.
fn product_fits(pool: &ExprPool, bounds: &FxHashMap<ExprId, Bounds>, c: ExprId) -> Option<Vec<usize>> {
    let Expr::Not(inner) = *pool.get(c) else { return None };
    let Expr::SMulNoOverflow(x, y) = *pool.get(inner) else { return None };
    let w = pool.width(x);
    let (rx, sx) = operand_range(pool, bounds, x)?;
    let (ry, sy) = operand_range(pool, bounds, y)?;
    let products = [rx.0 * ry.0, rx.0 * ry.1, rx.1 * ry.0, rx.1 * ry.1];
    let half = 1i128 << (w - 1);
    products.iter().all(|p| (-half..half).contains(p)).then(|| sx.into_iter().chain(sy).collect())
}

/// The signed range of a multiplication operand and the conjuncts bounding
/// it: a constant, or a variable (possibly sign-extended) with bounds.
fn operand_range(pool: &ExprPool, bounds: &FxHashMap<ExprId, Bounds>, e: ExprId) -> Option<((i128, i128), Vec<usize>)> {
    if let Some(k) = pool.as_bv_const(e) {
        let v = to_signed(k, pool.width(e)) as i128;
        return Some(((v, v), Vec::new()));
    }
    let var = match *pool.get(e) {
        Expr::SExt { a, .. } => a,
        _ => e,
    };
    let b = bounds.get(&var)?;
    Some(((b.slo.0, b.shi.0), [b.slo.1, b.shi.1].into_iter().flatten().collect()))
}

pub(crate) fn apply(b: &mut Bounds, atom: Atom, i: usize) {
    let raise = |slot: &mut (i128, Option<usize>), v: i128| {
        if v > slot.0 {
            *slot = (v, Some(i));
        }
    };
    let lower = |slot: &mut (i128, Option<usize>), v: i128| {
        if v < slot.0 {
            *slot = (v, Some(i));
        }
    };
    match atom {
        Atom::Lo(true, v) => raise(&mut b.slo, v),
        Atom::Lo(false, v) => raise(&mut b.ulo, v),
        Atom::Hi(true, v) => lower(&mut b.shi, v),
        Atom::Hi(false, v) => lower(&mut b.uhi, v),
        Atom::Eq(s, u) => {
            raise(&mut b.slo, s);
            lower(&mut b.shi, s);
            raise(&mut b.ulo, u);
            lower(&mut b.uhi, u);
        }
    }
}

/// The variable, its width and the bounds a conjunct states, if it has the
/// shape `x op c`, `c op x` or the negation of one.
pub(crate) fn atoms(pool: &ExprPool, c: ExprId) -> Option<(ExprId, u32, Vec<Atom>)> {
    let (negated, inner) = match pool.get(c) {
        Expr::Not(x) => (true, *x),
        _ => (false, c),
    };
    let (op, a, b) = match *pool.get(inner) {
        Expr::Cmp { op, a, b } => (Some(op), a, b),
        Expr::Eq(a, b) => (None, a, b),
        _ => return None,
    };
    let is_var = |e: ExprId| matches!(pool.get(e), Expr::Var { .. });
    let (var, k, var_left) = match (pool.as_bv_const(a), pool.as_bv_const(b)) {
        (None, Some(k)) if is_var(a) => (a, k, true),
        (Some(k), None) if is_var(b) => (b, k, false),
        _ => return None,
    };
    let w = pool.width(var);
    let (sk, uk) = (to_signed(k, w) as i128, k as i128);
    let atom = match (op, negated) {
        (None, false) => Atom::Eq(sk, uk),
        (None, true) => return None,
        (Some(op), neg) => {
            let signed = matches!(op, BvCmp::Slt | BvCmp::Sle);
            let kv = if signed { sk } else { uk };
            let strict = matches!(op, BvCmp::Slt | BvCmp::Ult);
            // x < k, x <= k, k < x, k <= x; negation flips strictness and side.
            match (var_left, strict, neg) {
                (true, true, false) => Atom::Hi(signed, kv - 1),
                (true, false, false) => Atom::Hi(signed, kv),
                (true, true, true) => Atom::Lo(signed, kv),
                (true, false, true) => Atom::Lo(signed, kv + 1),
                (false, true, false) => Atom::Lo(signed, kv + 1),
                (false, false, false) => Atom::Lo(signed, kv),
                (false, true, true) => Atom::Hi(signed, kv),
                (false, false, true) => Atom::Hi(signed, kv - 1),
            }
        }
    };
    Some((var, w, vec![atom]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sort;

    #[test]
    fn refutes_contradicting_bounds_with_a_core() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(32));
        let y = p.var("y", Sort::Bv(32));
        let zero = p.bv_const(32, 0);
        let one = p.bv_const(32, 1);
        let x_le_0 = p.cmp(BvCmp::Sle, x, zero);
        let zero_lt_x = p.cmp(BvCmp::Slt, zero, x);
        let y_pos = p.cmp(BvCmp::Slt, zero, y);
        // x <= 0 as constraint; assumptions [y > 0, 0 < x]: core is [1].
        let q = Query { constraints: vec![x_le_0], assumptions: vec![y_pos, zero_lt_x] };
        assert_eq!(refute(&p, &q), Some(vec![1]));
        // Consistent bounds are not refuted.
        let x_lt_1 = p.cmp(BvCmp::Slt, x, one);
        let q = Query { constraints: vec![x_lt_1, x_le_0], assumptions: vec![] };
        assert_eq!(refute(&p, &q), None);
    }

    #[test]
    fn signed_and_unsigned_bounds_stay_apart() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(8));
        let zero = p.bv_const(8, 0);
        let m1 = p.bv_const(8, 0xff);
        // x < 0 (signed) and x >u 0 is satisfiable (x = -1).
        let neg = p.cmp(BvCmp::Slt, x, zero);
        let upos = p.cmp(BvCmp::Ult, zero, x);
        assert_eq!(refute(&p, &Query { constraints: vec![neg, upos], assumptions: vec![] }), None);
        // x == -1 and x <u 255 is not.
        let eq = p.eq(m1, x);
        let below = p.cmp(BvCmp::Ult, x, m1);
        assert_eq!(refute(&p, &Query { constraints: vec![eq, below], assumptions: vec![] }), Some(vec![]));
    }

    #[test]
    fn bounded_products_do_not_overflow() {
        let mut p = ExprPool::new();
        let (x, y) = (p.var("x", Sort::Bv(64)), p.var("y", Sort::Bv(32)));
        let sy = p.sext(y, 64);
        let (lo, hi) = (p.bv_const(64, (-1000i64) as u64), p.bv_const(64, 1000));
        let (ylo, yhi) = (p.bv_const(32, (-1000i64) as u64), p.bv_const(32, 1000));
        let bounds =
            [p.cmp(BvCmp::Sle, lo, x), p.cmp(BvCmp::Sle, x, hi), p.cmp(BvCmp::Sle, ylo, y), p.cmp(BvCmp::Sle, y, yhi)];
        let fits = p.smul_no_overflow(x, sy);
        let overflows = p.not(fits);
        let q = Query { constraints: bounds[..3].to_vec(), assumptions: vec![bounds[3], overflows] };
        assert_eq!(refute(&p, &q), Some(vec![0, 1]));
        // Without the upper bound of x the product may overflow.
        let q = Query { constraints: vec![bounds[0], bounds[2]], assumptions: vec![bounds[3], overflows] };
        assert_eq!(refute(&p, &q), None);
    }

    #[test]
    fn negated_comparisons() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(32));
        let five = p.bv_const(32, 5);
        let lt = p.cmp(BvCmp::Slt, x, five);
        let not_lt = p.not(lt); // 5 <= x, canonicalised by the builder
        let le = p.cmp(BvCmp::Sle, x, five);
        assert_eq!(refute(&p, &Query { constraints: vec![not_lt, lt], assumptions: vec![] }), Some(vec![]));
        assert_eq!(refute(&p, &Query { constraints: vec![not_lt, le], assumptions: vec![] }), None);
    }
}

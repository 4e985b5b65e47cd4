//! When a bit-vector query means the same over the integers.
//!
//! Bit-blasting solvers are slow on conjunctions of linear conditions over
//! 32-bit values (the random diamonds of seed 001's generator: one refuted
//! path prefix of `diamonds_5_0` took Z3's bit-vector solver 4.3 s), while
//! a linear-integer-arithmetic solver refutes the same query in a
//! millisecond. The two readings agree when no operation can wrap around:
//! if every variable lies within the bounds the query's own conjuncts give
//! it (`-100 <= v0`, `v0 <= 100`, ...), and interval arithmetic proves
//! that every sum, difference, product by a constant and shift stays
//! within its width, then reading each bit-vector as the signed integer it
//! denotes maps the query to an integer formula that is satisfied by
//! exactly the same assignments. [`integer_exact`] decides this; the Z3
//! backend translates such queries to integers (see its `lia` module).
//!
//! **Asserted sums.** A sum or difference interval arithmetic cannot
//! bound is exact all the same when the query asserts, as a conjunct, that
//! it does not overflow (the sign rule of [`crate::overflow`]): every
//! assignment that satisfies the query leaves it unwrapped. The condition
//! itself reads its operands only, as "the exact result is out of range"
//! (or within it), never the wrapped result. A path through a loop that
//! accumulates a symbolic sum and checks it in every iteration is a chain
//! of such sums: a 256-element checksum's deepest prefix was beyond Z3's
//! bit-vector solver in 30 s, and is a millisecond's work over the
//! integers. (Such an assertion justifies the sum only; a proof that used
//! an assumption's statement names it in `assumptions_used`.) Where the
//! bounds prove a sum in range, its no-overflow conjunct is implied and
//! not sent ([`IntegerExact::implied`]), and a conjunct stating its
//! overflow (the error search's question) refutes the query without a
//! solver ([`IntegerExact::refuted`]): read as ranges of exact sums, such
//! conjuncts made the integer solver twice as slow on the random
//! diamonds, and without them their error search is 30% faster than
//! before this reading (0.60 s against 0.86 s on `diamonds_5_1`).
//!
//! Operators the integer reading cannot express exactly (bitwise logic,
//! division, products of two variables, reads at symbolic indices, array
//! terms) make the answer `None`: the query keeps its bit-vector reading.
//!
//! **Cores.** A no-wrap proof that uses a bound stated by an *assumption*
//! holds only while that assumption is assumed. An unsatisfiable core of
//! the integer formula is a core of the query when the query restricted
//! to the core's assumptions is integer-exact by itself; otherwise the
//! core must be completed with the assumptions the proofs used
//! ([`IntegerExact::assumptions_used`]). (Making the wrap-around explicit
//! instead, `a + b - 2^w k` with "the bounds imply `k = 0`", gives exact
//! cores at once, but made each satisfiable diamonds query five times
//! slower: 5 ms against 1 ms.)

use rustc_hash::{FxHashMap, FxHashSet};

use crate::intervals::{apply, atoms, Bounds};
use crate::ops::to_signed;
use crate::overflow::recognise;
use crate::pool::{children, Expr, ExprId, ExprPool, Sort};
use crate::range::{exact, fits, full};
use crate::solver::Query;
use crate::BvOp;

/// A query that means the same over the integers (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntegerExact {
    /// Indices (into `query.assumptions`) of the assumptions whose bounds
    /// a no-wrap proof used (of a sum, difference, product, left shift or
    /// low extract, or of the signed-multiplication predicate).
    pub assumptions_used: Vec<usize>,
    /// Whether the query adds or subtracts two non-constant terms. Sums of
    /// variables are what bit-blasting is slow at; with only offsets by
    /// constants (`i + 1`) the bit-vector solver is as fast, and its
    /// models are the ones the rest of the search was tuned with.
    pub sums_variables: bool,
    /// Indices (into the constraints, then the assumptions) of the
    /// conjuncts that state that a sum does not overflow where the
    /// query's bounds prove it: implied by the query, they need not be
    /// sent (as ranges of exact sums they made the integer solver twice as
    /// slow on the random diamonds).
    pub implied: Vec<usize>,
    /// The query is unsatisfiable: a conjunct states that a sum
    /// overflows where the bounds prove it does not (the error search
    /// asks that of every checked sum). The core: the assumptions that
    /// set those bounds, and the conjunct's if it is an assumption.
    pub refuted: Option<Vec<usize>>,
}

/// Whether `query` means the same over the integers, each bit-vector read
/// as the signed number it denotes (see the module doc).
pub fn integer_exact(pool: &ExprPool, query: &Query) -> Option<IntegerExact> {
    let conjuncts: Vec<ExprId> = query.constraints.iter().chain(&query.assumptions).copied().collect();
    let nodes = reachable(pool, &conjuncts, true);
    let bounds = var_bounds(pool, &conjuncts, query.constraints.len())?;
    let asserted = asserted_no_overflow(pool, &conjuncts, query.constraints.len());
    let mut with = FxHashMap::default(); // ranges under the query's bounds
    let mut without = FxHashMap::default(); // ranges from the structure alone
                                            // The assumptions bounding the variables under each node.
    let mut below: FxHashMap<ExprId, Vec<usize>> = FxHashMap::default();
    let mut used = Vec::new();
    let mut sums_variables = false;
    for &id in &nodes {
        let sources = sources_below(pool, id, &below, &bounds);
        let (r0, ok0) = node_range(pool, id, &without, &|_| None)?;
        without.insert(id, if ok0 { r0 } else { full_of(pool, id) });
        let (r, ok) = node_range(pool, id, &with, &|v| bounds.get(&v).map(|b| b.range))?;
        if ok {
            with.insert(id, r);
            if may_wrap(pool, id) && !ok0 {
                used.extend(&sources);
            }
        } else {
            // The query asserts that this sum does not wrap: exact, with
            // the width's range, under the assertion alone.
            let &by = asserted.get(&id)?;
            with.insert(id, full_of(pool, id));
            used.extend(by);
        }
        below.insert(id, sources);
        sums_variables |= match *pool.get(id) {
            Expr::Bin { op: BvOp::Add | BvOp::Sub, a, b } => {
                pool.as_bv_const(a).is_none() && pool.as_bv_const(b).is_none()
            }
            _ => false,
        };
    }
    used.sort_unstable();
    used.dedup();
    // The overflow conditions the bounds decide.
    let fits_bounds = |o: &crate::overflow::AddSubOverflow| {
        exact(o.op, with[&o.a], with[&o.b]).is_some_and(|range| fits(range, pool.width(o.a)))
    };
    let implied = (0..conjuncts.len())
        .filter(|&i| no_overflow_stated(pool, conjuncts[i]).is_some_and(|o| fits_bounds(&o)))
        .collect();
    let n = query.constraints.len();
    let refuted = conjuncts.iter().enumerate().find_map(|(i, &c)| {
        let o = recognise(pool, c).filter(|o| o.overflows && fits_bounds(o))?;
        let mut core: Vec<usize> = below[&o.a].iter().chain(&below[&o.b]).copied().chain(i.checked_sub(n)).collect();
        core.sort_unstable();
        core.dedup();
        Some(core)
    });
    Some(IntegerExact { assumptions_used: used, sums_variables, implied, refuted })
}

/// `roots` simplified under the variable bounds their own top-level atoms
/// state (`-100 <= v0`, `v0 <= 100`, ...): every comparison whose truth the
/// interval ranges of its operands decide becomes a constant, and the
/// boolean structure above it is rebuilt (bit-vector terms are kept as
/// they are). The bound atoms themselves are returned unchanged, and a
/// root that becomes `true` is dropped, so the result holds for exactly the
/// same valuations as `roots`. (The covers of `--method vc` use it: the
/// no-overflow conditions of the random diamonds' sums, two comparisons
/// per operation, are all decided by the inputs' bounds.)
pub fn simplify_under_bounds(pool: &mut ExprPool, roots: &[ExprId]) -> Vec<ExprId> {
    let Some(bounds) = var_bounds(pool, roots, roots.len()) else { return roots.to_vec() };
    let nodes = reachable(pool, roots, false);
    let mut ranges: FxHashMap<ExprId, (i128, i128)> = FxHashMap::default();
    for &id in &nodes {
        let r = match node_range(pool, id, &ranges, &|v| bounds.get(&v).map(|b| b.range)) {
            Some((r, true)) => r,
            _ => full_of(pool, id),
        };
        ranges.insert(id, r);
    }
    let mut new: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    for &id in &nodes {
        let n = match *pool.get(id) {
            Expr::Cmp { op, a, b } => decide(op, ranges[&a], ranges[&b]).map(|v| pool.bool_const(v)),
            Expr::Eq(a, b) if matches!(pool.sort(a), Sort::Bv(_)) => {
                let (x, y) = (ranges[&a], ranges[&b]);
                if x.1 < y.0 || y.1 < x.0 {
                    Some(pool.bool_const(false))
                } else if x.0 == x.1 && y.0 == y.1 && x.0 == y.0 {
                    Some(pool.bool_const(true))
                } else {
                    None
                }
            }
            Expr::Not(a) => new.get(&a).map(|&a| pool.not(a)),
            Expr::And(a, b) | Expr::Or(a, b) if new.contains_key(&a) || new.contains_key(&b) => {
                let (x, y) = (new.get(&a).copied().unwrap_or(a), new.get(&b).copied().unwrap_or(b));
                Some(if matches!(pool.get(id), Expr::And(..)) { pool.and(x, y) } else { pool.or(x, y) })
            }
            Expr::Eq(a, b) if pool.sort(a) == Sort::Bool && (new.contains_key(&a) || new.contains_key(&b)) => {
                let (x, y) = (new.get(&a).copied().unwrap_or(a), new.get(&b).copied().unwrap_or(b));
                Some(pool.eq(x, y))
            }
            _ => None,
        };
        if let Some(n) = n.filter(|&n| n != id) {
            new.insert(id, n);
        }
    }
    let mut out = Vec::with_capacity(roots.len());
    for &r in roots {
        if crate::intervals::atoms(pool, r).is_some() {
            out.push(r);
            continue;
        }
        let n = new.get(&r).copied().unwrap_or(r);
        if pool.as_bool_const(n) != Some(true) {
            out.push(n);
        }
    }
    out
}

/// The truth of `a op b` over signed ranges, when they decide it.
fn decide(op: crate::BvCmp, a: (i128, i128), b: (i128, i128)) -> Option<bool> {
    use crate::BvCmp::*;
    // Unsigned comparisons of non-negative values are the signed ones.
    let signed = matches!(op, Slt | Sle) || (a.0 >= 0 && b.0 >= 0);
    if !signed {
        return None;
    }
    match op {
        Slt | Ult if a.1 < b.0 => Some(true),
        Slt | Ult if a.0 >= b.1 => Some(false),
        Sle | Ule if a.1 <= b.0 => Some(true),
        Sle | Ule if a.0 > b.1 => Some(false),
        _ => None,
    }
}

/// Whether the integer reading of `id` is exact only where it does not
/// wrap (or, for the signed-multiplication predicate, only where the
/// product fits).
fn may_wrap(pool: &ExprPool, id: ExprId) -> bool {
    matches!(
        pool.get(id),
        Expr::Bin { op: BvOp::Add | BvOp::Sub | BvOp::Mul | BvOp::Shl, .. }
            | Expr::Extract { .. }
            | Expr::SMulNoOverflow(..)
    )
}

/// The assumptions bounding the variables under `id`, from its children's.
fn sources_below(
    pool: &ExprPool,
    id: ExprId,
    below: &FxHashMap<ExprId, Vec<usize>>,
    bounds: &FxHashMap<ExprId, VarRange>,
) -> Vec<usize> {
    let mut out: Vec<usize> = match *pool.get(id) {
        Expr::Var { .. } => bounds.get(&id).map(|b| b.sources.clone()).unwrap_or_default(),
        Expr::Select { array, index } if is_leaf_read(pool, array, index) => Vec::new(),
        ref e => children(e).iter().flat_map(|k| below.get(k).into_iter().flatten().copied()).collect(),
    };
    out.sort_unstable();
    out.dedup();
    out
}

/// The signed range of a variable and the assumptions that set it.
struct VarRange {
    range: (i128, i128),
    sources: Vec<usize>,
}

/// The bounds the conjuncts give each variable; `None` when some are
/// contradictory (interval refutation answers those queries).
fn var_bounds(pool: &ExprPool, conjuncts: &[ExprId], n_constraints: usize) -> Option<FxHashMap<ExprId, VarRange>> {
    let mut bounds: FxHashMap<ExprId, Bounds> = FxHashMap::default();
    for (i, &c) in conjuncts.iter().enumerate() {
        let Some((var, width, atoms)) = atoms(pool, c) else { continue };
        let b = bounds.entry(var).or_insert_with(|| Bounds::new(width));
        for atom in atoms {
            apply(b, atom, i);
        }
    }
    let mut out = FxHashMap::default();
    for (var, b) in bounds {
        let (mut lo, mut hi) = (b.slo, b.shi);
        // An unsigned bound below the sign bit bounds the signed value too.
        let smax = full(pool.width(var)).1;
        if b.uhi.0 <= smax {
            if b.ulo.0 > lo.0 {
                lo = b.ulo;
            }
            if b.uhi.0 < hi.0 {
                hi = b.uhi;
            }
        }
        if lo.0 > hi.0 {
            return None;
        }
        let sources =
            [lo.1, hi.1].into_iter().flatten().filter(|&i| i >= n_constraints).map(|i| i - n_constraints).collect();
        out.insert(var, VarRange { range: (lo.0, hi.0), sources });
    }
    Some(out)
}

/// The nodes reachable from `roots`, children before parents (pool ids
/// are created children first, so ascending order is a topological one);
/// with `reading`, through [`reading_children`].
fn reachable(pool: &ExprPool, roots: &[ExprId], reading: bool) -> Vec<ExprId> {
    let mut seen = FxHashSet::default();
    let mut stack: Vec<ExprId> = roots.to_vec();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        if reading {
            stack.extend(reading_children(pool, id));
            continue;
        }
        // The array and index of a constant-index read are not values of
        // the integer reading: the read is a leaf.
        if let Expr::Select { array, index } = *pool.get(id) {
            if is_leaf_read(pool, array, index) {
                continue;
            }
        }
        stack.extend(children(pool.get(id)));
    }
    let mut nodes: Vec<ExprId> = seen.into_iter().collect();
    nodes.sort_unstable();
    nodes
}

/// The children of `id` that its integer reading reads: none for a
/// constant-index read of an array variable (a leaf), the operands of the
/// sum for a signed-overflow condition (`a op b` out of range: its sign
/// bits and wrapped result are not read, see [`overflow`](crate::overflow)),
/// else all of them.
pub fn reading_children(pool: &ExprPool, id: ExprId) -> Vec<ExprId> {
    match *pool.get(id) {
        Expr::Select { array, index } if is_leaf_read(pool, array, index) => Vec::new(),
        Expr::And(..) | Expr::Not(_) | Expr::Eq(..) => match recognise(pool, id) {
            Some(o) if o.a == o.b => vec![o.a],
            Some(o) => vec![o.a, o.b],
            None => children(pool.get(id)),
        },
        ref e => children(e),
    }
}

/// The sums and differences whose no-overflow condition is a conjunct
/// of the query, each with the assumption that states it (`None`: a
/// constraint). Their wrapped results are exact wherever the query holds.
fn asserted_no_overflow(
    pool: &ExprPool,
    conjuncts: &[ExprId],
    n_constraints: usize,
) -> FxHashMap<ExprId, Option<usize>> {
    let mut out: FxHashMap<ExprId, Option<usize>> = FxHashMap::default();
    for (i, &c) in conjuncts.iter().enumerate() {
        let Some(r) = no_overflow_stated(pool, c).map(|o| o.r) else { continue };
        let by = i.checked_sub(n_constraints);
        // A constraint's statement needs no assumption.
        let e = out.entry(r).or_insert(by);
        if by.is_none() {
            *e = None;
        }
    }
    out
}

/// The sum whose no-overflow condition `c` is, if it is one.
fn no_overflow_stated(pool: &ExprPool, c: ExprId) -> Option<crate::overflow::AddSubOverflow> {
    match *pool.get(c) {
        Expr::Not(bad) => recognise(pool, bad).filter(|o| o.overflows),
        _ => recognise(pool, c).filter(|o| !o.overflows),
    }
}

/// A read of an array variable at a constant index: an unknown value of
/// its own (the Z3 backend's Ackermannized reads).
pub fn is_leaf_read(pool: &ExprPool, array: ExprId, index: ExprId) -> bool {
    matches!(pool.get(array), Expr::Var { .. }) && pool.as_bv_const(index).is_some()
}

fn full_of(pool: &ExprPool, id: ExprId) -> (i128, i128) {
    match pool.sort(id) {
        Sort::Bv(w) => full(w),
        _ => (0, 0),
    }
}

/// The signed range of node `id` (children's ranges in `ranges`; variables
/// bounded by `var`) and whether its integer reading is exact under them;
/// `None` when the node has no integer reading at all. Boolean nodes get
/// `(0, 0)`.
fn node_range(
    pool: &ExprPool,
    id: ExprId,
    ranges: &FxHashMap<ExprId, (i128, i128)>,
    var: &dyn Fn(ExprId) -> Option<(i128, i128)>,
) -> Option<((i128, i128), bool)> {
    let r = |x: ExprId| ranges[&x];
    let fit = |range: (i128, i128), w: u32| Some(if fits(range, w) { (range, true) } else { (full(w), false) });
    match *pool.get(id) {
        Expr::BoolConst(_) | Expr::Not(_) | Expr::And(..) | Expr::Or(..) | Expr::Cmp { .. } => Some(((0, 0), true)),
        Expr::Eq(a, _) => matches!(pool.sort(a), Sort::Bool | Sort::Bv(_)).then_some(((0, 0), true)),
        Expr::BvConst { width, value } => {
            let v = to_signed(value, width) as i128;
            Some(((v, v), true))
        }
        Expr::Var { sort: Sort::Bool, .. } => Some(((0, 0), true)),
        Expr::Var { sort: Sort::Bv(w), .. } => Some((var(id).unwrap_or(full(w)), true)),
        Expr::Var { .. } => None,
        Expr::Select { array, index } if is_leaf_read(pool, array, index) => Some((full(pool.width(id)), true)),
        Expr::Select { .. } | Expr::Store { .. } | Expr::ConstArray { .. } => None,
        // IEEE arithmetic has no integer reading.
        Expr::FBin { .. } | Expr::FUn { .. } | Expr::FCmp { .. } | Expr::FConv { .. } => None,
        Expr::Ite { cond, then_, else_ } => {
            if pool.sort(cond) != Sort::Bool || !matches!(pool.sort(then_), Sort::Bool | Sort::Bv(_)) {
                return None;
            }
            if pool.sort(then_) == Sort::Bool {
                return Some(((0, 0), true));
            }
            let (a, b) = (r(then_), r(else_));
            Some(((a.0.min(b.0), a.1.max(b.1)), true))
        }
        Expr::SExt { a, .. } => Some((r(a), true)),
        Expr::ZExt { a, .. } => {
            let ra = r(a);
            Some((if ra.0 >= 0 { ra } else { (0, (1i128 << pool.width(a)) - 1) }, true))
        }
        // Low bits keep the value only when it fits in them.
        Expr::Extract { a, hi, lo: 0 } => fit(r(a), hi + 1),
        Expr::Extract { .. } => None,
        Expr::SMulNoOverflow(x, y) => {
            let w = pool.width(x);
            let range = exact(BvOp::Mul, r(x), r(y))?;
            Some(((0, 0), fits(range, w)))
        }
        Expr::Bin { op, a, b } => bin_range(pool, op, (a, r(a)), (b, r(b)), pool.width(id)),
    }
}

/// See [`node_range`]: the operators with an integer reading.
fn bin_range(
    pool: &ExprPool,
    op: BvOp,
    (a, ra): (ExprId, (i128, i128)),
    (b, rb): (ExprId, (i128, i128)),
    w: u32,
) -> Option<((i128, i128), bool)> {
    let fit = |range: (i128, i128)| Some(if fits(range, w) { (range, true) } else { (full(w), false) });
    let shift = pool.as_bv_const(b).filter(|&s| s < u64::from(w) - 1).map(|s| s as u32);
    match op {
        BvOp::Add | BvOp::Sub => fit(exact(op, ra, rb)?),
        // A product by a constant (the pool puts constants first).
        BvOp::Mul if pool.as_bv_const(a).is_some() || pool.as_bv_const(b).is_some() => fit(exact(op, ra, rb)?),
        BvOp::Shl => {
            let f = 1i128 << shift?;
            fit((ra.0 * f, ra.1 * f))
        }
        // Floor division by a power of two, which the integers have too.
        BvOp::AShr => {
            let s = shift?;
            Some(((ra.0 >> s, ra.1 >> s), true))
        }
        BvOp::LShr if ra.0 >= 0 => {
            let s = shift?;
            Some(((ra.0 >> s, ra.1 >> s), true))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BvCmp;

    fn bounded(p: &mut ExprPool, x: ExprId, lo: i64, hi: i64) -> (ExprId, ExprId) {
        let w = p.width(x);
        let (l, h) = (p.bv_const(w, lo as u64), p.bv_const(w, hi as u64));
        (p.cmp(BvCmp::Sle, l, x), p.cmp(BvCmp::Sle, x, h))
    }

    #[test]
    fn bounds_decide_comparisons_and_keep_the_rest() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(32));
        let y = p.var("y", Sort::Bv(32));
        let r = p.var("r", Sort::Bool);
        let (xl, xh) = bounded(&mut p, x, -100, 100);
        let (yl, yh) = bounded(&mut p, y, -100, 100);
        // r => (x + y stays in range): decided, the root disappears.
        let s = p.bin(BvOp::Add, x, y);
        let lo = p.bv_const(32, (-1000i64) as u64);
        let fits = p.cmp(BvCmp::Slt, lo, s);
        let nr = p.not(r);
        let guarded = p.or(nr, fits);
        // r = (x + y < 500): decided true, becomes r = true.
        let k = p.bv_const(32, 500);
        let below = p.cmp(BvCmp::Slt, s, k);
        let def = p.eq(r, below);
        // x < y: not decided, kept as it is.
        let open = p.cmp(BvCmp::Slt, x, y);
        let roots = vec![xl, xh, yl, yh, guarded, def, open];
        let got = simplify_under_bounds(&mut p, &roots);
        let t = p.bool_const(true);
        let r_true = p.eq(r, t);
        assert_eq!(got, vec![xl, xh, yl, yh, r_true, open]);
        // Without bounds nothing is decided.
        let got = simplify_under_bounds(&mut p, &[guarded, def, open]);
        assert_eq!(got, vec![guarded, def, open]);
    }

    #[test]
    fn bounded_sums_are_exact_and_name_the_assumed_bounds() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(32));
        let y = p.var("y", Sort::Bv(32));
        let (xl, xh) = bounded(&mut p, x, -100, 100);
        let (yl, yh) = bounded(&mut p, y, -100, 100);
        let s = p.bin(BvOp::Add, x, y);
        let zero = p.bv_const(32, 0);
        let c = p.cmp(BvCmp::Slt, s, zero);
        // Bounds of x as constraints, of y as assumptions.
        let q = Query { constraints: vec![c, xl, xh], assumptions: vec![yl, yh] };
        let ex = integer_exact(&p, &q).expect("exact");
        assert_eq!(ex.assumptions_used, vec![0, 1]);
        assert!(ex.sums_variables);
        // Without y's bounds the sum may wrap.
        let q = Query { constraints: vec![c, xl, xh], assumptions: vec![] };
        assert_eq!(integer_exact(&p, &q), None);
    }

    #[test]
    fn a_sum_asserted_not_to_overflow_is_exact_and_bounds_decide_overflow_conditions() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(32));
        let y = p.var("y", Sort::Bv(32));
        let s = p.bin(BvOp::Add, x, y);
        let bad = crate::overflow::add_sub_overflow(&mut p, BvOp::Add, x, y, s);
        let ok = p.not(bad);
        let zero = p.bv_const(32, 0);
        let neg = p.cmp(BvCmp::Slt, s, zero);
        // Unbounded: the sum is exact only because `ok` is asserted.
        let q = Query { constraints: vec![ok, neg], assumptions: vec![] };
        let ex = integer_exact(&p, &q).expect("exact");
        assert!(ex.implied.is_empty() && ex.refuted.is_none(), "{ex:?}");
        assert_eq!(integer_exact(&p, &Query { constraints: vec![neg], assumptions: vec![] }), None);
        // As an assumption, its index is what the proof used.
        let q = Query { constraints: vec![neg], assumptions: vec![ok] };
        assert_eq!(integer_exact(&p, &q).expect("exact").assumptions_used, vec![0]);
        // Bounded by assumptions: the no-overflow conjunct is implied, and
        // its violation refuted by the bounds' assumptions.
        let (xl, xh) = bounded(&mut p, x, -100, 100);
        let (yl, yh) = bounded(&mut p, y, -100, 100);
        let q = Query { constraints: vec![ok, neg], assumptions: vec![xl, xh, yl, yh] };
        assert_eq!(integer_exact(&p, &q).expect("exact").implied, vec![0]);
        let q = Query { constraints: vec![xl, xh], assumptions: vec![yl, yh, bad] };
        assert_eq!(integer_exact(&p, &q).expect("exact").refuted, Some(vec![0, 1, 2]));
    }

    #[test]
    fn structure_alone_can_prove_no_wrap() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(8));
        let wide = p.sext(x, 32);
        let k = p.bv_const(32, 1000);
        let s = p.bin(BvOp::Mul, k, wide);
        let lim = p.bv_const(32, 5);
        let c = p.cmp(BvCmp::Ult, s, lim);
        let (l, h) = bounded(&mut p, x, 0, 3);
        let q = Query { constraints: vec![c], assumptions: vec![l, h] };
        let ex = integer_exact(&p, &q).expect("exact");
        assert!(ex.assumptions_used.is_empty(), "{ex:?}");
    }

    #[test]
    fn bitwise_logic_and_products_of_variables_have_no_integer_reading() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(8));
        let y = p.var("y", Sort::Bv(8));
        let zero = p.bv_const(8, 0);
        for op in [BvOp::And, BvOp::Mul, BvOp::UDiv, BvOp::Xor] {
            let e = p.bin(op, x, y);
            let c = p.eq(e, zero);
            let (l, h) = bounded(&mut p, x, 0, 3);
            let (l2, h2) = bounded(&mut p, y, 0, 3);
            let q = Query { constraints: vec![c, l, h, l2, h2], assumptions: vec![] };
            assert_eq!(integer_exact(&p, &q), None, "{op:?}");
        }
    }

    #[test]
    fn a_low_extract_is_exact_only_when_the_value_fits() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(32));
        let low = p.extract(x, 7, 0);
        let k = p.bv_const(8, 5);
        let c = p.eq(low, k);
        let (l, h) = bounded(&mut p, x, -128, 127);
        let q = Query { constraints: vec![c, l, h], assumptions: vec![] };
        assert!(integer_exact(&p, &q).is_some());
        let (l, h) = bounded(&mut p, x, 0, 255);
        let q = Query { constraints: vec![c, l, h], assumptions: vec![] };
        assert_eq!(integer_exact(&p, &q), None);
    }
}

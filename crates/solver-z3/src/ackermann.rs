//! Ackermannization of constant-index reads: the per-query analysis.
//!
//! Most array reads of the engine's queries are `select(A, c)` with `A` an
//! input array *variable* and `c` a constant offset (concrete indices are
//! the common case in concolic execution). The translator (see
//! [`translate`](crate::translate)) turns each such read into a fresh
//! bit-vector constant `A@c`, one per `(A, c)` (the pool hash-conses the
//! `select` node, so caching by its id caches per pair). The translation is
//! therefore query-independent, as the translation cache requires.
//!
//! What *is* per query is decided here, by one walk over the query's DAG:
//! - an array `A` that the query also uses in another way (a read at a
//!   symbolic index, a `store` over `A`, an equality between arrays, an
//!   `ite` of arrays, ...) is *linked*: the query gets the axioms
//!   `select(A, c) = A@c` for each of its reads `A@c`, so it stays exactly
//!   equivalent to the original (the `A@c` are otherwise unconstrained);
//! - a query without linked arrays and without constant arrays is pure
//!   bit-vector logic, and goes to a bit-vector solver (see the crate doc
//!   for the measurements);
//! - the reads give the model its array cells: `A[c]` is the value of
//!   `A@c` (see [`model`](crate::model)).

use pathwise_expr::{Expr, ExprId, ExprPool};

/// One Ackermannized read `select(array, index)` of a query.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Read {
    /// The array variable.
    pub array: ExprId,
    /// The constant index.
    pub index: u64,
    /// The `select` node (its translation is the constant `A@c`).
    pub select: ExprId,
}

/// What routing, linking axioms and model extraction need to know about a
/// query (see the module doc).
#[derive(Default, Debug)]
pub(crate) struct Scan {
    /// The query's free variables, in first-occurrence order.
    pub vars: Vec<ExprId>,
    /// The Ackermannized reads, in first-occurrence order.
    pub reads: Vec<Read>,
    /// Array variables that also occur other than as the array operand of
    /// a constant-index read (ascending ids).
    pub linked: Vec<ExprId>,
    /// Whether the query contains a constant array.
    pub const_array: bool,
}

impl Scan {
    /// Whether `array` is linked (see the module doc).
    pub fn is_linked(&self, array: ExprId) -> bool {
        self.linked.binary_search(&array).is_ok()
    }

    /// Whether the query, as translated, is pure bit-vector logic.
    pub fn is_pure_bv(&self) -> bool {
        self.linked.is_empty() && !self.const_array
    }
}

/// Whether `select(array, index)` is Ackermannized: `array` is an array
/// variable and `index` a constant. The translator and the scan must agree
/// on this, so both call it.
pub(crate) fn is_ackermannized(pool: &ExprPool, array: ExprId, index: ExprId) -> bool {
    matches!(pool.get(array), Expr::Var { .. }) && pool.as_bv_const(index).is_some()
}

/// Visit marks reused across scans: `marks[id] == epoch` means visited in
/// the current scan. Saves clearing (or hashing into) a set per query.
#[derive(Default)]
pub(crate) struct Scanner {
    marks: Vec<u32>,
    epoch: u32,
}

impl Scanner {
    /// Forget marks that belong to another pool (ids would alias).
    pub fn reset(&mut self) {
        self.marks.clear();
        self.epoch = 0;
    }

    /// Analyse the query with boolean `roots` (see [`Scan`]).
    pub fn scan(&mut self, pool: &ExprPool, roots: &[ExprId]) -> Scan {
        if self.marks.len() < pool.len() {
            self.marks.resize(pool.len(), 0);
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Wrapped around: old marks could collide with the new epoch.
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.epoch = 1;
        }
        let mut scan = Scan::default();
        // Reversed so that pops visit the roots (and children) in order,
        // which gives `vars` the order of `ExprPool::vars_of`.
        let mut stack: Vec<ExprId> = roots.iter().rev().copied().collect();
        while let Some(id) = stack.pop() {
            let mark = &mut self.marks[id.0 as usize];
            if *mark == self.epoch {
                continue;
            }
            *mark = self.epoch;
            match *pool.get(id) {
                Expr::Var { sort, .. } => {
                    // It may be there already, added by a read below.
                    if !scan.vars.contains(&id) {
                        scan.vars.push(id);
                    }
                    if matches!(sort, pathwise_expr::Sort::Array { .. }) {
                        // Reached other than through a constant-index read
                        // (those do not visit their array operand).
                        scan.linked.push(id);
                    }
                }
                Expr::Select { array, index } if is_ackermannized(pool, array, index) => {
                    let c = pool.as_bv_const(index).expect("constant index");
                    scan.reads.push(Read { array, index: c, select: id });
                    // The array variable still belongs to the query's
                    // variables (its model value holds the cells); it is
                    // not marked, so that a later visit links it.
                    if !scan.vars.contains(&array) {
                        scan.vars.push(array);
                    }
                }
                ref e => {
                    scan.const_array |= matches!(e, Expr::ConstArray { .. });
                    let mut kids = pathwise_expr::pool::children(e);
                    kids.reverse();
                    stack.extend(kids.into_iter().filter(|k| self.marks[k.0 as usize] != self.epoch));
                }
            }
        }
        scan.linked.sort_unstable();
        scan
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathwise_expr::{BvCmp, Sort};

    #[test]
    fn scan_separates_constant_reads_from_other_uses() {
        let mut p = ExprPool::new();
        let srt = Sort::Array { index: 64, elem: 32 };
        let (a, b) = (p.var("A", srt), p.var("B", srt));
        let i = p.var("i", Sort::Bv(64));
        let (c0, c4) = (p.bv_const(64, 0), p.bv_const(64, 4));
        let (a0, a4, b0, ai) = (p.select(a, c0), p.select(a, c4), p.select(b, c0), p.select(a, i));
        let lt = p.cmp(BvCmp::Slt, a0, a4);
        let le = p.cmp(BvCmp::Sle, b0, a0);
        let mut s = Scanner::default();

        let only_const = s.scan(&p, &[lt, le]);
        assert!(only_const.is_pure_bv());
        assert_eq!(only_const.vars, vec![a, b]);
        let reads: Vec<(ExprId, u64)> = only_const.reads.iter().map(|r| (r.array, r.index)).collect();
        assert_eq!(reads, vec![(a, 0), (a, 4), (b, 0)]);

        // A symbolic read of A links A (not B).
        let sym = p.cmp(BvCmp::Slt, ai, a0);
        let mixed = s.scan(&p, &[lt, le, sym]);
        assert!(!mixed.is_pure_bv());
        assert!(mixed.is_linked(a) && !mixed.is_linked(b));
        assert_eq!(mixed.vars, vec![a, b, i]);

        // A store links its array; a constant array is flagged.
        let st = p.store(b, i, a0);
        let rd = p.select(st, c4);
        let zero = p.bv_const(32, 0);
        let ca = p.const_array(64, zero);
        let e1 = p.eq(ca, st);
        let e2 = p.eq(zero, rd);
        let other = s.scan(&p, &[e1, e2]);
        assert!(other.is_linked(b) && !other.is_linked(a) && other.const_array);
    }
}

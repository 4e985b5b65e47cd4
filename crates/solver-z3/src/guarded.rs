//! [`Reuse::Guarded`](crate::Reuse::Guarded): solvers that keep the parts
//! of past queries, each behind its own literal.
//!
//! With `push`/`pop` per query, Z3 internalizes (bit-blasts) every atom of
//! every query again, although depth-first search asks about the same
//! prefix over and over: on the Merge queries this was most of the ~1 ms a
//! check took. Here a part of a query (a constraint, an assumption, or the
//! linking axiom of an Ackermannized read) with literal `p` is asserted as
//! `p ⇒ part` at the solver's base level, once, and stays there; a query
//! enables its parts through their literals:
//! - constraints and linking axioms: their literals are asserted as unit
//!   facts in a `push`/`pop` scope around the check (cheap: the facts
//!   themselves are internalized already). Passing them as assumptions
//!   instead would save the scope (about 30 µs) but spoil the cores: Z3 no
//!   longer tells the constraints apart from the assumptions and puts
//!   assumptions into cores where the constraints alone conflict (on the
//!   Merge queries, about half of the empty cores became singletons, which
//!   made the engine ask more queries);
//! - assumptions: their literals are passed to `check_assumptions`, so
//!   cores map back to assumption indices as with `push`/`pop`.
//!
//! Facts that are *not* enabled still cost: Z3's bit-vector setup has
//! relevancy off, so every check propagates through the circuits of all
//! facts. Two measures bound this:
//! - a part is only kept when two consecutive queries of the solver use
//!   it; the first time it is asserted inside the query's scope. A
//!   depth-first search reuses its prefix at once, while unrelated queries
//!   rarely share atoms (keeping everything made the random 32-bit
//!   arithmetic workload of `solver_bench` 6× slower than `push`/`pop`;
//!   requiring reuse by the next query brought it within 10%, and was
//!   faster on the Merge-like workload, 0.51 ms per query, than requiring
//!   reuse within 2 or 4 queries, 0.57 ms);
//! - once the kept facts pass [`FIRST_REVIEW`], and each time that size
//!   doubles, the solver is renewed if more than half of them went unused
//!   for [`STALE_AFTER`] queries (the paths they belong to are explored).
//!
//! Guarded parts also escape Z3's preprocessing: with `x = 5` a constraint
//! in a `push`/`pop` scope, Z3 substitutes `5` for `x` before bit-blasting,
//! but `p ⇒ x = 5` with `p` enabled only at search time leaves the circuit
//! of, say, `x * y` whole. On the differential tests (64-bit
//! multiplications, divisions and remainders of variables fixed by
//! equalities) this made checks 25× slower. A query with such a
//! non-linear operator ([`Translator::is_heavy`]) is therefore checked in
//! a plain `push`/`pop` scope of the same solver, as with
//! [`Reuse::PushPop`](crate::Reuse::PushPop).
//!
//! [`Translator::is_heavy`]: crate::translate::Translator::is_heavy

use pathwise_expr::{ExprId, Query, SolveResult, Sort};
use rustc_hash::{FxHashMap, FxHashSet};
use z3::ast::Bool;

use crate::{check_scoped, check_under, Cx, Slot, Terms};

/// Number of kept facts at which to look for stale ones first.
const FIRST_REVIEW: usize = 256;

/// Queries after which an unused kept fact counts as stale.
const STALE_AFTER: u64 = 64;

/// What a solver slot keeps between queries (see the module doc).
pub(crate) struct Facts {
    /// Parts asserted at the base level, with the number of the last query
    /// that used them.
    kept: FxHashMap<ExprId, u64>,
    /// Parts used by an earlier query of the slot (kept or not), with the
    /// number of the last one. Survives a renewal (ids stay meaningful).
    seen: FxHashMap<ExprId, u64>,
    /// Queries checked by the slot.
    queries: u64,
    /// Size of `kept` at which to look for stale facts next.
    next_review: usize,
}

impl Default for Facts {
    fn default() -> Facts {
        Facts { kept: FxHashMap::default(), seen: FxHashMap::default(), queries: 0, next_review: FIRST_REVIEW }
    }
}

impl Facts {
    /// The slot's solver was replaced: nothing is kept any more.
    pub fn forget_kept(&mut self) {
        self.kept.clear();
        self.next_review = FIRST_REVIEW;
    }

    /// Whether the solver should be renewed because most kept facts are
    /// stale (see the module doc).
    fn stale(&mut self) -> bool {
        if self.kept.len() < self.next_review {
            return false;
        }
        let live = self.kept.values().filter(|&&q| q + STALE_AFTER > self.queries).count();
        if live * 2 < self.kept.len() {
            return true;
        }
        self.next_review = 2 * self.kept.len();
        false
    }
}

/// Check the query of `cx` with the guarded solver of `slot`.
pub(crate) fn check(slot: &mut Slot, cx: Cx) -> SolveResult {
    slot.facts.queries += 1;
    if slot.facts.stale() {
        slot.renew();
    }
    let (pool, query, scan) = (cx.pool, cx.query, cx.scan);
    let parts = query.constraints.iter().chain(&query.assumptions);
    if parts.clone().any(|&id| cx.terms.translator.is_heavy(pool, id)) {
        slot.solver.push();
        let r = check_scoped(&slot.solver, cx);
        slot.solver.pop(1);
        return r;
    }
    let linked = scan.reads.iter().filter(|r| scan.is_linked(r.array)).map(|r| r.select);
    let held: Vec<ExprId> = query.constraints.iter().copied().chain(linked).collect();
    let mut scoped: Vec<Bool> = Vec::new();
    let mut done: FxHashSet<ExprId> = FxHashSet::default();
    for &id in held.iter().chain(&query.assumptions) {
        if !done.insert(id) {
            continue;
        }
        let facts = &mut slot.facts;
        if let Some(q) = facts.kept.get_mut(&id) {
            *q = facts.queries;
            continue;
        }
        let p = cx.terms.literal(id);
        let part = match pool.sort(id) {
            Sort::Bool => cx.terms.translator.bool_term(pool, id),
            _ => {
                let read = scan.reads.iter().find(|r| r.select == id).expect("a linked read");
                cx.terms.translator.linking_axiom(pool, read)
            }
        };
        let fact = p.implies(part);
        let previous = facts.seen.insert(id, facts.queries);
        if previous == Some(facts.queries - 1) {
            slot.solver.assert(fact);
            facts.kept.insert(id, facts.queries);
        } else {
            scoped.push(fact);
        }
    }
    let enabled: Vec<Bool> = held.iter().map(|&id| cx.terms.literal(id)).collect();
    let (lits, lit_index) = assumption_literals(&mut *cx.terms, query);
    slot.solver.push();
    for f in scoped.iter().chain(&enabled) {
        slot.solver.assert(f);
    }
    let r = check_under(&slot.solver, &lits, &lit_index, cx);
    slot.solver.pop(1);
    r
}

/// The distinct literals of `query`'s assumptions, and the index of the
/// first assumption of each.
fn assumption_literals(terms: &mut Terms, query: &Query) -> (Vec<Bool>, FxHashMap<Bool, usize>) {
    let mut lits = Vec::with_capacity(query.assumptions.len());
    let mut index: FxHashMap<Bool, usize> = FxHashMap::default();
    for (i, &a) in query.assumptions.iter().enumerate() {
        let p = terms.literal(a);
        if let std::collections::hash_map::Entry::Vacant(e) = index.entry(p.clone()) {
            e.insert(i);
            lits.push(p);
        }
    }
    (lits, index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mostly_stale_facts_renew_the_solver() {
        let mut f = Facts::default();
        // Below the first review size nothing is looked at.
        f.kept.extend((0..FIRST_REVIEW as u32 - 1).map(|i| (ExprId(i), 0)));
        f.queries = 1000;
        assert!(!f.stale());
        // At the size: all of them are stale.
        f.kept.insert(ExprId(9999), 0);
        assert!(f.stale());
        // Mostly live: kept, and not looked at again before twice the size.
        f.kept.values_mut().for_each(|q| *q = 990);
        assert!(!f.stale());
        assert_eq!(f.next_review, 2 * FIRST_REVIEW);
        f.kept.values_mut().for_each(|q| *q = 0);
        assert!(!f.stale(), "not reviewed before the size doubles");
        f.forget_kept();
        assert_eq!((f.kept.len(), f.next_review), (0, FIRST_REVIEW));
    }
}

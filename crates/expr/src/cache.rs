//! A memoising [`SolverBackend`] wrapper.
//!
//! Symbolic execution asks the same questions again and again (the same
//! branch in another iteration, the same prefix from another path, slices
//! that are identical after independence slicing). [`CachingSolver`] keys
//! results on the *sets* of constraint ids and assumption ids — order and
//! duplicates do not matter, since conjunction is commutative and idempotent
//! and ids are hash-consed terms — and answers repeats without calling the
//! backend.
//!
//! Unsat cores are stored as assumption *ids* and mapped back to indices of
//! each incoming query, so a hit with a different assumption order still
//! gets a correct core.
//!
//! Before the cache, a trivial-query fast path: a constant-false constraint
//! or assumption is unsatisfiable on its own (core: that assumption, or empty
//! for a constraint); constant-true ones are dropped; an empty query is
//! satisfied by the empty model.
//!
//! `Unknown` results are cached too: the backend is deterministic for a given
//! query, so repeating a query that timed out would only time out again.
//!
//! Keys are [`ExprId`]s, which only mean something for one pool: the cache
//! is cleared when a query arrives with a different pool (see
//! [`ExprPool::uid`]).

use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use crate::pool::{ExprId, ExprPool};
use crate::solver::{Model, Query, SolveResult, SolverBackend};

/// Counters of a [`CachingSolver`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Queries received.
    pub queries: u64,
    /// Queries answered from the cache.
    pub cache_hits: u64,
    /// Queries passed to the backend.
    pub backend_calls: u64,
    /// Wall-clock time spent in the backend.
    pub backend_time: Duration,
    /// Queries answered by the trivial-query fast path (neither hits nor
    /// backend calls).
    pub trivial: u64,
    /// Backend calls whose query contains a floating operator
    /// ([`ExprPool::has_float`]), and their share of `backend_time`: float
    /// queries bit-blast IEEE circuits and are the expensive ones.
    pub float_calls: u64,
    pub float_time: Duration,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    constraints: Box<[ExprId]>,
    assumptions: Box<[ExprId]>,
}

/// A result with the core as assumption ids (independent of order).
#[derive(Clone)]
enum Cached {
    Sat(Model),
    Unsat(Vec<ExprId>),
    Unknown(String),
}

/// Memoises a backend's answers; see the module doc.
pub struct CachingSolver<B: SolverBackend> {
    backend: B,
    /// Each answer with when it was stored (see [`CachingSolver::snapshot`]).
    cache: FxHashMap<Key, (Cached, u64)>,
    stored: u64,
    stats: SolverStats,
    pool_uid: u64,
}

impl<B: SolverBackend> CachingSolver<B> {
    pub fn new(backend: B) -> CachingSolver<B> {
        CachingSolver { backend, cache: FxHashMap::default(), stored: 0, stats: SolverStats::default(), pool_uid: 0 }
    }

    pub fn stats(&self) -> SolverStats {
        self.stats
    }

    pub fn backend(&self) -> &B {
        &self.backend
    }

    pub fn backend_mut(&mut self) -> &mut B {
        &mut self.backend
    }

    pub fn into_inner(self) -> B {
        self.backend
    }

    /// Number of cached results.
    pub fn cache_len(&self) -> usize {
        self.cache.len()
    }

    /// Forget all cached results (statistics are kept).
    pub fn clear_cache(&mut self) {
        self.cache.clear();
    }

    /// A copy of the `limit` results stored last, for a solver working on
    /// a [fork](ExprPool::fork) of the pool they were asked in (the
    /// latest, because they are about the part of the search the copy
    /// is for; at most `limit`, so that copies waiting to be used stay
    /// small).
    pub fn snapshot(&self, limit: usize) -> QueryCache {
        if self.cache.len() <= limit {
            return QueryCache(self.cache.clone());
        }
        let mut latest: Vec<(&Key, &(Cached, u64))> = self.cache.iter().collect();
        latest.sort_unstable_by_key(|(_, (_, at))| std::cmp::Reverse(*at));
        QueryCache(latest.into_iter().take(limit).map(|(k, v)| (k.clone(), v.clone())).collect())
    }

    /// Take `cache` as this solver's results for `pool`, which must be
    /// the pool `cache` was taken in or a fork of it (its ids are the
    /// keys).
    pub fn adopt(&mut self, cache: QueryCache, pool: &ExprPool) {
        self.stored = cache.0.values().map(|(_, at)| at + 1).max().unwrap_or(0);
        self.cache = cache.0;
        self.pool_uid = pool.uid();
    }
}

/// The results a [`CachingSolver`] holds, apart from it (see
/// [`CachingSolver::snapshot`]).
#[derive(Clone, Default)]
pub struct QueryCache(FxHashMap<Key, (Cached, u64)>);

impl QueryCache {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Debug for QueryCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "QueryCache({} results)", self.0.len())
    }
}

/// The sorted, deduplicated ids of `ids` that are not the constant true.
fn normalized(pool: &ExprPool, ids: &[ExprId]) -> Box<[ExprId]> {
    let mut v: Vec<ExprId> = ids.iter().copied().filter(|&e| pool.as_bool_const(e) != Some(true)).collect();
    v.sort_unstable();
    v.dedup();
    v.into_boxed_slice()
}

/// `cached` as an answer to `query`: core ids become indices of their first
/// occurrence in `query.assumptions`.
fn answer(cached: &Cached, query: &Query) -> SolveResult {
    match cached {
        Cached::Sat(m) => SolveResult::Sat(m.clone()),
        Cached::Unknown(r) => SolveResult::Unknown(r.clone()),
        Cached::Unsat(ids) => {
            let mut core: Vec<usize> =
                ids.iter().filter_map(|id| query.assumptions.iter().position(|a| a == id)).collect();
            core.sort_unstable();
            core.dedup();
            SolveResult::Unsat { core }
        }
    }
}

impl<B: SolverBackend> SolverBackend for CachingSolver<B> {
    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.backend.set_deadline(deadline);
    }

    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolveResult {
        self.stats.queries += 1;
        if self.pool_uid != pool.uid() {
            self.pool_uid = pool.uid();
            self.cache.clear();
        }
        if query.constraints.iter().any(|&c| pool.as_bool_const(c) == Some(false)) {
            self.stats.trivial += 1;
            return SolveResult::Unsat { core: vec![] };
        }
        if let Some(i) = query.assumptions.iter().position(|&a| pool.as_bool_const(a) == Some(false)) {
            self.stats.trivial += 1;
            return SolveResult::Unsat { core: vec![i] };
        }
        let key = Key {
            constraints: normalized(pool, &query.constraints),
            assumptions: normalized(pool, &query.assumptions),
        };
        if key.constraints.is_empty() && key.assumptions.is_empty() {
            self.stats.trivial += 1;
            return SolveResult::Sat(Model::default());
        }
        if let Some((c, _)) = self.cache.get(&key) {
            self.stats.cache_hits += 1;
            return answer(c, query);
        }
        let sub = Query { constraints: key.constraints.to_vec(), assumptions: key.assumptions.to_vec() };
        let start = Instant::now();
        let result = self.backend.check(pool, &sub);
        let spent = start.elapsed();
        self.stats.backend_time += spent;
        self.stats.backend_calls += 1;
        if sub.constraints.iter().chain(&sub.assumptions).any(|&e| pool.has_float(e)) {
            self.stats.float_calls += 1;
            self.stats.float_time += spent;
        }
        let cached = match result {
            SolveResult::Sat(m) => Cached::Sat(m),
            SolveResult::Unsat { core } => Cached::Unsat(core.iter().map(|&i| sub.assumptions[i]).collect()),
            SolveResult::Unknown(r) => Cached::Unknown(r),
        };
        let out = answer(&cached, query);
        self.cache.insert(key, (cached, self.stored));
        self.stored += 1;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::BvCmp;
    use crate::pool::Sort;

    /// A backend double: unsat iff the assumption `bad` is present (core:
    /// its index); records how often it was called.
    struct Double {
        bad: ExprId,
        calls: u32,
    }

    impl SolverBackend for Double {
        fn check(&mut self, _pool: &ExprPool, q: &Query) -> SolveResult {
            self.calls += 1;
            match q.assumptions.iter().position(|&a| a == self.bad) {
                Some(i) => SolveResult::Unsat { core: vec![i] },
                None => {
                    let mut m = Model::default();
                    m.bv.insert(ExprId(self.calls), 1);
                    SolveResult::Sat(m)
                }
            }
        }
    }

    fn setup() -> (ExprPool, ExprId, ExprId, ExprId) {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(8));
        let k = p.bv_const(8, 3);
        let a = p.cmp(BvCmp::Ult, x, k);
        let b = p.eq(k, x);
        let c = p.cmp(BvCmp::Ule, x, k);
        (p, a, b, c)
    }

    #[test]
    fn identical_and_permuted_queries_hit() {
        let (p, a, b, c) = setup();
        let mut s = CachingSolver::new(Double { bad: b, calls: 0 });
        let q1 = Query { constraints: vec![a], assumptions: vec![c] };
        let r1 = s.check(&p, &q1);
        let r2 = s.check(&p, &q1);
        assert!(matches!(r1, SolveResult::Sat(_)));
        assert_eq!(r1, r2);
        let st = s.stats();
        assert_eq!((st.queries, st.cache_hits, st.backend_calls), (2, 1, 1));
        // Unsat core maps back through reordering and duplicates.
        let q2 = Query { constraints: vec![a], assumptions: vec![c, b] };
        assert_eq!(s.check(&p, &q2), SolveResult::Unsat { core: vec![1] });
        let q3 = Query { constraints: vec![a, a], assumptions: vec![b, c, b] };
        assert_eq!(s.check(&p, &q3), SolveResult::Unsat { core: vec![0] });
        assert_eq!(s.backend().calls, 2);
        assert_eq!(s.stats().cache_hits, 2);
    }

    #[test]
    fn a_fork_of_the_pool_keeps_a_snapshot_of_the_answers() {
        let (p, a, b, c) = setup();
        let mut giver = CachingSolver::new(Double { bad: b, calls: 0 });
        let q = Query { constraints: vec![a], assumptions: vec![c, b] };
        let first = giver.check(&p, &q);
        let mut fork = p.fork();
        assert_ne!(fork.uid(), p.uid());
        // The same ids mean the same terms; new terms get new ids.
        let x = fork.var("x", Sort::Bv(8));
        let k = fork.bv_const(8, 3);
        assert_eq!(fork.cmp(BvCmp::Ult, x, k), a);
        let k4 = fork.bv_const(8, 4);
        assert_eq!(k4.0 as usize, p.len());
        let mut taker = CachingSolver::new(Double { bad: b, calls: 0 });
        taker.adopt(giver.snapshot(8), &fork);
        assert_eq!(taker.check(&fork, &q), first);
        assert_eq!((taker.backend().calls, taker.stats().cache_hits), (0, 1));
        // A query the giver never asked goes to the backend.
        let d = fork.cmp(BvCmp::Ult, x, k4);
        taker.check(&fork, &Query { constraints: vec![d], assumptions: vec![] });
        assert_eq!(taker.backend().calls, 1);
    }

    #[test]
    fn a_snapshot_keeps_the_answers_stored_last() {
        let (p, a, b, c) = setup();
        let mut giver = CachingSolver::new(Double { bad: b, calls: 0 });
        let queries = [vec![a], vec![c], vec![a, c]].map(|cs| Query { constraints: cs, assumptions: vec![] });
        for q in &queries {
            giver.check(&p, q);
        }
        let mut taker = CachingSolver::new(Double { bad: b, calls: 0 });
        let fork = p.fork();
        taker.adopt(giver.snapshot(2), &fork);
        assert_eq!(taker.cache_len(), 2);
        // The first query is the one left out: the backend answers it.
        for q in &queries[1..] {
            taker.check(&fork, q);
        }
        assert_eq!(taker.backend().calls, 0);
        taker.check(&fork, &queries[0]);
        assert_eq!(taker.backend().calls, 1);
    }

    #[test]
    fn trivial_queries_skip_the_backend() {
        let (mut p, a, b, _) = setup();
        let t = p.bool_const(true);
        let f = p.bool_const(false);
        let mut s = CachingSolver::new(Double { bad: b, calls: 0 });
        assert_eq!(
            s.check(&p, &Query { constraints: vec![a, f], assumptions: vec![a] }),
            SolveResult::Unsat { core: vec![] }
        );
        assert_eq!(
            s.check(&p, &Query { constraints: vec![a], assumptions: vec![t, f] }),
            SolveResult::Unsat { core: vec![1] }
        );
        assert_eq!(
            s.check(&p, &Query { constraints: vec![t], assumptions: vec![t] }),
            SolveResult::Sat(Model::default())
        );
        assert_eq!(s.backend().calls, 0);
        // `true` is dropped from the key: these two are one query.
        s.check(&p, &Query { constraints: vec![a, t], assumptions: vec![] });
        s.check(&p, &Query { constraints: vec![a], assumptions: vec![t] });
        assert_eq!(s.backend().calls, 1);
        assert_eq!(s.stats().trivial, 3);
    }

    #[test]
    fn another_pool_clears_the_cache() {
        let (p, a, b, _) = setup();
        let (p2, ..) = setup();
        let mut s = CachingSolver::new(Double { bad: b, calls: 0 });
        let q = Query { constraints: vec![a], assumptions: vec![] };
        s.check(&p, &q);
        s.check(&p2, &q);
        s.check(&p2, &q);
        assert_eq!((s.backend().calls, s.stats().cache_hits), (2, 1));
    }
}

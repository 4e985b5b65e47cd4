//! A search's part in a parallel exploration (see [`crate::parallel`]):
//! exploring a subtree of prefixes, and giving part of it away.
//!
//! **Subtrees.** A depth-first search's state is its latest run and which
//! of that run's entries are done ([`Current`]). A [`WorkItem`] is such a
//! state in a form another search can take: the run's inputs (by variable
//! name), the done flags, the heap slot table the inputs' references are
//! numbered in, and what the giver had learnt ([`Warm`]). The taker runs
//! the inputs again, which gives the same entries, and goes on from there.
//!
//! **What to give, and when.** A search gives away its *shallowest* open
//! entry (the largest subtree, so that the taker's fresh search buys the
//! most work), solved and run by the giver: the gift is the new run with
//! everything up to the flipped entry done. It gives every
//! `Config::subtree_runs` runs, whether or not a worker waits ([`Splits`]): the split points
//! then depend on the search alone, never on the schedule, which is what
//! makes the suite the same for every number of workers.

use std::sync::Arc;

use pathwise_expr::cache::QueryCache;
use pathwise_expr::portable::PortableModel;
use pathwise_expr::ExprPool;

use super::{Current, Search};
use crate::path::End;
use crate::run::RunRecord;
use crate::setup::RunCoverage;
use crate::suite::{ErrorInfo, PathStep, Stats, StopReason, TestCase};

/// What identifies a test: its path, and the error it ends in.
pub type PathKey = (Vec<PathStep>, Option<ErrorInfo>);

/// A subtree of prefixes to explore (see the module doc).
#[derive(Clone, Debug)]
pub struct WorkItem {
    /// The run's inputs; `None`: the first run of the search.
    pub inputs: Option<PortableModel>,
    /// Per main entry of that run: done (someone else's or explored).
    pub done: Vec<bool>,
    /// The entry the giver flipped (those after it are open): shallower
    /// is a larger subtree.
    pub depth: usize,
    /// The giver's heap slot table: input references are numbered in it.
    pub slots: crate::heap::SlotTable,
    /// What the giver had learnt when it gave (`None` for the root).
    pub warm: Option<Arc<Warm>>,
}

impl WorkItem {
    /// The whole search.
    pub fn root() -> WorkItem {
        WorkItem { inputs: None, done: Vec::new(), depth: 0, slots: Default::default(), warm: None }
    }
}

/// A giver's expression pool and query cache when it gave a subtree: the
/// taker starts from a fork of the pool and these answers instead of
/// nothing. A fresh search asks the solver again what its giver already
/// knew, and these repeats made most of the cost of cutting a search
/// (Merge at k = 6: 564 solver calls over 8 subtrees against 301 in one
/// search; 439 with this). The snapshot is taken at the gift, which a
/// subtree makes at a fixed run count: like the rest of the item, it does
/// not depend on the schedule. Its size is bounded ([`MAX_WARM_TERMS`],
/// [`MAX_WARM_ANSWERS`]).
pub struct Warm {
    pub pool: ExprPool,
    pub cache: QueryCache,
    /// The non-null checks the giver knew pointless to negate (see
    /// `Search::pointless_negation`): ids of `pool`.
    pub known_nonnull: rustc_hash::FxHashSet<pathwise_expr::ExprId>,
}

/// The largest pool a gift copies: beyond, the taker starts from nothing
/// (a gift waits in the frontier until a worker takes it, and thousands
/// may wait in a long search). The pools of the corpus's parsers hold a
/// few hundred terms.
const MAX_WARM_TERMS: usize = 1 << 16;

/// The answers a gift copies at most, the giver's latest.
const MAX_WARM_ANSWERS: usize = 4096;

impl std::fmt::Debug for Warm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Warm({} terms, {:?})", self.pool.len(), self.cache)
    }
}

/// Where a search's gifts go.
pub trait Frontier {
    fn give(&self, item: WorkItem);
}

/// When a subtree's search gives its next gift (see the module doc).
#[derive(Clone, Copy, Debug)]
pub struct Splits {
    /// After how many of its runs.
    next: u64,
    every: u64,
}

impl Splits {
    /// Every `every` runs (`Config::subtree_runs`); the first run of the
    /// search gives early, every time its run count doubles from
    /// [`FIRST_GIFT`], so that all workers have work soon.
    ///
    /// The grain is a trade. A gift costs its taker a search of its own (a
    /// thread, a Z3 context and solvers: about 1 ms, up to 9 ms for the
    /// first few; and the Z3 state its giver had built) and one run.
    /// Measured (before [`Warm`]) on `url_decode` of the corpus at k = 3
    /// (5,153 runs): one worker 1,598 / 1,383 / 1,293 ms
    /// with a gift every 64 / 256 / 1,024 runs, two workers 937 / 809 /
    /// 1,025 ms; the simulated efficiency at 16 workers (`cargo bench
    /// --bench parallel`) is 18% with 256 and 73% with 32.
    pub fn of(item: &WorkItem, every: u64) -> Splits {
        let every = every.max(1);
        Splits { next: if item.inputs.is_none() { FIRST_GIFT.min(every) } else { every }, every }
    }

    /// No gift ever: the search explores its whole subtree itself.
    pub fn never() -> Splits {
        Splits { next: u64::MAX, every: u64::MAX }
    }

    fn due(&mut self, runs: u64) -> bool {
        if runs < self.next {
            return false;
        }
        self.next = if self.next < self.every { self.next * 2 } else { self.next + self.every };
        true
    }
}

/// The first run's first gift (see [`Splits::of`]). Measured (2 workers,
/// wall time of the exploration): Merge at k = 6 531 / 511 / 714 ms and
/// `url_decode` of the corpus at k = 3 811 / 789 / 892 ms with a first
/// gift after 256 / 32 / 8 runs: earlier gifts are smaller subtrees, each
/// a fresh search.
const FIRST_GIFT: u64 = 32;

/// A test a subtree's search found.
#[derive(Clone, Debug)]
pub struct Found {
    pub key: PathKey,
    pub test: TestCase,
    pub coverage: RunCoverage,
}

/// The key of a run's path.
fn key_of(run: &RunRecord) -> PathKey {
    let error = match &run.main_end {
        Some(End::Error(e)) => Some(e.clone()),
        _ => None,
    };
    (run.seen.path.clone(), error)
}

impl Search<'_, '_> {
    /// The state `item` describes: the first run, or the run of its
    /// inputs with its done flags. `None` when there is nothing to explore
    /// (no valid first run, or a run that is not the one given, which
    /// only a nondeterministic program gives: counted as a divergence).
    pub(crate) fn start_item(&mut self, item: &WorkItem, found: &mut Vec<Found>) -> Option<Current> {
        let Some(portable) = &item.inputs else {
            let before = self.tests.len();
            let first = self.first_run();
            if let Some(cur) = &first {
                let run = std::rc::Rc::clone(&cur.run);
                self.collect(&run, before, found);
            }
            return first;
        };
        let mut inputs = portable.import(&mut self.pool);
        let run = self.execute(&mut inputs);
        if run.main_entries.len() != item.done.len() {
            self.stats.divergences += 1;
            return None;
        }
        Some(Current { inputs, run: std::rc::Rc::new(run), done: item.done.clone() })
    }

    /// One step of the depth-first search from `cur` (the next run, made
    /// a test if it is one), after giving the shallowest open entry to
    /// `frontier` when a gift is due (see the module doc). `false`: the
    /// subtree is explored, or the search must stop.
    pub(crate) fn advance(
        &mut self,
        cur: &mut Current,
        (frontier, splits): (&dyn Frontier, &mut Splits),
        found: &mut Vec<Found>,
    ) -> bool {
        if self.stop_reason().is_some() {
            return false;
        }
        if splits.due(self.stats.runs) {
            if let Some(gift) = self.gift(cur, found) {
                frontier.give(gift);
            }
        }
        let Some(next) = self.next_run(cur) else { return false };
        *cur = next;
        let before = self.tests.len();
        self.consider(&cur.inputs, &cur.run);
        let run = std::rc::Rc::clone(&cur.run);
        self.collect(&run, before, found);
        true
    }

    /// The tests from `before` on, made from `run`, moved to `found` (a
    /// subtree's search keeps no test: the parallel search numbers,
    /// folds and counts them all).
    fn collect(&mut self, run: &RunRecord, before: usize, found: &mut Vec<Found>) {
        let tests = self.tests.drain(before..);
        for (test, coverage) in tests.zip(self.test_coverage.drain(before..)) {
            found.push(Found { key: key_of(run), test, coverage });
        }
    }

    /// The shallowest open entry of `cur` the search can solve, solved
    /// and run here (its run a test, if it is one), as a subtree of its
    /// own: the taker needs only to run the inputs again. Entries proved
    /// infeasible on the way are done; so is a run with nothing left to
    /// explore below the entry (no gift: a fresh search for it would cost
    /// more than it saves). Never the last open entry: the giver keeps the
    /// deepest for itself.
    fn gift(&mut self, cur: &mut Current, found: &mut Vec<Found>) -> Option<WorkItem> {
        loop {
            let open = self.solvable(&cur.run, &cur.done, 0);
            let (&j, true) = (open.first()?, open.len() >= 2) else { return None };
            cur.done[j] = true;
            let Some((inputs, run, aligned)) = self.solve_following(cur, j) else { continue };
            let before = self.tests.len();
            self.consider(&inputs, &run);
            self.collect(&run, before, found);
            let mut done = vec![true; run.main_entries.len()];
            done.iter_mut().skip(aligned.flipped + 1).for_each(|d| *d = false);
            if self.solvable(&run, &done, aligned.flipped + 1).is_empty() {
                continue;
            }
            let inputs = Some(PortableModel::export(&self.pool, &inputs));
            let warm = (self.pool.len() <= MAX_WARM_TERMS).then(|| {
                let (pool, cache) = (self.pool.fork(), self.solver.snapshot(MAX_WARM_ANSWERS));
                Arc::new(Warm { pool, cache, known_nonnull: self.known_nonnull.clone() })
            });
            let slots = self.m.slots.borrow().clone();
            return Some(WorkItem { inputs, done, depth: aligned.flipped, slots, warm });
        }
    }

    /// The entries of `run` from `from` on that are open and that the
    /// search would solve.
    fn solvable(&self, run: &RunRecord, done: &[bool], from: usize) -> Vec<usize> {
        let entries = &run.main_entries;
        (from..entries.len())
            .filter(|&j| {
                let e = &entries[j];
                !done[j]
                    && e.negatable
                    && !e.bound_blocked
                    && e.kind != crate::path::EntryKind::Assume
                    && !self.pointless_negation(run, e)
            })
            .collect()
    }

    /// Start from what a giver knew (see [`Warm`]): the search's pool
    /// must be a fork of `warm.pool`.
    pub(crate) fn adopt(&mut self, warm: &Warm) {
        self.solver.adopt(warm.cache.clone(), &self.pool);
        self.known_nonnull.clone_from(&warm.known_nonnull);
    }

    /// The search's figures, with its solver's.
    pub(crate) fn figures(&self) -> Stats {
        let mut stats = self.stats.clone();
        super::solver_figures(&mut stats, &self.solver);
        stats.float_inputs_concretised = self.float_inputs_pinned.len() as u64;
        stats.float_values_concretised = self.float_sites.len() as u64;
        stats.values_concretised = self.pin_sites.len() as u64;
        stats.concretised_at = super::sorted(&self.pin_sites);
        stats.elapsed_ms = self.start.elapsed().as_millis() as u64;
        stats
    }

    /// Instructions executed so far, and solver backend calls: the
    /// simulation's measure of time.
    pub(crate) fn work_done(&self) -> (u64, u64) {
        (self.steps, self.solver.stats().backend_calls)
    }

    /// Time spent in the solver backend so far.
    pub(crate) fn solver_time(&self) -> std::time::Duration {
        self.solver.stats().backend_time
    }

    /// Why this worker stopped, if it did.
    pub(crate) fn stopped(&self) -> Option<StopReason> {
        self.stopped.clone()
    }

    /// Where the bound cut this worker's runs.
    pub(crate) fn bound_sites(&self) -> &std::collections::BTreeSet<crate::suite::BoundSite> {
        &self.bound_sites
    }
}

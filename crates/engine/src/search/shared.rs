//! A search's part in a parallel exploration (see [`crate::parallel`]):
//! exploring a subtree of prefixes, giving part of it away, and the
//! canonical inputs of a path.
//!
//! **Subtrees.** A depth-first search's state is its latest run and which
//! of that run's entries are done ([`Current`]). A [`WorkItem`] is such a
//! state in a form another worker can take: the run's inputs (by variable
//! name, since each worker has its own pool) and the done flags. The taker
//! runs the inputs again, which gives the same entries, and goes on from
//! there. A worker gives away its *shallowest* open entry: the largest
//! subtree, so that a steal buys the most work for its one extra run.
//!
//! **Canonical inputs.** Which inputs a worker's solver gives a path
//! depends on everything that solver was asked before, so a path's inputs
//! depend on how the paths were shared out. The set of feasible paths
//! does not (when every prefix was decided), so after the exploration
//! each path's test is made again from the path alone: its whole path
//! condition, solved by a fresh search (fresh pool, fresh solver) from no
//! inputs, then run and checked to take the same path.

use pathwise_expr::portable::PortableModel;
use pathwise_expr::{ExprId, Model, SolveResult};

use super::{merge, Current, ErrorCheck, Search};
use crate::path::End;
use crate::run::RunRecord;
use crate::setup::RunCoverage;
use crate::suite::{ErrorInfo, ErrorKind, PathStep, Stats, StopReason, TestCase};

/// What identifies a test: its path, and the error it ends in.
pub type PathKey = (Vec<PathStep>, Option<ErrorInfo>);

/// A subtree of prefixes to explore (see the module doc).
#[derive(Clone, Debug)]
pub struct WorkItem {
    /// The run's inputs; `None`: the first run of the search.
    pub inputs: Option<PortableModel>,
    /// Per main entry of that run: done (someone else's or explored).
    pub done: Vec<bool>,
    /// The first open entry (what the taker solves first): shallower is
    /// a larger subtree.
    pub depth: usize,
}

impl WorkItem {
    /// The whole search.
    pub fn root() -> WorkItem {
        WorkItem { inputs: None, done: Vec::new(), depth: 0 }
    }
}

/// Where a worker's gifts go.
pub trait Frontier {
    /// Whether some worker waits for work (a gift is worth its run).
    fn wants_work(&self) -> bool;
    fn give(&self, item: WorkItem);
}

/// A test a worker found, with what is needed to make it again.
#[derive(Clone, Debug)]
pub struct Found {
    pub key: PathKey,
    pub inputs: PortableModel,
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
                self.collect(cur, before, found);
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
    /// a test if it is one), after giving the shallowest open entry away
    /// when `frontier` wants work. `false`: the subtree is explored, or
    /// the search must stop.
    pub(crate) fn advance(&mut self, cur: &mut Current, frontier: &dyn Frontier, found: &mut Vec<Found>) -> bool {
        if self.stop_reason().is_some() {
            return false;
        }
        if frontier.wants_work() {
            if let Some(gift) = self.gift(cur) {
                frontier.give(gift);
            }
        }
        let Some(next) = self.next_run(cur) else { return false };
        *cur = next;
        let before = self.tests.len();
        self.consider(&cur.inputs, &cur.run);
        self.collect(cur, before, found);
        true
    }

    /// The tests from `before` on, made from `cur`'s run.
    fn collect(&self, cur: &Current, before: usize, found: &mut Vec<Found>) {
        for (test, coverage) in self.tests[before..].iter().zip(&self.test_coverage[before..]) {
            found.push(Found {
                key: key_of(&cur.run),
                inputs: PortableModel::export(&self.pool, &cur.inputs),
                test: test.clone(),
                coverage: coverage.clone(),
            });
        }
    }

    /// The shallowest entry of `cur` the search would solve, as a subtree
    /// of its own (done here from now on). Never the only one: the worker
    /// keeps the deepest for itself, else two idle workers would hand one
    /// subtree back and forth.
    fn gift(&mut self, cur: &mut Current) -> Option<WorkItem> {
        let entries = &cur.run.main_entries;
        let mut open = (0..entries.len()).filter(|&j| {
            let e = &entries[j];
            !cur.done[j]
                && e.negatable
                && !e.bound_blocked
                && e.kind != crate::path::EntryKind::Assume
                && !self.free_length_check(&cur.run, e)
        });
        let j = open.next()?;
        open.next()?;
        cur.done[j] = true;
        let mut done = vec![true; entries.len()];
        done[j] = false;
        Some(WorkItem { inputs: Some(PortableModel::export(&self.pool, &cur.inputs)), done, depth: j })
    }

    /// The search's figures, with its solver's.
    pub(crate) fn figures(&self) -> Stats {
        let mut stats = self.stats.clone();
        let solver = self.solver.stats();
        stats.solver_calls = solver.backend_calls;
        stats.solver_cache_hits = solver.cache_hits;
        stats.solver_ms = solver.backend_time.as_millis() as u64;
        stats.float_solver_calls = solver.float_calls;
        stats.float_solver_ms = solver.float_time.as_millis() as u64;
        stats.float_searched = self.solver.backend().stats().found;
        stats.float_inputs_concretised = self.float_inputs_pinned.len() as u64;
        stats.float_values_concretised = self.float_sites.len() as u64;
        stats.values_concretised = self.pin_sites.len() as u64;
        stats.elapsed_ms = self.start.elapsed().as_millis() as u64;
        stats
    }

    /// Why this worker stopped, if it did.
    pub(crate) fn stopped(&self) -> Option<StopReason> {
        self.stopped.clone()
    }

    /// Where the bound cut this worker's runs.
    pub(crate) fn bound_sites(&self) -> &std::collections::BTreeSet<crate::suite::BoundSite> {
        &self.bound_sites
    }

    /// The test of `found`'s path made from the path alone (see the
    /// module doc), by this search, which must be fresh. `None` when the
    /// path condition does not give a run of the same path (a path with
    /// concretised values, say): the worker's test stands.
    pub(crate) fn canonical(&mut self, found: &Found) -> Option<(TestCase, RunCoverage)> {
        let mut inputs = found.inputs.import(&mut self.pool);
        let run = self.execute(&mut inputs);
        if key_of(&run) != found.key || !run.pre_valid() {
            return None;
        }
        let mut constraints: Vec<ExprId> = self.spec.hard.clone();
        constraints.extend(run.main_entries.iter().map(|e| e.cond));
        let assumptions: Vec<ExprId> = run.pre_entries.iter().map(|e| e.cond).collect();
        // Only the lengths of input arrays are given, as the path read
        // them: the search asks first for arrays at most one element
        // longer (see `Search::check`). Everything else comes from the path
        // condition.
        let mut start = Model::default();
        for (i, p) in self.spec.params.iter().enumerate() {
            if let crate::run::ParamInput::Array { input, .. } = p {
                start.bv.insert(input.len, run.touched_len[i]);
            }
        }
        self.solving_error_check = match &found.key.1 {
            Some(e) if e.kind == ErrorKind::OutOfBounds => Some(ErrorCheck::Bounds),
            Some(_) => Some(ErrorCheck::Guard),
            None => None,
        };
        let answer = self.check(&constraints, &assumptions, &constraints, &start);
        let SolveResult::Sat(model) = answer else {
            self.solving_error_check = None;
            return None;
        };
        let all: Vec<ExprId> = constraints.iter().chain(&assumptions).copied().collect();
        let mut inputs = self.prefer(&all, merge(&self.pool, &all, &start, model), false);
        let run = self.execute(&mut inputs);
        let (inputs, run) = self.observable_out_of_bounds(inputs, run);
        self.solving_error_check = None;
        if key_of(&run) != found.key || !run.pre_valid() {
            return None;
        }
        self.consider(&inputs, &run);
        Some((self.tests.pop()?, self.test_coverage.pop()?))
    }
}

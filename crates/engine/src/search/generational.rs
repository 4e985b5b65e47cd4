//! New branches first: the generational search (as SAGE's) over the same
//! alternatives as the depth-first one.
//!
//! Every explorable entry of every run becomes a pending alternative; an
//! alternative whose other side is a branch side no test covers yet goes
//! first, then, for `gen`, the latest run's deepest: without new coverage
//! to chase, the order is the depth-first search's (whole-program mode
//! takes the deepest of all runs, then the oldest; its uncovered sides go
//! shallowest first). A run solved from entry `j` of another
//! queues only its entries after the flipped one, whose prefix the other
//! run owns: each node of the execution tree is solved once, exactly the
//! prefixes the depth-first search solves, so a search that ends by itself
//! finds the same paths in another order. What the order changes is what a
//! search cut short by a time limit keeps: the depth-first search can spend
//! its budget on the combinations of the last loop's iterations and never
//! flip the first decision (`gen --order`, [`crate::config::SearchOrder`]).
//!
//! Whole-program mode (`guided.rs`) uses the same search with a coverage
//! goal: it ends when every branch side is covered.

use std::collections::BinaryHeap;
use std::rc::Rc;

use pathwise_expr::{ExprId, Model};
use pathwise_ir::{Block, FuncId};
use rustc_hash::{FxHashMap, FxHashSet};

use super::{Current, Search};
use crate::path::follows_prefix;
use crate::path::{End, Entry, EntryKind};
use crate::run::{InputSpec, ParamInput};
use crate::suite::StopReason;

/// A branch side: the function, the block whose branch it is, the side.
pub(crate) type Side = (FuncId, Block, bool);

/// How many alternatives leading to one uncovered branch side go first.
/// Past that, the side's alternatives wait their turn in the depth-first
/// order: a side that the runs reaching it never cover (they end at an
/// array too short, at the bound) or that is infeasible from the prefixes
/// tried would otherwise be solved for again from every new run, ahead of
/// everything else (base64_encode at k = 8: a third of a second per query,
/// 1 test in 3 s against 8 depth-first).
const PRIORITY_ATTEMPTS: u32 = 2;

/// The branch side that negating `e` asks for, if `e` is a branch.
fn other_side(e: &Entry) -> Option<Side> {
    match e.kind {
        EntryKind::Decision { func, block, taken } => Some((func, block, !taken)),
        _ => None,
    }
}

/// An alternative waiting to be solved: entry `j` of `run`, negated.
struct Pending {
    /// The other side is a branch side not covered when this was queued.
    uncovered: bool,
    /// Among alternatives of equal `uncovered`, the larger goes first (see
    /// [`Frontier::push`]).
    order: (u64, u64),
    run: Rc<Current>,
    j: usize,
    /// Whole-program mode: uncovered sides go shallowest first (see
    /// [`Pending::key`]).
    shallow_when_uncovered: bool,
}

impl Pending {
    /// Uncovered sides first. In whole-program mode (`order` is `(depth,
    /// age)`), the shallowest of them first: a shallow branch leads to
    /// more code, and its query has fewer constraints, while the deepest
    /// uncovered sides are often an assertion's failing side, unsatisfiable
    /// and the most expensive to refute (a `double` interpolation's bound:
    /// 40 s each, spent before the input's sign was ever flipped).
    fn key(&self) -> (bool, (u64, u64)) {
        match self.order {
            (depth, age) if self.uncovered && self.shallow_when_uncovered => (true, (u64::MAX - depth, age)),
            order => (self.uncovered, order),
        }
    }
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Pending {}

impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Pending {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

/// The alternatives still to solve, in the order above, and, when the
/// bound deepens, what it stopped.
#[derive(Default)]
pub(crate) struct Frontier {
    heap: BinaryHeap<Pending>,
    seq: u64,
    lengths: Lengths,
    /// Deepening: alternatives the bound blocked and runs it cut at the
    /// current k, in the order met, to reopen at the next k.
    deepening: bool,
    blocked: Vec<(Rc<Current>, usize)>,
    cut: Vec<Rc<Current>>,
    /// Per uncovered branch side, the alternatives solved for it with
    /// priority (see [`PRIORITY_ATTEMPTS`]).
    attempts: FxHashMap<Side, u32>,
    /// Without new coverage to chase, the latest run's deepest alternative
    /// first: the depth-first order, whose consecutive queries share their
    /// prefixes (`gen`). Otherwise the deepest of all runs, then the
    /// oldest (whole-program mode).
    latest_first: bool,
    /// Runs queued so far.
    runs: u64,
}

/// The longest length each input array had in a run so far.
///
/// A run lengthens a free input array to what it read (`Search::execute`),
/// and the depth-first search solves every later prefix from the latest
/// run's inputs, so the arrays only grow. An alternative queued by an older
/// run is solved here from that run's inputs with the longest lengths
/// since: from its own, shorter, arrays a run would end beyond them at once
/// and ask for the longer array again (path_normalize at k = 2: twice the
/// runs for the same paths).
impl Frontier {
    /// Queue entry `j` of the run numbered `run_no` (see [`Frontier::new_run`]).
    fn push(&mut self, uncovered: bool, run: Rc<Current>, run_no: u64, j: usize) {
        self.seq += 1;
        let order = if self.latest_first { (run_no, j as u64) } else { (j as u64, u64::MAX - self.seq) };
        self.heap.push(Pending { uncovered, order, run, j, shallow_when_uncovered: !self.latest_first });
    }

    /// The number of the next run whose alternatives are queued.
    fn new_run(&mut self) -> u64 {
        self.runs += 1;
        self.runs
    }

    /// Deepening: remember a run the bound cut, to go on with at the next k.
    fn note_cut(&mut self, run: &Rc<Current>) {
        if self.deepening && matches!(run.run.main_end, Some(End::BoundExceeded)) {
            self.cut.push(Rc::clone(run));
        }
    }
}

#[derive(Default)]
struct Lengths(FxHashMap<ExprId, u64>);

impl Lengths {
    fn note(&mut self, spec: &InputSpec, inputs: &Model) {
        for p in &spec.params {
            if let ParamInput::Array { input, .. } = p {
                // A stream's length is where the file ends, a decision of
                // the path: a longer file would take another path.
                if spec.stream_lens.contains(&input.len) {
                    continue;
                }
                if let Some(&n) = inputs.bv.get(&input.len) {
                    let longest = self.0.entry(input.len).or_default();
                    *longest = (*longest).max(n);
                }
            }
        }
    }

    /// `cur` with each free input array (one whose length `cur`'s run does
    /// not tie to another input) as long as the longest so far.
    fn lengthened(&self, cur: &Current) -> Current {
        let mut inputs = cur.inputs.clone();
        for (&len, &n) in &self.0 {
            if !cur.run.len_is_tied(len) && inputs.bv.get(&len).is_none_or(|&m| m < n) {
                inputs.bv.insert(len, n);
            }
        }
        Current { inputs, run: Rc::clone(&cur.run), done: Vec::new() }
    }
}

impl Search<'_, '_> {
    /// One generational search at the current k; with `goal`, it ends
    /// (complete) as soon as every side in it is covered.
    pub(crate) fn explore_generational(&mut self, goal: Option<&FxHashSet<Side>>) -> StopReason {
        let mut frontier = Frontier { latest_first: goal.is_none(), ..Frontier::default() };
        self.open(&mut frontier);
        self.drain(&mut frontier, goal)
    }

    /// One round of deepening (`deepen.rs`), new branches first: the first
    /// round starts the search; each later one goes on from where the
    /// bound stopped the previous k (k-paths nest: what was solved at k is
    /// not solved again), reopening the alternatives it blocked and
    /// continuing the runs it cut.
    pub(crate) fn deepen_generational(&mut self, frontier: &mut Option<Frontier>) -> StopReason {
        match frontier {
            Some(f) => self.reopen(f),
            None => {
                let mut f = Frontier { deepening: true, latest_first: true, ..Frontier::default() };
                self.open(&mut f);
                *frontier = Some(f);
            }
        }
        self.drain(frontier.as_mut().expect("set above"), None)
    }

    /// Queue the first run's alternatives.
    fn open(&mut self, frontier: &mut Frontier) {
        if let Some(first) = self.first_run() {
            frontier.lengths.note(self.spec, &first.inputs);
            let first = Rc::new(first);
            frontier.note_cut(&first);
            self.queue_alternatives(frontier, first, 0);
        }
    }

    /// Solve the queued alternatives until none is left or the search must
    /// stop.
    fn drain(&mut self, frontier: &mut Frontier, goal: Option<&FxHashSet<Side>>) -> StopReason {
        while let Some(p) = frontier.heap.pop() {
            if let Some(r) = self.stop_reason() {
                return r;
            }
            if goal.is_some_and(|all| all.is_subset(&self.covered_sides)) {
                return StopReason::Complete;
            }
            // Coverage changed since it was queued: requeue with its
            // current priority, unless that is unchanged.
            let now = self.alt_uncovered(frontier, &p.run.run.main_entries[p.j]);
            if now != p.uncovered {
                frontier.heap.push(Pending { uncovered: now, ..p });
                continue;
            }
            let entry = &p.run.run.main_entries[p.j];
            if entry.bound_blocked {
                self.stats.bound_pruned_prefixes += 1;
                if frontier.deepening {
                    frontier.blocked.push((Rc::clone(&p.run), p.j));
                }
                continue;
            }
            if p.uncovered {
                if let Some(side) = other_side(entry) {
                    *frontier.attempts.entry(side).or_default() += 1;
                }
            }
            let from = frontier.lengths.lengthened(&p.run);
            let Some((inputs, run)) = self.solve_prefix(&from, p.j) else { continue };
            frontier.lengths.note(self.spec, &inputs);
            let Some(aligned) = follows_prefix(&p.run.run.main_entries, p.j, &run.main_entries) else {
                self.stats.divergences += 1;
                continue;
            };
            self.consider(&inputs, &run);
            let next = Rc::new(Current { done: Vec::new(), inputs, run: Rc::new(run) });
            frontier.note_cut(&next);
            self.queue_alternatives(frontier, next, aligned.flipped + 1);
        }
        self.stop_reason().unwrap_or(StopReason::Complete)
    }

    /// At a larger k, run again each run the bound cut or whose
    /// alternatives it blocked, with the same inputs: the run takes the
    /// same decisions up to where the bound stopped it, and now goes on
    /// (a new path, perhaps a test) or leaves those alternatives open.
    /// Queue the blocked alternatives and the entries past the cut.
    fn reopen(&mut self, frontier: &mut Frontier) {
        let mut runs: Vec<(Rc<Current>, Vec<usize>, bool)> = Vec::new();
        let mut index: FxHashMap<*const Current, usize> = FxHashMap::default();
        let blocked = std::mem::take(&mut frontier.blocked).into_iter().map(|(r, j)| (r, Some(j)));
        let cut = std::mem::take(&mut frontier.cut).into_iter().map(|r| (r, None));
        for (run, j) in blocked.chain(cut) {
            let at = *index.entry(Rc::as_ptr(&run)).or_insert_with(|| {
                runs.push((Rc::clone(&run), Vec::new(), false));
                runs.len() - 1
            });
            match j {
                Some(j) => runs[at].1.push(j),
                None => runs[at].2 = true,
            }
        }
        for (old, blocked, was_cut) in runs {
            if self.stop_reason().is_some() {
                return;
            }
            let mut inputs = old.inputs.clone();
            let run = self.execute(&mut inputs);
            let n = old.run.main_entries.len();
            let same = |a: &Entry, b: &Entry| a.kind == b.kind && a.loc == b.loc;
            let agrees = run.main_entries.len() >= n
                && old.run.main_entries.iter().zip(&run.main_entries).all(|(a, b)| same(a, b));
            if !agrees {
                self.stats.divergences += 1;
                continue;
            }
            if was_cut {
                self.consider(&inputs, &run);
            }
            frontier.lengths.note(self.spec, &inputs);
            let next = Rc::new(Current { done: Vec::new(), inputs, run: Rc::new(run) });
            let run_no = frontier.new_run();
            for j in blocked {
                frontier.push(self.alt_uncovered(frontier, &next.run.main_entries[j]), Rc::clone(&next), run_no, j);
            }
            if was_cut {
                frontier.note_cut(&next);
                self.queue_entries(frontier, next, run_no, n);
            }
        }
    }

    /// Queue the alternatives of a new run's entries from `from` on.
    fn queue_alternatives(&mut self, frontier: &mut Frontier, run: Rc<Current>, from: usize) {
        let run_no = frontier.new_run();
        self.queue_entries(frontier, run, run_no, from);
    }

    fn queue_entries(&mut self, frontier: &mut Frontier, run: Rc<Current>, run_no: u64, from: usize) {
        for j in from..run.run.main_entries.len() {
            let e = &run.run.main_entries[j];
            if self.explorable(&run.run, e) {
                frontier.push(self.alt_uncovered(frontier, e), Rc::clone(&run), run_no, j);
            }
        }
    }

    /// Whether negating `e` leads to a branch side not covered yet, which
    /// has not had its [`PRIORITY_ATTEMPTS`] yet.
    fn alt_uncovered(&self, frontier: &Frontier, e: &Entry) -> bool {
        other_side(e).is_some_and(|side| {
            !self.covered_sides.contains(&side)
                && frontier.attempts.get(&side).copied().unwrap_or(0) < PRIORITY_ATTEMPTS
        })
    }

    /// Whether `e`'s other side is worth solving for, as the depth-first
    /// search decides it: not a holding bounds check of an array whose
    /// length nothing constrains, nor an assumption that always holds.
    fn explorable(&self, run: &crate::run::RunRecord, e: &Entry) -> bool {
        let always_holds = e.kind == EntryKind::Assume && self.pool.as_bool_const(e.cond) == Some(true);
        e.negatable && !self.pointless_negation(run, e) && !always_holds
    }

    /// The first run with inputs valid for the precondition (see
    /// `Search::first_valid_run`), considered for a test; `None` when there
    /// are none.
    pub(crate) fn first_run(&mut self) -> Option<Current> {
        let first = self.first_valid_run()?;
        self.consider(&first.inputs, &first.run);
        self.local_reached(&first.run);
        let done = vec![false; first.run.main_entries.len()];
        Some(Current { done, ..first })
    }
}

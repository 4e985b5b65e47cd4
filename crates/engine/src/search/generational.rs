//! New branches first: the generational search (as SAGE's) over the same
//! alternatives as the depth-first one.
//!
//! Every explorable entry of every run becomes a pending alternative; an
//! alternative whose other side is a branch side no test covers yet goes
//! first, then the deepest (so that without new coverage to chase the order
//! is depth-first), then the oldest. A run solved from entry `j` of another
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
use crate::path::{Entry, EntryKind};
use crate::run::{InputSpec, ParamInput};
use crate::suite::StopReason;

/// A branch side: the function, the block whose branch it is, the side.
pub(crate) type Side = (FuncId, Block, bool);

/// An alternative waiting to be solved: entry `j` of `run`, negated.
struct Pending {
    /// The other side is a branch side not covered when this was queued.
    uncovered: bool,
    depth: usize,
    /// Queue order (earlier first among equals).
    seq: u64,
    run: Rc<Current>,
    j: usize,
}

impl Pending {
    fn key(&self) -> (bool, usize, std::cmp::Reverse<u64>) {
        (self.uncovered, self.depth, std::cmp::Reverse(self.seq))
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

/// The queue of alternatives, in the order above.
#[derive(Default)]
struct Queue {
    heap: BinaryHeap<Pending>,
    seq: u64,
    lengths: Lengths,
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
#[derive(Default)]
struct Lengths(FxHashMap<ExprId, u64>);

impl Lengths {
    fn note(&mut self, spec: &InputSpec, inputs: &Model) {
        for p in &spec.params {
            if let ParamInput::Array { input, .. } = p {
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
        let Some(first) = self.first_run() else { return self.stop_reason().unwrap_or(StopReason::Complete) };
        let mut queue = Queue::default();
        queue.lengths.note(self.spec, &first.inputs);
        self.queue_alternatives(&mut queue, Rc::new(first), 0);
        while let Some(p) = queue.heap.pop() {
            if let Some(r) = self.stop_reason() {
                return r;
            }
            if goal.is_some_and(|all| all.is_subset(&self.covered_sides)) {
                return StopReason::Complete;
            }
            // Coverage changed since it was queued: requeue with its
            // current priority, unless that is unchanged.
            let now = self.alt_uncovered(&p.run.run.main_entries[p.j]);
            if now != p.uncovered {
                queue.heap.push(Pending { uncovered: now, ..p });
                continue;
            }
            let entry = &p.run.run.main_entries[p.j];
            if entry.bound_blocked {
                self.stats.bound_pruned_prefixes += 1;
                continue;
            }
            let from = queue.lengths.lengthened(&p.run);
            let Some((inputs, run)) = self.solve_prefix(&from, p.j) else { continue };
            queue.lengths.note(self.spec, &inputs);
            let Some(aligned) = follows_prefix(&p.run.run.main_entries, p.j, &run.main_entries) else {
                self.stats.divergences += 1;
                continue;
            };
            self.consider(&inputs, &run);
            let next = Rc::new(Current { done: Vec::new(), inputs, run: Rc::new(run) });
            self.queue_alternatives(&mut queue, next, aligned.flipped + 1);
        }
        self.stop_reason().unwrap_or(StopReason::Complete)
    }

    /// Queue the alternatives of `run`'s entries from `from` on.
    fn queue_alternatives(&mut self, queue: &mut Queue, run: Rc<Current>, from: usize) {
        for j in from..run.run.main_entries.len() {
            let e = &run.run.main_entries[j];
            if !self.explorable(&run.run, e) {
                continue;
            }
            queue.seq += 1;
            let uncovered = self.alt_uncovered(e);
            queue.heap.push(Pending { uncovered, depth: j, seq: queue.seq, run: Rc::clone(&run), j });
        }
    }

    /// Whether negating `e` leads to a branch side not covered yet.
    fn alt_uncovered(&self, e: &Entry) -> bool {
        match e.kind {
            EntryKind::Decision { func, block, taken } => !self.covered_sides.contains(&(func, block, !taken)),
            _ => false,
        }
    }

    /// Whether `e`'s other side is worth solving for, as the depth-first
    /// search decides it: not a holding bounds check of an array whose
    /// length nothing constrains, nor an assumption that always holds.
    fn explorable(&self, run: &crate::run::RunRecord, e: &Entry) -> bool {
        let always_holds = e.kind == EntryKind::Assume && self.pool.as_bool_const(e.cond) == Some(true);
        e.negatable && !self.free_length_check(run, e) && !always_holds
    }

    /// The first run, with inputs valid for the precondition (found by
    /// searching the precondition's paths when the default inputs are
    /// not); `None` when there are none.
    pub(crate) fn first_run(&mut self) -> Option<Current> {
        let mut inputs = Model::default();
        let run = self.execute(&mut inputs);
        let (inputs, run) = if run.pre_valid() {
            (inputs, run)
        } else {
            let hard = self.spec.hard.clone();
            self.find_valid(&hard, None, &inputs, run.pre_entries, None)?
        };
        self.consider(&inputs, &run);
        self.local_reached(&run);
        let done = vec![false; run.main_entries.len()];
        Some(Current { inputs, run: Rc::new(run), done })
    }
}

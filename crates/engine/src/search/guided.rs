//! Whole-program mode (Test-Comp): coverage-guided search with iterative
//! deepening of the k bound.
//!
//! Unlike the depth-first k-path search, the goal is to cover branches
//! within a time budget. Every explorable entry of every run becomes a
//! pending alternative; alternatives whose other side is a branch side not
//! yet covered go first, then the deepest (so that without new coverage to
//! chase the order is still depth-first), then the oldest. Each alternative
//! is solved once, so the search for one k is complete, like the
//! depth-first one (generational search, as in SAGE). When it ends with
//! branches uncovered and some run hit the bound, k grows by one and the
//! search restarts; tests already found are not repeated.

use std::collections::BinaryHeap;
use std::rc::Rc;

use pathwise_expr::Model;
use pathwise_ir::Terminator;
use rustc_hash::FxHashSet;

use super::{Current, Search};
use crate::path::follows_prefix;
use crate::path::{Entry, EntryKind};
use crate::suite::StopReason;

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

impl Search<'_, '_> {
    /// Iterative deepening from k = 1 to `config.k`.
    pub(crate) fn explore_program(&mut self) -> StopReason {
        let all_sides = self.all_sides();
        loop {
            let hits_before = self.stats.bound_exceeded_runs + self.stats.bound_pruned_prefixes;
            let stop = self.explore_guided(&all_sides);
            if stop != StopReason::Complete || all_sides.is_subset(&self.covered_sides) {
                return stop;
            }
            let bound_hit = self.stats.bound_exceeded_runs + self.stats.bound_pruned_prefixes > hits_before;
            let k = self.m.k.get();
            if !bound_hit || k >= self.config.k {
                return StopReason::Complete;
            }
            self.m.k.set(k + 1);
        }
    }

    /// One generational search at the current k.
    fn explore_guided(&mut self, all_sides: &FxHashSet<(pathwise_ir::FuncId, pathwise_ir::Block, bool)>) -> StopReason {
        let mut inputs = Model::default();
        let run = self.execute(&mut inputs);
        self.consider(&inputs, &run);
        let mut queue = BinaryHeap::new();
        let mut seq = 0u64;
        let first = Rc::new(Current { done: Vec::new(), inputs, run });
        self.queue_alternatives(&mut queue, &mut seq, &first, 0);
        while let Some(p) = queue.pop() {
            if let Some(r) = self.stop_reason() {
                return r;
            }
            if all_sides.is_subset(&self.covered_sides) {
                return StopReason::Complete;
            }
            // Coverage changed since it was queued: requeue with its
            // current priority, unless that is unchanged.
            let now = self.alt_uncovered(&p.run.run.main_entries[p.j]);
            if now != p.uncovered {
                queue.push(Pending { uncovered: now, ..p });
                continue;
            }
            let entry = &p.run.run.main_entries[p.j];
            if entry.bound_blocked {
                self.stats.bound_pruned_prefixes += 1;
                continue;
            }
            let Some((inputs, run)) = self.solve_prefix(&p.run, p.j) else { continue };
            let Some(aligned) = follows_prefix(&p.run.run.main_entries, p.j, &run.main_entries) else {
                self.stats.divergences += 1;
                continue;
            };
            self.consider(&inputs, &run);
            let next = Rc::new(Current { done: Vec::new(), inputs, run });
            self.queue_alternatives(&mut queue, &mut seq, &next, aligned.flipped + 1);
        }
        self.stop_reason().unwrap_or(StopReason::Complete)
    }

    fn queue_alternatives(&mut self, queue: &mut BinaryHeap<Pending>, seq: &mut u64, run: &Rc<Current>, from: usize) {
        for j in from..run.run.main_entries.len() {
            let e = &run.run.main_entries[j];
            if !e.negatable || self.free_length_check(&run.run, e) {
                continue;
            }
            *seq += 1;
            queue.push(Pending { uncovered: self.alt_uncovered(e), depth: j, seq: *seq, run: Rc::clone(run), j });
        }
    }

    /// Whether negating `e` leads to a branch side not covered yet.
    fn alt_uncovered(&self, e: &Entry) -> bool {
        match e.kind {
            EntryKind::Decision { func, block, taken } => !self.covered_sides.contains(&(func, block, !taken)),
            _ => false,
        }
    }

    /// Every branch side of the functions reachable from the entry point.
    fn all_sides(&self) -> FxHashSet<(pathwise_ir::FuncId, pathwise_ir::Block, bool)> {
        let program = self.m.program;
        let mut out = FxHashSet::default();
        for f in self.m.info.callgraph.reachable_from(self.main) {
            let func = program.func(f);
            for (i, b) in func.blocks.iter().enumerate() {
                if let Terminator::Branch { then_block, else_block, .. } = &b.term {
                    if then_block != else_block {
                        out.insert((f, pathwise_ir::Block(i as u32), true));
                        out.insert((f, pathwise_ir::Block(i as u32), false));
                    }
                }
            }
        }
        out
    }

    /// Whether a validated run covers a line or branch side no kept test
    /// covers (whole-program mode keeps only such tests).
    pub(crate) fn adds_coverage(&self, replay: &crate::run::RunRecord) -> bool {
        replay.seen.sides.iter().any(|s| !self.covered_sides.contains(s))
            || replay.seen.lines.iter().any(|l| !self.covered_lines.contains(l))
            || replay.main_end.as_ref().is_some_and(is_error_call)
    }

    /// Cover-Error: the first test reaching `reach_error()` ends the search.
    pub(crate) fn note_error_call(&mut self, test: &crate::suite::TestCase) {
        let stop_there = self.config.program_mode.as_ref().is_some_and(|p| p.stop_at_error_call);
        if let crate::suite::Outcome::Error(e) = &test.outcome {
            if stop_there && e.kind == crate::suite::ErrorKind::ErrorCall && self.stopped.is_none() {
                self.stopped = Some(StopReason::ErrorCallReached);
            }
        }
    }
}

fn is_error_call(end: &crate::path::End) -> bool {
    matches!(end, crate::path::End::Error(e) if e.kind == crate::suite::ErrorKind::ErrorCall)
}

//! Whole-program mode (Test-Comp): coverage-guided search with iterative
//! deepening of the k bound.
//!
//! Unlike the depth-first k-path search, the goal is to cover branches
//! within a time budget: the generational search, new branches first
//! (`generational.rs`), which ends when every branch side of the
//! functions the entry point reaches is covered. When it ends with
//! branches uncovered and some run hit the bound, k grows by one and the
//! search restarts; tests already found are not repeated.

use pathwise_ir::Terminator;
use rustc_hash::FxHashSet;

use super::generational::Side;
use super::Search;
use crate::suite::StopReason;

impl Search<'_, '_> {
    /// Iterative deepening from k = 1 to `config.k`.
    pub(crate) fn explore_program(&mut self) -> StopReason {
        let all_sides = self.all_sides();
        loop {
            let hits_before = self.stats.bound_exceeded_runs + self.stats.bound_pruned_prefixes;
            let stop = self.explore_generational(Some(&all_sides));
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

    /// Every branch side of the functions reachable from the entry point.
    fn all_sides(&self) -> FxHashSet<Side> {
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

//! Guided generation for program points (`gen --target`, seed 003 ch. 5,
//! Definition 5.2.1): for each target not reached yet, the bounded
//! abstract traces through it ([`super::traces`] in reach mode, shortest
//! first: ordered by distance) are followed one by one by trace-guided
//! generation, stopping at the first test of a trace that reaches the
//! target (Definition 5.2.1's `firstOf`); a test reaching several targets
//! serves them all (the thesis's `removeCoveredPoints`). When the
//! generator runs dry with no trace undecided, no path within the bound
//! reaches the target: it is unreachable, and when the abstraction has no
//! trace through it at all (dead code, or code beyond k iterations) that
//! is known before any solver call.

use super::driven::Followed;
use super::traces::{TraceGen, TraceQueue};
use super::Search;
use crate::run::RunRecord;
use crate::suite::{DrivenReport, StopReason};

impl Search<'_, '_> {
    /// Whether `run` is a test (it returned or ended in an error) that
    /// reaches a target no test reached yet.
    pub(super) fn reaches_new_target(&self, run: &RunRecord) -> bool {
        let is_test = matches!(run.main_end, Some(crate::path::End::Returned(_) | crate::path::End::Error(_)));
        let targets = &self.config.goals.targets;
        is_test
            && targets.iter().enumerate().any(|(i, t)| {
                self.goal.reached.get(i).copied().flatten().is_none()
                    && t.points.iter().any(|p| run.seen.lines.contains(p))
            })
    }

    fn target_reached(&self, t: usize) -> bool {
        self.goal.reached.get(t).copied().flatten().is_some()
    }

    /// The guided search (see the module doc).
    pub(super) fn explore_targets(&mut self) -> StopReason {
        let mut report = DrivenReport { model: "distance".into(), ..DrivenReport::default() };
        let stop = self.targets_by_traces(&mut report);
        report.proven = stop == StopReason::Complete && report.undecided == 0;
        self.goal.guided = Some(report);
        stop
    }

    fn targets_by_traces(&mut self, report: &mut DrivenReport) -> StopReason {
        let Some(mut cur) = self.first_valid_run() else { return self.stop_reason().unwrap_or(StopReason::Complete) };
        if self.reaches_new_target(&cur.run) {
            self.consider(&cur.inputs, &cur.run);
        }
        let targets = self.config.goals.targets.clone();
        for (t, target) in targets.iter().enumerate() {
            if let Some(r) = self.stop_reason() {
                return r;
            }
            if self.target_reached(t) {
                continue;
            }
            let gen = TraceGen::reach(self.m.program, self.m.info, self.main, self.m.k.get(), &target.points);
            let mut queue = match TraceQueue::new(gen) {
                Ok(q) => q,
                // Too large to abstract: the depth-first search instead.
                Err(e) => {
                    report.fallback = Some(e);
                    return self.explore();
                }
            };
            if let Ok((count, _)) = queue.gen().size() {
                report.abstract_traces =
                    report.abstract_traces.saturating_add(u64::try_from(count).unwrap_or(u64::MAX));
            }
            while !self.target_reached(t) {
                if let Some(r) = self.stop_reason() {
                    return r;
                }
                let popped = match queue.pop() {
                    Ok(Some(p)) => p,
                    Ok(None) => break,
                    Err(e) => return StopReason::Limit(e),
                };
                report.tried += 1;
                match self.follow(&popped.steps, &mut cur, true) {
                    // Another target's test, or this one's: go on until
                    // this target is reached.
                    Followed::Test(true) => {}
                    // Followed to its end without a new test: not a proof.
                    Followed::Test(false) | Followed::Undecided => report.undecided += 1,
                    Followed::Infeasible(depth) => {
                        report.infeasible += 1;
                        queue.kill(popped.node, depth);
                    }
                }
            }
            report.expanded += queue.expanded;
        }
        self.stop_reason().unwrap_or(StopReason::Complete)
    }
}

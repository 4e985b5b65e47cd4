//! Resource-driven generation (seed 003, ch. 4.4, Definition 4.4.2):
//! instead of generating every test and filtering by cost, the bounded
//! abstract traces ([`super::traces`]) are tried in decreasing order of
//! cost, each by trace-guided generation (Definition 4.4.1: the first test
//! following the trace, or a proof that none does), until the policy is
//! met: `worst` stops at the first feasible trace, `top=N` at the N-th, a
//! minimum threshold (`>N`, `>=N`) at the first trace whose cost misses
//! it; traces above a maximum threshold are never tried.
//!
//! Following a trace is concolic: the current run is compared with the
//! trace step by step; at the first branch where it goes the other way,
//! that decision is negated (the prefix solved as in the k-path search);
//! a run that ends in an error before the trace does has its violated
//! check negated. A refuted prefix kills every trace through it in the
//! generator, which is what makes the generator effective (the thesis
//! refines its abstraction with data instead). A branch decided
//! concretely the other way proves the same, unless the run concretised a
//! symbolic value; a prefix left undecided (or constrained by a library
//! model's choices) only skips the trace, and the worst case is then not
//! claimed (the stop is `explored`).

use std::rc::Rc;

use pathwise_expr::Model;

use super::traces::{Step, TraceGen, TraceQueue};
use super::{Current, Search};
use crate::cost::{CostCmp, CostPolicy};
use crate::path::{End, EntryKind};
use crate::suite::{DrivenReport, PathStep, StopReason};

/// How following one trace ended.
pub(super) enum Followed {
    /// A run follows it: a test was kept (`true`) or the goals left it out.
    Test(bool),
    /// No input follows its first `n` steps (to a return).
    Infeasible(u32),
    /// Neither could be shown.
    Undecided,
}

impl Search<'_, '_> {
    /// The resource-driven search (see the module doc).
    pub(super) fn explore_driven(&mut self) -> StopReason {
        let goals = &self.config.goals;
        let model = goals.costs.first().cloned().unwrap_or(crate::cost::CostModel::Instructions);
        let mut want = u64::MAX;
        let (mut floor, mut ceiling) = (None, None);
        for p in &goals.policies {
            match *p {
                CostPolicy::Worst => want = want.min(1),
                CostPolicy::Top(n) => want = want.min(n as u64),
                CostPolicy::Threshold { model: 0, op: op @ (CostCmp::Gt | CostCmp::Ge), value } => {
                    floor = Some((op, value))
                }
                CostPolicy::Threshold { model: 0, op: op @ (CostCmp::Lt | CostCmp::Le), value } => {
                    ceiling = Some((op, value))
                }
                _ => {}
            }
        }
        let mut report = DrivenReport { model: model.name(), ..DrivenReport::default() };
        let gen = TraceGen::new(self.m.program, self.m.info, self.main, self.m.k.get(), &model);
        let mut queue = match TraceQueue::new(gen) {
            Ok(q) => q,
            Err(e) => return StopReason::Limit(e),
        };
        if let Ok((count, _)) = queue.gen().size() {
            report.abstract_traces = u64::try_from(count).unwrap_or(u64::MAX);
        }
        report.abstract_states = queue.gen().states() as u64;
        let Some(mut cur) = self.first_valid_run() else {
            self.goal.driven = Some(report);
            return self.stop_reason().unwrap_or(StopReason::Complete);
        };
        let mut found = 0u64;
        let stop = loop {
            if let Some(r) = self.stop_reason() {
                break r;
            }
            let popped = match queue.pop() {
                Ok(Some(p)) => p,
                Ok(None) => break StopReason::Complete,
                Err(e) => break StopReason::Limit(e),
            };
            // Every trace left costs at most this much.
            if floor.is_some_and(|(op, v): (CostCmp, u64)| !op.holds(popped.cost, v)) {
                break StopReason::Complete;
            }
            if ceiling.is_some_and(|(op, v): (CostCmp, u64)| !op.holds(popped.cost, v)) {
                report.over_maximum += 1;
                continue;
            }
            report.tried += 1;
            match self.follow(&popped.steps, &mut cur, false) {
                Followed::Test(kept) => {
                    let measured = self.tests.last().and_then(|t| t.cost.first()).map(|c| c.concrete);
                    if kept && measured != Some(popped.cost) {
                        report.cost_mismatches += 1;
                    }
                    found += u64::from(kept);
                    if found >= want {
                        break StopReason::Complete;
                    }
                }
                Followed::Infeasible(depth) => {
                    report.infeasible += 1;
                    queue.kill(popped.node, depth);
                }
                Followed::Undecided => report.undecided += 1,
            }
        };
        report.expanded = queue.expanded;
        report.proven = stop == StopReason::Complete && report.undecided == 0;
        self.goal.driven = Some(report);
        stop
    }

    /// The first run whose inputs the precondition accepts.
    pub(super) fn first_valid_run(&mut self) -> Option<Current> {
        let mut inputs = Model::default();
        let run = self.execute(&mut inputs);
        let (inputs, run) = if run.pre_valid() {
            (inputs, run)
        } else {
            let hard = self.spec.hard.clone();
            self.find_valid(&hard, None, &inputs, run.pre_entries, None)?
        };
        Some(Current { inputs, run: Rc::new(run), done: Vec::new() })
    }

    /// Whether path step `p` of a run is `s`.
    fn same_step(&self, p: &PathStep, s: &Step) -> bool {
        let f = self.m.program.func(s.func);
        p.taken == s.taken && p.loc == f.block(s.block).term_loc && *p.func == *f.name
    }

    /// Trace-guided generation, first test only (see the module doc),
    /// starting from the run `cur`, which is left at the last run. With
    /// `early` (guided generation), any run on the way that is a test and
    /// reaches a target not reached yet is that first test.
    pub(super) fn follow(&mut self, trace: &[Step], cur: &mut Current, early: bool) -> Followed {
        for _ in 0..4 * trace.len() + 64 {
            if self.stop_reason().is_some() {
                return Followed::Undecided;
            }
            if early && self.reaches_new_target(&cur.run) {
                let before = self.tests.len();
                self.consider(&cur.inputs, &cur.run);
                return Followed::Test(self.tests.len() > before);
            }
            let run = &cur.run;
            let matched = run.seen.path.iter().zip(trace).take_while(|(p, s)| self.same_step(p, s)).count();
            let returned = matches!(run.main_end, Some(End::Returned(_)));
            // A concrete outcome proves something of the trace prefix only
            // when no value was concretised and no library model chose.
            let exact = run.seen.pins.is_empty()
                && !run.main_entries.iter().any(|e| matches!(e.kind, EntryKind::Library { .. }));
            // The entry to negate, and the trace prefix refuted if its
            // other side is infeasible.
            // All of the trace, then a return (or a leak, which the return
            // finds: the whole path ran): its test.
            let at_end = matches!(&run.main_end, Some(End::Error(e)) if e.kind.returns_natively());
            let (j, depth) = if matched == trace.len() && run.seen.path.len() == matched && (returned || at_end) {
                let before = self.tests.len();
                self.consider(&cur.inputs, &cur.run);
                return Followed::Test(self.tests.len() > before);
            } else if matched < run.seen.path.len() && matched < trace.len() {
                // The run left the trace at step `matched`.
                let at = run.main_entries.iter().position(|e| {
                    e.step == matched as u32 + 1 && e.negatable && matches!(e.kind, EntryKind::Decision { .. })
                });
                match at {
                    Some(j) => (j, matched as u32 + 1),
                    None if exact => return Followed::Infeasible(matched as u32 + 1),
                    None => return Followed::Undecided,
                }
            } else if matched == run.seen.path.len() && !returned {
                // The run ended before the trace did: in an error, or
                // reading past an input array.
                let last = run.main_entries.len().checked_sub(1);
                let violated = last.filter(|&j| {
                    let e = &run.main_entries[j];
                    e.negatable
                        && matches!(
                            e.kind,
                            EntryKind::Guard { violated: true } | EntryKind::InBounds { violated: true, .. }
                        )
                });
                match (violated, &run.main_end) {
                    (Some(j), _) => (j, matched as u32),
                    (None, Some(End::Error(_))) if exact => return Followed::Infeasible(matched as u32),
                    _ => return Followed::Undecided,
                }
            } else {
                // Past the trace's end, or back early: not the abstraction's.
                return Followed::Undecided;
            };
            let refuted = |s: &Self| s.stats.infeasible_prefixes + s.stats.error_checks_infeasible;
            let before = refuted(self);
            match self.solve_following(cur, j) {
                Some((inputs, run, _)) => *cur = Current { inputs, run: Rc::new(run), done: Vec::new() },
                None => {
                    // A library model's choices constrain the prefix: other
                    // choices might follow it.
                    let free = cur.run.main_entries[..j].iter().any(|e| matches!(e.kind, EntryKind::Library { .. }));
                    return if refuted(self) > before && !free {
                        Followed::Infeasible(depth)
                    } else {
                        Followed::Undecided
                    };
                }
            }
        }
        Followed::Undecided
    }
}

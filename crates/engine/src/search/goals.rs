//! The search's side of [`crate::cost`]: each test's costs, threshold
//! policies as path constraints (seed 003, ch. 4.3.2), the ordering
//! policies, and guided generation's targets (ch. 5: stop at the first
//! test per target; a test is kept only when it reaches a new one).
//!
//! A threshold on a symbolic cost is a constraint over the inputs: when
//! the run that found a path misses the threshold but its cost depends on
//! the inputs, the path condition with the threshold is solved, and the
//! test is built from those inputs (which must follow the same path). So a
//! path whose cost can cross the threshold for some inputs yields a test
//! that does; one whose cost cannot is left out (counted).

use pathwise_expr::{BvCmp, ExprId, Model, SolveResult};

use super::{merge, Search};
use crate::cost::{CostCmp, CostModel, CostPolicy};
use crate::run::RunRecord;
use crate::suite::{CostValue, Dominance, GoalReport, StopReason, TargetReport, TargetStatus, TestCase};

/// What the threshold policies make of a run.
pub(super) enum Gate {
    /// Its inputs satisfy them (or there are none).
    Keep,
    /// No input following its path can.
    Drop,
    /// These inputs, following the same path, do.
    Replace(Model, Box<RunRecord>),
}

/// The goal state of a search.
#[derive(Default)]
pub(super) struct GoalState {
    /// Per target, the id of the first test reaching it.
    pub reached: Vec<Option<usize>>,
    /// Per test, the first model's symbolic cost (for the dominance report).
    pub first_sym: Vec<Option<ExprId>>,
    pub dropped: u64,
    /// Runs ended at a maximum cost threshold (see [`crate::cost::CostCap`]).
    pub cut_by_cost: u64,
    /// A statement or branch cover (see [`super::cover`]).
    pub cover: Option<super::cover::CoverState>,
    /// The all-local-paths criterion (see [`super::local`]).
    pub local: Option<super::local::LocalState>,
    /// A partial trace given as input (see [`super::partial`]).
    pub partial: Option<super::partial::PartialState>,
    /// What the resource-driven search did (see [`super::driven`]).
    pub driven: Option<crate::suite::DrivenReport>,
    /// What the trace-guided search for targets did (see [`super::targeted`]).
    pub guided: Option<crate::suite::DrivenReport>,
}

impl Search<'_, '_> {
    /// The path condition of `run` (the hard input constraints and every
    /// entry of the function's path), and the precondition's path as
    /// assumptions.
    fn path_query(&self, run: &RunRecord) -> (Vec<ExprId>, Vec<ExprId>) {
        let mut base = self.spec.hard.clone();
        base.extend(run.main_entries.iter().map(|e| e.cond));
        (base, run.pre_entries.iter().map(|e| e.cond).collect())
    }

    /// `cost OP value` as a constraint on 64-bit costs.
    fn threshold_expr(&mut self, cost: ExprId, op: CostCmp, value: u64) -> ExprId {
        let v = self.pool.bv_const(64, value);
        match op {
            CostCmp::Gt => self.pool.cmp(BvCmp::Ult, v, cost),
            CostCmp::Ge => self.pool.cmp(BvCmp::Ule, v, cost),
            CostCmp::Lt => self.pool.cmp(BvCmp::Ult, cost, v),
            CostCmp::Le => self.pool.cmp(BvCmp::Ule, cost, v),
        }
    }

    /// Apply the threshold policies to a run about to become a test.
    pub(super) fn cost_gate(&mut self, inputs: &Model, run: &RunRecord) -> Gate {
        let goals = &self.config.goals;
        let thresholds: Vec<_> = goals.thresholds().collect();
        if thresholds.iter().all(|&(m, op, v)| op.holds(run.cost.concrete(&goals.costs[m]), v)) {
            return Gate::Keep;
        }
        let mut wanted = Vec::new();
        for (m, op, v) in thresholds {
            let model = &self.config.goals.costs[m];
            match run.cost.symbolic(&mut self.pool, model) {
                Some(e) => wanted.push(self.threshold_expr(e, op, v)),
                // A constant cost decides by itself.
                None if op.holds(run.cost.concrete(model), v) => {}
                None => return Gate::Drop,
            }
        }
        let (mut base, assumptions) = self.path_query(run);
        base.extend(&wanted);
        let SolveResult::Sat(model) = self.check(&base, &assumptions, &wanted, inputs) else { return Gate::Drop };
        let all: Vec<ExprId> = base.iter().chain(&assumptions).copied().collect();
        let mut fresh = self.prefer(&all, merge(&self.pool, &all, inputs, model), false);
        let again = self.execute(&mut fresh);
        // Other inputs return other values: the path and how it ends
        // (an error, its place) must be the same.
        let same_end = match (&again.main_end, &run.main_end) {
            (Some(crate::path::End::Returned(_)), Some(crate::path::End::Returned(_))) => true,
            (a, b) => a == b,
        };
        if again.seen.path == run.seen.path && same_end {
            Gate::Replace(fresh, Box::new(again))
        } else {
            self.stats.divergences += 1;
            Gate::Drop
        }
    }

    /// Fill in `test`'s costs (`run`: the symbolic run of its path,
    /// `replay`: the test's own) and decide whether the goals keep it: its
    /// costs satisfy the thresholds and, in guided generation, it reaches
    /// a target no earlier test reached.
    pub(super) fn goals_accept(&mut self, test: &mut TestCase, run: &RunRecord, replay: &RunRecord) -> bool {
        let costs = self.config.goals.costs.clone();
        let mut first_sym = None;
        for (i, model) in costs.iter().enumerate() {
            let concrete = replay.cost.concrete(model);
            let sym = run.cost.symbolic(&mut self.pool, model).filter(|&e| !self.fixed_by_path(run, e, concrete));
            if i == 0 {
                first_sym = sym;
            }
            let symbolic = sym.map(|e| crate::cost::cost_text(&self.pool, e));
            test.cost.push(CostValue { model: model.name(), concrete, symbolic });
        }
        let fails = self.config.goals.thresholds().any(|(m, op, v)| !op.holds(test.cost[m].concrete, v));
        if fails {
            self.goal.dropped += 1;
            return false;
        }
        if let Some(cover) = self.goal.cover.as_mut() {
            if !cover.accept(test, replay) {
                return false;
            }
        }
        let targets = &self.config.goals.targets;
        if !targets.is_empty() {
            self.goal.reached.resize(targets.len(), None);
            let id = self.tests.len() + 1;
            let mut new = false;
            for (t, reached) in targets.iter().zip(self.goal.reached.iter_mut()) {
                if reached.is_none() && t.points.iter().any(|p| replay.seen.lines.contains(p)) {
                    *reached = Some(id);
                    new = true;
                }
            }
            if !new {
                return false;
            }
        }
        if !self.local_accept(run) {
            return false;
        }
        self.goal.first_sym.push(first_sym);
        true
    }

    /// Whether every input following `run`'s path gives the cost `e` the
    /// value `concrete` (a symbolic size the path pins: `icap` where
    /// `size >= cap` holds with a known size).
    fn fixed_by_path(&mut self, run: &RunRecord, e: ExprId, concrete: u64) -> bool {
        let (base, assumptions) = self.path_query(run);
        let k = self.pool.bv_const(64, concrete);
        let same = self.pool.eq(e, k);
        let differs = self.pool.not(same);
        let mut query = base;
        query.push(differs);
        matches!(self.check(&query, &assumptions, &[differs], &Model::default()), SolveResult::Unsat { .. })
    }

    /// Whether the guided search has reached every target.
    pub(super) fn targets_done(&self) -> bool {
        let n = self.config.goals.targets.len();
        n > 0 && self.goal.reached.len() == n && self.goal.reached.iter().all(Option::is_some)
    }
}

/// Apply the ordering policies to the tests (with their coverage, kept in
/// step), renumber them, and report the goals. `stop` is how the search
/// ended (a target is unreachable only when it was exhaustive).
pub(super) fn finish(
    config: &crate::config::Config,
    goal: GoalState,
    pool: &pathwise_expr::ExprPool,
    (tests, coverage): (&mut Vec<TestCase>, &mut Vec<crate::setup::RunCoverage>),
    (stop, stats): (&StopReason, &crate::suite::Stats),
) -> GoalReport {
    let not_exhaustive = match stop {
        StopReason::Complete => None,
        StopReason::Explored => {
            Some(format!("the bounded search was not exhaustive: {}", stats.undecided().join(", ")))
        }
        StopReason::Timeout => Some("the search timed out".into()),
        StopReason::Interrupted => Some("the search was stopped early (timeout or interrupt)".into()),
        StopReason::Limit(what) => Some(format!("the search stopped at a limit ({what})")),
        StopReason::ErrorCallReached | StopReason::TargetsReached => Some("the search stopped early".into()),
    };
    let goals = &config.goals;
    let mut report = GoalReport {
        cost_models: goals.costs.iter().map(CostModel::name).collect(),
        policies: goals.policies.iter().map(|p| p.text(&goals.costs)).collect(),
        dropped_by_policy: goal.dropped,
        cut_by_cost: goal.cut_by_cost,
        ..GoalReport::default()
    };
    let sorted = goals.policies.iter().any(|p| !matches!(p, CostPolicy::Threshold { .. }));
    // A cover keeps only the tests no other test makes redundant.
    let redundant = goal.cover.as_ref().map(|c| c.redundant()).unwrap_or_default();
    let mut order: Vec<usize> = (0..tests.len()).filter(|&i| !redundant.get(i).copied().unwrap_or(false)).collect();
    if sorted {
        // Decreasing cost of the first model; ties keep generation order.
        order.sort_by_key(|&i| (std::cmp::Reverse(tests[i].cost.first().map_or(0, |c| c.concrete)), i));
    }
    let keep = goals.policies.iter().fold(order.len(), |n, p| match p {
        CostPolicy::Top(k) => n.min(*k),
        CostPolicy::Worst => n.min(1),
        _ => n,
    });
    report.dropped_by_policy += (order.len() - keep) as u64;
    order.truncate(keep);
    let mut new_id = vec![None; tests.len() + 1];
    let mut kept_tests = Vec::with_capacity(keep);
    let mut kept_cov = Vec::with_capacity(keep);
    let mut kept_sym = Vec::with_capacity(keep);
    for (n, &i) in order.iter().enumerate() {
        kept_sym.push(goal.first_sym.get(i).copied().flatten());
        new_id[tests[i].id] = Some(n + 1);
        let mut t = tests[i].clone();
        t.id = n + 1;
        kept_tests.push(t);
        kept_cov.push(coverage[i].clone());
    }
    report.cover = goal.cover.as_ref().map(|c| c.report(&order, stop));
    report.local = goal.local.as_ref().map(|l| l.report(order.len()));
    report.driven = goal.driven;
    report.guided = goal.guided;
    report.partial = goal.partial.as_ref().map(|p| p.report(order.len()));
    *tests = kept_tests;
    *coverage = kept_cov;
    report.dominance = dominance(pool, tests, &kept_sym);
    report.targets = goals
        .targets
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let reached_by = goal.reached.get(i).copied().flatten().and_then(|id| new_id.get(id).copied().flatten());
            let status = match (reached_by, &not_exhaustive) {
                (Some(_), _) => TargetStatus::Reached,
                (None, None) => TargetStatus::Unreachable,
                (None, Some(why)) => TargetStatus::NotReached(why.clone()),
            };
            TargetReport { target: t.spec.clone(), reached_by, status }
        })
        .collect();
    report
}

/// For the first model: when each symbolic test's cost exceeds the largest
/// constant cost among `tests` (seed 003, Example 16). A cost `a*x + b` of
/// one input with `a > 0` gives the bound on `x`; others the inequality.
fn dominance(pool: &pathwise_expr::ExprPool, tests: &[TestCase], first_sym: &[Option<ExprId>]) -> Vec<Dominance> {
    let constant = tests
        .iter()
        .zip(first_sym)
        .filter(|(_, s)| s.is_none())
        .filter_map(|(t, _)| Some((t.cost.first()?.concrete, t.id)));
    let Some((max, at)) = constant.max_by_key(|&(c, id)| (c, std::cmp::Reverse(id))) else { return Vec::new() };
    let mut out = Vec::new();
    for (t, s) in tests.iter().zip(first_sym) {
        let Some(e) = *s else { continue };
        let text = crate::cost::cost_text(pool, e);
        let when = match crate::cost::single_input(pool, e) {
            Some((name, a, b)) if a > 0 => format!("{name} > {}", (max as i128 - b).div_euclid(a)),
            _ => format!("{text} > {max}"),
        };
        out.push(Dominance { test: t.id, cost: text, constant: max, constant_test: at, when });
    }
    out
}

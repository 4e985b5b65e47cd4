//! The JSON of costs, cost policies and targets (`gen --cost`,
//! `--cost-policy`, `--target`; schema in `docs/json-schema.md`): a `cost`
//! object per test and a `goals` object per suite, both absent without
//! those options, so that other suites keep their shape. Also the
//! infeasible-code report of statement and branch covers (`cover` here,
//! `vc` for `--method vc`, with the same entries).

use pathwise_suite::{CoverReport, GoalReport, TargetStatus, TestCase};
use serde::{Deserialize, Serialize};

use crate::json::OrderedMap;

/// A test's cost under one model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostJson {
    /// The cost of the test's inputs.
    pub concrete: u64,
    /// The cost of any input following the test's path, over the inputs
    /// (`4*icap + 16`); `null` when it is the same for all of them.
    pub symbolic: Option<String>,
}

/// The suite's goals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoalsJson {
    pub cost_models: Vec<String>,
    pub cost_policies: Vec<String>,
    /// Tests of feasible paths the policies left out.
    pub dropped_by_policy: u64,
    /// Runs a maximum threshold ended early (their path passed it).
    #[serde(default)]
    pub cut_by_cost: u64,
    #[serde(default)]
    pub dominance: Vec<DominanceJson>,
    #[serde(default)]
    pub targets: Vec<TargetJson>,
    /// The resource-driven search's figures (`gen --resource-driven`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_driven: Option<DrivenJson>,
    /// The trace-guided target search's figures (`gen --target`; its
    /// `model` is `distance`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace_guided: Option<DrivenJson>,
    /// A partial trace's outcome (`gen --trace`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_trace: Option<PartialJson>,
}

/// What `gen --trace` found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartialJson {
    pub pattern: String,
    /// Tests following the pattern.
    pub tests: usize,
    /// Runs of paths that do not follow it (left out).
    pub left_out: u64,
}

/// What the resource-driven search did (see `DrivenReport`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrivenJson {
    pub model: String,
    pub abstract_traces: u64,
    pub abstract_states: u64,
    pub expanded: u64,
    pub tried: u64,
    pub infeasible: u64,
    pub undecided: u64,
    pub over_maximum: u64,
    pub cost_mismatches: u64,
    pub proven: bool,
}

/// When a symbolic cost (first model) exceeds the largest constant one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DominanceJson {
    pub test: usize,
    pub cost: String,
    pub constant: u64,
    pub constant_test: usize,
    pub when: String,
}

/// One `--target`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetJson {
    pub target: String,
    /// `reached`, `unreachable` (the bounded search was exhaustive) or
    /// `not-reached` (it was not: see `reason`).
    pub status: String,
    pub test: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The `cost` object of a test (`None` without cost models).
pub fn test_cost(test: &TestCase) -> Option<OrderedMap<CostJson>> {
    if test.cost.is_empty() {
        return None;
    }
    let entries = test
        .cost
        .iter()
        .map(|c| (c.model.clone(), CostJson { concrete: c.concrete, symbolic: c.symbolic.clone() }))
        .collect();
    Some(OrderedMap(entries))
}

/// The `goals` object of a suite (`None` when it had none).
pub fn goals(g: &GoalReport) -> Option<GoalsJson> {
    if g.cost_models.is_empty() && g.targets.is_empty() && g.partial.is_none() {
        return None;
    }
    Some(GoalsJson {
        cost_models: g.cost_models.clone(),
        cost_policies: g.policies.clone(),
        dropped_by_policy: g.dropped_by_policy,
        cut_by_cost: g.cut_by_cost,
        dominance: g
            .dominance
            .iter()
            .map(|d| DominanceJson {
                test: d.test,
                cost: d.cost.clone(),
                constant: d.constant,
                constant_test: d.constant_test,
                when: d.when.clone(),
            })
            .collect(),
        targets: g
            .targets
            .iter()
            .map(|t| {
                let (status, reason) = match &t.status {
                    TargetStatus::Reached => ("reached", None),
                    TargetStatus::Unreachable => ("unreachable", None),
                    TargetStatus::NotReached(why) => ("not-reached", Some(why.clone())),
                };
                TargetJson { target: t.target.clone(), status: status.into(), test: t.reached_by, reason }
            })
            .collect(),
        resource_driven: g.driven.as_ref().map(driven_json),
        trace_guided: g.guided.as_ref().map(driven_json),
        partial_trace: g.partial.as_ref().map(|p| PartialJson {
            pattern: p.pattern.clone(),
            tests: p.tests,
            left_out: p.left_out,
        }),
    })
}

fn driven_json(d: &pathwise_suite::DrivenReport) -> DrivenJson {
    DrivenJson {
        model: d.model.clone(),
        abstract_traces: d.abstract_traces,
        abstract_states: d.abstract_states,
        expanded: d.expanded,
        tried: d.tried,
        infeasible: d.infeasible,
        undecided: d.undecided,
        over_maximum: d.over_maximum,
        cost_mismatches: d.cost_mismatches,
        proven: d.proven,
    }
}

/// A statement or branch no input reaches within the bound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfeasibleJson {
    pub function: String,
    /// `statement` or `branch`.
    pub kind: String,
    /// `file:line:col`: the statement's first instruction, or the branch's
    /// condition.
    pub location: String,
    /// For a branch: the side (`true`: the condition holds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<bool>,
}

/// A concolic statement or branch cover's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoverJson {
    /// `statements` or `branches`.
    pub criterion: String,
    /// Every goal has a test, or the bounded search was exhaustive.
    pub complete: bool,
    /// Goals of the cover (statements, or branch sides).
    pub goals: usize,
    pub covered: usize,
    /// The goals without a test, when `complete`: infeasible within the
    /// bound.
    pub infeasible: Vec<InfeasibleJson>,
}

/// The `cover` object of a suite (`None` unless it is a cover's).
pub fn cover(c: Option<&CoverReport>, files: &[String]) -> Option<CoverJson> {
    let c = c?;
    let infeasible = c
        .infeasible
        .iter()
        .map(|g| {
            let file = files.get(g.loc.file as usize).map_or("?", String::as_str);
            InfeasibleJson {
                function: g.function.clone(),
                kind: if g.side.is_some() { "branch" } else { "statement" }.into(),
                location: format!("{file}:{}:{}", g.loc.line, g.loc.col),
                side: g.side,
            }
        })
        .collect();
    Some(CoverJson {
        criterion: c.criterion.clone(),
        complete: c.complete,
        goals: c.goals,
        covered: c.covered,
        infeasible,
    })
}

//! `gen --cost`, `--cost-policy` and `--target`: parsing into the engine's
//! [`Goals`] (targets resolved against the compiled unit, so that a line
//! without code is an error before the search) and their part of the
//! summary (with a statement or branch cover's infeasible code). Kept
//! apart from `gen.rs` so that `gen`'s own options stay small.

use anyhow::{bail, Result};
use clap::Args;
use pathwise_engine::cost::{CostModel, CostPolicy, Goals, Target};
use pathwise_engine::suite::{TargetStatus, TestSuite};
use pathwise_engine::trace_pattern::{Item, TracePattern};
use pathwise_ir::{FuncId, Program};

/// Resource-aware and guided generation (Rojas's thesis, ch. 4 and 5).
#[derive(Args, Debug, Clone, Default)]
pub struct GoalArgs {
    /// A cost model every test reports: `instructions`, `memory`, `calls` or
    /// `calls=NAME`. Repeatable.
    #[arg(long = "cost", value_name = "MODEL")]
    pub costs: Vec<String>,
    /// A policy over the first --cost model (or the one named): `>48`, `memory<=100`,
    /// `order`, `top=N` or `worst`. Repeatable.
    #[arg(long = "cost-policy", value_name = "POLICY")]
    pub policies: Vec<String>,
    /// Guided generation: keep tests reaching a new target line; stop when all are
    /// reached. Repeatable.
    #[arg(long = "target", value_name = "FILE:LINE")]
    pub targets: Vec<String>,
    /// Try bounded abstract traces most expensive first (first --cost model) until the
    /// policy is met, instead of generating every test.
    #[arg(long = "resource-driven")]
    pub resource_driven: bool,
    /// Only the paths whose own decisions match PATTERN, e.g. `55:F (57:T 58:T){4} 57:F`
    /// (guide: "Costs, cost policies and targets").
    #[arg(long = "trace", value_name = "PATTERN")]
    pub trace: Option<String>,
}

/// The goals of `args` for `function` of `program`.
pub fn resolve(args: &GoalArgs, program: &Program, function: &str) -> Result<Goals> {
    let costs =
        args.costs.iter().map(|c| CostModel::parse(c).map_err(anyhow::Error::msg)).collect::<Result<Vec<_>>>()?;
    for m in &costs {
        if let CostModel::Calls(Some(f)) = m {
            if program.func_by_name(f).is_none() {
                bail!("--cost calls={f}: the file has no function `{f}`");
            }
        }
    }
    let policies = args
        .policies
        .iter()
        .map(|p| CostPolicy::parse(p, &costs).map_err(anyhow::Error::msg))
        .collect::<Result<Vec<_>>>()?;
    let targets = args.targets.iter().map(|t| target(program, t)).collect::<Result<Vec<_>>>()?;
    let trace = args.trace.as_deref().map(|t| trace_pattern(program, function, t)).transpose()?;
    Ok(Goals { costs, policies, targets, cover: None, local_paths: false, driven: args.resource_driven, trace })
}

/// `--trace PATTERN` parsed, each `LINE[:COL]` checked against the
/// decisions of `function` itself (its callees' are free).
fn trace_pattern(program: &Program, function: &str, text: &str) -> Result<TracePattern> {
    let pattern = TracePattern::parse(text).map_err(anyhow::Error::msg)?;
    let Some(f) = program.func_by_name(function).map(|id| program.func(id)) else { return Ok(pattern) };
    for item in &pattern.items {
        let Item::At { line, col, .. } = *item else { continue };
        let decides = f.blocks.iter().any(|b| {
            matches!(b.term, pathwise_ir::Terminator::Branch { .. })
                && b.term_loc.line == line
                && col.is_none_or(|c| c == b.term_loc.col)
        });
        if !decides {
            let at = col.map_or(line.to_string(), |c| format!("{line}:{c}"));
            bail!("--trace: `{function}` has no decision at line {at} (callees' decisions are free)");
        }
    }
    Ok(pattern)
}

/// The VC method has no search strategies: `--resource-driven` is the
/// concolic search's (the engine validates the strategy of its own
/// searches, see `pathwise_engine::strategy`).
pub fn check_method(config: &pathwise_engine::config::Config, vc: bool) -> Result<()> {
    if vc && config.goals.driven {
        bail!("--resource-driven works with the concolic k-path search only (not --method vc or another --criterion)");
    }
    Ok(())
}

/// `FILE:LINE` resolved to the functions with code on that line.
fn target(program: &Program, spec: &str) -> Result<Target> {
    let Some((file, line)) = spec.rsplit_once(':') else {
        bail!("--target {spec}: expected FILE:LINE (e.g. lcm.c:12)");
    };
    let line: u32 = match line.trim().parse() {
        Ok(n) if n > 0 => n,
        _ => bail!("--target {spec}: `{line}` is not a line number"),
    };
    let base = |p: &str| std::path::Path::new(p).file_name().map(|n| n.to_string_lossy().into_owned());
    let files: Vec<u32> = (0..program.files.len() as u32)
        .filter(|&i| {
            let f = &program.files[i as usize];
            f == file || base(f).is_some_and(|b| Some(b) == base(file))
        })
        .collect();
    if files.is_empty() {
        bail!("--target {spec}: no file `{file}` in the unit (its files: {})", program.files.join(", "));
    }
    let mut points = Vec::new();
    for (i, f) in program.funcs.iter().enumerate() {
        let at = |l: pathwise_ir::Loc| !l.is_none() && l.line == line && files.contains(&l.file);
        let has = f.blocks.iter().any(|b| b.insts.iter().any(|i| at(i.loc)) || at(b.term_loc));
        if has && !f.is_declaration() {
            points.push((FuncId(i as u32), line));
        }
    }
    if points.is_empty() {
        bail!("--target {spec}: no code on line {line} of {file}");
    }
    Ok(Target { spec: spec.to_string(), points })
}

/// The summary's lines for costs, policies and targets (empty without
/// them).
pub fn summary(suite: &TestSuite) -> String {
    let g = &suite.goals;
    let mut out = String::new();
    if !g.cost_models.is_empty() {
        out.push_str(&format!("  {:<20} {}\n", "costs:", g.cost_models.join(", ")));
        if !g.policies.is_empty() {
            out.push_str(&format!(
                "  {:<20} {} ({} test(s) of feasible paths left out)\n",
                "cost policy:",
                g.policies.join(", "),
                g.dropped_by_policy
            ));
            if g.cut_by_cost > 0 {
                out.push_str(&format!(
                    "  {:<20} {} run(s) ended as soon as their path passed a maximum\n",
                    "cut by cost:", g.cut_by_cost
                ));
            }
        }
        for t in &suite.tests {
            let costs: Vec<String> = t
                .cost
                .iter()
                .map(|c| match &c.symbolic {
                    Some(s) => format!("{} {} (symbolic: {s})", c.model, c.concrete),
                    None => format!("{} {}", c.model, c.concrete),
                })
                .collect();
            out.push_str(&format!("    test {}: {}\n", t.id, costs.join(", ")));
        }
        // Tests sharing a symbolic cost share its condition: one line each.
        let mut groups: Vec<(&pathwise_engine::suite::Dominance, Vec<String>)> = Vec::new();
        for d in &g.dominance {
            match groups.iter_mut().find(|(e, _)| e.cost == d.cost && e.when == d.when) {
                Some((_, ids)) => ids.push(d.test.to_string()),
                None => groups.push((d, vec![d.test.to_string()])),
            }
        }
        for (d, ids) in groups {
            out.push_str(&format!(
                "    cost {} (test(s) {}) exceeds the largest constant cost, {} (test {}), when {}\n",
                d.cost,
                ids.join(", "),
                d.constant,
                d.constant_test,
                d.when
            ));
        }
    }
    if let Some(p) = &g.partial {
        out.push_str(&format!(
            "  {:<20} `{}`: {} test(s) follow it ({} of other paths left out)\n",
            "partial trace:", p.pattern, p.tests, p.left_out
        ));
    }
    if let Some(d) = &g.driven {
        out.push_str(&driven_summary(d));
    }
    if let Some(d) = &g.guided {
        out.push_str(&format!(
            "  {:<20} {} trace(s) through the targets followed, {} infeasible, {} undecided ({} bounded traces through them)\n",
            "trace-guided:", d.tried, d.infeasible, d.undecided, d.abstract_traces
        ));
        if let Some(why) = &d.fallback {
            out.push_str(&format!("  {:<20} then the depth-first search: {why}\n", ""));
        }
    }
    if let Some(c) = &g.cover {
        out.push_str(&cover_summary(c, &suite.files));
    }
    for t in &g.targets {
        let what = match (&t.status, t.reached_by) {
            (TargetStatus::Reached, Some(id)) => format!("reached by test {id}"),
            (TargetStatus::Reached, None) => "reached".into(),
            (TargetStatus::Unreachable, _) => "unreachable within the bound (the bounded search was exhaustive)".into(),
            (TargetStatus::NotReached(why), _) => format!("not reached ({why})"),
        };
        out.push_str(&format!("  target {}: {what}\n", t.target));
    }
    out
}

/// The resource-driven search's lines.
fn driven_summary(d: &pathwise_engine::suite::DrivenReport) -> String {
    let mut out = format!(
        "  {:<20} by {}: {} trace(s) tried, {} infeasible, {} undecided ({} bounded abstract traces, {} partial traces expanded)\n",
        "resource-driven:", d.model, d.tried, d.infeasible, d.undecided, d.abstract_traces, d.expanded
    );
    if d.over_maximum > 0 {
        out.push_str(&format!("  {:<20} {} trace(s) over the maximum skipped\n", "", d.over_maximum));
    }
    if d.cost_mismatches > 0 {
        out.push_str(&format!("  {:<20} {} test(s) cost other than their trace\n", "", d.cost_mismatches));
    }
    let claim = if d.proven {
        "the tests are the most expensive within the bound"
    } else {
        "not proven: traces were left undecided or the search stopped early"
    };
    out.push_str(&format!("  {:<20} {claim}\n", ""));
    out
}

/// A concolic cover's lines: goals covered and, when the search completed,
/// the infeasible code (as `--method vc` reports it).
fn cover_summary(c: &pathwise_engine::suite::CoverReport, files: &[String]) -> String {
    let mut out = format!("  {:<20} {} of {} {}\n", "covered goals:", c.covered, c.goals, c.criterion);
    if !c.complete {
        out.push_str(&format!("  {:<20} not reported: the search stopped early\n", "infeasible code:"));
        return out;
    }
    out.push_str(&format!(
        "  {:<20} {} of {} goals (within the bound)\n",
        "infeasible code:",
        c.infeasible.len(),
        c.goals
    ));
    for g in &c.infeasible {
        let file = files.get(g.loc.file as usize).map_or("?", String::as_str);
        let at = format!("{file}:{}:{}", g.loc.line, g.loc.col);
        out.push_str(&pathwise_vc::generate::infeasible_line(&g.function, &at, g.side));
    }
    out
}

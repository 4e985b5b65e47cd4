//! `pathwise gen --method vc`: tests from the reachability verification
//! condition (seed 001; crate `pathwise-vc`) instead of the concolic search.
//!
//! The VC's valuations are replayed concretely by the engine
//! (`pathwise_engine::replay_models`) and emitted by the same emitters as
//! concolic tests. A valuation whose replay does not follow the path the VC
//! chose is a bug of one of the two models of C: it is reported and `gen`
//! exits with status 1 (after writing the tests that did agree), never
//! dropped silently. A complete cover also lists the blocks or branch sides
//! no test reaches: infeasible within the bound.

use std::time::Instant;

use anyhow::{bail, Result};
use pathwise_engine::config::{Config, Criterion};
use pathwise_engine::suite::{PathStep, StopReason, TestSuite};
use pathwise_expr::ExprPool;
use pathwise_ir::Program;
use pathwise_solver_z3::{Models, Z3Session};
use pathwise_vc::{CoverResult, Goal};
use serde::Serialize;

use crate::gen::GenArgs;

/// The `--criterion` values of `gen`: the engine's bounds of paths and the
/// VC method's statement and branch covers.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GenCriterion {
    Engine(Criterion),
    Statements,
    Branches,
    /// Seed 003's all-local-paths (the k-path search negating only the
    /// function's own decisions).
    LocalPaths,
}

impl GenCriterion {
    pub fn name(self) -> &'static str {
        match self {
            GenCriterion::Engine(c) => c.name(),
            GenCriterion::Statements => "statements",
            GenCriterion::Branches => "branches",
            GenCriterion::LocalPaths => "all-local-paths",
        }
    }

    /// The engine's criterion (statement and branch covers bound their
    /// paths as k-path does).
    pub fn engine(self) -> Criterion {
        match self {
            GenCriterion::Engine(c) => c,
            _ => Criterion::KPath,
        }
    }
}

/// Parse `k-path`, `block-k`, `statements`, `branches` or `all-local-paths`.
pub fn parse_criterion(s: &str) -> Result<GenCriterion, String> {
    match s {
        "statements" => Ok(GenCriterion::Statements),
        "branches" => Ok(GenCriterion::Branches),
        "all-local-paths" => Ok(GenCriterion::LocalPaths),
        _ => Criterion::from_name(s).map(GenCriterion::Engine).ok_or_else(|| {
            format!(
                "unknown criterion `{s}` (expected `k-path`, `block-k`, `statements`, `branches` or `all-local-paths`)"
            )
        }),
    }
}

/// The VC method's part of the JSON.
#[derive(Serialize)]
struct VcJson {
    criterion: &'static str,
    queries: u64,
    solver_ms: u64,
    complete: bool,
    goals: usize,
    infeasible: Vec<pathwise_emit::json_goals::InfeasibleJson>,
    /// Functions replaced by procedure summaries (`--compositional`).
    summaries: Vec<SummaryJson>,
}

#[derive(Serialize)]
struct SummaryJson {
    function: String,
    paths: usize,
    queries: u64,
}

#[derive(Serialize)]
struct SuiteWithVc {
    #[serde(flatten)]
    suite: pathwise_emit::json::SuiteJson,
    method: &'static str,
    vc: VcJson,
}

/// Where a goal is: the first located instruction of its block (or the
/// condition, for a branch side).
fn goal_loc(program: &Program, goal: Goal) -> (String, String, Option<bool>) {
    let (f, b, side) = match goal {
        Goal::Block(f, b) => (f, b, None),
        Goal::Branch(f, b, s) => (f, b, Some(s)),
    };
    let fd = program.func(f);
    let bd = fd.block(b);
    let loc = match side {
        Some(_) => bd.term_loc,
        None => bd.insts.iter().map(|i| i.loc).find(|l| !l.is_none()).unwrap_or(bd.term_loc),
    };
    (fd.name.clone(), program.describe_loc(loc), side)
}

/// The infeasible-code lines of the summary.
fn infeasible_text(program: &Program, res: &CoverResult) -> String {
    let mut out = String::new();
    if !res.complete {
        out.push_str(&format!(
            "  {:<20} not reported: the cover stopped early ({})\n",
            "infeasible code:",
            res.stopped.as_deref().unwrap_or("?")
        ));
        return out;
    }
    out.push_str(&format!(
        "  {:<20} {} of {} goals (within the bound)\n",
        "infeasible code:",
        res.uncovered.len(),
        res.goals.len()
    ));
    for &g in &res.uncovered {
        let (f, at, side) = goal_loc(program, g);
        out.push_str(&crate::goals::infeasible_line(&f, &at, side));
    }
    out
}

/// Replay disagreements: models that gave no test, or whose path differs
/// from the VC's.
fn disagreements(res: &CoverResult, runs: &[pathwise_engine::replay_models::ModelRun]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, (run, want)) in runs.iter().zip(&res.paths).enumerate() {
        let got: Vec<(String, pathwise_ir::Loc, bool)> =
            run.path.iter().map(|s: &PathStep| (s.func.clone(), s.loc, s.taken)).collect();
        let want: Vec<(String, pathwise_ir::Loc, bool)> =
            want.iter().map(|d| (d.func.clone(), d.loc, d.taken)).collect();
        if let Some(why) = &run.failure {
            out.push(format!("valuation {}: {why}", i + 1));
        } else if got != want {
            out.push(format!("valuation {}: the replay took another path ({got:?} instead of {want:?})", i + 1));
        }
    }
    out
}

/// Largest number of paths of a summary: a callee with more is inlined
/// (its disjunction would outgrow its VC; seed 001, section 6).
const MAX_SUMMARY_PATHS: usize = 64;

/// The summaries of `--compositional` (seed 001, section 6): every callee
/// the function under test reaches through inlined code that can be
/// summarised ([`pathwise_vc::summarizable`]) is summarised by its own
/// path cover; the others are inlined (and their callees looked at).
fn summaries(
    pool: &mut ExprPool,
    program: &Program,
    main: pathwise_ir::FuncId,
    opts: &pathwise_vc::Options,
    deadline: Option<Instant>,
) -> Vec<pathwise_vc::Summary> {
    let cg = pathwise_ir::analysis::CallGraph::compute(program);
    let mut out: Vec<pathwise_vc::Summary> = Vec::new();
    let mut seen = vec![main];
    let mut work = vec![main];
    while let Some(f) = work.pop() {
        for g in cg.callees(f) {
            if seen.contains(&g) || program.func(g).is_declaration() {
                continue;
            }
            seen.push(g);
            let summary = pathwise_vc::summarizable(program, &cg, g).ok().and_then(|()| {
                let vc = pathwise_vc::build_vc(pool, program, g, None, opts).ok()?;
                let mut session = Z3Session::new(pool, &vc.constraints);
                pathwise_vc::summarize(pool, program, &vc, &mut session, MAX_SUMMARY_PATHS, deadline).ok()?
            });
            match summary {
                Some(s) => out.push(s),
                None => work.push(g),
            }
        }
    }
    out
}

/// Build the VC, cover it, replay the valuations. Returns the suite, the
/// cover and the disagreements.
pub fn generate(
    program: &Program,
    config: &Config,
    criterion: GenCriterion,
) -> Result<(TestSuite, CoverResult, Vec<String>)> {
    let start = Instant::now();
    let crit = match criterion {
        GenCriterion::Engine(Criterion::KPath) => pathwise_vc::Criterion::Paths,
        GenCriterion::Statements => pathwise_vc::Criterion::Statements,
        GenCriterion::Branches => pathwise_vc::Criterion::Branches,
        GenCriterion::Engine(_) | GenCriterion::LocalPaths => {
            bail!("--method vc does not support --criterion {}", criterion.name())
        }
    };
    let main = program.func_by_name(&config.function).expect("checked by gen");
    let pre = config.precondition.as_ref().and_then(|p| program.func_by_name(p));
    let mut opts = pathwise_vc::Options::new(config.k, config.max_array_len);
    opts.check_overflow = config.check_overflow;
    let mut pool = ExprPool::new();
    let deadline = config.timeout.map(|t| start + t);
    let summaries =
        if config.compositional { summaries(&mut pool, program, main, &opts, deadline) } else { Vec::new() };
    let vc = pathwise_vc::build_vc_with(&mut pool, program, main, pre, &opts, &summaries)
        .map_err(|u| anyhow::anyhow!(u.describe(program)))?;
    // Blocking clauses exclude one path per check: consecutive models may
    // stay close. Enabling clauses want each model to reach as many
    // uncovered goals as it can: diverse models (see `Models`).
    let models = if crit == pathwise_vc::Criterion::Paths { Models::Close } else { Models::Diverse };
    let mut session = Z3Session::with_models(&pool, &vc.constraints, models);
    // Each valuation is replayed into a test as soon as it is found, so that
    // the deadline bounds the replay too. The VC bounds every loop
    // iteration (see the README): replay with the same count, so that the
    // engine agrees on which paths are within k.
    let replay_config = Config { strict_loop_count: true, timeout: None, ..config.clone() };
    let (res, mut suite, runs) =
        pathwise_engine::replay_models::with_replayer(program, &replay_config, &mut pool, |pool, replayer| {
            let res = pathwise_vc::cover_with(pool, program, &vc, &mut session, (crit, deadline), &mut |pool, m| {
                replayer.replay(pool, m);
            });
            let (stats, stop) = match &res {
                Ok(res) => stats_of(res),
                Err(_) => (Default::default(), StopReason::Explored),
            };
            (res, stats, stop)
        })
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut res = res.map_err(|e| anyhow::anyhow!(e))?;
    res.summaries = summaries.iter().map(|s| (s.func, s.paths.len(), s.queries)).collect();
    suite.stats.elapsed_ms = start.elapsed().as_millis() as u64;
    let bad = disagreements(&res, &runs);
    Ok((suite, res, bad))
}

/// The suite's statistics and stop reason for a cover.
fn stats_of(res: &CoverResult) -> (pathwise_engine::suite::Stats, StopReason) {
    let mut stats = pathwise_engine::suite::Stats { solver_calls: res.queries, ..Default::default() };
    stats.solver_ms = res.solver_time.as_millis() as u64;
    let stop = match &res.stopped {
        _ if res.complete => StopReason::Complete,
        Some(w) if w == "timeout" || w.contains("timeout") || w.contains("canceled") || w.contains("deadline") => {
            StopReason::Timeout
        }
        Some(w) => {
            stats.unknown_prefixes = 1;
            stats.first_unknown = Some(w.clone());
            StopReason::Explored
        }
        None => StopReason::Explored,
    };
    (stats, stop)
}

/// `gen --method vc`: returns the exit code.
pub fn run(args: &GenArgs, program: &Program, config: Config) -> Result<i32> {
    let (suite, res, bad) = generate(program, &config, args.criterion)?;
    let written = crate::gen::write_outputs(&suite, &args.file, args.build_flags(), &args.out)?;
    let json = vc_json(program, &suite, &res, args.criterion, &args.file);
    std::fs::write(&written.json_file, format!("{json}\n"))?;
    let mut text = crate::gen::summary(&suite, &written, args);
    text =
        text.replacen(&format!("({},", suite.criterion.name()), &format!("({}, method vc,", args.criterion.name()), 1);
    let mut extra =
        format!("  {:<20} {} ({} ms in the solver)\n", "VC queries:", res.queries, res.solver_time.as_millis());
    let what = match args.criterion {
        GenCriterion::Statements => Some(("statement", "statements")),
        GenCriterion::Branches => Some(("branch side", "branches")),
        _ => None,
    };
    if let Some((one, many)) = what {
        // The same lines as the concolic method's covers.
        let paths = "complete (every feasible path within the bound has a test)";
        text = text.replacen(paths, &format!("complete (every {one} feasible within the bound has a test)"), 1);
        let covered = res.goals.len() - res.uncovered.len();
        extra.push_str(&format!("  {:<20} {covered} of {} {many}\n", "covered goals:", res.goals.len()));
    }
    if !res.summaries.is_empty() {
        let list: Vec<String> = res
            .summaries
            .iter()
            .map(|&(f, paths, q)| format!("{} ({paths} paths, {q} queries)", program.func(f).name))
            .collect();
        extra.push_str(&format!("  {:<20} {}\n", "VC summaries:", list.join(", ")));
    }
    extra.push_str(&infeasible_text(program, &res));
    if let Some(at) = text.find("  predicted coverage:") {
        text.insert_str(at, &extra);
    }
    if args.json {
        println!("{json}");
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    if !bad.is_empty() {
        for b in &bad {
            eprintln!("error: {b}");
        }
        eprintln!("error: {} valuation(s) of the VC did not replay along their path (a bug: please report)", bad.len());
        return Ok(1);
    }
    Ok(0)
}

/// The suite's JSON with the VC method's fields (`method`, `vc`).
fn vc_json(
    program: &Program,
    suite: &TestSuite,
    res: &CoverResult,
    crit: GenCriterion,
    source: &std::path::Path,
) -> String {
    let mut base = pathwise_emit::json::SuiteJson::from_suite(suite);
    base.criterion = crit.name().into();
    if base.source.is_none() {
        let abs = source.canonicalize().unwrap_or_else(|_| source.into());
        base.source = Some(abs.to_string_lossy().into_owned());
    }
    let infeasible = if res.complete {
        res.uncovered
            .iter()
            .map(|&g| {
                let (function, location, side) = goal_loc(program, g);
                let kind = if side.is_some() { "branch" } else { "statement" }.into();
                pathwise_emit::json_goals::InfeasibleJson { function, kind, location, side }
            })
            .collect()
    } else {
        Vec::new()
    };
    let vc = VcJson {
        criterion: crit.name(),
        queries: res.queries,
        solver_ms: res.solver_time.as_millis() as u64,
        complete: res.complete,
        goals: res.goals.len(),
        infeasible,
        summaries: res
            .summaries
            .iter()
            .map(|&(f, paths, queries)| SummaryJson { function: program.func(f).name.clone(), paths, queries })
            .collect(),
    };
    serde_json::to_string_pretty(&SuiteWithVc { suite: base, method: "vc", vc }).expect("serialisable")
}

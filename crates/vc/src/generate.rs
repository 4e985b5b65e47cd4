//! The VC method end to end (`pathwise gen --method vc`): build the VC of
//! the function under test (with procedure summaries under
//! `Config::compositional`), cover it with Z3, replay each valuation with
//! the engine (`pathwise_engine::replay_models`) into an ordinary test,
//! and check that every replay followed the path the VC chose.
//!
//! Unless `--no-error-search`, the runtime errors are goals too (see
//! [`crate::errors`]): a second VC, with the checks as error sites and
//! every callee inlined, is covered after the paths, and each valuation is
//! replayed expecting its error (an error test only if the replay ends in
//! it). The errors the encoding has no model of are named
//! ([`Generated::not_sought`]) and the cover is then not complete.
//!
//! A valuation whose replay does not follow its path is a bug of one of
//! the two models of C (the VC's or the engine's): it is returned as a
//! disagreement, never dropped silently; the caller decides what it means
//! (the CLI exits with status 1). A complete statement or branch cover
//! also locates the goals no test reaches: infeasible within the bound.

use std::time::Instant;

use pathwise_engine::config::Config;
use pathwise_engine::replay_models::{with_replayer, ModelRun};
use pathwise_expr::ExprPool;
use pathwise_ir::{FuncId, Loc, Program};
use pathwise_solver_z3::{Models, Z3Session};
use pathwise_suite::{PathStep, Stats, StopReason, TestSuite};

use crate::cover::{cover_with, CoverResult, Criterion, Goal};
use crate::errors::{cover_errors, ErrorCover};
use crate::summary::{summarizable, summarize, Summary};
use crate::Options;

/// What [`generate`] found.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The tests of the valuations that replayed along a new path.
    pub suite: TestSuite,
    /// The cover: its goals and valuations, the goals left uncovered and
    /// the functions replaced by summaries.
    pub cover: CoverResult,
    /// The goals no test reaches, located, when the cover is complete
    /// (infeasible within the bound); empty when it stopped early.
    pub infeasible: Vec<LocatedGoal>,
    /// Valuations that gave no test or whose replay took another path
    /// than the VC's (or did not end in the VC's error), one line each.
    pub disagreements: Vec<String>,
    /// The error cover (`None` under `--no-error-search`).
    pub errors: Option<ErrorCover>,
    /// The errors the concolic search seeks here that the VC method does
    /// not (its encoding has no model of them), in words; the stop is then
    /// not `complete`.
    pub not_sought: Vec<String>,
}

/// A statement or branch side of the program, by where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocatedGoal {
    /// The function the goal is in.
    pub function: String,
    /// `file:line:col` of the block's first located instruction, or of the
    /// condition for a branch side.
    pub location: String,
    /// The side, for a branch side; `None` for a statement.
    pub side: Option<bool>,
}

impl LocatedGoal {
    /// Where `goal` is in `program`.
    pub fn new(program: &Program, goal: Goal) -> LocatedGoal {
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
        LocatedGoal { function: fd.name.clone(), location: program.describe_loc(loc), side }
    }

    /// `branch` or `statement` (the JSON's `kind`).
    pub fn kind(&self) -> &'static str {
        if self.side.is_some() {
            "branch"
        } else {
            "statement"
        }
    }
}

/// Build the VC of `config.function` (its precondition, bound, array
/// length, overflow checks, deadline and `compositional` from `config`),
/// cover it by `criterion`, and replay every valuation into a test.
/// Errors: a construct the VC does not model (`file:line:col: unsupported
/// by --method vc: ...`), a function or precondition the engine rejects,
/// or a failed cover.
pub fn generate(program: &Program, config: &Config, criterion: Criterion) -> Result<Generated, String> {
    let start = Instant::now();
    let main = program.func_by_name(&config.function).ok_or_else(|| format!("no function `{}`", config.function))?;
    let pre = config.precondition.as_ref().and_then(|p| program.func_by_name(p));
    let mut opts = Options::new(config.k, config.max_array_len);
    opts.check_overflow = config.check_overflow;
    opts.lengths =
        pathwise_engine::contracts::inferred(program, main, config).into_iter().map(|l| (l.array, l.length)).collect();
    opts.strings = pathwise_engine::contracts::array_contracts(program, main, config)
        .into_iter()
        .filter(|c| c.1 == pathwise_engine::contracts::ArrayContract::String)
        .map(|c| c.0)
        .collect();
    let mut pool = ExprPool::new();
    let deadline = config.timeout.map(|t| start + t);
    let summaries =
        if config.compositional { summaries(&mut pool, program, main, &opts, deadline) } else { Vec::new() };
    let vc = crate::build_vc_with(&mut pool, program, main, pre, &opts, &summaries).map_err(|u| u.describe(program))?;
    // Blocking clauses exclude one path per check: consecutive models may
    // stay close. Enabling clauses want each model to reach as many
    // uncovered goals as it can: diverse models (see `Models`).
    let models = if criterion == Criterion::Paths { Models::Close } else { Models::Diverse };
    let mut session = Z3Session::with_models(&pool, &vc.constraints, models);
    // The error goals' VC: every callee inlined, so that their errors are
    // sought too.
    let evc = match config.seek_errors {
        true => Some(crate::build_vc(&mut pool, program, main, pre, &Options { errors: true, ..opts.clone() })),
        false => None,
    };
    let evc = evc.transpose().map_err(|u| u.describe(program))?;
    // Each valuation is replayed into a test as soon as it is found, so that
    // the deadline bounds the replay too. The VC bounds every loop
    // iteration (see the guide, docs/src/methods.md): replay with the same count, so that the
    // engine agrees on which paths are within k.
    let replay_config = Config { strict_loop_count: true, timeout: None, ..config.clone() };
    let mut not_sought = not_sought(program, main, config);
    not_sought.extend(evc.iter().flat_map(|e| e.unsought.iter().cloned()));
    let ((res, errors), mut suite, runs) = with_replayer(program, &replay_config, &mut pool, |pool, replayer| {
        let res = cover_with(pool, program, &vc, &mut session, (criterion, deadline), &mut |pool, m| {
            replayer.replay(pool, m);
        });
        // The error goals' session starts once the cover is done: a second
        // session made before would change the cover's models (Z3 shares
        // state between them), and with them the cover's size.
        let errors = match (&res, &evc) {
            (Ok(_), Some(evc)) => {
                let mut es = Z3Session::new(pool, &evc.constraints);
                Some(cover_errors(pool, evc, &mut es, deadline, &mut |pool, check, m| {
                    replayer.replay_error(pool, m, (check.kind, check.loc));
                }))
            }
            _ => None,
        };
        let (stats, stop) = match &res {
            Ok(res) => stats_of(res, errors.as_ref(), &not_sought),
            Err(_) => (Default::default(), StopReason::Explored),
        };
        ((res, errors), stats, stop)
    })
    .map_err(|e| e.to_string())?;
    let mut res = res?;
    res.summaries = summaries.iter().map(|s| (s.func, s.paths.len(), s.queries)).collect();
    suite.stats.elapsed_ms = start.elapsed().as_millis() as u64;
    let mut disagreements = disagreements(&res, &runs);
    if let Some(errors) = &errors {
        for (i, ((check, _), run)) in errors.found.iter().zip(&runs[res.paths.len().min(runs.len())..]).enumerate() {
            if let Some(why) = &run.failure {
                let at = program.describe_loc(check.loc);
                disagreements.push(format!("error valuation {} ({:?} at {at}): {why}", i + 1, check.kind));
            }
        }
    }
    let infeasible =
        if res.complete { res.uncovered.iter().map(|&g| LocatedGoal::new(program, g)).collect() } else { Vec::new() };
    Ok(Generated { suite, cover: res, infeasible, disagreements, errors, not_sought })
}

/// The errors the concolic search seeks in `main` under `config` that the
/// VC's encoding has no model of (see the guide's docs/src/methods.md).
/// The input arrays are never null in the VC: under `--null-args errors`
/// the null dereferences of pointer parameters are not sought.
pub fn not_sought(program: &Program, main: FuncId, config: &Config) -> Vec<String> {
    if !config.seek_errors {
        return vec!["runtime errors (--no-error-search)".into()];
    }
    let f = program.func(main);
    let mut out = Vec::new();
    let pointers: Vec<&str> =
        f.params.iter().filter(|p| p.ty == pathwise_ir::Type::Ptr).map(|p| p.src.name.as_str()).collect();
    if config.null_args == pathwise_engine::config::NullArgs::Errors && !pointers.is_empty() {
        out.push(format!("null dereferences of pointer parameters ({})", pointers.join(", ")));
    }
    out
}

/// The suite's statistics and stop reason for a cover and its error
/// cover: complete only if both are, and every error is sought.
fn stats_of(res: &CoverResult, errors: Option<&ErrorCover>, not_sought: &[String]) -> (Stats, StopReason) {
    let mut stats = Stats { solver_calls: res.queries, ..Default::default() };
    stats.solver_ms = res.solver_time.as_millis() as u64;
    let (mut complete, mut stopped) = (res.complete, res.stopped.clone());
    if let Some(e) = errors {
        stats.solver_calls += e.queries;
        stats.solver_ms += e.solver_time.as_millis() as u64;
        if complete && !e.complete {
            (complete, stopped) = (false, e.stopped.clone());
        }
    }
    let stop = match &stopped {
        _ if complete && !not_sought.is_empty() => StopReason::Explored,
        _ if complete => StopReason::Complete,
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

/// Replay disagreements: models that gave no test, or whose path differs
/// from the VC's.
fn disagreements(res: &CoverResult, runs: &[ModelRun]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, (run, want)) in runs.iter().zip(&res.paths).enumerate() {
        let got: Vec<(String, Loc, bool)> =
            run.path.iter().map(|s: &PathStep| (s.func.to_string(), s.loc, s.taken)).collect();
        let want: Vec<(String, Loc, bool)> = want.iter().map(|d| (d.func.clone(), d.loc, d.taken)).collect();
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

/// The summaries of `Config::compositional` (seed 001, section 6): every
/// callee the function under test reaches through inlined code that can
/// be summarised ([`summarizable`]) is summarised by its own path cover;
/// the others are inlined (and their callees looked at).
fn summaries(
    pool: &mut ExprPool,
    program: &Program,
    main: FuncId,
    opts: &Options,
    deadline: Option<Instant>,
) -> Vec<Summary> {
    let cg = pathwise_ir::analysis::CallGraph::compute(program);
    let mut out: Vec<Summary> = Vec::new();
    let mut seen = vec![main];
    let mut work = vec![main];
    while let Some(f) = work.pop() {
        for g in cg.callees(f) {
            if seen.contains(&g) || program.func(g).is_declaration() {
                continue;
            }
            seen.push(g);
            let summary = summarizable(program, &cg, g).ok().and_then(|()| {
                let vc = crate::build_vc(pool, program, g, None, opts).ok()?;
                let mut session = Z3Session::new(pool, &vc.constraints);
                summarize(pool, program, &vc, &mut session, MAX_SUMMARY_PATHS, deadline).ok()?
            });
            match summary {
                Some(s) => out.push(s),
                None => work.push(g),
            }
        }
    }
    out
}

/// The infeasible-code lines of a run's summary: the located goals of a
/// complete cover, or why none are reported.
pub fn infeasible_text(generated: &Generated) -> String {
    let res = &generated.cover;
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
    for g in &generated.infeasible {
        out.push_str(&infeasible_line(&g.function, &g.location, g.side));
    }
    out
}

/// One infeasible statement or branch side of a summary (the concolic
/// method's covers report theirs with the same line).
pub fn infeasible_line(function: &str, at: &str, side: Option<bool>) -> String {
    match side {
        Some(s) => format!("    {function}: branch at {at}, {} side\n", if s { "true" } else { "false" }),
        None => format!("    {function}: statement at {at}\n"),
    }
}

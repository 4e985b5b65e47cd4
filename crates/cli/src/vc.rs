//! `pathwise gen --method vc`: tests from the reachability verification
//! condition (seed 001) instead of the concolic search. The method itself
//! (the VC, its cover, the replay of the valuations into tests, the
//! disagreements and the infeasible goals) is `pathwise_vc::generate`;
//! this module is its command-line glue: the criterion, the output files,
//! the JSON's `method` and `vc` fields, the summary's lines, and exit
//! status 1 (after writing the tests that did agree) when a valuation did
//! not replay along its path.

use anyhow::{bail, Result};
use pathwise_engine::config::{Config, Criterion};
use pathwise_engine::suite::TestSuite;
use pathwise_ir::Program;
use pathwise_vc::{CoverResult, Generated};
use serde::Serialize;

// Named here too: the VC method's tests call `generate` with it.
pub use crate::criterion::GenCriterion;
use crate::gen::GenArgs;

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
    /// The error cover: runtime errors as goals.
    errors: ErrorsJson,
}

/// `vc.errors`: which runtime errors were sought and what became of them.
#[derive(Serialize)]
struct ErrorsJson {
    /// The checks were goals (false under `--no-error-search`).
    sought: bool,
    /// Every check was decided: an error test, or no input fails it
    /// within the bound.
    complete: bool,
    queries: u64,
    /// The checks that can fail in the unwound function (kind, location).
    goals: usize,
    found: Vec<CheckJson>,
    /// The checks no input fails within the bound (when `complete`).
    absent: Vec<CheckJson>,
    /// The errors the concolic search seeks here that `--method vc` does
    /// not: the stop is then `explored`, never `complete`.
    not_sought: Vec<String>,
}

#[derive(Serialize)]
struct CheckJson {
    kind: &'static str,
    location: String,
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

/// The VC method's cover for `criterion`; the others are errors.
fn vc_criterion(criterion: GenCriterion) -> Result<pathwise_vc::Criterion> {
    Ok(match criterion {
        GenCriterion::Engine(Criterion::KPath) => pathwise_vc::Criterion::Paths,
        GenCriterion::Statements => pathwise_vc::Criterion::Statements,
        GenCriterion::Branches => pathwise_vc::Criterion::Branches,
        GenCriterion::Engine(_) | GenCriterion::LocalPaths => {
            bail!("--method vc does not support --criterion {}", criterion.name())
        }
    })
}

/// [`pathwise_vc::generate`] for a `--criterion`: the suite, the cover and
/// the disagreements.
pub fn generate(
    program: &Program,
    config: &Config,
    criterion: GenCriterion,
) -> Result<(TestSuite, CoverResult, Vec<String>)> {
    let Generated { suite, cover, disagreements, .. } =
        pathwise_vc::generate(program, config, vc_criterion(criterion)?).map_err(anyhow::Error::msg)?;
    Ok((suite, cover, disagreements))
}

/// `gen --method vc`: returns the exit code.
pub fn run(args: &GenArgs, program: &Program, config: Config) -> Result<i32> {
    let generated =
        pathwise_vc::generate(program, &config, vc_criterion(args.criterion)?).map_err(anyhow::Error::msg)?;
    let Generated { suite, cover: res, disagreements: bad, .. } = &generated;
    let written = crate::gen::write_outputs(suite, &args.file, args.build_flags(), &args.out)?;
    let json = vc_json(program, &generated, args.criterion, (&args.file, &args.out));
    std::fs::write(&written.json_file, format!("{json}\n"))?;
    let mut text = crate::gen::summary(suite, &written, args);
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
    extra.push_str(&pathwise_vc::generate::infeasible_text(&generated));
    extra.push_str(&errors_text(program, &generated));
    if !generated.not_sought.is_empty() {
        // The stop line: never "complete" for the errors not sought.
        let stop = crate::gen::stop_text(suite);
        let line = format!("complete for the paths and the errors sought; {}", not_sought_words(&generated));
        text = text.replacen(&stop, &line, 1);
    }
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
        for b in bad {
            eprintln!("error: {b}");
        }
        eprintln!("error: {} valuation(s) of the VC did not replay along their path (a bug: please report)", bad.len());
        return Ok(crate::exit::FAILED);
    }
    Ok(crate::exit::for_suite(suite, args.fail_on))
}

/// `errors not sought by --method vc: ...; use --method concolic`.
fn not_sought_words(generated: &Generated) -> String {
    format!("errors not sought by --method vc: {}; use --method concolic", generated.not_sought.join(", "))
}

/// The summary's lines of the error cover.
fn errors_text(program: &Program, generated: &Generated) -> String {
    let mut out = String::new();
    if let Some(e) = &generated.errors {
        let decided = if e.complete {
            format!("{} cannot fail within the bound", e.absent.len())
        } else {
            format!("the others undecided ({})", e.stopped.as_deref().unwrap_or("?"))
        };
        out.push_str(&format!(
            "  {:<20} {} checks: {} error(s) found, {decided} ({} queries)\n",
            "VC error goals:",
            e.goals.len(),
            e.found.len(),
            e.queries
        ));
        for (c, _) in &e.found {
            out.push_str(&format!("    {} at {}\n", c.kind.name(), program.describe_loc(c.loc)));
        }
    }
    if !generated.not_sought.is_empty() {
        out.push_str(&format!("  {:<20} {}\n", "errors not sought:", not_sought_words(generated)));
    }
    out
}

/// The suite's JSON with the VC method's fields (`method`, `vc`).
fn vc_json(
    program: &Program,
    generated: &Generated,
    crit: GenCriterion,
    (source, out): (&std::path::Path, &std::path::Path),
) -> String {
    let res = &generated.cover;
    let mut base = pathwise_emit::json::SuiteJson::from_suite(&generated.suite);
    base.criterion = crit.name().into();
    if base.source.is_none() {
        // As `gen` records it: relative to the output directory.
        base.source = Some(crate::gen::relative_to(source, out).to_string_lossy().into_owned());
    }
    let infeasible = generated
        .infeasible
        .iter()
        .map(|g| pathwise_emit::json_goals::InfeasibleJson {
            function: g.function.clone(),
            kind: g.kind().into(),
            location: g.location.clone(),
            side: g.side,
        })
        .collect();
    let check = |c: &pathwise_vc::Check| CheckJson { kind: c.kind.name(), location: program.describe_loc(c.loc) };
    let e = generated.errors.as_ref();
    let errors = ErrorsJson {
        sought: e.is_some(),
        complete: e.is_some_and(|e| e.complete),
        queries: e.map_or(0, |e| e.queries),
        goals: e.map_or(0, |e| e.goals.len()),
        found: e.map_or(Vec::new(), |e| e.found.iter().map(|(c, _)| check(c)).collect()),
        absent: e.filter(|e| e.complete).map_or(Vec::new(), |e| e.absent.iter().map(check).collect()),
        not_sought: generated.not_sought.clone(),
    };
    if !generated.not_sought.is_empty() {
        base.stop_detail = Some(not_sought_words(generated));
    }
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
        errors,
    };
    serde_json::to_string_pretty(&SuiteWithVc { suite: base, method: "vc", vc }).expect("serialisable")
}

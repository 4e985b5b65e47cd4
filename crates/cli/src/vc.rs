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

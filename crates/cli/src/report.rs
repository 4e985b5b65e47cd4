//! `pathwise report DIR`: the reports people look at, made from the suites
//! `pathwise gen --out DIR` wrote (every `NAME_tests.json` of DIR, as
//! `replay` finds them), without building or running anything.
//!
//! - `--html FILE` (the default, `DIR/report.html`, when no output is
//!   asked for): the self-contained HTML report
//!   (`pathwise_emit::report_html`), with the source files the suites
//!   name, read from disk (`sources.rs` finds them).
//! - `--sarif FILE`: the error tests as a SARIF 2.1.0 log
//!   (`pathwise_emit::sarif`), files named relative to the current
//!   directory, for GitHub code scanning.
//!
//! DIR may also be a `pathwise project` (or `merge`) output: the suites
//! its `index.json` lists, and the functions it could not test, with why.
//!
//! A missing directory, one without suites, or a JSON file that is not a
//! suite is bad input (exit status 2), and nothing is written.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use pathwise_emit::json::SuiteJson;
use pathwise_emit::report_html::{html_report, ReportSuite, SourceFile, Untested};
use pathwise_emit::sarif::sarif_log;

use crate::replay::{find_suites, infeasible_entries};
use crate::sources::{uri_of, Resolver};

/// Options of `pathwise report`.
#[derive(clap::Args, Debug, Clone)]
pub struct ReportArgs {
    /// Directory written by `pathwise gen --out` (its NAME_tests.json files) or by
    /// `pathwise project`/`merge` (the suites its index.json lists).
    pub dir: PathBuf,
    /// Write the HTML report here (default without --sarif: DIR/report.html).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write the error tests as a SARIF 2.1.0 log here.
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
}

/// One suite of the directory, read.
struct Loaded {
    json_file: String,
    suite: SuiteJson,
    text: String,
    resolver: Resolver,
}

/// Every suite of `dir`, by name; or, in a `pathwise project` output (its
/// `index.json`), every suite the index lists, in its order, and the
/// functions without one with why.
fn load(dir: &Path) -> Result<(Vec<Loaded>, Vec<Untested>)> {
    if dir.join(crate::project::index::FILE).is_file() {
        return load_index(dir);
    }
    let mut out = Vec::new();
    for files in find_suites(dir)? {
        out.push(load_one(dir, &files.json_file, format!("{}_tests.json", files.name))?);
    }
    Ok((out, Vec::new()))
}

/// The suite in `json_path` (of a `gen` output directory `dir`), shown
/// as `json_file`.
fn load_one(dir: &Path, json_path: &Path, json_file: String) -> Result<Loaded> {
    let text = std::fs::read_to_string(json_path).with_context(|| format!("cannot read {}", json_path.display()))?;
    let suite: SuiteJson = pathwise_emit::suite_from_json_str(&text)
        .with_context(|| format!("{} is not a Pathwise test suite", json_path.display()))?;
    let resolver = Resolver::new(dir, suite.source.as_deref());
    Ok(Loaded { json_file, suite, text, resolver })
}

fn load_index(dir: &Path) -> Result<(Vec<Loaded>, Vec<Untested>)> {
    let index = crate::project::index::Index::load(dir)?;
    let (mut loaded, mut untested) = (Vec::new(), Vec::new());
    for e in &index.functions {
        match &e.suite {
            Some(suite) => loaded.push(load_one(&dir.join(&e.dir), &dir.join(suite), suite.clone())?),
            None => untested.push(Untested {
                function: format!("{}:{}", e.file, e.function),
                reason: e.reason.clone().unwrap_or_else(|| "no suite".into()),
            }),
        }
    }
    if loaded.is_empty() && untested.is_empty() {
        anyhow::bail!("the index in {} lists no function", dir.display());
    }
    Ok((loaded, untested))
}

/// The files a suite's report shows: the function under test's first
/// (empty name: the suite's source, for suites whose coverage names no
/// file), then every other file its coverage and locations name, sorted.
fn source_names(suite: &SuiteJson) -> Vec<String> {
    let fut = suite.coverage.functions.iter().find(|f| f.name == suite.function);
    let first = fut.and_then(|f| f.file.clone()).unwrap_or_default();
    let mut others = BTreeSet::new();
    others.extend(suite.coverage.functions.iter().map(|f| f.file.clone().unwrap_or_default()));
    for t in &suite.tests {
        others.extend(t.error.iter().map(|e| e.file.clone()));
        others.extend(t.path.iter().map(|s| s.file.to_string()));
    }
    others.remove(&first);
    std::iter::once(first).chain(others).collect()
}

fn report_suite(l: &Loaded) -> ReportSuite {
    let sources = source_names(&l.suite)
        .into_iter()
        .map(|name| {
            let text = match l.resolver.resolve(&name) {
                Some(path) => std::fs::read(&path)
                    .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                    .map_err(|e| format!("cannot read {}: {e}", path.display())),
                None if name.is_empty() => Err("the suite names no source file that exists".to_string()),
                None => Err(format!("{name} not found")),
            };
            let shown = if name.is_empty() && text.is_err() { "source".to_string() } else { l.resolver.shown(&name) };
            SourceFile { name, shown, text }
        })
        .collect();
    ReportSuite {
        json_file: l.json_file.clone(),
        suite: l.suite.clone(),
        infeasible: infeasible_entries(&l.text),
        sources,
    }
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Run `pathwise report`; returns the exit code.
pub fn run(args: &ReportArgs) -> Result<i32> {
    let (loaded, untested) = load(&args.dir)?;
    let html = args.html.clone().or_else(|| args.sarif.is_none().then(|| args.dir.join("report.html")));
    if let Some(path) = &html {
        let suites: Vec<ReportSuite> = loaded.iter().map(report_suite).collect();
        write(path, &html_report(&args.dir.display().to_string(), &suites, &untested))?;
        let not = if untested.is_empty() { String::new() } else { format!(", {} not tested", untested.len()) };
        println!("HTML report: {} ({} function(s){not})", path.display(), suites.len());
    }
    if let Some(path) = &args.sarif {
        let suites: Vec<SuiteJson> = loaded.iter().map(|l| l.suite.clone()).collect();
        // Each suite names files relative to its own `gen` run.
        let uri = |i: usize, name: &str| uri_of(&loaded[i].resolver.shown(name));
        let log = sarif_log(&suites, &uri, env!("CARGO_PKG_VERSION"));
        let results = log["runs"][0]["results"].as_array().map_or(0, Vec::len);
        write(path, &(serde_json::to_string_pretty(&log).expect("a JSON value") + "\n"))?;
        println!("SARIF: {} ({results} result(s))", path.display());
    }
    Ok(crate::exit::COMPLETE)
}

//! Benchmark: the float programs of the repository (issue 26) — per
//! program, the tests, solver calls, queries with floats and the solver's
//! time on them, the run's own time and the wall-clock time.
//!
//!     cargo bench -p pathwise-cli --bench floats [-- NAME... --timeout S]
//!
//! Programs: every function of tests/c/float_paths.c (`gen --k 1`, as
//! crates/cli/tests/float_paths.rs runs them) and of tests/c/floats.c
//! (`gen --k 2`, `scale_hist` at 3, as crates/cli/tests/floats.rs), and
//! tests/testcomp/tc_float.c (`testcomp`, coverage-branches). Names select
//! programs by substring. `--timeout S` passes a time limit to every run
//! (default none: each run decides every query, as the tests do; with a
//! limit, a query with floats gets a tenth of it, see `gen::float_budget`).
//!
//! Figures come from each run's summary: `tests`, `solver calls`, `float
//! queries: F of N solver calls, A of B ms` (F and A; 0 when the run asked
//! none) and `time` (the run's own, without the process start and the C
//! front end, which the wall-clock time includes). Ends with the totals.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One program to run: a label and the arguments after `pathwise`.
struct Program {
    label: String,
    args: Vec<String>,
}

/// What one run reported.
#[derive(Default)]
struct Figures {
    tests: u64,
    solver_calls: u64,
    float_queries: u64,
    /// Float queries answered by the search before the solver.
    searched: u64,
    float_ms: u64,
    run_ms: u64,
    wall_ms: u64,
    stop: String,
}

fn programs(out: &Path) -> Vec<Program> {
    let mut v = Vec::new();
    // `newton_step` is left out: without a time limit it takes minutes.
    let float_paths =
        ["close_enough", "quadratic", "newton_sqrt", "clamp_to_int", "nan_max", "classify", "to_int", "bounded"];
    for f in float_paths {
        v.push(gen("tests/c/float_paths.c", f, 1, out));
    }
    let floats = [
        ("halves", 2),
        ("conversions", 2),
        ("nan_checks", 2),
        ("specials", 2),
        ("average", 2),
        ("fields", 2),
        ("scale_hist", 3),
        ("classify", 2),
        ("quiet_compare", 2),
    ];
    for (f, k) in floats {
        v.push(gen("tests/c/floats.c", f, k, out));
    }
    let prp = root().join("tests/testcomp/coverage-branches.prp");
    v.push(Program {
        label: "tc_float.c (testcomp)".into(),
        args: vec![
            "testcomp".into(),
            "tests/testcomp/tc_float.c".into(),
            "--property".into(),
            prp.display().to_string(),
            "--out".into(),
            out.join("tc_float").display().to_string(),
        ],
    });
    v
}

fn gen(file: &str, function: &str, k: u32, out: &Path) -> Program {
    let name = Path::new(file).file_name().unwrap().to_string_lossy().into_owned();
    Program {
        label: format!("{name} {function}"),
        args: vec![
            "gen".into(),
            file.into(),
            "--function".into(),
            function.into(),
            "--k".into(),
            k.to_string(),
            "--out".into(),
            out.join(format!("{name}_{function}")).display().to_string(),
        ],
    }
}

/// The number after `label` on the summary's line that has it.
fn number_after(out: &str, label: &str) -> Option<u64> {
    let line = out.lines().find_map(|l| l.split_once(label).map(|(_, rest)| rest))?;
    line.split_whitespace().next()?.parse().ok()
}

fn run(p: &Program, timeout: Option<&str>) -> Figures {
    let start = Instant::now();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pathwise"));
    cmd.args(&p.args).current_dir(root());
    if let Some(t) = timeout {
        cmd.args(["--timeout", t]);
    }
    let o = cmd.output().expect("pathwise runs");
    let wall_ms = start.elapsed().as_millis() as u64;
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    // `gen`: "  tests:   N"; `testcomp`: "pathwise testcomp: N tests".
    let tests = number_after(&out, "tests:").or_else(|| number_after(&out, "pathwise testcomp:")).unwrap_or(0);
    let float_line = out.lines().find_map(|l| l.split_once("float queries:").map(|(_, r)| r.to_string()));
    // "F of N solver calls, A of B ms, S answered by search"
    let words: Vec<u64> =
        float_line.map_or(Vec::new(), |l| l.split_whitespace().filter_map(|w| w.parse().ok()).collect());
    let (float_queries, all_calls, float_ms) =
        (words.first().copied().unwrap_or(0), words.get(1).copied(), words.get(2).copied().unwrap_or(0));
    let secs: f64 = out
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("time:"))
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    let stop = out.lines().find_map(|l| l.trim_start().strip_prefix("stop:")).unwrap_or("?").trim();
    let stop = stop.split_whitespace().next().unwrap_or("?").trim_end_matches(':').to_string();
    Figures {
        tests,
        // testcomp prints no solver calls: the float line's total has them.
        solver_calls: number_after(&out, "solver calls:").or(all_calls).unwrap_or(0),
        float_queries,
        searched: words.get(4).copied().unwrap_or(0),
        float_ms,
        run_ms: (secs * 1000.0).round() as u64,
        wall_ms,
        stop,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let timeout = args.iter().position(|a| a == "--timeout").and_then(|i| args.get(i + 1)).cloned();
    let names: Vec<&String> = args.iter().filter(|a| !a.starts_with("--") && Some(*a) != timeout.as_ref()).collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let selected: Vec<Program> = programs(dir.path())
        .into_iter()
        .filter(|p| names.is_empty() || names.iter().any(|n| p.label.contains(n.as_str())))
        .collect();
    println!(
        "pathwise on the float programs, bench profile{}",
        timeout.as_deref().map_or(String::new(), |t| format!(", --timeout {t}"))
    );
    println!(
        "{:<30} {:>5} {:>7} {:>7} {:>8} {:>9} {:>9} {:>9}  {}",
        "program", "tests", "solver", "float q", "searched", "float ms", "total ms", "wall ms", "stop"
    );
    let mut sum = Figures::default();
    for p in &selected {
        let f = run(p, timeout.as_deref());
        println!(
            "{:<30} {:>5} {:>7} {:>7} {:>8} {:>9} {:>9} {:>9}  {}",
            p.label, f.tests, f.solver_calls, f.float_queries, f.searched, f.float_ms, f.run_ms, f.wall_ms, f.stop
        );
        sum.tests += f.tests;
        sum.solver_calls += f.solver_calls;
        sum.float_queries += f.float_queries;
        sum.searched += f.searched;
        sum.float_ms += f.float_ms;
        sum.run_ms += f.run_ms;
        sum.wall_ms += f.wall_ms;
    }
    println!(
        "{:<30} {:>5} {:>7} {:>7} {:>8} {:>9} {:>9} {:>9}",
        format!("total ({} programs)", selected.len()),
        sum.tests,
        sum.solver_calls,
        sum.float_queries,
        sum.searched,
        sum.float_ms,
        sum.run_ms,
        sum.wall_ms
    );
}

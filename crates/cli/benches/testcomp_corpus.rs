//! Benchmark: `pathwise testcomp` on every program of tests/testcomp under
//! both data models — tests, branch coverage (pathwise's prediction over
//! gcc-style branches, and TestCov's goals when TestCov is installed),
//! reach_error for Cover-Error programs, and wall-clock time.
//!
//! Run with `cargo bench -p pathwise-cli --bench testcomp_corpus [-- NAME...]`
//! (names select programs by substring; `--no-testcov` skips TestCov). The
//! time is the `pathwise` process's (front end with `gcc -E`, search,
//! writing the suite), not TestCov's. Ends with one summary line per data
//! model, e.g. `corpus LP64: 14 programs, 105 tests, branches 190/197
//! covered, 0.41 s`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/testcomp")
}

/// What one `pathwise testcomp` run reported.
struct Run {
    tests: u64,
    covered: u64,
    branches: u64,
    reached: Option<bool>,
    secs: f64,
}

/// TestCov's measurement: goals covered, goals, verdict.
struct Measured {
    covered: u64,
    goals: u64,
    verdict: String,
}

fn field<'a>(out: &'a str, name: &str) -> Option<&'a str> {
    out.lines().find_map(|l| l.trim_start().strip_prefix(name)).map(str::trim)
}

fn run_pathwise(program: &Path, prp: &Path, model: &str, dir: &Path) -> Run {
    let start = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .arg("testcomp")
        .arg(program)
        .arg("--property")
        .arg(prp)
        .args(["--timeout", "60", "--data-model", model, "--out"])
        .arg(dir)
        .output()
        .expect("pathwise runs");
    let secs = start.elapsed().as_secs_f64();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{}: {}", program.display(), String::from_utf8_lossy(&o.stderr));
    let tests = out.split_whitespace().nth(2).and_then(|t| t.parse().ok()).expect("test count");
    let cov = field(&out, "branches covered:").expect("branches").split_whitespace().next().unwrap();
    let (covered, branches) = cov.split_once('/').expect("a/b");
    let reached = field(&out, "reach_error:").map(|r| r.starts_with("reached"));
    Run { tests, covered: covered.parse().unwrap(), branches: branches.parse().unwrap(), reached, secs }
}

fn run_testcov(program: &Path, prp: &Path, model: &str, zip: &Path) -> Option<Measured> {
    let work = tempfile::tempdir().ok()?;
    let copy = work.path().join(program.file_name()?);
    std::fs::copy(program, &copy).ok()?;
    let mut cmd = Command::new("testcov");
    cmd.args(["--no-isolation", "--no-plots"]);
    if model == "LP64" {
        cmd.arg("-64");
    }
    let o = cmd
        .arg("--goal")
        .arg(prp)
        .arg("--test-suite")
        .arg(zip)
        .args(["--output", "out"])
        .arg(&copy)
        .current_dir(work.path())
        .output()
        .ok()?;
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let goals: u64 = field(&out, "Number of goals:")?.parse().ok()?;
    let pct: f64 = field(&out, "Coverage:")?.trim_end_matches('%').parse().ok()?;
    let verdict = field(&out, "Result:")?.to_string();
    Some(Measured { covered: (pct * goals as f64 / 100.0).round() as u64, goals, verdict })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let no_testcov = args.iter().any(|a| a == "--no-testcov");
    let names: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let with_testcov =
        !no_testcov && Command::new("testcov").arg("--version").output().is_ok_and(|o| o.status.success());
    let mut programs: Vec<PathBuf> = std::fs::read_dir(corpus())
        .expect("corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .filter(|p| names.is_empty() || names.iter().any(|n| p.to_string_lossy().contains(n.as_str())))
        .collect();
    programs.sort();
    println!("pathwise testcomp on tests/testcomp, bench profile; time = the pathwise process");
    if !with_testcov {
        println!("(TestCov not measured: {})", if no_testcov { "--no-testcov" } else { "not installed" });
    }
    for model in ["LP64", "ILP32"] {
        bench_model(&programs, model, with_testcov);
    }
}

fn bench_model(programs: &[PathBuf], model: &str, with_testcov: bool) {
    println!(
        "{:<24} {:>5} {:>6} {:>9} {:>13} {:>9} {:>8}",
        model, "tests", "error", "branches", "TestCov goals", "verdict", "time s"
    );
    let (mut tests, mut covered, mut branches, mut secs) = (0, 0, 0, 0.0);
    let (mut goals_covered, mut goals) = (0, 0);
    for program in programs {
        let text = std::fs::read_to_string(program).expect("program");
        let error_call = text.contains("// property: coverage-error-call.prp");
        let prp = corpus().join(if error_call { "coverage-error-call.prp" } else { "coverage-branches.prp" });
        let dir = tempfile::tempdir().expect("tempdir");
        let suite = dir.path().join("suite");
        let r = run_pathwise(program, &prp, model, &suite);
        let m = if with_testcov { run_testcov(program, &prp, model, &suite.join("test-suite.zip")) } else { None };
        let error = match r.reached {
            Some(true) => "yes",
            Some(false) => "no",
            None => "-",
        };
        let (tc, verdict) = match &m {
            Some(m) => (format!("{}/{}", m.covered, m.goals), m.verdict.as_str()),
            None => ("-".to_string(), "-"),
        };
        let name = program.file_name().unwrap().to_string_lossy();
        let cov = format!("{}/{}", r.covered, r.branches);
        println!("{name:<24} {:>5} {error:>6} {cov:>9} {tc:>13} {verdict:>9} {:>8.2}", r.tests, r.secs);
        tests += r.tests;
        covered += r.covered;
        branches += r.branches;
        secs += r.secs;
        if let Some(m) = m {
            goals_covered += m.covered;
            goals += m.goals;
        }
    }
    let testcov = if with_testcov { format!(", TestCov goals {goals_covered}/{goals}") } else { String::new() };
    println!(
        "corpus {model}: {} programs, {tests} tests, branches {covered}/{branches} covered{testcov}, {secs:.2} s",
        programs.len()
    );
}

//! `pathwise testcomp` on the corpus of tests/testcomp: whole programs in
//! the sv-benchmarks style, each with a header stating its property, whether
//! reach_error is reachable, and its branch counts (gcc's and TestCov's) with
//! how many are coverable.
//!
//! Checked for every program: the suite's predicted branch coverage equals
//! gcc's count of feasible branches (Cover-Branches), reach_error is
//! reported reached exactly when it is reachable (Cover-Error), and no two
//! tests have the same inputs (the same execution twice). Where
//! TestCov is installed (`.ci/testcov-setup.sh`), it validates each suite:
//! it must run every test written (it silently skips malformed files), cover
//! every coverable goal, and say TRUE for Cover-Error exactly when
//! reach_error is reachable.
//!
//! Every program runs under both data models: LP64 (`--data-model LP64`,
//! TestCov's `-64`) and ILP32 (`--data-model ILP32`, TestCov's default
//! `-m32`), one test function each so that they run in parallel. The
//! headers state the same figures for both; `tc_data_model.c` reaches them
//! with different inputs under each (a suite for one model misses goals
//! under the other).
//!
//! A program whose header has a `// pathwise: covers G gcov branches, T
//! TestCov goals` line (none now: `tc_float.c` had one, 11 and 9, while
//! floating inputs were concretised; it reaches 16 and 13 with symbolic
//! floats) is held to exactly those figures instead of the feasible ones.

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/testcomp")
}

/// A number after `key` on the header line starting with `// {line}:`.
fn header_number(text: &str, line: &str, key: &str) -> u64 {
    let l = text.lines().find(|l| l.starts_with(&format!("// {line}:"))).unwrap_or_else(|| panic!("no `{line}` line"));
    let rest = &l[l.find(key).unwrap_or_else(|| panic!("no `{key}` in {l}")) + key.len()..];
    rest.trim_start().split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
}

struct Expect {
    error_call: bool,
    reachable: bool,
    gcc_branches: u64,
    gcc_feasible: u64,
    testcov_coverable: u64,
}

/// What Pathwise itself reaches, when the header says it is less than the
/// feasible figures: (gcov branches, TestCov goals).
fn pathwise_figures(text: &str) -> Option<(u64, u64)> {
    text.lines().find(|l| l.starts_with("// pathwise:"))?;
    Some((header_number(text, "pathwise", "covers"), header_number(text, "pathwise", "branches,")))
}

fn expectations(text: &str) -> Expect {
    let gcc_line = text.lines().find(|l| l.starts_with("// gcov-branches:")).unwrap();
    let gcc_branches = header_number(text, "gcov-branches", "gcov-branches:");
    // "coverable" there may mean "measurable by TestCov" while all are feasible.
    let gcc_feasible =
        if gcc_line.contains("infeasible") { header_number(text, "gcov-branches", "coverable:") } else { gcc_branches };
    Expect {
        error_call: text.contains("// property: coverage-error-call.prp"),
        reachable: text.contains("// reach_error: reachable"),
        gcc_branches,
        gcc_feasible: pathwise_figures(text).map_or(gcc_feasible, |(g, _)| g),
        testcov_coverable: pathwise_figures(text)
            .map_or_else(|| header_number(text, "testcov-goals", "coverable:"), |(_, t)| t),
    }
}

fn testcov_available() -> bool {
    Command::new("testcov").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// The data models of sv-benchmarks: pathwise's `--data-model` value and
/// TestCov's flag for it (none for ILP32: `-m32` is TestCov's default).
#[derive(Copy, Clone)]
enum Model {
    Lp64,
    Ilp32,
}

impl Model {
    fn arg(self) -> &'static str {
        match self {
            Model::Lp64 => "LP64",
            Model::Ilp32 => "ILP32",
        }
    }

    fn testcov_flags(self) -> &'static [&'static str] {
        match self {
            Model::Lp64 => &["-64"],
            Model::Ilp32 => &[],
        }
    }
}

/// Run TestCov on `program` with the suite zip; returns its stdout.
fn testcov(program: &Path, property: &Path, zip: &Path, model: Model) -> String {
    let work = tempfile::tempdir().unwrap();
    let copy = work.path().join(program.file_name().unwrap());
    std::fs::copy(program, &copy).unwrap();
    let o = Command::new("testcov")
        .args(["--no-isolation", "--no-plots"])
        .args(model.testcov_flags())
        .arg("--goal")
        .arg(property)
        .arg("--test-suite")
        .arg(zip)
        .args(["--output", "out"])
        .arg(&copy)
        .current_dir(work.path())
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn field<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).unwrap_or_else(|| panic!("no `{name}` in:\n{out}"))
}

#[test]
fn corpus_suites_cover_what_the_headers_state_lp64() {
    check_corpus(Model::Lp64);
}

#[test]
fn corpus_suites_cover_what_the_headers_state_ilp32() {
    check_corpus(Model::Ilp32);
}

fn check_corpus(model: Model) {
    let with_testcov = testcov_available();
    if !with_testcov {
        eprintln!("note: testcov not installed (.ci/testcov-setup.sh): suites not validated by TestCov");
    }
    let mut programs: Vec<PathBuf> = std::fs::read_dir(corpus())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    programs.sort();
    assert!(programs.len() >= 14);
    for program in programs {
        let text = std::fs::read_to_string(&program).unwrap();
        let want = expectations(&text);
        let prp = corpus().join(if want.error_call { "coverage-error-call.prp" } else { "coverage-branches.prp" });
        let out = tempfile::tempdir().unwrap();
        let dir = out.path().join("suite");
        let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
            .arg("testcomp")
            .arg(&program)
            .arg("--property")
            .arg(&prp)
            .args(["--timeout", "60", "--data-model", model.arg(), "--out"])
            .arg(&dir)
            .output()
            .unwrap();
        let name = format!("{} ({})", program.file_name().unwrap().to_string_lossy(), model.arg());
        let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
        assert_eq!(o.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let inputs: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_name().to_string_lossy().starts_with("testcase-"))
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .map(|t| t.lines().filter(|l| l.contains("<input")).collect::<Vec<_>>().join(" "))
            .collect();
        let written = inputs.len();
        assert!(written > 0, "{name}: no tests");
        let distinct: std::collections::BTreeSet<&String> = inputs.iter().collect();
        assert_eq!(distinct.len(), written, "{name}: two tests with the same inputs");
        if want.error_call {
            let reached = stdout.contains("reached (coversError)");
            assert_eq!(reached, want.reachable, "{name}:\n{stdout}");
        } else {
            let covered = format!("{}/{}", want.gcc_feasible, want.gcc_branches);
            assert!(stdout.contains(&format!("branches covered:   {covered} ")), "{name}: want {covered}\n{stdout}");
        }
        if !with_testcov {
            continue;
        }
        let report = testcov(&program, &prp, &dir.join("test-suite.zip"), model);
        assert_eq!(field(&report, "Tests in suite:"), written.to_string(), "{name}: TestCov skipped tests\n{report}");
        if want.error_call {
            let verdict = field(&report, "Result:");
            assert_eq!(verdict == "TRUE", want.reachable, "{name}: TestCov says {verdict}\n{report}");
        } else {
            let goals: f64 = field(&report, "Number of goals:").parse().unwrap();
            let pct: f64 = field(&report, "Coverage:").trim_end_matches('%').parse().unwrap();
            let covered = (pct * goals / 100.0).round() as u64;
            assert_eq!(covered, want.testcov_coverable, "{name}: TestCov coverage\n{report}");
        }
    }
}

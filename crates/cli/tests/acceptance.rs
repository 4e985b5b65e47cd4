//! The acceptance figures of the core issue, end to end through the binary:
//! generation, native compilation with gcc, and gcov coverage of the tests.
//!
//! - Merge with its precondition: 1 + k * 2^(k+1) tests for k = 1..5, all
//!   passing natively, 100% of Merge's lines and branches covered by gcov.
//! - summaries.c sum6: 729 tests; foo_bar.c: bar 1, foo 2.
//! - recursive.c at k = 2: every test passes natively (the counts are
//!   justified in crates/engine/tests/bench_paths.rs).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pathwise_cli::replay::{replay, ReplayOptions};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn pathwise(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pathwise")).args(args).current_dir(root()).output().unwrap()
}

/// Generate into a fresh directory; returns it and the number of tests.
fn gen(file: &str, function: &str, extra: &[&str]) -> (tempfile::TempDir, usize) {
    let out = tempfile::tempdir().unwrap();
    let out_s = out.path().to_str().unwrap();
    let mut args = vec!["gen", file, "--function", function, "--out", out_s];
    args.extend_from_slice(extra);
    // The bound these suites were written for (without --k, gen deepens).
    if !extra.contains(&"--k") {
        args.extend(["--k", "2"]);
    }
    let o = pathwise(&args);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let json = std::fs::read_to_string(out.path().join(format!("{function}_tests.json"))).unwrap();
    let suite: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(suite["stop"], "complete");
    let n = suite["tests"].as_array().unwrap().len();
    (out, n)
}

/// Compile and run natively with gcov; every test passes and coverage agrees.
fn replay_ok(dir: &Path, tests: usize) -> pathwise_cli::replay::ReplayOutcome {
    let opts = ReplayOptions {
        dir: dir.to_path_buf(),
        include_dirs: vec![],
        defines: vec![],
        extra_args: vec![],
        run_timeout: std::time::Duration::from_secs(120),
    };
    let outcome = replay(&opts).unwrap();
    assert_eq!((outcome.passed, outcome.failed), (tests as u64, 0), "{:?}", outcome.failures);
    assert!(outcome.exit_ok);
    assert!(outcome.disagreements.is_empty(), "{:?}", outcome.disagreements);
    outcome
}

#[test]
fn merge_k1_to_k5() {
    for k in 1..=5u32 {
        let (dir, n) = gen("examples/merge.c", "Merge", &["--precondition", "merge_valid", "--k", &k.to_string()]);
        assert_eq!(n as u64, 1 + k as u64 * (1 << (k + 1)), "k = {k}");
        let outcome = replay_ok(dir.path(), n);
        let merge = outcome.rows.iter().find(|r| r.function == "Merge").expect("Merge row");
        let (covered, total) = merge.measured_lines.expect("gcov lines");
        assert_eq!(covered, total, "k = {k}: every line of Merge");
        let (taken, branches) = merge.measured_branches.expect("gcov branches");
        assert!(branches > 0);
        assert_eq!(taken, branches, "k = {k}: every branch of Merge");
    }
}

#[test]
fn plain_cc_builds_the_merge_tests() {
    let (dir, n) = gen("examples/merge.c", "Merge", &["--precondition", "merge_valid", "--k", "2"]);
    // The test file includes merge.c by name, and its header's build
    // command names merge.c's directory relative to the suite's (no
    // absolute path: the suite is committed with the code). The directory
    // can be renamed, and the command still works there.
    let there = dir.path().with_file_name(format!("kept-tests-{}", std::process::id()));
    std::fs::rename(dir.path(), &there).unwrap();
    let text = std::fs::read_to_string(there.join("Merge_tests.c")).unwrap();
    let examples = root().join("examples").canonicalize().unwrap();
    let up = there.canonicalize().unwrap().components().count() - 1;
    let relative = format!("{}{}", "../".repeat(up), examples.strip_prefix("/").unwrap().display());
    let command = format!("cc -I. -I{relative} Merge_tests.c -lm && ./a.out");
    assert!(text.contains(&format!(" *   {command} */")), "{text}");
    assert!(text.contains("#include \"merge.c\"\n"), "{text}");
    let run = Command::new("sh").arg("-c").arg(&command).current_dir(&there).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stdout).contains(&format!("{n} passed, 0 failed")));
    // `replay` finds merge.c through the JSON's `source` there too.
    replay_ok(&there, n);
    std::fs::rename(&there, dir.path()).unwrap();
}

#[test]
fn summaries_and_foo_bar() {
    let (dir, n) = gen("tests/bench/summaries.c", "sum6", &[]);
    assert_eq!(n, 729);
    replay_ok(dir.path(), n);
    // One path each for b > 0 and b <= 0, plus the overflows of a + 1 and
    // a - 1 (bar: only a + 1); the engine tests check the error kinds.
    let (dir, n) = gen("tests/bench/foo_bar.c", "bar", &[]);
    assert_eq!(n, 1 + 1);
    replay_ok(dir.path(), n);
    let (dir, n) = gen("tests/bench/foo_bar.c", "foo", &[]);
    assert_eq!(n, 2 + 2);
    replay_ok(dir.path(), n);
}

#[test]
fn recursive_programs_pass_natively() {
    // k-paths plus the `n - 1` overflow of binary_search and dutch_flag,
    // sorted_insert's `a[i] = x` with n < 0, a write before the array, and
    // partition's reads of a[hi] and a[j] with hi, lo < 0.
    let figures = [("sorted_insert", 6 + 1), ("binary_search", 10 + 1), ("dutch_flag", 13 + 1), ("quicksort", 9 + 2)];
    for (f, expected) in figures {
        let (dir, n) = gen("tests/bench/recursive.c", f, &["--k", "2"]);
        assert_eq!(n, expected, "{f}");
        replay_ok(dir.path(), n);
    }
}

/// A run cut by --timeout still writes the tests it found, all valid.
#[test]
fn timeout_keeps_the_tests_found() {
    let out = tempfile::tempdir().unwrap();
    let o = pathwise(&[
        "gen",
        "examples/merge.c",
        "--function",
        "Merge",
        "--precondition",
        "merge_valid",
        "--k",
        "12",
        "--max-array-len",
        "40",
        "--timeout",
        "1",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    // Exit code 5: stopped by a limit, the tests found written.
    assert_eq!(o.status.code(), Some(5), "{}", String::from_utf8_lossy(&o.stderr));
    let json = std::fs::read_to_string(out.path().join("Merge_tests.json")).unwrap();
    let suite: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(suite["stop"], "timeout");
    let n = suite["tests"].as_array().unwrap().len();
    assert!(n > 0);
    let opts = ReplayOptions {
        dir: out.path().to_path_buf(),
        include_dirs: vec![],
        defines: vec![],
        extra_args: vec![],
        run_timeout: std::time::Duration::from_secs(120),
    };
    let outcome = replay(&opts).unwrap();
    assert_eq!((outcome.passed, outcome.failed), (n as u64, 0));
}

/// A --max-array-len too small for k is reported, not silently lost.
#[test]
fn array_length_limit_is_reported() {
    let (dir, n) =
        gen("examples/merge.c", "Merge", &["--precondition", "merge_valid", "--k", "3", "--max-array-len", "2"]);
    assert!(n < 49, "{n} tests");
    let json = std::fs::read_to_string(dir.path().join("Merge_tests.json")).unwrap();
    let suite: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(suite["stats"]["array_limit_prunes"].as_u64().unwrap() > 0);
    let (dir, n) = gen("examples/merge.c", "Merge", &["--precondition", "merge_valid", "--k", "3"]);
    assert_eq!(n, 49);
    let json = std::fs::read_to_string(dir.path().join("Merge_tests.json")).unwrap();
    let suite: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(suite["stats"]["array_limit_prunes"], 0);
}

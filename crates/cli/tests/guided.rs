//! Guided generation (seed 003, ch. 5; issue 14): `--target FILE:LINE`
//! keeps only tests that reach a target no earlier test reached, stops
//! when every target is reached, and reports each target reached (by
//! which test) or unreachable within the bound — the latter only when the
//! bounded search was exhaustive.

mod common;

use serde_json::Value;

fn gen(file: &str, function: &str, args: &[&str]) -> (tempfile::TempDir, String, Value) {
    let out = tempfile::tempdir().unwrap();
    let (stdout, suite) = common::gen(file, function, args, out.path());
    (out, stdout, suite)
}

fn targets(suite: &Value) -> Vec<(String, String, Option<u64>)> {
    suite["goals"]["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["target"].as_str().unwrap().into(), t["status"].as_str().unwrap().into(), t["test"].as_u64()))
        .collect()
}

fn passes_natively(dir: &std::path::Path, function: &str, suite: &Value) {
    let n = suite["tests"].as_array().unwrap().len();
    // The sources are in tests/c (on build_and_run's path) or tests/bench.
    let bench = format!("-I{}", common::root().join("tests/bench").display());
    let (code, stdout) = common::build_and_run(dir, function, &[&bench]);
    assert_eq!((code, stdout.as_str()), (0, format!("{n} passed, 0 failed\n").as_str()));
}

#[test]
fn lcm_mu_needs_one_test() {
    // The catch block's `return -1` (program point mu) of the thesis.
    let (dir, stdout, suite) = gen("tests/bench/lcm.c", "lcm", &["--k", "2", "--target", "lcm.c:40"]);
    let t = suite["tests"].as_array().unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!((t[0]["inputs"]["a"].as_i64(), t[0]["inputs"]["b"].as_i64()), (Some(0), Some(0)));
    assert_eq!(t[0]["expected"]["return"], -1);
    assert_eq!(targets(&suite), vec![("lcm.c:40".into(), "reached".into(), Some(1))]);
    assert_eq!(suite["stop"], "targets-reached");
    assert!(stdout.contains("target lcm.c:40: reached by test 1"), "{stdout}");
    passes_natively(dir.path(), "lcm", &suite);
}

#[test]
fn several_targets_fewest_tests() {
    // FILE as given or by base name; one test may reach several targets.
    let args = ["--k", "2", "--target", "lcm.c:40", "--target", "tests/bench/lcm.c:16", "--target", "lcm.c:35"];
    let (dir, _, suite) = gen("tests/bench/lcm.c", "lcm", &args);
    let reached = targets(&suite);
    assert!(reached.iter().all(|t| t.1 == "reached"), "{reached:?}");
    let n = suite["tests"].as_array().unwrap().len();
    assert!(n <= 3, "{n} tests");
    passes_natively(dir.path(), "lcm", &suite);
}

#[test]
fn dead_code_within_the_bound_is_reported_unreachable() {
    // Line 32 is dead; line 36 needs a third iteration; line 38 is reached.
    let args =
        |k: &'static str| ["--k", k, "--target", "goals.c:36", "--target", "goals.c:32", "--target", "goals.c:38"];
    let (_, stdout, suite) = gen("tests/c/goals.c", "count_up", &args("2"));
    assert_eq!(
        targets(&suite),
        vec![
            ("goals.c:36".into(), "unreachable".into(), None),
            ("goals.c:32".into(), "unreachable".into(), None),
            ("goals.c:38".into(), "reached".into(), Some(1)),
        ]
    );
    assert_eq!(suite["stop"], "complete");
    assert!(stdout.contains("target goals.c:32: unreachable within the bound (the bounded search was exhaustive)"));
    let (dir, _, suite) = gen("tests/c/goals.c", "count_up", &args("3"));
    let t = targets(&suite);
    assert_eq!((t[0].1.as_str(), t[1].1.as_str(), t[2].1.as_str()), ("reached", "unreachable", "reached"));
    assert_eq!(suite["tests"].as_array().unwrap().len(), 2);
    passes_natively(dir.path(), "count_up", &suite);
}

#[test]
fn bad_targets_are_errors() {
    for (target, message) in [
        ("goals.c:99", "no code on line 99"),
        ("nosuch.c:3", "no file `nosuch.c`"),
        ("goals.c", "expected FILE:LINE"),
        ("goals.c:x", "is not a line number"),
    ] {
        let out = tempfile::tempdir().unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
            .args(["gen", "tests/c/goals.c", "--function", "count_up", "--target", target, "--out"])
            .arg(out.path())
            .current_dir(common::root())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{target}: {err}");
        assert!(err.contains(message), "{target}: {err}");
    }
}

#[test]
fn targets_follow_traces_through_them() {
    // Definition 5.2.1: the bounded traces through each target, shortest
    // first, each followed until a test reaches it. count_up at k = 2:
    // no trace within the bound enters `return 99` (three iterations), so
    // it is unreachable before any solving; `return 7` has traces, each
    // refuted (x > 5 && x < 3); the first run reaches `return s`.
    let args = ["--k", "2", "--target", "goals.c:36", "--target", "goals.c:32", "--target", "goals.c:38"];
    let (_, stdout, suite) = gen("tests/c/goals.c", "count_up", &args);
    let g = &suite["goals"]["trace_guided"];
    assert_eq!((g["undecided"].as_u64(), g["proven"].as_bool()), (Some(0), Some(true)), "{g}");
    assert_eq!(g["tried"], g["infeasible"], "every trace tried was refuted: {g}");
    assert!(g["tried"].as_u64().unwrap() >= 1);
    assert!(stdout.contains("complete (every target reached, or no path within the bound reaches it)"), "{stdout}");
    // lcm's mu: the first trace through it is followed by the first run.
    let (_, _, suite) = gen("tests/bench/lcm.c", "lcm", &["--k", "2", "--target", "lcm.c:40"]);
    assert_eq!(suite["stats"]["runs"], 1);
    // Targets in two functions: lcm's division and abs_int's negative
    // side; each traces through it until a test reaches it.
    let (dir, _, suite) =
        gen("tests/bench/lcm.c", "lcm", &["--k", "2", "--target", "lcm.c:41", "--target", "lcm.c:16"]);
    assert!(targets(&suite).iter().all(|t| t.1 == "reached"), "{:?}", targets(&suite));
    passes_natively(dir.path(), "lcm", &suite);
}

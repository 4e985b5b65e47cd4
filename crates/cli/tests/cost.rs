//! Cost models and cost policies (seed 003, ch. 4.3; issue 14): exact
//! costs on `tests/c/goals.c` and the thesis's `multiples`
//! (`tests/bench/vector.c`, k = 4), thresholds on symbolic costs as path
//! constraints, ordering policies, and every emitted test file building
//! with gcc -Wall -Wextra -Werror and passing natively.

mod common;

use serde_json::Value;

/// `gen` with a test per path (`--all-error-tests`): the figures are the
/// thesis's paths.
fn gen(file: &str, function: &str, args: &[&str]) -> (tempfile::TempDir, String, Value) {
    let out = tempfile::tempdir().unwrap();
    let args = [args, &["--all-error-tests"]].concat();
    let (stdout, suite) = common::gen(file, function, &args, out.path());
    (out, stdout, suite)
}

fn tests(suite: &Value) -> &Vec<Value> {
    suite["tests"].as_array().unwrap()
}

/// (concrete, symbolic) cost of every test under `model`.
fn costs(suite: &Value, model: &str) -> Vec<(u64, Option<String>)> {
    tests(suite)
        .iter()
        .map(|t| {
            let c = &t["cost"][model];
            (c["concrete"].as_u64().unwrap(), c["symbolic"].as_str().map(str::to_string))
        })
        .collect()
}

/// The test file builds under -Werror and every test passes.
fn passes_natively(dir: &std::path::Path, function: &str, suite: &Value) {
    let n = tests(suite).len();
    // The sources are in tests/c (on build_and_run's path) or tests/bench.
    let bench = format!("-I{}", common::root().join("tests/bench").display());
    let (code, stdout) = common::build_and_run(dir, function, &[&bench]);
    assert_eq!((code, stdout.as_str()), (0, format!("{n} passed, 0 failed\n").as_str()));
}

#[test]
fn every_model_on_a_small_unit() {
    let args = ["--cost", "memory", "--cost", "calls=helper", "--cost", "calls", "--cost", "instructions"];
    let (dir, stdout, suite) = gen("tests/c/goals.c", "alloc_sum", &args);
    let sym = Some("4*n".to_string());
    assert_eq!(costs(&suite, "memory"), vec![(0, None), (4, sym.clone()), (4, sym), (0, None)]);
    let helper: Vec<u64> = costs(&suite, "calls=helper").into_iter().map(|c| c.0).collect();
    assert_eq!(helper, vec![0, 1, 2, 0]);
    // malloc, helper (once or twice), free.
    let calls: Vec<u64> = costs(&suite, "calls").into_iter().map(|c| c.0).collect();
    assert_eq!(calls, vec![0, 3, 4, 0]);
    let instructions = costs(&suite, "instructions");
    assert_eq!(instructions.iter().map(|c| c.0).collect::<Vec<_>>(), vec![9, 46, 60, 13]);
    assert!(instructions.iter().all(|c| c.1.is_none()), "instructions are constant per path");
    assert!(stdout.contains("test 2: memory 4 (symbolic: 4*n), calls=helper 1, calls 3, instructions 46"), "{stdout}");
    let text = std::fs::read_to_string(dir.path().join("alloc_sum_tests.c")).unwrap();
    assert!(text.contains(" * cost: memory 4 (any input of this path: 4*n), calls=helper 1, calls 3, instructions 46"));
    assert_eq!(suite["goals"]["cost_models"], serde_json::json!(["memory", "calls=helper", "calls", "instructions"]));
    passes_natively(dir.path(), "alloc_sum", &suite);
}

#[test]
fn a_threshold_on_a_symbolic_cost_is_a_path_constraint() {
    // 4*n can exceed 40 (n <= 100): both allocating paths get inputs that
    // do; the two that allocate nothing cannot.
    let (dir, _, suite) = gen("tests/c/goals.c", "alloc_sum", &["--cost", "memory", "--cost-policy", "memory>40"]);
    let memory = costs(&suite, "memory");
    assert_eq!(memory.len(), 2);
    assert!(memory.iter().all(|c| c.0 > 40 && c.1.as_deref() == Some("4*n")), "{memory:?}");
    assert_eq!(suite["goals"]["dropped_by_policy"], 2);
    assert_eq!(suite["stop"], "complete");
    passes_natively(dir.path(), "alloc_sum", &suite);
    // Below a threshold: every path can stay at or under 8 bytes.
    let (_, _, suite) = gen("tests/c/goals.c", "alloc_sum", &["--cost", "memory", "--cost-policy", "<=8"]);
    assert_eq!(costs(&suite, "memory").len(), 4);
    assert!(costs(&suite, "memory").iter().all(|c| c.0 <= 8));
    // A constant cost decides alone.
    let (_, _, suite) = gen("tests/c/goals.c", "alloc_sum", &["--cost", "calls=helper", "--cost-policy", ">1"]);
    assert_eq!(costs(&suite, "calls=helper"), vec![(2, None)]);
}

#[test]
fn multiples_at_k4() {
    // 63 tests: the thesis's 54 paths with icap > 0, the NULL return of
    // icap <= 0 (Java throws), and 8 error tests Java does not have (1
    // division by zero, 7 INT_MIN % -1, which is 0 in Java).
    let args = ["--k", "4", "--cost", "instructions", "--cost", "calls=realloc_vec", "--cost-policy", "order"];
    let (_, _, suite) = gen("tests/bench/vector.c", "multiples", &args);
    assert_eq!(tests(&suite).len(), 63);
    assert_eq!(common::errors(&suite).len(), 8);
    // The instruction worst case reallocates twice.
    let worst = &tests(&suite)[0]["cost"];
    assert_eq!(
        (worst["instructions"]["concrete"].as_u64(), worst["calls=realloc_vec"]["concrete"].as_u64()),
        (Some(513), Some(2))
    );
    let ins = costs(&suite, "instructions");
    assert!(ins.windows(2).all(|w| w[0].0 >= w[1].0), "ordered by decreasing cost");
    let (_, _, worst) =
        gen("tests/bench/vector.c", "multiples", &["--k", "4", "--cost", "instructions", "--cost-policy", "worst"]);
    assert_eq!(costs(&worst, "instructions"), vec![(513, None)]);
    assert_eq!(worst["goals"]["dropped_by_policy"], 62);
}

#[test]
fn multiples_memory_more_than_48_bytes() {
    let (dir, stdout, suite) =
        gen("tests/bench/vector.c", "multiples", &["--k", "4", "--cost", "memory", "--cost-policy", ">48"]);
    // Left out: the 22 reallocating paths whose constant cost is at most
    // 48 bytes, the NULL return (16 bytes) and 3 error tests after a
    // reallocation; kept: every path whose cost 4*icap + 16 can exceed 48,
    // and icap = 3 with 4 additions (16 + 12 + 24 = 52; 48 in Java).
    assert_eq!((tests(&suite).len(), suite["goals"]["dropped_by_policy"].as_u64()), (37, Some(26)));
    let memory = costs(&suite, "memory");
    assert!(memory.iter().all(|c| c.0 > 48));
    assert_eq!(memory.iter().filter(|c| c.1.is_none()).count(), 1);
    assert!(memory.iter().all(|c| c.1.is_none() || c.1.as_deref() == Some("4*icap + 16")));
    // The parametric cost dominates the largest constant one (52) when
    // icap > 9, as in the thesis.
    let dominance = suite["goals"]["dominance"].as_array().unwrap();
    assert_eq!(dominance.len(), 36);
    assert!(dominance.iter().all(|d| d["when"] == "icap > 9" && d["constant"] == 52), "{dominance:?}");
    assert!(stdout.contains("exceeds the largest constant cost, 52"), "{stdout}");
    passes_natively(dir.path(), "multiples", &suite);
}

#[test]
fn bad_cost_options_are_errors() {
    for args in [
        &["--cost", "bytes"][..],
        &["--cost", "calls=1x"],
        &["--cost", "calls=nosuch"],
        &["--cost-policy", "worst"],
        &["--cost", "memory", "--cost-policy", ">x"],
        &["--cost", "memory", "--cost-policy", "instructions>3"],
        &["--cost", "memory", "--cost-policy", "top=0"],
        &["--cost", "memory", "--cost-policy", "cheapest"],
    ] {
        let out = tempfile::tempdir().unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
            .args(["gen", "tests/c/goals.c", "--function", "alloc_sum", "--out"])
            .arg(out.path())
            .args(args)
            .current_dir(common::root())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: ") && !err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_maximum_threshold_cuts_runs_early() {
    // Resource-driven pruning (seed 003, ch. 4.4): a run ends as soon as
    // the instructions its path fixes pass 300, so no path through it is
    // explored; the tests are exactly those of generate-then-filter.
    let all = ["--k", "4", "--cost", "instructions"];
    let (_, _, full) = gen("tests/bench/vector.c", "multiples", &all);
    let mut want: Vec<u64> = costs(&full, "instructions").into_iter().map(|c| c.0).filter(|&c| c <= 300).collect();
    want.sort_unstable();
    let (dir, stdout, cut) =
        gen("tests/bench/vector.c", "multiples", &[&all[..], &["--cost-policy", "<=300"]].concat());
    let mut got: Vec<u64> = costs(&cut, "instructions").into_iter().map(|c| c.0).collect();
    got.sort_unstable();
    assert_eq!((got.len(), &got), (41, &want));
    assert_eq!(cut["goals"]["dropped_by_policy"], 0, "nothing over 300 ran to its end");
    let n = cut["goals"]["cut_by_cost"].as_u64().unwrap();
    assert!(n > 0 && stdout.contains(&format!("cut by cost:         {n} run(s)")), "{stdout}");
    assert!(cut["stats"]["runs"].as_u64() < full["stats"]["runs"].as_u64());
    assert_eq!(cut["stop"], "complete");
    passes_natively(dir.path(), "multiples", &cut);
}

/// `gen` of multiples at `k` with `args`, the loop count strict (as the
/// abstract traces count it).
fn multiples(k: &str, args: &[&str]) -> (tempfile::TempDir, String, Value) {
    let all = [&["--k", k, "--strict-loop-count", "--cost", "instructions"][..], args].concat();
    gen("tests/bench/vector.c", "multiples", &all)
}

#[test]
fn resource_driven_worst_case() {
    // Seed 003, ch. 4.4: the abstract traces in decreasing order of their
    // instructions, each followed by trace-guided generation; the first
    // feasible one is the worst case, found without generating the others.
    let (dir, stdout, driven) =
        multiples("4", &["--cost", "calls=realloc_vec", "--cost-policy", "worst", "--resource-driven"]);
    let t = tests(&driven);
    assert_eq!(t.len(), 1);
    assert_eq!(
        (t[0]["cost"]["instructions"]["concrete"].as_u64(), t[0]["cost"]["calls=realloc_vec"]["concrete"].as_u64()),
        (Some(513), Some(2))
    );
    let d = &driven["goals"]["resource_driven"];
    // 5604 bounded traces of loop-4; the 20 more expensive than the worst
    // case are refuted (each refutation prunes every trace through its
    // prefix), the 21st is followed.
    assert_eq!(
        (d["abstract_traces"].as_u64(), d["tried"].as_u64(), d["infeasible"].as_u64()),
        (Some(5604), Some(21), Some(20))
    );
    assert_eq!(
        (d["undecided"].as_u64(), d["cost_mismatches"].as_u64(), d["proven"].as_bool()),
        (Some(0), Some(0), Some(true))
    );
    assert_eq!(driven["stop"], "complete");
    assert!(stdout.contains("21 trace(s) tried, 20 infeasible, 0 undecided (5604 bounded abstract traces"), "{stdout}");
    passes_natively(dir.path(), "multiples", &driven);
    // The same worst case as generate-then-filter, for every k tried, in
    // fewer runs.
    for k in ["2", "3", "5"] {
        let (_, _, all) = multiples(k, &["--cost-policy", "worst"]);
        let (_, _, driven) = multiples(k, &["--cost-policy", "worst", "--resource-driven"]);
        assert_eq!(costs(&driven, "instructions"), costs(&all, "instructions"), "k = {k}");
        assert!(driven["stats"]["runs"].as_u64() < all["stats"]["runs"].as_u64(), "k = {k}");
    }
}

#[test]
fn resource_driven_top_n_and_thresholds() {
    // Theorem 4.4.5: on an observable model the traces' tests are the
    // returning tests of generate-then-filter.
    let returning = |s: &Value| -> Vec<u64> {
        tests(s)
            .iter()
            .filter(|t| t["error"].is_null())
            .map(|t| t["cost"]["instructions"]["concrete"].as_u64().unwrap())
            .collect()
    };
    let (_, _, all) = multiples("4", &["--cost-policy", "order"]);
    let mut every = returning(&all);
    every.sort_unstable_by(|a, b| b.cmp(a));
    let (_, _, top) = multiples("4", &["--cost-policy", "top=5", "--resource-driven"]);
    assert_eq!(returning(&top), every[..5].to_vec());
    let (dir, _, above) = multiples("4", &["--cost-policy", ">400", "--resource-driven"]);
    let want: Vec<u64> = every.iter().copied().filter(|&c| c > 400).collect();
    let mut got = returning(&above);
    got.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(got, want);
    assert_eq!(above["goals"]["resource_driven"]["proven"], true);
    passes_natively(dir.path(), "multiples", &above);
    // Memory is not observable on abstract traces; another criterion is
    // not the abstraction's.
    for bad in [
        &["--cost", "memory", "--resource-driven"][..],
        &["--cost", "calls", "--resource-driven", "--criterion", "block-k"],
    ] {
        let out = tempfile::tempdir().unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
            .args(["gen", "tests/bench/vector.c", "--function", "multiples", "--out"])
            .arg(out.path())
            .args(bad)
            .current_dir(common::root())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {err}");
        assert!(err.contains("--resource-driven"), "{bad:?}: {err}");
    }
}

#[test]
fn a_partial_trace_as_input() {
    // Seed 003, Example 17: four iterations of multiples' loop, each
    // calling add, whether add reallocates left free: 4 tests, icap = 1
    // (two reallocations), 2 and 3 (one), >= 4 (none).
    let trace = "55:F (57:T 58:T){4} 57:F";
    let args = ["--k", "4", "--trace", trace, "--cost", "calls=realloc_vec"];
    let (dir, stdout, suite) = gen("tests/bench/vector.c", "multiples", &args);
    let mut got: Vec<(i64, u64)> = tests(&suite)
        .iter()
        .map(|t| {
            let icap = t["inputs"]["icap"].as_i64().unwrap();
            (icap.min(4), t["cost"]["calls=realloc_vec"]["concrete"].as_u64().unwrap())
        })
        .collect();
    got.sort_unstable();
    assert_eq!(got, vec![(1, 2), (2, 1), (3, 1), (4, 0)]);
    assert!(tests(&suite).iter().all(|t| t["inputs"]["n"] == 4));
    assert_eq!(suite["stop"], "complete");
    assert!(stdout.contains(&format!("partial trace:       `{trace}`: 4 test(s) follow it")), "{stdout}");
    assert_eq!(
        (suite["goals"]["partial_trace"]["pattern"].as_str(), suite["goals"]["partial_trace"]["tests"].as_u64()),
        (Some(trace), Some(4))
    );
    passes_natively(dir.path(), "multiples", &suite);
    // Five iterations do not fit k = 4: no test, and the search says so.
    let (_, stdout, none) =
        gen("tests/bench/vector.c", "multiples", &["--k", "4", "--trace", "55:F (57:T 58:T){5} 57:F"]);
    assert_eq!((tests(&none).len(), none["stop"].as_str()), (0, Some("complete")));
    assert!(stdout.contains("0 test(s) follow it"), "{stdout}");
    // A prefix only: the NULL return of icap <= 0 and nothing else.
    let (_, _, null) = gen("tests/bench/vector.c", "multiples", &["--trace", "55:T _*"]);
    assert_eq!(tests(&null).len(), 1);
    assert_eq!(null["goals"]["partial_trace"]["tests"], 1, "the goals object without --cost");
    assert!(tests(&null)[0]["inputs"]["icap"].as_i64().unwrap() <= 0);
    for (bad, message) in [
        ("56:T", "no decision at line 56"),
        ("57:X", "is not a decision"),
        ("(57:T", "expected `)`"),
        ("57:T{3,1}", "is not a repetition"),
    ] {
        let out = tempfile::tempdir().unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
            .args(["gen", "tests/bench/vector.c", "--function", "multiples", "--trace", bad, "--out"])
            .arg(out.path())
            .current_dir(common::root())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains(message), "{bad}: {err}");
    }
}

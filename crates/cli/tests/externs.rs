//! External functions end to end (tests/c/externs.c): functions declared
//! without a body that `--external NAME` / `--external-all` describe as
//! changing no memory and returning a fresh input. The generated test file
//! must define them (it links with nothing else), return each test's
//! values, and fail when the calls differ from the recorded ones.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::root;

fn pathwise(file: &str, args: &[&str], out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", &format!("tests/c/{file}"), "--k", "2", "--out"])
        .arg(out)
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

/// Generate for `function` (extra arguments after it) and return the JSON
/// suite; the output directory stays alive with the returned guard.
fn generate(file: &str, function: &str, extra: &[&str]) -> (tempfile::TempDir, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let args = [&["--k", "2"][..], extra].concat();
    let (_, suite) = common::gen(&format!("tests/c/{file}"), function, &args, out.path());
    (out, suite)
}

/// Build `NAME_tests.c` with plain gcc (warnings are errors: the stubs must
/// not add any) and run it: (exit code, stdout). `-I`: the test file
/// includes the code under test by name.
fn build_and_run(dir: &Path, function: &str) -> (i32, String) {
    let exe = dir.join("native");
    let cc = Command::new("gcc")
        .args(["-Wall", "-Wextra", "-Werror", "-I"])
        .arg(dir)
        .arg("-I")
        .arg(root().join("tests/c"))
        .arg(dir.join(format!("{function}_tests.c")))
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(cc.status.success(), "{function}: {}", String::from_utf8_lossy(&cc.stderr));
    let run = Command::new(&exe).output().unwrap();
    (run.status.code().unwrap_or(-1), String::from_utf8_lossy(&run.stdout).into_owned())
}

/// `pathwise replay`: compiles the unit with the tests under gcov; every
/// test passes and coverage agrees with the prediction.
fn replay_passes(dir: &Path, n: usize) {
    common::replay_passes(dir, n, vec![], true);
}

fn tests(suite: &serde_json::Value) -> &Vec<serde_json::Value> {
    suite["tests"].as_array().unwrap()
}

/// A test's calls as `name(args) -> ret` strings.
fn calls(test: &serde_json::Value) -> Vec<String> {
    let Some(calls) = test["calls"].as_array() else { return Vec::new() };
    calls
        .iter()
        .map(|c| {
            let args: Vec<String> = c["args"].as_array().unwrap().iter().map(|a| a.to_string()).collect();
            // `return_pointer` is present (`null` for NULL) only for
            // functions returning pointers.
            let ret = match (&c["return"], c.get("return_pointer")) {
                (serde_json::Value::Null, None) => String::new(),
                (serde_json::Value::Null, Some(serde_json::Value::Null)) => " -> NULL".to_string(),
                (serde_json::Value::Null, Some(p)) => format!(" -> o{}", p["ref"]),
                (v, _) => format!(" -> {v}"),
            };
            format!("{}({}){ret}", c["function"].as_str().unwrap(), args.join(", "))
        })
        .collect()
}

/// Seed 003, Figure 6.1 with its external calls: 2 tests, x == z calls
/// call_c(-4), x != z calls call_d(2); both pass natively.
#[test]
fn heap_solver_example_with_external_calls() {
    let names = ["--external", "call_a", "--external", "call_b", "--external", "call_c", "--external", "call_d"];
    let (out, suite) = generate("externs_alias.c", "m", &[&["--precondition", "m_pre"], &names[..]].concat());
    let mut seen: Vec<Vec<String>> = tests(&suite).iter().map(calls).collect();
    seen.sort();
    assert_eq!(
        seen,
        vec![vec!["call_a()", "call_b()", "call_c(-4)"], vec!["call_a()", "call_b()", "call_d(2)"]],
        "{suite:#}"
    );
    let externals: Vec<&str> =
        suite["externals"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(externals, ["call_a", "call_b", "call_c", "call_d"]);
    assert_eq!(build_and_run(out.path(), "m"), (0, "2 passed, 0 failed\n".to_string()));
    replay_passes(out.path(), 2);
    // `--external-all` (and `--external '*'`) mean the same here.
    for all in ["--external-all", "--external=*"] {
        let (_, again) = generate("externs_alias.c", "m", &["--precondition", "m_pre", all]);
        assert_eq!(again["tests"], suite["tests"], "{all}");
    }
}

/// A fresh return value steers a branch: one test per side, with stub
/// values on either side of 10.
#[test]
fn fresh_return_value_steers_a_branch() {
    let (out, suite) = generate("externs.c", "sensor", &["--external-all"]);
    let mut seen: Vec<(i64, i64)> = tests(&suite)
        .iter()
        .map(|t| (t["calls"][0]["return"].as_i64().unwrap(), t["expected"]["return"].as_i64().unwrap()))
        .collect();
    seen.sort();
    assert_eq!(seen.len(), 2, "{suite:#}");
    assert!(seen[0].0 <= 10 && seen[0].1 == 0 && seen[1].0 > 10 && seen[1].1 == 1, "{seen:?}");
    assert_eq!(build_and_run(out.path(), "sensor"), (0, "2 passed, 0 failed\n".to_string()));
    replay_passes(out.path(), 2);
}

/// Calls in a loop: unsigned results, integer and pointer arguments
/// (a string literal is a non-null pointer).
#[test]
fn calls_in_a_loop_with_pointer_arguments() {
    let (out, suite) = generate("externs.c", "sum_bytes", &["--external-all"]);
    assert_eq!(tests(&suite).len(), 7, "{suite:#}");
    let longest = tests(&suite).iter().map(calls).max_by_key(|c| c.len()).unwrap();
    assert_eq!(longest.len(), 4);
    assert!(longest[0].starts_with("read_byte(0) -> "), "{longest:?}");
    assert!(longest[1].starts_with("log_value(\"non-null\", "), "{longest:?}");
    assert!(longest[2].starts_with("read_byte(1) -> "), "{longest:?}");
    assert_eq!(build_and_run(out.path(), "sum_bytes"), (0, "7 passed, 0 failed\n".to_string()));
    replay_passes(out.path(), 7);
}

/// An external result as divisor: the division-by-zero and INT_MIN / -1
/// error tests pass natively too.
#[test]
fn error_tests_with_external_calls() {
    let (out, suite) = generate("externs.c", "ratio", &["--external-all"]);
    let mut errors: Vec<(String, i64)> = tests(&suite)
        .iter()
        .filter(|t| t["outcome"] == "error")
        .map(|t| (t["error"]["kind"].as_str().unwrap().to_string(), t["calls"][0]["return"].as_i64().unwrap()))
        .collect();
    errors.sort();
    assert_eq!(errors, [("division-by-zero".to_string(), 0), ("division-overflow".to_string(), -1)]);
    assert_eq!(tests(&suite).len(), 3);
    let (code, stdout) = build_and_run(out.path(), "ratio");
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.ends_with("3 passed, 0 failed\n"), "{stdout}");
    replay_passes(out.path(), 3);
}

/// External functions returning pointers return input pointers: null, a
/// fresh object (of as many elements as the path reads), or an alias of
/// another; the stubs return the test's objects.
#[test]
fn pointer_results_are_input_pointers() {
    let (out, suite) = generate("externs.c", "first", &["--external-all"]);
    let seen: Vec<Vec<String>> = tests(&suite).iter().map(calls).collect();
    assert_eq!(seen, [vec!["buffer() -> NULL".to_string()], vec!["buffer() -> o1".to_string()]]);
    assert_eq!(tests(&suite)[1]["heap_in"][0]["count"], 2);
    assert_eq!(build_and_run(out.path(), "first"), (0, "2 passed, 0 failed\n".to_string()));
    replay_passes(out.path(), 2);
    let (out, suite) = generate("externs.c", "same_item", &["--external-all"]);
    let mut seen: Vec<(i64, Vec<String>)> = tests(&suite)
        .iter()
        .map(|t| {
            let calls = calls(t).iter().map(|c| c.split(" -> ").nth(1).unwrap().to_string()).collect();
            (t["expected"]["return"].as_i64().unwrap(), calls)
        })
        .collect();
    seen.sort();
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        seen,
        [
            (0, v(&["NULL", "NULL"])),
            (0, v(&["o1", "NULL"])),
            (1, v(&["o1", "o1"])),
            (2, v(&["o1", "o2"])),
            (3, v(&["o1", "o2"]))
        ]
    );
    assert_eq!(build_and_run(out.path(), "same_item"), (0, "5 passed, 0 failed\n".to_string()));
    replay_passes(out.path(), 5);
}

/// Edit the generated expectations: a wrong argument, a missing call and an
/// extra call each fail their test natively.
#[test]
fn wrong_call_expectations_fail_natively() {
    let (out, _) = generate("externs_alias.c", "m", &["--precondition", "m_pre", "--external-all"]);
    let file = out.path().join("m_tests.c");
    let original = std::fs::read_to_string(&file).unwrap();
    let edits: [(&str, &str, &str); 3] = [
        // The argument of call_c(-4).
        (
            "{2, {(unsigned long long)-4LL}, 0ULL, 0}",
            "{2, {(unsigned long long)-5LL}, 0ULL, 0}",
            "argument 1 expected -5 got -4",
        ),
        // Expect only the first two of three calls: the third is unexpected.
        ("pathwise_expected_calls, 3, 0);", "pathwise_expected_calls, 2, 0);", "unexpected call of call_"),
        // Expect call_a where call_b comes.
        (
            "{1, {0ULL}, 0ULL, 0}, /* call_b() */",
            "{0, {0ULL}, 0ULL, 0}, /* call_b() */",
            "expected a call of call_a, got call_b",
        ),
    ];
    for (from, to, message) in edits {
        assert!(original.contains(from), "{from} not in\n{original}");
        std::fs::write(&file, original.replacen(from, to, 1)).unwrap();
        let (code, stdout) = build_and_run(out.path(), "m");
        assert_eq!(code, 1, "{to}: {stdout}");
        assert!(stdout.contains(message) && stdout.ends_with("1 passed, 1 failed\n"), "{to}: {stdout}");
    }
    // Too few calls: drop the last entry and the count with it.
    let fewer = original.replacen("pathwise_expected_calls, 3, 0);", "pathwise_expected_calls, 4, 0);", 1);
    let fewer = fewer.replacen("pathwise_expected_calls[3] = {", "pathwise_expected_calls[4] = {", 1);
    std::fs::write(&file, fewer).unwrap();
    let (code, stdout) = build_and_run(out.path(), "m");
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("4 external call(s) expected, got 3"), "{stdout}");
}

/// Without the option a body-less call is an error naming the function and
/// the call's location, with a hint; unknown names are errors too.
#[test]
fn body_less_calls_need_the_option() {
    let out = tempfile::tempdir().unwrap();
    let o = pathwise("externs_alias.c", &["--function", "m", "--precondition", "m_pre"], out.path());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("tests/c/externs_alias.c:22:5: call to `call_a`, which has no body"), "{err}");
    assert!(err.contains("--external call_a"), "{err}");
    // Naming only some of the functions: the next one is the error.
    let o =
        pathwise("externs_alias.c", &["--function", "m", "--external", "call_a", "--external", "call_b"], out.path());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("call to `call_c`") || err.contains("call to `call_d`"), "{err}");
    for (name, message) in
        [("nope", "the file declares no function `nope`"), ("sensor", "`sensor` has a body in this file")]
    {
        let o = pathwise("externs.c", &["--function", "sensor", "--external", name], out.path());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(message), "{name}: {err}");
    }
    let o = pathwise("externs.c", &["--function", "use_opaque", "--external-all"], out.path());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("externs.c:78:12: external function `opaque` returns a pointer to no known type"), "{err}");
}

/// `--external-all` stubs only what the function under test can call: the
/// unit's other body-less functions (here `fopen`, which gcov's runtime
/// calls when a test process writes its counters) are weak references the
/// C library still defines. A stub of a function the C library also uses
/// (`getenv`, which gcov calls for GCOV_PREFIX) replays only the code's
/// calls and passes the others on. Both suites replay with gcov.
#[test]
fn only_reachable_functions_get_stubs() {
    let names = |suite: &serde_json::Value, key: &str| -> Vec<String> {
        let list = suite.get(key).and_then(|v| v.as_array()).cloned().unwrap_or_default();
        list.iter().map(|e| e.get("name").unwrap_or(e).as_str().unwrap().to_string()).collect()
    };
    let (out, suite) = generate("externs_runtime.c", "classify_level", &["--external-all"]);
    assert_eq!(names(&suite, "externals"), ["read_level"]);
    assert!(names(&suite, "unreached_functions").contains(&"fopen".to_string()), "{suite:#}");
    assert_eq!(tests(&suite).len(), 3);
    let text = std::fs::read_to_string(out.path().join("classify_level_tests.c")).unwrap();
    assert!(text.contains("#pragma weak fopen\n") && !text.contains("__asm__(\"fopen\")"), "{text}");
    assert_eq!(build_and_run(out.path(), "classify_level"), (0, "3 passed, 0 failed\n".to_string()));
    replay_passes(out.path(), 3);
    let (out, suite) = generate("externs_runtime.c", "verbose", &["--external-all"]);
    assert_eq!(names(&suite, "externals"), ["getenv"]);
    let n = tests(&suite).len();
    assert_eq!(build_and_run(out.path(), "verbose"), (0, format!("{n} passed, 0 failed\n")));
    replay_passes(out.path(), n);
}

/// Floating parameters and results (tests/c/externs_floating.c): the stubs
/// have the declared floating types (an integer stub returns in the wrong
/// register), check the arguments' bits, including a `long double` that is
/// no double, and return the chosen values; every test passes natively.
#[test]
fn floating_externals_are_stubbed_with_their_types() {
    // sense: v > 1.0, else gain() < 0 or not: 3 paths.
    // improve: refine() > 1/3 or not: 2 paths (steps pinned by the 80-bit product).
    for (function, externals, n) in [("sense", "calibrate,gain", 3), ("improve", "refine", 2)] {
        let mut args = vec![];
        for name in externals.split(',') {
            args.extend(["--external", name]);
        }
        let (out, suite) = generate("externs_floating.c", function, &args);
        assert_eq!(tests(&suite).len(), n, "{function}: {suite:#}");
        let c = std::fs::read_to_string(out.path().join(format!("{function}_tests.c"))).unwrap();
        for ty in [
            "float pathwise_stub_gain(float",
            "double pathwise_stub_calibrate(double",
            "long double pathwise_stub_refine(long double",
        ] {
            let name = ty.split("pathwise_stub_").nth(1).unwrap().split('(').next().unwrap();
            assert_eq!(c.contains(ty), externals.contains(name), "{ty}: {c}");
        }
        let (code, stdout) = build_and_run(out.path(), function);
        assert_eq!((code, stdout.contains(&format!("{n} passed, 0 failed"))), (0, true), "{function}: {stdout}");
        replay_passes(out.path(), n);
    }
}

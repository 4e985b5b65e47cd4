//! Shared by the end-to-end tests: generate a suite with the CLI for a C
//! file of the repository, replay it natively (every test must pass), and
//! read its JSON.

#![allow(dead_code)] // each test file compiles its own copy; not all use every helper

use std::path::{Path, PathBuf};
use std::process::Command;

use pathwise_cli::replay::{replay, ReplayOptions};

/// The repository root (test files and C inputs are named from it).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `args` with `--k 2` unless they give a `--k`: the end-to-end tests
/// were written for the bound `gen` had before it deepened without `--k`
/// (issue 28), and a deepening run takes up to its 30 s budget.
pub fn with_k(args: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let has_k = args.iter().any(|a| matches!(*a, "--k" | "-k") || a.starts_with("--k="));
    if !has_k {
        out.extend(["--k".to_string(), "2".to_string()]);
    }
    out
}

/// `pathwise gen FILE --function FUNCTION --out OUT ARGS...` from the
/// repository root, which must write its suite: (its stdout, the JSON
/// suite). Its exit code must be the one its stop reason has: 0 for a
/// search that ended by itself, 5 for one a limit (`--timeout`) stopped.
/// Without `--k` in `args`, k is 2 ([`with_k`]).
pub fn gen(file: &str, function: &str, args: &[&str], out: &Path) -> (String, serde_json::Value) {
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", file, "--function", function, "--out"])
        .arg(out)
        .args(with_k(args))
        .current_dir(root())
        .output()
        .unwrap();
    let text = std::fs::read_to_string(out.join(format!("{function}_tests.json")))
        .unwrap_or_else(|e| panic!("{function}: {e}: {}", String::from_utf8_lossy(&o.stderr)));
    let suite: serde_json::Value = serde_json::from_str(&text).unwrap();
    let code = if matches!(suite["stop"].as_str(), Some("timeout" | "limit")) { 5 } else { 0 };
    assert_eq!(o.status.code(), Some(code), "{function}: {}", String::from_utf8_lossy(&o.stderr));
    (String::from_utf8_lossy(&o.stdout).into_owned(), suite)
}

/// `pathwise replay DIR` (headers also searched in `include_dirs`): none
/// of the `n` tests fails natively (each passes, or is an error test whose
/// undefined behaviour does not trap, counted apart) and, with
/// `compare_coverage`, gcov agrees with the prediction.
pub fn replay_passes(
    dir: &Path,
    n: usize,
    include_dirs: Vec<PathBuf>,
    compare_coverage: bool,
) -> pathwise_cli::replay::ReplayOutcome {
    let opts = ReplayOptions {
        dir: dir.to_path_buf(),
        include_dirs,
        defines: vec![],
        extra_args: vec![],
        run_timeout: std::time::Duration::from_secs(60),
    };
    let outcome = replay(&opts).unwrap();
    assert_eq!(
        (outcome.passed + outcome.not_observed, outcome.failed),
        (n as u64, 0),
        "{}: {:?}",
        dir.display(),
        outcome.failures
    );
    if compare_coverage {
        assert!(outcome.disagreements.is_empty(), "{}: {:?}", dir.display(), outcome.disagreements);
    }
    outcome
}

/// Generate for `function` of `file` (a path from the repository root;
/// `extra` arguments after the function, `--k 2` unless they give a k),
/// replay natively and return the JSON suite. With `compare_coverage`,
/// gcov must agree with the prediction.
pub fn generate_and_replay(file: &str, function: &str, extra: &[&str], compare_coverage: bool) -> serde_json::Value {
    let out = tempfile::tempdir().unwrap();
    let k: &[&str] = if extra.contains(&"--k") { &[] } else { &["--k", "2"] };
    let args = [&["-I", "crates/cfront/include"][..], extra, k].concat();
    let (_, suite) = gen(file, function, &args, out.path());
    let n = suite["tests"].as_array().unwrap().len();
    replay_passes(out.path(), n, vec![root().join("crates/cfront/include")], compare_coverage);
    suite
}

/// The `error` objects of a suite's error tests, in test order.
pub fn error_objects(suite: &serde_json::Value) -> Vec<&serde_json::Value> {
    suite["tests"].as_array().unwrap().iter().filter(|t| t["outcome"] == "error").map(|t| &t["error"]).collect()
}

/// The error tests of a suite: (kind, line), in test order.
pub fn errors(suite: &serde_json::Value) -> Vec<(String, u64)> {
    error_objects(suite)
        .into_iter()
        .map(|e| (e["kind"].as_str().unwrap().to_string(), e["line"].as_u64().unwrap()))
        .collect()
}

/// The error tests of a suite with their messages: (kind, line, message),
/// in test order.
pub fn error_messages(suite: &serde_json::Value) -> Vec<(String, u64, String)> {
    error_objects(suite)
        .into_iter()
        .map(|e| {
            let (kind, line) = (e["kind"].as_str().unwrap().to_string(), e["line"].as_u64().unwrap());
            (kind, line, e["message"].as_str().unwrap().to_string())
        })
        .collect()
}

/// The parameters a suite assumes non-null, with the line of the
/// dereference its contract names (`assumes non-null: p (dereferenced
/// without a test at FILE:LINE:COL; ...)`), in parameter order.
pub fn assumed_nonnull(suite: &serde_json::Value) -> Vec<(String, u64)> {
    let Some(contracts) = suite["contracts"].as_array() else { return Vec::new() };
    contracts
        .iter()
        .filter_map(|c| {
            let rest = c.as_str()?.strip_prefix("assumes non-null: ")?;
            let (name, rest) = rest.split_once(" (used without a null test at ")?;
            let at = rest.split(';').next()?;
            let line = at.rsplit(':').nth(1)?.parse().ok()?;
            Some((name.to_string(), line))
        })
        .collect()
}

/// The returns of a suite's tests that return, sorted.
pub fn returns(suite: &serde_json::Value) -> Vec<i64> {
    let mut rets: Vec<i64> =
        suite["tests"].as_array().unwrap().iter().filter_map(|t| t["expected"]["return"].as_i64()).collect();
    rets.sort();
    rets
}

/// Build the test file `DIR/FUNCTION_tests.c` with gcc as a user would
/// (warnings are errors; `cc` as its header says, `-I tests/c`, plus
/// `flags`) and run it: (exit code, stdout).
#[allow(dead_code)]
pub fn build_and_run(dir: &Path, function: &str, flags: &[&str]) -> (i32, String) {
    let flags = [&["-std=gnu99"][..], flags].concat();
    build_and_run_with("gcc", dir, function, &root().join("tests/c"), &flags)
}

/// [`build_and_run`] with compiler `cc`, `-I include` and `flags` (`-l`
/// flags go after the test file).
pub fn build_and_run_with(cc: &str, dir: &Path, function: &str, include: &Path, flags: &[&str]) -> (i32, String) {
    let exe = dir.join(format!("native-{cc}"));
    let o = std::process::Command::new(cc)
        .args(["-Wall", "-Wextra", "-Werror", "-I."])
        .arg("-I")
        .arg(include)
        .args(flags.iter().filter(|f| !f.starts_with("-l")))
        .arg(format!("{function}_tests.c"))
        // Libraries after the file that uses them (the linker's order).
        .args(flags.iter().filter(|f| f.starts_with("-l")))
        .arg("-o")
        .arg(&exe)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{cc}, {function}: {}", String::from_utf8_lossy(&o.stderr));
    let run = std::process::Command::new(&exe).output().unwrap();
    (run.status.code().unwrap_or(-1), String::from_utf8_lossy(&run.stdout).into_owned())
}

/// The number of tests of a suite.
pub fn test_count(suite: &serde_json::Value) -> usize {
    suite["tests"].as_array().unwrap().len()
}

/// [`gen`] (`--k k`), then the native checks of a suite: `replay` (every
/// test passes or is an error not observed natively, and gcov agrees with
/// the prediction), and the test file built by gcc and clang-16 under
/// `-Werror` (`-I` the source's directory) and run (exit 0). Returns the
/// suite and the replay's outcome.
pub fn gen_checked(
    file: &str,
    function: &str,
    k: &str,
    out: &Path,
) -> (serde_json::Value, pathwise_cli::replay::ReplayOutcome) {
    let (_, suite) = gen(file, function, &["--k", k], out);
    let outcome = replay_passes(out, test_count(&suite), vec![], true);
    let include = root().join(file).parent().unwrap().to_path_buf();
    for cc in ["gcc", "clang-16"] {
        let (code, stdout) = build_and_run_with(cc, out, function, &include, &[]);
        assert_eq!(code, 0, "{cc}, {function}: {stdout}");
    }
    (suite, outcome)
}

/// Whether gcov measured every branch side of `function` covered (`None`:
/// gcov measured no branch of it); the replay must have its row.
pub fn branches_covered(outcome: &pathwise_cli::replay::ReplayOutcome, function: &str) -> Option<bool> {
    let row = outcome.rows.iter().find(|r| r.function == function);
    let row = row.unwrap_or_else(|| panic!("{function}: no coverage row in {:?}", outcome.rows));
    row.measured_branches.map(|(covered, total)| covered == total)
}

/// Each test's input `param` as text (its bytes, up to the first NUL with
/// `to_nul`), with the test's return value, sorted.
pub fn text_inputs(suite: &serde_json::Value, param: &str, to_nul: bool) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = suite["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| {
            let bytes: Vec<u8> = t["inputs"][param].as_array()?.iter().map(|b| b.as_u64().unwrap() as u8).collect();
            let text = if to_nul { bytes.split(|&b| b == 0).next().unwrap_or_default() } else { &bytes[..] };
            Some((String::from_utf8_lossy(text).into_owned(), t["expected"]["return"].as_i64()?))
        })
        .collect();
    out.sort();
    out
}

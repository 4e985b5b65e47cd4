//! Variadic functions defined in the unit (`tests/c/trust4/varargs.c`):
//! a call passes its `...` arguments in an argument area, `va_start`,
//! `va_arg`, `va_copy` and `va_end` read it, and `vsnprintf` formats from
//! it. Before, every function calling one was refused ("variadic function
//! definitions" unsupported), so a file with a logging helper had few
//! testable functions.

mod common;

use std::path::Path;

const FILE: &str = "tests/c/trust4/varargs.c";

/// Generate at k = 2 and replay natively: gcov agrees and, unless every
/// test is an error test (whose native runs record no coverage), covers
/// every branch side of `function`; gcc and clang build the file under
/// `-Werror`.
fn generate(function: &str, out: &Path) -> serde_json::Value {
    let (_, suite) = common::gen(FILE, function, &[], out);
    let n = suite["tests"].as_array().unwrap().len();
    let outcome = common::replay_passes(out, n, vec![], true);
    if common::errors(&suite).len() < n {
        let row = outcome.rows.iter().find(|r| r.function == function).unwrap();
        // (A function without a branch has no measured branches.)
        let (covered, total) = row.measured_branches.unwrap_or_default();
        assert_eq!(covered, total, "{function}: {:?}", outcome.rows);
    }
    for cc in ["gcc", "clang-16"] {
        let (code, stdout) = common::build_and_run_with(cc, out, function, &common::root().join("tests/c/trust4"), &[]);
        assert!(code == 0 || stdout.contains("not observed natively"), "{cc}, {function}: {stdout}");
    }
    suite
}

fn count(suite: &serde_json::Value) -> usize {
    suite["tests"].as_array().unwrap().len()
}

#[test]
fn callers_of_a_variadic_logger_are_tested() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("clamp", out.path());
    assert_eq!(count(&suite), 3);
    assert_eq!(common::returns(&suite).len(), 3);
}

#[test]
fn vsnprintf_formats_the_arguments_passed() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("report", out.path());
    // code < 0 with `who` empty or not ("%s" reads it, a loop bounded by
    // k), code >= 0: the lengths are vsnprintf's, and the global buffer
    // each test checks natively holds its text.
    assert_eq!(count(&suite), 4);
    let c = std::fs::read_to_string(out.path().join("report_tests.c")).unwrap();
    assert!(c.contains("last"), "the buffer is an output: {c}");
}

#[test]
fn va_arg_reads_each_argument_and_not_more() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("pair_sum", out.path());
    assert_eq!(count(&suite), 2);
    assert_eq!(common::errors(&suite), [("signed-overflow".to_string(), 52)]);
    let out = tempfile::tempdir().unwrap();
    let suite = generate("short_sum", out.path());
    // The third `va_arg` of two arguments passed reads past them.
    assert_eq!(common::errors(&suite), [("out-of-bounds".to_string(), 52), ("signed-overflow".to_string(), 52)]);
    let out = tempfile::tempdir().unwrap();
    let suite = generate("above_mean", out.path());
    // `double` arguments: (1.5 + a) / 2 > 3 is a decision on a.
    let mut rets = common::returns(&suite);
    rets.dedup();
    assert_eq!(rets, [0, 1]);
}

#[test]
fn a_variadic_function_is_tested_through_its_callers() {
    let out = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", FILE, "--function", "sum", "--out"])
        .arg(out.path())
        .current_dir(common::root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("`sum` is variadic: its `...` arguments are no inputs"), "{err}");
}

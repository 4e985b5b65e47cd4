//! Variadic functions defined in the unit (`tests/c/trust4/varargs.c`):
//! a call passes its `...` arguments in an argument area, `va_start`,
//! `va_arg`, `va_copy` and `va_end` read it, and `vsnprintf` formats from
//! it. Before, every function calling one was refused ("variadic function
//! definitions" unsupported), so a file with a logging helper had few
//! testable functions.

mod common;

use std::path::Path;

const FILE: &str = "tests/c/trust4/varargs.c";

/// Generate at k = 2, check the suite natively (see
/// `common::gen_checked`); gcov covers every branch side of `function`
/// unless every test is an error test (whose native runs record no
/// coverage) or it has no branch.
fn generate(function: &str, out: &Path) -> serde_json::Value {
    let (suite, outcome) = common::gen_checked(FILE, function, "2", out);
    if common::errors(&suite).len() < common::test_count(&suite) {
        assert_ne!(common::branches_covered(&outcome, function), Some(false), "{function}: {:?}", outcome.rows);
    }
    suite
}

#[test]
fn callers_of_a_variadic_logger_are_tested() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("clamp", out.path());
    assert_eq!(common::test_count(&suite), 3);
    assert_eq!(common::returns(&suite).len(), 3);
}

#[test]
fn vsnprintf_formats_the_arguments_passed() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("report", out.path());
    // code < 0 with `who` empty or not ("%s" reads it, a loop bounded by
    // k), code >= 0: the lengths are vsnprintf's, and the global buffer
    // each test checks natively holds its text.
    assert_eq!(common::test_count(&suite), 4);
    let c = std::fs::read_to_string(out.path().join("report_tests.c")).unwrap();
    assert!(c.contains("last"), "the buffer is an output: {c}");
}

#[test]
fn va_arg_reads_each_argument_and_not_more() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("pair_sum", out.path());
    assert_eq!(common::test_count(&suite), 2);
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

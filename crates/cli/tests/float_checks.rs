//! The floating-point checks of `gen --check` / `--no-check` (issue 26):
//! overflow (finite operands, an infinite result) and division by zero are
//! errors only when asked for, the undefined float-to-int conversion is one
//! by default; every error test stops natively where the engine's run did
//! (the test enables the exception's trap), at -O0 and -O2, with gcc and
//! clang, and `replay` agrees with gcov.
//!
//! The figures, from the source of tests/c/float_checks.c:
//! - `scale`: `x * y` overflows (an error), else the product is `> 1` or
//!   not (`r / 2` cannot overflow): 2 + 1 error; without the checks 2.
//! - `ratio`: `num / den` divides by zero, overflows (a tiny divisor), or
//!   neither: 1 + 2 errors; without the checks 1.
//! - `narrow`: the double is too large for a float, or not: 1 + 1.
//! - `sum_if_small`: `a + 1.0` cannot overflow under the guard; the
//!   guard fails on its first or second comparison (`&&`), and `a + b`
//!   overflows after either: 3 + 1 error (the other path ending there is
//!   folded into it, one error test per site).
//! - `truncate`: by default 1 + 1 `float-cast-overflow`; with `--no-check
//!   float-to-int` 1.

mod common;

use std::path::Path;

const CHECKS: &[&str] = &["--k", "1", "--check", "float-overflow,float-div-by-zero"];

struct Case {
    function: &'static str,
    args: &'static [&'static str],
    returned: usize,
    errors: &'static [(&'static str, u64)],
}

const CASES: &[Case] = &[
    Case { function: "scale", args: CHECKS, returned: 2, errors: &[("float-overflow", 9)] },
    Case { function: "scale", args: &["--k", "1"], returned: 2, errors: &[] },
    Case { function: "ratio", args: CHECKS, returned: 1, errors: &[] },
    Case { function: "ratio", args: &["--k", "1"], returned: 1, errors: &[] },
    Case { function: "narrow", args: CHECKS, returned: 1, errors: &[("float-overflow", 24)] },
    Case { function: "sum_if_small", args: CHECKS, returned: 3, errors: &[("float-overflow", 32)] },
    Case { function: "truncate", args: &["--k", "1"], returned: 1, errors: &[("float-cast-overflow", 38)] },
    Case { function: "truncate", args: &["--k", "1", "--no-check", "float-to-int"], returned: 1, errors: &[] },
];

fn run_case(case: &Case, out: &Path) -> serde_json::Value {
    let (_, suite) = common::gen("tests/c/float_checks.c", case.function, case.args, out);
    suite
}

#[test]
fn checked_float_errors_are_found_and_trap_natively() {
    for case in CASES {
        let out = tempfile::tempdir().unwrap();
        let suite = run_case(case, out.path());
        let what = format!("{} {:?}", case.function, case.args);
        let tests = suite["tests"].as_array().unwrap();
        let returned = tests.iter().filter(|t| t["outcome"] == "returned").count();
        assert_eq!(returned, case.returned, "{what}");
        let mut errors = common::errors(&suite);
        if case.function == "ratio" && case.args == CHECKS {
            // The division's two errors are at one site: each its own kind.
            errors.sort();
            assert_eq!(
                errors,
                vec![("float-division-by-zero".to_string(), 18), ("float-overflow".to_string(), 18)],
                "{what}"
            );
        } else {
            let want: Vec<(String, u64)> = case.errors.iter().map(|(k, l)| (k.to_string(), *l)).collect();
            assert_eq!(errors, want, "{what}");
        }
        assert_eq!(suite["stop"], "complete", "{what}");
        common::replay_passes(out.path(), tests.len(), vec![], true);
        // Overflows trap natively; a division by zero does unless it is
        // `0.0 / 0.0` (the invalid exception), and the undefined conversion
        // only under UBSan: those may be counted apart, never failures.
        let may_not_trap = tests
            .iter()
            .filter(|t| matches!(t["error"]["kind"].as_str(), Some("float-division-by-zero" | "float-cast-overflow")))
            .count();
        for cc in ["gcc", "clang-16"] {
            if which(cc).is_none() {
                continue;
            }
            for opt in ["-O0", "-O2"] {
                let include = common::root().join("tests/c");
                let (code, stdout) = common::build_and_run_with(cc, out.path(), case.function, &include, &[opt, "-lm"]);
                assert_eq!(code, 0, "{what} {cc} {opt}: {stdout}");
                let not_observed = count_not_observed(&stdout);
                assert!(not_observed <= may_not_trap, "{what} {cc} {opt}: {stdout}");
                let passed = tests.len() - not_observed;
                assert!(stdout.contains(&format!("{passed} passed, 0 failed")), "{what} {cc} {opt}: {stdout}");
            }
        }
    }
}

fn count_not_observed(stdout: &str) -> usize {
    stdout.lines().filter(|l| l.contains("error not observed natively")).count()
}

fn which(cc: &str) -> Option<()> {
    std::process::Command::new(cc).arg("--version").output().ok().filter(|o| o.status.success()).map(|_| ())
}

/// Each error test names its exception's trap, and no test without such
/// an error enables one.
#[test]
fn only_overflow_and_division_tests_enable_a_trap() {
    let out = tempfile::tempdir().unwrap();
    let suite = run_case(&CASES[0], out.path());
    let c = std::fs::read_to_string(out.path().join("scale_tests.c")).unwrap();
    let traps = c.matches("pathwise_feenableexcept(0x08);").count();
    assert_eq!(traps, 1, "{c}");
    assert_eq!(common::errors(&suite).len(), 1);
    assert!(!c.contains("pathwise_feenableexcept(0x04)"), "{c}");
}

#[test]
fn contradicting_checks_are_refused() {
    let out = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", "tests/c/float_checks.c", "--function", "scale", "--k", "1"])
        .args(["--check", "float-overflow", "--no-check", "float-overflow", "--out"])
        .arg(out.path())
        .current_dir(common::root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("`--check float-overflow` and `--no-check float-overflow` contradict each other"),
        "{stderr}"
    );
}

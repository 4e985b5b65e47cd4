//! Rounding directions (issue 26): after `fesetround`, arithmetic,
//! `sqrt` and `rint` round as x86-64's SSE unit does in that direction,
//! symbolically, so that the paths that depend on the direction are
//! found; every test passes natively (gcc and clang at -O0, clang at -O2
//! under `-ffp-model=strict`; gcc moves floating operations across
//! `fesetround` when it optimises, even under `-frounding-math`).
//!
//! The path counts of tests/c/rounding.c, from the source (k = 1):
//! - `exact_quotient`: `d == 0`; the quotient's bounds equal (exact) or
//!   not; the lower bound above the upper never: 3.
//! - `rint_in`: a mode that is no direction (refused); then per
//!   direction the sides of `r > x`, `r < x` that it allows (rounding up
//!   is never below x, down never above; to nearest and toward zero both
//!   ways): 1 + 3 + 2 + 2 + 3 = 11.
//! - `sum_spread`: NaN, exact, up above toward-zero (a positive inexact
//!   sum); up below it never: 3.
//! - `sqrt_up`: the square of the root rounded up is below x only for
//!   NaN and negative x: 2.
//! - `scaled_up`: `long double` arithmetic in a direction is not
//!   modelled: no test, and the stop says where.

mod common;

struct Case {
    function: &'static str,
    returns: &'static [i64],
}

const CASES: &[Case] = &[
    Case { function: "exact_quotient", returns: &[-1, 0, 1] },
    Case { function: "rint_in", returns: &[-1, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5] },
    Case { function: "sum_spread", returns: &[0, 1, 2] },
    Case { function: "sqrt_up", returns: &[0, 1] },
];

#[test]
fn every_path_of_a_rounding_direction_gets_a_test_that_passes_natively() {
    for &Case { function, returns } in CASES {
        let out = tempfile::tempdir().unwrap();
        let (_, suite) = common::gen("tests/c/rounding.c", function, &["--k", "1"], out.path());
        let mut got = common::returns(&suite);
        got.sort_unstable();
        assert_eq!(got, returns, "{function}");
        assert_eq!(suite["stop"], "complete", "{function}");
        let stats = &suite["stats"];
        let pinned = (stats["values_concretised"].as_u64(), stats["float_values_concretised"].as_u64());
        assert_eq!(pinned, (Some(0), Some(0)), "{function}");
        common::replay_passes(out.path(), returns.len(), vec![], true);
        let include = common::root().join("tests/c");
        let builds: [(&str, &[&str]); 3] = [
            ("gcc", &["-O0", "-lm"]),
            ("clang-16", &["-O0", "-lm"]),
            ("clang-16", &["-O2", "-ffp-model=strict", "-lm"]),
        ];
        for (cc, flags) in builds {
            let (code, stdout) = common::build_and_run_with(cc, out.path(), function, &include, flags);
            assert_eq!(code, 0, "{function}, {cc} {flags:?}: {stdout}");
            let line = format!("{} passed, 0 failed", returns.len());
            assert!(stdout.contains(&line), "{function}, {cc} {flags:?}: {stdout}");
        }
    }
}

/// The directions are the solver's too: the test for an inexact quotient
/// has one (the quotient to nearest times the divisor is not the
/// dividend; float products are exact in double).
#[test]
fn the_inexact_quotient_is_inexact() {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen("tests/c/rounding.c", "exact_quotient", &["--k", "1"], out.path());
    let tests = suite["tests"].as_array().unwrap();
    let inexact = tests.iter().find(|t| t["expected"]["return"] == 0).expect("a test returning 0");
    let value = |name: &str| inexact["inputs"][name].as_i64().unwrap();
    let (n, d) = (value("n") as f32, value("d") as f32);
    assert_ne!(f64::from(n / d) * f64::from(d), f64::from(n), "{n} / {d} is exact");
}

/// `long double` arithmetic in a direction is refused with its place, not
/// computed to nearest.
#[test]
fn long_double_arithmetic_in_a_direction_is_unsupported_and_said_so() {
    let out = tempfile::tempdir().unwrap();
    let (stdout, suite) = common::gen("tests/c/rounding.c", "scaled_up", &["--k", "1"], out.path());
    assert_eq!(common::test_count(&suite), 0);
    assert_ne!(suite["stop"], "complete");
    assert!(stdout.contains("rounding.c:72:19: `long double` arithmetic rounded Up"), "{stdout}");
}

/// In `testcomp`, a run that stops at what the engine does not model is
/// still a test of the inputs it read: natively the program goes on
/// past that point, and Test-Comp counts what it covers.
#[test]
fn a_testcomp_run_cut_short_by_an_unsupported_construct_is_a_test() {
    let out = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["testcomp", "tests/c/rounding_task.c", "--property", "tests/testcomp/coverage-branches.prp", "--out"])
        .arg(out.path())
        .current_dir(common::root())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&o.stderr));
    // `d > 2`, and the run that stopped at the multiplication.
    assert!(text.contains("pathwise testcomp: 2 tests"), "{text}");
    assert!(text.contains("rounding_task.c:14:21: `long double` arithmetic rounded Up"), "{text}");
    let cases = std::fs::read_dir(out.path()).unwrap().filter_map(Result::ok);
    let n = cases.filter(|e| e.file_name().to_string_lossy().starts_with("testcase")).count();
    assert_eq!(n, 2);
}

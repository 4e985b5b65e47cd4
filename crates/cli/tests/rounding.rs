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
//! - `third_in`: `long double` (x87) arithmetic and its conversion to
//!   double in a direction: up gives 1/3 whose triple is 1 and whose
//!   double is above the nearest; down neither: 2.
//! - `decimal_in`: `snprintf`'s last digit and `strtod` in a direction:
//!   up "1.01" and the double above 0.1 (the nearest), down "1.00" and
//!   the one below: 2.

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
    Case { function: "third_in", returns: &[1, 4] },
    Case { function: "decimal_in", returns: &[0, 11] },
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

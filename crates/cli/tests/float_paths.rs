//! Symbolic floating point end to end (issue 26): every feasible path of
//! the functions of tests/c/float_paths.c gets a test, with the special
//! values (NaN, infinities, -0.0, subnormals) the path needs; every test
//! passes natively at -O0 and -O2 and gcov agrees with the prediction.
//!
//! The path counts, worked out from the source (k = 1: no loop depends on
//! an input):
//! - `close_enough`: `fabs(a - b) < 1e-9` or not: 2.
//! - `quadratic` (floats): `a == 0`; else the discriminant `> 0`, `== 0`,
//!   or neither (negative, or NaN): 4.
//! - `newton_sqrt`: `x < 0`, `x == 0`, else the four fixed iterations (a
//!   NaN takes that path too): 3.
//! - `clamp_to_int`: NaN, `>= 2^31`, `<= -2^31`, in range (where the
//!   conversion is defined: no error path): 4.
//! - `nan_max`: `a` NaN, `b` NaN, `a > b`, not: 4.
//! - `classify` (a float): NaN, +inf, -inf, +0.0, -0.0, subnormal,
//!   normal: 7.
//! - `to_int`: the conversion out of range (a `float-cast-overflow` error
//!   test), in range and `> 10` or not: 2 + 1 error.

mod common;

use std::path::Path;

/// One function and its exact figures: tests that return, error tests.
struct Case {
    function: &'static str,
    returned: usize,
    errors: &'static [(&'static str, u64)],
}

const CASES: &[Case] = &[
    Case { function: "close_enough", returned: 2, errors: &[] },
    Case { function: "quadratic", returned: 4, errors: &[] },
    Case { function: "newton_sqrt", returned: 3, errors: &[] },
    Case { function: "clamp_to_int", returned: 4, errors: &[] },
    Case { function: "nan_max", returned: 4, errors: &[] },
    Case { function: "classify", returned: 7, errors: &[] },
    Case { function: "to_int", returned: 2, errors: &[("float-cast-overflow", 86)] },
];

fn gen(function: &str, out: &Path) -> (String, serde_json::Value) {
    common::gen("tests/c/float_paths.c", function, &["--k", "1"], out)
}

#[test]
fn every_float_path_gets_a_test_that_passes_natively() {
    for &Case { function, returned, errors } in CASES {
        let out = tempfile::tempdir().unwrap();
        let (_, suite) = gen(function, out.path());
        let tests = suite["tests"].as_array().unwrap();
        let n_returned = tests.iter().filter(|t| t["outcome"] == "returned").count();
        assert_eq!(n_returned, returned, "{function}");
        let want: Vec<(String, u64)> = errors.iter().map(|(k, l)| (k.to_string(), *l)).collect();
        assert_eq!(common::errors(&suite), want, "{function}");
        assert_eq!(suite["stop"], "complete", "{function}");
        let stats = &suite["stats"];
        assert_eq!(
            (stats["float_inputs_concretised"].as_u64(), stats["float_values_concretised"].as_u64()),
            (Some(0), Some(0)),
            "{function}"
        );
        common::replay_passes(out.path(), tests.len(), vec![], true);
        for opt in ["-O0", "-O2"] {
            let (code, stdout) = common::build_and_run(out.path(), function, &[opt, "-lm"]);
            assert_eq!(code, 0, "{function} {opt}: {stdout}");
            assert!(stdout.contains(&format!("{returned} passed, 0 failed")), "{function} {opt}: {stdout}");
        }
    }
}

/// The classifier's paths need a NaN, both infinities, both zeros and a
/// subnormal: the solver finds them and the test file writes them exactly.
#[test]
fn special_values_are_found_and_written() {
    let out = tempfile::tempdir().unwrap();
    gen("classify", out.path());
    let c = std::fs::read_to_string(out.path().join("classify_tests.c")).unwrap();
    let inputs: Vec<&str> = c.lines().filter_map(|l| l.trim().strip_prefix("float x = ")).collect();
    assert_eq!(inputs.len(), 7, "{c}");
    let has = |p: &dyn Fn(&str) -> bool| inputs.iter().any(|l| p(l));
    assert!(has(&|l| l.contains("nan")), "{inputs:?}");
    assert!(has(&|l| l.starts_with("__builtin_inff()")), "{inputs:?}");
    assert!(has(&|l| l.starts_with("(-__builtin_inff()")), "{inputs:?}");
    assert!(has(&|l| l.starts_with("0x0p+0f")), "{inputs:?}");
    assert!(has(&|l| l.starts_with("(-0x0p+0f)")), "{inputs:?}");
    // A subnormal float: 0x0.xxxp-126 or a normalised hex below 2^-126.
    let subnormal = |l: &str| {
        let v = l.trim_start_matches("(-").trim_end_matches([';', ')']).trim_end_matches('f');
        let bits = hexf(v);
        bits.is_some_and(|x| x != 0.0 && x.abs() < f32::MIN_POSITIVE as f64)
    };
    assert!(has(&subnormal), "{inputs:?}");
}

/// A C hexadecimal floating literal's value (`0x1.8p+1`), if it is one.
fn hexf(s: &str) -> Option<f64> {
    let s = s.strip_prefix("0x")?;
    let (mant, exp) = s.split_once('p')?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let mut v = u64::from_str_radix(int, 16).ok()? as f64;
    for (i, d) in frac.chars().enumerate() {
        v += d.to_digit(16)? as f64 / 16f64.powi(i as i32 + 1);
    }
    Some(v * 2f64.powi(exp.parse().ok()?))
}

/// `bounded`: `c * 0.5 + s / 4.0` lies in [-8192, 8319.75], so both
/// conversions are defined and `d > 1e4` is false: the value ranges decide
/// them (`pathwise_expr::float_range`), and no query has floats. Before,
/// each conversion's failing side was a query refuting a floating
/// multiplier (and the comparison a decision), seconds each.
#[test]
fn ranges_decide_bounded_conversions_without_float_queries() {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = gen("bounded", out.path());
    let tests = suite["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 2, "c > s or not");
    assert!(tests.iter().all(|t| t["outcome"] == "returned"));
    assert_eq!(suite["stop"], "complete");
    assert_eq!(suite["stats"]["float_solver_calls"], 0);
    common::replay_passes(out.path(), tests.len(), vec![], true);
}

/// `newton_step`: refuting `x >= 0.1` takes Z3 minutes. Under `--timeout
/// 20` a query with floats gets 2 s, so that one prefix is left undecided
/// (never counted infeasible) and the other paths still get their tests
/// well before the limit: both ways out of the range check, `k > 3` or
/// not. Without the budget the run spent its 20 s on that query.
#[test]
fn a_hard_float_query_gets_a_budget_and_the_search_goes_on() {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen("tests/c/float_paths.c", "newton_step", &["--k", "1", "--timeout", "20"], out.path());
    let tests = suite["tests"].as_array().unwrap();
    let mut returns: Vec<i64> = tests.iter().map(|t| t["expected"]["return"].as_i64().unwrap()).collect();
    returns.sort();
    assert_eq!(returns, [0, 0, 1, 3]);
    assert_eq!(suite["stop"], "explored", "undecided, not complete, and not the time limit");
    assert_eq!(suite["stats"]["unknown_prefixes"], 1);
    common::replay_passes(out.path(), tests.len(), vec![], true);
}

/// `spread`: its queries read an input array's cells at constant indices,
/// and the search for models by evaluation answers them (Z3 took 3 s for
/// the 30 queries; with the search, 0.2 s). The paths: `n < 3`; else in
/// each of the two iterations a value below the minimum, above the
/// maximum or neither, then the three outcomes, except that where neither
/// iteration moved a bound the spread is 0 (or NaN): 1 + 8 * 3 + 1.
#[test]
fn array_cells_are_searched_and_every_path_is_found() {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen("tests/c/float_paths.c", "spread", &["--k", "2"], out.path());
    let tests = suite["tests"].as_array().unwrap();
    let count = |r: i64| tests.iter().filter(|t| t["expected"]["return"].as_i64() == Some(r)).count();
    assert_eq!((count(-1), count(0), count(1), count(2)), (1, 9, 8, 8));
    assert_eq!(tests.len(), 26);
    assert_eq!(suite["stop"], "complete");
    let searched = suite["stats"]["float_searched"].as_u64().unwrap();
    assert!(searched >= 20, "{searched} of 30 float queries answered by the search");
    common::replay_passes(out.path(), tests.len(), vec![], true);
}

//! Floating point end to end: for every function of tests/c/floats.c the
//! generated tests (whose expected outputs are the engine's IEEE results)
//! must pass natively and agree with gcov, and the statistics must report
//! what was concretised: nothing, since floating values are symbolic (issue
//! 26; before, float inputs and symbolic values entering floating
//! operations kept their concrete values: `halves` had 2 paths and
//! `classify` 1).

mod common;

use std::path::Path;

/// Runs `pathwise gen` on one function; returns (stdout, JSON suite).
fn gen(function: &str, k: u32, out: &Path) -> (String, serde_json::Value) {
    common::gen("tests/c/floats.c", function, &["--k", &k.to_string()], out)
}

/// One function of the corpus and what its suite must hold.
struct Case {
    function: &'static str,
    k: u32,
    /// Tests that return.
    returned: usize,
    /// Error tests as (kind, line).
    errors: &'static [(&'static str, u64)],
    /// Float inputs concretised, symbolic values concretised.
    concretised: (u64, u64),
}

const fn case(function: &'static str, k: u32, returned: usize, concretised: (u64, u64)) -> Case {
    Case { function, k, returned, errors: &[], concretised }
}

const FUNCTIONS: &[Case] = &[
    case("halves", 2, 3, (0, 0)), // n > 100, else d = n * 0.5 > 10.25 or not
    // c > 100 with u <= 7 overflows `int` (the conversion's check)
    Case { function: "conversions", k: 2, returned: 3, errors: &[("float-cast-overflow", 35)], concretised: (0, 0) },
    case("nan_checks", 2, 3, (0, 0)), // k - k folds to 0: nothing symbolic reaches a float
    case("specials", 2, 4, (0, 0)),   // NaN, -inf, -0.0, a subnormal
    case("average", 2, 3, (0, 0)),    // 0, 1, 2 iterations
    case("fields", 2, 3, (0, 0)),     // i < 0, i >= 4, in range (a[i] read symbolically)
    case("scale_hist", 3, 2, (0, 0)), // a loop of 3 iterations, then k > 0 or not
    // x == 0 && y >= 0; else x < y or not, with x == 0 (y < 0 or NaN) or x != 0
    case("classify", 2, 4, (0, 0)),
    // isunordered, isgreater, isless (then the others on x < y), equal
    case("quiet_compare", 2, 4, (0, 0)),
];

#[test]
fn floating_tests_pass_natively_with_nothing_concretised() {
    for &Case { function, k, returned, errors, concretised: (inputs, values) } in FUNCTIONS {
        let out = tempfile::tempdir().unwrap();
        let (stdout, suite) = gen(function, k, out.path());
        let tests = suite["tests"].as_array().unwrap();
        let n_returned = tests.iter().filter(|t| t["outcome"] == "returned").count();
        assert_eq!(n_returned, returned, "{function}");
        let got = common::errors(&suite);
        let want: Vec<(String, u64)> = errors.iter().map(|(kind, l)| (kind.to_string(), *l)).collect();
        assert_eq!(got, want, "{function}");
        let stats = &suite["stats"];
        assert_eq!(
            (stats["float_inputs_concretised"].as_u64(), stats["float_values_concretised"].as_u64()),
            (Some(inputs), Some(values)),
            "{function}"
        );
        let line = format!("floating-point:      {inputs} inputs concretised, {values} symbolic values concretised");
        assert_eq!(stdout.contains(&line), inputs + values > 0, "{function}:\n{stdout}");
        assert_eq!(stdout.contains("floating-point:"), inputs + values > 0, "{function}:\n{stdout}");
        common::replay_passes(out.path(), tests.len(), vec![], true);
    }
}

/// Expected outputs are exact: NaN, infinities, `-0.0` and subnormals are
/// written so that gcc reads back the same bits.
#[test]
fn special_values_are_written_exactly() {
    let out = tempfile::tempdir().unwrap();
    gen("specials", 2, out.path());
    let c = std::fs::read_to_string(out.path().join("specials_tests.c")).unwrap();
    // x86 computes 0.0 / 0.0 as a negative NaN.
    for lit in ["\"return\", (-__builtin_nan(\"\"))", "\"return\", (-__builtin_inf())", "\"return\", (-0x0p+0)"] {
        assert!(c.contains(lit), "{lit} missing:\n{c}");
    }
    // A subnormal (its value depends on the solver's choice of k).
    assert!(c.lines().any(|l| l.contains("\"return\", 0x0.") && l.contains("p-1022")), "{c}");
}

#[test]
fn generation_is_deterministic() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_, mut x) = gen("fields", 2, a.path());
    let (_, mut y) = gen("fields", 2, b.path());
    for v in [&mut x, &mut y] {
        for key in ["elapsed_ms", "solver_ms"] {
            v["stats"].as_object_mut().unwrap().remove(key);
        }
    }
    assert_eq!(x, y);
    let cx = std::fs::read_to_string(a.path().join("fields_tests.c")).unwrap();
    let cy = std::fs::read_to_string(b.path().join("fields_tests.c")).unwrap();
    assert_eq!(cx, cy);
}

//! gcc's integer bit built-ins on symbolic inputs (`tests/c/builtins.c`):
//! the lowering adds no decision of its own, the solver inverts it, a
//! zero argument of `__builtin_clz`/`ctz` is an `invalid-builtin-argument`
//! error test, and every test passes natively with gcov agreeing.

mod common;

/// (function, tests, error tests as (kind, line)).
type Case = (&'static str, usize, &'static [(&'static str, u64)]);

/// The cases, derived by hand:
/// - `bits_mix`: no branch, 1 test;
/// - `weight_is_3`: popcount == 3 or not, 2 tests;
/// - `high_half`: `x == 0` (the error), then `n >= 16` or not, 3 tests;
/// - `swapped`: 2 tests (one with `v == 0x3412`);
/// - `lowest`: `i == 0`, `i > 40`, neither: 3 tests;
/// - `trailing`: `v == 0` (the error), `ctz == 63` or not: 3 tests.
const CASES: &[Case] = &[
    ("bits_mix", 1, &[]),
    ("weight_is_3", 2, &[]),
    ("high_half", 3, &[("invalid-builtin-argument", 18)]),
    ("swapped", 2, &[]),
    ("lowest", 3, &[]),
    ("trailing", 3, &[("invalid-builtin-argument", 43)]),
];

#[test]
fn bit_builtins_on_symbolic_inputs() {
    for &(function, n, errors) in CASES {
        let suite = common::generate_and_replay("tests/c/builtins.c", function, &[], true);
        let tests = suite["tests"].as_array().unwrap();
        assert_eq!(tests.len(), n, "{function}: {suite:#}");
        let want: Vec<(String, u64)> = errors.iter().map(|(k, l)| (k.to_string(), *l)).collect();
        assert_eq!(common::errors(&suite), want, "{function}");
        assert_eq!(suite["stop"], "complete", "{function}");
    }
    // The solver found the byte-swapped value.
    let suite = common::generate_and_replay("tests/c/builtins.c", "swapped", &[], true);
    let inputs: Vec<u64> =
        suite["tests"].as_array().unwrap().iter().filter_map(|t| t["inputs"]["v"].as_u64()).collect();
    assert!(inputs.contains(&0x3412), "{inputs:?}");
}

//! Every error kind of tests/c/errors.c is found with its kind and line, and
//! its counterpart (`NAME_ok`) reports none; the tests, error tests
//! included, pass when compiled natively.

mod common;

/// (function, the error tests as (kind, line), whether gcov must agree)
type Case = (&'static str, &'static [(&'static str, u64)], bool);

/// (function, errors as (kind, line) in test order, gcov agrees). Tests
/// ending by `abort`, a failed `assert`, or a sanitizer check that ends a
/// basic block (division, shift, bounds, null) write gcov's counters, so
/// their coverage is compared. A test stopped inside a block (a signed
/// overflow) writes none, and replay compares the other tests' predicted
/// coverage (see `pathwise_emit::c_tests` and `replay.rs`): every case
/// agrees.
const CASES: &[Case] = &[
    ("div_zero", &[("division-by-zero", 10), ("division-overflow", 10)], true),
    ("div_zero_ok", &[], true),
    ("div_overflow", &[("division-overflow", 13)], true),
    ("div_overflow_ok", &[], true),
    ("overflow", &[("signed-overflow", 16)], true),
    ("overflow_ok", &[], true),
    ("mul_overflow", &[("signed-overflow", 53)], true),
    ("mul_overflow_ok", &[], true),
    ("shift", &[("invalid-shift", 19)], true),
    ("shift_ok", &[], true),
    ("oob_global", &[("out-of-bounds", 22)], true),
    ("oob_global_ok", &[], true),
    ("oob_local", &[("out-of-bounds", 25)], true),
    ("oob_local_ok", &[], true),
    ("oob_input", &[("out-of-bounds", 28)], true),
    ("oob_input_ok", &[], true),
    ("oob_input_write", &[("out-of-bounds", 45)], true),
    ("oob_input_write_ok", &[], true),
    ("oob_input_index", &[("out-of-bounds", 47)], true),
    ("oob_input_index_ok", &[], true),
    ("oob_input_pre", &[("out-of-bounds", 50)], true),
    ("oob_input_pre_ok", &[], true),
    ("null_deref", &[("null-dereference", 31)], true),
    ("null_deref_ok", &[], true),
    ("assertion", &[("assertion-failure", 34)], true),
    ("assertion_ok", &[], true),
    ("aborts", &[("abort", 37)], true),
    ("aborts_ok", &[], true),
    ("exits", &[("exit", 40)], true),
    ("exits_ok", &[], true),
];

/// The functions checked under a precondition (function, precondition).
const PRECONDITIONS: &[(&str, &str)] = &[("oob_input_pre", "oob_input_valid"), ("oob_input_pre_ok", "oob_input_valid")];

#[test]
fn each_error_kind_is_found_and_its_counterpart_is_clean() {
    for &(function, want, compare_coverage) in CASES {
        let pre = PRECONDITIONS.iter().find(|p| p.0 == function).map(|p| ["--precondition", p.1]);
        let extra: Vec<&str> = pre.iter().flatten().copied().collect();
        let suite = common::generate_and_replay("tests/c/errors.c", function, &extra, compare_coverage);
        let want: Vec<(String, u64)> = want.iter().map(|(k, l)| (k.to_string(), *l)).collect();
        assert_eq!(common::errors(&suite), want, "{function}");
    }
}

//! `long double` in 80 bits end to end (issue 26): the functions of
//! tests/c/long_double.c get their exact paths, and every test passes
//! natively (gcc at -O0 and -O2, and clang where installed), its outputs
//! compared as `long double`s, so a value off in the 64th bit of the
//! significand fails it.
//!
//! The path counts, worked out from the source (k = 3):
//! - `near_tenth`: `x < 0.1L`, `x > 0.1L`, and a NaN (no double equals
//!   `0.1L`): 3, complete.
//! - `accumulate`: 0 to 3 terms (`n <= 0`, 1, 2, 3), the comparison with
//!   `0.25L` then fixed by `n`: 4, complete.
//! - `beyond_double`: `scale > 0` or not; the division pins `scale`: 2.
//! - `kind`: NaN, infinite, zero, normal (a double input is never a
//!   subnormal `long double`): 4, complete.
//! - `show`: `digits < 0`, `> 30`, `> 20`, else; the precision is pinned:
//!   4.
//! - `parse_root`: `which < 0`, `> 3`, and each of the 4 texts (a table
//!   of strings indexed by an input has a path per entry): 6, complete.
//! - `finite_kind`: finite, NaN, infinite (`isfinite` of a `long double`
//!   is comparisons, not an 80-bit subtraction that would pin it): 3,
//!   complete.
//! - `transcendental`: `n < 0`, `> 8`, else (the host libm's `sinl`,
//!   `expl`, `powl`... pin `n`): 3.
//! - `math_errno`: the four cases and the default; each returns what
//!   glibc's `errno` is after `log(0)`, `acos(2)`, `logl(0)`,
//!   `powl(-1, 0.5)` (a test expecting it unchanged fails natively): 5.
//! - `float_forms`: `which < 0`, `> 1`, 0 (`sinf`, `expf`, `powf`), 1
//!   (`logf(0)`, ERANGE): 4.

mod common;

use std::path::Path;

/// One function: its tests, and whether the search is complete.
const CASES: [(&str, usize, bool); 10] = [
    ("near_tenth", 3, true),
    ("accumulate", 4, true),
    ("beyond_double", 2, false),
    ("kind", 4, true),
    ("show", 4, false),
    ("parse_root", 6, true),
    ("finite_kind", 3, true),
    ("transcendental", 3, false),
    ("math_errno", 5, false),
    ("float_forms", 4, false),
];

fn gen(function: &str, out: &Path) -> (String, serde_json::Value) {
    common::gen("tests/c/long_double.c", function, &["--k", "3"], out)
}

/// The C compilers to build the tests with: gcc, and clang when installed.
fn compilers() -> Vec<&'static str> {
    let installed = |cc: &str| std::process::Command::new(cc).arg("--version").output().is_ok();
    ["gcc", "clang", "clang-16"].into_iter().filter(|cc| installed(cc)).take(2).collect()
}

#[test]
fn long_double_paths_replay_natively_in_80_bits() {
    for (function, n, complete) in CASES {
        let out = tempfile::tempdir().unwrap();
        let (stdout, suite) = gen(function, out.path());
        let tests = suite["tests"].as_array().unwrap();
        assert_eq!(tests.len(), n, "{function}: {stdout}");
        assert!(tests.iter().all(|t| t["outcome"] == "returned"), "{function}");
        assert_eq!(suite["stop"] == "complete", complete, "{function}: {stdout}");
        common::replay_passes(out.path(), n, vec![], true);
        for cc in compilers() {
            for opt in ["-O0", "-O2"] {
                let include = common::root().join("tests/c");
                let (code, text) = common::build_and_run_with(cc, out.path(), function, &include, &[opt, "-lm"]);
                assert_eq!(code, 0, "{function} {cc} {opt}: {text}");
                assert!(text.contains(&format!("{n} passed, 0 failed")), "{function} {cc} {opt}: {text}");
            }
        }
    }
}

/// Values that are no doubles are written exactly, as hexadecimal
/// `long double` constants, and kept in the JSON as their 80 bits.
#[test]
fn values_that_are_no_doubles_are_written_exactly() {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = gen("accumulate", out.path());
    let c = std::fs::read_to_string(out.path().join("accumulate_tests.c")).unwrap();
    // 0.1L, then 0.1L + 0.1L and three terms, as glibc's `%La` prints them.
    for total in ["0xc.ccccccccccccccdp-7L", "0xc.ccccccccccccccdp-6L", "0x9.99999999999999ap-5L"] {
        assert!(c.contains(&format!("\"total\", {total}, total)")), "{total}: {c}");
    }
    // The JSON keeps the 80 bits (beyond 64: a hexadecimal string).
    let outputs: Vec<&serde_json::Value> =
        suite["tests"].as_array().unwrap().iter().map(|t| &t["expected"]["globals"]["total"]).collect();
    assert!(outputs.contains(&&serde_json::json!("0x3ffbcccccccccccccccd")), "{outputs:?}");
}

//! C semantics checked against gcc: for every function of
//! tests/c/semantics.c, the generated tests (whose expected outputs are the
//! engine's) must pass when compiled natively, and generation must be
//! deterministic.

mod common;

/// (`--all-error-tests`: every error path is compared with gcc's run.)
fn gen_json(function: &str, k: u32, out: &std::path::Path) -> serde_json::Value {
    common::gen("tests/c/semantics.c", function, &["--k", &k.to_string(), "--all-error-tests"], out).1
}

/// Signed overflow, the error most of these functions can run into: `a * 3`,
/// `a[i] - key`, `n - 1` with `INT_MIN`, a negative value shifted left...
const SO: &str = "signed-overflow";

/// (function, exact number of feasible k-paths at k = 2 unless listed in
/// `K_OVERRIDE`, the error tests as (kind, line) in test order)
type Expected = (&'static str, usize, &'static [(&'static str, u32)]);

const FUNCTIONS: &[Expected] = &[
    ("uc_wrap", 2, &[]),          // c < a or not
    ("mixed_signedness", 3, &[]), // three returns, all reachable
    ("shifts", 3, &[]),           // s >= 32; then r < 0 or not
    // b == 0; a == LONG_MIN && b == -1 (T, F); then r < 0 (T/F) twice; the
    // 64-bit `q * 10` overflows on both sides of r < 0
    ("div_mod", 6, &[(SO, 40), (SO, 39), (SO, 39), (SO, 40)]),
    ("narrow", 3, &[(SO, 45)]),
    ("bools", 4, &[]),
    ("big", 4, &[]),
    ("counters", 21, &[(SO, 74), (SO, 74), (SO, 74), (SO, 74), (SO, 74)]), // 0, 1 or 2 iterations, 4 switch outcomes each: 1 + 4 + 16
    ("histogram", 3, &[]),                                                 // 0, 1, 2 iterations
    // four range checks fail (4) or the aliased read is > 5 or not (2); `v`
    // or `y` may be negative enough that the write or the read is before
    // `tab`
    ("aliasing", 6, &[("out-of-bounds", 114), ("out-of-bounds", 113), (SO, 106)]),
    ("goto_loop", 6, &[]),
    ("use_fact", 4, &[]), // n > 12; fact at depth 1, 2, 3 (k = 2 nested activations)
    ("bytes_of", 3, &[]), // n <= 0; c[0] == 7 or not (a void * input is bytes)
    // n == 0 after 0..5 calls: the depth is the activations of the cycle's
    // entry is_even below the first (seed 000), at most 2 for n = 0..5;
    // n - 1 overflows (n == INT_MIN) in any of the first 5 activations
    ("is_even", 6, &[(SO, 166), (SO, 173), (SO, 166), (SO, 173), (SO, 166)]),
    ("compound", 2, &[(SO, 182), (SO, 181)]), // c > 10 or not after the wrapped compound assignment
    ("incdec", 3, &[(SO, 197), (SO, 198), (SO, 193), (SO, 193)]), // x == 2 after two increments; else y > 0 or not
    ("counter", 2, &[]),                      // the static total passes 10 or not (fresh in each test process)
    ("matrix", 5, &[]), // at k = 4 (loops of 3 and 4 iterations): 4 range checks fail, or the read
    ("quotient", 1, &[("division-by-zero", 155), ("division-overflow", 155)]), // b == 0 and INT_MIN / -1 are error tests
];

/// Functions whose constant loops need a larger k to have any k-path.
const K_OVERRIDE: &[(&str, u32)] = &[("matrix", 4)];

#[test]
fn engine_semantics_agree_with_gcc() {
    for &(function, expected, expected_errors) in FUNCTIONS {
        let out = tempfile::tempdir().unwrap();
        let k = K_OVERRIDE.iter().find(|(f, _)| *f == function).map_or(2, |(_, k)| *k);
        let suite = gen_json(function, k, out.path());
        let tests = suite["tests"].as_array().unwrap();
        let n = tests.len();
        let returned = tests.iter().filter(|t| t["outcome"] == "returned").count();
        assert_eq!(returned, expected, "{function}");
        let errors = common::errors(&suite);
        let want: Vec<(String, u64)> = expected_errors.iter().map(|(k, l)| (k.to_string(), *l as u64)).collect();
        assert_eq!(errors, want, "{function}");
        common::replay_passes(out.path(), n, vec![], true);
    }
}

#[test]
fn generation_is_deterministic() {
    for function in ["counters", "aliasing", "div_mod"] {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let mut x = gen_json(function, 2, a.path());
        let mut y = gen_json(function, 2, b.path());
        for v in [&mut x, &mut y] {
            for key in ["elapsed_ms", "solver_ms"] {
                v["stats"].as_object_mut().unwrap().remove(key);
            }
        }
        assert_eq!(x, y, "{function}");
        let cx = std::fs::read_to_string(a.path().join(format!("{function}_tests.c"))).unwrap();
        let cy = std::fs::read_to_string(b.path().join(format!("{function}_tests.c"))).unwrap();
        assert_eq!(cx, cy, "{function}");
    }
}

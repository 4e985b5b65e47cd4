//! Variable-length arrays (the IR's `alloca`): a symbolic element count
//! stays symbolic (accesses are checked against it, as for a `malloc` of
//! a symbolic size), and out-of-range counts end the run.

mod common;

use common::*;
use pathwise_engine::suite::InputValue;

/// The count `n + 1` stays symbolic once the `alloca` runs, so the loop
/// over the array gets its k + 1 paths (n = 0, 1, 2 at k = 2), and the run
/// is complete: nothing was concretised.
#[test]
fn vla_sizes_are_concretised_and_accesses_checked() {
    let src = "int f(int n) {\n  if (n < 0 || n > 4)\n    return -1;\n  int a[n + 1];\n  a[n] = 7;\n  \
               for (int j = 0; j < n; j++)\n    a[j] = j;\n  return a[n] + (int)sizeof a;\n}\n";
    let program = compile_str("vla.c", src);
    let suite = generate(&program, &config("f", None, 2));
    check_sound(&suite);
    let mut in_range = 0;
    for t in &suite.tests {
        let InputValue::Scalar(n) = t.inputs[0] else { panic!("scalar input expected") };
        if (0..=4).contains(&n) {
            in_range += 1;
            assert_eq!(t.ret, Some(7 + 4 * (n + 1)), "n = {n}");
        } else {
            assert_eq!(t.ret, Some(-1));
        }
    }
    assert_eq!(in_range, 3, "{:?}", suite.tests);
    assert_eq!(suite.tests.len(), 5, "n < 0, n > 4, and n = 0, 1, 2");
    assert_eq!(suite.stats.values_concretised, 0);
}

/// A negative count is a run-time error: no test returns through it.
#[test]
fn negative_vla_sizes_end_the_run() {
    let src = "int g(int n) {\n  if (n > 3)\n    return 0;\n  int a[n];\n  return 1;\n}\n";
    let program = compile_str("neg.c", src);
    let suite = generate(&program, &config("g", None, 2));
    for t in &suite.tests {
        let InputValue::Scalar(n) = t.inputs[0] else { panic!("scalar input expected") };
        assert!(n > 3 || n >= 0, "a run with a[{n}] returned");
    }
}

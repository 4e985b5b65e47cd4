//! Loops with a fixed trip count (issue: key schedules, SHA rounds): by
//! default only iterations a symbolic decision chose count towards k, so a
//! loop that does not depend on the inputs adds no path and costs nothing
//! against k; `Config::strict_loop_count` keeps seed 002's count, under
//! which such functions have no k-path for small k. Merge's loop decisions
//! are all symbolic: its figures are the same under both counts.

mod common;

use common::*;
use pathwise_engine::suite::StopReason;

fn fixed_loops() -> pathwise_ir::Program {
    compile(&std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/c/fixed_loops.c"))
}

#[test]
fn fixed_count_loops_add_no_path() {
    let program = fixed_loops();
    let suite = generate(&program, &config("keyed", None, 2));
    check_sound(&suite);
    // n <= 0; n > 0 and key[0] == sbox[7]; n > 0 and key[0] != sbox[7].
    assert_eq!(returned(&suite), 3, "{:?}", suite.tests.iter().map(|t| &t.path).collect::<Vec<_>>());
    // Under the strict count, 256 iterations exceed k = 2 on every path.
    let strict =
        generate(&program, &pathwise_engine::config::Config { strict_loop_count: true, ..config("keyed", None, 2) });
    assert_eq!(strict.tests.len(), 0);
    assert!(strict.stats.bound_exceeded_runs > 0);
}

#[test]
fn only_symbolic_iterations_count() {
    let program = fixed_loops();
    // Per entry of the inner loop: 0, 1 or 2 iterations (k = 2), decided
    // by x alone; the outer loop's 4 rounds do not count.
    let suite = generate(&program, &config("rounds", None, 2));
    assert_eq!(suite.stop, StopReason::Complete);
    // x <= 0, 1..=50, 51..=100: 0, 1 or 2 inner iterations in every round.
    assert_eq!(returned(&suite), 3);
    for t in &suite.tests {
        let inner: Vec<u32> =
            t.path.iter().filter(|s| s.loc.line == 30).filter_map(|s| s.loop_iter.map(|(_, n)| n)).collect();
        assert!(inner.iter().all(|&n| n <= 2), "{inner:?}");
    }
}

#[test]
fn merge_is_the_same_under_both_counts() {
    let program = compile(&bench("merge.c"));
    for strict in [false, true] {
        let cfg =
            pathwise_engine::config::Config { strict_loop_count: strict, ..config("Merge", Some("merge_pre"), 2) };
        let suite = generate(&program, &cfg);
        check_sound(&suite);
        assert_eq!(returned(&suite), 17, "strict = {strict}");
    }
}

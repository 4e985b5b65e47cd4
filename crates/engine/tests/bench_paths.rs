//! Exact path counts on the seed documents' examples (tests/bench, copied
//! verbatim from shared/bench). Each figure is justified next to its test.

mod common;

use common::*;
use pathwise_engine::suite::InputValue;

fn merge_suite(k: u32) -> pathwise_engine::suite::TestSuite {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/merge.c");
    let program = compile(&path);
    let suite = generate(&program, &config("Merge", Some("merge_valid"), k));
    check_sound(&suite);
    suite
}

/// Seed 002: Merge has exactly 1 + k * 2^(k+1) feasible k-paths.
#[test]
fn merge_k_paths_match_the_paper() {
    for k in 1..=3u32 {
        let suite = merge_suite(k);
        assert_eq!(suite.tests.len() as u64, 1 + k as u64 * (1 << (k + 1)), "k = {k}");
    }
}

/// Every Merge test satisfies the precondition and has the minimal arrays:
/// t1, t2 and t3 hold exactly l1, l2 and l1 + l2 elements, sorted, in range,
/// and the output t3 is the sorted merge.
#[test]
fn merge_tests_respect_the_precondition() {
    let suite = merge_suite(2);
    for t in &suite.tests {
        let [InputValue::Array(t1), InputValue::Array(t2), InputValue::Array(t3), InputValue::Scalar(l1), InputValue::Scalar(l2)] =
            &t.inputs[..]
        else {
            panic!("unexpected inputs {:?}", t.inputs)
        };
        assert_eq!(t1.len() as i128, *l1);
        assert_eq!(t2.len() as i128, *l2);
        assert_eq!(t3.len() as i128, l1 + l2);
        for a in [t1, t2] {
            assert!(a.windows(2).all(|w| w[0] <= w[1]), "unsorted input {a:?}");
            assert!(a.iter().all(|v| (-100..=100).contains(v)));
        }
        let mut expect: Vec<i128> = t1.iter().chain(t2).copied().collect();
        expect.sort();
        assert_eq!(t.array_outputs[2].as_ref().unwrap(), &expect);
    }
    // The first test is the paper's: both arrays empty.
    assert_eq!(suite.tests[0].inputs[3], InputValue::Scalar(0));
    assert_eq!(suite.tests[0].inputs[4], InputValue::Scalar(0));
}

/// Seed 004, section 3.1: sum6 has 3^6 feasible paths.
#[test]
fn sum6_has_729_paths() {
    let program = compile(&bench("summaries.c"));
    let suite = generate(&program, &config("sum6", None, 2));
    check_sound(&suite);
    assert_eq!(suite.tests.len(), 729);
    // Exactly the tests with s == 7 return 1.
    let ones = suite.tests.iter().filter(|t| t.ret == Some(1)).count();
    assert!(ones > 0);
}

/// Seed 001, section 6: foo has 2 feasible paths; bar, which calls foo with
/// b = 1, has 1.
#[test]
fn foo_and_bar() {
    let program = compile(&bench("foo_bar.c"));
    let foo = generate(&program, &config("foo", None, 2));
    check_sound(&foo);
    assert_eq!(returned(&foo), 2);
    // a + 1 with a = INT_MAX, a - 1 with a = INT_MIN.
    assert_eq!(errors(&foo), [("signed-overflow", 15), ("signed-overflow", 13)]);
    let bar = generate(&program, &config("bar", None, 2));
    check_sound(&bar);
    assert_eq!(returned(&bar), 1);
    assert_eq!(errors(&bar), [("signed-overflow", 13)]);
    let ok = bar.tests.iter().find(|t| t.outcome == pathwise_engine::suite::Outcome::Returned).unwrap();
    assert_eq!(ok.path.len(), 1, "bar's only decision is foo's b > 0");
}

/// recursive.c at k = 2 (no precondition; arrays sized by the path).
///
/// - sorted_insert: the loop runs m = 0, 1, 2 times and exits either because
///   i reaches 0 (n = m) or because a[i-1] <= x (n > m): 2 (k + 1) = 6.
/// - binary_search: from the loop head, exit, or an iteration that returns
///   (found) or continues left or right: f(0) = 1, f(d) = 2 + 2 f(d-1), so
///   f(2) = 10 (every exit is feasible for some n).
/// - dutch_flag: exit or one of three cases per iteration:
///   f(0) = 1, f(d) = 1 + 3 f(d-1), so f(2) = 13.
/// - quicksort: partition's loop runs hi - lo times, so segments have at most
///   3 elements; lo >= hi: 1 path; 2 elements: 2 (one comparison, then two
///   trivial calls); 3 elements: 4 comparison outcomes, of which FF and TT
///   leave a 2-element segment (2 paths each) and TF, FT two singletons:
///   6; in all 1 + 2 + 6 = 9, with at most 2 activations nested below the
///   first one.
///
/// Besides these paths, binary_search and dutch_flag have one error each:
/// `hi = n - 1` overflows for n = INT_MIN; and sorted_insert one: with
/// n < 0 the loop does not run and `a[i] = x` writes before the array;
/// quicksort two: partition reads `a[hi]` and `a[j]` before the array when
/// hi or lo is negative.
#[test]
fn recursive_programs_at_k2() {
    let program = compile(&bench("recursive.c"));
    for (func, expected) in [("sorted_insert", 6), ("binary_search", 10), ("dutch_flag", 13), ("quicksort", 9)] {
        let suite = generate(&program, &config(func, None, 2));
        check_sound(&suite);
        assert_eq!(returned(&suite), expected, "{func}");
        let errs: &[(&str, u32)] = match func {
            "binary_search" => &[("signed-overflow", 26)],
            "dutch_flag" => &[("signed-overflow", 42)],
            "sorted_insert" => &[("out-of-bounds", 19)],
            "quicksort" => &[("out-of-bounds", 100), ("out-of-bounds", 98)],
            _ => &[],
        };
        assert_eq!(errors(&suite), errs, "{func}");
    }
}

/// Seed 003, Table 2.1: remAll under block-2 (each block entered at most
/// twice per path, so each loop runs at most once). Without error search:
/// 6 tests, the thesis's 5 cases without aliasing (l == NULL, a null
/// dereference; l->first == NULL; self->first == NULL; equal data, the node
/// removed; different data) plus self == NULL, which Java's `this` cannot
/// be. The thesis's 2 aliasing-only cases (l == self, shared first node)
/// take the same decisions as its case 4: here aliasing branches only where
/// a decision or a possible null dereference depends on it, so they are
/// that one path.
#[test]
fn remall_block_2() {
    let program = compile(&bench("remall.c"));
    let mut config = config("remAll", None, 2);
    config.criterion = pathwise_engine::config::Criterion::BlockK;
    config.seek_errors = false;
    let suite = generate(&program, &config);
    check_sound(&suite);
    assert_eq!(suite.stats.divergences, 0);
    assert_eq!(suite.tests.len(), 6, "{:#?}", suite.tests);
    assert_eq!(errors(&suite), [("null-dereference", 28), ("null-dereference", 32)]);
    // Every path runs each loop at most once: at most 2 decisions at each
    // loop condition (lines 29 and 33).
    for t in &suite.tests {
        for line in [29, 33] {
            assert!(t.path.iter().filter(|s| s.loc.line == line).count() <= 2, "{:?}", t.path);
        }
    }
}

/// Heap inputs whose aliasing the path does not decide: every solved prefix
/// is followed by its run (inputs are named by access path, so a run that
/// aliases `l` with `self` names them as one that does not), and the error
/// search finds nothing beyond the two null dereferences.
#[test]
fn heap_runs_follow_their_prefixes() {
    let remall = compile(&bench("remall.c"));
    let mut block = config("remAll", None, 2);
    block.criterion = pathwise_engine::config::Criterion::BlockK;
    let suite = generate(&remall, &block);
    check_sound(&suite);
    assert_eq!(suite.stats.divergences, 0);
    assert_eq!(suite.tests.len(), 6);
    assert_eq!(errors(&suite), [("null-dereference", 28), ("null-dereference", 32)]);
    let suite = generate(&remall, &config("remAll", None, 2));
    check_sound(&suite);
    assert_eq!(suite.stats.divergences, 0);
    let recursive = compile(&bench("recursive.c"));
    let suite = generate(&recursive, &config("heap_union", None, 2));
    check_sound(&suite);
    assert_eq!(suite.stats.divergences, 0);
}

/// Seed 000, Figure 2: insertAVL under avl_ok. Its recursive precondition
/// can take unbounded time to refute a prefix, so the precondition budget
/// abandons (and reports) what it cannot settle; the tests it does find
/// replay along their paths, and they include both depth-0 paths of `ins`:
/// the empty tree (`t == NULL`) and a key already present (`x == t->key`).
#[test]
fn avl_under_precondition_budget() {
    let program = compile(&bench("avl.c"));
    let config = config("insertAVL", Some("avl_ok"), 1);
    let suite = generate(&program, &config);
    // Abandoned prefixes may hide feasible paths: the run is "explored",
    // never "complete".
    assert_eq!(suite.stop, pathwise_engine::suite::StopReason::Explored);
    assert!(suite.stats.precondition_abandoned > 0);
    assert_eq!(suite.stats.divergences, 0);
    // ins: line 78 tests t == NULL, 80 x < t->key, 82 x > t->key; a
    // depth-0 path enters ins once (one decision at line 78).
    let depth0 = |t: &&pathwise_engine::suite::TestCase| t.path.iter().filter(|s| s.loc.line == 78).count() == 1;
    let firsts: Vec<Vec<(u32, bool)>> = suite
        .tests
        .iter()
        .filter(depth0)
        .map(|t| t.path.iter().filter(|s| [78, 80, 82].contains(&s.loc.line)).map(|s| (s.loc.line, s.taken)).collect())
        .collect();
    assert!(firsts.contains(&vec![(78, true)]), "{firsts:?}");
    assert!(firsts.contains(&vec![(78, false), (80, false), (82, false)]), "{firsts:?}");
}

/// Seed 003, Figure 3.1: simp(rs, old, len) at k = 2. `rs` and `old` are
/// arrays of pointers behind pointer parameters: their element counts are
/// inputs that grow with the path (len = 2 gets two-element arrays), so no
/// test reports an out-of-bounds access the caller's array would not have.
#[test]
fn simp_arrays_grow_with_the_path() {
    let program = compile(&bench("rational.c"));
    let suite = generate(&program, &config("simp", None, 2));
    check_sound(&suite);
    assert_eq!(suite.stats.divergences, 0);
    assert!(errors(&suite).iter().all(|(kind, _)| *kind != "out-of-bounds"), "{:?}", errors(&suite));
    // Every returning test has arrays of exactly max(len, 1) elements.
    for t in suite.tests.iter().filter(|t| t.outcome == pathwise_engine::suite::Outcome::Returned) {
        let len = match t.inputs[2] {
            InputValue::Scalar(v) => v,
            ref other => panic!("len: {other:?}"),
        };
        for o in t.heap_in.iter().filter(|o| matches!(o.cty, pathwise_ir::CType::Ptr(_))) {
            assert_eq!(o.count as i128, len.max(1), "test {}", t.id);
        }
    }
    assert!(suite.tests.iter().any(|t| t.heap_in.iter().any(|o| o.count == 2)));
}

//! `qsort` and `bsearch` (`tests/c/search.c`): C versions of glibc's lowered
//! with the unit call the unit's comparators (or the caller's callback) in
//! glibc's order; the library code is not under test (no coverage of its
//! own), and every suite builds with `-Wall -Wextra -Werror`, passes
//! natively against the real library and replays with gcov agreeing.

mod common;

/// Generate for `function` at k = 2; check natively and by replay; return
/// the tests.
fn generate_and_replay(function: &str) -> Vec<serde_json::Value> {
    let out = tempfile::tempdir().unwrap();
    let (summary, suite) = common::gen("tests/c/search.c", function, &["--k", "2"], out.path());
    assert_eq!(suite["stop"], "complete", "{function}: {suite:#}");
    assert!(!summary.contains("pathwise_msort") && !summary.contains("bsearch "), "{summary}");
    let tests = suite["tests"].as_array().unwrap().clone();
    // Signed overflow traps, as the error tests expect.
    let ub = ["-fsanitize=undefined", "-fsanitize-undefined-trap-on-error"];
    let (code, stdout) = common::build_and_run(out.path(), function, &ub);
    assert_eq!((code, stdout), (0, format!("{} passed, 0 failed\n", tests.len())), "{function}");
    common::replay_passes(out.path(), tests.len(), vec![], true);
    tests
}

#[test]
fn qsort_calls_the_comparator_in_glibcs_order() {
    // Merge sort of 3: compare the last two, then merge the first with
    // them in one or two comparisons: 2 * 3 orders, all feasible.
    let tests = generate_and_replay("median3");
    assert_eq!(tests.len(), 6);
    for t in &tests {
        let mut v: Vec<i64> = ["a", "b", "c"].iter().map(|p| t["inputs"][p].as_i64().unwrap()).collect();
        v.sort();
        assert_eq!(t["expected"]["return"], v[1], "{t:#}");
    }
    // The comparator is `by_value` (the same 6 orders), `by_key` (6
    // orders, and 3 comparisons whose subtraction overflows: one site, one
    // test) or the caller's callback (6 orders: its results are inputs,
    // and the test's stub checks that the real qsort calls it as the
    // engine did). first_of passes it to qsort without a null test: it is
    // assumed non-null (at the call), not an error test in qsort.
    let tests = generate_and_replay("first_of");
    assert_eq!(tests.len(), 6 + (6 + 1) + 6);
    let errors: Vec<&str> =
        tests.iter().filter(|t| t["outcome"] == "error").map(|t| t["error"]["kind"].as_str().unwrap()).collect();
    assert_eq!(errors, ["signed-overflow"]);
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen("tests/c/search.c", "first_of", &["--k", "2"], out.path());
    let first_of_line = std::fs::read_to_string(common::root().join("tests/c/search.c"))
        .unwrap()
        .lines()
        .position(|l| l.contains("qsort(") && l.contains("cmp"))
        .unwrap() as u64
        + 1;
    assert_eq!(common::assumed_nonnull(&suite), [("cmp".to_string(), first_of_line)]);
    let stubbed = tests.iter().filter(|t| t["inputs"]["cmp"]["function"] == "pathwise_stub_first_of_cmp").count();
    assert_eq!(stubbed, 6);
}

#[test]
fn bsearch_finds_each_entry_and_each_gap() {
    // Found at 0..3, or below 2, at 4, at 6, above 7 (keys are integers).
    let tests = generate_and_replay("find");
    assert_eq!(tests.len(), 8);
    let mut got: Vec<i64> = tests.iter().map(|t| t["expected"]["return"].as_i64().unwrap()).collect();
    got.sort();
    assert_eq!(got, vec![-1, -1, -1, -1, 0, 1, 2, 3]);
}

#[test]
fn structures_sort_stably() {
    // Out of range at each of the 4 tests of the `||` chain; then k0 <= k1
    // (the first stays first) or not.
    let tests = generate_and_replay("stable_tag");
    assert_eq!(tests.len(), 6);
    for t in tests.iter().filter(|t| t["expected"]["return"] != 0) {
        let (k0, k1) = (t["inputs"]["k0"].as_i64().unwrap(), t["inputs"]["k1"].as_i64().unwrap());
        let want = if k0 <= k1 { 'a' } else { 'b' } as i64;
        assert_eq!(t["expected"]["return"], want, "{t:#}");
    }
}

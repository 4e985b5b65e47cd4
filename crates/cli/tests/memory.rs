//! Modelled string functions, leaks and uninitialised heap reads end to end
//! (tests/c/memory.c): exact test counts at k = 2, error kinds and lines,
//! and every generated test compiled and passed natively by `replay`.

mod common;

use common::{errors, returns};

/// Generate for `function` of tests/c/memory.c and replay natively.
fn generate_and_replay(function: &str, extra: &[&str], compare_coverage: bool) -> serde_json::Value {
    common::generate_and_replay("tests/c/memory.c", function, extra, compare_coverage)
}

fn tests(suite: &serde_json::Value) -> &Vec<serde_json::Value> {
    suite["tests"].as_array().unwrap()
}

/// strlen of an input string: lengths 0, 1 and 2 at k = 2, and one prefix
/// (a third nonzero byte) cut by the bound.
#[test]
fn strlen_forks_per_length_up_to_k() {
    let suite = generate_and_replay("str_len", &[], true);
    let lens: Vec<usize> = tests(&suite).iter().map(|t| t["inputs"]["s"].as_array().unwrap().len()).collect();
    assert_eq!(lens, vec![1, 2, 3]);
    assert_eq!(returns(&suite), vec![0, 1, 2]);
    assert_eq!(suite["stats"]["bound_pruned_prefixes"], 1);
}

/// strcmp of two input strings, sign folded to -1/0/1 by the caller: equal
/// at each of the first two bytes (2 tests), or differing in byte 0, 1 or 2,
/// each less or greater (6 tests).
#[test]
fn strcmp_and_memcmp_compare_byte_by_byte() {
    let suite = generate_and_replay("str_cmp", &[], true);
    assert_eq!(returns(&suite), vec![-1, -1, -1, 0, 0, 1, 1, 1]);
    // memcmp over 2 bytes: equal, or differing in byte 0 or in byte 1.
    let suite = generate_and_replay("mem_cmp", &[], true);
    assert_eq!(returns(&suite), vec![0, 0, 1]);
    let suite = generate_and_replay("str_copy_find", &[], true);
    assert_eq!(returns(&suite), vec![3]);
}

/// A string read past its object is out of bounds; strlen(NULL) a null
/// dereference.
#[test]
fn string_functions_report_memory_errors() {
    let suite = generate_and_replay("str_unterminated", &[], true);
    assert_eq!(errors(&suite), vec![("out-of-bounds".to_string(), 102)]);
    assert_eq!(returns(&suite), vec![1]);
    // The native strlen(NULL) traps inside the C library: that test's
    // counters are not written, so coverage is not compared.
    let suite = generate_and_replay("str_null", &[], false);
    assert_eq!(errors(&suite), vec![("null-dereference".to_string(), 109)]);
    assert_eq!(tests(&suite).len(), 2);
}

#[test]
fn leaks_are_found_only_with_the_option_and_only_where_they_happen() {
    let suite = generate_and_replay("leak_some", &["--check-leaks"], true);
    assert_eq!(errors(&suite), vec![("memory-leak".to_string(), 41)]);
    let leak = tests(&suite).iter().find(|t| t["outcome"] == "error").unwrap();
    assert_eq!((leak["error"]["allocation"].as_u64(), leak["error"]["bytes"].as_u64()), (Some(1), Some(8)));
    // The leaking test returned: its return value is checked too.
    assert_eq!(leak["expected"]["return"], 1);
    assert_eq!(tests(&suite).len(), 2);
    let suite = generate_and_replay("leak_some", &[], true);
    assert_eq!(errors(&suite), vec![]);
    // Freed, or reachable from the return value: no leak.
    let suite = generate_and_replay("leak_none", &["--check-leaks"], true);
    assert!(errors(&suite).iter().all(|(k, _)| k != "memory-leak"), "{:?}", errors(&suite));
    let suite = generate_and_replay("leak_returned", &["--check-leaks"], true);
    assert_eq!((errors(&suite), tests(&suite).len()), (vec![], 1));
}

#[test]
fn uninitialised_heap_reads_without_false_alarms() {
    // The unwritten p[1] is copied into r, and r's use is the error.
    let suite = generate_and_replay("uninit_read", &[], true);
    assert_eq!(errors(&suite), vec![("uninitialised-read".to_string(), 74)]);
    let suite = generate_and_replay("uninit_read", &["--no-uninit-check"], true);
    assert_eq!((errors(&suite), returns(&suite)), (vec![], vec![0]));
    // calloc, written fields, memcpy and a structure copy of a partly
    // written structure: only the additions' overflows are errors (up and
    // down at one `+`: one test for the site).
    let suite = generate_and_replay("uninit_none", &[], true);
    assert_eq!(errors(&suite), vec![("signed-overflow".to_string(), 89)]);
    assert_eq!(tests(&suite).len(), 2);
}

/// The scalar inputs of a suite's tests, by parameter name, in test order.
fn inputs(suite: &serde_json::Value, name: &str) -> Vec<i64> {
    tests(suite).iter().map(|t| t["inputs"][name].as_i64().unwrap()).collect()
}

/// Symbolic allocation sizes stay inputs of the path: a branch on the size
/// after `malloc(n)` and `memset(p, 1, n)` keeps both sides, an index is
/// checked against the symbolic size, `realloc` to a larger symbolic size
/// keeps it, and symbolic indices into malloc'd ints index its content.
#[test]
fn symbolic_allocation_sizes() {
    // n out of range either way, 1..4, 5..8.
    let suite = generate_and_replay("sized_buffer", &[], true);
    assert_eq!(returns(&suite), [-1, -1, 1, 11]);
    let sizes = inputs(&suite, "n");
    assert!(sizes.iter().any(|n| (1..=4).contains(n)) && sizes.iter().any(|n| (5..=8).contains(n)), "{sizes:?}");
    // calloc(0, ...) makes a[i] out of bounds; i out of range either way;
    // in bounds, a[0] is 3 or 0 (one path).
    let suite = generate_and_replay("sized_index", &[], true);
    assert_eq!(errors(&suite), [("out-of-bounds".to_string(), 149)]);
    assert_eq!(returns(&suite).len(), 3);
    // n out of range either way, n > 3 reads the old a[0], else a[1]
    // (which b[n - 1] = 1 overwrote when n == 2).
    let suite = generate_and_replay("grow", &[], true);
    let expected: Vec<i64> = inputs(&suite, "n")
        .into_iter()
        .map(|n| match n {
            2 => 1,
            3 => 8,
            4..=6 => 7,
            _ => -1,
        })
        .collect();
    let got: Vec<i64> = tests(&suite).iter().map(|t| t["expected"]["return"].as_i64().unwrap()).collect();
    assert_eq!((got.len(), got.iter().filter(|&&r| r == -1).count()), (4, 2));
    assert_eq!(got, expected);
    // i or j out of range, i == j, i != j.
    let suite = generate_and_replay("sym_index", &["--k", "4"], true);
    assert_eq!(returns(&suite), [-1, -1, 0, 11]);
}

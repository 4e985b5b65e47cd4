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
    // written structure: only the additions' overflows are errors.
    let suite = generate_and_replay("uninit_none", &[], true);
    assert!(errors(&suite).iter().all(|(k, _)| k == "signed-overflow"), "{:?}", errors(&suite));
    assert_eq!(tests(&suite).len(), 3);
}

//! Modelled string functions, leaks and uninitialised heap reads end to end
//! (tests/c/memory.c): exact test counts at k = 2, error kinds and lines,
//! and every generated test compiled and passed natively by `replay`.

use std::path::PathBuf;
use std::process::Command;

use pathwise_cli::replay::{replay, ReplayOptions};

/// Generate for `function` (extra arguments after it), replay natively and
/// return the JSON suite.
fn generate_and_replay(function: &str, extra: &[&str], compare_coverage: bool) -> serde_json::Value {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", "tests/c/memory.c", "-I", "crates/cfront/include", "--function", function, "--k", "2", "--out"])
        .arg(out.path())
        .args(extra)
        .current_dir(&root)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{function}: {}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(out.path().join(format!("{function}_tests.json"))).unwrap();
    let suite: serde_json::Value = serde_json::from_str(&text).unwrap();
    let n = suite["tests"].as_array().unwrap().len() as u64;
    let opts = ReplayOptions {
        dir: out.path().to_path_buf(),
        include_dirs: vec![root.join("crates/cfront/include")],
        defines: vec![],
        run_timeout: std::time::Duration::from_secs(60),
    };
    let outcome = replay(&opts).unwrap();
    assert_eq!((outcome.passed, outcome.failed), (n, 0), "{function}: {:?}", outcome.failures);
    if compare_coverage {
        assert!(outcome.disagreements.is_empty(), "{function}: {:?}", outcome.disagreements);
    }
    suite
}

fn tests(suite: &serde_json::Value) -> &Vec<serde_json::Value> {
    suite["tests"].as_array().unwrap()
}

fn errors(suite: &serde_json::Value) -> Vec<(String, u64)> {
    tests(suite)
        .iter()
        .filter(|t| t["outcome"] == "error")
        .map(|t| (t["error"]["kind"].as_str().unwrap().to_string(), t["error"]["line"].as_u64().unwrap()))
        .collect()
}

fn returns(suite: &serde_json::Value) -> Vec<i64> {
    let mut r: Vec<i64> = tests(suite).iter().filter_map(|t| t["expected"]["return"].as_i64()).collect();
    r.sort();
    r
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

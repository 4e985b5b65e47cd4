//! C library functions that Pathwise runs as C code lowered with the unit
//! (`crates/cfront/libc/`, glibc 2.36's algorithms): `strtok`, `strtok_r`,
//! `strsep`, `stpcpy`, `memrchr`, `div`, `ldiv` (`tests/c/trust4/strings.c`).
//! Before, a function calling one was refused ("no body and no built-in
//! model"). An error inside that code is the user's call's, naming the
//! function; the tests link the real library, and the file's feature-test
//! macros (`_GNU_SOURCE`, which declares `memrchr`) come first.

mod common;

use std::path::Path;

const FILE: &str = "tests/c/trust4/strings.c";

/// Generate at k, check the suite natively (see `common::gen_checked`);
/// gcov covers every branch side at k = 2.
fn generate(function: &str, k: &str, out: &Path) -> serde_json::Value {
    let (suite, outcome) = common::gen_checked(FILE, function, k, out);
    if k == "2" {
        assert_eq!(common::branches_covered(&outcome, function), Some(true), "{function}: {:?}", outcome.rows);
    }
    suite
}

#[test]
fn strsep_splits_symbolic_lines() {
    let out = tempfile::tempdir().unwrap();
    // k = 1: the empty line, one character (strcspn's loop once), NULL
    // (strsep returns NULL at once).
    let suite = generate("count_fields", "1", out.path());
    assert_eq!(common::test_count(&suite), 3);
    assert_eq!(common::returns(&suite), [0, 1, 1]);
    // strsep writes into the line through `&p`: no read-only string.
    assert!(suite["contracts"].as_array().is_none_or(|c| c.is_empty()), "{:#}", suite["contracts"]);
    let out = tempfile::tempdir().unwrap();
    let suite = generate("count_fields", "2", out.path());
    assert_eq!(common::test_count(&suite), 13);
    assert_eq!(*common::returns(&suite).last().unwrap(), 2);
}

#[test]
fn an_error_in_strtok_is_the_callers() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("first_word_len", "2", out.path());
    assert_eq!(common::test_count(&suite), 16);
    // A null `text` makes strtok_r continue from `save`, which the caller
    // never wrote: that read is the first error.
    assert_eq!(
        common::error_messages(&suite),
        [(
            "uninitialised-read".to_string(),
            22,
            "read of 8 uninitialised byte(s) at byte offset 0 of a 8-byte local variable never written there (in `strtok_r`)"
                .to_string()
        )]
    );
    let out = tempfile::tempdir().unwrap();
    let suite = generate("pairs", "1", out.path());
    assert_eq!(common::test_count(&suite), 33);
    assert_eq!(
        common::error_messages(&suite),
        [("null-dereference".to_string(), 32, "null pointer dereference (in `strtok`)".to_string())]
    );
}

#[test]
fn stpcpy_and_memrchr_as_glibc_computes_them() {
    let out = tempfile::tempdir().unwrap();
    assert_eq!(common::test_count(&generate("join", "2", out.path())), 9);
    let out = tempfile::tempdir().unwrap();
    let suite = generate("extension", "2", out.path());
    assert_eq!(common::test_count(&suite), 7);
    // `memrchr` is declared under `_GNU_SOURCE` only, which the file
    // defines before its first header: so does the test file, or the
    // call would return an `int` (the native results differed).
    let c = std::fs::read_to_string(out.path().join("extension_tests.c")).unwrap();
    let define = c.find("#define _GNU_SOURCE\n").expect("the feature-test macro");
    assert!(define < c.find("#include <stdio.h>").unwrap(), "{c}");
}

#[test]
fn div_and_ldiv_check_their_division() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("minutes", "2", out.path());
    assert_eq!(common::test_count(&suite), 3);
    assert!(common::returns(&suite).contains(&-1));
    let out = tempfile::tempdir().unwrap();
    let suite = generate("per", "2", out.path());
    assert_eq!(common::errors(&suite), [("division-by-zero".to_string(), 68), ("division-overflow".to_string(), 68)]);
    assert!(common::error_messages(&suite).iter().all(|e| e.2.ends_with("(in `ldiv`)")));
}

#[test]
fn memmem_strchrnul_and_strcasestr() {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen(FILE, "is_content_type", &["--k", "3"], out.path());
    assert_eq!(common::test_count(&suite), 340);
    let mut rets = common::returns(&suite);
    rets.dedup();
    // At the start ("CT:" in any case), further on, or not at all.
    assert_eq!(rets, [0, 1, 2]);
    let outcome = common::replay_passes(out.path(), 340, vec![], true);
    let row = outcome.rows.iter().find(|r| r.function == "is_content_type").unwrap();
    assert_eq!(row.measured_branches, Some((4, 4)));
    let out = tempfile::tempdir().unwrap();
    let suite = generate("field_len", "2", out.path());
    assert_eq!(common::test_count(&suite), 6);
    let out = tempfile::tempdir().unwrap();
    let suite = generate("has_marker", "2", out.path());
    assert_eq!(common::test_count(&suite), 23);
    let mut rets = common::returns(&suite);
    rets.dedup();
    assert_eq!(rets, [0, 1]);
}

//! `sscanf` (`tests/c/trust4/scan.c`): the input string is symbolic and
//! read as glibc 2.36's `vfscanf` reads it; every test runs against the
//! real `sscanf` natively. Before, a function calling it was refused
//! ("`sscanf` has no body and no built-in model").

mod common;

use std::path::Path;

const FILE: &str = "tests/c/trust4/scan.c";

/// Generate at k, check the suite natively (see `common::gen_checked`);
/// gcov covers every branch side.
fn generate(function: &str, k: &str, out: &Path) -> serde_json::Value {
    let (suite, outcome) = common::gen_checked(FILE, function, k, out);
    assert_eq!(common::branches_covered(&outcome, function), Some(true), "{function}: {:?}", outcome.rows);
    suite
}

/// Each test's string (up to its NUL) and return value.
fn strings(suite: &serde_json::Value) -> Vec<(String, i64)> {
    common::text_inputs(suite, "s", true)
}

#[test]
fn a_string_then_a_character_at_k_1() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("word", "1", out.path());
    // No input: EOF (-1), with or without a blank; a one-character word
    // (then nothing: 1, a blank: 1, or a character after it, with and
    // without more text after), after a blank or not.
    let found = strings(&suite);
    assert_eq!(found.len(), 10, "{found:?}");
    let rets: Vec<i64> = found.iter().map(|f| f.1).collect();
    assert_eq!(rets.iter().filter(|&&r| r == -1).count(), 2, "{found:?}");
    assert_eq!(rets.iter().filter(|&&r| r == 1).count(), 4, "{found:?}");
    for (s, r) in found.iter().filter(|f| f.1 > 1) {
        let bytes: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
        assert_eq!(*r, i64::from(bytes[0]) + i64::from(bytes[1]), "{s:?}");
    }
    // Every string is terminated: glibc's sscanf reads it to its NUL.
    for t in suite["tests"].as_array().unwrap() {
        assert_eq!(t["inputs"]["s"].as_array().unwrap().last().unwrap(), 0, "{t:#}");
    }
}

#[test]
fn integers_as_glibc_reads_them() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("anyint", "2", out.path());
    let found = strings(&suite);
    assert_eq!(found.len(), 243);
    for (s, r) in &found {
        let lower = s.to_ascii_lowercase();
        let body = lower.trim_start().trim_start_matches(['-', '+']);
        // A `0x` that no hexadecimal digit follows reads 0 (the `x` is
        // consumed), as glibc's `vfscanf` does.
        if body.starts_with("0x") && !body[2..].starts_with(|c: char| c.is_ascii_hexdigit()) {
            assert_eq!(*r, 0, "{s:?}");
        }
    }
    assert!(found.iter().any(|(s, r)| s.to_ascii_lowercase().starts_with("-0x") && *r < -1), "{found:?}");
    // Octal after a leading 0.
    assert!(found.iter().any(|(s, r)| s.starts_with("0") && s.len() == 2 && *r == i64::from(s.as_bytes()[1] - b'0')));
}

#[test]
fn a_field_width_a_count_and_a_scanset() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("hexbyte", "2", out.path());
    assert_eq!(suite["tests"].as_array().unwrap().len(), 108);
    assert!(common::returns(&suite).contains(&-2));
    let out = tempfile::tempdir().unwrap();
    let suite = generate("keyval", "1", out.path());
    assert_eq!(suite["tests"].as_array().unwrap().len(), 58);
    let mut rets = common::returns(&suite);
    rets.dedup();
    assert_eq!(rets, [-1, 0, 1, 2]);
}

#[test]
fn a_string_longer_than_its_buffer_is_an_error_test() {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen(FILE, "name_len", &["--k", "4"], out.path());
    assert_eq!(suite["tests"].as_array().unwrap().len(), 81);
    assert_eq!(
        common::error_messages(&suite),
        [("out-of-bounds".to_string(), 56, "out-of-bounds access at byte offset 4 of a 4-byte object".to_string())]
    );
    common::replay_passes(out.path(), 81, vec![], true);
}

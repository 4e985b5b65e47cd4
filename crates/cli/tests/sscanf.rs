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

/// The floating conversions (`tests/c/trust4/scan_float.c`).
const FLOATS: &str = "tests/c/trust4/scan_float.c";

/// Each test's string and return value, for a function of `FLOATS`.
fn float_suite(function: &str, k: &str, out: &Path) -> Vec<(String, i64)> {
    let (suite, _) = common::gen_checked(FLOATS, function, k, out);
    strings(&suite)
}

#[test]
fn a_one_character_float_field_at_k_1() {
    let out = tempfile::tempdir().unwrap();
    let found = float_suite("width_one", "1", out.path());
    // After no blank or one (k = 1), by the first character: the end
    // (EOF); a digit, the only number of one character, with or without
    // a character after it (1); a point, a sign, an `n` or an `i`, each
    // with or without a character after it, or another character (0):
    // 2 x (1 + 2 + 2 x 5 + 1) paths.
    assert_eq!(found.len(), 28, "{found:?}");
    for (s, r) in &found {
        let first = s.trim_start_matches(' ').bytes().next();
        let expected = match first {
            None => -1,
            Some(b) if b.is_ascii_digit() => 1,
            Some(_) => 0,
        };
        assert_eq!(*r, expected, "{s:?}");
    }
    assert_eq!(found.iter().filter(|f| f.1 == 1).count(), 4, "{found:?}");
    for lead in [".", "+", "-", "n", "i"] {
        let n = found.iter().filter(|f| f.0.trim_start_matches(' ').starts_with(lead)).count();
        assert_eq!(n, 4, "{lead}: {found:?}");
    }
}

#[test]
fn a_field_takes_what_glibc_collects() {
    let out = tempfile::tempdir().unwrap();
    let found = float_suite("taken", "2", out.path());
    // The return is 10 x assignments + characters taken (-1: none).
    // glibc takes an exponent letter without digits, and converts the
    // number before it (the suite runs against glibc's sscanf natively).
    let exponent = |s: &str| {
        let b = s.as_bytes();
        b.len() >= 2 && b[0].is_ascii_digit() && b[1].eq_ignore_ascii_case(&b'e')
    };
    let dangling: Vec<_> = found.iter().filter(|f| exponent(&f.0)).collect();
    assert!(!dangling.is_empty(), "{found:?}");
    for (s, r) in &dangling {
        assert!(*r >= 12, "{s:?} takes the digit and the letter at least: {r}");
    }
    // `0x` and no hexadecimal digit or point: no number at all.
    let bare: Vec<_> = found
        .iter()
        .filter(|f| f.0.len() >= 2 && f.0[..2].eq_ignore_ascii_case("0x"))
        .filter(|f| !f.0[2..].starts_with(|c: char| c.is_ascii_hexdigit() || c == '.'))
        .collect();
    assert!(!bare.is_empty(), "{found:?}");
    assert!(bare.iter().all(|f| f.1 == -1), "{bare:?}");
}

#[test]
fn readings_and_long_doubles_pass_against_glibc() {
    for (function, k) in [("too_hot", "2"), ("extended", "1")] {
        let out = tempfile::tempdir().unwrap();
        let (suite, outcome) = common::gen_checked(FLOATS, function, k, out.path());
        assert_eq!(common::branches_covered(&outcome, function), Some(true), "{function}: {:?}", outcome.rows);
        assert!(common::test_count(&suite) > 100, "{function}");
    }
}

#[test]
fn fscanf_leaves_the_stream_as_glibc_does() {
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(FLOATS, "then_next", "1", out.path());
    let files = common::text_inputs(&suite, "f", false);
    // A point that no digit follows: glibc consumed it, and the
    // character after it is read next.
    let point = files.iter().find(|f| f.0.len() == 2 && f.0.starts_with('.') && f.1 % 1000 != 999);
    let (text, r) = point.unwrap_or_else(|| panic!("{files:?}"));
    assert_eq!(*r, i64::from(text.as_bytes()[1]), "{text:?}");
}

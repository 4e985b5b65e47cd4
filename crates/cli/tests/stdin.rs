//! The standard input as an input (`tests/c/trust4/stdin.c`): a function
//! that reads `stdin` (`getchar`, `fgets(.., stdin)`, `scanf`, directly
//! or through a callee) gets its content and size as inputs, as a `FILE *`
//! parameter's; each test that read it puts the bytes on file descriptor 0
//! before the call (`pathwise_stdin`). Before, such a function was refused
//! ("`fgetc` reads a stream that is not a `FILE *` parameter of the function
//! under test").

mod common;

use std::path::Path;

const FILE: &str = "tests/c/trust4/stdin.c";

/// Each test's standard input (the JSON's `stdin`, a list of bytes) with
/// what it returns; every test here reads stdin and returns.
fn stdins(suite: &serde_json::Value) -> Vec<(Vec<u8>, i64)> {
    let mut found: Vec<(Vec<u8>, i64)> = suite["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let bytes = t["stdin"].as_array().unwrap_or_else(|| panic!("no stdin in {t}"));
            let bytes = bytes.iter().map(|b| b.as_u64().unwrap() as u8).collect();
            (bytes, t["expected"]["return"].as_i64().unwrap())
        })
        .collect();
    found.sort();
    found
}

/// Generate at k and check the suite natively (`common::gen_checked`),
/// gcov covering every branch side; the C file feeds stdin.
fn generate(function: &str, k: &str, out: &Path) -> serde_json::Value {
    let (suite, outcome) = common::gen_checked(FILE, function, k, out);
    assert_eq!(common::branches_covered(&outcome, function), Some(true), "{function}: {:?}", outcome.rows);
    let c = std::fs::read_to_string(out.join(format!("{function}_tests.c"))).unwrap();
    assert!(c.contains("pathwise_stdin("), "{c}");
    suite
}

/// A byte string with every byte but `keep` written `a`: the shape of a
/// path's input, whatever byte the solver chose.
fn shape(bytes: &[u8], keep: impl Fn(u8) -> bool) -> String {
    bytes.iter().map(|&b| if keep(b) { b as char } else { 'a' }).collect()
}

#[test]
fn getchar_loops_get_one_input_per_path() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("count_lines", "2", out.path());
    let found = stdins(&suite);
    // At most two characters, each a newline or not, then the end.
    let mut shapes: Vec<String> = found.iter().map(|(b, _)| shape(b, |c| c == b'\n')).collect();
    shapes.sort();
    assert_eq!(shapes, ["", "\n", "\n\n", "\na", "a", "a\n", "aa"]);
    for (bytes, ret) in &found {
        assert_eq!(*ret, bytes.iter().filter(|&&c| c == b'\n').count() as i64, "{bytes:?}");
    }
    // The function has no parameter: the standard input is its only input.
    assert_eq!(suite["params"].as_array().unwrap().len(), 0);
}

#[test]
fn fgets_on_stdin_reads_a_line() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("first_command", "1", out.path());
    let found = stdins(&suite);
    assert_eq!(found.len(), 6, "{found:?}");
    // No line; 'q' alone or before its newline; another first byte, a
    // newline first, a NUL first (fgets keeps reading past it).
    assert!(found.contains(&(vec![], -1)), "{found:?}");
    assert!(found.contains(&(b"q".to_vec(), 1)) && found.contains(&(b"q\n".to_vec(), 1)), "{found:?}");
    assert!(found.contains(&(b"\n".to_vec(), 0)), "{found:?}");
    assert!(found.iter().any(|(b, r)| b.len() == 2 && b[0] == 0 && b[1] == b'\n' && *r == 0), "{found:?}");
    assert!(found.iter().any(|(b, r)| b.len() == 1 && !b"q\n".contains(&b[0]) && *r == 0), "{found:?}");
}

#[test]
fn scanf_reads_stdin_as_glibc_does() {
    let out = tempfile::tempdir().unwrap();
    // k = 1: at most one digit or blank in a row; each test's return is
    // checked against glibc's scanf on the same bytes natively.
    let suite = generate("area", "1", out.path());
    let found = stdins(&suite);
    assert_eq!(found.len(), 998);
    let returns: std::collections::BTreeSet<i64> = found.iter().map(|(_, r)| *r).collect();
    assert_eq!(returns.into_iter().collect::<Vec<_>>(), [-2, -1, 0, 4, 8, 12, 16, 48]);
    assert!(found.contains(&(vec![], -1)), "{found:?}");
}

#[test]
fn a_callee_that_reads_stdin_makes_it_an_input() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("confirm", "1", out.path());
    let found: Vec<(String, i64)> =
        stdins(&suite).into_iter().map(|(b, r)| (shape(&b, |c| c == b'y' || c == b'Y'), r)).collect();
    assert_eq!(found, [(String::new(), 0), ("Y".into(), 1), ("a".into(), 0), ("y".into(), 1)]);
    // The default is a parameter beside the standard input.
    assert_eq!(suite["params"][0]["name"], "dflt");
    // The compositional searches inline the reader: no summary can carry
    // the stream's position.
    for method in ["top-down", "bottom-up"] {
        let out = tempfile::tempdir().unwrap();
        let (_, composed) = common::gen(FILE, "confirm", &["--compositional", method], out.path());
        assert_eq!(stdins(&composed), stdins(&suite), "{method}");
    }
}

#[test]
fn a_function_that_never_reads_stdin_passes_none() {
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(FILE, "twice", "1", out.path());
    assert_eq!(common::test_count(&suite), 3);
    for t in suite["tests"].as_array().unwrap() {
        assert!(t.get("stdin").is_none(), "{t}");
    }
    let c = std::fs::read_to_string(out.path().join("twice_tests.c")).unwrap();
    assert!(!c.contains("pathwise_stdin"), "{c}");
}

#[test]
fn a_whole_program_reads_its_input() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("main", "2", out.path());
    let found = stdins(&suite);
    assert_eq!(found.len(), 26);
    for (bytes, ret) in &found {
        // Exit 1 at the first digit; bytes after it are never read.
        let digit = bytes.iter().position(u8::is_ascii_digit);
        assert_eq!(*ret, i64::from(digit.is_some()), "{bytes:?}");
        assert!(digit.is_none_or(|d| d + 1 == bytes.len()), "{bytes:?}");
    }
    // What it echoed, upper-cased, is each test's expected output (the
    // native runs compared it).
    for t in suite["tests"].as_array().unwrap() {
        let input: Vec<u8> = t["stdin"].as_array().unwrap().iter().map(|b| b.as_u64().unwrap() as u8).collect();
        let echoed: Vec<u64> =
            input.iter().take_while(|b| !b.is_ascii_digit()).map(|b| u64::from(b.to_ascii_uppercase())).collect();
        let written: Vec<u64> = match t["expected"].get("stdout") {
            Some(s) => s.as_array().unwrap().iter().map(|b| b.as_u64().unwrap()).collect(),
            None => Vec::new(),
        };
        assert_eq!(written, echoed, "{t}");
    }
}

//! `FILE *` parameters (`tests/c/trust4/streams.c`): the file's content
//! and size are inputs, the `<stdio.h>` reading functions are modelled as
//! glibc reads a file, and each test passes its content through
//! `tmpfile()`. Before, such a function was refused ("`fgetc` has no body
//! and no built-in model").

mod common;

use std::path::Path;

const FILE: &str = "tests/c/trust4/streams.c";

/// The content of each test's stream (the JSON's list of bytes), with
/// what the test returns (every test returns).
fn files(suite: &serde_json::Value) -> Vec<(String, i64)> {
    let found = common::text_inputs(suite, "f", false);
    assert_eq!(found.len(), common::test_count(suite));
    found
}

/// Generate at k, check the suite natively (see `common::gen_checked`);
/// gcov covers every branch side unless k is 1.
fn generate(function: &str, k: &str, out: &Path) -> serde_json::Value {
    let (suite, outcome) = common::gen_checked(FILE, function, k, out);
    if k != "1" {
        assert_eq!(common::branches_covered(&outcome, function), Some(true), "{function}: {:?}", outcome.rows);
    }
    suite
}

fn expect(want: &[(&str, i64)]) -> Vec<(String, i64)> {
    let mut want: Vec<(String, i64)> = want.iter().map(|&(f, r)| (f.to_string(), r)).collect();
    want.sort();
    want
}

#[test]
fn a_character_loop_gets_one_file_per_path() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("count_lines", "2", out.path());
    // At most two characters, each a newline or not, then the end.
    let want = [("", 0), ("a", 0), ("\n", 1), ("aa", 0), ("a\n", 1), ("\n\n", 2), ("\n#", 1)];
    assert_eq!(files(&suite), expect(&want));
    // The test reads a real file, written as a string literal.
    let c = std::fs::read_to_string(out.path().join("count_lines_tests.c")).unwrap();
    assert!(c.contains("static const char pathwise_in_f[] = \"\\n\\n\";"), "{c}");
    assert!(c.contains("FILE *f = pathwise_stream(pathwise_in_f, sizeof pathwise_in_f - 1);"), "{c}");
    assert!(c.contains("FILE *f = pathwise_stream(\"\", 0); /* an empty file */"), "{c}");
    assert_eq!(suite["params"][0]["shape"], "stream");
    assert_eq!(suite["params"][0]["c_type"], "FILE *");
}

#[test]
fn lines_end_at_a_newline_the_end_of_the_file_or_a_full_buffer() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("config_n", "1", out.path());
    // k = 1: one line of at most one character before its newline.
    let want = [("", -1), ("\n", -1), ("#", -1), ("n", -1), ("a", -1), ("#\n", -1), ("n\n", -1), ("3\n", -1)];
    assert_eq!(files(&suite), expect(&want));
    let out = tempfile::tempdir().unwrap();
    let suite = generate("config_n", "2", out.path());
    let found = files(&suite);
    assert_eq!(found.len(), 121);
    // `fgets` of 4 bytes stops after three: `n=` and a digit fill it.
    assert!(found.iter().any(|(f, r)| f.starts_with("n=") && f.len() == 3 && *r == i64::from(f.as_bytes()[2]) - 48));
    // A comment line, then the setting on the next line.
    assert!(found.iter().any(|(f, r)| f.starts_with("#\nn=") && *r != -1), "{found:?}");
}

#[test]
fn fread_reads_a_whole_header_or_what_is_left() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("read_header", "2", out.path());
    let found = files(&suite);
    // Short reads of 0, 1 and 2 bytes (a loop the data ends: at most k),
    // then the whole header: bad magic twice, and a version.
    let short: Vec<&str> = found.iter().filter(|(_, r)| *r == -1).map(|(f, _)| f.as_str()).collect();
    assert_eq!(short.iter().map(|f| f.len()).collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(found.iter().filter(|(_, r)| *r == -2).count(), 2);
    assert!(found.iter().any(|(f, r)| f.starts_with("PW") && *r == i64::from(f.as_bytes()[2])));
    assert_eq!(found.len(), 6);
}

#[test]
fn ungetc_pushes_back_and_end_of_file_is_sticky() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("peek", "2", out.path());
    let found = files(&suite);
    // The comment loop: 0, 1 or 2 characters, then a newline or the end
    // (6); one character put back, `x` or not (2); the empty file, whose
    // `ungetc(EOF)` does nothing (1).
    assert_eq!(found.iter().filter(|(f, r)| f.starts_with('#') && *r == 1).count(), 6);
    assert!(found.contains(&("x".to_string(), 2)));
    assert!(found.contains(&(String::new(), 0)));
    assert_eq!(found.len(), 9);
}

#[test]
fn a_stream_the_function_closes_is_not_closed_again() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("read_and_close", "2", out.path());
    let want = [("", 0), ("a", 1), ("aa", 3)];
    let found = files(&suite);
    assert_eq!(found.len(), 4);
    for w in expect(&want) {
        assert!(found.contains(&w), "{found:?}");
    }
    assert!(found.iter().any(|(f, r)| f.len() == 2 && f.as_bytes()[0] != f.as_bytes()[1] && *r == 2));
}

#[test]
fn a_stream_kept_in_a_structure_is_reported_not_tested() {
    let out = tempfile::tempdir().unwrap();
    let (stdout, suite) = common::gen(FILE, "next_is_y", &[], out.path());
    // The one test: `r->in` null, which glibc's fgetc dereferences.
    assert_eq!(common::test_count(&suite), 1);
    assert_eq!(suite["tests"][0]["error"]["kind"], "null-dereference");
    assert!(stdout.contains("1 run(s) stopped at an unsupported construct"), "{stdout}");
    assert!(
        stdout.contains("`fgetc` reads a stream that is neither the standard input nor a `FILE *` parameter"),
        "{stdout}"
    );
}

#[test]
fn fscanf_reads_the_stream_as_glibc_does() {
    let out = tempfile::tempdir().unwrap();
    // k = 1: every sign, leading zero, `0x` and blank of glibc's integer
    // fields, at most one digit or blank in a row; each test's outputs
    // are checked against glibc's fscanf natively.
    let suite = generate("area", "1", out.path());
    let found = files(&suite);
    assert_eq!(found.len(), 1134);
    assert!(found.contains(&("6 2\n".to_string(), 12)), "{found:?}");
    // The byte after the numbers stays in the stream for `fgetc`.
    assert!(found.contains(&("6 2@".to_string(), -2)), "{found:?}");
    // Fewer than two numbers; a sign alone is no number.
    assert!(found.contains(&(String::new(), -1)) && found.contains(&("6 +x".to_string(), -1)), "{found:?}");
}

#[test]
fn the_new_branches_first_order_keeps_the_files_end() {
    // The generational search lengthens free input arrays to the longest
    // seen; a file made longer ends elsewhere, so its runs diverged (24
    // of them here) and paths were lost. Both orders find the same paths.
    for order in ["depth-first", "new-branches-first"] {
        let out = tempfile::tempdir().unwrap();
        let (_, suite) = common::gen(FILE, "config_n", &["--k", "2", "--order", order], out.path());
        assert_eq!(suite["tests"].as_array().unwrap().len(), 121, "{order}");
        assert_eq!(suite["stop"], "complete", "{order}");
    }
}

#[test]
fn seeking_decides_the_size_and_moves_as_glibc_does() {
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(FILE, "size_then_first", "1", out.path());
    // SEEK_END: a path per size, 0 to --max-array-len (16); ftell gives
    // it, and after rewind the first byte is read again.
    let found = files(&suite);
    let mut sizes: Vec<usize> = found.iter().map(|f| f.0.len()).collect();
    sizes.sort_unstable();
    assert_eq!(sizes, (0..=16).collect::<Vec<_>>());
    for (f, r) in &found {
        let first = f.bytes().next().map_or(-1, i64::from);
        assert_eq!(*r, f.len() as i64 * 1000 + first, "{f:?}");
    }

    // k = 1 (one pass of the loop): no '#' (end or another byte), then
    // after the skipped byte the end, or one byte, 'x' or not.
    let out = tempfile::tempdir().unwrap();
    let suite = generate("skip_one", "1", out.path());
    let found = files(&suite);
    assert_eq!(found.len(), 5, "{found:?}");
    assert_eq!(found.iter().filter(|f| f.1 == -1).count(), 2);
    // Skipping past the end of a one-byte file: ftell says 2.
    assert!(found.contains(&("#".to_string(), 2)), "{found:?}");
    assert!(found.iter().any(|(f, r)| f.len() == 3 && f.ends_with('x') && *r == 103), "{found:?}");

    // fgetpos and fsetpos: the second byte read twice, the same (or the
    // end twice: EOF).
    let out = tempfile::tempdir().unwrap();
    let (suite, _) = common::gen_checked(FILE, "reread", "1", out.path());
    let found = files(&suite);
    assert_eq!(found.len(), 3, "{found:?}");
    for (f, r) in &found {
        let expected = f.as_bytes().get(1).map_or(-1, |&b| i64::from(b));
        assert_eq!(*r, expected, "{f:?}");
    }

    // The failed seek: the byte pushed back is gone, the next read is the
    // file's second byte (or its end).
    let out = tempfile::tempdir().unwrap();
    let suite = generate("failed_seek", "1", out.path());
    for (f, r) in files(&suite) {
        let expected = match f.as_bytes() {
            [] => -2,
            [_] => -1,
            [_, second, ..] => i64::from(*second),
        };
        assert_eq!(r, expected, "{f:?}");
    }
}

#[test]
fn getline_allocates_as_glibc_does_outside_the_tests_counts() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("comment_lines", "2", out.path());
    let found = files(&suite);
    assert!(found.len() > 10, "{found:?}");
    // Each test returns the lines of its file that start with '#'.
    for (f, r) in &found {
        let lines = f.split_inclusive('\n').filter(|l| l.starts_with('#')).count();
        assert_eq!(*r, lines as i64, "{f:?}");
    }
    assert!(found.iter().any(|f| f.1 == 2), "{found:?}");

    // Under --check-leaks, the code's own malloc leaks: allocation 1,
    // observed natively (getline's buffer, freed, is glibc's).
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen(FILE, "line_then_leak", &["--k", "1", "--check-leaks"], out.path());
    let errors = common::error_objects(&suite);
    assert!(!errors.is_empty(), "{suite:#}");
    for e in &errors {
        assert_eq!((e["kind"].as_str(), e["allocation"].as_u64()), (Some("memory-leak"), Some(1)), "{e:#}");
    }
    let outcome = common::replay_passes(out.path(), common::test_count(&suite), vec![], true);
    assert_eq!(outcome.not_observed, 0, "the leak is observed natively: {:?}", outcome.failures);
}

//! A decoder's guard on its header (`tests/c/trust3/header_guard.c`): a
//! pointer parameter read at every constant index below `c` (2 or more),
//! and a later unsigned parameter compared with `c` (`if (size < 2)
//! return 0;`), is a `(data, size)` pair, so the read past the header is
//! out of bounds when `size` says so. Before, `data` grew to whatever the
//! path read and the over-read, which libFuzzer finds at once, had no
//! test. A header read by `memcmp` or `memcpy` with a constant length
//! counts as read. A flag (signed, tested against 0, or not matching the
//! reads) and a string passed to `strlen` make no pair.

mod common;

fn generate(function: &str) -> (String, tempfile::TempDir, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let (stdout, suite) = common::gen("tests/c/trust3/header_guard.c", function, &[], out.path());
    (stdout, out, suite)
}

#[test]
fn the_read_past_a_guarded_header_is_out_of_bounds() {
    for (function, contract, tests, line) in [
        ("payload_last", "data has size elements (inferred from tests/c/trust3/header_guard.c:12:9)", 5, 17),
        ("word_after", "buf has size elements (inferred from tests/c/trust3/header_guard.c:24:9)", 4, 27),
        // The header read by memcmp (a mismatch at each of its 4 bytes).
        ("after_magic", "d has sz elements (inferred from tests/c/trust3/header_guard.c:44:9)", 7, 48),
    ] {
        let (stdout, out, suite) = generate(function);
        assert!(stdout.contains(contract), "{function}: {stdout}");
        assert_eq!(common::errors(&suite), vec![("out-of-bounds".to_string(), line)], "{function}");
        assert_eq!(suite["tests"].as_array().unwrap().len(), tests, "{function}: {suite:#}");
        // The over-read faults natively: the array ends at a guard page.
        let outcome = common::replay_passes(out.path(), tests, vec![], true);
        assert_eq!(outcome.passed as usize, tests, "{function}");
    }
}

#[test]
fn a_flag_compared_with_a_constant_is_no_length() {
    let (stdout, _out, suite) = generate("pick");
    assert!(!stdout.contains("has mode elements") && !stdout.contains("has level elements"), "{stdout}");
    assert!(stdout.contains("s is a NUL-terminated string"), "{stdout}");
    // Only reads past the string's NUL are errors.
    for (kind, _) in common::errors(&suite) {
        assert_eq!(kind, "out-of-bounds");
    }
}

#[test]
fn a_flag_tested_against_zero_is_no_length() {
    let (stdout, out, suite) = generate("get");
    assert!(!stdout.contains("has verbose elements"), "{stdout}");
    // `verbose > 0` or not; table[0] is always there.
    assert!(common::errors(&suite).is_empty(), "{suite:#}");
    assert_eq!(suite["tests"].as_array().unwrap().len(), 2, "{suite:#}");
    common::replay_passes(out.path(), 2, vec![], true);
}

#[test]
fn a_string_read_under_a_flag_is_no_array_of_the_flag() {
    let (stdout, out, suite) = generate("opt_len");
    assert!(!stdout.contains("has flags elements"), "{stdout}");
    assert!(stdout.contains("s is a NUL-terminated string"), "{stdout}");
    // strlen reads to the NUL the tests pass: no error.
    assert!(common::errors(&suite).is_empty(), "{suite:#}");
    common::replay_passes(out.path(), suite["tests"].as_array().unwrap().len(), vec![], true);
}

//! Copies and fills whose length the inputs set (`tests/c/trust3/copy_len.c`),
//! met sweeping common C patterns:
//! - `n = cap - 1` with `cap == 0` gives `memcpy` a length of 2^64 - 1:
//!   an out-of-bounds error test that faults natively (before: the run
//!   stopped as an unsupported "copy of -1 bytes", and the bug had no
//!   test; a length the growing input arrays could follow read a million
//!   bytes first and ran past the time limit);
//! - `memcpy(h, packet, n)` and `memset(buf + 8, 0, n)` with `n` from the
//!   inputs: the length is checked against the room in the fixed-size
//!   buffer before the run fixes it, so the error search asks for an `n`
//!   that overflows it (before: no test overflowed);
//! - the summary names the places where a symbolic value was concretised
//!   (`concretised at:`), which the stop line only counted.

mod common;

fn generate(function: &str) -> (tempfile::TempDir, serde_json::Value) {
    generate_with_summary(function).1
}

fn generate_with_summary(function: &str) -> (String, (tempfile::TempDir, serde_json::Value)) {
    let out = tempfile::tempdir().unwrap();
    let (stdout, suite) = common::gen("tests/c/trust3/copy_len.c", function, &[], out.path());
    (stdout, (out, suite))
}

fn count(suite: &serde_json::Value) -> usize {
    suite["tests"].as_array().unwrap().len()
}

#[test]
fn a_length_that_wrapped_below_zero_is_an_out_of_bounds_test() {
    let (out, suite) = generate("field_of_line");
    let errs = common::error_messages(&suite);
    assert_eq!(errs.len(), 1, "{errs:?}");
    let (kind, line, message) = &errs[0];
    assert_eq!((kind.as_str(), *line), ("out-of-bounds", 13));
    assert!(message.contains("18446744073709551615 bytes"), "{message}");
    assert!(suite["stats"]["unsupported"].as_array().is_none_or(|u| u.is_empty()), "{:#}", suite["stats"]);
    // Both sides of `n >= cap`, and of `cap > sizeof field`.
    for f in suite["coverage"]["functions"].as_array().unwrap() {
        assert_eq!(f["branches_covered"], 2, "{f:#}");
    }
    common::replay_passes(out.path(), count(&suite), vec![], true);
}

#[test]
fn an_input_length_into_a_fixed_buffer_is_solved_to_overflow_it() {
    for (function, line, object) in [("header", 34, "of a 4-byte object"), ("clear_tail", 44, "of a 16-byte object")] {
        let (stdout, (out, suite)) = generate_with_summary(function);
        // The search is not complete (other lengths' values are not
        // explored), and the summary names the place that fixed the length.
        assert_eq!(suite["stop"], "explored", "{function}");
        let at = format!("  concretised at:      tests/c/trust3/copy_len.c:{line}:5\n");
        assert!(stdout.contains(&at), "{function}: {stdout}");
        let mut errs = common::error_messages(&suite);
        // `header` with n = 0 copies nothing and returns `h[0]`, which is
        // indeterminate: an error test (it was a test expecting 0, which
        // natively read whatever the stack held, and failed at random).
        if function == "header" {
            let (kind, l, message) = errs.remove(0);
            assert_eq!((kind.as_str(), l), ("uninitialised-read", 35), "{function}");
            assert!(message.contains("of a 4-byte local variable never written there"), "{message}");
        }
        assert_eq!(errs.len(), 1, "{function}: {errs:?}");
        let (kind, l, message) = &errs[0];
        assert_eq!((kind.as_str(), *l), ("out-of-bounds", line), "{function}");
        assert!(message.contains(object), "{function}: {message}");
        // The length within the buffer (for `header`, the copy of no
        // byte), the length the guard refuses, and the overflow.
        assert_eq!(count(&suite), 3, "{function}: {suite:#}");
        common::replay_passes(out.path(), 3, vec![], true);
    }
}

//! Subscripts of arrays inside larger objects (`tests/c/trust3/member_index.c`),
//! met sweeping common C patterns (a ring buffer's `r->buf[r->head]`):
//! - C bounds the index of a structure member or of a row by the array's
//!   own length, as `-fsanitize=bounds` does; the object's bounds let
//!   `buf[8]` read the member after `buf`, and the run fixed the symbolic
//!   index to its value, so no test ever asked for `head >= 8`;
//! - a structure passed by value is one object: an index past it is out
//!   of bounds (the run used to lengthen it into an array of two, and the
//!   test's expected result then depended on the caller's stack);
//! - the address one past the end, and a trailing one-element array (the
//!   pre-C99 flexible array member), are not errors; a trailing array of
//!   8 is checked as any other member (gcc's `-fstrict-flex-arrays=1`).

mod common;

fn generate(function: &str) -> (tempfile::TempDir, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen("tests/c/trust3/member_index.c", function, &[], out.path());
    (out, suite)
}

fn count(suite: &serde_json::Value) -> usize {
    suite["tests"].as_array().unwrap().len()
}

/// Generates for `function`, checks its test count and its one error
/// (line, words of the message) or none, and replays natively; returns
/// the suite's C file.
fn check(function: &str, tests: usize, error: Option<(u64, &str)>) -> String {
    let (out, suite) = generate(function);
    assert_eq!(count(&suite), tests, "{function}: {suite:#}");
    let errs = common::error_messages(&suite);
    match error {
        Some((line, words)) => {
            assert_eq!(errs.len(), 1, "{function}: {errs:?}");
            let (kind, l, message) = &errs[0];
            assert_eq!((kind.as_str(), *l), ("out-of-bounds", line), "{function}");
            assert!(message.contains(words), "{function}: {message}");
        }
        None => assert!(errs.is_empty(), "{function}: {errs:?}"),
    }
    common::replay_passes(out.path(), tests, vec![], true);
    std::fs::read_to_string(out.path().join(format!("{function}_tests.c"))).unwrap()
}

#[test]
fn a_member_array_index_from_the_inputs_gets_its_out_of_bounds_test() {
    // head == tail, head != tail within buf, and head past buf.
    check("ring_peek", 3, Some((19, "out of bounds of an array of 8 elements")));
}

#[test]
fn the_address_one_past_the_end_is_no_error() {
    check("ring_room", 1, None);
}

#[test]
fn a_structure_passed_by_value_is_one_object() {
    // `vals` is no flexible array member (it has 4 elements).
    let c = check("lookup", 4, Some((41, "out of bounds of an array of 4 elements")));
    // No test builds `t` from an array of structures.
    assert!(!c.contains("pathwise_o1[1]") && !c.contains("2 * sizeof(struct table)"), "{c}");
    // Through a pointer, the copy's own size bounds the index.
    let c = check("lookup_ptr", 4, Some((90, "of a 20-byte object")));
    assert!(!c.contains("pathwise_o1[1]") && !c.contains("2 * sizeof(struct table)"), "{c}");
}

#[test]
fn a_row_index_past_its_row_is_out_of_bounds_inside_the_array() {
    check("cell", 5, Some((50, "out of bounds of an array of 4 elements")));
}

#[test]
fn a_trailing_one_element_array_is_a_flexible_array_member() {
    check("last_char", 3, None);
}

#[test]
fn a_trailing_array_of_eight_is_no_flexible_array_member() {
    // i >= used, i < used within slots, and i past slots (used > 8).
    check("pool_get", 3, Some((80, "out of bounds of an array of 8 elements")));
}

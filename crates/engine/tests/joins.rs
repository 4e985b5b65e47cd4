//! Pointer parameters into one object (see `engine/src/joins.rs`): an
//! ordering or a subtraction of two input pointers makes them point into
//! one array; an equality may or may not; a precondition can say so with
//! `pathwise_same_object` or `pathwise_assume(end == s + n)`.

mod common;

use common::*;
use pathwise_engine::suite::{HeapValue, InputValue, StopReason, TestCase};

/// Where each test's parameter `i` points: `Some((param, element))` into
/// another parameter's array, `None` for its own array.
fn joined(t: &TestCase, i: usize, elem_bytes: u64) -> Option<(usize, u64)> {
    match &t.inputs[i] {
        InputValue::Pointer(HeapValue::Param { param, offset }) => Some((*param, offset / elem_bytes)),
        InputValue::Array(_) => None,
        other => panic!("parameter {i}: {other:?}"),
    }
}

fn array(t: &TestCase, i: usize) -> &[i128] {
    match &t.inputs[i] {
        InputValue::Array(a) => a,
        other => panic!("parameter {i}: {other:?}"),
    }
}

/// `end - s` is defined only within one object: the run assumes it, and
/// the one test passes `s` and `s + 0` (before: an
/// `invalid-pointer-arithmetic` error test, the only path).
#[test]
fn a_subtraction_joins_the_pointers() {
    let program = compile_str("span.c", "long span(const char *s, const char *end) { return end - s; }\n");
    let suite = generate(&program, &config("span", None, 2));
    check_sound(&suite);
    assert_eq!(suite.stop, StopReason::Complete);
    assert_eq!(suite.tests.len(), 1);
    let t = &suite.tests[0];
    assert!(errors(&suite).is_empty(), "{:?}", t.outcome);
    assert_eq!(joined(t, 1, 1), Some((0, 0)));
    assert_eq!(t.ret, Some(0));
}

/// An ordering: `p < end` is an input decision once they are joined, so
/// the loop's paths are those of a buffer of 0, 1, 2 bytes (k = 2).
#[test]
fn an_ordering_joins_the_pointers_and_decides_on_the_offset() {
    let src =
        "int count(const char *p, const char *end) {\n  int n = 0;\n  while (p < end) { n++; p++; }\n  return n;\n}\n";
    let program = compile_str("count.c", src);
    let suite = generate(&program, &config("count", None, 2));
    check_sound(&suite);
    assert_eq!(suite.stop, StopReason::Complete);
    let mut seen: Vec<(usize, u64, Option<i128>)> = suite
        .tests
        .iter()
        .map(|t| {
            let (root, at) = joined(t, 1, 1).expect("end points into p's array");
            assert_eq!(root, 0);
            // The array is exactly as long as the buffer.
            assert_eq!(array(t, 0).len() as u64, at);
            (array(t, 0).len(), at, t.ret)
        })
        .collect();
    seen.sort();
    assert_eq!(seen, [(0, 0, Some(0)), (1, 1, Some(1)), (2, 2, Some(2))]);
}

/// Equality is defined between any two pointers: separate arrays are one
/// input, the same array at the same element another.
#[test]
fn an_equality_may_join_the_pointers() {
    let program = compile_str("same.c", "int same(int *a, int *b) { if (a == b) return 1; return 0; }\n");
    let suite = generate(&program, &config("same", None, 2));
    check_sound(&suite);
    type Seen = (Option<i128>, Option<(usize, u64)>);
    let mut seen: Vec<Seen> = suite.tests.iter().map(|t| (t.ret, joined(t, 1, 4))).collect();
    seen.sort();
    assert_eq!(seen, [(Some(0), None), (Some(1), Some((0, 0)))]);
}

const SUM: &str = r#"#include "pathwise.h"
#include <stddef.h>
int sum(const unsigned *a, const unsigned *end, int n) {
    unsigned s = 0;
    for (const unsigned *p = a; p != end; p++)
        s += *p;
    return s;
}
int tied(const unsigned *a, const unsigned *end, int n) {
    pathwise_assume(n >= 0 && n <= 2);
    pathwise_assume(end == a + n);
    return 1;
}
int same(const unsigned *a, const unsigned *end, int n) {
    pathwise_same_object(end, a);
    return 1;
}
"#;

/// `pathwise_assume(end == a + n)`: an equality of two input pointers ties
/// them, at the element `n` says.
#[test]
fn an_assumed_equality_ties_the_pointers() {
    let program = compile_str("sum.c", SUM);
    let suite = generate(&program, &config("sum", Some("tied"), 2));
    check_sound(&suite);
    assert_eq!(suite.stop, StopReason::Complete);
    let mut ns: Vec<i128> = suite
        .tests
        .iter()
        .map(|t| {
            let InputValue::Scalar(n) = t.inputs[2] else { panic!() };
            assert_eq!(joined(t, 1, 4), Some((0, n as u64)));
            assert_eq!(array(t, 0).len() as i128, n);
            assert_eq!(t.ret, Some(array(t, 0).iter().sum::<i128>() as u32 as i32 as i128));
            n
        })
        .collect();
    ns.sort();
    assert_eq!(ns, [0, 1, 2]);
}

/// `pathwise_same_object(end, a)`: `end` points into `a`'s array, at each
/// element the loop's paths need (without it, the loop's `p != end` joins
/// them too, but other runs try them apart first).
#[test]
fn same_object_points_one_parameter_into_the_other() {
    let program = compile_str("sum.c", SUM);
    let suite = generate(&program, &config("sum", Some("same"), 2));
    check_sound(&suite);
    assert_eq!(suite.stop, StopReason::Complete);
    let mut ats: Vec<u64> = suite.tests.iter().map(|t| joined(t, 1, 4).expect("joined").1).collect();
    ats.sort();
    assert_eq!(ats, [0, 1, 2]);
    assert_eq!(suite.stats.unrelated_pointer_runs, 0);
    let free = generate(&program, &config("sum", None, 2));
    assert_eq!(free.tests.len(), 3);
    assert!(free.stats.runs > suite.stats.runs, "{} runs, {} with the precondition", free.stats.runs, suite.stats.runs);
}

//! Structures ending in a flexible array member as input heaps
//! (tests/c/fam.c): one structure plus a tail whose length the generator
//! chooses, never an array of such structures. Every suite builds with
//! `gcc -Wall -Wextra -Werror`, passes natively with gcov agreeing with
//! the prediction, and its JSON describes the tail (`tail`, fields
//! `.data[1]`). Counts are at k = 2.

mod common;

use common::{assumed_nonnull, build_and_run, errors, gen, replay_passes, returns, root};

/// The lines where a suite's contracts say a parameter is dereferenced
/// without a null test (`assumes non-null: p`): that case is a contract,
/// not a test.
fn assumed_lines(suite: &serde_json::Value) -> Vec<u64> {
    assumed_nonnull(suite).into_iter().map(|a| a.1).collect()
}

/// Generate for `function` of tests/c/fam.c, build the test file as a user
/// would and run it, replay it with gcov; returns the JSON suite.
fn suite(function: &str, extra: &[&str]) -> serde_json::Value {
    let out = tempfile::tempdir().unwrap();
    let args = [&["-I", "crates/cfront/include", "--k", "2"][..], extra].concat();
    let (_, suite) = gen("tests/c/fam.c", function, &args, out.path());
    let n = suite["tests"].as_array().unwrap().len();
    let (code, stdout) = build_and_run(out.path(), function, &[]);
    // Only an overrun no native check sees is counted apart.
    assert!(code == 0 && stdout.contains(" 0 failed"), "{function}: exit {code}: {stdout}");
    replay_passes(out.path(), n, vec![root().join("crates/cfront/include")], true);
    suite
}

/// An input object as the JSON describes it: its tail's length and its
/// integer fields by path.
type Described = (Option<u64>, Vec<(String, i64)>);

/// The input heap's first object of each test.
fn first_objects(suite: &serde_json::Value) -> Vec<Described> {
    let tests = suite["tests"].as_array().unwrap();
    tests
        .iter()
        .filter_map(|t| t["heap_in"].as_array().and_then(|h| h.first()).cloned())
        .map(|o| {
            assert_eq!(o["count"], 1, "one structure, never an array of them: {o}");
            let fields = o["fields"].as_array().unwrap();
            let fields =
                fields.iter().filter_map(|f| Some((f["path"].as_str()?.to_string(), f["value"].as_i64()?))).collect();
            (o["tail"].as_u64(), fields)
        })
        .collect()
}

/// Whether some test's first input object has tail `tail` and the field
/// `path` equal to `value`.
fn has(objects: &[Described], tail: u64, path: &str, value: i64) -> bool {
    objects.iter().any(|(t, f)| *t == Some(tail) && f.iter().any(|(p, v)| p == path && *v == value))
}

/// `m->data[1]` is the tail's second byte, not a second structure's `len`:
/// `len <= 2`, `len > 2` with `data[1] != 'x'`, and with 'x' (a 2-byte
/// tail holding 'x' = 120 at `.data[1]`): 3 tests; m is dereferenced
/// without a null test (the contract `assumes non-null: m`).
#[test]
fn tail_byte_read_through_the_member() {
    let s = suite("check", &[]);
    assert_eq!((errors(&s), assumed_lines(&s)), (vec![], vec![16]));
    assert_eq!(returns(&s), vec![0, 0, 1]);
    let objects = first_objects(&s);
    assert!(has(&objects, 2, ".data[1]", 120), "{objects:?}");
    // The test that never reads the tail builds none.
    assert!(objects.iter().any(|(t, f)| *t == Some(0) && f.len() == 1), "{objects:?}");
}

/// A loop over the tail up to `n`: n = 0, 1, 2 (a third iteration
/// exceeds k): 3 tests, each tail exactly `n` long (p assumed non-null).
#[test]
fn loop_over_the_tail_grows_it_to_what_it_reads() {
    let s = suite("sum", &[]);
    assert_eq!((errors(&s), assumed_lines(&s)), (vec![], vec![29]));
    assert_eq!(s["tests"].as_array().unwrap().len(), 3);
    for (tail, fields) in first_objects(&s) {
        let n = fields.iter().find(|(p, _)| p == ".n").map(|f| f.1 as u64);
        assert_eq!(tail, n, "{fields:?}");
    }
}

/// Writes into the tail are checked element by element: `len <= 0`, 1
/// and 2 iterations: 3 tests (m assumed non-null).
#[test]
fn writes_into_the_tail_are_checked() {
    let s = suite("fill", &[]);
    assert_eq!((errors(&s), assumed_lines(&s)), (vec![], vec![38]));
    assert_eq!(returns(&s), vec![0, 1, 2]);
    let outs: Vec<String> = s["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["expected"]["heap_out"].as_array().and_then(|h| h.first()).cloned())
        .flat_map(|o| {
            o["fields"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap().to_string()).collect::<Vec<_>>()
        })
        .collect();
    assert!(outs.iter().any(|p| p == ".data[1]"), "{outs:?}");
}

/// A tail tied to `len` by the precondition (`pathwise_array_len(m->data,
/// m->len)`): `data[2]` is in bounds for `len >= 3` and an out-of-bounds
/// error otherwise: 2 tests (the overrun is not observed natively).
#[test]
fn tied_tail_overrun_is_an_error() {
    let s = suite("third", &["--precondition", "third_pre"]);
    assert_eq!(errors(&s), vec![("out-of-bounds".to_string(), 54)]);
    assert_eq!(s["tests"].as_array().unwrap().len(), 2);
}

/// Structures in the tail: `n <= 1`, `pts[1].x <= pts[0].x`,
/// `pts[1].x > pts[0].x`: 3 tests (p assumed non-null), fields `.pts[1].x`.
#[test]
fn tail_of_structures() {
    let s = suite("rightward", &[]);
    assert_eq!((errors(&s), assumed_lines(&s)), (vec![], vec![69]));
    assert_eq!(returns(&s), vec![0, 0, 1]);
    let objects = first_objects(&s);
    assert!(objects.iter().any(|(t, f)| *t == Some(2) && f.iter().any(|(p, _)| p == ".pts[1].x")), "{objects:?}");
}

/// A pointer field in the fixed part, lazily initialised, and the object
/// it reaches passed to a helper: `b->next` null, `next->n <= 0`,
/// `next->bytes[0] != 'x'`, 'x': 4 tests (b assumed non-null).
#[test]
fn pointer_field_and_helper() {
    let s = suite("chained", &[]);
    assert_eq!((errors(&s), assumed_lines(&s)), (vec![], vec![88]));
    assert_eq!(returns(&s), vec![0, 0, 0, 1]);
    let tests = s["tests"].as_array().unwrap();
    let x_tail = tests.iter().flat_map(|t| t["heap_in"].as_array().unwrap().clone()).any(|o| {
        o["tail"] == 1 && o["fields"].as_array().unwrap().iter().any(|f| f["path"] == ".bytes[0]" && f["value"] == 120)
    });
    assert!(x_tail, "{s}");
}

/// gcc starts `vals` at byte 6 of the 8-byte `struct padded`: the tail's
/// bounds are C's (one element ends at byte 8), the test allocates
/// `sizeof + 1 * sizeof(short)`: `tag != 'v'`, `vals[0] <= 7`,
/// `vals[0] > 7`: 3 tests (p assumed non-null).
#[test]
fn member_inside_the_padding() {
    let s = suite("padded_first", &[]);
    assert_eq!((errors(&s), assumed_lines(&s)), (vec![], vec![103]));
    assert_eq!(s["tests"].as_array().unwrap().len(), 3);
    let objects = first_objects(&s);
    assert!(
        objects.iter().any(|(t, f)| *t == Some(1) && f.iter().any(|(p, v)| p == ".vals[0]" && *v > 7)),
        "{objects:?}"
    );
}

/// A structure the call allocates with room for `n` tail bytes: n < 0,
/// n > 3, then n = 0, 1, 2 (n = 3 needs a third iteration): 5 tests, the
/// returned object's tail as long as its allocation (`data[1]` = 'b').
#[test]
fn allocated_structure_with_a_tail() {
    let s = suite("make", &[]);
    assert_eq!(s["tests"].as_array().unwrap().len(), 5);
    let outs: Vec<serde_json::Value> = s["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["expected"]["heap_out"].as_array().and_then(|h| h.first()).cloned())
        .collect();
    let two = outs.iter().find(|o| o["tail"] == 2).expect("a 2-byte tail");
    assert_eq!(two["allocated"], true);
    assert!(two["fields"].as_array().unwrap().iter().any(|f| f["path"] == ".data[1]" && f["value"] == 98), "{two}");
}

//! Two pointer parameters into one buffer (issue "Trustworthy on real C
//! libraries"): `f(const char *p, const char *end)` in the style of real
//! parsers (`tests/c/same_buffer.c`). Before, `end` was an array of its
//! own, so `p < end` compared unrelated objects and `end - s` was the only
//! path, an `invalid-pointer-arithmetic` error. Now an ordering or a
//! subtraction of two input pointers makes them point into one array (C
//! defines nothing else), a precondition can say so
//! (`pathwise_same_object(end, p)`, `pathwise_assume(end == a + n)`), and
//! the tests build one array and pass `p` and `p + n`: every test passes
//! natively (gcc -Wall -Wextra -Werror) and replays with gcov agreeing.

mod common;

use std::path::Path;

use common::root;

/// Generate for `function` of `tests/c/same_buffer.c` at k = 2 (`extra`
/// after it): the output directory and the JSON suite.
fn generate(function: &str, extra: &[&str]) -> (tempfile::TempDir, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let args = [&["--k", "2"][..], extra].concat();
    let (_, suite) = common::gen("tests/c/same_buffer.c", function, &args, out.path());
    (out, suite)
}

fn tests(suite: &serde_json::Value) -> &Vec<serde_json::Value> {
    suite["tests"].as_array().unwrap()
}

/// Every test passes natively, built as a user would (warnings are
/// errors), and replays with gcov agreeing.
fn passes_and_replays(dir: &Path, function: &str, suite: &serde_json::Value) {
    let n = tests(suite).len();
    let (code, stdout) = common::build_and_run(dir, function, &[]);
    assert_eq!((code, stdout.as_str()), (0, format!("{n} passed, 0 failed\n").as_str()));
    common::replay_passes(dir, n, vec![root().join("crates/cfront/include")], true);
}

/// What a pointer parameter's input is: `(param, offset)` for a pointer
/// into another parameter's array, `(ref id, offset)` into a heap object.
fn points_into(input: &serde_json::Value) -> Option<(String, u64)> {
    let offset = input["offset"].as_u64()?;
    match (input["param"].as_str(), input["ref"].as_u64()) {
        (Some(p), _) => Some((p.to_string(), offset)),
        (None, Some(r)) => Some((format!("o{r}"), offset)),
        _ => None,
    }
}

/// The error kinds of a suite.
fn error_kinds(suite: &serde_json::Value) -> Vec<String> {
    common::errors(suite).into_iter().map(|(kind, _)| kind).collect()
}

/// `skip_ws(p, end)`: `p < end` joins them; 14 paths at k = 2 (2 ways out
/// of each of 3 checks, 2 ways on of each of 2 iterations), each `end`
/// exactly one past `p`'s array, none an error. The same with the
/// precondition `pathwise_same_object(end, p)`.
#[test]
fn skip_ws_gets_one_buffer() {
    for extra in [&[][..], &["--precondition", "skip_ws_pre"][..]] {
        let (out, suite) = generate("skip_ws", extra);
        assert_eq!(tests(&suite).len(), 14, "{extra:?}");
        assert!(error_kinds(&suite).is_empty(), "{extra:?}: {:?}", error_kinds(&suite));
        assert_eq!(suite["stop"], "complete");
        // An ordering needs valid pointers: neither may be null.
        // (A precondition states which inputs are valid: with one, input
        // arrays are never null.)
        let assumed: Vec<String> = common::assumed_nonnull(&suite).into_iter().map(|a| a.0).collect();
        let expected: &[&str] = if extra.is_empty() { &["p", "end"] } else { &[] };
        assert_eq!(assumed, expected, "{extra:?}");
        for t in tests(&suite) {
            let len = t["inputs"]["p"].as_array().expect("p is the buffer").len() as u64;
            assert_eq!(points_into(&t["inputs"]["end"]), Some(("p".into(), len)), "{t:#}");
            let ret = &t["expected"]["return_pointer"];
            assert!(ret["param"] == "p" && ret["offset"].as_u64().unwrap() <= len, "{t:#}");
        }
        let text = std::fs::read_to_string(out.path().join("skip_ws_tests.c")).unwrap();
        // A tab, then the byte that stops the loop: the buffer ends there.
        assert!(text.contains("    char p[2] = \"\\t\";\n    char *end = p + 2;\n"), "{text}");
        assert!(text.contains(" * inputs: p = \"\\t\", end = p + 2\n"), "{text}");
        passes_and_replays(out.path(), "skip_ws", &suite);
    }
}

/// `parse_uint(&p, end, &out)`: `end` points into the string `*pp`
/// points to (a heap object); `p == end` joins them at its start. The only
/// error is the null dereference of `*pp` (a field of the input); the
/// parameters `pp`, `end` and `out` are used without a null test, so they
/// are assumed non-null (contracts, not tests).
#[test]
fn parse_uint_points_end_into_the_cursors_string() {
    let (out, suite) = generate("parse_uint", &[]);
    assert_eq!(tests(&suite).len(), 10);
    assert_eq!(common::errors(&suite), [("null-dereference".to_string(), 24)]);
    let assumed: Vec<String> = common::assumed_nonnull(&suite).into_iter().map(|a| a.0).collect();
    assert_eq!(assumed, ["pp", "end", "out"]);
    let joined: Vec<(u64, i64)> = tests(&suite)
        .iter()
        .filter_map(|t| {
            let (target, at) = points_into(&t["inputs"]["end"])?;
            assert_eq!(target, "o2", "{t:#}");
            Some((at, t["expected"]["return"].as_i64().unwrap()))
        })
        .collect();
    // `end == *pp`: no digit (-1), joined at the string's start or both
    // null (end may be null, and so may the cursor); 1, 2 or 3 bytes
    // before `end`.
    let both_null = tests(&suite).iter().any(|t| t["inputs"]["end"].is_null() && t["expected"]["return"] == -1);
    assert!(joined.contains(&(0, -1)) || both_null, "{joined:?}");
    assert_eq!(joined.iter().filter(|(at, r)| *at > 0 && *r == 0).count(), 6, "{joined:?}");
    let text = std::fs::read_to_string(out.path().join("parse_uint_tests.c")).unwrap();
    assert!(text.contains("    char *end = pathwise_o2 + 3;\n"), "{text}");
    passes_and_replays(out.path(), "parse_uint", &suite);
}

/// `count_char` walks with `p != end` (an equality: the pointers may be
/// apart, but only a join ends the loop within k), `last_char` from `end`
/// down to `s` (memrchr), `span` returns `end - s`.
#[test]
fn loops_between_two_pointers() {
    for (function, n) in [("count_char", 7), ("last_char", 5), ("span", 1)] {
        let (out, suite) = generate(function, &[]);
        assert_eq!(tests(&suite).len(), n, "{function}");
        assert!(error_kinds(&suite).is_empty(), "{function}: {:?}", error_kinds(&suite));
        for t in tests(&suite) {
            let s = t["inputs"]["s"].as_array().expect("s is the buffer");
            assert_eq!(points_into(&t["inputs"]["end"]), Some(("s".into(), s.len() as u64)), "{t:#}");
            if function == "count_char" {
                let c = &t["inputs"]["c"];
                let count = s.iter().filter(|&x| x == c).count() as i64;
                assert_eq!(t["expected"]["return"].as_i64(), Some(count), "{t:#}");
            }
        }
        passes_and_replays(out.path(), function, &suite);
    }
}

/// `sum_n(a, end, n)`: `end - a` joins them. With the precondition
/// `pathwise_array_len(a, n); pathwise_assume(end == a + n)`, `end` is one
/// past the `n` ints of `a`, so the overrun branch (-1) is never taken.
#[test]
fn an_assumed_end_is_a_plus_n() {
    let (out, suite) = generate("sum_n", &[]);
    assert_eq!(tests(&suite).len(), 4);
    assert!(error_kinds(&suite).is_empty(), "{:?}", error_kinds(&suite));
    assert!(common::returns(&suite).contains(&-1));
    passes_and_replays(out.path(), "sum_n", &suite);
    let (out, suite) = generate("sum_n", &["--precondition", "sum_n_pre"]);
    assert_eq!(tests(&suite).len(), 3);
    for t in tests(&suite) {
        let n = t["inputs"]["n"].as_u64().unwrap();
        assert_eq!(t["inputs"]["a"].as_array().unwrap().len() as u64, n, "{t:#}");
        assert_eq!(points_into(&t["inputs"]["end"]), Some(("a".into(), 4 * n)), "{t:#}");
        assert_ne!(t["expected"]["return"].as_i64(), Some(-1), "{t:#}");
    }
    passes_and_replays(out.path(), "sum_n", &suite);
}

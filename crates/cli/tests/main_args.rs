//! `main(int argc, char **argv)` gets its arguments as the C runtime
//! passes them (`tests/c/trust4/args.c`): `argc` at least 1, `argv[0]` to
//! `argv[argc - 1]` distinct strings, `argv[argc]` NULL. Before, `argc`
//! and `argv` were an integer and a pointer like any other: tests passed
//! `argc` 0, or 4 with two pointers, and a null `argv[1]` beside `argc ==
//! 2` made a null-dereference error test of this correct program.

mod common;

use std::collections::BTreeMap;

use serde_json::Value;

const FILE: &str = "tests/c/trust4/args.c";

/// The input heap's objects by id.
fn heap(t: &Value) -> BTreeMap<u64, &Value> {
    t["heap_in"].as_array().unwrap().iter().map(|o| (o["id"].as_u64().unwrap(), o)).collect()
}

/// A `char` object's text, up to its NUL.
fn text(o: &Value) -> String {
    let mut cells: Vec<(u64, u8)> = o["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["offset"].as_u64().unwrap(), f["value"].as_i64().unwrap() as u8))
        .collect();
    cells.sort();
    cells.iter().map(|&(_, b)| b).take_while(|&b| b != 0).map(char::from).collect()
}

/// The arguments a test passes, checked against the C runtime's contract:
/// `argc` + 1 pointers, distinct strings, then NULL.
fn arguments(t: &Value) -> Vec<String> {
    let argc = t["inputs"]["argc"].as_i64().unwrap();
    assert!((1..=16).contains(&argc), "{t}");
    let heap = heap(t);
    let argv = heap[&t["inputs"]["argv"]["ref"].as_u64().unwrap()];
    assert_eq!(argv["count"].as_i64(), Some(argc + 1), "{t}");
    let fields = argv["fields"].as_array().unwrap();
    assert_eq!(fields.len() as i64, argc + 1, "{t}");
    assert!(fields[argc as usize]["value"].is_null(), "{t}");
    let refs: Vec<u64> = fields[..argc as usize].iter().map(|f| f["value"]["ref"].as_u64().unwrap()).collect();
    let distinct: std::collections::BTreeSet<u64> = refs.iter().copied().collect();
    assert_eq!(distinct.len(), refs.len(), "{t}");
    refs.iter().map(|r| text(heap[r])).collect()
}

/// What the program writes for `args` (`argv[1..]`).
fn output(args: &[String]) -> String {
    let mut verbose = false;
    let mut out = String::new();
    for (i, a) in args.iter().enumerate() {
        if a == "-v" {
            verbose = true;
        } else if verbose {
            out += &format!("hello, {a} (argument {} of {})\n", i + 1, args.len());
        } else {
            out += &format!("hello, {a}\n");
        }
    }
    out
}

#[test]
fn main_gets_argc_strings_then_null() {
    let out = tempfile::tempdir().unwrap();
    let (suite, outcome) = common::gen_checked(FILE, "main", "2", out.path());
    assert_eq!(common::branches_covered(&outcome, "main"), Some(true), "{:?}", outcome.rows);
    let tests = suite["tests"].as_array().unwrap();
    // No error test: the program checks argc before it reads argv[1].
    assert!(tests.iter().all(|t| t["outcome"] == "returned"), "{suite}");
    let mut by_argc = BTreeMap::new();
    for t in tests {
        let args = arguments(t);
        *by_argc.entry(args.len()).or_insert(0) += 1;
        let ret = t["expected"]["return"].as_i64().unwrap();
        let written: String = t["expected"]
            .get("stdout")
            .map(|s| s.as_array().unwrap().iter().map(|b| char::from(b.as_u64().unwrap() as u8)).collect())
            .unwrap_or_default();
        if args.len() < 2 {
            assert_eq!((ret, written.as_str()), (2, ""), "{t}");
        } else {
            assert_eq!((ret, written), (0, output(&args[1..])), "{t}");
        }
    }
    // argc 1 (the usage), 2 and 3 (one and two iterations of the loop, k = 2).
    assert_eq!(by_argc.keys().copied().collect::<Vec<_>>(), [1, 2, 3], "{by_argc:?}");
    let c = std::fs::read_to_string(out.path().join("main_tests.c")).unwrap();
    assert!(c.contains("Inputs as callers pass them: argv holds argc (1 to 16) distinct strings, then NULL"), "{c}");
    assert_eq!(suite["precondition"], "pathwise_main_arguments");
}

#[test]
fn a_precondition_of_the_users_replaces_it() {
    let out = tempfile::tempdir().unwrap();
    let (stdout, suite) = common::gen(FILE, "main", &["--k", "2", "--precondition", "two_names"], out.path());
    assert!(!stdout.contains("argv holds argc"), "{stdout}");
    let tests = suite["tests"].as_array().unwrap();
    assert!(!tests.is_empty());
    for t in tests {
        assert_eq!(t["inputs"]["argc"], 3, "{t}");
    }
}

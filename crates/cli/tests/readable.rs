//! Suites a person can read (issue 28, `tests/c/readable.c`): inputs
//! printable or NUL and small where the path allows, NUL-terminated
//! strings as C string literals, enumeration values by their constants'
//! names, and test functions named for what they check. Each suite
//! builds with gcc and clang under `-Wall -Wextra -Werror`, passes
//! natively, and replays with gcov agreeing.

mod common;

use std::path::Path;
use std::process::Command;

use common::root;

const FILE: &str = "tests/c/readable.c";

/// gcc, and clang when installed (as `clang` or `clang-16`).
fn compilers() -> Vec<&'static str> {
    let mut cs = vec!["gcc"];
    if let Some(c) = ["clang", "clang-16"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
    {
        cs.push(c);
    }
    cs
}

/// Generate (with `extra` arguments), replay with gcov, and build and run
/// with every compiler: (the suite's directory, the C file, the JSON).
fn generate(function: &str, extra: &[&str]) -> (tempfile::TempDir, String, serde_json::Value) {
    generate_with(function, extra, true)
}

/// [`generate`], comparing gcov's coverage with the prediction or not.
fn generate_with(function: &str, extra: &[&str], coverage: bool) -> (tempfile::TempDir, String, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen(FILE, function, extra, out.path());
    let n = suite["tests"].as_array().unwrap().len();
    assert!(n > 0, "{function}: no test");
    common::replay_passes(out.path(), n, vec![], coverage);
    builds_and_passes(out.path(), function, n);
    let text = std::fs::read_to_string(out.path().join(format!("{function}_tests.c"))).unwrap();
    (out, text, suite)
}

fn builds_and_passes(dir: &Path, function: &str, n: usize) {
    for cc in compilers() {
        let (code, stdout) = common::build_and_run_with(cc, dir, function, &root().join("tests/c"), &[]);
        assert_eq!((code, stdout.trim_end()), (0, format!("{n} passed, 0 failed").as_str()), "{cc}, {function}");
    }
}

fn tests(suite: &serde_json::Value) -> &Vec<serde_json::Value> {
    suite["tests"].as_array().unwrap()
}

/// The elements of array input `name` of a test.
fn chars(test: &serde_json::Value, name: &str) -> Vec<i64> {
    test["inputs"][name].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect()
}

/// The declarations of local `name` in the C file (`char s[3] = "7?";`).
fn declarations<'t>(text: &'t str, decl: &str) -> Vec<&'t str> {
    text.lines().map(str::trim).filter(|l| l.starts_with(decl)).collect()
}

/// The string parsers' inputs are printable characters ending in a NUL,
/// written as string literals; the test names say what each returns.
#[test]
fn strings_are_printable_literals() {
    for (function, k) in [("parse_int", "2"), ("parse_byte", "3")] {
        let (_dir, text, suite) = generate(function, &["--k", k]);
        for t in tests(&suite) {
            let s = chars(t, "s");
            let (&last, body) = s.split_last().unwrap();
            assert_eq!(last, 0, "{function}: {s:?} is not terminated");
            assert!(body.iter().all(|&c| (0x20..0x7f).contains(&c)), "{function}: {s:?} is not printable");
            let name = t["name"].as_str().unwrap();
            assert!(text.contains(&format!("static int {name}(void)")), "{name}");
            match t["expected"]["return"].as_i64() {
                Some(r) if r < 0 => {
                    assert!(name.starts_with(&format!("pathwise_test_{function}_returns_minus_{}", -r)))
                }
                Some(r) => assert!(name.starts_with(&format!("pathwise_test_{function}_returns_{r}")), "{name}"),
                None => panic!("{function}: {name} did not return"),
            }
        }
        let names: std::collections::HashSet<&str> =
            tests(&suite).iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names.len(), tests(&suite).len(), "{function}: names are unique");
        let decls = declarations(&text, "char s[");
        assert_eq!(decls.len(), tests(&suite).len(), "{function}");
        assert!(decls.iter().all(|d| d.contains("] = \"") && !d.contains('{')), "{function}: {decls:?}");
    }
    // The byte parser's overflow: three digits, read as a string.
    let (_dir, text, suite) = generate("parse_byte", &["--k", "3"]);
    assert!(tests(&suite).iter().any(|t| t["expected"]["return"] == -2));
    assert!(text.contains("static int pathwise_test_parse_byte_returns_minus_2(void)"), "{text}");
    // The same suite again: the same names and values.
    let (_dir2, again, _) = generate("parse_byte", &["--k", "3"]);
    assert_eq!(declarations(&text, "static int pathwise_test_"), declarations(&again, "static int pathwise_test_"));
    assert_eq!(declarations(&text, "char s["), declarations(&again, "char s["));
}

/// Integers are small where the path allows; an error test is named for
/// its kind and line.
#[test]
fn integers_are_small_and_errors_named() {
    let (_dir, text, suite) = generate("per_tick", &["--k", "2"]);
    for t in tests(&suite) {
        for p in ["total", "ticks"] {
            let v = t["inputs"][p].as_i64().unwrap();
            assert!((-128..=255).contains(&v), "{p} = {v}");
        }
    }
    assert_eq!(common::errors(&suite), [("division-by-zero".to_string(), 53)]);
    assert!(text.contains("static int pathwise_test_per_tick_division_by_zero_line_53(void)"), "{text}");
    // `--raw-values` keeps the solver's first values (and asks nothing more).
    let out = tempfile::tempdir().unwrap();
    let (_, raw) = common::gen(FILE, "per_tick", &["--k", "2", "--raw-values"], out.path());
    assert_eq!(raw["stats"]["preference_queries"], 0);
    assert_eq!(tests(&raw).len(), tests(&suite).len());
}

/// An input structure's integer fields read as parameters do: its
/// `char` array printable or NUL, its numbers small where the path allows
/// (before: `name[1] = 2`, `balance = -9223372036854775808`).
#[test]
fn fields_of_input_objects_are_readable_too() {
    let (_dir, _text, suite) = generate("classify_record", &["--k", "2"]);
    assert_eq!(tests(&suite).len(), 11);
    for t in tests(&suite) {
        for f in t["heap_in"][0]["fields"].as_array().unwrap() {
            let (path, v) = (f["path"].as_str().unwrap(), f["value"].as_i64().unwrap());
            if path.starts_with(".name") {
                assert!(v == 0 || (0x20..=0x7e).contains(&v), "{path} = {v}: {t:#}");
            } else if path == ".id" && t["expected"]["return"] == 2 {
                // The path needs id > 1000: the preference cannot hold.
                assert!(v > 1000, "{t:#}");
            } else {
                assert!((-128..=255).contains(&v), "{path} = {v}: {t:#}");
            }
        }
    }
}

/// Enumeration inputs and results by their constants' names; a value no
/// constant has is a cast.
#[test]
fn enumerations_by_name() {
    let (_dir, text, suite) = generate("next", &["--k", "2"]);
    assert_eq!(suite["params"][0]["c_type"], "enum light");
    for decl in
        ["enum light l = RED;", "enum light l = RED_AMBER;", "enum light l = GREEN;", "enum event e = EMERGENCY;"]
    {
        assert!(text.contains(decl), "{decl}\n{text}");
    }
    assert!(text.contains("enum light l = (enum light)"), "{text}");
    assert!(text.contains("\"return\", AMBER, pathwise_ret)"), "{text}");
    for name in
        ["pathwise_test_next_returns_RED_AMBER", "pathwise_test_next_returns_GREEN", "pathwise_test_next_returns_RED"]
    {
        assert!(text.contains(&format!("static int {name}(void)")), "{name}");
    }
    // Coverage compared too: a `case GREEN:` that the switch only compared
    // against (the loop never calls `next` with GREEN) is not executed, as
    // gcov says (its comparison is the switch's, at the switch's line).
    let (_dir, text, suite) = generate("ticks_to_green", &["--k", "2"]);
    assert!(text.contains("enum light l = RED;"), "{text}");
    let next = &suite["coverage"]["functions"].as_array().unwrap().iter().find(|f| f["name"] == "next").unwrap();
    let covered: Vec<u64> = next["lines_covered"].as_array().unwrap().iter().map(|l| l.as_u64().unwrap()).collect();
    assert!(!covered.contains(&68) && !covered.contains(&69), "{covered:?}");
}

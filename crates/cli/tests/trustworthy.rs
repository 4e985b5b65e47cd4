//! Suites a user can trust on real C (issue "Trustworthy on real C
//! libraries"): every emitted test compiles, passes natively and replays
//! exactly.
//!
//! - Returned pointers are checked as what they point to
//!   (`tests/c/pointer_returns.c`): NULL, an offset into an input array or a
//!   global, or an object compared by its contents (and freed when the call
//!   allocated it), never as an integer.
//! - Enumerations have gcc's types (`tests/c/enums.c`).
//! - Suites of error tests replay exactly (`tests/c/error_only.c`): tests
//!   whose traps end a basic block record coverage, the others are left out
//!   of both sides and listed; an error that does not manifest natively is
//!   reported and counted apart; a suite without tests is "nothing to
//!   replay" (exit status 4).
//! - The test file is readable and portable: text arrays as string
//!   literals, objects freed, the source included by name.

mod common;

use std::path::Path;
use std::process::Command;

use common::{build_and_run, root};

/// Generate for `function` of `tests/c/FILE` (`--k 2` and `extra`): the
/// output directory and the JSON suite.
fn generate(file: &str, function: &str, extra: &[&str]) -> (tempfile::TempDir, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let args = [&["--k", "2"][..], extra].concat();
    let (_, suite) = common::gen(&format!("tests/c/{file}"), function, &args, out.path());
    (out, suite)
}

fn tests(suite: &serde_json::Value) -> &Vec<serde_json::Value> {
    suite["tests"].as_array().unwrap()
}

/// The test file as generated.
fn test_file(dir: &Path, function: &str) -> String {
    std::fs::read_to_string(dir.join(format!("{function}_tests.c"))).unwrap()
}

/// `pathwise replay DIR` through the binary: (exit code, stdout).
fn replay_command(dir: &Path) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise")).arg("replay").arg(dir).output().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Every test of the suite passes natively (no warning with -Werror) and
/// replays with gcov agreeing.
fn passes_and_replays(dir: &Path, function: &str, suite: &serde_json::Value) {
    let n = tests(suite).len();
    assert!(n > 0, "{function}: {suite:#}");
    let (code, stdout) = build_and_run(dir, function, &[]);
    assert_eq!((code, stdout.as_str()), (0, format!("{n} passed, 0 failed\n").as_str()), "{function}");
    common::replay_passes(dir, n, vec![], true);
}

/// The returned pointers of one suite, as JSON.
fn returned(suite: &serde_json::Value) -> Vec<serde_json::Value> {
    tests(suite).iter().map(|t| t["expected"]["return_pointer"].clone()).collect()
}

/// `char *` and `int *` results: NULL, or an offset into the argument
/// (`s + 2`), checked by address. Before, the tests declared `char
/// pathwise_ret = f(...)` and compared the offset with the pointer.
#[test]
fn pointers_into_arguments_are_checked_by_address() {
    let (out, suite) = generate("pointer_returns.c", "skip_spaces", &[]);
    let offsets: Vec<u64> = returned(&suite)
        .iter()
        .map(|r| {
            assert_eq!(r["param"], "s", "{r}");
            r["offset"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(offsets, [0, 1, 2]);
    let text = test_file(out.path(), "skip_spaces");
    assert!(text.contains("    __typeof__(skip_spaces(s)) pathwise_ret = skip_spaces(s);\n"), "{text}");
    assert!(
        text.contains("pathwise_check_pointer(3, \"return\", (void *)(s + 2), \"s + 2\", (void *)(pathwise_ret));"),
        "{text}"
    );
    // The input of test 3 is text: a string literal (its terminator is the
    // array's last byte).
    assert!(text.contains("    char s[3] = \"  \";\n") && text.contains(" * inputs: s = \"  \"\n"), "{text}");
    passes_and_replays(out.path(), "skip_spaces", &suite);
    let (out, suite) = generate("pointer_returns.c", "find_char", &[]);
    let kinds: Vec<&str> = returned(&suite).iter().map(|r| if r.is_null() { "NULL" } else { "param" }).collect();
    assert!(kinds.contains(&"NULL") && kinds.contains(&"param"), "{kinds:?}");
    passes_and_replays(out.path(), "find_char", &suite);
    let (out, suite) = generate("pointer_returns.c", "largest", &[]);
    // An `int *` into the array: offsets are bytes, checked as `a + i`.
    assert!(returned(&suite).iter().all(|r| r["param"] == "a" && r["offset"].as_u64().unwrap() % 4 == 0));
    passes_and_replays(out.path(), "largest", &suite);
}

/// A returned `malloc`'d string is compared by its bytes, then freed; a
/// string literal is compared by its bytes, never freed; a static buffer
/// is the global's address.
#[test]
fn new_objects_are_compared_by_contents_and_freed() {
    let (out, suite) = generate("pointer_returns.c", "duplicate", &[]);
    let mut out_of_memory = 0;
    for t in tests(&suite) {
        let r = &t["expected"]["return_pointer"];
        if t["failed_allocations"].is_array() {
            // `malloc` returns NULL (`--alloc-fail`), and so does the code.
            assert!(r.is_null() && t["expected"]["heap_out"].as_array().unwrap().is_empty(), "{t:#}");
            out_of_memory += 1;
            continue;
        }
        assert_eq!(r["ref"], t["expected"]["heap_out"][0]["id"], "{t:#}");
        assert_eq!(t["expected"]["heap_out"][0]["allocated"], true, "{t:#}");
    }
    assert!(out_of_memory > 0, "{suite:#}");
    let text = test_file(out.path(), "duplicate");
    assert!(text.contains("    __builtin_free(pathwise_n1);\n    return pathwise_failed;\n"), "{text}");
    assert!(text.contains("pathwise_check_bytes(1, \"return\", \"\", 1, (const void *)(pathwise_n1));"), "{text}");
    passes_and_replays(out.path(), "duplicate", &suite);

    let (out, suite) = generate("pointer_returns.c", "sign_name", &[]);
    let text = test_file(out.path(), "sign_name");
    for word in ["negative", "zero", "positive"] {
        let check = format!("\"return\", \"{word}\", {}, (const void *)(pathwise_n1));", word.len() + 1);
        assert!(text.contains(&check), "{word}: {text}");
    }
    // Constant storage: the test must not free it. Its type is `const char
    // *`, which the declaration keeps.
    assert!(!text.contains("__builtin_free"), "{text}");
    assert!(tests(&suite).iter().all(|t| t["expected"]["heap_out"][0]["allocated"] == false));
    passes_and_replays(out.path(), "sign_name", &suite);

    let (out, suite) = generate("pointer_returns.c", "digit_text", &[]);
    let globals: Vec<&serde_json::Value> =
        tests(&suite).iter().map(|t| &t["expected"]["return_pointer"]).filter(|r| !r.is_null()).collect();
    assert!(!globals.is_empty() && globals.iter().all(|r| r["global"] == "digit_buf" && r["offset"] == 0));
    passes_and_replays(out.path(), "digit_text", &suite);
}

/// `enum flags` has no negative constant: gcc makes it `unsigned int`, so
/// `F_HIGH` and larger values are above `F_WRITE`. The tests spell and
/// compare values as unsigned and pass natively.
#[test]
fn enumerations_have_gccs_types() {
    let (out, suite) = generate("enums.c", "flag_class", &[]);
    // Spelled by its name (issue 28: values by their constants' names),
    // with gcc's type's width and signedness.
    assert_eq!(suite["params"][0]["c_type"], "enum flags");
    assert_eq!((&suite["params"][0]["bits"], &suite["params"][0]["signed"]), (&32.into(), &false.into()));
    let mut seen: Vec<(u64, i64)> = tests(&suite)
        .iter()
        .map(|t| (t["inputs"]["f"].as_u64().unwrap(), t["expected"]["return"].as_i64().unwrap()))
        .collect();
    seen.sort();
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert!(
        seen.iter().all(|&(f, r)| r
            == if f == 0 {
                0
            } else if f > 2 {
                2
            } else {
                1
            }),
        "{seen:?}"
    );
    passes_and_replays(out.path(), "flag_class", &suite);
    let (out, suite) = generate("enums.c", "step", &[]);
    assert_eq!(
        (suite["params"][1]["c_type"].as_str(), suite["params"][1]["signed"].as_bool()),
        (Some("enum delta"), Some(true))
    );
    passes_and_replays(out.path(), "step", &suite);
}

/// Only error tests, each stopped by a sanitizer check that ends a basic
/// block: their coverage is recorded and agrees (before, no test wrote
/// counters and replay reported every line as a disagreement).
#[test]
fn error_only_suites_record_coverage() {
    let (out, suite) = generate("error_only.c", "always_div", &[]);
    assert!(tests(&suite).iter().all(|t| t["error"]["kind"] == "division-by-zero"), "{suite:#}");
    let outcome = common::replay_passes(out.path(), 2, vec![], true);
    assert!(outcome.unrecorded.is_empty(), "{:?}", outcome.unrecorded);
    let row = outcome.rows.iter().find(|r| r.function == "always_div").unwrap();
    // Both error paths' lines ran, as predicted (before: none measured).
    assert_eq!(row.measured_lines, Some((5, 5)), "{row:?}");
    assert_eq!(row.predicted_lines, (5, 5), "{row:?}");
    let (code, stdout) = replay_command(out.path());
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("2 passed, 0 failed\n") && stdout.contains("coverage agrees"), "{stdout}");
}

/// A signed overflow traps inside a basic block, where gcov's counters would
/// be wrong: such tests record none, replay lists them and compares the
/// others' predicted coverage (here the overflowing test alone takes a
/// branch side); with no other test, it says coverage was not compared.
#[test]
fn tests_stopped_inside_a_block_are_left_out() {
    let (out, suite) = generate("error_only.c", "sometimes_overflow", &[]);
    assert_eq!(common::errors(&suite), [("signed-overflow".to_string(), 30)]);
    let outcome = common::replay_passes(out.path(), 2, vec![], true);
    let overflow = tests(&suite).iter().find(|t| t["outcome"] == "error").unwrap()["id"].as_u64().unwrap();
    assert_eq!(outcome.unrecorded, [format!("test {overflow}: stopped by signal 4 inside a basic block")]);
    let row = outcome.rows.iter().find(|r| r.function == "sometimes_overflow").unwrap();
    assert_eq!(row.measured_branches, Some((1, 2)), "{row:?}");
    let (out, suite) = generate("error_only.c", "always_overflow", &[]);
    let n = tests(&suite).len();
    let outcome = common::replay_passes(out.path(), n, vec![], true);
    assert_eq!(outcome.unrecorded.len(), n);
    let (code, stdout) = replay_command(out.path());
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("coverage not compared: no test's native run recorded coverage"), "{stdout}");
    assert!(!stdout.contains("coverage agrees"), "{stdout}");
}

/// Undefined behaviour a build does not trap (a plain `cc` build: signed
/// overflow wraps; replay too for an overrun of an input array): the test
/// says the error was not observed and is counted apart, neither passed
/// nor failed.
#[test]
fn errors_not_observed_natively_are_reported() {
    let (out, suite) = generate("error_only.c", "sometimes_overflow", &[]);
    let id = tests(&suite).iter().find(|t| t["outcome"] == "error").unwrap()["id"].as_u64().unwrap();
    let (code, stdout) = build_and_run(out.path(), "sometimes_overflow", &[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains(&format!("test {id}: error not observed natively: expected signed-overflow at ")),
        "{stdout}"
    );
    assert!(stdout.ends_with("1 passed, 0 failed, 1 error(s) not observed natively\n"), "{stdout}");
    // With the sanitizer the same file traps it.
    let (code, stdout) = build_and_run(
        out.path(),
        "sometimes_overflow",
        &["-fsanitize=undefined", "-fsanitize-undefined-trap-on-error"],
    );
    assert_eq!((code, stdout.as_str()), (0, "2 passed, 0 failed\n"));
    // An overrun of an input array traps natively: the error test's array
    // ends where an inaccessible page starts (its run records no coverage).
    let (out, suite) = generate("errors.c", "oob_input", &["-I", "crates/cfront/include"]);
    let n = tests(&suite).len();
    let outcome = common::replay_passes(out.path(), n, vec![root().join("crates/cfront/include")], true);
    assert_eq!(outcome.not_observed, 0, "{:?}", outcome.not_observed_lines);
    let (code, stdout) = replay_command(out.path());
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains(&format!("{n} passed, 0 failed")), "{stdout}");
    assert!(stdout.contains("stopped by signal 11 inside a basic block"), "{stdout}");
}

/// A suite without tests: nothing was checked, which `replay` says, with
/// its own exit status (4).
#[test]
fn empty_suites_have_nothing_to_replay() {
    let (out, suite) = generate("error_only.c", "always_div", &["--precondition", "never"]);
    assert!(tests(&suite).is_empty());
    let (code, stdout) = replay_command(out.path());
    assert_eq!(code, 4, "{stdout}");
    assert!(stdout.contains("nothing to replay") && !stdout.contains("coverage agrees"), "{stdout}");
}

/// A field the precondition read first stays symbolic in the replay, so
/// `strlen`'s decisions on it replay: at k = 2 the name has 1 or 2
/// characters (no test was kept before: both runs "diverged").
#[test]
fn fields_the_precondition_read_replay_library_decisions() {
    let (out, suite) = generate("pre_fields.c", "name_len", &["--precondition", "name_len_pre"]);
    assert_eq!(tests(&suite).len(), 2, "{suite:#}");
    assert_eq!(suite["stop"], "complete");
    passes_and_replays(out.path(), "name_len", &suite);
}

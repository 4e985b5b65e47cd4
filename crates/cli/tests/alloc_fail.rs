//! Allocations that fail (`tests/c/trust3/alloc_fail.c`): where the code
//! tests what `malloc`, `calloc`, `realloc` or `strdup` returned, the null
//! side of the test gets a test whose C file makes exactly that call
//! return NULL (`gen --alloc-fail checked`, the default). Before, every
//! allocation succeeded and gcov showed each such test's true side
//! uncovered. `--alloc-fail all` also makes an unchecked result's use a
//! null-dereference error test; `never` is the old model.

mod common;

use std::path::Path;

fn generate(function: &str, args: &[&str], out: &Path) -> serde_json::Value {
    common::gen("tests/c/trust3/alloc_fail.c", function, args, out).1
}

/// Per test, the allocations that fail: (ordinal, function, line).
fn failures(suite: &serde_json::Value) -> Vec<Vec<(u64, String, u64)>> {
    suite["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let Some(fails) = t["failed_allocations"].as_array() else { return Vec::new() };
            fails
                .iter()
                .map(|f| {
                    let loc = f["location"].as_str().unwrap();
                    let line = loc.rsplit(':').nth(1).unwrap().parse().unwrap();
                    (f["allocation"].as_u64().unwrap(), f["function"].as_str().unwrap().to_string(), line)
                })
                .collect()
        })
        .collect()
}

fn test_count(suite: &serde_json::Value) -> usize {
    suite["tests"].as_array().unwrap().len()
}

/// Every branch side the code has is covered natively, as gcov measures
/// it, and gcov agrees with the prediction.
fn replay_covers_every_branch(out: &Path, function: &str, n: usize) {
    let outcome = common::replay_passes(out, n, vec![], true);
    let row = outcome.rows.iter().find(|r| r.function == function).unwrap();
    let (covered, total) = row.measured_branches.unwrap();
    assert_eq!(covered, total, "{function}: {:?}", outcome.rows);
}

#[test]
fn a_tested_allocation_fails_in_a_test_of_its_own() {
    for (function, never, checked, failing) in [
        // realloc: the failing test returns -1 and keeps the old block.
        ("vec_push", 6, 8, vec![(1, "realloc", 16); 2]),
        // calloc's result stored in the structure, tested there.
        ("vec_init", 2, 4, vec![(1, "calloc", 33); 2]),
        // The first malloc fails once; strdup after each string length.
        ("pair_new", 3, 7, vec![(2, "strdup", 51), (2, "strdup", 51), (2, "strdup", 51), (1, "malloc", 48)]),
    ] {
        let out = tempfile::tempdir().unwrap();
        let old = generate(function, &["--alloc-fail", "never"], out.path());
        assert_eq!(test_count(&old), never, "{function}");
        assert!(failures(&old).iter().all(Vec::is_empty), "{function}");
        let out = tempfile::tempdir().unwrap();
        let suite = generate(function, &[], out.path());
        assert_eq!(test_count(&suite), checked, "{function}: {suite:#}");
        let mut found: Vec<(u64, String, u64)> = failures(&suite).into_iter().flatten().collect();
        let mut want: Vec<(u64, String, u64)> = failing.iter().map(|&(n, f, l)| (n, f.to_string(), l)).collect();
        found.sort();
        want.sort();
        assert_eq!(found, want, "{function}");
        // One failure per test: a test makes one call fail.
        assert!(failures(&suite).iter().all(|f| f.len() <= 1), "{function}");
        replay_covers_every_branch(out.path(), function, checked);
    }
}

#[test]
fn the_test_of_a_failing_realloc_checks_the_old_block_kept() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("vec_push", &[], out.path());
    let fails = failures(&suite);
    let tests = suite["tests"].as_array().unwrap();
    for (t, f) in tests.iter().zip(&fails) {
        if f.is_empty() {
            continue;
        }
        assert_eq!(t["expected"]["return"], -1, "{t:#}");
    }
    let (stdout, _) = common::gen("tests/c/trust3/alloc_fail.c", "vec_push", &[], out.path());
    assert!(
        stdout.contains(
            "out of memory:       2 test(s) where an allocation returns NULL: realloc at tests/c/trust3/alloc_fail.c:16:18\n"
        ),
        "{stdout}"
    );
    let c = std::fs::read_to_string(out.path().join("vec_push_tests.c")).unwrap();
    assert!(
        c.contains("pathwise_fail_allocation(1); /* realloc at tests/c/trust3/alloc_fail.c:16:18 returns NULL */"),
        "{c}"
    );
    assert!(c.contains(" * out of memory: the realloc at alloc_fail.c:16 (allocation 1) returns NULL"), "{c}");
    // Built as a user would, warnings as errors, with both compilers.
    for cc in ["gcc", "clang-16"] {
        let (code, stdout) =
            common::build_and_run_with(cc, out.path(), "vec_push", &common::root().join("tests/c/trust3"), &[]);
        assert_eq!(code, 0, "{cc}: {stdout}");
        assert!(stdout.contains("8 passed, 0 failed"), "{cc}: {stdout}");
    }
}

#[test]
fn an_error_path_that_leaks_is_a_leak_test() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("pair_new_leaky", &["--check-leaks"], out.path());
    assert_eq!(test_count(&suite), 3, "{suite:#}");
    // The second malloc fails and `p` is lost: the leak is the first's.
    let leaks: Vec<usize> = suite["tests"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, t)| t["error"]["kind"] == "memory-leak")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(leaks.len(), 1, "{suite:#}");
    assert_eq!(common::errors(&suite), vec![("memory-leak".to_string(), 63)]);
    assert_eq!(failures(&suite)[leaks[0]], vec![(2, "malloc".to_string(), 66)]);
    // Natively the second call fails and the first block is still live.
    replay_covers_every_branch(out.path(), "pair_new_leaky", 3);
    // The SARIF result of the leak says which call returned NULL.
    let sarif = out.path().join("leaks.sarif");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .arg("report")
        .arg(out.path())
        .arg("--sarif")
        .arg(&sarif)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let log = std::fs::read_to_string(&sarif).unwrap();
    assert!(log.contains("malloc at tests/c/trust3/alloc_fail.c:66:15 returns NULL"), "{log}");
}

#[test]
fn an_unchecked_allocation_fails_only_under_all() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("scratch", &[], out.path());
    assert!(failures(&suite).iter().all(Vec::is_empty), "{suite:#}");
    assert_eq!(common::errors(&suite), vec![("signed-overflow".to_string(), 79)]);
    let out = tempfile::tempdir().unwrap();
    let suite = generate("scratch", &["--alloc-fail", "all"], out.path());
    let message = "null pointer dereference: the `malloc` of line 77 returned NULL (out of memory)";
    assert!(
        common::error_messages(&suite).contains(&("null-dereference".to_string(), 78, message.to_string())),
        "{suite:#}"
    );
    // The null store faults natively (SIGSEGV), as the test expects.
    common::replay_passes(out.path(), 3, vec![], true);
}

#[test]
fn a_use_before_the_test_keeps_the_call_succeeding_unless_all() {
    let out = tempfile::tempdir().unwrap();
    let suite = generate("late_check", &[], out.path());
    assert_eq!(test_count(&suite), 1, "{suite:#}");
    assert!(common::errors(&suite).is_empty());
    let out = tempfile::tempdir().unwrap();
    let suite = generate("late_check", &["--alloc-fail", "all"], out.path());
    assert_eq!(common::errors(&suite), vec![("null-dereference".to_string(), 89)]);
    common::replay_passes(out.path(), 2, vec![], true);
}

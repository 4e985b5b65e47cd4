//! `gen --criterion all-local-paths` (seed 003, ch. 5.3.1): one test per
//! path of the function under test's own CFG within k, callees' paths left
//! free. Counts on tests/bench/lcm.c (the thesis's Example 21) and the
//! units of tests/c/local_paths.c, derived by hand below; every suite is
//! built with gcc -Wall -Wextra -Werror and passes natively.

mod common;

use serde_json::Value;

/// `gen` with `args` (and the criterion); the suite is built and run
/// natively and replayed (all pass). Returns the summary and the JSON.
fn local(file: &str, function: &str, args: &[&str]) -> (String, Value) {
    let out = tempfile::tempdir().unwrap();
    let mut all = vec!["--criterion", "all-local-paths"];
    all.extend_from_slice(args);
    let (stdout, suite) = common::gen(file, function, &all, out.path());
    assert!(stdout.contains("(all-local-paths, k = 2)"), "{stdout}");
    assert_eq!(suite["criterion"], "all-local-paths");
    // The sources are in tests/c (on build_and_run's path) or tests/bench.
    let bench = common::root().join("tests/bench");
    let (code, run) = common::build_and_run(out.path(), function, &[&format!("-I{}", bench.display())]);
    assert_eq!(code, 0, "{function}: {run}");
    let n = suite["tests"].as_array().unwrap().len();
    common::replay_passes(out.path(), n, vec![bench], false);
    (stdout, suite)
}

/// The tests' inputs as (name, value) lists.
fn inputs(suite: &Value) -> Vec<Vec<(String, i64)>> {
    let tests = suite["tests"].as_array().unwrap();
    tests
        .iter()
        .map(|t| t["inputs"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.as_i64().unwrap())).collect())
        .collect()
}

fn k_path_tests(file: &str, function: &str, args: &[&str]) -> usize {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen(file, function, args, out.path());
    suite["tests"].as_array().unwrap().len()
}

/// lcm with Java's arithmetic (no overflow or error checks): the thesis's
/// 3 tests, A >= B, A = B = 0 (returns -1) and B > A. The fourth local
/// path, a < b with gcd = 0, is refuted along every path of gcd within
/// the bound, all of which the search tried: infeasible, and the search
/// is complete. With C's checks the suite also holds lcm's own `a * b`
/// overflow and gcd's errors (9 tests, slow: not run here).
#[test]
fn lcm_three_local_paths() {
    let java = ["--no-overflow-check", "--no-error-search"];
    let (stdout, suite) = local("tests/bench/lcm.c", "lcm", &java);
    let tests = inputs(&suite);
    assert_eq!(tests.len(), 3, "{suite:#}");
    let ab = |t: &Vec<(String, i64)>| (t[0].1, t[1].1);
    assert_eq!(tests.iter().filter(|t| ab(t) == (0, 0)).count(), 1, "{tests:?}");
    assert_eq!(tests.iter().filter(|t| ab(t).0 < ab(t).1).count(), 1, "{tests:?}");
    assert_eq!(tests.iter().filter(|t| ab(t).0 >= ab(t).1 && ab(t) != (0, 0)).count(), 1, "{tests:?}");
    assert_eq!(common::returns(&suite).first(), Some(&-1));
    assert_eq!(suite["stop"], "complete");
    assert!(stdout.contains("1 local prefix(es) infeasible along every callee path within the bound"), "{stdout}");
    // The same program under k-path: one test per combination with the
    // paths of gcd and abs_int.
    assert!(k_path_tests("tests/bench/lcm.c", "lcm", &java) > 3);
}

/// twice: sign3 has three paths, called twice (9 combinations); twice's
/// own paths are s == 0, then a > b or not: 3 tests. The first run
/// (a = b = 0) decides s == 0 concretely (sign3 returns constants): its
/// other side is reached through another path of sign3.
#[test]
fn twice_three_local_paths() {
    let (_, suite) = local("tests/c/local_paths.c", "twice", &[]);
    assert_eq!(inputs(&suite).len(), 3, "{suite:#}");
    assert_eq!(suite["stop"], "complete");
    assert_eq!(common::returns(&suite), vec![0, 1, 2]);
    assert_eq!(k_path_tests("tests/c/local_paths.c", "twice", &[]), 11);
}

/// count_pos at k = 2: the loop runs 0, 1 or 2 times; t > 1 only after 2
/// iterations: 4 local paths (0 F, 1 F, 2 F, 2 T). The concrete `i == 0`
/// of the second iteration cannot go the other way whatever sign3 did in
/// the first (after 1 or 2 iterations): 2 local prefixes proven
/// infeasible, and the search is complete.
#[test]
fn count_pos_four_local_paths() {
    let (stdout, suite) = local("tests/c/local_paths.c", "count_pos", &[]);
    assert_eq!(suite["stop"], "complete");
    assert!(stdout.contains("2 local prefix(es) infeasible along every callee path"), "{stdout}");
    let tests = suite["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 4, "{suite:#}");
    let mut by_n: Vec<(i64, i64)> =
        tests.iter().map(|t| (t["inputs"]["n"].as_i64().unwrap(), t["expected"]["return"].as_i64().unwrap())).collect();
    by_n.sort();
    assert_eq!(by_n, vec![(0, 0), (1, 0), (2, 0), (2, 1)]);
    assert_eq!(k_path_tests("tests/c/local_paths.c", "count_pos", &[]), 13);
}

/// `--method vc` has no all-local-paths.
#[test]
fn vc_method_refuses() {
    let out = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", "tests/c/local_paths.c", "-f", "twice", "--method", "vc", "--criterion", "all-local-paths"])
        .arg("--out")
        .arg(out.path())
        .current_dir(common::root())
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("all-local-paths"));
}

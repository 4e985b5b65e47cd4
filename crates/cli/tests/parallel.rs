//! Parallel exploration (issue 27, `gen --jobs N`): the same suite, byte
//! for byte, whatever the number of workers, and tests that pass natively.

mod common;

use std::path::Path;
use std::process::Command;

use common::{replay_passes, root};

/// `pathwise gen` with `--jobs jobs`: (stdout, the C file, the JSON file).
fn gen_jobs(file: &Path, function: &str, args: &[&str], jobs: u32, out: &Path) -> (String, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .arg("gen")
        .arg(file)
        .args(["--function", function, "--jobs", &jobs.to_string(), "--out"])
        .arg(out)
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{function} --jobs {jobs}: {stdout}{}", String::from_utf8_lossy(&o.stderr));
    let read = |ext: &str| std::fs::read_to_string(out.join(format!("{function}_tests.{ext}"))).unwrap();
    (stdout, read("c"), read("json"))
}

/// The suites of `--jobs 1..=4` are byte-identical (C file and JSON), and
/// when complete have the single search's paths (without `--jobs`),
/// errors apart (one test per site: another path may be the one kept);
/// returns the suite, and the stdout of `--jobs 2`.
fn same_for_every_n(file: &Path, function: &str, args: &[&str]) -> (serde_json::Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let (_, c1, json1) = gen_jobs(file, function, args, 1, &dir.path().join("1"));
    let mut shown = String::new();
    for jobs in 2..=4 {
        let (out, c, json) = gen_jobs(file, function, args, jobs, &dir.path().join(jobs.to_string()));
        assert!(c == c1, "{function} {args:?}: the C file differs between --jobs 1 and --jobs {jobs}");
        assert!(json == json1, "{function} {args:?}: the JSON differs between --jobs 1 and --jobs {jobs}");
        if jobs == 2 {
            shown = out;
        }
    }
    let suite: serde_json::Value = serde_json::from_str(&json1).unwrap();
    let one = dir.path().join("single");
    // The single search has no grain.
    let grain = args.iter().position(|a| *a == "--subtree-runs");
    let single_args: Vec<&str> = args
        .iter()
        .enumerate()
        .filter(|(i, _)| grain.is_none_or(|g| *i != g && *i != g + 1))
        .map(|(_, a)| *a)
        .collect();
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .arg("gen")
        .arg(file)
        .args(["--function", function, "--out"])
        .arg(&one)
        .args(&single_args)
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{function}: {}", String::from_utf8_lossy(&o.stderr));
    let single: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(one.join(format!("{function}_tests.json"))).unwrap()).unwrap();
    let returned = |s: &serde_json::Value| {
        let tests = s["tests"].as_array().unwrap().iter().filter(|t| t["outcome"]["kind"] == "returned");
        let mut paths: Vec<String> = tests.map(|t| t["path"].to_string()).collect();
        paths.sort();
        paths
    };
    // A search cut short (a budget) may find other paths.
    if suite["stop"] == "complete" {
        assert_eq!(single["stop"], "complete", "{function} {args:?}");
        assert_eq!(tests_of(&suite), tests_of(&single), "{function} {args:?}: as many tests as the single search");
        assert_eq!(returned(&suite), returned(&single), "{function} {args:?}: the single search's paths");
    }
    (suite, shown)
}

/// The subtrees a parallel search's summary reports.
fn subtrees(stdout: &str) -> u64 {
    let line = stdout.lines().find(|l| l.starts_with("jobs: ")).unwrap_or_else(|| panic!("{stdout}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "subtrees").unwrap_or_else(|| panic!("{line}"));
    words[at - 1].parse().unwrap()
}

fn tests_of(suite: &serde_json::Value) -> usize {
    suite["tests"].as_array().unwrap().len()
}

#[test]
fn merge_has_one_suite_for_every_number_of_workers() {
    let merge = root().join("tests/bench/merge.c");
    // 1 + k * 2^(k+1) feasible paths (seed 002; tests/bench/README.md).
    for (k, paths) in [(1, 5), (2, 17), (3, 49), (4, 129)] {
        let k = k.to_string();
        let (suite, stdout) = same_for_every_n(&merge, "Merge", &["--precondition", "merge_pre", "--k", &k]);
        assert_eq!(tests_of(&suite), paths, "k = {k}");
        assert_eq!(suite["stop"], "complete", "k = {k}");
        assert!(stdout.contains("jobs: 2 workers"), "{stdout}");
        if k == "4" {
            // The first run gives subtrees away after 32, 64, 128 runs.
            assert!(subtrees(&stdout) >= 3, "{stdout}");
        }
        // The tests are numbered in path order.
        let ids: Vec<u64> = suite["tests"].as_array().unwrap().iter().map(|t| t["id"].as_u64().unwrap()).collect();
        assert_eq!(ids, (1..=paths as u64).collect::<Vec<_>>());
    }
}

#[test]
fn the_parallel_suite_passes_natively_and_has_the_single_searchs_paths() {
    let dir = tempfile::tempdir().unwrap();
    let merge = Path::new("tests/bench/merge.c");
    let args = ["--precondition", "merge_pre", "--k", "3"];
    let (_, _, json) = gen_jobs(merge, "Merge", &args, 3, &dir.path().join("par"));
    let parallel: serde_json::Value = serde_json::from_str(&json).unwrap();
    replay_passes(&dir.path().join("par"), 49, vec![], true);
    // The single search (no --jobs) finds the same paths, in its own order.
    let (_, single) = common::gen("tests/bench/merge.c", "Merge", &args, &dir.path().join("one"));
    let paths = |s: &serde_json::Value| {
        let mut p: Vec<String> = s["tests"].as_array().unwrap().iter().map(|t| t["path"].to_string()).collect();
        p.sort();
        p
    };
    assert_eq!(paths(&parallel), paths(&single));
    assert_eq!(parallel["coverage"], single["coverage"]);
}

#[test]
fn heap_errors_and_block_k_have_one_suite_for_every_number_of_workers() {
    let c = |f: &str| root().join(f);
    // Input heaps: references are numbered in the slot table each subtree
    // takes from its giver.
    let (avl, stdout) =
        same_for_every_n(&c("tests/bench/avl.c"), "insertAVL", &["--precondition", "avl_ok", "--k", "1"]);
    assert!(tests_of(&avl) > 1);
    assert!(subtrees(&stdout) >= 2, "{stdout}");
    let (lists, _) = same_for_every_n(&c("tests/c/heap.c"), "length", &["--k", "3"]);
    assert_eq!(tests_of(&lists), 4, "null, and lists of 1..3 nodes");
    // Error tests are folded after sorting: one per site, the same one.
    let (errors, _) = same_for_every_n(&c("tests/c/errors.c"), "div_zero", &["--k", "2"]);
    assert_eq!(tests_of(&errors), 3, "returns, division by zero, INT_MIN / -1");
    let (tokens, stdout) = same_for_every_n(&c("tests/c/corpus/token.c"), "next_token", &["--k", "3"]);
    assert!(subtrees(&stdout) >= 2, "{stdout}");
    assert!(tokens["tests"].as_array().unwrap().iter().any(|t| t["outcome"]["kind"] != "returned"));
    let (blockk, _) = same_for_every_n(
        &c("tests/bench/merge.c"),
        "Merge",
        &["--precondition", "merge_pre", "--k", "2", "--criterion", "block-k"],
    );
    assert!(tests_of(&blockk) > 1);
    // Allocations that fail: per-call inputs, the same in every subtree.
    let (oom, _) = same_for_every_n(&c("tests/c/trust3/alloc_fail.c"), "pair_new", &["--k", "3"]);
    let failing = oom["tests"].as_array().unwrap().iter().filter(|t| t["failed_allocations"].is_array()).count();
    assert_eq!(failing, 5, "strdup after each of 4 string lengths, and the first malloc");
}

#[test]
fn a_finer_grain_shares_more_subtrees_and_keeps_one_suite_for_every_n() {
    let file = root().join("tests/c/corpus/netstr.c");
    let (coarse, coarse_out) = same_for_every_n(&file, "url_decode", &["--k", "2"]);
    let (fine, fine_out) = same_for_every_n(&file, "url_decode", &["--k", "2", "--subtree-runs", "16"]);
    assert!(subtrees(&fine_out) > subtrees(&coarse_out), "{coarse_out}{fine_out}");
    // Both are every path (same_for_every_n compared each with the
    // single search's paths).
    assert_eq!(tests_of(&fine), tests_of(&coarse));
}

#[test]
fn deepening_has_one_suite_for_every_number_of_workers() {
    // Without --k the bound deepens: each k is a parallel search.
    let (suite, stdout) = same_for_every_n(&root().join("tests/c/heap.c"), "length", &[]);
    assert_eq!(suite["k"], 20, "{stdout}");
    assert_eq!(suite["deepened"], true);
    // null, and lists of 1..=20 nodes (k = 20 iterations at most).
    assert_eq!(tests_of(&suite), 21);
    assert_eq!(suite["stop"], "complete");
    assert!(stdout.contains("complete for k <= 20"), "{stdout}");
}

#[test]
fn a_compositional_search_stays_sequential_and_says_so() {
    let (suite, stdout) =
        same_for_every_n(&root().join("tests/bench/locate.c"), "top", &["--compositional", "--k", "2"]);
    assert!(stdout.contains("jobs: 1 worker (--compositional"), "{stdout}");
    assert!(tests_of(&suite) > 1);
}

#[test]
fn random_diamonds_have_one_suite_for_every_number_of_workers() {
    let script = root().join("../shared/bench/diamonds/gen_diamonds.py");
    let dir = tempfile::tempdir().unwrap();
    let programs = if script.exists() {
        let st = Command::new("python3")
            .arg(&script)
            .arg(dir.path())
            .args(["--seed", "1", "--min", "3", "--max", "3"])
            .status()
            .unwrap();
        assert!(st.success());
        vec![dir.path().join("diamonds_3_0.c"), dir.path().join("diamonds_3_1.c")]
    } else {
        // A clone without the shared benchmarks: the same shape, written
        // here (three diamonds whose conditions share inputs).
        let f = dir.path().join("diamonds.c");
        std::fs::write(
            &f,
            "int diamonds_pre(int a, int b, int c) { return a >= -50 && a <= 50 && b >= -50 && b <= 50 && c >= 0; }\n\
             int diamonds(int a, int b, int c) {\n  int x = 0;\n  if (a + b > 10) x += 1; else x -= 1;\n  \
             if (b - c < 3) x += 2; else x -= a;\n  if (a - c > x) x *= 2; else x += c;\n  return x;\n}\n",
        )
        .unwrap();
        vec![f]
    };
    for p in programs {
        let (suite, _) =
            same_for_every_n(&p, "diamonds", &["--precondition", "diamonds_pre", "--k", "1", "--no-error-search"]);
        assert!(tests_of(&suite) >= 2, "{}", p.display());
    }
}

#[test]
fn a_time_limit_stops_every_worker_and_the_tests_found_are_written_once() {
    let dir = tempfile::tempdir().unwrap();
    let start = std::time::Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", "tests/c/corpus/token.c", "--function", "next_token", "--k", "5", "--jobs", "2"])
        .args(["--timeout", "1", "--out"])
        .arg(dir.path())
        .current_dir(root())
        .output()
        .unwrap();
    let took = start.elapsed();
    assert_eq!(o.status.code(), Some(5), "{}", String::from_utf8_lossy(&o.stderr));
    // The search alone takes minutes: the workers stopped within a second
    // of the limit (the rest is the front end and writing the files).
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    let suite: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("next_token_tests.json")).unwrap()).unwrap();
    assert_eq!(suite["stop"], "timeout");
    let n = tests_of(&suite);
    assert!(n > 10, "{n}");
    // Each path once, numbered in path order.
    let paths: std::collections::BTreeSet<String> =
        suite["tests"].as_array().unwrap().iter().map(|t| t["path"].to_string()).collect();
    assert_eq!(paths.len(), n);
    replay_passes(dir.path(), n, vec![], false);
}

#[test]
fn absurd_job_counts_are_refused() {
    let cases: &[&[&str]] = &[
        &["--jobs", "0"],
        &["--jobs", "-1"],
        &["--jobs", "100000"],
        &["--jobs", "many"],
        &["--jobs", "2", "--subtree-runs", "0"],
        // The grain of a parallel search, without one.
        &["--subtree-runs", "32"],
    ];
    for bad in cases {
        let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
            .args(["gen", "tests/bench/merge.c", "--function", "Merge", "--k", "1", "--out"])
            .arg(tempfile::tempdir().unwrap().path())
            .args(*bad)
            .current_dir(root())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        let named = if bad.len() == 4 { bad[2] } else { "--jobs" };
        assert!(stderr.contains(named), "{bad:?}: {stderr}");
    }
}

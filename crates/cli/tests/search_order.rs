//! New branches first (issue 28, "a time-bounded run that cannot finish
//! explores in an order that covers new branches first"): `gen --order`,
//! new branches first by default when a time limit can cut the search
//! short. A search that ends by itself finds the same paths in either
//! order; one cut short keeps more branches.

mod common;

use std::collections::BTreeSet;
use std::process::Command;

use common::{gen, replay_passes, root};

const ORDER: &str = "tests/c/search_order.c";

/// The suite's paths with their outcomes, as a set.
fn paths(suite: &serde_json::Value) -> BTreeSet<String> {
    let tests = suite["tests"].as_array().unwrap();
    tests.iter().map(|t| format!("{} {}", t["path"], t["outcome"])).collect()
}

/// The suite's paths in the order the tests were found.
fn sequence(suite: &serde_json::Value) -> Vec<String> {
    suite["tests"].as_array().unwrap().iter().map(|t| t["path"].to_string()).collect()
}

/// Branch sides covered and branch sides in all, over the functions.
fn branches(suite: &serde_json::Value) -> (u64, u64) {
    let fs = suite["coverage"]["functions"].as_array().unwrap();
    let covered = fs.iter().map(|f| f["branches_covered"].as_u64().unwrap()).sum();
    (covered, fs.iter().map(|f| f["branches"].as_u64().unwrap()).sum())
}

#[test]
fn both_orders_find_the_same_paths_when_the_search_ends_by_itself() {
    let cases: &[(&str, &str, &[&str])] = &[
        (ORDER, "weigh_record", &["--k", "3"]),
        ("examples/merge.c", "Merge", &["--k", "3", "--precondition", "merge_valid"]),
        ("tests/c/heap.c", "length", &["--k", "3"]),
        ("tests/c/heap.c", "alias_m", &["--precondition", "alias_pre"]),
        ("tests/c/errors.c", "oob_global", &[]),
        ("tests/bench/locate.c", "top", &[]),
        ("tests/c/corpus/path.c", "path_normalize", &[]),
        ("tests/c/corpus/intconv.c", "checked_atoi", &["--k", "3"]),
    ];
    for (file, function, args) in cases {
        let dir = tempfile::tempdir().unwrap();
        let mut suites = Vec::new();
        for order in ["depth-first", "new-branches-first"] {
            let out = dir.path().join(order);
            let mut args = args.to_vec();
            args.extend(["--order", order]);
            let (_, suite) = gen(file, function, &args, &out);
            assert_eq!(suite["stop"], "complete", "{function} {order}");
            suites.push(suite);
        }
        let (dfs, nbf) = (&suites[0], &suites[1]);
        assert!(!paths(dfs).is_empty(), "{function}");
        assert_eq!(paths(dfs), paths(nbf), "{function}: the same paths and outcomes");
        assert_eq!(dfs["stats"]["feasible_paths"], nbf["stats"]["feasible_paths"], "{function}");
        assert_eq!(branches(dfs), branches(nbf), "{function}");
    }
}

#[test]
fn a_search_cut_short_keeps_more_branches_new_branches_first() {
    let dir = tempfile::tempdir().unwrap();
    let args = |order: &'static str| vec!["--k", "3", "--max-tests", "25", "--order", order];
    let (_, dfs) = gen(ORDER, "weigh_record", &args("depth-first"), &dir.path().join("dfs"));
    let out = dir.path().join("nbf");
    let (_, nbf) = gen(ORDER, "weigh_record", &args("new-branches-first"), &out);
    for suite in [&dfs, &nbf] {
        assert_eq!(suite["tests"].as_array().unwrap().len(), 25);
    }
    // 14 branch sides: depth-first spends its 25 tests on the payload's
    // combinations under the first byte it tried (0: no kind), and never
    // takes the 'A', 'B' or 'C' side; new branches first takes all.
    assert_eq!(branches(&dfs), (11, 14));
    assert_eq!(branches(&nbf), (14, 14));
    // Its tests replay natively and gcov agrees with the prediction.
    replay_passes(&out, 25, Vec::new(), true);
}

#[test]
fn a_time_limit_takes_new_branches_first_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&'static str]| {
        let mut args = vec!["--k", "3"];
        args.extend_from_slice(extra);
        gen(ORDER, "weigh_record", &args, &dir.path().join(name)).1
    };
    let untimed = run("untimed", &[]);
    let timed = run("timed", &["--timeout", "600"]);
    assert_eq!(sequence(&untimed), sequence(&run("dfs", &["--order", "depth-first"])));
    assert_eq!(sequence(&timed), sequence(&run("nbf", &["--order", "new-branches-first"])));
    assert_ne!(sequence(&untimed), sequence(&timed), "the order differs");
    assert_eq!(paths(&untimed), paths(&timed), "the paths do not");
    // Deterministic: the same order again.
    assert_eq!(sequence(&timed), sequence(&run("timed-again", &["--timeout", "600"])));
}

#[test]
fn new_branches_first_is_refused_where_the_order_is_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", "tests/bench/locate.c", "--function", "top", "--k", "2", "--compositional"])
        .args(["--order", "new-branches-first", "--out"])
        .arg(dir.path())
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "bad options are bad input");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--order new-branches-first works with the plain search only"), "{err}");
}

//! `gen --criterion statements|branches` with the default concolic method:
//! exact test counts on tests/c/covers.c (derived by hand below), dead and
//! bound-infeasible code reported at its line:col (the same goals and the
//! same infeasible code as `--method vc`), the same coverage as the k-path
//! suite on merge.c and the units, and every test built with gcc -Wall
//! -Wextra -Werror, passing natively, and replayed with gcov agreeing
//! (infeasible code listed by `replay`, not as a disagreement).

mod common;

use std::path::Path;

use serde_json::Value;

const UNIT: &str = "tests/c/covers.c";

/// An infeasible goal of the JSON: (kind, location, side).
type Infeasible = (String, String, Option<bool>);

/// `gen` with `args`; the suite's tests are built and run natively (all
/// pass) and replayed (gcov agrees). Returns the JSON.
fn gen_checked(file: &str, function: &str, args: &[&str], include: &[&str]) -> Value {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen(file, function, args, out.path());
    let n = suite["tests"].as_array().unwrap().len();
    let flags: Vec<String> = include.iter().map(|d| format!("-I{d}")).collect();
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let (code, stdout) = common::build_and_run(out.path(), function, &flags);
    assert_eq!(code, 0, "{function} {args:?}: {stdout}");
    let outcome = common::replay_passes(out.path(), n, vec![], true);
    // The infeasible code of the JSON is what replay lists apart.
    let is_cover = suite["cover"].is_object() || suite["vc"].is_object();
    let listed: Vec<String> =
        if is_cover { infeasible(&suite).into_iter().map(|(_, at, _)| at).collect() } else { Vec::new() };
    assert_eq!(outcome.infeasible.len(), listed.len(), "{:?}", outcome.infeasible);
    for (line, at) in outcome.infeasible.iter().zip(&listed) {
        assert!(line.contains(at.as_str()), "{line}");
    }
    suite
}

/// The infeasible entries of the `cover` (concolic) or `vc` object:
/// (kind, location, side).
fn infeasible(suite: &Value) -> Vec<Infeasible> {
    let obj = if suite["cover"].is_object() { &suite["cover"] } else { &suite["vc"] };
    assert_eq!(obj["complete"], true, "{obj}");
    obj["infeasible"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["kind"].as_str().unwrap().into(), e["location"].as_str().unwrap().into(), e["side"].as_bool()))
        .collect()
}

fn tests(suite: &Value) -> usize {
    suite["tests"].as_array().unwrap().len()
}

/// Per function: lines covered and branch sides covered.
fn coverage(suite: &Value) -> Vec<(String, Value, Value)> {
    suite["coverage"]["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["name"].as_str().unwrap().into(), f["lines_covered"].clone(), f["branches_covered"].clone()))
        .collect()
}

/// One unit at one bound: the concolic statement and branch covers'
/// counts, goals and infeasible code, the VC method's counts on the same
/// goals (same infeasible code), and the covers' coverage against the
/// k-path suite's (statements: the same lines; branches: also the same
/// branch sides).
struct Case {
    function: &'static str,
    k: &'static str,
    /// (tests, goals, infeasible locations) of the statement cover.
    statements: (usize, u64, &'static [&'static str]),
    /// (tests, goals, infeasible true/false sides as (location, side)).
    branches: (usize, u64, &'static [(&'static str, bool)]),
    /// Tests of `--method vc` for statements and branches.
    vc: (usize, usize),
}

fn check(case: &Case) {
    let Case { function, k, .. } = *case;
    let kpath = gen_checked(UNIT, function, &["--k", k], &[]);
    for crit in ["statements", "branches"] {
        let args = ["--k", k, "--criterion", crit];
        let got = gen_checked(UNIT, function, &args, &[]);
        assert_eq!(got["criterion"], crit);
        let (want_tests, want_goals, want_infeasible): (usize, u64, Vec<Infeasible>) = match crit {
            "statements" => {
                let (t, g, inf) = case.statements;
                (t, g, inf.iter().map(|at| ("statement".into(), format!("{UNIT}:{at}"), None)).collect())
            }
            _ => {
                let (t, g, inf) = case.branches;
                (t, g, inf.iter().map(|(at, s)| ("branch".into(), format!("{UNIT}:{at}"), Some(*s))).collect())
            }
        };
        assert_eq!(
            (tests(&got), got["cover"]["goals"].as_u64().unwrap()),
            (want_tests, want_goals),
            "{function} {crit}"
        );
        assert_eq!(infeasible(&got), want_infeasible, "{function} {crit}");
        let (cl, kl) = (coverage(&got), coverage(&kpath));
        if crit == "branches" {
            assert_eq!(cl, kl, "{function}: branch cover vs k-path coverage");
        } else {
            let lines = |c: &[(String, Value, Value)]| c.iter().map(|f| (f.0.clone(), f.1.clone())).collect::<Vec<_>>();
            assert_eq!(lines(&cl), lines(&kl), "{function}: statement cover vs k-path lines");
        }
        // The VC method: the same goals left infeasible, its own count.
        let vc = gen_checked(UNIT, function, &["--k", k, "--criterion", crit, "--method", "vc"], &[]);
        let want_vc = if crit == "statements" { case.vc.0 } else { case.vc.1 };
        assert_eq!(tests(&vc), want_vc, "{function} {crit} vc");
        assert_eq!(infeasible(&vc), want_infeasible, "{function} {crit} vc");
        assert_eq!(vc["vc"]["goals"], got["cover"]["goals"], "{function} {crit} vc goals");
    }
}

/// sign: statements are the entry (`r = 0`, `x > 0`), `r = 1`, the
/// `x < 0` test, `r = -1` and `return r`: x > 0 and x < 0 reach all five
/// (x == 0 adds nothing), so 2 tests. Branches: 2 sides of each test;
/// x > 0 takes (T), x < 0 takes (F, T), only x == 0 takes (F, F): 3 tests.
/// The VC method keeps every valuation its enabling clauses find (no pass
/// drops redundant ones), and its solver picks diverse models (random
/// phases with a fixed seed, see `pathwise_solver_z3::Models`): here the
/// three paths for both covers.
#[test]
fn sign_counts() {
    check(&Case { function: "sign", k: "2", statements: (2, 5, &[]), branches: (3, 4, &[]), vc: (3, 3) });
}

/// dead: x > 10 and x <= 10 reach every statement but `return -1`
/// (line 19, col 13), which needs x > 10 and x < 5: 2 tests and that
/// statement infeasible; branches: the true side of `x < 5` (18:13) is
/// infeasible, the 3 others need the same 2 tests.
#[test]
fn dead_code_is_reported() {
    check(&Case {
        function: "dead",
        k: "2",
        statements: (2, 5, &["19:13"]),
        branches: (2, 4, &[("18:13", true)]),
        vc: (2, 2),
    });
}

/// clamp2 calls clamp twice per test, and clamp has three returns (goals:
/// clamp2's body, clamp's entry, `return lo`, the `v > hi` test, `return
/// hi`, `return v`: 6): one test reaches at most two returns, so 2 tests.
/// Branches (4 sides of clamp): a < 0 with b > 100 takes (T) and (F, T),
/// then one in-range call takes (F, F): 2 tests. The VC, without the
/// concolic method's last pass dropping redundant tests, keeps 3 for each.
#[test]
fn callee_goals_count() {
    check(&Case { function: "clamp2", k: "2", statements: (2, 6, &[]), branches: (2, 4, &[]), vc: (3, 3) });
}

/// third: `hit = 1` (45:13) needs a third iteration. At k = 2 it is
/// infeasible within the bound (as is the true side of `i == 3`, 44:13),
/// and n = 2 reaches every other statement and branch side: 1 test. At
/// k = 3, n = 3 reaches everything: 1 test, nothing infeasible. The VC
/// keeps the 1 (k = 2) and 2 (k = 3) valuations its enabling clauses find.
#[test]
fn bound_infeasible_code() {
    check(&Case {
        function: "third",
        k: "2",
        statements: (1, 5, &["45:13"]),
        branches: (1, 4, &[("44:13", true)]),
        vc: (1, 1),
    });
    check(&Case { function: "third", k: "3", statements: (1, 5, &[]), branches: (1, 4, &[]), vc: (2, 2) });
}

/// Merge (precondition merge_pre, k = 2): 17 k-paths; 2 tests reach all
/// 12 statements and all 10 branch sides (the k-path suite's lines and
/// branches), as do the VC's covers.
#[test]
fn merge_matches_kpath_coverage() {
    let bench = "/work/shared/bench";
    let file = format!("{bench}/merge.c");
    if !Path::new(&file).is_file() {
        eprintln!("skipped: no {file}");
        return;
    }
    let base = ["--k", "2", "--precondition", "merge_pre"];
    let kpath = gen_checked(&file, "Merge", &base, &[bench]);
    assert_eq!(tests(&kpath), 17);
    for (crit, n, goals, vc_n) in [("statements", 2, 12, 2), ("branches", 2, 10, 2)] {
        let args = [&base[..], &["--criterion", crit]].concat();
        let got = gen_checked(&file, "Merge", &args, &[bench]);
        assert_eq!((tests(&got), got["cover"]["goals"].as_u64().unwrap()), (n, goals), "{crit}");
        assert!(infeasible(&got).is_empty());
        assert_eq!(coverage(&got), coverage(&kpath), "{crit}");
        let vc = gen_checked(&file, "Merge", &[&args[..], &["--method", "vc"]].concat(), &[bench]);
        assert_eq!(tests(&vc), vc_n, "{crit} vc");
    }
}

//! A bound that deepens (issue 28): `gen` without `--k` runs the search at
//! k = 1, 2, ... within a time budget (30 s by default, or `--timeout`),
//! reports the largest k for which the suite is complete, stops as soon as
//! no loop or recursion reaches the bound, and names the loops that did.
//! An explicit `--k` keeps its meaning (and reports the loops too).

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

use common::root;

const READABLE: &str = "tests/c/readable.c";

/// A loop whose iterations the inputs decide, at most 3 of them: k = 3
/// still blocks a fourth iteration (unsolved), k = 4 finds it infeasible.
const COUNT3: &str = "int count3(int n)
{
    int c = 0;
    if (n > 3)
        n = 3;
    while (n > 0) {
        n--;
        c++;
    }
    return c;
}

int sign(int x)
{
    if (x > 0)
        return 1;
    return x < 0 ? -1 : 0;
}
";

/// `pathwise gen FILE --function FUNCTION --out OUT ARGS...` in `dir`:
/// the process's output and the suite's JSON.
fn gen_in(dir: &Path, file: &str, function: &str, args: &[&str], out: &Path) -> (Output, serde_json::Value) {
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args(["gen", file, "--function", function, "--out"])
        .arg(out)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(out.join(format!("{function}_tests.json")))
        .unwrap_or_else(|e| panic!("{function}: {e}: {}", String::from_utf8_lossy(&o.stderr)));
    (o, serde_json::from_str(&text).unwrap())
}

fn gen(function: &str, args: &[&str], out: &Path) -> (Output, serde_json::Value) {
    gen_in(&root(), READABLE, function, args, out)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn tests(suite: &serde_json::Value) -> &Vec<serde_json::Value> {
    suite["tests"].as_array().unwrap()
}

/// A test's path: its decisions' locations and sides.
fn path(test: &serde_json::Value) -> Vec<(String, bool)> {
    let steps = test["path"].as_array().unwrap();
    steps.iter().map(|s| (s["location"].as_str().unwrap().to_string(), s["taken"].as_bool().unwrap())).collect()
}

fn paths(tests: &[serde_json::Value]) -> BTreeSet<Vec<(String, bool)>> {
    tests.iter().map(path).collect()
}

fn project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("count.c"), COUNT3).unwrap();
    tmp
}

/// The acceptance of issue 28: `parse_int`'s overflow needs 10 digits
/// (k = 10), which the old default `--k 2` never reached while saying
/// "complete". Without `--k` and `--timeout`, deepening finds it within
/// its default budget, ends normally (exit 0), and the stop line gives
/// the largest complete k.
#[test]
fn the_checked_parser_overflow_is_found_within_the_default_budget() {
    let out = tempfile::tempdir().unwrap();
    let (o, suite) = gen("parse_int", &[], out.path());
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&o.stderr));
    let k = suite["k"].as_u64().unwrap();
    assert_eq!(suite["deepened"], true);
    assert_eq!(suite["k_partial"], k + 1, "the budget cut the next k");
    assert_eq!(suite["stop"], "complete", "complete for k = {k}");
    // k = 10 takes some 12 s alone on an idle machine; the budget may end
    // inside it on a loaded one, which still finds the overflow.
    assert!(k >= 9, "k = {k}");
    let line = format!("stop:                complete for k <= {k}; k = {} stopped at the time limit", k + 1);
    assert!(text.contains(&line), "{line}\n{text}");
    assert!(text.contains(&format!("(k-path, deepened to k = {k})")), "{text}");
    assert!(text.contains("loops at the bound:  readable.c:17 (a larger k may add paths there)"), "{text}");
    assert_eq!(suite["at_bound"][0]["kind"], "loop");
    assert_eq!(suite["at_bound"][0]["line"], 17);
    // The overflow: `return -2` (line 23) after ten digits.
    let overflow = tests(&suite).iter().find(|t| t["expected"]["return"] == -2).expect("an overflow test");
    let s: Vec<i64> = overflow["inputs"]["s"].as_array().unwrap().iter().map(|c| c.as_i64().unwrap()).collect();
    let digits = s.iter().take_while(|&&c| c != 0).filter(|&&c| (48..=57).contains(&c)).count();
    assert!(digits >= 10, "{s:?}");
    assert!(path(overflow).iter().any(|(at, taken)| at.ends_with("readable.c:22:13") && *taken), "{overflow}");
    let n = tests(&suite).len();
    common::replay_passes(out.path(), n, vec![], true);
}

/// An explicit `--timeout` that cuts the deepening is a limit (exit 5),
/// with the largest complete k all the same.
#[test]
fn a_timeout_given_that_cuts_the_deepening_is_a_limit() {
    let out = tempfile::tempdir().unwrap();
    let (o, suite) = gen("parse_byte", &["--timeout", "2"], out.path());
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(5), "{text}");
    assert_eq!(suite["stop"], "timeout");
    let k = suite["k"].as_u64().unwrap();
    assert_eq!(suite["k_partial"], k + 1);
    assert!(k >= 3, "parse_byte's k = 3 takes well under a second: k = {k}");
    let line = format!("timeout: complete for k <= {k}; k = {} stopped at --timeout", k + 1);
    assert!(text.contains(&line), "{line}\n{text}");
}

/// k-paths nest: the deepened suite cut inside k = K + 1 is the explicit
/// `--k K` suite (its first tests, as a set of paths), then tests of
/// `--k K + 1` only, each path once; an identical run gives the same
/// tests, in the same order, with the same names and inputs.
#[test]
fn deepened_suites_nest_and_are_deterministic() {
    let out = tempfile::tempdir().unwrap();
    // A test limit cuts the deepening at the same place every time.
    let (o, deep) = gen("parse_byte", &["--max-tests", "20"], out.path());
    assert_eq!(o.status.code(), Some(5), "{}", stdout(&o));
    let again = tempfile::tempdir().unwrap();
    let (_, deep2) = gen("parse_byte", &["--max-tests", "20"], again.path());
    assert_eq!(deep["tests"], deep2["tests"], "not deterministic");
    assert_eq!(deep["stop"], "limit");
    let k = deep["k"].as_u64().unwrap();
    assert_eq!(deep["k_partial"], k + 1);
    assert!(k >= 2, "k = {k}");
    let line = format!("limit reached: 20 tests (--max-tests); complete for k <= {k}; k = {} cut short", k + 1);
    assert!(stdout(&o).contains(&line), "{line}\n{}", stdout(&o));
    let deep = tests(&deep);
    assert_eq!(paths(deep).len(), deep.len(), "a path emitted twice");
    let explicit = |k: u64| {
        let out = tempfile::tempdir().unwrap();
        let (o, suite) = gen("parse_byte", &["--k", &k.to_string()], out.path());
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
        assert_eq!((suite["deepened"].clone(), suite["k"].as_u64()), (serde_json::json!(false), Some(k)));
        assert!(suite["k_partial"].is_null());
        tests(&suite).clone()
    };
    let (at_k, at_next) = (explicit(k), explicit(k + 1));
    let n = at_k.len();
    assert!(deep.len() > n, "the partial k found tests");
    assert_eq!(paths(&deep[..n]), paths(&at_k), "the first tests are the --k {k} suite");
    let next = paths(&at_next);
    assert!(paths(&deep[n..]).iter().all(|p| next.contains(p)), "the rest are --k {} paths", k + 1);
}

/// In the default order (new branches first, as deepening always has a
/// time budget) each k goes on from where the bound stopped the previous
/// one: what was solved at k is not solved or run again. Depth-first
/// (`--order depth-first`) each k restarts. The same paths and the same
/// complete k either way.
#[test]
fn deepening_goes_on_from_where_the_bound_stopped() {
    let tmp = project();
    let (o, on) = gen_in(tmp.path(), "count.c", "count3", &[], &tmp.path().join("on"));
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let restart_args = ["--order", "depth-first"];
    let (_, restart) = gen_in(tmp.path(), "count.c", "count3", &restart_args, &tmp.path().join("restart"));
    assert_eq!((on["k"].as_u64(), restart["k"].as_u64()), (Some(4), Some(4)));
    assert_eq!(paths(tests(&on)), paths(tests(&restart)));
    assert_eq!(tests(&on).len(), 5);
    let stat = |s: &serde_json::Value, name: &str| s["stats"][name].as_u64().unwrap();
    // k = 1 to 4: 8 runs going on (one per path, and the three the bound
    // cut, continued), 17 restarting (every k runs its paths again).
    assert_eq!((stat(&on, "runs"), stat(&restart, "runs")), (8, 17));
    assert!(stat(&on, "prefixes_explored") < stat(&restart, "prefixes_explored"));
}

/// A search that ends without reaching the bound is complete for every
/// k: deepening stops there and says so. An explicit `--k` below it names
/// the loop that hit the bound, in the summary and the JSON.
#[test]
fn deepening_stops_where_no_loop_reaches_the_bound() {
    let tmp = project();
    let out = tmp.path().join("out");
    let (o, suite) = gen_in(tmp.path(), "count.c", "count3", &[], &out);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    // k = 3 still blocks a fourth iteration; k = 4 refutes it.
    assert_eq!((suite["k"].as_u64(), suite["deepened"].as_bool()), (Some(4), Some(true)), "{text}");
    assert!(suite["k_partial"].is_null() && suite["at_bound"].as_array().unwrap().is_empty(), "{suite}");
    assert_eq!(suite["stop"], "complete");
    assert!(text.contains("stop:                complete: no loop or recursion reached the bound (k = 4"), "{text}");
    assert!(!text.contains("loops at the bound"), "{text}");
    let returns: BTreeSet<i64> = tests(&suite).iter().map(|t| t["expected"]["return"].as_i64().unwrap()).collect();
    assert_eq!(returns, (0..=3).collect());

    let (o, suite) = gen_in(tmp.path(), "count.c", "count3", &["--k", "2"], &out);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert_eq!((suite["k"].as_u64(), suite["deepened"].as_bool()), (Some(2), Some(false)));
    assert_eq!(suite["stop"], "complete");
    assert_eq!(
        suite["at_bound"],
        serde_json::json!([{"kind": "loop", "location": "count.c:6:12", "file": "count.c", "line": 6}])
    );
    assert!(text.contains("loops at the bound:  count.c:6 (a larger k may add paths there)"), "{text}");

    // Nothing to bound: k = 1 is the last.
    let (o, suite) = gen_in(tmp.path(), "count.c", "sign", &[], &out);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!((suite["k"].as_u64(), tests(&suite).len()), (Some(1), 3));
    assert!(stdout(&o).contains("complete: no loop or recursion reached the bound"), "{}", stdout(&o));
}

/// Covers and goals keep a fixed bound: k = 2 without `--k`, as before.
#[test]
fn goals_do_not_deepen() {
    let tmp = project();
    let out = tmp.path().join("out");
    let (o, suite) = gen_in(tmp.path(), "count.c", "count3", &["--criterion", "branches"], &out);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!((suite["k"].as_u64(), suite["deepened"].as_bool()), (Some(2), Some(false)));
}

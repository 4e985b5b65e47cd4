//! `gen --method vc` (seed 001) against the concolic search: at the same
//! bound, the VC's path cover finds exactly the concolic k-paths (compared
//! as sets of decision sequences), its statement and branch covers reach
//! every block and branch side the paths reach, and every valuation replays
//! along its path (a disagreement fails the test).

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use pathwise_cli::vc::{generate, GenCriterion};
use pathwise_engine::config::{Config, Criterion};
use pathwise_engine::suite::TestSuite;
use pathwise_ir::Program;

type PathKey = Vec<(String, u32, u32, bool)>;

fn compile(path: &Path) -> Program {
    pathwise_cli::frontend::compile(path, &[], &[]).expect("compiles").program
}

fn paths(suite: &TestSuite) -> BTreeSet<PathKey> {
    suite
        .tests
        .iter()
        .map(|t| t.path.iter().map(|s| (s.func.to_string(), s.loc.line, s.loc.col, s.taken)).collect())
        .collect()
}

type ErrorKey = BTreeSet<(pathwise_engine::suite::ErrorKind, u32, u32)>;

/// The paths that return (the suite's tests) and the (kind, line, col) of
/// its error tests, apart: the path cover cuts the paths into errors, which
/// the error cover finds one per check.
fn split(mut suite: TestSuite) -> (TestSuite, ErrorKey) {
    let errors = suite
        .tests
        .iter()
        .filter_map(|t| match &t.outcome {
            pathwise_engine::suite::Outcome::Error(e) => Some((e.kind, e.loc.line, e.loc.col)),
            _ => None,
        })
        .collect();
    suite.tests.retain(|t| matches!(t.outcome, pathwise_engine::suite::Outcome::Returned));
    (suite, errors)
}

fn concolic_with_errors(program: &Program, config: &Config) -> (TestSuite, ErrorKey) {
    let mut z3 = pathwise_solver_z3::Z3Backend::new(None);
    let suite =
        pathwise_engine::search::generate(program, config, &mut z3, &mut pathwise_engine::NoObserver).expect("search");
    split(suite)
}

fn concolic(program: &Program, config: &Config) -> TestSuite {
    concolic_with_errors(program, config).0
}

fn vc_with_errors(
    program: &Program,
    config: &Config,
    c: GenCriterion,
) -> (TestSuite, pathwise_vc::CoverResult, ErrorKey) {
    let (suite, res, bad) = generate(program, config, c).expect("vc");
    assert!(bad.is_empty(), "valuations that did not replay: {bad:?}");
    assert!(res.complete);
    let (suite, errors) = split(suite);
    (suite, res, errors)
}

fn vc(program: &Program, config: &Config, c: GenCriterion) -> (TestSuite, pathwise_vc::CoverResult) {
    let (suite, res, _) = vc_with_errors(program, config, c);
    (suite, res)
}

/// Path cover = concolic k-paths; statement and branch covers: the same
/// coverage with at most as many tests.
fn check(file: &Path, function: &str, pre: Option<&str>, k: u32) -> usize {
    let program = compile(file);
    let config = Config { precondition: pre.map(String::from), strict_loop_count: true, ..Config::new(function, k) };
    let (want, want_errors) = concolic_with_errors(&program, &config);
    let (got, _, errors) = vc_with_errors(&program, &config, GenCriterion::Engine(Criterion::KPath));
    assert_eq!(paths(&got), paths(&want), "{}: path sets differ", file.display());
    assert_eq!(errors, want_errors, "{}: errors differ", file.display());
    let covered = |s: &TestSuite| {
        s.coverage
            .functions
            .iter()
            .map(|f| (f.name.clone(), f.lines_covered.clone(), f.branches_covered))
            .collect::<Vec<_>>()
    };
    for c in [GenCriterion::Statements, GenCriterion::Branches] {
        let (cov, _) = vc(&program, &config, c);
        assert!(cov.tests.len() <= got.tests.len().max(1));
        assert_eq!(covered(&cov), covered(&got), "{}: {c:?} covers less", file.display());
    }
    got.tests.len()
}

fn bench(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench").join(name)
}

#[test]
fn merge_paths_equal_concolic() {
    let f = bench("merge.c");
    if !f.exists() {
        return;
    }
    assert_eq!(check(&f, "Merge", Some("merge_pre"), 1), 5);
    assert_eq!(check(&f, "Merge", Some("merge_pre"), 2), 17);
}

#[test]
fn diamonds_paths_equal_concolic() {
    let gen = bench("diamonds/gen_diamonds.py");
    if !gen.exists() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let st = std::process::Command::new("python3")
        .arg(&gen)
        .arg(dir.path())
        .args(["--seed", "1", "--min", "2", "--max", "3"])
        .status()
        .expect("python3");
    assert!(st.success());
    for name in ["diamonds_2_0.c", "diamonds_2_1.c", "diamonds_3_0.c", "diamonds_3_4.c"] {
        check(&dir.path().join(name), "diamonds", Some("diamonds_pre"), 2);
    }
}

#[test]
fn small_units_equal_concolic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("units.c");
    std::fs::write(
        &f,
        "int sum_pos(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) if (a[i] > 0) s += a[i]; return s; }\n\
         static int twice(int x) { if (x > 10) return 2 * x; return x; }\n\
         int calls(int a, int b) { int r = twice(a) + twice(b); if (r == 7) return 1; return 0; }\n\
         int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }\n\
         int dead(int x) { if (x > 5) { if (x < 3) return -1; return 1; } return 0; }\n\
         int pre_sum(int *a, int n) { return n >= 0 && n <= 3; }\n",
    )
    .expect("write");
    check(&f, "calls", None, 2);
    check(&f, "fact", None, 2);
    check(&f, "dead", None, 2);
    check(&f, "sum_pos", Some("pre_sum"), 2);
    // `x < 3` under `x > 5`: its then-side is infeasible within any bound.
    let program = compile(&f);
    let (_, res) = vc(&program, &Config::new("dead", 2), GenCriterion::Statements);
    assert_eq!(res.uncovered.len(), 1);
}

#[test]
fn foo_bar_else_branch_is_infeasible() {
    let f = bench("foo_bar.c");
    if !f.exists() {
        return;
    }
    let program = compile(&f);
    let (suite, res) = vc(&program, &Config::new("bar", 2), GenCriterion::Branches);
    assert_eq!(suite.tests.len(), 1);
    assert_eq!(
        res.uncovered,
        vec![pathwise_vc::Goal::Branch(program.func_by_name("foo").unwrap(), pathwise_ir::Block(0), false)]
    );
}

/// `--compositional` with `--method vc` (seed 001, section 6): the calls of
/// summarisable callees are replaced by the callee's path cover as a
/// disjunction. The covers must find the same paths as the concolic search
/// and as the inlined VC, and leave the same goals infeasible.
fn check_summaries(file: &Path, function: &str, k: u32, summarised: &[&str]) -> pathwise_vc::CoverResult {
    let program = compile(file);
    let config = Config { strict_loop_count: true, ..Config::new(function, k) };
    let composed = Config { compositional: true, ..config.clone() };
    let want = concolic(&program, &config);
    let (inlined, _) = vc(&program, &config, GenCriterion::Engine(Criterion::KPath));
    let (got, res) = vc(&program, &composed, GenCriterion::Engine(Criterion::KPath));
    let names: Vec<&str> = res.summaries.iter().map(|s| program.func(s.0).name.as_str()).collect();
    assert_eq!(names, summarised, "{function}: summarised functions");
    assert_eq!(paths(&got), paths(&want), "{function}: summaries vs concolic paths");
    assert_eq!(paths(&got), paths(&inlined), "{function}: summaries vs inlining");
    for c in [GenCriterion::Statements, GenCriterion::Branches] {
        let (_, a) = vc(&program, &config, c);
        let (_, b) = vc(&program, &composed, c);
        assert_eq!(a.goals, b.goals, "{function} {c:?}: goals");
        assert_eq!(a.uncovered, b.uncovered, "{function} {c:?}: infeasible goals");
    }
    res
}

/// foo_bar.c: bar calls foo(x, 1); foo's summary has its 2 paths, and in
/// bar's context only b > 0 remains: bar has 1 feasible path, foo's
/// else-branch (12:9, false side) and its statement `c = a - 1` (15:9) are
/// infeasible, reported at their file:line:col.
#[test]
fn summaries_foo_bar() {
    let f = bench("foo_bar.c");
    if !f.exists() {
        return;
    }
    let res = check_summaries(&f, "bar", 2, &["foo"]);
    assert_eq!((res.summaries[0].1, res.models.len()), (2, 1));
    let file = f.to_str().unwrap();
    for (crit, kind, at, side) in
        [("branches", "branch", "foo_bar.c:12:9", Some(false)), ("statements", "statement", "foo_bar.c:15:9", None)]
    {
        let out = tempfile::tempdir().unwrap();
        let args = ["--method", "vc", "--compositional", "--criterion", crit];
        let (text, suite) = common::gen(file, "bar", &args, out.path());
        let returned = suite["tests"].as_array().unwrap().iter().filter(|t| t["outcome"] == "returned").count();
        assert_eq!(returned, 1, "{crit}");
        assert_eq!(suite["vc"]["summaries"][0]["function"], "foo");
        assert_eq!(suite["vc"]["summaries"][0]["paths"], 2);
        let inf = suite["vc"]["infeasible"].as_array().unwrap();
        assert_eq!(inf.len(), 1, "{crit}: {inf:?}");
        assert_eq!((inf[0]["function"].as_str(), inf[0]["kind"].as_str()), (Some("foo"), Some(kind)));
        assert!(inf[0]["location"].as_str().unwrap().ends_with(at), "{crit}: {inf:?}");
        assert_eq!(inf[0]["side"].as_bool(), side);
        assert!(text.contains("VC summaries:        foo (2 paths"), "{text}");
        assert!(text.contains(at), "{text}");
    }
}

/// One callee, two calling contexts: classify's summary has its 3 paths;
/// where x > 0 only `v > 0` remains, where x <= 0 (v = x - 1 < 0) only
/// `v < 0`: two paths in all, and classify's `return 0` and the false side
/// of `v < 0` are infeasible in both contexts, hence reported. Constant
/// arguments (`classify(5)`, `classify(-5)`) keep one path each. `weigh`
/// reads a global: it is inlined, not summarised.
#[test]
fn summaries_in_two_contexts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("contexts.c");
    std::fs::write(
        &f,
        "int classify(int v)\n{\n    if (v > 0)\n        return 1;\n    if (v < 0)\n        return -1;\n    return 0;\n}\n\
         int two_sites(int x)\n{\n    int r;\n    if (x > 0)\n        r = classify(x);\n    else\n        r = classify(x - 1);\n    return r;\n}\n\
         int constants(int x)\n{\n    return classify(5) + classify(-5) + x;\n}\n\
         int limit = 3;\n\
         int weigh(int v) { if (v > limit) return 2; return classify(v); }\n\
         int mixed(int x, int y)\n{\n    int a = weigh(x);\n    int b = classify(y);\n    if (a == b)\n        return 1;\n    return 0;\n}\n",
    )
    .expect("write");
    let res = check_summaries(&f, "two_sites", 2, &["classify"]);
    assert_eq!((res.summaries[0].1, res.models.len()), (3, 2));
    let program = compile(&f);
    let classify = program.func_by_name("classify").unwrap();
    let config = Config { compositional: true, ..Config::new("two_sites", 2) };
    let (_, st) = vc(&program, &config, GenCriterion::Statements);
    let (_, br) = vc(&program, &config, GenCriterion::Branches);
    let at = |g: &pathwise_vc::Goal| match *g {
        pathwise_vc::Goal::Block(f, b) => {
            let bd = program.func(f).block(b);
            let loc = bd.insts.iter().map(|i| i.loc).find(|l| !l.is_none()).unwrap_or(bd.term_loc);
            (f, loc.line, None)
        }
        pathwise_vc::Goal::Branch(f, b, side) => (f, program.func(f).block(b).term_loc.line, Some(side)),
    };
    assert_eq!(st.uncovered.iter().map(at).collect::<Vec<_>>(), vec![(classify, 7, None)]);
    assert_eq!(br.uncovered.iter().map(at).collect::<Vec<_>>(), vec![(classify, 5, Some(false))]);
    let res = check_summaries(&f, "constants", 2, &["classify"]);
    assert_eq!(res.models.len(), 1);
    let res = check_summaries(&f, "mixed", 2, &["classify"]);
    assert_eq!(res.summaries.len(), 1, "weigh reads a global: inlined");
}

/// Constructs the VC method does not model are errors that say what and
/// where (file:line:col), and point to the concolic method.
#[test]
fn unsupported_constructs_are_clear_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("unsupported.c");
    std::fs::write(
        &f,
        "struct node { int v; struct node *next; };\n\
         int fl(double x) { if (x > 1.5) return 1; return 0; }\n\
         int heap(struct node *n) { if (n && n->v > 0) return 1; return 0; }\n\
         int local_arr(int i) { int a[4] = {1, 2, 3, 4}; if (i >= 0 && i < 4 && a[i] == 3) return 1; return 0; }\n\
         int ext(int x);\n\
         int calls_ext(int x) { return ext(x) > 0; }\n\
         void *malloc(unsigned long n);\n\
         int mal(int n) { int *p = malloc(4); if (!p) return 0; *p = n; return *p > 0; }\n",
    )
    .expect("write");
    let program = compile(&f);
    for (function, at, what) in [
        ("fl", "unsupported.c:2:5", "parameter `x`: floating-point input"),
        ("heap", "unsupported.c:3:5", "parameter `n`: a structure or pointer to a structure (input heap)"),
        ("local_arr", "unsupported.c:4:", "an access at a symbolic offset into a local or global array"),
        ("calls_ext", "unsupported.c:6:", "a call of `ext` (no body in this file)"),
        ("mal", "unsupported.c:8:", "dynamic memory (`malloc`)"),
    ] {
        let err =
            generate(&program, &Config::new(function, 2), GenCriterion::Statements).map(|_| ()).expect_err(function);
        let msg = err.to_string();
        assert!(msg.contains(at) && msg.contains(&format!("unsupported by --method vc: {what}")), "{function}: {msg}");
        assert!(msg.contains("--method concolic"), "{msg}");
    }
}

/// The (kind, line) of a suite's error tests, as a set.
fn error_set(suite: &serde_json::Value) -> BTreeSet<(String, u64)> {
    common::errors(suite).into_iter().collect()
}

/// Issue 28, "Methods that agree": the VC method seeks the runtime errors
/// the concolic search seeks (each check as a goal "it fails here"), and
/// both report the same (kind, line) on tests/c/vc_errors.c and on every
/// function of tests/c/errors.c the VC models; every error test replays
/// natively. `second_or_first` reads a string at an index the VC merges
/// from two paths: that error is named as not sought, never "complete".
#[test]
fn errors_agree_with_concolic() {
    let cases: &[(&str, &str, Option<&str>)] = &[
        ("tests/c/vc_errors.c", "pick", Some("pick_pre")),
        ("tests/c/vc_errors.c", "scale", None),
        ("tests/c/vc_errors.c", "at_or_last", None),
        ("tests/c/vc_errors.c", "first_two", None),
        ("tests/c/errors.c", "div_zero", None),
        ("tests/c/errors.c", "div_zero_ok", None),
        ("tests/c/errors.c", "div_overflow", None),
        ("tests/c/errors.c", "div_overflow_ok", None),
        ("tests/c/errors.c", "overflow", None),
        ("tests/c/errors.c", "mul_overflow", None),
        ("tests/c/errors.c", "mul_overflow_ok", None),
        ("tests/c/errors.c", "shift", None),
        ("tests/c/errors.c", "shift_ok", None),
        ("tests/c/errors.c", "oob_input", None),
        ("tests/c/errors.c", "oob_input_ok", None),
        ("tests/c/errors.c", "oob_input_write", None),
        ("tests/c/errors.c", "oob_input_index", None),
        ("tests/c/errors.c", "oob_input_index_ok", None),
        ("tests/c/errors.c", "oob_input_pre", Some("oob_input_valid")),
        ("tests/c/errors.c", "oob_input_pre_ok", Some("oob_input_valid")),
    ];
    for &(file, function, pre) in cases {
        let pre: Vec<&str> = pre.map(|p| vec!["--precondition", p]).unwrap_or_default();
        let out = tempfile::tempdir().unwrap();
        let args = [&["-I", "crates/cfront/include", "--k", "2"][..], &pre].concat();
        let (_, want) = common::gen(file, function, &args, out.path());
        let got = common::generate_and_replay(file, function, &[&["--method", "vc"][..], &pre].concat(), false);
        assert_eq!(error_set(&got), error_set(&want), "{file} {function}: error tests");
        assert_eq!(got["stop"], "complete", "{function}");
        assert_eq!(got["vc"]["errors"]["sought"], true);
        assert_eq!(got["vc"]["errors"]["complete"], true);
        assert!(got["vc"]["errors"]["not_sought"].as_array().unwrap().is_empty());
    }
    // The case: out-of-bounds reads (before the start, past a tied
    // length) and a division by a parameter under a precondition.
    let out = tempfile::tempdir().unwrap();
    let args = ["-I", "crates/cfront/include", "--precondition", "pick_pre", "--method", "vc"];
    let (_, pick) = common::gen("tests/c/vc_errors.c", "pick", &args, out.path());
    let kinds: BTreeSet<(String, u64)> = error_set(&pick);
    for want in [("out-of-bounds", 15), ("out-of-bounds", 17), ("division-by-zero", 18), ("division-overflow", 18)] {
        assert!(kinds.contains(&(want.0.to_string(), want.1)), "{kinds:?}");
    }
}

/// What the VC's encoding does not model is said, in the summary, the JSON
/// (`stop: explored`, `stop_detail`, `vc.errors.not_sought`) and the stop
/// line, and the errors it does model still agree with the concolic search.
#[test]
fn errors_not_sought_are_named() {
    let file = "tests/c/vc_errors.c";
    for (function, extra, what, missing) in [
        (
            "second_or_first",
            &[][..],
            "reads past the NUL of a string parameter at tests/c/vc_errors.c:62:12",
            ("out-of-bounds", 62),
        ),
        (
            "at_or_last",
            &["--null-args", "errors"][..],
            "null dereferences of pointer parameters (buf)",
            ("null-dereference", 41),
        ),
    ] {
        let out = tempfile::tempdir().unwrap();
        let (_, want) = common::gen(file, function, extra, out.path());
        let out = tempfile::tempdir().unwrap();
        let args = [extra, &["--method", "vc"][..]].concat();
        let (text, got) = common::gen(file, function, &args, out.path());
        let words = format!("errors not sought by --method vc: {what}; use --method concolic");
        assert_eq!(got["stop"], "explored", "{function}");
        assert_eq!(got["stop_detail"].as_str(), Some(words.as_str()));
        assert_eq!(got["vc"]["errors"]["not_sought"][0].as_str(), Some(what));
        assert!(text.contains(&format!("stop:                complete for the paths and the errors sought; {words}")));
        assert!(!text.contains("stop:                complete (every"), "{text}");
        let (want, got) = (error_set(&want), error_set(&got));
        assert!(want.contains(&(missing.0.to_string(), missing.1)), "{function}: {want:?}");
        assert!(got.is_subset(&want), "{function}: {got:?} not in {want:?}");
    }
}

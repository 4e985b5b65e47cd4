//! `gen --method vc` (seed 001) against the concolic search: at the same
//! bound, the VC's path cover finds exactly the concolic k-paths (compared
//! as sets of decision sequences), its statement and branch covers reach
//! every block and branch side the paths reach, and every valuation replays
//! along its path (a disagreement fails the test).

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
        .map(|t| t.path.iter().map(|s| (s.func.clone(), s.loc.line, s.loc.col, s.taken)).collect())
        .collect()
}

fn concolic(program: &Program, config: &Config) -> TestSuite {
    let mut z3 = pathwise_solver_z3::Z3Backend::new(None);
    let mut suite =
        pathwise_engine::search::generate(program, config, &mut z3, &mut pathwise_engine::NoObserver).expect("search");
    // The VC cuts paths into undefined behaviour (they are the concolic
    // search's error tests): compare the paths that return.
    suite.tests.retain(|t| matches!(t.outcome, pathwise_engine::suite::Outcome::Returned));
    suite
}

fn vc(program: &Program, config: &Config, c: GenCriterion) -> (TestSuite, pathwise_vc::CoverResult) {
    let (suite, res, bad) = generate(program, config, c).expect("vc");
    assert!(bad.is_empty(), "valuations that did not replay: {bad:?}");
    assert!(res.complete);
    (suite, res)
}

/// Path cover = concolic k-paths; statement and branch covers: the same
/// coverage with at most as many tests.
fn check(file: &Path, function: &str, pre: Option<&str>, k: u32) -> usize {
    let program = compile(file);
    let config = Config { precondition: pre.map(String::from), strict_loop_count: true, ..Config::new(function, k) };
    let want = concolic(&program, &config);
    let (got, _) = vc(&program, &config, GenCriterion::Engine(Criterion::KPath));
    assert_eq!(paths(&got), paths(&want), "{}: path sets differ", file.display());
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

//! Consistency of static paths with the engine's search (issue 12): at the
//! same bound (`k` = D, strict loop count) the feasible static paths are
//! exactly the paths of `gen`'s tests that return (or end in `abort()`),
//! compared as decision sequences; every static path gets a verdict; and
//! the counts are the seeds' figures where they have one.

use std::collections::BTreeSet;
use std::path::Path;

use pathwise_engine::config::Config;
use pathwise_engine::suite::{Outcome, TestSuite};
use pathwise_ir::Program;
use pathwise_paths::feasibility::{self, Verdict};

type Seq = Vec<(String, pathwise_ir::Loc, bool)>;

fn compile(path: &Path) -> Program {
    pathwise_cfront::compile_file(path, &Default::default()).expect("compiles").program
}

fn bench(name: &str) -> Program {
    compile(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/bench").join(name))
}

fn unit(source: &str) -> Program {
    pathwise_cfront::compile_source("unit.c", source, &Default::default()).expect("compiles").program
}

fn config(function: &str, depth: u32, pre: Option<&str>) -> Config {
    let mut c = Config::new(function, depth.max(1));
    c.precondition = pre.map(str::to_string);
    c.strict_loop_count = true;
    c
}

/// The decision sequences of the tests that return or trap natively.
fn gen_paths(program: &Program, config: &Config) -> (BTreeSet<Seq>, TestSuite) {
    let mut backend = pathwise_solver_z3::Z3Backend::new(None);
    let suite = pathwise_engine::generate(program, config, &mut backend, &mut pathwise_engine::NoObserver).unwrap();
    let seqs = suite
        .tests
        .iter()
        .filter(|t| match &t.outcome {
            Outcome::Returned => true,
            Outcome::Error(e) => e.kind.traps_natively(),
            Outcome::BoundReached => false,
        })
        .map(|t| t.path.iter().map(|s| (s.func.to_string(), s.loc, s.taken)).collect())
        .collect();
    (seqs, suite)
}

/// Static paths, verdicts and `gen`'s paths at depth `d`: asserts the
/// consistency and returns (static, feasible, infeasible) counts.
fn check(program: &Program, function: &str, d: u32, pre: Option<&str>) -> (usize, usize, usize) {
    let id = program.func_by_name(function).unwrap();
    let paths = pathwise_paths::enumerate(program, id, d, 1_000_000).unwrap();
    let cfg = config(function, d, pre);
    let mut backend = pathwise_solver_z3::Z3Backend::new(None);
    let f = feasibility::check(program, &paths, &cfg, &mut backend, &mut pathwise_engine::NoObserver).unwrap();
    // avl.c's precondition abandons prefixes (`--precondition-budget`):
    // its search is not complete, yet every path gets a verdict.
    if pre != Some("avl_ok") {
        assert_eq!(f.suite.stop, pathwise_engine::suite::StopReason::Complete, "{function}");
    }
    let mut feasible = BTreeSet::new();
    let mut infeasible = 0;
    for (p, v) in paths.paths.iter().zip(&f.verdicts) {
        let seq: Seq = p.steps.iter().map(|s| feasibility::static_key(program, s)).collect();
        match v {
            Verdict::Feasible { .. } => assert!(feasible.insert(seq), "{function}: two paths, one sequence"),
            Verdict::Infeasible { .. } => infeasible += 1,
            Verdict::Unknown => panic!("{function} at depth {d}: unknown path {seq:?}"),
        }
    }
    let (gen, _) = gen_paths(program, &cfg);
    // At depth 0 the search runs at k = 1: keep its paths of depth 0.
    let gen: BTreeSet<Seq> = if d == 0 {
        let all: BTreeSet<Seq> =
            paths.paths.iter().map(|p| p.steps.iter().map(|s| feasibility::static_key(program, s)).collect()).collect();
        gen.into_iter().filter(|s| all.contains(s)).collect()
    } else {
        gen
    };
    assert_eq!(feasible, gen, "{function} at depth {d}: feasible static paths differ from gen's paths");
    (paths.paths.len(), feasible.len(), infeasible)
}

#[test]
fn merge_matches_pathcrawler() {
    let p = bench("merge.c");
    // Seed 002: 126 static paths at k = 2, 17 feasible.
    assert_eq!(check(&p, "Merge", 2, Some("merge_pre")), (126, 17, 109));
    let id = p.func_by_name("Merge").unwrap();
    let five = pathwise_paths::enumerate(&p, id, 5, 1_000_000).unwrap();
    assert_eq!(five.paths.len(), 4536);
    assert_eq!(five.per_depth(), vec![2, 22, 102, 354, 1070, 2986]);
}

#[test]
fn recursive_examples_of_seed_000() {
    let p = bench("recursive.c");
    assert_eq!(check(&p, "sorted_insert", 2, None), (6, 6, 0));
    assert_eq!(check(&p, "binary_search", 2, None), (10, 10, 0));
    assert_eq!(check(&p, "dutch_flag", 2, None), (13, 13, 0));
    assert_eq!(check(&p, "quicksort", 2, None), (449, 9, 440));
    assert_eq!(check(&p, "heap_union", 2, None), (2114, 70, 2044));
}

#[test]
fn remall() {
    let p = bench("remall.c");
    assert_eq!(check(&p, "remAll", 2, None), (183, 21, 162));
}

#[test]
fn avl_depth_zero() {
    let p = bench("avl.c");
    // 9 static paths: 2 on the decisions of ins (the seed's 2), times the
    // decisions of the helpers height and compose, which the seed's IR
    // does not have; 7 of them take a constant branch (height(NULL)).
    assert_eq!(check(&p, "insertAVL", 0, Some("avl_ok")), (9, 2, 7));
}

const UNITS: &str = r#"
int loops(int a[], int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (a[i] < 0) break;
        for (int j = 0; j < a[i] && j < 3; j++) s++;
    }
    return s;
}
int is_odd(int n);
int is_even(int n) { if (n == 0) return 1; return is_odd(n - 1); }
int is_odd(int n) { if (n == 0) return 0; return is_even(n - 1); }
int parity(int n) { if (n < 0) return -1; return is_even(n); }
int early(int x, int y) {
    if (x > 10) return 1;
    if (y > x && x > 0 && y < 100) return 2;
    while (x < y) { if (x == 5) return 3; x++; }
    return 0;
}
int sw(int c) {
    switch (c) { case 1: return 10; case 2: case 3: return 20; default: break; }
    return c > 50 ? 1 : 0;
}
int fixed(int x) { int s = 0; for (int i = 0; i < 2; i++) s += x; return s > 4; }
"#;

#[test]
fn own_units() {
    let p = unit(UNITS);
    assert_eq!(check(&p, "loops", 2, None), (50, 17, 33));
    // Mutual recursion entered at is_even: up to 3 activations of each.
    assert_eq!(check(&p, "parity", 2, None), (7, 7, 0));
    // A switch is a chain of decisions; `?:` is one more.
    assert_eq!(check(&p, "sw", 1, None), (5, 5, 0));
    // Every iteration counts (strict): two are needed, so depth 1 has
    // only infeasible paths (a constant loop condition).
    assert_eq!(check(&p, "fixed", 2, None), (3, 1, 2));
    assert_eq!(check(&p, "fixed", 1, None), (2, 0, 2));
    assert_eq!(check(&p, "early", 2, None), (17, 7, 10));
}

//! `pathwise_vc::generate` on small C functions: exact numbers of tests of
//! the path, statement and branch covers, the infeasible goals of dead code
//! with their locations and summary lines, the stop reason of a cover cut
//! short, summaries under `compositional`, and errors. Every run also
//! checks that each valuation became a test whose replayed path is the
//! VC's own (no disagreements).

use std::time::Duration;

use pathwise_engine::config::Config;
use pathwise_ir::Program;
use pathwise_suite::StopReason;
use pathwise_vc::generate::infeasible_text;
use pathwise_vc::{generate, Criterion, Generated, LocatedGoal};

/// Line numbers matter: the infeasible goals are reported at them.
const UNITS: &str = "\
int steps(int x, int n)
{
    int s = 0;
    if (x > 0)
        s = 1;
    else
        s = -1;
    for (int i = 0; i < n; i++)
        s += 2;
    return s;
}
int steps_pre(int x, int n) { return n >= 1 && n <= 2; }
int dead(int x)
{
    if (x > 5) {
        if (x < 3) {
            x = -x;
            return x;
        }
        return 1;
    }
    return 0;
}
int foo(int a, int b) { int c; if (b > 0) c = a + 1; else c = a - 1; return c; }
int bar(int x) { return foo(x, 1); }
int fl(double x) { if (x > 1.5) return 1; return 0; }
";

fn program() -> Program {
    pathwise_cfront::compile_source("units.c", UNITS, &Default::default()).expect("compiles").program
}

/// `generate`, checked to agree with its replays: every valuation is a
/// test, in order, whose path is the decisions the VC chose for it.
fn run(program: &Program, config: &Config, criterion: Criterion) -> Generated {
    let mut g = generate(program, config, criterion).expect("generates");
    assert!(g.disagreements.is_empty(), "{:?}", g.disagreements);
    let errors = g.errors.as_ref().map_or(&[][..], |e| &e.found[..]);
    assert_eq!(g.suite.tests.len(), g.cover.models.len() + errors.len(), "a valuation gave no test");
    for (test, want) in g.suite.tests.iter().zip(&g.cover.paths) {
        let got: Vec<_> = test.path.iter().map(|s| (&*s.func, s.loc, s.taken)).collect();
        let want: Vec<_> = want.iter().map(|d| (d.func.as_str(), d.loc, d.taken)).collect();
        assert_eq!(got, want, "test {} left the VC's path", test.id);
    }
    // The error cover's valuations, after the paths: each ends in its error.
    for (test, (check, _)) in g.suite.tests[g.cover.models.len()..].iter().zip(errors) {
        match &test.outcome {
            pathwise_suite::Outcome::Error(e) => assert_eq!((e.kind, e.loc), (check.kind, check.loc)),
            o => panic!("test {} ended {o:?}, not in {check:?}", test.id),
        }
    }
    let queries = g.cover.queries + g.errors.as_ref().map_or(0, |e| e.queries);
    assert_eq!(g.suite.stats.solver_calls, queries);
    // The tests of the cover's paths: the other checks of this file.
    g.suite.tests.truncate(g.cover.models.len());
    g
}

fn returns(g: &Generated) -> Vec<i128> {
    let mut out: Vec<i128> = g.suite.tests.iter().map(|t| t.ret.expect("returns a value")).collect();
    out.sort();
    out
}

fn complete(g: &Generated) {
    assert!(g.cover.complete, "{:?}", g.cover.stopped);
    assert_eq!(g.suite.stop, StopReason::Complete);
}

/// `steps`: two sides of `x > 0` times 0..=k iterations of a loop of `n`
/// (the VC cuts the paths that would start iteration k + 1).
#[test]
fn path_cover_is_every_path_within_the_bound() {
    let program = program();
    for (k, paths) in [(1, 4), (2, 6)] {
        let g = run(&program, &Config::new("steps", k), Criterion::Paths);
        complete(&g);
        assert_eq!(g.suite.tests.len(), paths, "k = {k}");
    }
    // Under `1 <= n <= 2`: at k = 2 both iteration counts, so s is 1 or -1
    // plus 2 or 4; at k = 1 only n = 1 stays within the bound.
    let pre = |k| Config { precondition: Some("steps_pre".into()), ..Config::new("steps", k) };
    let g = run(&program, &pre(2), Criterion::Paths);
    complete(&g);
    assert_eq!(returns(&g), vec![1, 3, 3, 5]);
    let g = run(&program, &pre(1), Criterion::Paths);
    complete(&g);
    assert_eq!(returns(&g), vec![1, 3]);
}

/// Under `1 <= n <= 2` every path runs the loop's body and leaves the
/// loop, so the two sides of `x > 0` (which exclude each other) are all
/// that takes a second test: two tests cover every statement and every
/// branch side, none infeasible.
#[test]
fn statement_and_branch_covers_take_two_tests() {
    let program = program();
    let config = Config { precondition: Some("steps_pre".into()), ..Config::new("steps", 2) };
    for criterion in [Criterion::Statements, Criterion::Branches] {
        let g = run(&program, &config, criterion);
        complete(&g);
        assert_eq!(g.suite.tests.len(), 2, "{criterion:?}");
        assert!(g.cover.uncovered.is_empty() && g.infeasible.is_empty(), "{criterion:?}: {:?}", g.infeasible);
        let signs: Vec<bool> = g.suite.tests.iter().map(|t| t.path[0].taken).collect();
        assert!(signs.contains(&true) && signs.contains(&false), "{criterion:?}: both sides of x > 0");
    }
    // Two decisions (`x > 0`, `i < n`), two sides each.
    assert_eq!(run(&program, &config, Criterion::Branches).cover.goals.len(), 4);
}

/// `dead`: `x < 3` under `x > 5` never holds, so its true side and the
/// block it guards (located at its first statement, `x = -x`) are
/// infeasible; the two other returns take one test each.
#[test]
fn dead_code_is_reported_infeasible() {
    let program = program();
    let config = Config::new("dead", 2);
    let g = run(&program, &config, Criterion::Branches);
    complete(&g);
    assert_eq!(returns(&g), vec![0, 1]);
    assert_eq!(g.cover.goals.len(), 4);
    let branch = LocatedGoal { function: "dead".into(), location: "units.c:16:13".into(), side: Some(true) };
    assert_eq!(g.infeasible, vec![branch]);
    assert_eq!(g.infeasible[0].kind(), "branch");
    assert_eq!(
        infeasible_text(&g),
        "  infeasible code:     1 of 4 goals (within the bound)\n    dead: branch at units.c:16:13, true side\n"
    );
    let g = run(&program, &config, Criterion::Statements);
    complete(&g);
    assert_eq!(returns(&g), vec![0, 1]);
    let statement = LocatedGoal { function: "dead".into(), location: "units.c:17:13".into(), side: None };
    assert_eq!(g.infeasible, vec![statement]);
    assert_eq!(g.infeasible[0].kind(), "statement");
    assert_eq!(g.cover.uncovered.len(), 1);
}

/// A deadline already past stops the cover before its first check: no
/// test, a timeout, and no infeasible code claimed.
#[test]
fn a_cover_cut_short_claims_nothing() {
    let program = program();
    let config = Config { timeout: Some(Duration::ZERO), ..Config::new("dead", 2) };
    let g = run(&program, &config, Criterion::Branches);
    assert!(!g.cover.complete);
    assert_eq!(g.suite.stop, StopReason::Timeout);
    assert!(g.suite.tests.is_empty() && g.infeasible.is_empty());
    assert_eq!(infeasible_text(&g), "  infeasible code:     not reported: the cover stopped early (timeout)\n");
}

/// `compositional`: `foo`'s two paths become its summary; called with
/// `b = 1`, only `b > 0` remains, so `bar` has one path and `foo`'s false
/// side of `b > 0` is infeasible in that context.
#[test]
fn summaries_replace_summarisable_callees() {
    let program = program();
    let foo = program.func_by_name("foo").unwrap();
    let config = Config { compositional: true, ..Config::new("bar", 2) };
    let g = run(&program, &config, Criterion::Branches);
    complete(&g);
    assert_eq!(g.cover.summaries.iter().map(|s| (s.0, s.1)).collect::<Vec<_>>(), vec![(foo, 2)]);
    assert_eq!(g.suite.tests.len(), 1);
    assert_eq!(
        g.infeasible,
        vec![LocatedGoal { function: "foo".into(), location: "units.c:24:36".into(), side: Some(false) }]
    );
    // Inlined, the same path and the same infeasible side.
    let inlined = run(&program, &Config::new("bar", 2), Criterion::Branches);
    assert!(inlined.cover.summaries.is_empty());
    assert_eq!(inlined.infeasible, g.infeasible);
}

#[test]
fn errors_say_what_and_where() {
    let program = program();
    let err = generate(&program, &Config::new("fl", 2), Criterion::Statements).map(|_| ()).unwrap_err();
    assert!(err.starts_with("units.c:26:5: unsupported by --method vc: parameter `x`: floating-point input"), "{err}");
    let err = generate(&program, &Config::new("nope", 2), Criterion::Paths).map(|_| ()).unwrap_err();
    assert_eq!(err, "no function `nope`");
}

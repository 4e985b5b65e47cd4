//! Benchmark: resource-driven worst case against generate-then-filter
//! (seed 003, ch. 4.4, Fig. 4.7) on `multiples` (tests/bench/vector.c),
//! loop-k with k = 2..7, instructions, the `worst` policy.
//!
//! Run with `cargo bench -p pathwise-engine --bench resource_driven`.
//! Both searches count loop iterations strictly (seed 003's loop-k, as the
//! abstract traces do). For each k: the tests generated (generate-then-
//! filter keeps one of them), runs, the resource-driven search's traces
//! tried and infeasible, the number of bounded abstract traces a naive
//! generator would enumerate, the worst cost found, and the time (best of
//! 3). The thesis: resource-driven about half the time; its naive
//! abstraction ran out of memory from k = 6.

use std::path::PathBuf;
use std::time::Instant;

use pathwise_engine::config::Config;
use pathwise_engine::cost::{CostModel, CostPolicy};
use pathwise_engine::suite::TestSuite;

fn run(program: &pathwise_ir::Program, k: u32, driven: bool) -> (TestSuite, f64) {
    let mut config = Config { strict_loop_count: true, ..Config::new("multiples", k) };
    config.goals.costs = vec![CostModel::Instructions];
    config.goals.policies = vec![CostPolicy::Worst];
    config.goals.driven = driven;
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..3 {
        let mut backend = pathwise_solver_z3::Z3Backend::new(None);
        let t = Instant::now();
        let suite = pathwise_engine::generate(program, &config, &mut backend, &mut pathwise_engine::NoObserver)
            .expect("generation");
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
        last = Some(suite);
    }
    (last.expect("a run"), best)
}

fn main() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/bench/vector.c");
    let opts = pathwise_cfront::FrontendOptions {
        include_dirs: vec![],
        defines: vec![],
        data_model: pathwise_cfront::DataModel::Lp64,
        extra_args: vec![],
    };
    let program = pathwise_cfront::compile_file(&path, &opts).expect("front end").program;
    println!("multiples (tests/bench/vector.c), instructions, worst case, strict loop-k, release build, best of 3");
    println!(
        "{:>2} | {:>6} {:>6} {:>6} {:>9} | {:>6} {:>6} {:>6} {:>10} {:>12} {:>9} | {:>6}",
        "k",
        "tests",
        "runs",
        "worst",
        "filter ms",
        "runs",
        "tried",
        "infeas",
        "expanded",
        "naive traces",
        "driven ms",
        "ratio"
    );
    for k in 2..=7 {
        let (all, t_all) = run(&program, k, false);
        let (driven, t_driven) = run(&program, k, true);
        let worst = |s: &TestSuite| s.tests.first().and_then(|t| t.cost.first()).map_or(0, |c| c.concrete);
        assert_eq!(worst(&all), worst(&driven), "k = {k}: the two searches disagree");
        let d = driven.goals.driven.clone().unwrap_or_default();
        println!(
            "{:>2} | {:>6} {:>6} {:>6} {:>9.1} | {:>6} {:>6} {:>6} {:>10} {:>12} {:>9.1} | {:>6.2}",
            k,
            all.goals.dropped_by_policy + all.tests.len() as u64,
            all.stats.runs,
            worst(&all),
            t_all,
            driven.stats.runs,
            d.tried,
            d.infeasible,
            d.expanded,
            d.abstract_traces,
            t_driven,
            t_driven / t_all
        );
    }
    println!("columns: generate-then-filter (tests generated, runs, worst cost, time) | resource-driven (runs,");
    println!("traces tried, infeasible, partial traces expanded, bounded abstract traces, time) | time ratio");
}

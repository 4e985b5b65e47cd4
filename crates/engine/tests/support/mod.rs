//! Shared helpers of the engine's integration tests: configurations and
//! the search with the Z3 backend.

#![allow(dead_code)]

use std::path::PathBuf;

use pathwise_engine::config::Config;
use pathwise_engine::suite::TestSuite;

/// Path of a file under the repository's `tests/bench` directory.
pub fn bench(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/bench").join(name)
}

pub fn config(function: &str, pre: Option<&str>, k: u32) -> Config {
    Config { precondition: pre.map(str::to_string), max_steps_per_run: 1_000_000, ..Config::new(function, k) }
}

pub fn generate(program: &pathwise_ir::Program, config: &Config) -> TestSuite {
    let mut backend = pathwise_solver_z3::Z3Backend::new(None);
    pathwise_engine::generate(program, config, &mut backend, &mut pathwise_engine::NoObserver)
        .unwrap_or_else(|e| panic!("generation failed: {e}"))
}

/// Tests that return normally: one per feasible k-path.
pub fn returned(suite: &TestSuite) -> usize {
    suite.tests.iter().filter(|t| t.outcome == pathwise_engine::suite::Outcome::Returned).count()
}

/// The error tests as (kind, line), in test order.
pub fn errors(suite: &TestSuite) -> Vec<(&'static str, u32)> {
    suite
        .tests
        .iter()
        .filter_map(|t| match &t.outcome {
            pathwise_engine::suite::Outcome::Error(e) => Some((e.kind.name(), e.loc.line)),
            _ => None,
        })
        .collect()
}

/// Every test's path (with its outcome) is distinct and the search ran to
/// completion.
pub fn check_sound(suite: &TestSuite) {
    assert_eq!(suite.stop, pathwise_engine::suite::StopReason::Complete);
    assert_eq!(suite.stats.divergences, 0, "runs diverged from their solved prefix");
    let mut paths: Vec<_> = suite.tests.iter().map(|t| (t.path.clone(), format!("{:?}", t.outcome))).collect();
    paths.sort_by_key(|p| format!("{p:?}"));
    paths.dedup();
    assert_eq!(paths.len(), suite.tests.len(), "two tests share a path");
}

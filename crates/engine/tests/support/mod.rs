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
    Config {
        function: function.to_string(),
        precondition: pre.map(str::to_string),
        k,
        max_array_len: 16,
        timeout: None,
        max_tests: None,
        max_steps_per_run: 1_000_000,
    }
}

pub fn generate(program: &pathwise_ir::Program, config: &Config) -> TestSuite {
    let mut backend = pathwise_solver_z3::Z3Backend::new(None);
    pathwise_engine::generate(program, config, &mut backend, &mut pathwise_engine::NoObserver)
        .unwrap_or_else(|e| panic!("generation failed: {e}"))
}

/// Every test's path is distinct and the search ran to completion.
pub fn check_sound(suite: &TestSuite) {
    assert_eq!(suite.stop, pathwise_engine::suite::StopReason::Complete);
    assert_eq!(suite.stats.divergences, 0, "runs diverged from their solved prefix");
    let mut paths: Vec<_> = suite.tests.iter().map(|t| t.path.clone()).collect();
    paths.sort_by_key(|p| format!("{p:?}"));
    paths.dedup();
    assert_eq!(paths.len(), suite.tests.len(), "two tests share a path");
}

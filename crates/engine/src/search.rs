//! The k-path search (placeholder signature; implementation in progress).

use pathwise_expr::SolverBackend;
use pathwise_ir::Program;

use crate::config::Config;
use crate::suite::{Stats, TestCase, TestSuite};

/// Errors that prevent a run from starting or continuing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineError {
    pub message: String,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EngineError {}

/// Receives progress during a run and may ask it to stop early.
pub trait Observer {
    /// Called after each new test is validated.
    fn on_test(&mut self, _test: &TestCase, _stats: &Stats) {}
    /// Polled between runs: `true` stops the search (result: `Interrupted`).
    fn should_stop(&mut self) -> bool {
        false
    }
}

/// An observer that does nothing.
pub struct NoObserver;

impl Observer for NoObserver {}

/// Generate one test per feasible k-path of `config.function`.
pub fn generate(
    program: &Program,
    config: &Config,
    backend: &mut dyn SolverBackend,
    observer: &mut dyn Observer,
) -> Result<TestSuite, EngineError> {
    let _ = (program, config, backend, observer);
    Err(EngineError { message: "the engine is not implemented yet".into() })
}

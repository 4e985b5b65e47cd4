//! The configuration of one generation run, passed down explicitly.

use std::time::Duration;

/// Options of [`crate::search::generate`]. There is deliberately no `Default`:
/// callers state every choice.
#[derive(Clone, Debug)]
pub struct Config {
    /// Name of the function under test.
    pub function: String,
    /// Name of the precondition function (same parameters, nonzero = valid).
    pub precondition: Option<String>,
    /// At most `k` iterations of each loop per entry, and at most `k`
    /// recursive activations nested below the first one of a recursive cycle.
    pub k: u32,
    /// Largest length of an input array.
    pub max_array_len: u32,
    /// Stop after this much time (tests found so far are kept).
    pub timeout: Option<Duration>,
    /// Stop after this many tests.
    pub max_tests: Option<u64>,
    /// Interpreter steps allowed per run (guards against non-terminating code
    /// outside the k bound, e.g. in a precondition).
    pub max_steps_per_run: u64,
}

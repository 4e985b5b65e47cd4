//! The search observer of `pathwise gen`: a progress line on stderr and the
//! stop conditions (Ctrl-C, `--timeout`).
//!
//! The engine polls [`Observer::should_stop`] between runs and then returns
//! the tests found so far, so stopping here is what lets an interrupted or
//! timed-out run still write its tests. The engine also receives the timeout
//! in its `Config`; the deadline here is a second guard that keeps working
//! however the engine measures time, and lets us report `timeout` rather
//! than `interrupted` when it fires.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use pathwise_engine::search::Observer;
use pathwise_engine::suite::{Stats, TestCase};
use pathwise_expr::{ExprPool, Query, SolveResult, SolverBackend};

/// Shows progress and decides when to stop.
pub struct ProgressObserver {
    /// Present only when stderr is a terminal (no escape codes in logs).
    bar: Option<ProgressBar>,
    interrupted: Arc<AtomicBool>,
    deadline: Option<Instant>,
    timed_out: bool,
    /// Backend calls so far, shared with a [`CountingBackend`].
    solver_calls: Arc<AtomicU64>,
    /// Where the tests found are kept for the watchdog, if one watches.
    keep: Option<Arc<std::sync::Mutex<crate::salvage::Found>>>,
}

impl ProgressObserver {
    /// `interrupted` is set asynchronously (by the Ctrl-C handler).
    pub fn new(
        function: &str,
        interrupted: Arc<AtomicBool>,
        timeout: Option<Duration>,
        solver_calls: Arc<AtomicU64>,
    ) -> ProgressObserver {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {prefix} [{elapsed}] {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.set_prefix(format!("{function}:"));
            bar.set_message("searching...");
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        ProgressObserver {
            bar,
            interrupted,
            deadline: timeout.map(|t| Instant::now() + t),
            timed_out: false,
            solver_calls,
            keep: None,
        }
    }

    /// An observer without a progress line (`project` runs several
    /// searches at once and reports each function as it ends).
    pub fn quiet(interrupted: Arc<AtomicBool>, timeout: Option<Duration>, solver_calls: Arc<AtomicU64>) -> Self {
        ProgressObserver {
            bar: None,
            interrupted,
            deadline: timeout.map(|t| Instant::now() + t),
            timed_out: false,
            solver_calls,
            keep: None,
        }
    }

    /// Keep every test found in `found` (see [`crate::salvage`]).
    pub fn keep_tests(&mut self, found: Arc<std::sync::Mutex<crate::salvage::Found>>) {
        self.keep = Some(found);
    }

    /// The deadline `--timeout` set, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether the deadline stopped the search.
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// The flag Ctrl-C sets (the solver backend watches it too, to cut a
    /// running query short).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.interrupted)
    }

    /// Whether Ctrl-C stopped the search.
    pub fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }

    /// Remove the progress line before the summary is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Observer for ProgressObserver {
    fn on_test(&mut self, test: &TestCase, coverage: &pathwise_engine::setup::RunCoverage, stats: &Stats) {
        if let Some(found) = &self.keep {
            found.lock().unwrap_or_else(|e| e.into_inner()).add(test, coverage, stats);
        }
        if let Some(bar) = &self.bar {
            bar.set_message(format!(
                "tests: {}  runs: {}  solver calls: {}  infeasible prefixes: {}",
                stats.tests.max(stats.feasible_paths),
                stats.runs,
                self.solver_calls.load(Ordering::Relaxed),
                stats.infeasible_prefixes
            ));
        }
    }

    fn should_stop(&mut self) -> bool {
        if self.interrupted() {
            return true;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.timed_out = true;
            return true;
        }
        false
    }
}

/// Counts the queries that reach a backend, for the progress line: the
/// engine's own statistics count queries before the cache, and the cache's
/// counters are out of reach while the engine borrows it.
pub struct CountingBackend<B> {
    pub inner: B,
    pub calls: Arc<AtomicU64>,
}

impl<B: SolverBackend> SolverBackend for CountingBackend<B> {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolveResult {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.inner.check(pool, query)
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.inner.set_deadline(deadline);
    }
}

/// Install the Ctrl-C handler: the first Ctrl-C asks the search to stop
/// (tests found so far are written); a second one exits at once.
pub fn install_ctrlc() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let handler_flag = Arc::clone(&flag);
    let installed = ctrlc::set_handler(move || {
        if handler_flag.swap(true, Ordering::SeqCst) {
            eprintln!("\ninterrupted again: exiting without writing tests");
            std::process::exit(crate::exit::SIGNAL);
        }
        // SIGTERM (a CI job's timeout, `kill`) and SIGHUP come here too
        // (ctrlc's `termination` feature): the tests found are written.
        eprintln!("\ninterrupted: stopping the search and writing the tests found so far (Ctrl-C again to abort)");
    });
    if let Err(e) = installed {
        // Not fatal: the run simply cannot be interrupted gracefully.
        eprintln!("warning: cannot install the Ctrl-C handler: {e}");
    }
    flag
}

//! Nothing lost when the search does not answer its deadline: the tests
//! it validated are kept here as they come ([`Found`], fed by the
//! progress observer), and a watchdog thread writes them as the suite if
//! the search has not returned a grace period after `--timeout`, Ctrl-C or
//! SIGTERM, then ends the process. The engine stops at every run and
//! interrupts the solver, but Z3 4.8.12 does not answer the interrupt
//! while it preprocesses some very large queries (ten rounds of a block
//! cipher's table lookups: a `--timeout 10` run was still in one check
//! after ten minutes, having written nothing).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use pathwise_engine::setup::RunCoverage;
use pathwise_engine::suite::{Stats, TestCase};

/// How long a search may take to stop after it was asked to before the
/// watchdog writes what it found (the engine stops within milliseconds
/// when the solver answers the interrupt).
pub const GRACE: Duration = Duration::from_secs(2);

/// The tests validated so far, by id (a test replacing another has its id),
/// with what each covers, and the latest statistics.
#[derive(Default)]
pub struct Found {
    tests: BTreeMap<usize, (TestCase, RunCoverage)>,
    stats: Stats,
}

impl Found {
    /// Record a test the engine reported.
    pub fn add(&mut self, test: &TestCase, coverage: &RunCoverage, stats: &Stats) {
        self.tests.insert(test.id, (test.clone(), coverage.clone()));
        self.stats = stats.clone();
    }

    /// The tests in id order and the statistics.
    pub fn take(&mut self) -> (Vec<(TestCase, RunCoverage)>, Stats) {
        (std::mem::take(&mut self.tests).into_values().collect(), std::mem::take(&mut self.stats))
    }
}

/// Shared between the observer (which fills it), the watchdog and the
/// thread running the search (which says when it returned).
#[derive(Clone, Default)]
pub struct Salvage {
    pub found: Arc<Mutex<Found>>,
    /// Whether the search returned, with the watchdog's wake-up: it must
    /// end as soon as the search does (the process waits for it), not at
    /// its next look at the clock.
    returned: Arc<(Mutex<bool>, Condvar)>,
}

/// Why the watchdog wrote the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    Timeout,
    Interrupted,
}

impl Salvage {
    /// The search returned: the watchdog has nothing to do, and the copies
    /// of the tests it kept are dropped (a large suite is not held twice
    /// while it is written).
    pub fn returned(&self) {
        let (flag, wake) = &*self.returned;
        *flag.lock().unwrap_or_else(PoisonError::into_inner) = true;
        wake.notify_all();
        if let Ok(mut found) = self.found.lock() {
            found.take();
        }
    }

    fn has_returned(&self) -> bool {
        *self.returned.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until the search returns, or until it has not stopped `GRACE`
    /// after `deadline` or after `interrupted` was set; then calls `write`
    /// with what was found. Runs on its own thread.
    pub fn watch(&self, deadline: Option<Instant>, interrupted: &AtomicBool, write: impl FnOnce(Cause, &mut Found)) {
        let mut asked: Option<(Instant, Cause)> = None;
        let (flag, wake) = &*self.returned;
        loop {
            if self.has_returned() {
                return;
            }
            let now = Instant::now();
            if asked.is_none() {
                if interrupted.load(Ordering::SeqCst) {
                    asked = Some((now, Cause::Interrupted));
                } else if let Some(d) = deadline.filter(|&d| now >= d) {
                    asked = Some((d, Cause::Timeout));
                }
            }
            if let Some((at, cause)) = asked {
                if now >= at + GRACE {
                    let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
                    if !self.has_returned() {
                        write(cause, &mut found);
                    }
                    return;
                }
            }
            // Signals and the deadline are looked at every 50 ms; the
            // search's return wakes the watchdog at once.
            let returned = flag.lock().unwrap_or_else(PoisonError::into_inner);
            if !*returned {
                drop(wake.wait_timeout(returned, Duration::from_millis(50)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watchdog_writes_after_the_grace_unless_the_search_returned() {
        let s = Salvage::default();
        let flag = AtomicBool::new(false);
        let start = Instant::now();
        let mut cause = None;
        s.watch(Some(start), &flag, |c, _| cause = Some(c));
        assert_eq!(cause, Some(Cause::Timeout));
        assert!(start.elapsed() >= GRACE);
        s.returned();
        let mut called = false;
        flag.store(true, Ordering::SeqCst);
        s.watch(None, &flag, |_, _| called = true);
        assert!(!called);
    }
}

//! The process exit codes of `pathwise`, in one place so that `main.rs`,
//! `gen`, `replay` and `testcomp` agree with the table in the README (and the guide's
//! gen-options chapter) and `pathwise --help`.
//!
//! A CI job must tell apart a run that finished, one a limit or a signal
//! cut short (its suite is partial, though written), and one that never
//! started (bad input): each has its own code. Where several apply to one
//! `gen` run, an error test under `--fail-on errors` wins (it is a finding,
//! whatever stopped the search), then a signal, then a limit.

use pathwise_engine::suite::{Outcome, StopReason, TestSuite};

/// The search ended by itself (complete, or every prefix tried): the suite
/// is written. `replay`: every test passed and coverage agrees.
pub const COMPLETE: i32 = 0;
/// `replay`: a test failed or coverage disagrees; `gen --method vc`: a
/// valuation did not replay along its path.
pub const FAILED: i32 = 1;
/// Bad input: usage, an unreadable FILE, unsupported C, an unwritable
/// `--out`, a missing tool. Nothing was written. clap uses 2 for usage
/// errors too.
pub const BAD_INPUT: i32 = 2;
/// An internal error (a bug in Pathwise).
pub const INTERNAL: i32 = 3;
/// `replay`: the suites hold no test at all.
pub const NOTHING_TO_REPLAY: i32 = 4;
/// `gen`: stopped by a limit (`--timeout`, `--max-tests`, a trace limit);
/// the tests found were written.
pub const LIMIT: i32 = 5;
/// `gen --fail-on errors`: the suite has an error test (it was written).
pub const ERROR_TESTS: i32 = 6;
/// `project`: some function has no suite (unsupported C, a file that
/// does not compile, an engine error); the index gives each reason, and
/// the other functions' suites are written. Wins over [`LIMIT`].
pub const FUNCTIONS_FAILED: i32 = 7;
/// Stopped by a signal (SIGINT, SIGTERM, SIGHUP); the tests found were
/// written. 128 + SIGINT, as shells report a Ctrl-C: the handler cannot
/// tell the three signals apart. A second Ctrl-C exits with it at once.
pub const SIGNAL: i32 = 130;

/// The `after_help` table of `pathwise --help` (the README has the same).
pub const HELP: &str = "Exit codes:
  0    complete: the search ended by itself, suite written (replay: all passed, coverage agrees)
  1    replay: a test failed or coverage disagrees
  2    bad input: usage, unreadable FILE, unsupported C, unwritable --out, missing tool
  3    internal error (a bug in Pathwise: please report it)
  4    replay: no test to replay
  5    stopped by a limit (--timeout, --max-tests); the tests found are written
  6    --fail-on errors: the suite has an error test
  7    project: some function failed (reasons in OUT/index.json); the others' suites are written
  130  stopped by a signal (Ctrl-C, SIGTERM, SIGHUP); the tests found are written
  stdout closed (`| head`): killed by SIGPIPE (a shell shows 141), after the files are written";

/// What `--fail-on` makes a non-zero exit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// The suite has an error test.
    Errors,
}

/// The exit code of a `gen` run whose suite was written.
pub fn for_suite(suite: &TestSuite, fail_on: Option<FailOn>) -> i32 {
    let has_error = suite.tests.iter().any(|t| matches!(t.outcome, Outcome::Error(_)));
    for_stop(&suite.stop, fail_on == Some(FailOn::Errors) && has_error)
}

/// The exit code for a stop reason, `error_found` meaning `--fail-on
/// errors` found an error test.
pub fn for_stop(stop: &StopReason, error_found: bool) -> i32 {
    match stop {
        _ if error_found => ERROR_TESTS,
        StopReason::Interrupted => SIGNAL,
        StopReason::Timeout | StopReason::Limit(_) => LIMIT,
        StopReason::Complete | StopReason::Explored | StopReason::ErrorCallReached | StopReason::TargetsReached => {
            COMPLETE
        }
    }
}

/// Writing to a closed stdout (`pathwise gen --json | head -1`) is not a
/// bug: restore the default action of SIGPIPE, which Rust's runtime
/// ignores (then `println!` panics on EPIPE), so that the process ends
/// quietly as shell tools do. Every command writes its files before it
/// prints, so nothing is lost.
pub fn die_quietly_on_closed_stdout() {
    // SAFETY: resetting a signal's disposition to its default, before any
    // thread is started; no handler runs Rust code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_ordered_by_precedence() {
        let all =
            [COMPLETE, FAILED, BAD_INPUT, INTERNAL, NOTHING_TO_REPLAY, LIMIT, ERROR_TESTS, FUNCTIONS_FAILED, SIGNAL];
        let set: std::collections::BTreeSet<_> = all.iter().collect();
        assert_eq!(set.len(), all.len());
        assert_eq!(for_stop(&StopReason::Complete, false), COMPLETE);
        assert_eq!(for_stop(&StopReason::Timeout, false), LIMIT);
        assert_eq!(for_stop(&StopReason::Limit("10 tests".into()), false), LIMIT);
        assert_eq!(for_stop(&StopReason::Interrupted, false), SIGNAL);
        assert_eq!(for_stop(&StopReason::Interrupted, true), ERROR_TESTS);
        for code in all {
            assert!(HELP.contains(&format!("\n  {code} ")), "{code} is not in the help");
        }
    }
}

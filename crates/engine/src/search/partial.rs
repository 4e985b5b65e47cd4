//! Partial traces as input (`gen --trace`, seed 003 ch. 4.4, Definition
//! 4.4.1 with a partial trace): the tests of every path within the bound
//! whose own decisions match the pattern ([`crate::trace_pattern`]), its
//! callees' paths left free.
//!
//! The k-path search runs as usual with the function's concrete decisions
//! recorded (as for all-local-paths), except that it negates an entry
//! only when the function's decisions before it (with its own other side,
//! when it is one of them) are still a viable prefix of the pattern: a
//! subtree no word of the pattern reaches is never solved. Callee entries
//! under a viable prefix are negated as usual, so every combination of
//! callee paths under the trace is found (Example 17: whether each `add`
//! reallocates). Holding error checks are not negated: a run ending in an
//! error cannot complete the trace. A test is kept only when its
//! decisions match the whole pattern.

use super::Search;
use crate::path::{Entry, EntryKind};
use crate::run::RunRecord;
use crate::trace_pattern::{Decision, TracePattern};

/// The partial-trace state of a search.
pub(super) struct PartialState {
    pattern: TracePattern,
    /// Runs that became tests of other paths (left out).
    pub left_out: u64,
}

impl PartialState {
    pub(super) fn new(pattern: TracePattern) -> Self {
        PartialState { pattern, left_out: 0 }
    }

    pub(super) fn report(&self, tests: usize) -> crate::suite::PartialReport {
        crate::suite::PartialReport { pattern: self.pattern.text.clone(), tests, left_out: self.left_out }
    }
}

/// The function's own decision an entry records, if it is one.
fn own_decision(e: &Entry) -> Option<Decision> {
    match e.kind {
        EntryKind::Decision { taken, .. } if e.local => Some((e.loc.line, e.loc.col, taken)),
        _ => None,
    }
}

impl Search<'_, '_> {
    /// Under a partial trace (`None` otherwise): whether the search leaves
    /// entry `j` of `run` alone (see the module doc).
    pub(super) fn partial_skips(&self, run: &RunRecord, j: usize) -> Option<bool> {
        let p = &self.goal.partial.as_ref()?.pattern;
        let entries = &run.main_entries;
        if super::is_error_check(&entries[j]) {
            return Some(true);
        }
        let before = p.run(entries[..j].iter().filter_map(own_decision));
        Some(match own_decision(&entries[j]) {
            _ if before.is_empty() => true,
            Some((line, col, taken)) => p.step(&before, (line, col, !taken)).is_empty(),
            None => false,
        })
    }

    /// Under a partial trace (`None` otherwise): whether the test of
    /// `run` follows it.
    pub(super) fn partial_accept(&mut self, run: &RunRecord) -> Option<bool> {
        let state = self.goal.partial.as_mut()?;
        let end = state.pattern.run(run.main_entries.iter().filter_map(own_decision));
        let follows = state.pattern.accepts(&end);
        if !follows {
            state.left_out += 1;
        }
        Some(follows)
    }
}

//! `gen --criterion all-local-paths` (seed 003, ch. 5.3.1, Definition
//! 5.3.1's slicing): every path of the function under test's own CFG
//! within the k-path bound, with its callees' paths left free.
//!
//! The k-path search runs as usual, except that it negates only the
//! entries the function under test records itself ([`Entry::local`]: its
//! outermost activation's decisions and checks, not those of its callees,
//! of its nested recursive activations or of modelled library loops).
//! Callee entries stay in the path condition of the prefixes solved, so
//! each run's callees follow the path they took. A test is kept only when
//! its sequence of local entries is new (one test per local path; the
//! depth-first order already makes them distinct, this is the guarantee).
//!
//! The thesis's traces leave the callees' traces as free variables, so a
//! local prefix refuted while callee entries constrained it is not
//! infeasible yet: it is recorded, and the callee entries before it (with
//! the same local prefix) are then negated, one callee path after another,
//! until some run reaches it. A local entry whose other side some run
//! already took after the same local prefix is not negated again.
//!
//! A refuted local prefix never reached is infeasible within the bound
//! when the search ends complete: in every run with its local prefix, the
//! refuted decision is the deepest local entry before the callee entries
//! preceding it are considered (depth-first), so the prefix is recorded
//! before them and each of them is then negated, in that run and in every
//! run their negation gives: the callee paths under the local prefix are
//! enumerated exhaustively (within the bound), and the decision was
//! refuted along each. An undecided prefix anywhere voids the claim (the
//! stop is then `explored`).

use rustc_hash::FxHashSet;

use super::Search;
use crate::path::{Entry, EntryKind};
use crate::run::RunRecord;
use crate::suite::LocalReport;
use pathwise_ir::Loc;

/// A local path, or a prefix of one: local entries' decisions, in order.
type LocalPath = Vec<(EntryKind, Loc)>;

/// The all-local-paths state of a search.
#[derive(Default)]
pub(super) struct LocalState {
    /// The local paths of the kept tests.
    seen: FxHashSet<LocalPath>,
    /// Every prefix of the local path of every run.
    reached: FxHashSet<LocalPath>,
    /// Local prefixes refuted along the callee paths of some run.
    refuted: FxHashSet<LocalPath>,
    duplicates: u64,
}

impl LocalState {
    /// The refuted local prefixes no run has reached since.
    fn open(&self) -> impl Iterator<Item = &LocalPath> {
        self.refuted.iter().filter(|g| !self.reached.contains(*g))
    }

    pub(super) fn report(&self, kept: usize) -> LocalReport {
        let open: FxHashSet<&LocalPath> = self.open().collect();
        LocalReport { local_paths: kept, duplicates: self.duplicates, refuted_through_callees: open.len() as u64 }
    }
}

/// The local path of `entries`.
fn local_path(entries: &[Entry]) -> LocalPath {
    entries.iter().filter(|e| e.local).map(|e| (e.kind, e.loc)).collect()
}

/// The local prefix that negating `entries[j]` aims at.
fn target(entries: &[Entry], j: usize) -> LocalPath {
    let mut t = local_path(&entries[..j]);
    t.push((entries[j].kind.flipped(), entries[j].loc));
    t
}

impl Search<'_, '_> {
    /// Whether the search leaves entry `j` of `run` alone: under
    /// all-local-paths, a local entry whose other side some run already
    /// took after the same local prefix, or a callee entry when no refuted
    /// local prefix extends the local prefix before it (another path of
    /// the callees is worth trying only to reach one).
    pub(super) fn local_skips(&self, run: &RunRecord, j: usize) -> bool {
        if let Some(skip) = self.partial_skips(run, j) {
            return skip;
        }
        let Some(local) = &self.goal.local else { return false };
        let entries = &run.main_entries;
        if entries[j].local {
            return local.reached.contains(&target(entries, j));
        }
        let before = local_path(&entries[..j]);
        !local.open().any(|g| g.len() > before.len() && g.starts_with(&before))
    }

    /// Record the local prefixes `run` reaches, and as refuted the other
    /// side of each concrete local decision taken after a callee entry (a
    /// callee's result may decide it: other callee paths are tried).
    pub(super) fn local_reached(&mut self, run: &RunRecord) {
        let Some(local) = self.goal.local.as_mut() else { return };
        let entries = &run.main_entries;
        let first_callee = entries.iter().position(|e| !e.local).unwrap_or(entries.len());
        for (j, e) in entries.iter().enumerate().skip(first_callee) {
            if e.local && !e.negatable && matches!(e.kind, EntryKind::Decision { .. }) {
                local.refuted.insert(target(entries, j));
            }
        }
        let path = local_path(entries);
        for n in 1..=path.len() {
            local.reached.insert(path[..n].to_vec());
        }
    }

    /// Whether a test whose symbolic run is `run` takes a new local path
    /// (always true for other criteria; under a partial trace: whether it
    /// follows it); if so it is recorded.
    pub(super) fn local_accept(&mut self, run: &RunRecord) -> bool {
        if let Some(follows) = self.partial_accept(run) {
            return follows;
        }
        let Some(local) = self.goal.local.as_mut() else { return true };
        if local.seen.insert(local_path(&run.main_entries)) {
            true
        } else {
            local.duplicates += 1;
            false
        }
    }

    /// Note that the prefix of `run` negating entry `j` was refuted: when
    /// `j` is local and callee entries constrained the prefix, another
    /// path of the callees may still reach it.
    pub(super) fn local_refuted(&mut self, run: &RunRecord, j: usize) {
        let Some(local) = self.goal.local.as_mut() else { return };
        let entries = &run.main_entries;
        if entries[j].local && entries[..j].iter().any(|e| !e.local) {
            local.refuted.insert(target(entries, j));
        }
    }
}

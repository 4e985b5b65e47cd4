//! Reusing the precondition's valid paths.
//!
//! When a prefix of the function under test conflicts with the current
//! run's precondition path, [`Search::find_valid`] searches the
//! precondition's paths depth-first. The precondition's own paths are not
//! bounded by k, and on recursive input structures (an AVL tree checked
//! node by node) that search dives into ever larger heaps before trying the
//! small one the prefix needs. But a prefix usually needs an input of a
//! shape some earlier valid run already had, with other values: so each
//! valid precondition path is kept (its path condition guarantees validity,
//! as every path condition is exact), and the conflicting prefix is first
//! solved together with each of them, newest first. Only when none admits
//! the prefix does the depth-first search run; it then stays complete.

use pathwise_expr::{ExprId, Model, SolveResult};

use super::{merge, Search};
use crate::run::RunRecord;

/// At most this many valid precondition paths are kept (the newest).
const KEPT: usize = 16;

impl Search<'_, '_> {
    /// Keep the precondition path of a valid run.
    pub(super) fn note_valid_pre(&mut self, run: &RunRecord) {
        if run.pre_entries.is_empty() {
            return;
        }
        let conds: Vec<ExprId> = run.pre_entries.iter().map(|e| e.cond).collect();
        if let Some(i) = self.valid_pres.iter().position(|p| *p == conds) {
            let p = self.valid_pres.remove(i);
            self.valid_pres.push(p);
            return;
        }
        if self.valid_pres.len() == KEPT {
            self.valid_pres.remove(0);
        }
        self.valid_pres.push(conds);
    }

    /// Solve `base` (whose last conjunct is `neg`) with each kept valid
    /// precondition path; the first run that is valid and follows is the
    /// answer.
    pub(super) fn reuse_valid_pre(
        &mut self,
        base: &[ExprId],
        neg: ExprId,
        inputs: &Model,
    ) -> Option<(Model, RunRecord)> {
        let kept: Vec<Vec<ExprId>> = self.valid_pres.iter().rev().cloned().collect();
        for pre in kept {
            if self.stop_reason().is_some() {
                return None;
            }
            let mut query = base.to_vec();
            query.extend(&pre);
            if let SolveResult::Sat(model) = self.check(&query, &[], &[neg], inputs) {
                let inputs = self.m.prefer_fresh(&self.pool, &query, merge(&self.pool, &query, inputs, model));
                let run = self.execute(&inputs);
                if run.pre_valid() {
                    return Some((inputs, run));
                }
            }
        }
        None
    }
}

//! The all-local-paths criterion's side of a run (seed 003, ch. 5.3.1;
//! the search's side is `search/local.rs`): the function under test's
//! decisions on concrete conditions are part of its local path, so the
//! run records them too.

use crate::path::{Entry, EntryKind};

/// The interpreter's extension for this criterion: a concrete decision of
/// the function itself is part of its local path (a callee's result may
/// decide it), recorded as an entry never negated.
pub(crate) struct LocalDecisions;

impl crate::extension::Extension for LocalDecisions {
    fn concrete_decision(
        &mut self,
        ex: &mut crate::exec::Exec<'_, '_>,
        (func, block): (pathwise_ir::FuncId, pathwise_ir::Block),
        taken: bool,
        loc: pathwise_ir::Loc,
    ) {
        let cond = ex.pool.bool_const(true);
        let (kind, step) = (EntryKind::Decision { func, block, taken }, ex.seen.path.len() as u32);
        let (region, negatable, bound_blocked, local) = (ex.region, false, false, true);
        ex.entries.push(Entry { cond, kind, region, negatable, bound_blocked, loc, step, local });
    }
}

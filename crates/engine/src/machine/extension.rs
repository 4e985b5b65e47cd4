//! The interpreter's one extension point: capabilities that observe or
//! steer a run (resource meters, hand-written summaries, the local paths
//! of seed 003, compositional summaries) implement [`Extension`] and keep
//! their state in themselves, not in fields of [`Exec`].
//!
//! The interpreter raises an event at each point an extension may care
//! about (a step, a call, a return, a load or store, a recorded entry, a
//! concrete decision, an allocation, the end of the run). Each extension
//! of a run is taken out of the interpreter while it handles an event, so
//! it gets the interpreter itself as its host; events the handler raises
//! in turn reach the other extensions only. The default methods do
//! nothing, so an extension implements only its events.
//!
//! Adding an extension: a module with a type implementing [`Extension`],
//! and one line in [`for_run`] saying in which runs it is active.

use pathwise_expr::ExprId;
use pathwise_ir::{FuncId, Loc, Type};

use crate::exec::{Exec, Machine};
use crate::path::{End, Entry, Region};
use crate::run::RunRecord;
use crate::value::{ObjId, Value};

/// A memory access the interpreter made: the object, the concrete byte
/// offset, and whether the offset is symbolic.
pub(crate) type Access = (ObjId, u64, bool);

/// A capability over the interpreter's runs (see the module doc).
pub(crate) trait Extension {
    /// Every step: one instruction or terminator is about to run.
    fn instruction(&mut self) {}

    /// After each step: whether the run is past a bound the extension
    /// keeps (the run then ends as beyond the bound).
    fn over_bound(&mut self) -> bool {
        false
    }

    /// A call of `callee` at `loc`: the function the call runs instead
    /// (`callee` when the extension does not replace it).
    fn call(&mut self, _ex: &mut Exec<'_, '_>, callee: FuncId, _loc: Loc) -> FuncId {
        callee
    }

    /// A call of a function with a body is entered with `argv`: the
    /// arguments its frame gets.
    fn enter(&mut self, _ex: &mut Exec<'_, '_>, _callee: FuncId, argv: Vec<Value>, _loc: Loc) -> Vec<Value> {
        argv
    }

    /// A frame returned `v` to its caller (the frame is popped already):
    /// the value the caller gets, or the end of the run.
    fn returned(&mut self, _ex: &mut Exec<'_, '_>, v: Option<Value>) -> Result<Option<Value>, End> {
        Ok(v)
    }

    /// A call of the function without body `name`: its value when the
    /// extension models it.
    fn builtin(&mut self, _ex: &mut Exec<'_, '_>, _name: &str, _args: &[Value]) -> Option<Value> {
        None
    }

    /// `bytes` allocated (`sym`: the size's expression when symbolic).
    fn allocation(&mut self, _bytes: u64, _sym: Option<ExprId>) {}

    /// A load at `at` read `v`: the value the program gets.
    fn load(&mut self, _ex: &mut Exec<'_, '_>, _at: Access, _ty: Type, v: Value, _loc: Loc) -> Value {
        v
    }

    /// A store of a `ty` at `at` is about to happen.
    fn store(&mut self, _ex: &mut Exec<'_, '_>, _at: Access, _ty: Type, _loc: Loc) {}

    /// A symbolic path-condition entry is about to be recorded: the entry
    /// recorded (`None` when the extension keeps it).
    fn entry(&mut self, entry: Entry) -> Option<Entry> {
        Some(entry)
    }

    /// The run's own (not a callee's, not the C library's) decision at the
    /// end of `block` took the side `taken` on a concrete condition (no
    /// entry is recorded for it).
    fn concrete_decision(
        &mut self,
        _ex: &mut Exec<'_, '_>,
        _at: (FuncId, pathwise_ir::Block),
        _taken: bool,
        _loc: Loc,
    ) {
    }

    /// A bound check whose outcome depends on symbolic values the
    /// extension introduced: `cond` says the run is within the bound
    /// (`holds`: its value in this run).
    fn bound_condition(&mut self, _ex: &mut Exec<'_, '_>, _cond: ExprId, _holds: bool, _loc: Loc) {}

    /// The run ended with `end` (the interpreter still holds its memory).
    fn end_of_run(&mut self, _ex: &mut Exec<'_, '_>, _end: &End) {}

    /// The run's record is complete but for the extension's outputs (its
    /// outcome known): the extension moves them into it.
    fn into_record(self: Box<Self>, _m: &Machine<'_>, _rec: &mut RunRecord) {}
}

/// The extensions active in a run of `region` (`symbolic`: a run that
/// records its path condition), in the order they see each event.
pub(crate) fn for_run(m: &Machine<'_>, region: Region, symbolic: bool) -> Vec<Box<dyn Extension>> {
    let main = region == Region::Main;
    let mut exts: Vec<Box<dyn Extension>> = Vec::new();
    // Always: `pathwise_case` is a built-in of every run, summaries or not.
    exts.push(Box::new(crate::handwritten::RunState::default()));
    if main {
        exts.push(Box::new(crate::meter::Meter::capped(true, &m.cost_caps)));
    }
    if main && symbolic && m.summaries.is_some() {
        exts.push(Box::new(crate::compose::RunHook::default()));
    }
    // `--criterion all-local-paths` and `--trace`: the function under
    // test's concrete decisions are part of its local path.
    let local_paths = m.config.goals.local_paths || m.config.goals.trace.is_some();
    if main && symbolic && local_paths {
        exts.push(Box::new(super::local_decisions::LocalDecisions));
    }
    #[cfg(test)]
    exts.push(Box::new(super::input_reads::InputReads::default()));
    exts
}

impl Exec<'_, '_> {
    /// Raise an event: `f` runs for each extension in turn, with the
    /// interpreter as host, until one returns `Some`.
    pub(crate) fn extensions<T>(&mut self, mut f: impl FnMut(&mut dyn Extension, &mut Self) -> Option<T>) -> Option<T> {
        for i in 0..self.exts.len() {
            // The extension handling the event is out of its slot: events
            // it raises reach the others only.
            let Some(mut e) = self.exts[i].take() else { continue };
            let out = f(e.as_mut(), self);
            self.exts[i] = Some(e);
            if out.is_some() {
                return out;
            }
        }
        None
    }

    /// The run's extensions, taken out at its end.
    pub(crate) fn take_extensions(&mut self) -> Vec<Box<dyn Extension>> {
        std::mem::take(&mut self.exts).into_iter().flatten().collect()
    }
}

//! The meter of one run: the resources the function under test's
//! execution used (instructions, calls per callee, allocations), an
//! interpreter extension (see [`crate::extension`]) whose count moves into
//! the run's record; the cost models, policies and caps it is read by are
//! in [`crate::cost`].

use pathwise_expr::{BvOp, ExprId, ExprPool};
use pathwise_ir::FuncId;

use crate::cost::{CostCap, CostModel};

/// The resources one execution used, bumped by the interpreter's hooks.
/// Inactive meters (the precondition's execution) count nothing.
#[derive(Clone, Debug, Default)]
pub struct Meter {
    active: bool,
    /// See [`CostCap`]; `over` says that one was passed.
    caps: Vec<CostCap>,
    over: bool,
    instructions: u64,
    /// Calls per callee, in first-call order (few distinct callees).
    calls: Vec<(String, u64)>,
    /// Each allocation: its bytes in this run and, when the size depends
    /// on the inputs, its 64-bit expression.
    allocations: Vec<(u64, Option<ExprId>)>,
}

impl Meter {
    /// A meter that counts (`active`) or ignores everything.
    pub fn new(active: bool) -> Meter {
        Meter { active, ..Meter::default() }
    }

    /// An active meter that notes when the path-fixed cost passes a cap.
    pub fn capped(active: bool, caps: &[CostCap]) -> Meter {
        Meter { active, caps: if active { caps.to_vec() } else { Vec::new() }, ..Meter::default() }
    }

    /// Hook, after each step: whether the path-fixed cost passed a cap
    /// (the interpreter then ends the run: no path through it can meet
    /// the threshold). Stays true once true.
    pub fn over_cap(&mut self) -> bool {
        if !self.over && !self.caps.is_empty() {
            self.over = self.caps.iter().any(|c| self.fixed_part(&c.model) > c.max);
        }
        self.over
    }

    /// Whether the run was cut at a cap (see [`Meter::over_cap`]).
    pub fn was_capped(&self) -> bool {
        self.over
    }

    /// The part of the cost under `model` that every input following the
    /// path so far pays.
    fn fixed_part(&self, model: &CostModel) -> u64 {
        match model {
            CostModel::Memory => self.allocations.iter().filter(|a| a.1.is_none()).map(|a| a.0).sum(),
            m => self.concrete(m),
        }
    }

    /// Hook: one IR instruction or terminator executed.
    pub fn note_instruction(&mut self) {
        if self.active {
            self.instructions += 1;
        }
    }

    /// Hook: a call of `name` executed.
    pub fn note_call(&mut self, name: &str) {
        // The engine's own built-ins (assumptions, the front end's checks)
        // are not calls of the program.
        if !self.active || name.starts_with("pathwise_") || name.starts_with("__pathwise") {
            return;
        }
        match self.calls.iter_mut().find(|(n, _)| n == name) {
            Some((_, c)) => *c += 1,
            None => self.calls.push((name.to_string(), 1)),
        }
    }

    /// Hook: `bytes` allocated (`sym`: the size's expression when symbolic).
    pub fn note_allocation(&mut self, bytes: u64, sym: Option<ExprId>) {
        if self.active {
            self.allocations.push((bytes, sym));
        }
    }

    /// The concrete cost under `model`.
    pub fn concrete(&self, model: &CostModel) -> u64 {
        match model {
            CostModel::Instructions => self.instructions,
            CostModel::Memory => self.allocations.iter().map(|a| a.0).sum(),
            CostModel::Calls(None) => self.calls.iter().map(|c| c.1).sum(),
            CostModel::Calls(Some(f)) => self.calls.iter().find(|c| &c.0 == f).map_or(0, |c| c.1),
        }
    }

    /// The cost under `model` as a 64-bit expression over the inputs,
    /// when it depends on them (memory with a symbolic allocation size).
    pub fn symbolic(&self, pool: &mut ExprPool, model: &CostModel) -> Option<ExprId> {
        if *model != CostModel::Memory || self.allocations.iter().all(|a| a.1.is_none()) {
            return None;
        }
        let mut sum = pool.bv_const(64, 0);
        for &(bytes, sym) in &self.allocations {
            let term = sym.unwrap_or_else(|| pool.bv_const(64, bytes));
            sum = pool.bin(BvOp::Add, sum, term);
        }
        Some(sum)
    }
}

/// The meter counts the function under test's run (registered for it in
/// [`crate::extension::for_run`]) and moves into the run's record.
impl crate::extension::Extension for Meter {
    fn instruction(&mut self) {
        self.note_instruction();
    }

    fn over_bound(&mut self) -> bool {
        self.over_cap()
    }

    fn call(&mut self, ex: &mut crate::exec::Exec<'_, '_>, callee: FuncId, _loc: pathwise_ir::Loc) -> FuncId {
        self.note_call(&ex.m.program.func(callee).name);
        callee
    }

    fn allocation(&mut self, bytes: u64, sym: Option<ExprId>) {
        self.note_allocation(bytes, sym);
    }

    fn into_record(self: Box<Self>, _m: &crate::exec::Machine<'_>, rec: &mut crate::run::RunRecord) {
        rec.cost = *self;
    }
}

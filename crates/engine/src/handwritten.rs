//! Hand-written summaries (seed 003, section 3.2.5: native code gets a
//! summary written by hand; `gen --summary FILE.c`).
//!
//! A summary of function `F` is a C function `pathwise_summary_F` with `F`'s
//! signature, in a file the front end reads after the unit (so it uses the
//! unit's types). Its body states cases of precondition and effect:
//! `if (pathwise_case(pre)) { effect; return r; }`. Every call of `F` in a
//! run (by name, from any function but `F` itself as the function under
//! test) executes the summary instead of `F`'s body, or in place of a body
//! `F` does not have: the summary's branches are the search's decisions, so
//! its cases split the caller's paths as `F`'s own paths would. A summary
//! that returns without any case holding ends the run: the call's
//! arguments satisfy no case (reported at the call, not a test, since what
//! the real `F` does there is unknown).
//!
//! The engine sees only this narrow interface: [`Table`] (which functions
//! are summarised, computed from the program), [`enter`] and [`leave`]
//! (the call path), [`case`] (the `pathwise_case` built-in) and
//! [`RunState`] (the summary activations of one run). The emitted tests
//! call the real functions, so a real `F` that violates its summary makes
//! their checks fail natively.

use pathwise_ir::{FuncId, InstKind, Loc, Program};
use rustc_hash::FxHashMap;

use crate::exec::Exec;
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::Value;

/// The name prefix of a hand-written summary: `pathwise_summary_F` summarises `F`.
pub const PREFIX: &str = "pathwise_summary_";

/// The built-in that opens a case.
pub const CASE: &str = "pathwise_case";

/// The name of the summary of `f`.
pub fn summary_name(f: &str) -> String {
    format!("{PREFIX}{f}")
}

/// The hand-written summaries of a program, by summarised function.
#[derive(Clone, Debug, Default)]
pub struct Table {
    by_callee: FxHashMap<FuncId, FuncId>,
}

impl Table {
    /// Every defined `pathwise_summary_F` for which the program has an `F`
    /// (defined or only declared). The CLI checks signatures and reports
    /// summaries of unknown functions before a search starts.
    pub fn of(program: &Program) -> Table {
        let mut by_callee = FxHashMap::default();
        let by_name: FxHashMap<&str, FuncId> =
            program.funcs.iter().enumerate().map(|(i, f)| (f.name.as_str(), FuncId(i as u32))).collect();
        for (i, f) in program.funcs.iter().enumerate() {
            let Some(target) = f.name.strip_prefix(PREFIX) else { continue };
            if f.is_declaration() {
                continue;
            }
            if let Some(&callee) = by_name.get(target) {
                by_callee.insert(callee, FuncId(i as u32));
            }
        }
        Table { by_callee }
    }

    /// The summary run in place of `f`, if it has one.
    pub fn summary_of(&self, f: FuncId) -> Option<FuncId> {
        self.by_callee.get(&f).copied()
    }

    /// Whether `f` has a hand-written summary.
    pub fn is_summarised(&self, f: FuncId) -> bool {
        self.by_callee.contains_key(&f)
    }

    pub fn is_empty(&self) -> bool {
        self.by_callee.is_empty()
    }
}

/// The locations of a summary's cases: its `pathwise_case` calls, in block
/// order. A test's case is the first of them whose branch its path took.
pub fn case_sites(program: &Program, summary: FuncId) -> Vec<Loc> {
    let mut sites = Vec::new();
    for b in &program.func(summary).blocks {
        for inst in &b.insts {
            if let InstKind::Call { func, .. } = &inst.kind {
                if program.func(*func).name == CASE && !sites.contains(&inst.loc) {
                    sites.push(inst.loc);
                }
            }
        }
    }
    sites
}

/// The functions `main` reaches through calls that run code of the unit:
/// the call graph without the calls of summarised functions (their
/// summaries ran instead, and what the real ones call natively is not
/// predicted). In id order, as [`pathwise_ir::analysis::CallGraph::reachable_from`].
pub fn reachable(program: &Program, callgraph: &pathwise_ir::analysis::CallGraph, main: FuncId) -> Vec<FuncId> {
    let table = Table::of(program);
    let mut seen = vec![false; program.funcs.len()];
    let mut stack = vec![main];
    seen[main.0 as usize] = true;
    while let Some(f) = stack.pop() {
        for c in callgraph.callees(f) {
            if !seen[c.0 as usize] && !table.is_summarised(c) {
                seen[c.0 as usize] = true;
                stack.push(c);
            }
        }
    }
    (0..seen.len()).filter(|&i| seen[i]).map(|i| FuncId(i as u32)).collect()
}

pub use pathwise_suite::NoCaseReport as Report;

/// One summary activation of a run.
#[derive(Clone, Debug)]
struct Active {
    /// The caller's frame depth: the summary's frame is the one above.
    depth: usize,
    callee: FuncId,
    call: Loc,
    /// Some `pathwise_case` held in this activation.
    matched: bool,
}

/// The summary activations of one run, innermost last.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunState {
    active: Vec<Active>,
    /// The call (and summarised function) whose arguments satisfied no case,
    /// when that ended the run.
    pub no_case: Option<(Loc, FuncId)>,
}

impl crate::extension::Extension for RunState {
    /// The function a call of `callee` at `loc` runs: its summary when it
    /// has one (the activation is then tracked until it returns).
    fn call(&mut self, ex: &mut Exec<'_, '_>, callee: FuncId, loc: Loc) -> FuncId {
        let Some(summary) = ex.m.handwritten.summary_of(callee) else { return callee };
        let depth = ex.frames.len();
        self.active.push(Active { depth, callee, call: loc, matched: false });
        summary
    }

    /// After a frame returned: when it was a summary's, the call ends the
    /// run unless one of its cases held.
    fn returned(&mut self, ex: &mut Exec<'_, '_>, v: Option<Value>) -> Result<Option<Value>, End> {
        match self.active.last() {
            Some(a) if a.depth == ex.frames.len() => {}
            _ => return Ok(v),
        }
        let a = self.active.pop().expect("checked above");
        if a.matched {
            return Ok(v);
        }
        let program = ex.m.program;
        let callee = program.func(a.callee);
        let summary = ex.m.handwritten.summary_of(a.callee).map(|s| program.func(s).loc).unwrap_or(Loc::NONE);
        self.no_case = Some((a.call, a.callee));
        let message = format!(
            "the arguments of this call of `{}` satisfy no case of its hand-written summary ({})",
            callee.name,
            program.describe_loc(summary)
        );
        Err(ex.error(ErrorKind::Unsupported, message, a.call))
    }

    fn builtin(&mut self, ex: &mut Exec<'_, '_>, name: &str, args: &[Value]) -> Option<Value> {
        (name == CASE).then(|| self.case(ex, args))
    }

    fn into_record(self: Box<Self>, _m: &crate::exec::Machine<'_>, rec: &mut crate::run::RunRecord) {
        rec.no_case = self.no_case;
    }
}

/// `pathwise_case(cond)`: `cond != 0` as an `int`, symbolic when `cond` is;
/// when it holds, the innermost summary activation has a case.
impl RunState {
    fn case(&mut self, ex: &mut Exec<'_, '_>, args: &[Value]) -> Value {
        let c = args.first().copied().unwrap_or(Value::int(0));
        let holds = c.conc() & 0xffff_ffff != 0;
        if holds {
            if let Some(a) = self.active.last_mut() {
                a.matched = true;
            }
        }
        let e = crate::value::bv_of(ex.pool, c.conc(), c.sym(), 32);
        let zero = ex.pool.bv_const(32, 0);
        let is_zero = ex.pool.eq(e, zero);
        let cond = ex.pool.not(is_zero);
        let one = ex.pool.bv_const(32, 1);
        let sym = ex.pool.ite(cond, one, zero);
        Value::Int { conc: u64::from(holds), sym: crate::value::non_const(ex.pool, sym) }
    }
}

//! Compositional generation, top-down and on demand (SMART, seed 004,
//! section 3; `gen --compositional`).
//!
//! A *summarisable* function (integer parameters and result, no memory
//! the caller can see read or written: see [`summarisable`]) called with a
//! symbolic argument is run against per-call *formal* variables. The first
//! call of it in a run is **explored**: its decisions are the caller's
//! (negatable by the search, tied to the arguments by `formal == argument`
//! assumptions), so the depth-first search enumerates its paths in the
//! context of that call, as SMART's backtracking inside `f` does. Every
//! later call is **composed**: the callee still runs concretely (tests
//! replay exactly), but its path condition is captured here instead of
//! entering the run's, and its result becomes a fresh variable constrained
//! by the summary:
//!
//! `∨_i (pre_i(args) ∧ ret == post_i(args))  ∨  ¬∨_i pre_i(args)`
//!
//! Each explored or composed execution adds its path as a case (`pre`: its
//! path condition over the canonical formals `sum:f.i`; `post`: the result
//! over them). The last disjunct is the part of the callee's input space no
//! case covers yet: there the result is unconstrained, so a caller's
//! decision that needs a result no known case gives is solved by inputs
//! outside the known cases, and running them explores the callee further
//! (SMART's directed search). Such a run may not follow the solved prefix;
//! the search then solves the prefix again against the grown summary
//! ([`Summaries::generation`]). Once the cases cover every input, the last
//! disjunct is unsatisfiable and the summary is exact; the report says
//! whether each summary is complete in that sense.
//!
//! Composition entries are plain non-negatable assumptions; the search
//! rebuilds them from the current summary before solving
//! ([`Summaries::refresh`]), so prefixes always see every case known.

use std::collections::BTreeMap;

use pathwise_expr::{Expr, ExprId, ExprPool, Sort};
use pathwise_ir::{FuncId, InstKind, Operand, Program, Type};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::exec::Exec;
use crate::path::{EntryKind, Region};
use crate::value::Value;

/// A function's summary: the paths of it seen so far.
struct Summary {
    /// The canonical formals `sum:f.i`, one per parameter.
    formals: Vec<ExprId>,
    cases: Vec<Case>,
    seen: FxHashSet<(Vec<ExprId>, Option<ExprId>)>,
}

/// One path of a callee: its path condition and its result, over the
/// canonical formals.
struct Case {
    pre: Vec<ExprId>,
    /// `None`: the path ends the run (an error, the k bound), SMART's
    /// `post = false`: no result, and no longer an unknown input.
    post: Option<ExprId>,
}

/// One composed call of a run: what its composition entry is built from.
#[derive(Clone)]
struct Instance {
    func: FuncId,
    args: Vec<ExprId>,
    ret: ExprId,
}

/// The summaries of a search (shared by its runs through
/// [`crate::exec::Machine::summaries`]).
#[derive(Default)]
pub struct Summaries {
    funcs: BTreeMap<FuncId, Summary>,
    /// Whether each function may be summarised (memo of [`summarisable`]).
    verdicts: FxHashMap<FuncId, Result<(), String>>,
    /// Composition entries by condition, so they can be rebuilt.
    instances: FxHashMap<ExprId, Instance>,
    /// Calls composed from a summary instead of being explored.
    pub reused: u64,
    /// Bumped whenever a case is added.
    pub generation: u64,
}

/// The open summarised call of a run (calls nested in it are part of its
/// path, so only the outermost one is tracked).
struct Active {
    func: FuncId,
    /// `frames.len()` while the callee's own frame is the top one.
    depth: usize,
    n: u32,
    /// This call's formals (`sum:f#n.i`) and its arguments' expressions.
    formals: Vec<ExprId>,
    args: Vec<ExprId>,
    /// `Some`: composed, with the captured path condition; `None`:
    /// explored, its entries from `start` on in the run's.
    captured: Option<Vec<ExprId>>,
    start: usize,
}

/// Per-run state of the hook (only in symbolic runs of the function under
/// test, with `--compositional`).
#[derive(Default)]
pub(crate) struct RunHook {
    /// Summarised calls so far in this run, per function.
    calls: FxHashMap<FuncId, u32>,
    active: Option<Active>,
}

impl RunHook {
    /// Takes the entry when a composed call is open (its path condition is
    /// the summary's, not the caller's).
    pub(crate) fn capture(&mut self, cond: ExprId) -> bool {
        match self.active.as_mut().and_then(|a| a.captured.as_mut()) {
            Some(c) => {
                c.push(cond);
                true
            }
            None => false,
        }
    }
}

/// The call hook: called before `callee`'s frame is pushed. Returns the
/// arguments the callee's frame gets (formals in place of symbolic values
/// when the call is summarised).
pub(crate) fn enter(exec: &mut Exec<'_, '_>, callee: FuncId, argv: Vec<Value>) -> Vec<Value> {
    let Some(cell) = exec.m.summaries.as_ref() else { return argv };
    let open = exec.compose.as_ref().is_none_or(|h| h.active.is_some());
    if open || exec.region != Region::Main || !argv.iter().any(|v| v.sym().is_some()) {
        return argv;
    }
    let program = exec.m.program;
    if cell.borrow_mut().verdict(program, callee).is_err() {
        return argv;
    }
    let f = program.func(callee);
    let hook = exec.compose.as_mut().expect("checked above");
    let n = *hook.calls.entry(callee).and_modify(|n| *n += 1).or_insert(0);
    let mut formals = Vec::new();
    let mut args = Vec::new();
    let mut values = Vec::new();
    for (p, v) in f.params.iter().zip(&argv) {
        let w = p.ty.bits();
        let formal = exec.pool.var(&format!("sum:{}#{n}.{}", f.name, formals.len()), Sort::Bv(w));
        args.push(crate::value::bv_of(exec.pool, v.conc(), v.sym(), w));
        formals.push(formal);
        values.push(Value::Int { conc: v.conc() & p.ty.mask(), sym: Some(formal) });
    }
    let explored = n == 0;
    if explored {
        // The explored call's decisions are the caller's: tie its formals
        // to the arguments.
        for (&formal, &arg) in formals.iter().zip(&args) {
            let tie = exec.pool.eq(formal, arg);
            exec.record(tie, EntryKind::Assume, false, false, f.loc);
        }
    }
    let start = exec.entries.len();
    let captured = (!explored).then(Vec::new);
    let depth = exec.frames.len() + 1;
    let hook = exec.compose.as_mut().expect("checked above");
    hook.active = Some(Active { func: callee, depth, n, formals, args, captured, start });
    values
}

/// The return hook: called after a frame is popped with its result `v`.
/// Records the path of a summarised call and, for a composed one, returns
/// the fresh result variable in place of `v`.
pub(crate) fn leave(exec: &mut Exec<'_, '_>, v: Option<Value>) -> Option<Value> {
    let Some(hook) = exec.compose.as_mut() else { return v };
    if hook.active.as_ref().is_none_or(|a| a.depth != exec.frames.len() + 1) {
        return v;
    }
    let a = hook.active.take().expect("checked above");
    let (Some(cell), Some(v)) = (exec.m.summaries.as_ref(), v) else { return v };
    let f = exec.m.program.func(a.func);
    let width = f.ret.map_or(32, |t| t.bits());
    let post = crate::value::bv_of(exec.pool, v.conc(), v.sym(), width);
    let pre = path_of(exec, &a);
    let mut sums = cell.borrow_mut();
    sums.add_case(exec.pool, a.func, &a.formals, (&pre, Some(post)));
    if a.captured.is_none() {
        return Some(v);
    }
    sums.reused += 1;
    let ret = exec.pool.var(&format!("sum:{}#{}.ret", f.name, a.n), Sort::Bv(width));
    let inst = Instance { func: a.func, args: a.args, ret };
    let cond = sums.compose(exec.pool, &inst);
    sums.instances.insert(cond, inst);
    drop(sums);
    exec.record(cond, EntryKind::Assume, false, false, f.loc);
    Some(Value::Int { conc: v.conc(), sym: Some(ret) })
}

/// The path condition of the summarised call `a` so far.
fn path_of(exec: &Exec<'_, '_>, a: &Active) -> Vec<ExprId> {
    match &a.captured {
        Some(c) => c.clone(),
        None => exec.entries[a.start..].iter().filter(|e| e.region == Region::Main).map(|e| e.cond).collect(),
    }
}

/// The end-of-run hook: a run that ended inside a summarised call (an
/// error, the k bound) adds that path as a case without result, so that
/// composed calls no longer count its inputs as unknown.
pub(crate) fn finish(exec: &mut Exec<'_, '_>) {
    let Some(a) = exec.compose.as_mut().and_then(|h| h.active.take()) else { return };
    let Some(cell) = exec.m.summaries.as_ref() else { return };
    let pre = path_of(exec, &a);
    cell.borrow_mut().add_case(exec.pool, a.func, &a.formals, (&pre, None));
}

impl Summaries {
    fn verdict(&mut self, program: &Program, func: FuncId) -> Result<(), String> {
        if let Some(v) = self.verdicts.get(&func) {
            return v.clone();
        }
        let v = summarisable(program, func, &mut Vec::new());
        self.verdicts.insert(func, v.clone());
        v
    }

    /// Add the path `(pre, post)` of a call whose formals were `formals`,
    /// unless the summary has it already.
    fn add_case(
        &mut self,
        pool: &mut ExprPool,
        func: FuncId,
        formals: &[ExprId],
        (pre, post): (&[ExprId], Option<ExprId>),
    ) {
        let summary = self.funcs.entry(func).or_insert_with(|| Summary {
            formals: formals
                .iter()
                .enumerate()
                .map(|(i, &f)| {
                    let Expr::Var { name, sort } = pool.get(f).clone() else { unreachable!("formals are variables") };
                    let base = name.split('#').next().unwrap_or(&name).to_string();
                    pool.var(&format!("{base}.{i}"), sort)
                })
                .collect(),
            cases: Vec::new(),
            seen: FxHashSet::default(),
        });
        let map: FxHashMap<ExprId, ExprId> = formals.iter().copied().zip(summary.formals.iter().copied()).collect();
        let mut memo = FxHashMap::default();
        let pre: Vec<ExprId> = pre.iter().map(|&c| substitute(pool, c, &map, &mut memo)).collect();
        let post = post.map(|p| substitute(pool, p, &map, &mut memo));
        if summary.seen.insert((pre.clone(), post)) {
            summary.cases.push(Case { pre, post });
            self.generation += 1;
        }
    }

    /// The composition constraint of a call, from the summary as it is now.
    fn compose(&self, pool: &mut ExprPool, inst: &Instance) -> ExprId {
        let summary = &self.funcs[&inst.func];
        let map: FxHashMap<ExprId, ExprId> = summary.formals.iter().copied().zip(inst.args.iter().copied()).collect();
        let mut memo = FxHashMap::default();
        let mut some_case = pool.bool_const(false);
        let mut any_pre = pool.bool_const(false);
        for case in &summary.cases {
            let mut pre = pool.bool_const(true);
            for &c in &case.pre {
                let c = substitute(pool, c, &map, &mut memo);
                pre = pool.and(pre, c);
            }
            if let Some(post) = case.post {
                let post = substitute(pool, post, &map, &mut memo);
                let is_post = pool.eq(inst.ret, post);
                let this = pool.and(pre, is_post);
                some_case = pool.or(some_case, this);
            }
            any_pre = pool.or(any_pre, pre);
        }
        let unknown = pool.not(any_pre);
        pool.or(some_case, unknown)
    }

    /// `cond` rebuilt from the current summary when it is a composition
    /// entry (its summary may have grown since the run recorded it).
    pub(crate) fn refresh(&self, pool: &mut ExprPool, cond: ExprId) -> ExprId {
        match self.instances.get(&cond) {
            Some(inst) => self.compose(pool, inst),
            None => cond,
        }
    }

    /// Summaries computed, their cases in all, and the names of the
    /// complete ones' functions (`complete(pool, uncovered)`: whether the
    /// inputs no case covers are none).
    pub(crate) fn report(
        &self,
        program: &Program,
        pool: &mut ExprPool,
        mut complete: impl FnMut(&mut ExprPool, ExprId) -> bool,
    ) -> SummaryReport {
        let mut r = SummaryReport::default();
        for (&func, s) in &self.funcs {
            let mut any_pre = pool.bool_const(false);
            for case in &s.cases {
                let mut pre = pool.bool_const(true);
                for &c in &case.pre {
                    pre = pool.and(pre, c);
                }
                any_pre = pool.or(any_pre, pre);
            }
            let uncovered = pool.not(any_pre);
            let name = program.func(func).name.clone();
            r.summaries.push((name, s.cases.len() as u64, complete(pool, uncovered)));
        }
        let mut fallbacks: Vec<String> = self
            .verdicts
            .iter()
            .filter_map(|(&f, v)| v.as_ref().err().map(|why| format!("{}: {why}", program.func(f).name)))
            .collect();
        fallbacks.sort();
        r.fallbacks = fallbacks;
        r.reused = self.reused;
        r
    }
}

/// What the compositional search reports (see [`crate::suite::Stats`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SummaryReport {
    /// Per summarised function: name, cases, complete (its cases cover
    /// every input within the bound).
    pub summaries: Vec<(String, u64, bool)>,
    /// Calls composed from a summary.
    pub reused: u64,
    /// Functions called with symbolic arguments that could not be
    /// summarised, with why: they were explored monolithically.
    pub fallbacks: Vec<String>,
}

/// Whether `func` may be summarised: a body, integer parameters and an
/// integer result, memory accesses only to its own locals (so that it
/// neither reads inputs beyond its parameters nor writes what the caller
/// sees), and calls only to such functions, without recursion (`stack`).
pub fn summarisable(program: &Program, func: FuncId, stack: &mut Vec<FuncId>) -> Result<(), String> {
    let f = program.func(func);
    let int = |t: Type| t != Type::Ptr && !t.is_float();
    if f.is_declaration() {
        return Err("has no body".into());
    }
    if stack.contains(&func) {
        return Err("is recursive".into());
    }
    if !f.params.iter().all(|p| int(p.ty)) || !f.ret.is_some_and(int) {
        return Err("has a parameter or result that is not an integer".into());
    }
    let mut locals: FxHashSet<u32> = FxHashSet::default();
    for b in &f.blocks {
        for inst in &b.insts {
            if let (InstKind::AddrLocal { .. }, Some(r)) = (&inst.kind, inst.result) {
                locals.insert(r.index() as u32);
            }
        }
    }
    let local = |op: &Operand| matches!(op, Operand::Reg(r) if locals.contains(&(r.index() as u32)));
    stack.push(func);
    let mut verdict = Ok(());
    'all: for b in &f.blocks {
        for inst in &b.insts {
            let why = match &inst.kind {
                InstKind::Store { ptr, .. } if !local(ptr) => Some(format!("writes memory at line {}", inst.loc.line)),
                InstKind::Load { ptr, .. } if !local(ptr) => Some(format!("reads memory at line {}", inst.loc.line)),
                InstKind::AddrGlobal { .. } | InstKind::AddrFunc { .. } | InstKind::CallPtr { .. } => {
                    Some(format!("uses a global or a function pointer at line {}", inst.loc.line))
                }
                InstKind::Call { func: g, .. } => summarisable(program, *g, stack)
                    .err()
                    .map(|why| format!("calls `{}`, which {why}", program.func(*g).name)),
                _ => None,
            };
            if let Some(why) = why {
                verdict = Err(why);
                break 'all;
            }
        }
    }
    stack.pop();
    verdict
}

/// `e` with the variables of `map` replaced (`memo`: nodes done).
fn substitute(
    pool: &mut ExprPool,
    e: ExprId,
    map: &FxHashMap<ExprId, ExprId>,
    memo: &mut FxHashMap<ExprId, ExprId>,
) -> ExprId {
    if let Some(&r) = map.get(&e).or_else(|| memo.get(&e)) {
        return r;
    }
    let mut s = |pool: &mut ExprPool, x: ExprId| substitute(pool, x, map, memo);
    let r = match pool.get(e).clone() {
        Expr::BoolConst(_) | Expr::BvConst { .. } | Expr::Var { .. } => e,
        Expr::Not(a) => {
            let a = s(pool, a);
            pool.not(a)
        }
        Expr::And(a, b) => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.and(a, b)
        }
        Expr::Or(a, b) => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.or(a, b)
        }
        Expr::Eq(a, b) => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.eq(a, b)
        }
        Expr::Bin { op, a, b } => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.bin(op, a, b)
        }
        Expr::Cmp { op, a, b } => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.cmp(op, a, b)
        }
        Expr::SMulNoOverflow(a, b) => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.smul_no_overflow(a, b)
        }
        Expr::Ite { cond, then_, else_ } => {
            let (c, t, f) = (s(pool, cond), s(pool, then_), s(pool, else_));
            pool.ite(c, t, f)
        }
        Expr::ZExt { a, width } => {
            let a = s(pool, a);
            pool.zext(a, width)
        }
        Expr::SExt { a, width } => {
            let a = s(pool, a);
            pool.sext(a, width)
        }
        Expr::Extract { a, hi, lo } => {
            let a = s(pool, a);
            pool.extract(a, hi, lo)
        }
        Expr::Select { array, index } => {
            let (a, i) = (s(pool, array), s(pool, index));
            pool.select(a, i)
        }
        Expr::Store { array, index, value } => {
            let (a, i, v) = (s(pool, array), s(pool, index), s(pool, value));
            pool.store(a, i, v)
        }
        Expr::ConstArray { index, value } => {
            let v = s(pool, value);
            pool.const_array(index, v)
        }
    };
    memo.insert(e, r);
    r
}

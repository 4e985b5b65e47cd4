//! The interpreter's side of summaries: hooks at calls, returns, memory
//! accesses and the end of a run (see the module doc of [`super`]).
//!
//! Only the outermost summarised call of a run is tracked (`Active`):
//! calls nested in it are part of its path.

use pathwise_expr::{ExprId, Sort};
use pathwise_ir::{FuncId, Loc, Type};
use rustc_hash::{FxHashMap, FxHashSet};

use super::summary::{self, cell_var, Base, Case, CellKey, Outcome, Post};
use super::Instance;
use crate::exec::Exec;
use crate::extension::Access;
use crate::memory::ObjKind;
use crate::path::{End, EntryKind, Region};
use crate::value::{bv_of, ObjId, Value};

/// The open summarised call of a run.
struct Active {
    func: FuncId,
    name: String,
    /// `frames.len()` while the callee's own frame is the top one.
    depth: usize,
    n: u32,
    loc: Loc,
    /// Objects that existed at the call: later ones are the callee's own.
    objects_before: u32,
    /// Input-array objects the pointer parameters point to.
    roots: Vec<ObjId>,
    /// Other objects pointer parameters point to (at their start), read
    /// and written cell by cell: parameter, object, the pointer.
    cells: Vec<CellRoot>,
    /// Canonical input -> its value in the calling context.
    map: FxHashMap<ExprId, ExprId>,
    /// Per-call formal or caller variable -> canonical input.
    canon: FxHashMap<ExprId, ExprId>,
    /// `Some`: composed, with the captured path condition; `None`:
    /// explored, its entries from `start` on in the run's.
    captured: Option<Vec<crate::path::Entry>>,
    start: usize,
    /// The explored call's tie assumptions recorded after `start`.
    ties: FxHashSet<ExprId>,
    /// Canonical conjuncts of the precondition that are not entries (a
    /// global read with a concrete value: `g == 5`).
    extra_pre: Vec<ExprId>,
    /// Cells read before being written: their per-call formal (`None`
    /// when the value read was concrete).
    cell_reads: FxHashMap<CellKey, Option<ExprId>>,
    /// Cells written, with their value before the first write.
    writes: Vec<(CellKey, ExprId)>,
    /// Why the call turned out not to be summarisable.
    poisoned: Option<String>,
    /// `exec.path.len()` at the call: the callee's decisions follow.
    path_start: usize,
    /// The caller's in-bounds facts, set aside during the call.
    saved_checked: FxHashMap<ObjId, u64>,
    /// Block-k: the counts at the call, and where the callee's checks
    /// start in the run's trace.
    ctx: Option<std::rc::Rc<crate::blockk::BlockVisits>>,
    trace_start: usize,
}

/// A pointer parameter whose object a summary reads and writes by cells.
#[derive(Clone, Copy)]
struct CellRoot {
    param: u32,
    obj: ObjId,
    ptr: crate::value::Pointer,
}

/// Per-run state of the hooks (only in symbolic runs of the function under
/// test, with `--compositional`).
#[derive(Default)]
pub(crate) struct RunHook {
    /// Summarised calls so far in this run, per function.
    calls: FxHashMap<FuncId, u32>,
    active: Option<Active>,
    /// An explored call of an open summary has returned: the caller's
    /// later entries are not negatable until the summary closes.
    frozen: bool,
    /// Explored calls of the run: function, index of its first entry,
    /// whether it returned.
    explored: Vec<(FuncId, usize, bool)>,
    /// The run ended at the bound inside a composed call of a settled
    /// summary under k-path, whose composition admits no such end: the
    /// inputs solved for it did not take the case they were solved for.
    unpredicted_bound: bool,
    /// Entries asking for the cases of settled summaries, recorded at the
    /// end of the run so that no other prefix includes them.
    exercise: Vec<(ExprId, Loc)>,
    /// Paths of summarised functions the run took, counted as exercised
    /// only if the run is a test ([`commit`]).
    taken: Vec<(FuncId, u64)>,
    /// The run's explored calls, at its end (see [`finish`]).
    regions: Vec<(FuncId, usize, bool)>,
}

impl RunHook {
    /// The entry as the run records it while this hook is on: not
    /// negatable after an explored call of an open summary (except a
    /// request for a longer input array: without it the run would be no
    /// test), and taken when a composed call is open (its path condition
    /// is the summary's, not the caller's).
    fn filter(&mut self, mut entry: crate::path::Entry) -> Option<crate::path::Entry> {
        let longer = matches!(entry.kind, EntryKind::InBounds { violated: true, .. });
        entry.negatable &= longer || !self.frozen;
        match self.active.as_mut().and_then(|a| a.captured.as_mut()) {
            Some(c) => {
                c.push(entry);
                None
            }
            None => Some(entry),
        }
    }

    /// Record an entry of the hook's own, as the interpreter records one.
    fn record(&mut self, exec: &mut Exec<'_, '_>, cond: ExprId, kind: EntryKind, negatable: bool, loc: Loc) {
        if let Some(entry) = exec.new_entry(cond, kind, negatable, false, loc).and_then(|e| self.filter(e)) {
            exec.entries.push(entry);
        }
    }

    /// The entries the interpreter recorded since `mark` while this hook
    /// was handling an event (the heap model's, a null decision), as they
    /// would have been had the hook seen them.
    fn filter_since(&mut self, exec: &mut Exec<'_, '_>, mark: usize) {
        let recent: Vec<_> = exec.entries.drain(mark..).collect();
        for e in recent {
            if let Some(e) = self.filter(e) {
                exec.entries.push(e);
            }
        }
    }
}

/// The hooks of a symbolic run of the function under test with
/// `--compositional` (registered in [`crate::extension::for_run`]).
impl crate::extension::Extension for RunHook {
    fn enter(&mut self, ex: &mut Exec<'_, '_>, callee: FuncId, argv: Vec<Value>, loc: Loc) -> Vec<Value> {
        enter(self, ex, callee, argv, loc)
    }

    fn returned(&mut self, ex: &mut Exec<'_, '_>, v: Option<Value>) -> Result<Option<Value>, End> {
        Ok(leave(self, ex, v))
    }

    fn load(&mut self, ex: &mut Exec<'_, '_>, at: Access, ty: Type, v: Value, loc: Loc) -> Value {
        on_load(self, ex, at, ty, v, loc)
    }

    fn store(&mut self, ex: &mut Exec<'_, '_>, at: Access, ty: Type, loc: Loc) {
        on_store(self, ex, at, ty, loc)
    }

    fn entry(&mut self, entry: crate::path::Entry) -> Option<crate::path::Entry> {
        self.filter(entry)
    }

    fn bound_condition(&mut self, ex: &mut Exec<'_, '_>, cond: ExprId, holds: bool, loc: Loc) {
        bound_check(self, ex, cond, holds, loc)
    }

    fn end_of_run(&mut self, ex: &mut Exec<'_, '_>, end: &End) {
        self.regions = finish(self, ex, end);
    }

    fn into_record(self: Box<Self>, m: &crate::exec::Machine<'_>, rec: &mut crate::run::RunRecord) {
        rec.explored = self.regions;
        rec.unpredicted = self.unpredicted_bound;
        commit(m, &self.taken, &rec.main_entries, rec.is_test());
    }
}

/// The pointer argument `v` as a root: an input array of the function under
/// test, pointed to at its start, not written so far in the run.
fn root_array(exec: &Exec<'_, '_>, v: &Value) -> Option<(ObjId, crate::memory::InputArray)> {
    let Value::Ptr(p) = v else { return None };
    let obj = p.obj?;
    let o = exec.mem.object(obj);
    let inp = o.input?;
    let plain = p.off == 0 && p.off_sym.is_none() && p.base_sym.is_none();
    (plain && matches!(o.kind, ObjKind::Input { .. }) && o.pristine()).then_some((obj, inp))
}

/// The identity of the object of pointer parameter `i` when it was not read
/// from an input slot: above every input object's reference (a type's tag
/// shifted left by 20 bits, and programs have far fewer than 4,095 types;
/// see `Exec::ref_domain`).
const LOCAL_IDENT_BASE: u64 = 0xffff_0000;

/// The pointer argument `v` as a cell root: the start of a live object of
/// the caller's (a local, the heap, an input object), read and written at
/// constant offsets by the callee.
///
/// The identity of an input object (its reference, see [`crate::heap`]) is
/// the canonical input `sum:f.pI.ref` of the summary, so that a case says
/// how `p == q` or `p == NULL` went.
fn cell_root(exec: &Exec<'_, '_>, v: &Value) -> Option<(ObjId, crate::value::Pointer)> {
    let Value::Ptr(p) = v else { return None };
    let obj = p.obj?;
    let o = exec.mem.object(obj);
    let kind = matches!(o.kind, ObjKind::Local | ObjKind::Heap | ObjKind::HeapInput { .. });
    (kind && !o.freed && p.off == 0 && p.off_sym.is_none()).then_some((obj, *p))
}

/// What the pointer argument `v` is, that no summary can take.
fn unsummarisable_pointer(exec: &Exec<'_, '_>, v: &Value, given: impl Fn(ObjId) -> bool) -> &'static str {
    let Value::Ptr(p) = v else { return "an integer as a pointer" };
    let Some(obj) = p.obj else { return "a null pointer" };
    let o = exec.mem.object(obj);
    if given(obj) {
        "two pointers to one object"
    } else if o.freed {
        "a dangling pointer"
    } else if p.off != 0 || p.off_sym.is_some() {
        "a pointer inside an object"
    } else if matches!(o.kind, ObjKind::Input { .. }) {
        "an input array written before the call"
    } else if matches!(o.kind, ObjKind::Global) {
        "a pointer to a global"
    } else {
        "a pointer to a function"
    }
}

/// The canonical identity of pointer parameter `i` and its value here: the
/// reference when the pointer was read from an input slot; otherwise a
/// constant no input object has (it is not null, and distinct from the
/// other parameters' objects).
fn identity(exec: &mut Exec<'_, '_>, name: &str, i: usize, ptr: &crate::value::Pointer) -> (ExprId, ExprId) {
    let r = exec.pool.var(&summary::ref_name(name, i), Sort::Bv(32));
    let actual = match ptr.base_sym {
        Some(b) => b,
        None => exec.pool.bv_const(32, LOCAL_IDENT_BASE + i as u64),
    };
    (r, actual)
}

/// The call hook: called before `callee`'s frame is pushed. Returns the
/// arguments the callee's frame gets (formals in place of symbolic values
/// when the call is summarised).
fn enter(hook: &mut RunHook, exec: &mut Exec<'_, '_>, callee: FuncId, argv: Vec<Value>, loc: Loc) -> Vec<Value> {
    let Some(cell) = exec.m.summaries.as_ref() else { return argv };
    let open = hook.active.is_some();
    if open || exec.region != Region::Main {
        return argv;
    }
    let program = exec.m.program;
    if !cell.borrow_mut().statically_ok(program, callee) {
        return argv;
    }
    let f = program.func(callee);
    // A summary is over objects: whether each pointer read from an input
    // slot is null is the caller's decision, here (a null one runs the
    // callee without its summary), so that the runs of one caller path
    // line up whichever it is. Recorded whether or not runs found the
    // callee summarisable since, for the same reason.
    let mark = exec.entries.len();
    for (p, v) in f.params.iter().zip(&argv) {
        if let (Type::Ptr, Value::Ptr(q)) = (p.ty, v) {
            exec.decide_null(q, loc);
        }
    }
    hook.filter_since(exec, mark);
    let cell = exec.m.summaries.as_ref().expect("checked above");
    if cell.borrow_mut().verdict(program, callee).is_err() {
        return argv;
    }
    let name = f.name.clone();
    let mut roots = Vec::new();
    let mut cells: Vec<CellRoot> = Vec::new();
    let mut map = FxHashMap::default();
    let mut canon = FxHashMap::default();
    let mut symbolic = false;
    for (i, (p, v)) in f.params.iter().zip(&argv).enumerate() {
        if p.ty != Type::Ptr {
            symbolic |= v.sym().is_some();
            continue;
        }
        let fresh = |o: ObjId| !roots.contains(&o) && !cells.iter().any(|c| c.obj == o);
        if let Some((obj, ptr)) = cell_root(exec, v).filter(|r| fresh(r.0)) {
            // Distinct objects only: two parameters pointing to one object
            // would be two names for the same cells.
            cells.push(CellRoot { param: i as u32, obj, ptr });
            let (r, actual) = identity(exec, &name, i, &ptr);
            map.insert(r, actual);
            if ptr.base_sym.is_some() {
                canon.insert(actual, r);
            }
            symbolic = true;
            continue;
        }
        match root_array(exec, v) {
            Some((obj, inp)) if fresh(obj) => {
                let arr = super::canonical_param(exec.pool, &name, i, exec.pool.sort(inp.array));
                let len = exec.pool.var(&summary::len_name(&name, i), Sort::Bv(64));
                map.insert(arr, inp.array);
                map.insert(len, inp.len);
                canon.insert(inp.array, arr);
                canon.insert(inp.len, len);
                roots.push(obj);
                symbolic = true;
            }
            _ => {
                let what = unsummarisable_pointer(exec, v, |o| roots.contains(&o) || cells.iter().any(|c| c.obj == o));
                let why = format!("{name}: called at line {} with {what}: run without its summary there", loc.line);
                cell.borrow_mut().context_fallback(why);
                return argv;
            }
        }
    }
    if !symbolic {
        return argv;
    }
    let n = *hook.calls.entry(callee).and_modify(|n| *n += 1).or_insert(0);
    let explored = n == 0 && !cell.borrow().is_closed(callee);
    let mut values = Vec::new();
    let mut ties = Vec::new();
    for (i, (p, v)) in f.params.iter().zip(&argv).enumerate() {
        if p.ty == Type::Ptr {
            values.push(*v);
            continue;
        }
        let w = p.ty.bits();
        let formal = exec.pool.var(&format!("sum:{name}#{n}.{i}"), Sort::Bv(w));
        let arg = bv_of(exec.pool, v.conc(), v.sym(), w);
        let c = super::canonical_param(exec.pool, &name, i, Sort::Bv(w));
        map.insert(c, arg);
        canon.insert(formal, c);
        ties.push((formal, arg));
        values.push(Value::Int { conc: v.conc() & p.ty.mask(), sym: Some(formal) });
    }
    let start = exec.entries.len();
    let mut tie_conds = FxHashSet::default();
    if explored {
        // The explored call's decisions are the caller's: tie its formals
        // to the arguments.
        for (formal, arg) in ties {
            let tie = exec.pool.eq(formal, arg);
            tie_conds.insert(tie);
            hook.record(exec, tie, EntryKind::Assume, false, f.loc);
        }
    } else {
        // Cells the summary reads or writes, as the call finds them.
        let keys = cell.borrow().funcs.get(&callee).map(|s| s.cell_keys(exec.pool, &name)).unwrap_or_default();
        for key in keys {
            if let Some(v) = read_cell(hook, exec, &cells, key, loc) {
                let c = cell_var(exec.pool, &name, key);
                map.insert(c, v);
            }
        }
    }
    let objects_before = exec.mem.len() as u32;
    let saved_checked = std::mem::take(&mut exec.checked_upto);
    let ctx = (exec.m.config.criterion == crate::config::Criterion::BlockK).then(|| {
        cell.borrow_mut().prepare_block_k(program, exec.m.info, callee, exec.m.k.get());
        std::rc::Rc::new(exec.visits.snapshot())
    });
    let trace_start = exec.visits.trace.len();
    if explored && !hook.frozen {
        // Explored while frozen, its paths wait for the summary before.
        hook.explored.push((callee, start, false));
    }
    hook.active = Some(Active {
        func: callee,
        name,
        depth: exec.frames.len() + 1,
        n,
        loc,
        objects_before,
        roots,
        cells,
        map,
        canon,
        captured: (!explored).then(Vec::new),
        start,
        ties: tie_conds,
        extra_pre: Vec::new(),
        cell_reads: FxHashMap::default(),
        writes: Vec::new(),
        poisoned: None,
        path_start: exec.seen.path.len(),
        saved_checked,
        ctx,
        trace_start,
    });
    values
}

/// The object of cell `key` and the pointer to its start (`None`: a global).
fn cell_object(
    exec: &Exec<'_, '_>,
    cells: &[CellRoot],
    key: CellKey,
) -> Option<(ObjId, Option<crate::value::Pointer>)> {
    match key.0 {
        Base::Global(g) => exec.globals.get(g as usize).map(|&o| (o, None)),
        Base::Param(i) => cells.iter().find(|c| c.param == i).map(|c| (c.obj, Some(c.ptr))),
    }
}

/// The value of cell `key` now, as an expression. An input object's field
/// not read so far is materialised (its initial value is an input).
fn read_cell(
    hook: &mut RunHook,
    exec: &mut Exec<'_, '_>,
    cells: &[CellRoot],
    key: CellKey,
    loc: Loc,
) -> Option<ExprId> {
    let (_, off, ty) = key;
    let (obj, ptr) = cell_object(exec, cells, key)?;
    let v = match ptr {
        Some(p) if matches!(exec.mem.object(obj).kind, ObjKind::HeapInput { .. }) => {
            let at = crate::value::Pointer { off: p.off.wrapping_add(off), ..p };
            let mark = exec.entries.len();
            let v = exec.heap_load(&at, obj, off, ty, loc);
            hook.filter_since(exec, mark);
            v.ok()?
        }
        _ => exec.mem.read(exec.pool, obj, off, ty, None).ok()?,
    };
    Some(bv_of(exec.pool, v.conc(), v.sym(), ty.bits()))
}

/// Which memory an access of the open call touches.
enum Place {
    /// Not the open call's business (none open, or the callee's own).
    Own,
    Root,
    /// The object of a cell root (its parameter).
    Cell(u32),
    Global(u32),
    Other,
}

fn place(hook: &RunHook, exec: &Exec<'_, '_>, obj: ObjId) -> Place {
    let Some(a) = hook.active.as_ref() else { return Place::Own };
    if exec.frames.len() < a.depth || obj.0 >= a.objects_before {
        return Place::Own;
    }
    if a.roots.contains(&obj) {
        return Place::Root;
    }
    if let Some(c) = a.cells.iter().find(|c| c.obj == obj) {
        return Place::Cell(c.param);
    }
    match exec.globals.iter().position(|&o| o == obj) {
        Some(g) => Place::Global(g as u32),
        None => Place::Other,
    }
}

fn poison(hook: &mut RunHook, why: String) {
    if let Some(a) = hook.active.as_mut() {
        a.poisoned.get_or_insert(why);
    }
}

/// After a load of `v` (a `ty` at `off` of `obj`, `sym_off`: at an offset
/// that depends on inputs): a cell read by the open call becomes its
/// formal.
fn on_load(hook: &mut RunHook, exec: &mut Exec<'_, '_>, at: Access, ty: Type, v: Value, loc: Loc) -> Value {
    let (obj, off, sym_off) = at;
    let base = match place(hook, exec, obj) {
        Place::Own => return v,
        Place::Root if ty != Type::Ptr => return v,
        Place::Cell(_) | Place::Global(_) if sym_off => {
            poison(hook, format!("reads memory it was given at an offset that depends on inputs at line {}", loc.line));
            return v;
        }
        Place::Global(g) if ty != Type::Ptr => Base::Global(g),
        Place::Cell(i) if ty != Type::Ptr => Base::Param(i),
        Place::Root | Place::Global(_) | Place::Cell(_) => {
            poison(hook, format!("reads a pointer from memory it was given at line {}", loc.line));
            return v;
        }
        Place::Other => {
            let why = format!("reads memory that is neither an input array argument nor a global at line {}", loc.line);
            poison(hook, why);
            return v;
        }
    };
    let key = (base, off, ty);
    let a = hook.active.as_mut().expect("place found it");
    if a.writes.iter().any(|w| w.0 == key) {
        return v;
    }
    if let Some(&formal) = a.cell_reads.get(&key) {
        return Value::Int { conc: v.conc(), sym: formal.or(v.sym()) };
    }
    let (name, n, explored) = (a.name.clone(), a.n, a.captured.is_none());
    let c = cell_var(exec.pool, &name, key);
    let actual = bv_of(exec.pool, v.conc(), v.sym(), ty.bits());
    let a = hook.active.as_mut().expect("place found it");
    a.map.insert(c, actual);
    if v.sym().is_none() {
        let is = exec.pool.eq(c, actual);
        let a = hook.active.as_mut().expect("place found it");
        a.extra_pre.push(is);
        a.cell_reads.insert(key, None);
        return v;
    }
    let formal = cell_var(exec.pool, &format!("{name}#{n}"), key);
    let tie = exec.pool.eq(formal, actual);
    let a = hook.active.as_mut().expect("place found it");
    a.canon.insert(formal, c);
    a.cell_reads.insert(key, Some(formal));
    if explored {
        a.ties.insert(tie);
        hook.record(exec, tie, EntryKind::Assume, false, loc);
    }
    Value::Int { conc: v.conc(), sym: Some(formal) }
}

/// Before a store of a `ty` at `off` of `obj` (`sym_off` as for
/// [`on_load`]): a cell written by the open call is part of its
/// postcondition.
fn on_store(hook: &mut RunHook, exec: &mut Exec<'_, '_>, at: Access, ty: Type, loc: Loc) {
    let (obj, off, sym_off) = at;
    let base = match place(hook, exec, obj) {
        Place::Own => return,
        Place::Cell(_) | Place::Global(_) if sym_off => {
            let why = format!("writes memory it was given at an offset that depends on inputs at line {}", loc.line);
            return poison(hook, why);
        }
        Place::Global(g) if ty != Type::Ptr => Base::Global(g),
        Place::Cell(i) if ty != Type::Ptr => Base::Param(i),
        Place::Global(_) | Place::Cell(_) => {
            return poison(hook, format!("writes a pointer to memory it was given at line {}", loc.line))
        }
        Place::Root => return poison(hook, format!("writes the array it was given at line {}", loc.line)),
        Place::Other => return poison(hook, format!("writes memory that is not its own at line {}", loc.line)),
    };
    let key = (base, off, ty);
    let a = hook.active.as_ref().expect("place found it");
    if a.writes.iter().any(|w| w.0 == key) {
        return;
    }
    let cells = a.cells.clone();
    let Some(old) = read_cell(hook, exec, &cells, key, loc) else { return };
    // The value before the write, in the case's terms when the call read it.
    let a = hook.active.as_mut().expect("place found it");
    let old = match a.cell_reads.get(&key) {
        Some(Some(formal)) => *formal,
        _ => old,
    };
    a.writes.push((key, old));
}

/// The path condition of the summarised call `a` so far.
fn path_of(exec: &Exec<'_, '_>, a: &Active) -> Vec<ExprId> {
    match &a.captured {
        Some(c) => c.iter().map(|e| e.cond).collect(),
        None => exec.entries[a.start..]
            .iter()
            .filter(|e| e.region == Region::Main && !a.ties.contains(&e.cond))
            .map(|e| e.cond)
            .collect(),
    }
}

/// The case of `a`'s path, canonical, or why it cannot be one.
fn case_of(
    hook: &mut RunHook,
    exec: &mut Exec<'_, '_>,
    a: &Active,
    outcome: Outcome,
    ret: Option<ExprId>,
) -> Result<Case, String> {
    let mut writes = Vec::new();
    if outcome == Outcome::Return {
        for &(key, _) in &a.writes {
            if let Some(v) = read_cell(hook, exec, &a.cells, key, a.loc) {
                writes.push((key, v));
            }
        }
    }
    let mut memo = FxHashMap::default();
    let pre: Vec<ExprId> =
        path_of(exec, a).iter().map(|&c| summary::substitute(exec.pool, c, &a.canon, &mut memo)).collect();
    let mut pre: Vec<ExprId> = pre.into_iter().filter(|&c| exec.pool.as_bool_const(c) != Some(true)).collect();
    pre.extend(a.extra_pre.iter().copied());
    // Each object pointer is not null (see `enter`): the callee may have
    // decided `p == NULL` without a condition.
    for c in &a.cells {
        let r = exec.pool.var(&summary::ref_name(&a.name, c.param as usize), Sort::Bv(32));
        let zero = exec.pool.bv_const(32, 0);
        let null = exec.pool.eq(r, zero);
        pre.push(exec.pool.not(null));
    }
    let ret = ret.map(|r| summary::substitute(exec.pool, r, &a.canon, &mut memo));
    let writes: Vec<(CellKey, ExprId)> =
        writes.into_iter().map(|(k, v)| (k, summary::substitute(exec.pool, v, &a.canon, &mut memo))).collect();
    let mut roots = pre.clone();
    roots.extend(ret);
    roots.extend(writes.iter().map(|w| w.1));
    for v in exec.pool.vars_of(&roots) {
        if let pathwise_expr::Expr::Var { name, .. } = exec.pool.get(v) {
            if !summary::is_canonical(name, &a.name) {
                return Err(format!("its path depends on `{name}`, an input its summary cannot name"));
            }
        }
    }
    let path = Some(summary::path_hash(&exec.seen.path[a.path_start.min(exec.seen.path.len())..]));
    let trace = a.ctx.as_ref().map(|_| exec.visits.trace[a.trace_start.min(exec.visits.trace.len())..].into());
    Ok(Case { pre, post: Post { outcome, ret, writes, path }, trace })
}

/// A composed call that cannot be summarised: its path condition goes
/// back into the run's.
fn give_back(hook: &mut RunHook, exec: &mut Exec<'_, '_>, a: &Active) {
    if a.captured.is_none() {
        return;
    }
    // Its formals are the arguments again.
    let mut ties: Vec<(ExprId, ExprId)> =
        a.canon.iter().filter_map(|(&formal, c)| a.map.get(c).map(|&arg| (formal, arg))).collect();
    ties.sort();
    for (formal, arg) in ties {
        if exec.pool.sort(formal) == exec.pool.sort(arg) && formal != arg {
            let tie = exec.pool.eq(formal, arg);
            hook.record(exec, tie, EntryKind::Assume, false, a.loc);
        }
    }
    let entries = a.captured.clone().unwrap_or_default();
    let cell = exec.m.summaries.as_ref().expect("summaries on");
    if cell.borrow().verdicts.get(&a.func).is_some_and(|v| v.is_err()) {
        // Explored monolithically from now on: the call's decisions are
        // the caller's, as they are in the runs that follow (else its other
        // paths in this context would never be explored).
        exec.entries.extend(entries);
        return;
    }
    let last = entries.len().saturating_sub(1);
    for (i, mut e) in entries.into_iter().enumerate() {
        // Only the reason a run stopped inside the call (an input array
        // too short) stays explorable, as an assumption at the call: its
        // other side is a run in which the call returns, whose composition
        // entry (an assumption there) it aligns with.
        let stop = i == last && matches!(e.kind, EntryKind::InBounds { violated: true, .. });
        e.negatable &= stop;
        e.bound_blocked = false;
        e.kind = EntryKind::Assume;
        if stop {
            e.loc = a.loc;
        }
        exec.entries.push(e);
    }
}

fn instance(
    exec: &mut Exec<'_, '_>,
    a: &Active,
    ret: Option<ExprId>,
    writes: Vec<(CellKey, ExprId, ExprId)>,
) -> Instance {
    let cell = exec.m.summaries.as_ref().expect("summaries on");
    let id = cell.borrow_mut().new_instance_id();
    let (ctx, counts) = (a.ctx.clone(), Vec::new());
    Instance { func: a.func, name: a.name.clone(), map: a.map.clone(), ret, writes, id, ctx, counts }
}

/// Block-k, after a composed call returned: the counts of the blocks its
/// callee may enter become the call's fresh variables on top of the
/// counts before it (see [`crate::blockk`]), tied by the composition to
/// each case's entries; its entry block, entered once by every path, stays
/// as it is.
fn count_vars(exec: &mut Exec<'_, '_>, a: &Active, inst: &mut Instance) {
    let Some(ctx) = &a.ctx else { return };
    let cell = exec.m.summaries.as_ref().expect("summaries on");
    let region = cell.borrow().region(a.func);
    for f in region {
        for i in 0..exec.m.program.func(f).blocks.len() {
            let b = pathwise_ir::Block(i as u32);
            if (f, b) == (a.func, pathwise_ir::Block(0)) {
                if let Some(before) = ctx.shadow(f, b) {
                    let one = exec.pool.bv_const(32, 1);
                    let after = exec.pool.bin(pathwise_expr::BvOp::Add, before, one);
                    exec.visits.set_shadow(f, b, after);
                }
                continue;
            }
            let var = exec.pool.var(&format!("sum:{}#{}.cnt{}.{}", a.name, a.n, f.0, i), Sort::Bv(32));
            let before = ctx.count_term(exec.pool, f, b, 0);
            let after = exec.pool.bin(pathwise_expr::BvOp::Add, before, var);
            exec.visits.set_shadow(f, b, after);
            inst.counts.push(((f, b), var));
        }
    }
}

/// A bound check of the run that depends on the cases composed calls took
/// before (block-k; `holds`: how it came out): an assumption, except
/// inside a composed call, whose composition replays it. When it holds
/// its other side is the bound (nothing to explore); when it fails (the
/// run ends) its other side asks for cases of the calls before that let
/// the path go on.
fn bound_check(hook: &mut RunHook, exec: &mut Exec<'_, '_>, cond: ExprId, holds: bool, loc: Loc) {
    if exec.pool.as_bool_const(cond).is_some() {
        return;
    }
    let c = if holds { cond } else { exec.pool.not(cond) };
    if let Some(a) = hook.active.as_mut() {
        if a.captured.is_some() {
            return;
        }
        // The context of an explored call, not its path: no part of its case.
        a.ties.insert(c);
    }
    hook.record(exec, c, EntryKind::Assume, !holds, loc);
}

/// The return hook: called after a frame is popped with its result `v`.
/// Records the path of a summarised call and, for a composed one, returns
/// the fresh result variable in place of `v`.
fn leave(hook: &mut RunHook, exec: &mut Exec<'_, '_>, v: Option<Value>) -> Option<Value> {
    if hook.active.as_ref().is_none_or(|a| a.depth != exec.frames.len() + 1) {
        return v;
    }
    let a = hook.active.take().expect("checked above");
    let explored = a.captured.is_none();
    restore_checked(exec, &a, explored);
    let cell = exec.m.summaries.as_ref().expect("summaries on");
    let f = exec.m.program.func(a.func);
    if let Some(why) = &a.poisoned {
        cell.borrow_mut().give_up(a.func, why.clone());
        give_back(hook, exec, &a);
        return v;
    }
    let width = f.ret.map(|t| t.bits());
    let ret = match (width, v) {
        (Some(w), Some(v)) => Some(bv_of(exec.pool, v.conc(), v.sym(), w)),
        _ => None,
    };
    let here = match case_of(hook, exec, &a, Outcome::Return, ret) {
        Ok(case) => {
            let here = note_taken(hook, &a, &case);
            cell.borrow_mut().add_case(a.func, case);
            here
        }
        Err(why) => {
            cell.borrow_mut().give_up(a.func, why);
            give_back(hook, exec, &a);
            return v;
        }
    };
    if explored {
        if let Some(e) = hook.explored.iter_mut().find(|e| (e.0, e.1) == (a.func, a.start)) {
            e.2 = true;
        }
        if !cell.borrow().is_closed(a.func) {
            hook.frozen = true;
        }
        return v;
    }
    cell.borrow_mut().reused += 1;
    let ret_var = width.map(|w| exec.pool.var(&format!("sum:{}#{}.ret", a.name, a.n), Sort::Bv(w)));
    let writes = fresh_writes(hook, exec, &a);
    let mut inst = instance(exec, &a, ret_var, writes);
    count_vars(exec, &a, &mut inst);
    // This call's own path (the run's other calls of the function need
    // not be in its entry, whose other side then asks for them too).
    let own: Vec<u64> = here.into_iter().collect();
    let cell = exec.m.summaries.as_ref().expect("summaries on");
    let (cond, known, errors, settled, exercised) = {
        let mut sums = cell.borrow_mut();
        let cond = sums.compose(exec.pool, &inst);
        let known = sums.known(exec.pool, &inst);
        let errors = sums.error_pres(exec.pool, &inst);
        let settled = sums.settled(a.func);
        // A bottom-up case is known by the path of the run that found it,
        // its composed callees' steps included, while it may span several
        // of their paths (level's "magnitude(x) > 10" whichever sign x
        // has): a call along another one matches no case. The entry must
        // hold on this run, and which paths remain is then unknown: it
        // asks for nothing.
        let took = sums.took_a_case(a.func, here);
        let exercised = sums
            .exercised_cond(exec.pool, &inst, &own, None)
            .map(|c| if took { c } else { exec.pool.bool_const(true) })
            .map(|c| (c, inst.clone()));
        sums.remember(cond, inst);
        (cond, known, errors, settled, exercised)
    };
    // The composition entry admits the error cases; the error checks
    // after it exclude them (their other sides are the errors; a run that
    // ends in one records the same checks, see `finish`).
    hook.record(exec, cond, EntryKind::Assume, false, a.loc);
    let seek = exec.m.config.seek_errors;
    for (_, pre) in errors {
        let ok = exec.pool.not(pre);
        hook.record(exec, ok, EntryKind::Guard { violated: false }, seek, a.loc);
    }
    if !settled {
        // Its other side: a path of the callee no case has in this context.
        hook.record(exec, known, EntryKind::Assume, true, a.loc);
    }
    // A settled or closed summary: "the case this call took", solved as "a path some
    // test took, or this one" (its other side asks for one no test took,
    // until each was: composed callees are covered as explored ones),
    // recorded at the end of the run.
    // (Not when it is the "known cases" entry's condition: entries are
    // told apart by their conditions, and that one asks for new paths.)
    let exercised = exercised.filter(|e| settled || e.0 != known);
    if let Some((cond, inst)) = exercised {
        if exec.pool.as_bool_const(cond).is_none() {
            cell.borrow_mut().note_exercise_entry(cond, inst, own);
        }
        hook.exercise.push((cond, a.loc));
    }
    match (v, ret_var) {
        (Some(v), Some(r)) => Some(Value::Int { conc: v.conc(), sym: Some(r) }),
        (v, _) => v,
    }
}

/// A composed call's writes: every cell its summary may write gets a fresh
/// value (key, the fresh variable, the value before the call).
fn fresh_writes(hook: &mut RunHook, exec: &mut Exec<'_, '_>, a: &Active) -> Vec<(CellKey, ExprId, ExprId)> {
    let cell = exec.m.summaries.as_ref().expect("summaries on");
    let mut keys: Vec<CellKey> = a.writes.iter().map(|w| w.0).collect();
    if let Some(s) = cell.borrow().funcs.get(&a.func) {
        keys.extend(s.cases.iter().flat_map(|c| c.post.writes.iter().map(|w| w.0)));
    }
    keys.sort();
    keys.dedup();
    let mut writes = Vec::new();
    for key in keys {
        let c = cell_var(exec.pool, &a.name, key);
        let old = match a.writes.iter().find(|w| w.0 == key) {
            Some(&(_, old)) => a.canon.get(&old).and_then(|c| a.map.get(c)).copied().unwrap_or(old),
            None => match a.map.get(&c) {
                Some(&o) => o,
                None => match read_cell(hook, exec, &a.cells, key, a.loc) {
                    Some(o) => o,
                    None => continue,
                },
            },
        };
        let fresh = cell_var(exec.pool, &format!("{}#{}.w", a.name, a.n), key);
        let Some((obj, ptr)) = cell_object(exec, &a.cells, key) else { continue };
        let Ok(now) = exec.mem.read(exec.pool, obj, key.1, key.2, None) else { continue };
        let value = Value::Int { conc: now.conc(), sym: Some(fresh) };
        if let (Some(p), ObjKind::HeapInput { .. }) = (ptr, exec.mem.object(obj).kind) {
            // The heap solver sees the write as the callee's own would be.
            let at = crate::value::Pointer { off: p.off.wrapping_add(key.1), ..p };
            let mark = exec.entries.len();
            exec.heap_store(&at, key.1, key.2, value);
            hook.filter_since(exec, mark);
        }
        let _ = exec.mem.write(exec.pool, obj, key.1, key.2, None, value);
        writes.push((key, fresh, old));
    }
    writes
}

fn restore_checked(exec: &mut Exec<'_, '_>, a: &Active, explored: bool) {
    if explored {
        for (&o, &m) in &a.saved_checked {
            let e = exec.checked_upto.entry(o).or_insert(m);
            *e = (*e).max(m);
        }
    } else {
        exec.checked_upto = a.saved_checked.clone();
    }
}

/// The end-of-run hook: a run that ended inside a summarised call (an
/// error, the bound) adds that path as a case without result; a composed
/// call's error becomes the caller's (its composition entry, then its
/// error check, violated). Returns the run's explored calls (function,
/// first entry, whether it returned).
fn finish(hook: &mut RunHook, exec: &mut Exec<'_, '_>, end: &End) -> Vec<(FuncId, usize, bool)> {
    let regions = std::mem::take(&mut hook.explored);
    let exercise = std::mem::take(&mut hook.exercise);
    let active = hook.active.take();
    if let Some(a) = active {
        finish_active(hook, exec, end, a);
    }
    for (cond, loc) in exercise {
        record_exercise(hook, exec, cond, loc);
    }
    regions
}

/// An exercise entry of the run. One that is `true` (a call whose case is
/// unknown, or a case that always holds) is kept all the same: another run
/// along the same prefix may record it otherwise, and without it would not
/// follow that prefix (a divergence). Negating it asks for nothing, so the
/// search skips it.
fn record_exercise(hook: &mut RunHook, exec: &mut Exec<'_, '_>, cond: ExprId, loc: Loc) {
    if exec.pool.as_bool_const(cond) != Some(true) {
        return hook.record(exec, cond, EntryKind::Assume, true, loc);
    }
    if !exec.symbolic {
        return;
    }
    let negatable = !hook.frozen;
    let step = exec.seen.path.len() as u32;
    let (region, bound_blocked, local) = (exec.region, false, false);
    let kind = EntryKind::Assume;
    exec.entries.push(crate::path::Entry { cond, kind, region, negatable, bound_blocked, loc, step, local });
}

/// The run took `case` in the call `a`: its path (see [`commit`]).
fn note_taken(hook: &mut RunHook, a: &Active, case: &Case) -> Option<u64> {
    let p = case.post.path?;
    hook.taken.push((a.func, p));
    Some(p)
}

/// A run's paths of summarised functions are exercised when the run is a
/// test: one cut short (an input array too short, the bound) covers
/// nothing, and counting its paths would leave them without a test (the
/// exercise entries of later runs would no longer ask for them).
fn commit(m: &crate::exec::Machine<'_>, taken: &[(FuncId, u64)], entries: &[crate::path::Entry], is_test: bool) {
    let (Some(cell), true) = (m.summaries.as_ref(), is_test) else { return };
    let mut sums = cell.borrow_mut();
    sums.exercise_in_contexts(entries);
    for &(f, p) in taken {
        sums.exercise(f, p);
    }
}

/// A run that ended inside the summarised call `a`.
fn finish_active(hook: &mut RunHook, exec: &mut Exec<'_, '_>, end: &End, a: Active) {
    let cell = exec.m.summaries.as_ref().expect("summaries on");
    if let Some(why) = &a.poisoned {
        cell.borrow_mut().give_up(a.func, why.clone());
        give_back(hook, exec, &a);
        return;
    }
    let outcome = match end {
        End::Error(e) if e.kind != crate::suite::ErrorKind::Unsupported => {
            Outcome::Error(e.kind.name().into(), e.loc.line)
        }
        End::BoundExceeded => Outcome::Bound,
        _ => {
            give_back(hook, exec, &a);
            return;
        }
    };
    let case = match case_of(hook, exec, &a, outcome.clone(), None) {
        Ok(case) => case,
        Err(why) => {
            cell.borrow_mut().give_up(a.func, why);
            give_back(hook, exec, &a);
            return;
        }
    };
    // Not noted as taken: only returning paths are asked for, and one
    // with the same decisions as this path (an error after the callee's
    // last decision) was not taken by it.
    cell.borrow_mut().add_case(a.func, case.clone());
    if a.captured.is_none() {
        return;
    }
    let kpath = exec.m.config.criterion == crate::config::Criterion::KPath;
    if outcome == Outcome::Bound && kpath && cell.borrow().settled(a.func) {
        hook.unpredicted_bound = true;
    }
    // The composition entry, then the caller's error checks of this call
    // up to the one violated (all holding when the path ended otherwise),
    // as `leave` records them; then the path taken, which prefixes
    // negating them must not include. Without the composition entry, the
    // other side of a violated check would be "not this error" alone: any
    // inputs, also those no returning case of a settled summary admits
    // (a callee composed inside a bottom-up case at its loop bound).
    let inst = instance(exec, &a, None, Vec::new());
    let (cond, errors) = {
        let mut sums = cell.borrow_mut();
        let cond = sums.compose(exec.pool, &inst);
        let errors = sums.error_pres(exec.pool, &inst);
        sums.remember(cond, inst);
        (cond, errors)
    };
    hook.record(exec, cond, EntryKind::Assume, false, a.loc);
    let seek = exec.m.config.seek_errors;
    for (o, pre) in errors {
        if o == outcome {
            hook.record(exec, pre, EntryKind::Guard { violated: true }, true, a.loc);
            break;
        }
        let ok = exec.pool.not(pre);
        hook.record(exec, ok, EntryKind::Guard { violated: false }, seek, a.loc);
    }
    give_back(hook, exec, &a);
}

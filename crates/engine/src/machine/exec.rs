//! The concolic interpreter: runs one function on concrete inputs while
//! recording the symbolic path condition.
//!
//! The machine is an explicit stack of frames (no Rust recursion, so deep C
//! recursion cannot overflow the host stack). Instruction semantics live in
//! [`crate::step`]; this module handles control flow, calls, built-ins and
//! the bound of the criterion (k-path here, block-k counts in
//! [`crate::blockk`]).

use pathwise_expr::{ExprId, ExprPool};
use pathwise_ir::analysis::bound::{iteration_exceeds, recursion_exceeds, IterCounts};
use pathwise_ir::{Block, FuncId, InstKind, Loc, Operand, Program, Reg, Terminator, Type};
use std::time::Instant;

use crate::analysis::ProgramInfo;
use crate::blockk::BlockVisits;
use crate::config::Criterion;
use crate::memory::Memory;
use crate::path::{End, Entry, EntryKind, Region, RuntimeError};
use crate::suite::ErrorKind;
use crate::suite::PathStep;
use crate::suite::{BoundKind, BoundSite};
use crate::value::{bool_of, non_const, ObjId, Value};

/// The C type of the value `__VERIFIER_nondet_<T>()` returns, for the
/// functions the sv-benchmarks rules define (`long_bits`: 32 or 64 by data
/// model). `_Bool` is an 8-bit input constrained to 0 or 1 by the caller.
pub fn nondet_type(name: &str, long_bits: u32) -> Option<pathwise_ir::IntTy> {
    let t = name.strip_prefix("__VERIFIER_nondet_")?;
    let long = if long_bits == 32 { Type::I32 } else { Type::I64 };
    let (ty, signed) = match t {
        "bool" | "_Bool" => (Type::I8, false),
        "char" => (Type::I8, true),
        "uchar" | "unsigned_char" | "u8" => (Type::I8, false),
        "short" => (Type::I16, true),
        "ushort" | "unsigned_short" | "u16" => (Type::I16, false),
        "int" | "s32" => (Type::I32, true),
        "uint" | "unsigned_int" | "unsigned" | "u32" => (Type::I32, false),
        "long" => (long, true),
        "ulong" | "unsigned_long" | "size_t" | "pointer" => (long, false),
        "longlong" | "long_long" => (Type::I64, true),
        "ulonglong" | "unsigned_long_long" | "u64" => (Type::I64, false),
        "loff_t" => (Type::I64, true),
        "float" => (Type::F32, true),
        "double" => (Type::F64, true),
        _ => return None,
    };
    Some(pathwise_ir::IntTy { ty, signed })
}

/// Static context shared by all runs.
pub struct Machine<'p> {
    pub program: &'p Program,
    pub info: &'p ProgramInfo,
    /// The k bound; a cell so that whole-program mode and deepening can
    /// deepen it between searches (from 1).
    pub k: std::cell::Cell<u32>,
    /// The options of the search, read where they apply (never copied).
    pub config: &'p crate::config::Config,
    /// Heap input slots of the search (see [`crate::heap`]); a parallel
    /// search's subtree starts from its giver's (a slot's identity is
    /// part of the inputs it was given).
    pub slots: std::cell::RefCell<crate::heap::SlotTable>,
    /// Maximum cost thresholds: a run passing one ends (see [`crate::cost::CostCap`]).
    pub cost_caps: Vec<crate::cost::CostCap>,
    /// When the search's `--timeout` runs out.
    pub deadline: Option<Instant>,
    /// `--compositional`: the summaries of the search (see [`crate::compose`]).
    pub summaries: Option<std::cell::RefCell<crate::compose::Summaries>>,
    /// Hand-written summaries (`gen --summary`; see [`crate::handwritten`]).
    pub handwritten: crate::handwritten::Table,
    /// The search's strategy (a configuration the engine refuses never
    /// gets a machine: the default stands in for it).
    pub strategy: crate::strategy::Strategy,
    /// Each function's name as a path step holds it (one per function,
    /// shared: see `PathStep::func`). The machine's own, not the
    /// program's: a subtree's machine is used on one thread, so counting
    /// references to these does not bounce between cores.
    pub(crate) names: Vec<std::sync::Arc<str>>,
}

impl<'p> Machine<'p> {
    /// `func`'s name, for a path step.
    pub(crate) fn step_func(&self, func: FuncId) -> std::sync::Arc<str> {
        std::sync::Arc::clone(&self.names[func.0 as usize])
    }

    /// The context of runs of `program` under `config` (the deadline and
    /// summaries of a search are the search's to set).
    pub fn new(program: &'p Program, info: &'p ProgramInfo, config: &'p crate::config::Config) -> Machine<'p> {
        use crate::strategy::Strategy;
        let strategy = Strategy::choose(config).unwrap_or(Strategy::DepthFirst);
        let deepens = matches!(strategy, Strategy::WholeProgram | Strategy::Deepening);
        Machine {
            program,
            info,
            k: std::cell::Cell::new(if deepens { 1 } else { config.k }),
            config,
            slots: Default::default(),
            cost_caps: config.goals.caps(),
            deadline: None,
            summaries: None,
            handwritten: crate::handwritten::Table::of(program),
            strategy,
            names: program.funcs.iter().map(|f| std::sync::Arc::from(f.name.as_str())).collect(),
        }
    }
}

/// Steps between two looks at the clock in a run.
const DEADLINE_CHECK_STEPS: u64 = 1 << 16;

/// One activation.
pub(crate) struct Frame {
    pub func: FuncId,
    pub regs: Vec<Option<Value>>,
    pub locals: Vec<ObjId>,
    pub block: Block,
    pub inst: usize,
    /// Per loop of the function: the iterations started since the loop was
    /// entered (see [`pathwise_ir::analysis::bound`]).
    pub loop_iters: IterCounts,
    /// Per loop: the iterations since the loop was entered that count
    /// towards k (see [`Exec::iteration_counts`]).
    pub counted_iters: IterCounts,
    /// Per loop: the run's symbolic decision count
    /// ([`Exec::sym_decisions`]) when the current iteration (or the entry
    /// into the loop) started. The next iteration counts towards k only if
    /// a symbolic decision was taken since.
    pub decisions_at_start: Vec<u64>,
    /// Per loop: a symbolic loop decision (see
    /// `FuncInfo::loop_decisions`) was taken in the current iteration.
    pub iteration_decided: Vec<bool>,
    /// Register of the caller receiving the result.
    pub ret_to: Option<Reg>,
}

/// Mutable state of one function execution.
pub struct Exec<'m, 'p> {
    pub m: &'m Machine<'p>,
    pub pool: &'m mut ExprPool,
    pub mem: &'m mut Memory,
    pub region: Region,
    /// Record symbolic entries (false for concrete replay).
    pub symbolic: bool,
    /// Where this execution's path-condition entries go.
    pub entries: &'m mut Vec<Entry>,
    /// What the execution observed that its record keeps.
    pub seen: crate::observed::Observed,
    /// Concrete length assigned to each input array's length variable.
    pub input_lens: &'m dyn Fn(ExprId) -> u64,
    pub(crate) frames: Vec<Frame>,
    /// Memory object of each global.
    pub globals: Vec<ObjId>,
    /// Instructions executed so far.
    pub(crate) steps: u64,
    /// Symbolic decisions (of the program and of modelled library loops)
    /// taken so far: iterations count towards k only when one was taken
    /// since the previous iteration (see `Frame::decisions_at_start`).
    sym_decisions: u64,
    /// Highest byte offset already proved in bounds, per input object.
    pub(crate) checked_upto: rustc_hash::FxHashMap<ObjId, u64>,
    /// End (exclusive) of the bytes at concrete offsets already checked
    /// against an object's symbolic size (see [`crate::alloc`]).
    pub(crate) sized_upto: rustc_hash::FxHashMap<ObjId, u64>,
    /// Input heap objects and writes to them.
    pub(crate) heap: crate::heap::HeapState,
    /// The value the function under test returned (pointers included).
    pub returned: Option<Value>,
    /// Block entries of the Main region (block-k only).
    pub(crate) visits: BlockVisits,
    /// The pointers external calls returned, by index in `calls` (the
    /// emitters describe them once the run's heap is known).
    pub call_pointers: Vec<(usize, Value, pathwise_ir::CType)>,
    /// The NUL-terminated string inputs and their reads (see
    /// [`crate::contracts`]).
    pub(crate) strings: crate::contracts::Strings,
    /// Copy loads (by frame depth and register) that read uninitialised
    /// bytes, with those bytes as a mask (see [`crate::memcheck`]).
    pub(crate) uninit_copies: rustc_hash::FxHashMap<(usize, Reg), u8>,
    /// The C library's static objects of this run (`errno`, the ctype
    /// tables), by name (see [`crate::libc::LibcHost::static_object`]).
    pub(crate) libc_objects: rustc_hash::FxHashMap<String, ObjId>,
    /// The run's extensions (see [`crate::extension`]); a slot is empty
    /// while its extension handles an event.
    pub(crate) exts: Vec<Option<Box<dyn crate::extension::Extension>>>,
}

pub use crate::observed::Nondet;

/// Control outcome of executing one instruction or terminator.
pub(crate) enum Flow {
    Continue,
    End(End),
}

impl<'m, 'p> Exec<'m, 'p> {
    pub fn new(
        m: &'m Machine<'p>,
        pool: &'m mut ExprPool,
        mem: &'m mut Memory,
        entries: &'m mut Vec<Entry>,
        (region, symbolic): (Region, bool),
        input_lens: &'m dyn Fn(ExprId) -> u64,
        globals: Vec<ObjId>,
    ) -> Self {
        Exec {
            m,
            pool,
            mem,
            region,
            symbolic,
            entries,
            seen: Default::default(),
            input_lens,
            frames: Vec::new(),
            globals,
            steps: 0,
            sym_decisions: 0,
            checked_upto: Default::default(),
            sized_upto: Default::default(),
            heap: Default::default(),
            returned: None,
            visits: BlockVisits::default(),
            call_pointers: Vec::new(),
            strings: Default::default(),
            uninit_copies: Default::default(),
            libc_objects: Default::default(),
            exts: crate::extension::for_run(m, region, symbolic).into_iter().map(Some).collect(),
        }
    }

    /// Run `func` on `args` to completion.
    pub fn run(&mut self, func: FuncId, args: Vec<Value>) -> End {
        self.push_frame(func, args, None);
        if self.block_k_exceeded(func, Block(0)) {
            return End::BoundExceeded;
        }
        loop {
            self.steps += 1;
            if self.steps > self.m.config.max_steps_per_run {
                return End::StepLimit;
            }
            // A long run must not outlive `--timeout`: the search stops
            // right after it.
            if self.steps.is_multiple_of(DEADLINE_CHECK_STEPS) && self.m.deadline.is_some_and(|d| Instant::now() >= d) {
                return End::StepLimit;
            }
            let flow = self.step();
            if let Flow::End(end) = flow {
                return end;
            }
            // Past a bound an extension keeps (a maximum cost threshold,
            // see `cost::CostCap`): like the k bound, no path through here
            // can give a test.
            if self.extensions(|e, _| e.over_bound().then_some(())).is_some() {
                return End::BoundExceeded;
            }
        }
    }

    pub(crate) fn frame(&self) -> &Frame {
        self.frames.last().expect("a frame")
    }

    pub(crate) fn frame_mut(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("a frame")
    }

    fn push_frame(&mut self, func: FuncId, args: Vec<Value>, ret_to: Option<Reg>) {
        let f = self.m.program.func(func);
        let mut regs = vec![None; f.num_regs as usize];
        for (p, a) in f.params.iter().zip(args) {
            regs[p.reg.index()] = Some(a);
        }
        let uninit = self.m.config.check_uninit;
        let locals = f
            .locals
            .iter()
            .map(|l| {
                let obj = self.mem.alloc(crate::memory::ObjKind::Local, l.elem, l.count);
                // Indeterminate until written (C11 6.7.9p10): the front
                // end stores a declaration's initialiser, all of it.
                if uninit {
                    self.mem.mark_unwritten(obj);
                }
                obj
            })
            .collect();
        let bound = &self.m.info.func(func).bound;
        let nloops = bound.len();
        self.frames.push(Frame {
            func,
            regs,
            locals,
            block: Block(0),
            inst: 0,
            loop_iters: IterCounts::new(bound),
            counted_iters: IterCounts::new(bound),
            decisions_at_start: vec![0; nloops],
            iteration_decided: vec![false; nloops],
            ret_to,
        });
    }

    fn step(&mut self) -> Flow {
        let (func, block, idx) = {
            let fr = self.frame();
            (fr.func, fr.block, fr.inst)
        };
        let f = self.m.program.func(func);
        let b = f.block(block);
        // Every step runs one instruction or one terminator.
        self.extensions(|e, _| {
            e.instruction();
            None::<()>
        });
        if idx == 0 && self.region == Region::Main {
            self.seen.blocks.insert((func, block));
        }
        if idx < b.insts.len() {
            let inst = &b.insts[idx];
            self.note_line(func, inst.loc);
            self.frame_mut().inst += 1;
            if let InstKind::Call { func: callee, args } = &inst.kind {
                return self.call(*callee, args, inst.result, inst.loc);
            }
            if let InstKind::CallPtr { callee, args, ret } = &inst.kind {
                return self.call_through_pointer(callee, args, *ret, inst.result, inst.loc);
            }
            match self.exec_inst(&inst.kind, inst.loc) {
                Ok(v) => {
                    if self.m.config.check_uninit {
                        if let Err(end) = self.track_initialised(&inst.kind, inst.result, inst.loc) {
                            return Flow::End(end);
                        }
                    }
                    if let (Some(r), Some(v)) = (inst.result, v) {
                        self.frame_mut().regs[r.index()] = Some(v);
                    }
                    Flow::Continue
                }
                Err(end) => Flow::End(end),
            }
        } else {
            self.note_line(func, b.term_loc);
            self.terminator(func, block, &b.term, b.term_loc)
        }
    }

    fn note_line(&mut self, func: FuncId, loc: Loc) {
        if self.region == Region::Main && !loc.is_none() {
            self.seen.lines.insert((func, loc.line));
        }
    }

    pub(crate) fn operand(&self, op: &Operand) -> Value {
        match *op {
            Operand::Reg(r) => self.frame().regs[r.index()].unwrap_or(Value::int(0)),
            Operand::Const(Type::Ptr, v) => {
                Value::Ptr(crate::value::Pointer { obj: None, off: v, off_sym: None, base_sym: None, path: 0 })
            }
            Operand::Const(_, v) => Value::int(v),
        }
    }

    /// Record a path-condition entry (only when it is symbolic; the
    /// extensions see it first, see [`crate::extension::Extension::entry`]).
    pub(crate) fn record(&mut self, cond: ExprId, kind: EntryKind, negatable: bool, bound_blocked: bool, loc: Loc) {
        let mut pending = self.new_entry(cond, kind, negatable, bound_blocked, loc);
        if pending.is_some() {
            self.extensions(|x, _| {
                pending = x.entry(pending.take()?);
                pending.is_none().then_some(())
            });
        }
        if let Some(entry) = pending {
            self.entries.push(entry);
        }
    }

    /// The entry recording `cond` would add, counting a symbolic decision
    /// (`None` when the run records no path condition or `cond` is
    /// constant).
    pub(crate) fn new_entry(
        &mut self,
        cond: ExprId,
        kind: EntryKind,
        negatable: bool,
        bound_blocked: bool,
        loc: Loc,
    ) -> Option<Entry> {
        let symbolic = non_const(self.pool, cond).is_some();
        if matches!(kind, EntryKind::Decision { .. } | EntryKind::Library { .. }) && symbolic {
            self.sym_decisions += 1;
        }
        if !self.symbolic || !symbolic {
            return None;
        }
        let step = self.seen.path.len() as u32;
        let local = self.region == Region::Main && self.frames.len() == 1 && !matches!(kind, EntryKind::Library { .. });
        Some(Entry { cond, kind, region: self.region, negatable, bound_blocked, loc, step, local })
    }

    /// Require `cond` (an expression that holds concretely) to keep holding.
    pub(crate) fn guard(&mut self, cond: ExprId, loc: Loc) {
        self.record(cond, EntryKind::Guard { violated: false }, false, false, loc);
    }

    /// Fix the symbolic value `e` to `value`, its value in this run (a
    /// size, an offset the memory model needs concrete): a guard keeps
    /// every solution there, and the place is recorded, since the paths
    /// other values would take are never explored (the search then does
    /// not claim completeness).
    pub(crate) fn concretise(&mut self, e: ExprId, value: u64, loc: Loc) {
        let w = self.pool.width(e);
        let k = self.pool.bv_const(w, value);
        let fixed = self.pool.eq(e, k);
        if self.symbolic && non_const(self.pool, fixed).is_some() {
            self.seen.pins.push(loc);
        }
        self.guard(fixed, loc);
    }

    /// The end of the run in an error of `kind` at `loc`; an error inside
    /// the C library's lowered code (`strtok`'s) is the user's call's,
    /// and its message names the function.
    pub(crate) fn error(&self, kind: ErrorKind, message: impl Into<String>, loc: Loc) -> End {
        let mut message = message.into();
        let at = self.user_loc(loc);
        if let Some(f) = self.library_entry().filter(|_| at != loc) {
            message = format!("{message} (in `{}`)", self.m.program.func(f).name);
        }
        End::Error(RuntimeError { kind, message, loc: at })
    }

    fn terminator(&mut self, func: FuncId, block: Block, term: &Terminator, loc: Loc) -> Flow {
        match term {
            Terminator::Jump(to) => self.goto(func, block, *to),
            Terminator::Branch { cond, then_block, else_block } => {
                let v = self.operand(cond);
                let taken = v.conc() & 1 == 1;
                if let Some(end) = self.decision(func, block, taken, v, loc) {
                    return Flow::End(end);
                }
                let to = if taken { *then_block } else { *else_block };
                self.goto(func, block, to)
            }
            Terminator::Return(op) => {
                let v = op.as_ref().map(|o| self.operand(o));
                let done = self.frames.pop().expect("a frame");
                if self.frames.is_empty() {
                    self.returned = v;
                    let ty = self.m.program.func(done.func).ret;
                    return Flow::End(End::Returned(v.map(|v| v.out_bits(ty))));
                }
                let mut v = Ok(v);
                self.extensions(|e, ex| {
                    v = e.returned(ex, *v.as_ref().ok()?);
                    v.is_err().then_some(())
                });
                let v = match v {
                    Ok(v) => v,
                    Err(end) => return Flow::End(end),
                };
                if let (Some(r), Some(v)) = (done.ret_to, v) {
                    self.frame_mut().regs[r.index()] = Some(v);
                }
                Flow::Continue
            }
            Terminator::Unreachable => Flow::End(self.error(ErrorKind::Unreachable, "reached unreachable code", loc)),
        }
    }

    /// Record a decision; ends the run when the side taken commits to
    /// exceeding the bound of the criterion (and marks the other side
    /// `bound_blocked` when it would).
    fn decision(&mut self, func: FuncId, block: Block, taken: bool, v: Value, loc: Loc) -> Option<End> {
        let fi = self.m.info.func(func);
        let mut exceeds = false;
        let mut alt_blocked = false;
        // Block-k after composed calls: whether the side taken can leave, as
        // a condition on their cases, and whether it can.
        let mut shadowed = None;
        if self.region == Region::Main {
            let innermost = fi.bound.loops.innermost(block);
            let loop_iter = innermost.map(|l| {
                let header = fi.bound.loops.loop_(l).header;
                (self.m.program.func(func).block(header).term_loc, self.frame().loop_iters.get(l))
            });
            self.seen.path.push(PathStep { func: self.m.step_func(func), loc, taken, loop_iter });
            self.seen.sides.insert((func, block, taken));
            match self.m.config.criterion {
                Criterion::KPath => {
                    if let (Some(_), Some(ls)) = (v.sym(), fi.loop_decisions.get(&block)) {
                        for l in ls {
                            self.frame_mut().iteration_decided[l.0 as usize] = true;
                        }
                    }
                    if let Some(commit) = fi.branch_commit.get(&block) {
                        let Terminator::Branch { then_block, else_block, .. } =
                            self.m.program.func(func).block(block).term
                        else {
                            unreachable!("a decision ends its block with a branch")
                        };
                        let (to, other) = if taken { (then_block, else_block) } else { (else_block, then_block) };
                        // This decision, if symbolic, is one of the
                        // iteration's (it is recorded below).
                        let sym = v.sym().is_some();
                        let here = self.commit_exceeds(func, &commit[usize::from(!taken)], to, sym, loc);
                        let there = self.commit_exceeds(func, &commit[usize::from(taken)], other, true, loc);
                        (exceeds, alt_blocked) = (here.is_some(), there.is_some());
                        for site in here.into_iter().chain(there) {
                            self.seen.bound_sites.push(site);
                        }
                    }
                }
                Criterion::BlockK => {
                    let (m, k) = (self.m, self.m.k.get());
                    let Terminator::Branch { then_block, else_block, .. } = m.program.func(func).block(block).term
                    else {
                        unreachable!("a decision ends its block with a branch")
                    };
                    let (to, other) = if taken { (then_block, else_block) } else { (else_block, then_block) };
                    self.visits.trace.push(crate::blockk::Check::Leave(func, to));
                    exceeds = !self.visits.can_leave(m.program, m.info, func, to, k);
                    alt_blocked = !self.visits.can_leave(m.program, m.info, func, other, k);
                    if exceeds || alt_blocked {
                        self.at_bound(loc, BoundKind::Block);
                    }
                    if self.visits.has_shadows() {
                        let g = crate::blockk::FuncGraph::new(m.program, m.info, func);
                        let none = Default::default();
                        let here = self.visits.leave_cond(self.pool, &g, func, to, k, &none);
                        // The other side may be within the bound for other
                        // cases of the composed calls before: not pruned.
                        let there = self.visits.leave_cond(self.pool, &g, func, other, k, &none);
                        alt_blocked &= self.pool.as_bool_const(there).is_some();
                        shadowed = Some((here, !exceeds));
                    }
                }
            }
        }
        if let Some(sym) = v.sym() {
            let c = bool_of(self.pool, v.conc(), Some(sym));
            let cond = if taken { c } else { self.pool.not(c) };
            // In the precondition itself, a side that returns 0 on every
            // path can give no valid input: never negated (see `reject.rs`).
            let negatable = !(self.region == Region::Pre && self.frames.len() == 1 && {
                let Terminator::Branch { then_block, else_block, .. } = self.m.program.func(func).block(block).term
                else {
                    unreachable!("a decision ends its block with a branch")
                };
                fi.rejects[(if taken { else_block } else { then_block }).index()]
            });
            self.record(cond, EntryKind::Decision { func, block, taken }, negatable, alt_blocked, loc);
        } else if self.frames.len() == 1 {
            self.extensions(|e, ex| {
                e.concrete_decision(ex, (func, block), taken, loc);
                None::<()>
            });
        }
        if let Some((cond, holds)) = shadowed {
            self.bound_condition(cond, holds, loc);
        }
        exceeds.then_some(End::BoundExceeded)
    }

    /// Whether the next iteration of loop `l` counts towards k: always
    /// under the strict count; else when a symbolic loop decision of the
    /// current iteration chose it or, for a loop without loop decisions
    /// (`while (1)`) or whose exit reads state the iterations set under
    /// decisions (`while (!done)`, see [`crate::loop_exits`]), when the
    /// iteration took any symbolic decision (`pending`: one is being taken).
    fn iteration_counts(&self, func: FuncId, l: usize, pending: bool) -> bool {
        let (fr, info) = (self.frame(), self.m.info.func(func));
        self.m.config.strict_loop_count
            || self.m.strategy.counts_every_iteration()
            || if info.has_loop_decision[l] && !info.state_exit[l] {
                fr.iteration_decided[l]
            } else {
                pending || self.sym_decisions > fr.decisions_at_start[l]
            }
    }

    /// Whether following a side (to block `to`, from the decision at
    /// `loc`) with these commitments exceeds the k bound: where, if so
    /// (the full loop's condition, or the decision committing to a deeper
    /// recursion).
    fn commit_exceeds(
        &self,
        func: FuncId,
        commit: &crate::analysis::SideCommit,
        to: Block,
        pending: bool,
        loc: Loc,
    ) -> Option<BoundSite> {
        let k = self.m.k.get();
        let fr = self.frame();
        let counts = |l: usize| self.iteration_counts(func, l, pending);
        if let Some(&l) = commit.loops.iter().find(|&&l| counts(l.0 as usize) && fr.counted_iters.full(l, k)) {
            return Some(BoundSite { loc: self.loop_loc(func, l), kind: BoundKind::Loop });
        }
        (commit.recursion && self.commits_to_deeper_recursion(func, to))
            .then_some(BoundSite { loc, kind: BoundKind::Recursion })
    }

    /// Where loop `l` of `func` is: its header's branch (the condition).
    fn loop_loc(&self, func: FuncId, l: pathwise_ir::analysis::LoopId) -> Loc {
        let header = self.m.info.func(func).bound.loops.loop_(l).header;
        self.m.program.func(func).block(header).term_loc
    }

    /// Note that the k bound cut the run or blocked a side at `loc` (the
    /// Main region's bound only: the precondition is not bounded by k).
    pub(crate) fn at_bound(&mut self, loc: Loc, kind: BoundKind) {
        if self.region == Region::Main {
            self.seen.bound_sites.push(BoundSite { loc, kind });
        }
    }

    /// Recursion depth (seed 000, section 4.4): the depth of a path in a
    /// call-graph cycle is the number of times it hits the cycle's entry
    /// function (the one through which the cycle was entered) minus one, so
    /// `eval_expr -> eval_term -> eval_factor -> eval_expr` is one level,
    /// not three. On the stack of a run: the activations of the entry
    /// function, less one. We take the most activations of *any* function of
    /// the cycle, less one: when every cycle passes the entry function
    /// (recursive descent, direct recursion) no other function has more
    /// activations than it, so this is seed 000's depth; a cycle that avoids
    /// the entry (`pong` calling itself inside `ping <-> pong`) would leave
    /// seed 000's count, and the number of paths, unbounded, and nests
    /// `pong` as the seed's "maximum number of unfoldings that any recursive
    /// function may undergo" (its section 3) counts it. The depth is at most
    /// k, so a call exceeds it when its callee already has k + 1
    /// activations ([`recursion_exceeds`]: the rule the traces, the static
    /// paths and the unwinding share).
    fn activations(&self, func: FuncId) -> u32 {
        self.frames.iter().filter(|fr| fr.func == func).count() as u32
    }

    /// Whether every way from `to` out of `func` (a function of a recursive
    /// cycle) calls a function of its cycle that a call would take beyond
    /// the depth bound (see [`Exec::activations`]).
    fn commits_to_deeper_recursion(&self, func: FuncId, to: Block) -> bool {
        let info = self.m.info;
        let Some(scc) = info.func(func).recursive_scc else { return false };
        let mut full: Vec<FuncId> = Vec::new();
        for fr in &self.frames {
            let g = fr.func;
            let deeper = recursion_exceeds(self.activations(g) + 1, self.m.k.get());
            if info.func(g).recursive_scc == Some(scc) && !full.contains(&g) && deeper {
                full.push(g);
            }
        }
        !full.is_empty()
            && crate::analysis::passes_call(self.m.program.func(func), info.func(func), to, |g| full.contains(&g))
    }

    /// Follow a CFG edge, maintaining loop iteration counters: which loop
    /// the edge enters afresh and whose iteration it starts is the shared
    /// rule ([`pathwise_ir::analysis::bound`]); whether that iteration
    /// counts towards k is the engine's ([`Exec::iteration_counts`]).
    fn goto(&mut self, func: FuncId, from: Block, to: Block) -> Flow {
        let edge = self.m.info.func(func).bound.edge(from, to);
        // Entering a loop from outside starts its count afresh.
        if let Some(l) = edge.entered {
            let now = self.sym_decisions;
            let fr = self.frame_mut();
            fr.loop_iters.reset(l);
            fr.counted_iters.reset(l);
            fr.decisions_at_start[l.0 as usize] = now;
            fr.iteration_decided[l.0 as usize] = false;
        }
        if let Some(l) = edge.started {
            let k = self.m.k.get();
            let main = self.region == Region::Main && self.m.config.criterion == Criterion::KPath;
            // An iteration no symbolic decision chose adds no path: it does
            // not count (unless the count is strict, as in seed 002).
            let counts = self.iteration_counts(func, l.0 as usize, false);
            let now = self.sym_decisions;
            let fr = self.frame_mut();
            fr.loop_iters.start(l);
            fr.decisions_at_start[l.0 as usize] = now;
            fr.iteration_decided[l.0 as usize] = false;
            if counts && iteration_exceeds(fr.counted_iters.start(l), k) && main {
                let loc = self.loop_loc(func, l);
                self.at_bound(loc, BoundKind::Loop);
                return Flow::End(End::BoundExceeded);
            }
        }
        if self.block_k_exceeded(func, to) {
            return Flow::End(End::BoundExceeded);
        }
        let fr = self.frame_mut();
        fr.block = to;
        fr.inst = 0;
        Flow::Continue
    }

    /// Under block-k, counts an entry of the Main region into `block`;
    /// true when it is one entry too many.
    fn block_k_exceeded(&mut self, func: FuncId, block: Block) -> bool {
        if self.m.config.criterion != Criterion::BlockK || self.region != Region::Main {
            return false;
        }
        let k = self.m.k.get();
        let fits = self.visits.enter(self.m.program, func, block, k);
        if !fits {
            let loc = self.m.program.func(func).block(block).term_loc;
            self.at_bound(loc, BoundKind::Block);
        }
        if let Some(count) = self.visits.shadow(func, block) {
            // A count composed calls made symbolic: the entry fits for some
            // of their cases only.
            let (one, kk) = (self.pool.bv_const(32, 1), self.pool.bv_const(32, k as u64));
            let below = self.pool.cmp(pathwise_expr::BvCmp::Ult, count, kk);
            let next = self.pool.bin(pathwise_expr::BvOp::Add, count, one);
            self.visits.set_shadow(func, block, next);
            let loc = self.m.program.func(func).block(block).term_loc;
            self.bound_condition(below, fits, loc);
        }
        !fits
    }

    /// A bound check that depends on symbolic values extensions introduced
    /// (block-k counts after composed calls).
    fn bound_condition(&mut self, cond: ExprId, holds: bool, loc: Loc) {
        self.extensions(|e, ex| {
            e.bound_condition(ex, cond, holds, loc);
            None::<()>
        });
    }

    pub(crate) fn call(&mut self, callee: FuncId, args: &[Operand], result: Option<Reg>, loc: Loc) -> Flow {
        let argv: Vec<Value> = args.iter().map(|a| self.operand(a)).collect();
        let mut callee = callee;
        self.extensions(|e, ex| {
            callee = e.call(ex, callee, loc);
            None::<()>
        });
        let f = self.m.program.func(callee);
        // sv-benchmarks' error function: reaching the call is the error,
        // whatever its body does.
        if matches!(f.name.as_str(), "reach_error" | "__VERIFIER_error") {
            return Flow::End(self.error(ErrorKind::ErrorCall, format!("{}() called", f.name), loc));
        }
        if let (Some(ty), true) = (nondet_type(&f.name, self.m.config.long_bits), f.is_declaration()) {
            // The declaration's own return type gives the width (it is what
            // the caller's register expects).
            let ty = pathwise_ir::IntTy { ty: f.ret.unwrap_or(ty.ty), signed: ty.signed };
            let is_bool = f.name.ends_with("bool") || f.name.ends_with("_Bool");
            let v = self.nondet(ty, is_bool, loc);
            if let Some(r) = result {
                self.frame_mut().regs[r.index()] = Some(v);
            }
            return Flow::Continue;
        }
        let external = self.m.config.externals.contains(&f.name) || crate::fnptr::is_stub(&f.name);
        if f.is_declaration() && external && !crate::setup::has_model(&f.name) {
            let v = match self.external_call(callee, &argv, loc) {
                Ok(v) => v,
                Err(end) => return Flow::End(end),
            };
            if let (Some(r), Some(v)) = (result, v) {
                self.frame_mut().regs[r.index()] = Some(v);
            }
            return Flow::Continue;
        }
        if f.is_declaration() {
            return match self.builtin(&f.name, f.ret, &argv, loc) {
                Ok(v) => {
                    if let (Some(r), Some(v)) = (result, v) {
                        self.frame_mut().regs[r.index()] = Some(v);
                    }
                    Flow::Continue
                }
                Err(end) => Flow::End(end),
            };
        }
        let mut argv = argv;
        self.extensions(|e, ex| {
            argv = e.enter(ex, callee, std::mem::take(&mut argv), loc);
            None::<()>
        });
        self.push_frame(callee, argv, result);
        let exceeded = match self.m.config.criterion {
            Criterion::KPath => {
                let deeper = self.region == Region::Main
                    && self.m.info.func(callee).recursive_scc.is_some()
                    && recursion_exceeds(self.activations(callee), self.m.k.get());
                if deeper {
                    self.at_bound(loc, BoundKind::Recursion);
                }
                deeper
            }
            Criterion::BlockK => self.block_k_exceeded(callee, Block(0)),
        };
        if exceeded {
            return Flow::End(End::BoundExceeded);
        }
        Flow::Continue
    }

    /// Models of functions without a body.
    fn builtin(&mut self, name: &str, ret: Option<Type>, args: &[Value], loc: Loc) -> Result<Option<Value>, End> {
        if let Some(v) = self.extensions(|e, ex| e.builtin(ex, name, args)) {
            return Ok(Some(v));
        }
        if let Some(r) = self.libc_call(name, ret, args, loc) {
            return r;
        }
        match name {
            "__VERIFIER_assume" => {
                let c = args.first().copied().unwrap_or(Value::int(1));
                let e = crate::value::bv_of(self.pool, c.conc(), c.sym(), 32);
                let zero = self.pool.bv_const(32, 0);
                let is_zero = self.pool.eq(e, zero);
                let cond = self.pool.not(is_zero);
                self.assume(cond, c.conc() & 0xffff_ffff != 0, loc)?;
                Ok(None)
            }
            "pathwise_assume" => {
                let c = args.first().copied().unwrap_or(Value::int(1));
                let w = 32;
                let e = crate::value::bv_of(self.pool, c.conc(), c.sym(), w);
                let zero = self.pool.bv_const(w, 0);
                let is_zero = self.pool.eq(e, zero);
                let cond = self.pool.not(is_zero);
                self.assume(cond, c.conc() & 0xffff_ffff != 0, loc)?;
                Ok(None)
            }
            "pathwise_array_len" => {
                let p = args.first().map(|v| v.as_ptr()).unwrap_or(crate::value::Pointer::NULL);
                let n = args.get(1).copied().unwrap_or(Value::int(0));
                let heap_input = |o| matches!(self.mem.object(o).kind, crate::memory::ObjKind::HeapInput { .. });
                let at_count = p.off == 0 || p.obj.is_none() || self.at_tail_start(&p);
                if at_count && p.off_sym.is_none() && p.path != 0 && p.obj.is_none_or(heap_input) {
                    // An input pointer (or a flexible array member through
                    // one: `m->data`): a null one has nothing to tie.
                    return self.tie_heap_count(&p, n, loc).map(|()| None);
                }
                if p.obj.is_none() && p.off == 0 && p.base_sym.is_some() {
                    // A null parameter (see `null_params`): no array to tie.
                    return Ok(None);
                }
                let input = p.obj.and_then(|o| self.mem.object(o).input);
                let (Some(inp), 0, None) = (input, p.off, p.off_sym) else {
                    let message =
                        "pathwise_array_len: the first argument must be an input array parameter or an input pointer";
                    return Err(self.error(ErrorKind::Unsupported, message, loc));
                };
                let n_e = crate::value::bv_of(self.pool, n.conc(), n.sym(), 64);
                let cond = self.pool.eq(inp.len, n_e);
                let holds = (self.input_lens)(inp.len) == n.conc();
                self.seen.tied_lens.insert(inp.len);
                self.assume(cond, holds, loc)?;
                Ok(None)
            }
            "pathwise_same_object" => self.same_object(args, loc).map(|()| None),
            "pathwise_noalias" | "pathwise_acyclic" | "pathwise_nonsharing" => {
                self.heap_assumption(name, args, loc)?;
                Ok(None)
            }
            "abort" => Err(self.error(ErrorKind::Abort, "abort() called", loc)),
            "exit" | "_exit" => {
                let code = args.first().map_or(0, |v| v.conc() as u32 as i32);
                if name == "_exit" {
                    // It ends the process without flushing `stdout`: what
                    // the buffer held is lost, or part of it.
                    self.seen.stdout = None;
                }
                // The message names the function: `_exit` writes no gcov
                // counters either, which the C test says.
                Err(self.error(ErrorKind::Exit(code), format!("{name}({code}) called"), loc))
            }
            "__assert_fail" => Err(self.error(ErrorKind::AssertionFailure, "assertion failed", loc)),
            _ if self.m.config.program_mode.as_ref().is_some_and(|p| p.concretise_externals) => Ok(ret.map(|ty| {
                let ty = pathwise_ir::IntTy { ty, signed: true };
                self.nondet(ty, false, loc)
            })),
            _ => {
                let message = format!("call to external function `{name}` without a model");
                Err(self.error(ErrorKind::Unsupported, message, loc))
            }
        }
    }

    /// A fresh input of type `ty`: its value comes from the inputs of this
    /// run (0 when they do not mention it).
    fn nondet(&mut self, ty: pathwise_ir::IntTy, is_bool: bool, loc: Loc) -> Value {
        let name = format!("nondet{}_{}", self.seen.nondets.len(), ty.ty.bits());
        let (var, value) = self.fresh_input(&name, ty, is_bool, loc);
        if ty.ty.is_float() {
            self.seen.float_inputs.push(var);
        }
        self.seen.nondets.push(Nondet { var, ty, value });
        // Reading a fresh input makes the iteration a new one, as a symbolic
        // decision does: a `while (1)` that reads inputs without branching
        // on them stops at k instead of running to the step limit.
        self.sym_decisions += 1;
        // Symbolic in a concrete replay too, as parameters are: which tests
        // are decisions of the path (a library's byte tests) must not depend
        // on the mode.
        Value::Int { conc: value, sym: Some(var) }
    }

    /// The variable named `name` of an input of type `ty`, and its value in
    /// this run's inputs (0 when they do not mention it).
    pub(crate) fn fresh_input(&mut self, name: &str, ty: pathwise_ir::IntTy, is_bool: bool, loc: Loc) -> (ExprId, u64) {
        let w = ty.ty.bits();
        let var = self.pool.var(name, pathwise_expr::Sort::Bv(w));
        let mut value = (self.input_lens)(var) & ty.ty.mask();
        if is_bool && w > 1 {
            // A `_Bool` is 0 or 1, whatever width carries it.
            let one = self.pool.bv_const(w, 1);
            let ok = self.pool.cmp(pathwise_expr::BvCmp::Ule, var, one);
            self.record(ok, EntryKind::Assume, false, false, loc);
            value = value.min(1);
        }
        (var, value)
    }

    /// A call of an external function: declared not to touch memory the
    /// code under test can see, so nothing changes but the result, a fresh
    /// input. Its variable is named after the call's position in the run and
    /// the function (`ext:<i>:<name>`; the precondition's calls are `pre.`
    /// ones, inputs of its own), so that the same call in another run is the
    /// same input and the solver can choose its value like a parameter's.
    /// A pointer result is an input pointer named like a slot (see
    /// [`crate::heap`]): null, a fresh object or an alias. `check` rejected
    /// `void *` results and argument counts that do not match the
    /// declaration.
    fn external_call(&mut self, callee: FuncId, argv: &[Value], loc: Loc) -> Result<Option<Value>, End> {
        let f = self.m.program.func(callee);
        let args = f
            .params
            .iter()
            .zip(argv)
            .map(|(p, v)| {
                if p.ty == Type::Ptr {
                    let ptr = v.as_ptr();
                    if ptr.obj.is_none() && ptr.off == 0 {
                        crate::suite::CallArg::Null
                    } else {
                        crate::suite::CallArg::NonNull
                    }
                } else {
                    crate::suite::CallArg::Int(p.src.scalar.to_i128_wide(v.out_bits(Some(p.src.scalar.ty))))
                }
            })
            .collect();
        let region = if self.region == Region::Pre { "pre." } else { "" };
        if let Some(pointee) = crate::setup::external_pointee(f) {
            let name = format!("{region}ext:{}:{}", self.seen.calls.len(), f.name);
            let v = self.input_pointer(&name, &pointee, loc)?;
            self.call_pointers.push((self.seen.calls.len(), v, pointee));
            let call = crate::suite::ExternalCall { name: f.name.clone(), args, ret: None, ret_pointer: None };
            self.seen.calls.push(call);
            return Ok(Some(v));
        }
        // Without a C description the IR type is read as signed.
        let ret = f.ret_src.as_ref().map(|s| (s.scalar, s.c_scalar == "_Bool"));
        let ret = ret.or(f.ret.map(|ty| (pathwise_ir::IntTy { ty, signed: true }, false)));
        let value = ret.map(|(ty, is_bool)| {
            let name = format!("{region}ext:{}:{}", self.seen.calls.len(), f.name);
            let (var, value) = self.fresh_input(&name, ty, is_bool, loc);
            (Value::Int { conc: value, sym: Some(var) }, ty.to_i128(value))
        });
        let call =
            crate::suite::ExternalCall { name: f.name.clone(), args, ret: value.map(|v| v.1), ret_pointer: None };
        self.seen.calls.push(call);
        Ok(value.map(|v| v.0))
    }

    /// An assumption: records it and ends the run when it is false.
    pub(crate) fn assume(&mut self, cond: ExprId, holds: bool, loc: Loc) -> Result<(), End> {
        if holds {
            self.record(cond, EntryKind::Assume, false, false, loc);
            Ok(())
        } else {
            let neg = self.pool.not(cond);
            self.record(neg, EntryKind::Assume, true, false, loc);
            Err(End::AssumeFailed)
        }
    }
}

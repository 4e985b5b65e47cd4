//! Loops whose exit the data decides through state: a loop decision whose
//! condition reads a value the iteration sets under a decision.
//!
//! By default an iteration counts towards k only when a symbolic loop
//! decision chose it (see [`crate::loop_decisions`]), so that a loop of
//! fixed count (`for (i = 0; i < 10; i++) if (a[i]) n++;`) costs nothing
//! against k. A loop stepped by state is not of fixed count although its
//! test is concrete on each run: in `while (!done) { if (s[i] == 0) done =
//! 1; i++; }` and in a state machine's driver `while (m.st != DONE) m.st =
//! step(&m, s[i++]);` the number of iterations is what the input's
//! decisions chose, one iteration earlier. Without counting them, the
//! search would follow such a loop as far as the input arrays grow.
//!
//! A loop decision is *state-decided* when its condition depends, through
//! registers and the local variables the function stores (never through
//! memory a pointer may change unless the loop writes no memory and calls
//! nothing), on
//! - a store in the loop that is not made on every iteration (its block
//!   does not dominate every latch: it is under a decision), unless it
//!   steps an induction variable by a constant (`i += 2` in one branch,
//!   `i++` in the other: the bound it is tested against still fixes the
//!   number of iterations within a range the data does not extend);
//! - the result of a call in the loop (the callee may decide it);
//! - memory the loop may write through a pointer or a call (a local whose
//!   address escapes, or any object reached through a pointer; the C
//!   library's readers, `strcmp` and the like, write nothing).
//!
//! An iteration of a loop with a state-decided exit counts when a symbolic
//! decision was taken in it, as an iteration of a loop without loop
//! decisions does. Static and conservative: a fixed-count loop whose test
//! reads such state is counted too, which only bounds it by k.

use pathwise_ir::analysis::{Dominators, LoopId, LoopInfo};
use pathwise_ir::{BinOp, Block, FuncData, InstKind, Local, Operand, Program, Reg, Terminator};
use rustc_hash::{FxHashMap, FxHashSet};

/// Per loop of `f` (a function of `program`): whether one of its loop
/// decisions is state-decided.
pub fn state_decided_loops(
    program: &Program,
    f: &FuncData,
    li: &LoopInfo,
    decisions: &FxHashMap<Block, Vec<LoopId>>,
) -> Vec<bool> {
    let mut out = vec![false; li.loops.len()];
    if decisions.is_empty() {
        return out;
    }
    let facts = Facts::new(f);
    let doms = Dominators::compute(f);
    let mut blocks: Vec<(&Block, &Vec<LoopId>)> = decisions.iter().collect();
    blocks.sort();
    for (&b, loops) in blocks {
        let Terminator::Branch { cond, .. } = f.block(b).term else { continue };
        for &l in loops {
            if !out[l.0 as usize] {
                let mut walk = Walk {
                    program,
                    f,
                    li,
                    doms: &doms,
                    facts: &facts,
                    l,
                    seen_regs: FxHashSet::default(),
                    seen_locals: FxHashSet::default(),
                };
                out[l.0 as usize] = walk.depends(cond);
            }
        }
    }
    out
}

/// Where an instruction is, and what the function's locals are exposed to.
struct Facts {
    /// The definitions of each register: (block, index in the block).
    defs: FxHashMap<Reg, Vec<(Block, usize)>>,
    /// Locals whose address is used otherwise than to load or store
    /// through it (passed to a call, stored, compared, converted).
    escaped: FxHashSet<Local>,
}

impl Facts {
    fn new(f: &FuncData) -> Facts {
        let mut defs: FxHashMap<Reg, Vec<(Block, usize)>> = FxHashMap::default();
        for (bi, b) in f.blocks.iter().enumerate() {
            for (ii, inst) in b.insts.iter().enumerate() {
                if let Some(r) = inst.result {
                    defs.entry(r).or_default().push((Block(bi as u32), ii));
                }
            }
        }
        let mut facts = Facts { defs, escaped: FxHashSet::default() };
        for b in &f.blocks {
            for inst in &b.insts {
                let address_uses: Vec<Operand> = match &inst.kind {
                    // Through the pointer: not an escape.
                    InstKind::Load { .. } => Vec::new(),
                    InstKind::Store { value, .. } => vec![*value],
                    InstKind::PtrAdd { offset, .. } => vec![*offset],
                    k => k.operands(),
                };
                for op in address_uses {
                    if let Some(local) = facts.local_of(f, op) {
                        facts.escaped.insert(local);
                    }
                }
            }
            if let Some(local) = b.term.operands().into_iter().find_map(|op| facts.local_of(f, op)) {
                facts.escaped.insert(local);
            }
        }
        facts
    }

    /// The local a pointer operand points into (through `ptradd`), if
    /// its only definition says so.
    fn local_of(&self, f: &FuncData, op: Operand) -> Option<Local> {
        let mut op = op;
        for _ in 0..64 {
            let Operand::Reg(r) = op else { return None };
            let [(b, i)] = self.defs.get(&r)?.as_slice() else { return None };
            match &f.block(*b).insts[*i].kind {
                InstKind::AddrLocal { local } => return Some(*local),
                InstKind::PtrAdd { base, .. } => op = *base,
                _ => return None,
            }
        }
        None
    }
}

/// One question: does an operand of loop `l`'s decision depend on state?
struct Walk<'a> {
    program: &'a Program,
    f: &'a FuncData,
    li: &'a LoopInfo,
    doms: &'a Dominators,
    facts: &'a Facts,
    l: LoopId,
    seen_regs: FxHashSet<Reg>,
    seen_locals: FxHashSet<Local>,
}

impl Walk<'_> {
    fn in_loop(&self, b: Block) -> bool {
        self.li.contains(self.l, b)
    }

    /// Whether `b` runs on every iteration that reaches the next one.
    fn every_iteration(&self, b: Block) -> bool {
        self.li.loop_(self.l).latches.iter().all(|&latch| self.doms.dominates(b, latch))
    }

    /// The loop's instructions, with their blocks.
    fn loop_insts(&self) -> impl Iterator<Item = (Block, &pathwise_ir::Inst)> + '_ {
        self.li.loop_(self.l).blocks.iter().flat_map(move |&b| self.f.block(b).insts.iter().map(move |i| (b, i)))
    }

    /// The loop calls a function that may write memory (any but the C
    /// library's readers) or stores through a pointer that is not to one
    /// of the function's own locals.
    fn writes_memory(&self) -> bool {
        self.loop_insts().any(|(_, i)| match &i.kind {
            InstKind::Call { func, .. } => {
                let callee = self.program.func(*func);
                !(callee.is_declaration() && crate::libc::writes_nothing(&callee.name))
            }
            InstKind::CallPtr { .. } => true,
            InstKind::Store { ptr, .. } => self.facts.local_of(self.f, *ptr).is_none(),
            _ => false,
        })
    }

    fn depends(&mut self, op: Operand) -> bool {
        let Operand::Reg(r) = op else { return false };
        if !self.seen_regs.insert(r) {
            return false;
        }
        let Some(defs) = self.facts.defs.get(&r) else { return false };
        for &(b, i) in defs {
            if !self.in_loop(b) {
                continue;
            }
            let kind = &self.f.block(b).insts[i].kind;
            let hit = match kind {
                InstKind::Call { .. } | InstKind::CallPtr { .. } => true,
                InstKind::Load { ptr, .. } => self.load_depends(*ptr),
                k => k.operands().into_iter().any(|o| self.depends(o)),
            };
            if hit {
                return true;
            }
        }
        false
    }

    /// A load through `ptr` in the loop: its value is state when the loop
    /// writes that memory under a decision (or may write it at all, for
    /// memory a pointer reaches).
    fn load_depends(&mut self, ptr: Operand) -> bool {
        let Some(local) = self.facts.local_of(self.f, ptr) else {
            return self.writes_memory() || self.depends(ptr);
        };
        if self.facts.escaped.contains(&local) && self.writes_memory() {
            return true;
        }
        if !self.seen_locals.insert(local) {
            return false;
        }
        let stores: Vec<(Block, Operand)> = self
            .loop_insts()
            .filter_map(|(b, i)| match &i.kind {
                InstKind::Store { ptr, value, .. } if self.facts.local_of(self.f, *ptr) == Some(local) => {
                    Some((b, *value))
                }
                _ => None,
            })
            .collect();
        stores
            .into_iter()
            .any(|(b, value)| !self.is_step(value, local) && (!self.every_iteration(b) || self.depends(value)))
    }

    /// Whether `value` is `local` stepped by a constant (`i += 2`, `p++`):
    /// an induction variable, whichever branch steps it, so a test of it
    /// against a bound ends the loop within a number of iterations the
    /// data does not choose beyond that bound (`while (i < 16) { if (b[i]
    /// & 0x80) i += 2; else i++; }` runs 8 to 16 times).
    fn is_step(&self, value: Operand, local: Local) -> bool {
        let def = |op: Operand| {
            let Operand::Reg(r) = op else { return None };
            let [(b, i)] = self.facts.defs.get(&r)?.as_slice() else { return None };
            Some(&self.f.block(*b).insts[*i].kind)
        };
        let of_local = |op: Operand| matches!(def(op), Some(InstKind::Load { ptr, .. }) if self.facts.local_of(self.f, *ptr) == Some(local));
        match def(value) {
            Some(InstKind::Bin { op: BinOp::Add | BinOp::Sub, a, b: Operand::Const(..), .. }) => of_local(*a),
            Some(InstKind::PtrAdd { base, offset: Operand::Const(..) }) => of_local(*base),
            _ => false,
        }
    }
}

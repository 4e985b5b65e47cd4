//! Construction of one IR function: blocks, registers, local slots.
//!
//! The builder always has a *current block*. Terminating it (jump, branch,
//! return) closes it; any instruction emitted afterwards opens a fresh block
//! with no predecessor, which is how unreachable code after `return` or
//! `break` is absorbed. [`FuncBuilder::finish`] then removes blocks that are
//! unreachable from `bb0` (so analyses see only real control flow), merges a
//! block ending in `jmp X` with `X` when it is `X`'s only predecessor (the
//! empty joins of structured lowering), lays blocks out in the order they were
//! filled (close to source order) and renumbers registers densely in
//! definition order, parameters first.
//!
//! Constant operands are folded where it is free and exact (casts and
//! non-trapping arithmetic), so that `-1`, `(long)0` or `NULL` reach the IR as
//! constants; divisions are never folded, so that a division by zero still
//! happens at run time where the engine can report it. Floating operations
//! fold always (IEEE division by zero is defined, C11 Annex F) except
//! conversions to integers that are out of range.

use pathwise_ir::{
    float, BinOp, Block, BlockData, CastOp, CmpOp, FBinOp, FCastOp, FCmpOp, Inst, InstKind, Loc, Local, LocalData,
    Operand, Reg, Terminator, Type,
};

#[derive(Clone)]
struct PendingBlock {
    insts: Vec<Inst>,
    term: Option<(Terminator, Loc)>,
}

/// A function under construction. Cloneable so that an expression can be
/// lowered on a scratch copy just to learn its type (`sizeof expr`).
#[derive(Clone)]
pub(crate) struct FuncBuilder {
    blocks: Vec<PendingBlock>,
    cur: Block,
    next_reg: u32,
    num_params: u32,
    /// Blocks in the order they were first made current (the layout).
    order: Vec<Block>,
    in_order: Vec<bool>,
    pub locals: Vec<LocalData>,
    /// Iteration-start blocks, before merging and layout.
    iteration_starts: Vec<Block>,
    /// Decision chains of switches, before merging and layout.
    switches: Vec<Vec<Block>>,
}

impl FuncBuilder {
    /// A builder with `bb0` current and registers `%0..%{num_params-1}`
    /// reserved for the parameters.
    pub fn new(num_params: u32) -> FuncBuilder {
        FuncBuilder {
            blocks: vec![PendingBlock { insts: Vec::new(), term: None }],
            cur: Block(0),
            next_reg: num_params,
            num_params,
            order: vec![Block(0)],
            in_order: vec![true],
            locals: Vec::new(),
            iteration_starts: Vec::new(),
            switches: Vec::new(),
        }
    }

    pub fn new_block(&mut self) -> Block {
        self.blocks.push(PendingBlock { insts: Vec::new(), term: None });
        self.in_order.push(false);
        Block((self.blocks.len() - 1) as u32)
    }

    /// Makes `b` the current block (it must not be terminated yet).
    pub fn switch_to(&mut self, b: Block) {
        if let Some(seen) = self.in_order.get_mut(b.index()) {
            if !*seen {
                *seen = true;
                self.order.push(b);
            }
        }
        self.cur = b;
    }

    pub fn current(&self) -> Block {
        self.cur
    }

    pub fn is_terminated(&self) -> bool {
        self.blocks[self.cur.index()].term.is_some()
    }

    /// Opens a fresh (unreachable) block if the current one is closed.
    fn ensure_open(&mut self) {
        if self.is_terminated() {
            let b = self.new_block();
            self.switch_to(b);
        }
    }

    pub fn local(&mut self, name: String, elem: Type, count: u64) -> Local {
        self.locals.push(LocalData { name, elem, count });
        Local((self.locals.len() - 1) as u32)
    }

    /// The number of slots so far (names synthetic slots uniquely).
    pub fn num_locals(&self) -> usize {
        self.locals.len()
    }

    /// A synthetic slot (`tmp.N`, N its slot number) for values that merge
    /// control flow.
    pub fn temp(&mut self, elem: Type) -> Local {
        let name = format!("tmp.{}", self.locals.len());
        self.local(name, elem, 1)
    }

    fn push(&mut self, result: Option<Reg>, kind: InstKind, loc: Loc) {
        self.ensure_open();
        self.blocks[self.cur.index()].insts.push(Inst { result, kind, loc });
    }

    /// Emits an instruction with a result register.
    pub fn value(&mut self, kind: InstKind, loc: Loc) -> Operand {
        let r = Reg(self.next_reg);
        self.next_reg += 1;
        self.push(Some(r), kind, loc);
        Operand::Reg(r)
    }

    /// Emits an instruction without a result.
    pub fn effect(&mut self, kind: InstKind, loc: Loc) {
        self.push(None, kind, loc);
    }

    /// Terminates the current block.
    pub fn terminate(&mut self, term: Terminator, loc: Loc) {
        self.ensure_open();
        self.blocks[self.cur.index()].term = Some((term, loc));
    }

    pub fn jump(&mut self, to: Block) {
        self.terminate(Terminator::Jump(to), Loc::NONE);
    }

    /// A decision; a constant condition becomes a jump.
    pub fn branch(&mut self, cond: Operand, then_block: Block, else_block: Block, loc: Loc) {
        match cond {
            Operand::Const(_, v) => self.jump(if v != 0 { then_block } else { else_block }),
            cond => self.terminate(Terminator::Branch { cond, then_block, else_block }, loc),
        }
    }

    /// A wrapping (unsigned, or explicitly modular) binary operation.
    pub fn bin(&mut self, op: BinOp, ty: Type, a: Operand, b: Operand, loc: Loc) -> Operand {
        self.bin_flagged(op, ty, a, b, false, loc)
    }

    /// A binary operation on operands of a C integer type with the given
    /// signedness: signed `+ - * <<` are marked `nsw` (overflow is undefined).
    pub fn arith(&mut self, op: BinOp, ty: Type, signed: bool, a: Operand, b: Operand, loc: Loc) -> Operand {
        let nsw = signed && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl);
        self.bin_flagged(op, ty, a, b, nsw, loc)
    }

    fn bin_flagged(&mut self, op: BinOp, ty: Type, a: Operand, b: Operand, nsw: bool, loc: Loc) -> Operand {
        if let (Operand::Const(_, x), Operand::Const(_, y)) = (a, b) {
            // An overflowing signed constant operation is left to run time,
            // where it is reported.
            let overflows = nsw && op.signed_overflows(ty.bits(), x, y);
            if let Some(v) = fold_bin(op, ty, x, y).filter(|_| !overflows) {
                return Operand::Const(ty, v & ty.mask());
            }
        }
        self.value(InstKind::Bin { op, ty, a, b, nsw }, loc)
    }

    pub fn cmp(&mut self, op: CmpOp, ty: Type, a: Operand, b: Operand, loc: Loc) -> Operand {
        if let (Operand::Const(_, x), Operand::Const(_, y)) = (a, b) {
            return Operand::Const(Type::I1, u64::from(fold_cmp(op, ty, x, y)));
        }
        self.value(InstKind::Cmp { op, ty, a, b }, loc)
    }

    /// Width conversion; a no-op when the widths agree.
    pub fn cast(&mut self, signed: bool, from: Type, to: Type, a: Operand, loc: Loc) -> Operand {
        if from == to {
            return a;
        }
        let op = if to.bits() < from.bits() {
            CastOp::Trunc
        } else if signed && from != Type::I1 {
            CastOp::SExt
        } else {
            CastOp::ZExt
        };
        if let Operand::Const(_, v) = a {
            let v = v & from.mask();
            let v = match op {
                CastOp::SExt => sext(v, from.bits()) as u64,
                _ => v,
            };
            return Operand::Const(to, v & to.mask());
        }
        self.value(InstKind::Cast { op, from, to, a }, loc)
    }

    /// Floating arithmetic, folded when both operands are constants (the
    /// IEEE result is the same at compile time and at run time); a `long
    /// double` result that is not a double is left to run time, which stops
    /// the path as unsupported.
    pub fn fbin(&mut self, op: FBinOp, ty: Type, a: Operand, b: Operand, loc: Loc) -> Operand {
        if let (Operand::Const(_, x), Operand::Const(_, y)) = (a, b) {
            if let Ok(v) = float::eval_fbin(op, ty, x, y) {
                return Operand::Const(ty, v);
            }
        }
        self.value(InstKind::FBin { op, ty, a, b }, loc)
    }

    pub fn fneg(&mut self, ty: Type, a: Operand, loc: Loc) -> Operand {
        if let Operand::Const(_, x) = a {
            return Operand::Const(ty, float::eval_fneg(ty, x));
        }
        self.value(InstKind::FNeg { ty, a }, loc)
    }

    pub fn fcmp(&mut self, op: FCmpOp, ty: Type, a: Operand, b: Operand, loc: Loc) -> Operand {
        if let (Operand::Const(_, x), Operand::Const(_, y)) = (a, b) {
            return Operand::Const(Type::I1, u64::from(float::eval_fcmp(op, ty, x, y)));
        }
        self.value(InstKind::FCmp { op, ty, a, b }, loc)
    }

    /// A conversion involving a floating type. A constant is folded unless
    /// the conversion is undefined (or a `long double` that is not a
    /// double): that is left to run time, where it is reported.
    pub fn fcast(&mut self, op: FCastOp, from: Type, to: Type, a: Operand, loc: Loc) -> Operand {
        if let Operand::Const(_, x) = a {
            if let Ok(v) = float::eval_fcast(op, from, to, x & from.mask()) {
                return Operand::Const(to, v);
            }
        }
        self.value(InstKind::FCast { op, from, to, a }, loc)
    }

    pub fn load(&mut self, ty: Type, ptr: Operand, loc: Loc) -> Operand {
        self.value(InstKind::Load { ty, ptr }, loc)
    }

    pub fn store(&mut self, ty: Type, ptr: Operand, value: Operand, loc: Loc) {
        self.effect(InstKind::Store { ty, ptr, value }, loc);
    }

    pub fn addr_local(&mut self, local: Local, loc: Loc) -> Operand {
        self.value(InstKind::AddrLocal { local }, loc)
    }

    /// Finishes the function: unterminated blocks end in `unreachable`,
    /// unreachable blocks are dropped, a block jumping to a block that has no
    /// other predecessor absorbs it, and the remaining blocks are laid out in
    /// the order they were first filled (close to source order). Returns the
    /// blocks, the slots and the register count.
    /// Record that `b` starts an iteration of the loop being lowered.
    pub fn mark_iteration_start(&mut self, b: Block) {
        self.iteration_starts.push(b);
    }

    /// Record the decision blocks of one `switch`.
    pub fn mark_switch(&mut self, chain: Vec<Block>) {
        self.switches.push(chain);
    }

    pub fn finish(self) -> Finished {
        let mut blocks: Vec<Option<(Vec<Inst>, Terminator, Loc)>> = self
            .blocks
            .into_iter()
            .map(|b| {
                let (term, loc) = b.term.unwrap_or((Terminator::Unreachable, Loc::NONE));
                Some((b.insts, term, loc))
            })
            .collect();
        let reachable = reachable_from_entry(&blocks);
        let mut preds = vec![0usize; blocks.len()];
        for (i, b) in blocks.iter().enumerate() {
            if let (true, Some((_, term, _))) = (reachable[i], b) {
                for s in term.successors() {
                    preds[s.index()] += 1;
                }
            }
        }
        let merged_into = merge_chains(&mut blocks, &reachable, &preds);
        // Layout: first-filled order, then any block never switched to.
        let mut layout: Vec<usize> = Vec::new();
        let mut placed = vec![false; blocks.len()];
        for i in self.order.iter().map(|b| b.index()).chain(0..blocks.len()) {
            if reachable[i] && blocks[i].is_some() && !placed[i] {
                placed[i] = true;
                layout.push(i);
            }
        }
        let mut block_map = vec![Block(u32::MAX); blocks.len()];
        for (n, &i) in layout.iter().enumerate() {
            block_map[i] = Block(n as u32);
        }
        // Number definitions first (in layout order), then rewrite uses.
        let mut regs = Renumber::new(self.num_params, self.next_reg);
        for &i in &layout {
            if let Some((insts, _, _)) = &blocks[i] {
                for r in insts.iter().filter_map(|inst| inst.result) {
                    regs.define(r);
                }
            }
        }
        let mut out = Vec::new();
        for &i in &layout {
            let Some((insts, term, term_loc)) = blocks[i].take() else { continue };
            let insts = insts.into_iter().map(|inst| regs.inst(inst)).collect();
            let term = match term {
                Terminator::Jump(b) => Terminator::Jump(block_map[b.index()]),
                Terminator::Branch { cond, then_block, else_block } => Terminator::Branch {
                    cond: regs.operand(cond),
                    then_block: block_map[then_block.index()],
                    else_block: block_map[else_block.index()],
                },
                Terminator::Return(v) => Terminator::Return(v.map(|v| regs.operand(v))),
                Terminator::Unreachable => Terminator::Unreachable,
            };
            out.push(BlockData { insts, term, term_loc });
        }
        // A marked block absorbed by its predecessor is now that block.
        let final_block = |b: &Block| {
            let mut i = b.index();
            while let Some(into) = merged_into[i] {
                i = into;
            }
            let mapped = block_map[i];
            (reachable[i] && mapped.0 != u32::MAX).then_some(mapped)
        };
        let mut starts: Vec<Block> = self.iteration_starts.iter().filter_map(final_block).collect();
        starts.sort();
        starts.dedup();
        let switches = self
            .switches
            .iter()
            .map(|chain| chain.iter().filter_map(final_block).collect::<Vec<_>>())
            .filter(|chain| !chain.is_empty())
            .collect();
        Finished { blocks: out, locals: self.locals, num_regs: regs.next, iteration_starts: starts, switches }
    }
}

/// A lowered function body, ready for [`pathwise_ir::FuncData`].
pub(crate) struct Finished {
    pub blocks: Vec<BlockData>,
    pub locals: Vec<LocalData>,
    pub num_regs: u32,
    pub iteration_starts: Vec<Block>,
    pub switches: Vec<Vec<Block>>,
}

type RawBlock = (Vec<Inst>, Terminator, Loc);

fn reachable_from_entry(blocks: &[Option<RawBlock>]) -> Vec<bool> {
    let mut reachable = vec![false; blocks.len()];
    let mut stack = vec![0usize];
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut reachable[b], true) {
            continue;
        }
        if let Some((_, term, _)) = &blocks[b] {
            stack.extend(term.successors().iter().map(|s| s.index()));
        }
    }
    reachable
}

/// Merges `b: ...; jmp x` with `x` when `b` is `x`'s only predecessor: the
/// empty join and header blocks of structured lowering disappear, while
/// loops stay natural (a loop header has at least two predecessors).
///
/// Returns, for each absorbed block, the block that absorbed it.
fn merge_chains(blocks: &mut [Option<RawBlock>], reachable: &[bool], preds: &[usize]) -> Vec<Option<usize>> {
    let mut merged_into = vec![None; blocks.len()];
    for b in 0..blocks.len() {
        if !reachable[b] {
            continue;
        }
        while let Some((_, Terminator::Jump(x), _)) = &blocks[b] {
            let x = x.index();
            if x == b || x == 0 || preds[x] != 1 {
                break;
            }
            let Some((insts, term, loc)) = blocks[x].take() else { break };
            merged_into[x] = Some(b);
            if let Some(bb) = blocks[b].as_mut() {
                bb.0.extend(insts);
                bb.1 = term;
                bb.2 = loc;
            }
        }
    }
    merged_into
}

/// Dense register renumbering in definition order.
struct Renumber {
    map: Vec<Option<u32>>,
    next: u32,
}

impl Renumber {
    fn new(num_params: u32, total: u32) -> Renumber {
        let mut map = vec![None; total as usize];
        for (i, m) in map.iter_mut().enumerate().take(num_params as usize) {
            *m = Some(i as u32);
        }
        Renumber { map, next: num_params }
    }

    fn define(&mut self, r: Reg) {
        let n = self.next;
        self.next += 1;
        if let Some(slot) = self.map.get_mut(r.index()) {
            *slot = Some(n);
        }
    }

    fn get(&mut self, r: Reg) -> Reg {
        match self.map.get(r.index()).copied().flatten() {
            Some(n) => Reg(n),
            // Only a front-end bug could use a register whose definition was
            // pruned; give it a fresh number rather than panicking.
            None => {
                self.next += 1;
                Reg(self.next - 1)
            }
        }
    }

    fn operand(&mut self, op: Operand) -> Operand {
        match op {
            Operand::Reg(r) => Operand::Reg(self.get(r)),
            c => c,
        }
    }

    fn inst(&mut self, inst: Inst) -> Inst {
        let kind = match inst.kind {
            InstKind::Bin { op, ty, a, b, nsw } => {
                InstKind::Bin { op, ty, a: self.operand(a), b: self.operand(b), nsw }
            }
            InstKind::Cmp { op, ty, a, b } => InstKind::Cmp { op, ty, a: self.operand(a), b: self.operand(b) },
            InstKind::Cast { op, from, to, a } => InstKind::Cast { op, from, to, a: self.operand(a) },
            InstKind::FBin { op, ty, a, b } => InstKind::FBin { op, ty, a: self.operand(a), b: self.operand(b) },
            InstKind::FNeg { ty, a } => InstKind::FNeg { ty, a: self.operand(a) },
            InstKind::FCmp { op, ty, a, b } => InstKind::FCmp { op, ty, a: self.operand(a), b: self.operand(b) },
            InstKind::FCast { op, from, to, a } => InstKind::FCast { op, from, to, a: self.operand(a) },
            InstKind::PtrAdd { base, offset } => {
                InstKind::PtrAdd { base: self.operand(base), offset: self.operand(offset) }
            }
            InstKind::PtrDiff { a, b } => InstKind::PtrDiff { a: self.operand(a), b: self.operand(b) },
            InstKind::Load { ty, ptr } => InstKind::Load { ty, ptr: self.operand(ptr) },
            InstKind::CheckIndex { index, len, end } => InstKind::CheckIndex { index: self.operand(index), len, end },
            InstKind::Alloca { elem, count } => InstKind::Alloca { elem, count: self.operand(count) },
            InstKind::Store { ty, ptr, value } => {
                InstKind::Store { ty, ptr: self.operand(ptr), value: self.operand(value) }
            }
            InstKind::Call { func, args } => {
                InstKind::Call { func, args: args.into_iter().map(|a| self.operand(a)).collect() }
            }
            InstKind::CallPtr { callee, args, ret } => InstKind::CallPtr {
                callee: self.operand(callee),
                args: args.into_iter().map(|a| self.operand(a)).collect(),
                ret,
            },
            k @ (InstKind::AddrLocal { .. } | InstKind::AddrGlobal { .. } | InstKind::AddrFunc { .. }) => k,
        };
        let result = inst.result.map(|r| self.get(r));
        Inst { result, kind, loc: inst.loc }
    }
}

/// Sign-extends the low `bits` bits of `x`.
fn sext(x: u64, bits: u32) -> i64 {
    ((x << (64 - bits)) as i64) >> (64 - bits)
}

fn fold_cmp(op: CmpOp, ty: Type, x: u64, y: u64) -> bool {
    let (x, y) = (x & ty.mask(), y & ty.mask());
    let (sx, sy) = (sext(x, ty.bits()), sext(y, ty.bits()));
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Ult => x < y,
        CmpOp::Ule => x <= y,
        CmpOp::Ugt => x > y,
        CmpOp::Uge => x >= y,
        CmpOp::Slt => sx < sy,
        CmpOp::Sle => sx <= sy,
        CmpOp::Sgt => sx > sy,
        CmpOp::Sge => sx >= sy,
    }
}

/// Folds a binary operation on constants when the result is exact and cannot
/// trap (no division, no oversized shift).
fn fold_bin(op: BinOp, ty: Type, x: u64, y: u64) -> Option<u64> {
    let (x, y) = (x & ty.mask(), y & ty.mask());
    let bits = ty.bits();
    let sx = sext(x, bits) as u64;
    Some(match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::And => x & y,
        BinOp::Or => x | y,
        BinOp::Xor => x ^ y,
        BinOp::Shl if y < u64::from(bits) => x << y,
        BinOp::LShr if y < u64::from(bits) => x >> y,
        BinOp::AShr if y < u64::from(bits) => ((sx as i64) >> y) as u64,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreachable_blocks_are_pruned_and_registers_renumbered() {
        let mut b = FuncBuilder::new(1);
        let slot = b.local("x".into(), Type::I32, 1);
        let p = b.addr_local(slot, Loc::NONE);
        b.terminate(Terminator::Return(None), Loc::NONE);
        // Dead code: gets a fresh block that is removed.
        let dead = b.load(Type::I32, p, Loc::NONE);
        b.terminate(Terminator::Return(Some(dead)), Loc::NONE);
        let crate::builder::Finished { blocks, locals, num_regs: regs, .. } = b.finish();
        assert_eq!(blocks.len(), 1);
        assert_eq!(locals.len(), 1);
        assert_eq!(regs, 2);
        assert_eq!(blocks[0].insts[0].result, Some(Reg(1)));
    }

    #[test]
    fn constant_casts_fold() {
        let mut b = FuncBuilder::new(0);
        let v = b.cast(true, Type::I32, Type::I64, Operand::Const(Type::I32, 0xFFFF_FFFF), Loc::NONE);
        assert_eq!(v, Operand::Const(Type::I64, u64::MAX));
        let v = b.bin(BinOp::Sub, Type::I32, Operand::Const(Type::I32, 0), Operand::Const(Type::I32, 1), Loc::NONE);
        assert_eq!(v, Operand::Const(Type::I32, 0xFFFF_FFFF));
    }
}

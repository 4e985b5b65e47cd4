//! Seed 000, section 4.1: the control-flow graph of each function and its
//! *template paths* (TPs), the source-to-sink paths of a DAG in which calls
//! are unexpanded nodes.
//!
//! CAVI-ART translates loops into tail-recursive functions; we do the same
//! on the IR without rewriting it: every natural loop is a *unit* of its
//! own, entered at its header, whose TPs end either in a jump back to the
//! header (a tail call of the loop unit: one more iteration) or in one of
//! the loop's exits. In the CFG of the enclosing unit the loop is a single
//! node per exit (`Item::Loop`), so every unit's graph is a DAG and its TPs
//! are finite. Calls to defined functions are `Item::Call` nodes in
//! instruction order; calls to functions without a body (library models)
//! and through pointers are straight-line code here (see the crate doc).

use pathwise_ir::analysis::bound::LoopBound;
use pathwise_ir::analysis::{LoopId, LoopInfo};
use pathwise_ir::{Block, FuncData, FuncId, InstKind, Program, Terminator};

use crate::PathsError;

/// A unit: a function body without its loops, or one loop without its
/// nested loops.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Unit {
    Func(FuncId),
    Loop(FuncId, LoopId),
}

impl Unit {
    pub fn func(self) -> FuncId {
        match self {
            Unit::Func(f) | Unit::Loop(f, _) => f,
        }
    }
}

/// How a template path ends.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum End {
    /// `ret` in block `.0` (the function's sink).
    Return(Block),
    /// `unreachable` in block `.0` (after `abort()`, `exit()`): the whole
    /// path ends there.
    Abort(Block),
    /// A loop unit's jump back to its header: another iteration.
    Continue,
    /// A loop unit's edge `from -> to` out of the loop.
    Exit(Block, Block),
}

/// One node of a template path.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Item {
    /// The branch ending `block`, on side `taken`.
    Decision(Block, bool),
    /// A call of a function with a body (expanded later); `tail` when the
    /// call's block returns its result at once.
    Call(FuncId, bool),
    /// The nested loop, left by the given exit (never `Continue`).
    Loop(LoopId, End),
}

/// A template path of a unit.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Template {
    pub items: Vec<Item>,
    pub end: End,
    /// Iterations of the unit's loop the TP starts, as the engine counts
    /// them ([`pathwise_ir::analysis::bound`]): entries into an iteration
    /// start of the loop (usually 0 or 1), or for a loop counting its back
    /// edges 1 for a `Continue` TP.
    pub starts: u32,
}

/// The outermost loop containing `b` strictly inside `parent` (the
/// function's region when `None`).
fn child_loop(li: &LoopInfo, parent: Option<LoopId>, b: Block) -> Option<LoopId> {
    let chain = li.enclosing(b);
    match parent {
        None => chain.first().copied(),
        Some(p) => {
            let i = chain.iter().position(|&l| l == p)?;
            chain.get(i + 1).copied()
        }
    }
}

/// Walks a unit's DAG depth-first (then-side first, so the order is
/// deterministic) and collects its template paths.
pub struct TemplateBuilder<'a> {
    pub program: &'a Program,
    pub func: FuncId,
    /// The function's loops and their iteration starts.
    pub loops: &'a LoopBound,
    /// Exits of the nested loops already computed (per loop id).
    pub loop_exits: &'a dyn Fn(LoopId) -> Vec<End>,
    pub limit: usize,
}

impl TemplateBuilder<'_> {
    /// The template paths of `unit` (a unit of `self.func`).
    pub fn templates(&self, unit: Unit) -> Result<Vec<Template>, PathsError> {
        let f = self.program.func(self.func);
        let (region, entry) = match unit {
            Unit::Func(_) => (None, Block(0)),
            Unit::Loop(_, l) => (Some(l), self.loops.loops.loop_(l).header),
        };
        let mut out = Vec::new();
        // Entering a loop at a header that is its iteration start starts an
        // iteration (a `do`-`while`), whichever edge enters it.
        let starts = u32::from(region.is_some_and(|l| self.loops.start_of(entry) == Some(l)));
        let mut on_path = vec![false; f.blocks.len()];
        self.walk(region, entry, &mut Vec::new(), starts, &mut on_path, &mut out)?;
        Ok(out)
    }

    /// Continue the TP `items` at block `b` of `region`.
    fn walk(
        &self,
        region: Option<LoopId>,
        b: Block,
        items: &mut Vec<Item>,
        starts: u32,
        on_path: &mut [bool],
        out: &mut Vec<Template>,
    ) -> Result<(), PathsError> {
        let f = self.program.func(self.func);
        if on_path[b.index()] {
            return Err(PathsError::Irreducible(format!("{} (block bb{})", f.name, b.0)));
        }
        if out.len() > self.limit {
            return Err(PathsError::TooMany(out.len()));
        }
        on_path[b.index()] = true;
        let mark = items.len();
        let data = f.block(b);
        for (i, inst) in data.insts.iter().enumerate() {
            if let InstKind::Call { func, .. } = inst.kind {
                if (func.0 as usize) < self.program.funcs.len() && !self.program.func(func).is_declaration() {
                    items.push(Item::Call(func, is_tail_call(f, b, i)));
                }
            }
        }
        let r = match data.term {
            Terminator::Jump(t) => self.goto(region, b, t, items, starts, on_path, out),
            Terminator::Branch { then_block, else_block, .. } => {
                items.push(Item::Decision(b, true));
                self.goto(region, b, then_block, items, starts, on_path, out)?;
                items.pop();
                items.push(Item::Decision(b, false));
                let r = self.goto(region, b, else_block, items, starts, on_path, out);
                items.pop();
                r
            }
            Terminator::Return(_) => {
                out.push(Template { items: items.clone(), end: End::Return(b), starts });
                Ok(())
            }
            Terminator::Unreachable => {
                out.push(Template { items: items.clone(), end: End::Abort(b), starts });
                Ok(())
            }
        };
        items.truncate(mark);
        on_path[b.index()] = false;
        r
    }

    /// Follow the edge `from -> to` inside `region`.
    #[allow(clippy::too_many_arguments)]
    fn goto(
        &self,
        region: Option<LoopId>,
        from: Block,
        to: Block,
        items: &mut Vec<Item>,
        starts: u32,
        on_path: &mut [bool],
        out: &mut Vec<Template>,
    ) -> Result<(), PathsError> {
        let li = &self.loops.loops;
        if let Some(l) = region {
            let lp = li.loop_(l);
            if to == lp.header {
                // A back edge: the loop unit calls itself in tail position.
                // It starts an iteration only for a loop counting its back
                // edges; an iteration start at the header is counted by the
                // next iteration's TP, on entry.
                let starts = starts + u32::from(self.loops.counts_back_edges(l));
                out.push(Template { items: items.clone(), end: End::Continue, starts });
                return Ok(());
            }
            if !li.contains(l, to) {
                out.push(Template { items: items.clone(), end: End::Exit(from, to), starts });
                return Ok(());
            }
        }
        if let Some(m) = child_loop(li, region, to) {
            if li.loop_(m).header != to {
                let f = self.program.func(self.func);
                return Err(PathsError::Irreducible(format!("{} (jump into a loop at bb{})", f.name, to.0)));
            }
            // The nested loop is one node per way out of it.
            for exit in (self.loop_exits)(m) {
                items.push(Item::Loop(m, exit));
                let r = match exit {
                    End::Exit(a, c) => self.goto(region, a, c, items, starts, on_path, out),
                    end => {
                        out.push(Template { items: items.clone(), end, starts });
                        Ok(())
                    }
                };
                items.pop();
                r?;
            }
            return Ok(());
        }
        let starts = match region {
            Some(l) if self.loops.started(from, to) == Some(l) => starts + 1,
            _ => starts,
        };
        self.walk(region, to, items, starts, on_path, out)
    }
}

/// Whether instruction `i` of block `b` is a call in tail position: the
/// block has nothing after it and returns (its result or nothing).
fn is_tail_call(f: &FuncData, b: Block, i: usize) -> bool {
    let data = f.block(b);
    if i + 1 != data.insts.len() {
        return false;
    }
    match &data.term {
        Terminator::Return(None) => true,
        Terminator::Return(Some(pathwise_ir::Operand::Reg(r))) => data.insts[i].result == Some(*r),
        _ => false,
    }
}

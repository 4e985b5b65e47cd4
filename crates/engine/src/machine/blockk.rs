//! The block-k criterion (seed 003, section 2.1.4): along one path, each
//! basic block is entered at most k times.
//!
//! What is counted, and why:
//! - *Blocks* are the IR blocks of the function under test and of every
//!   function it calls (the thesis: "each block in the control flow graph of
//!   the program"; its CLP translation makes methods and blocks the same kind
//!   of predicate, so a callee's blocks are blocks of the program too). The
//!   precondition's blocks are not counted, as its loops are not bounded
//!   under k-path either.
//! - A *visit* is an entry into a block: a CFG edge to it, or a call
//!   entering a function's first block. Returning from a call resumes the
//!   caller's block and is not a visit.
//! - Counts are per path, over all activations together: a function called
//!   twice from straight-line code enters its blocks twice, so block-1
//!   allows one call of it per path and block-2 two. Recursion is bounded
//!   the same way (the entry block of a recursive function is entered once
//!   per activation).
//! - Counting every IR block equals counting source-level blocks with the
//!   front end's layouts (`cfront/src/stmt.rs`): within one execution of a
//!   statement (or one loop iteration) each block lowered for it, including
//!   the extra blocks of `&&`, `||`, `?:`, if-join blocks and a `for`'s step
//!   block, is entered at most once, and never more often than the block
//!   where the statement starts or the loop's condition block. So those
//!   extra blocks never decide whether a path is within the bound. The one
//!   layout choice that matters is where a loop tests its condition: a
//!   `while` or `for` tests it in a block entered once per iteration plus
//!   once to leave (as Java bytecode does, the thesis's setting), so block-k
//!   lets such a loop iterate at most k - 1 times when it exits through its
//!   condition; a `do`-`while` loop's body is entered once per iteration, so
//!   it may iterate k times.
//!
//! As under k-path, the bound is enforced on prefixes: a run ends as
//! bound-exceeded once the side it takes at a decision leaves it no way out
//! of the current function (a `return`, or a call to a function without a
//! body, which may end the run) through blocks still below the bound, and
//! such an alternative side is never solved. The search ignores the errors
//! an instruction on the way might raise (so does k-path's commitment
//! analysis) and is optimistic about callees beyond their first block and
//! about the caller's continuation, so it never prunes a path the criterion
//! admits.
//!
//! With `--compositional`, whether a callee's path stays within the bound
//! depends on the blocks entered before the call (by earlier calls of the
//! same callee, or of functions both call): a case of a summary is no fact
//! about the callee alone. So a run keeps, under block-k, the *trace* of
//! its checks ([`Check`]: each block entry, and each decision's "a way out
//! remains"), and a case keeps the part of it its path made; a composed
//! call replays each case's trace against the counts at the call
//! ([`BlockVisits::admit`]) and admits the case only where the replay
//! passes (a returning case that fails it is a bound in that context, a
//! bound case that passes it says nothing there). A composed call's own
//! entries depend on the case the solver picks: the counts of the blocks
//! its callee may enter become symbolic after it (*shadows*, fresh
//! variables `sum:f#n.cntF.B` that the composition ties to each case's
//! count), so that the checks of later calls, and the caller's own checks
//! of those blocks, are conditions on the earlier cases rather than facts
//! of one run.

use pathwise_expr::{BvCmp, BvOp, ExprId, ExprPool};
use pathwise_ir::{Block, FuncId, Program};
use rustc_hash::FxHashMap;

use crate::analysis::ProgramInfo;

/// One bound check of a run (Main region), in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Check {
    /// An entry into a block (entry k + 1 exceeds the bound).
    Enter(FuncId, Block),
    /// A decision's side to this block: a way out of the function through
    /// blocks below the bound must remain.
    Leave(FuncId, Block),
}

/// What [`BlockVisits::can_leave`] needs of one function, owned so that
/// summaries can replay traces without the program.
pub(crate) struct FuncGraph {
    succ: Vec<Vec<Block>>,
    exits: Vec<bool>,
    callees: Vec<Vec<FuncId>>,
}

impl FuncGraph {
    pub(crate) fn new(program: &Program, info: &ProgramInfo, func: FuncId) -> FuncGraph {
        let f = program.func(func);
        let fi = info.func(func);
        FuncGraph {
            succ: f.blocks.iter().map(|b| b.term.successors()).collect(),
            exits: fi.exits.clone(),
            callees: fi.callees.clone(),
        }
    }
}

/// Block entries of one run (function under test and callees).
#[derive(Default, Clone)]
pub(crate) struct BlockVisits {
    /// Entries per function and block; a function's vector is sized on its
    /// first entry.
    counts: Vec<Vec<u32>>,
    /// Number of blocks (of all functions) already entered k times: while
    /// it is 0 every way out is open and no search is needed.
    saturated: u32,
    /// Symbolic counts (32-bit) of the blocks a composed call may have
    /// entered: equal to the concrete count in this run, over the
    /// variables of the cases composed calls took (see the module doc).
    shadow: FxHashMap<(FuncId, Block), ExprId>,
    /// The checks of the run so far (block-k only).
    pub(crate) trace: Vec<Check>,
}

impl BlockVisits {
    fn count(&self, func: FuncId, block: Block) -> u32 {
        self.counts.get(func.0 as usize).and_then(|c| c.get(block.index())).copied().unwrap_or(0)
    }

    /// Records an entry into `block`; false when it is entry k + 1 (the
    /// path leaves the criterion).
    pub(crate) fn enter(&mut self, program: &Program, func: FuncId, block: Block, k: u32) -> bool {
        self.trace.push(Check::Enter(func, block));
        let fi = func.0 as usize;
        if self.counts.len() <= fi {
            self.counts.resize_with(fi + 1, Vec::new);
        }
        let counts = &mut self.counts[fi];
        if counts.is_empty() {
            counts.resize(program.func(func).blocks.len(), 0);
        }
        let c = &mut counts[block.index()];
        *c += 1;
        if *c == k {
            self.saturated += 1;
        }
        *c <= k
    }

    /// Whether entering `block` of `func` once more keeps the path within the
    /// bound, with the callee entries its calls make.
    fn passable(&self, info: &ProgramInfo, func: FuncId, block: Block, k: u32) -> bool {
        self.count(func, block) < k
            && info.func(func).callees[block.index()].iter().all(|&c| self.count(c, Block(0)) < k)
    }

    /// Whether a run of `func` that goes to `to` can still leave the function
    /// through blocks below the bound (see the module documentation).
    pub(crate) fn can_leave(&self, program: &Program, info: &ProgramInfo, func: FuncId, to: Block, k: u32) -> bool {
        if self.saturated == 0 {
            return true;
        }
        let f = program.func(func);
        let exits = &info.func(func).exits;
        let mut seen = vec![false; f.blocks.len()];
        let mut stack = vec![to];
        while let Some(b) = stack.pop() {
            if std::mem::replace(&mut seen[b.index()], true) || !self.passable(info, func, b, k) {
                continue;
            }
            if exits[b.index()] {
                return true;
            }
            stack.extend(f.block(b).term.successors());
        }
        false
    }
}

/// The symbolic side (see the module doc).
impl BlockVisits {
    /// The counts without the trace: a composed call's context.
    pub(crate) fn snapshot(&self) -> BlockVisits {
        BlockVisits {
            counts: self.counts.clone(),
            saturated: self.saturated,
            shadow: self.shadow.clone(),
            trace: Vec::new(),
        }
    }

    pub(crate) fn has_shadows(&self) -> bool {
        !self.shadow.is_empty()
    }

    pub(crate) fn shadow(&self, func: FuncId, block: Block) -> Option<ExprId> {
        self.shadow.get(&(func, block)).copied()
    }

    pub(crate) fn set_shadow(&mut self, func: FuncId, block: Block, e: ExprId) {
        self.shadow.insert((func, block), e);
    }

    /// The count of `block` plus `extra`, as a 32-bit term.
    pub(crate) fn count_term(&self, pool: &mut ExprPool, func: FuncId, block: Block, extra: u32) -> ExprId {
        match self.shadow.get(&(func, block)) {
            Some(&s) => {
                let e = pool.bv_const(32, extra as u64);
                pool.bin(BvOp::Add, s, e)
            }
            None => pool.bv_const(32, (self.count(func, block) + extra) as u64),
        }
    }

    fn below(&self, pool: &mut ExprPool, func: FuncId, block: Block, extra: u32, k: u32) -> ExprId {
        let t = self.count_term(pool, func, block, extra);
        let k = pool.bv_const(32, k as u64);
        pool.cmp(BvCmp::Ult, t, k)
    }

    /// [`BlockVisits::can_leave`] as a condition on the symbolic counts,
    /// with `extra` entries on top of this context's.
    pub(crate) fn leave_cond(
        &self,
        pool: &mut ExprPool,
        g: &FuncGraph,
        func: FuncId,
        to: Block,
        k: u32,
        extra: &FxHashMap<(FuncId, Block), u32>,
    ) -> ExprId {
        let n = g.exits.len();
        let x = |f: FuncId, b: Block| extra.get(&(f, b)).copied().unwrap_or(0);
        let pass: Vec<ExprId> = (0..n)
            .map(|i| {
                let mut p = self.below(pool, func, Block(i as u32), x(func, Block(i as u32)), k);
                for &c in &g.callees[i] {
                    let q = self.below(pool, c, Block(0), x(c, Block(0)), k);
                    p = pool.and(p, q);
                }
                p
            })
            .collect();
        if pass.iter().all(|&p| pool.as_bool_const(p).is_some()) {
            let mut seen = vec![false; n];
            let mut stack = vec![to];
            while let Some(b) = stack.pop() {
                let i = b.index();
                if i >= n || std::mem::replace(&mut seen[i], true) || pool.as_bool_const(pass[i]) != Some(true) {
                    continue;
                }
                if g.exits[i] {
                    return pool.bool_const(true);
                }
                stack.extend(g.succ[i].iter().copied());
            }
            return pool.bool_const(false);
        }
        // Reachability of an exit through passable blocks: the least
        // fixpoint, one more block of the way per round.
        let f = pool.bool_const(false);
        let mut r: Vec<ExprId> = (0..n).map(|i| if g.exits[i] { pass[i] } else { f }).collect();
        for _ in 0..n {
            let next: Vec<ExprId> = (0..n)
                .map(|i| {
                    let mut any = pool.bool_const(g.exits[i]);
                    for s in &g.succ[i] {
                        any = pool.or(any, r[s.index()]);
                    }
                    pool.and(pass[i], any)
                })
                .collect();
            if next == r {
                break;
            }
            r = next;
        }
        r.get(to.index()).copied().unwrap_or(f)
    }

    /// Whether a path with these checks stays within the bound from this
    /// context: the conjunction of its checks, up to the first that
    /// fails for sure.
    pub(crate) fn admit(
        &self,
        pool: &mut ExprPool,
        graphs: &FxHashMap<FuncId, FuncGraph>,
        trace: &[Check],
        k: u32,
    ) -> ExprId {
        let mut extra: FxHashMap<(FuncId, Block), u32> = FxHashMap::default();
        let mut acc = pool.bool_const(true);
        for &c in trace {
            let atom = match c {
                Check::Enter(f, b) => {
                    let n = extra.entry((f, b)).or_insert(0);
                    let before = *n;
                    *n += 1;
                    self.below(pool, f, b, before, k)
                }
                Check::Leave(f, to) => match graphs.get(&f) {
                    Some(g) => self.leave_cond(pool, g, f, to, k, &extra),
                    None => pool.bool_const(true),
                },
            };
            acc = pool.and(acc, atom);
            if pool.as_bool_const(acc) == Some(false) {
                break;
            }
        }
        acc
    }
}

/// Entries per block of a trace.
pub(crate) fn entries_of(trace: &[Check]) -> FxHashMap<(FuncId, Block), u32> {
    let mut m = FxHashMap::default();
    for c in trace {
        if let Check::Enter(f, b) = c {
            *m.entry((*f, *b)).or_insert(0) += 1;
        }
    }
    m
}

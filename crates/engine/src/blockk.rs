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

use pathwise_ir::{Block, FuncId, Program};

use crate::analysis::ProgramInfo;

/// Block entries of one run (function under test and callees).
#[derive(Default)]
pub(crate) struct BlockVisits {
    /// Entries per function and block; a function's vector is sized on its
    /// first entry.
    counts: Vec<Vec<u32>>,
    /// Number of blocks (of all functions) already entered k times: while
    /// it is 0 every way out is open and no search is needed.
    saturated: u32,
}

impl BlockVisits {
    fn count(&self, func: FuncId, block: Block) -> u32 {
        self.counts.get(func.0 as usize).and_then(|c| c.get(block.index())).copied().unwrap_or(0)
    }

    /// Records an entry into `block`; false when it is entry k + 1 (the
    /// path leaves the criterion).
    pub(crate) fn enter(&mut self, program: &Program, func: FuncId, block: Block, k: u32) -> bool {
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

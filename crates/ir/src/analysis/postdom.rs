//! Post-dominators.
//!
//! Computed as dominators of the reversed CFG rooted at a virtual exit that
//! every `ret` and `unreachable` block flows into. Blocks that cannot reach
//! an exit (those only leading into infinite loops) have no post-dominator
//! but themselves. Paths that never terminate are ignored, as usual: if `A`
//! branches to an infinite loop and to a block `R` that returns, `R`
//! post-dominates `A`.

use crate::analysis::cfg::{immediate_dominators, successors};
use crate::entities::Block;
use crate::program::{FuncData, Terminator};

/// The post-dominator tree of a function.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PostDominators {
    /// Immediate post-dominator; `None` when it is the virtual exit or when
    /// the block cannot reach an exit.
    ipdom: Vec<Option<Block>>,
    reaches_exit: Vec<bool>,
}

impl PostDominators {
    /// Post-dominators of `f` (empty for a declaration).
    pub fn compute(f: &FuncData) -> PostDominators {
        let n = f.blocks.len();
        let exit = n as u32;
        let mut edges = Vec::new();
        for (i, b) in f.blocks.iter().enumerate() {
            if matches!(b.term, Terminator::Return(_) | Terminator::Unreachable) {
                edges.push((exit, i as u32));
            }
            for s in successors(f, Block(i as u32)) {
                edges.push((s.0, i as u32));
            }
        }
        let idom = immediate_dominators(n + 1, &edges, exit);
        let mut ipdom = Vec::with_capacity(n);
        let mut reaches_exit = Vec::with_capacity(n);
        for d in idom.into_iter().take(n) {
            reaches_exit.push(d.is_some());
            ipdom.push(d.filter(|&d| d != exit).map(Block));
        }
        PostDominators { ipdom, reaches_exit }
    }

    /// Whether some path leads from `b` to a `ret` or `unreachable`.
    pub fn reaches_exit(&self, b: Block) -> bool {
        self.reaches_exit.get(b.index()).copied().unwrap_or(false)
    }

    /// The immediate post-dominator of `b`; `None` when only the (virtual)
    /// exit post-dominates it strictly, or when it cannot reach an exit.
    pub fn ipdom(&self, b: Block) -> Option<Block> {
        self.ipdom.get(b.index()).copied().flatten()
    }

    /// Whether `a` post-dominates `b`, i.e. every path from `b` to an exit
    /// goes through `a` (reflexive).
    pub fn postdominates(&self, a: Block, b: Block) -> bool {
        if a == b {
            return true;
        }
        let mut cur = b;
        while let Some(p) = self.ipdom(cur) {
            if p == a {
                return true;
            }
            cur = p;
        }
        false
    }
}

//! Natural loops and their nesting.
//!
//! A back edge is a CFG edge `u -> h` whose target dominates its source; its
//! natural loop is `h` plus every block that reaches `u` without passing
//! through `h`. Loops sharing a header are merged into one loop with several
//! latches (e.g. a `continue` and the loop's end both jumping back). Natural
//! loops with different headers are either disjoint or nested, so nesting is
//! decided by containment. Blocks unreachable from the entry belong to no
//! loop.

use std::collections::BTreeMap;

use crate::analysis::cfg::{predecessors, successors, Dominators};
use crate::entities::Block;
use crate::program::FuncData;

/// Index of a loop in [`LoopInfo::loops`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct LoopId(pub u32);

/// One natural loop (all back edges to the same header merged).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Loop {
    /// The single entry of the loop; dominates every block of the loop.
    pub header: Block,
    /// Every block of the loop, sorted, including the header and the blocks
    /// of nested loops.
    pub blocks: Vec<Block>,
    /// Sources of the back edges to `header`, sorted.
    pub latches: Vec<Block>,
    /// The smallest loop strictly containing this one.
    pub parent: Option<LoopId>,
    /// Nesting depth: 1 for an outermost loop, parent's depth + 1 otherwise.
    pub depth: u32,
}

/// The loops of one function.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LoopInfo {
    /// All loops, ordered by header block number.
    pub loops: Vec<Loop>,
    /// Innermost loop of each block.
    innermost: Vec<Option<LoopId>>,
}

impl LoopInfo {
    /// Find the natural loops of `f` (none for a declaration).
    pub fn compute(f: &FuncData) -> LoopInfo {
        let doms = Dominators::compute(f);
        let preds = predecessors(f);
        // Header -> latches; a BTreeMap orders loops by header.
        let mut back_edges: BTreeMap<Block, Vec<Block>> = BTreeMap::new();
        for u in (0..f.blocks.len() as u32).map(Block) {
            if !doms.is_reachable(u) {
                continue;
            }
            for h in successors(f, u) {
                if doms.dominates(h, u) {
                    back_edges.entry(h).or_default().push(u);
                }
            }
        }
        let mut loops: Vec<Loop> = back_edges
            .into_iter()
            .map(|(header, latches)| {
                let blocks = natural_loop(header, &latches, &preds, &doms, f.blocks.len());
                Loop { header, blocks, latches, parent: None, depth: 1 }
            })
            .collect();
        assign_nesting(&mut loops);
        let mut innermost: Vec<Option<LoopId>> = vec![None; f.blocks.len()];
        for (i, l) in loops.iter().enumerate() {
            for b in &l.blocks {
                let slot = &mut innermost[b.index()];
                // The deepest loop containing a block is its innermost one.
                if slot.is_none_or(|cur| loops[cur.0 as usize].depth < l.depth) {
                    *slot = Some(LoopId(i as u32));
                }
            }
        }
        LoopInfo { loops, innermost }
    }

    /// The innermost loop containing `b`, if any.
    pub fn innermost(&self, b: Block) -> Option<LoopId> {
        self.innermost.get(b.index()).copied().flatten()
    }

    /// All loops containing `b`, outermost first.
    pub fn enclosing(&self, b: Block) -> Vec<LoopId> {
        let mut out = Vec::new();
        let mut cur = self.innermost(b);
        while let Some(id) = cur {
            out.push(id);
            cur = self.loop_(id).parent;
        }
        out.reverse();
        out
    }

    /// The loop with the given id.
    ///
    /// # Panics
    /// If `id` is not a loop of this `LoopInfo`.
    pub fn loop_(&self, id: LoopId) -> &Loop {
        &self.loops[id.0 as usize]
    }

    /// Whether loop `id` contains block `b` (nested loops included).
    pub fn contains(&self, id: LoopId, b: Block) -> bool {
        self.loops.get(id.0 as usize).is_some_and(|l| l.blocks.binary_search(&b).is_ok())
    }

    /// The loop whose header is `b`, if `b` is a loop header.
    pub fn loop_with_header(&self, b: Block) -> Option<LoopId> {
        self.loops.binary_search_by_key(&b, |l| l.header).ok().map(|i| LoopId(i as u32))
    }

    /// `Some(loop)` if `from -> to` is a back edge of that loop.
    pub fn back_edge_loop(&self, from: Block, to: Block) -> Option<LoopId> {
        let id = self.loop_with_header(to)?;
        self.loop_(id).latches.binary_search(&from).is_ok().then_some(id)
    }
}

/// Blocks of the natural loop of `header` with the given latches, sorted.
fn natural_loop(header: Block, latches: &[Block], preds: &[Vec<Block>], doms: &Dominators, n: usize) -> Vec<Block> {
    let mut in_loop = vec![false; n];
    in_loop[header.index()] = true;
    // Walk predecessors backwards from the latches; the header stops the walk
    // because it is already marked.
    let mut work: Vec<Block> = latches.to_vec();
    while let Some(b) = work.pop() {
        if in_loop[b.index()] || !doms.is_reachable(b) {
            continue;
        }
        in_loop[b.index()] = true;
        work.extend(preds[b.index()].iter().copied());
    }
    (0..n).filter(|&i| in_loop[i]).map(|i| Block(i as u32)).collect()
}

/// Set `parent` (smallest strictly larger loop containing the header) and
/// `depth` of every loop.
fn assign_nesting(loops: &mut [Loop]) {
    for i in 0..loops.len() {
        let header = loops[i].header;
        let size = loops[i].blocks.len();
        let parent = (0..loops.len())
            .filter(|&j| j != i && loops[j].blocks.len() > size && loops[j].blocks.binary_search(&header).is_ok())
            .min_by_key(|&j| (loops[j].blocks.len(), j));
        loops[i].parent = parent.map(|j| LoopId(j as u32));
    }
    // Parents are strictly larger, so processing larger loops first sees
    // every parent's depth before its children's.
    let mut order: Vec<usize> = (0..loops.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(loops[i].blocks.len()));
    for i in order {
        loops[i].depth = match loops[i].parent {
            Some(p) => loops[p.0 as usize].depth + 1,
            None => 1,
        };
    }
}

//! Control-flow graph basics: successors, predecessors, reachability,
//! reverse post-order and dominators.
//!
//! Edges to blocks that do not exist (possible in unverified IR) are dropped
//! here, so every analysis built on this module is total on any `FuncData`.

use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};

use crate::entities::Block;
use crate::program::FuncData;

/// Successors of `b` that exist, in terminator order, without duplicates
/// (`br %c, bb1, bb1` has one successor edge).
pub fn successors(f: &FuncData, b: Block) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::with_capacity(2);
    if let Some(data) = f.blocks.get(b.index()) {
        for s in data.term.successors() {
            if s.index() < f.blocks.len() && !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

/// Predecessor lists of every block, each sorted and without duplicates.
pub fn predecessors(f: &FuncData) -> Vec<Vec<Block>> {
    let mut preds = vec![Vec::new(); f.blocks.len()];
    for i in 0..f.blocks.len() {
        for s in successors(f, Block(i as u32)) {
            preds[s.index()].push(Block(i as u32));
        }
    }
    // Sources are visited in increasing order, so each list is already sorted.
    preds
}

/// Blocks reachable from the entry `bb0`, in reverse post-order (a
/// topological order of the CFG without its back edges). Empty for a
/// declaration.
pub fn reverse_postorder(f: &FuncData) -> Vec<Block> {
    let n = f.blocks.len();
    if n == 0 {
        return Vec::new();
    }
    // Iterative DFS: bodies can be large and recursion depth would follow
    // the CFG depth.
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    // Successor lists are consumed with `pop`, so the else-branch is
    // explored first and finishes first: in the reversed post-order the
    // then-branch comes first, which reads naturally.
    let succs_of = |b: Block| successors(f, b);
    let mut stack: Vec<(Block, Vec<Block>)> = vec![(Block(0), succs_of(Block(0)))];
    visited[0] = true;
    while let Some((b, succs)) = stack.last_mut() {
        if let Some(s) = succs.pop() {
            if !visited[s.index()] {
                visited[s.index()] = true;
                let ss = succs_of(s);
                stack.push((s, ss));
            }
        } else {
            post.push(*b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Immediate dominators of a graph given by edge lists, from `root`.
/// Returns, per node, `Some(idom)` (the root is its own idom) or `None` when
/// the node is unreachable from `root`.
pub(crate) fn immediate_dominators(n: usize, edges: &[(u32, u32)], root: u32) -> Vec<Option<u32>> {
    let mut g: DiGraph<(), ()> = DiGraph::with_capacity(n, edges.len());
    for _ in 0..n {
        g.add_node(());
    }
    for &(a, b) in edges {
        g.add_edge(NodeIndex::new(a as usize), NodeIndex::new(b as usize), ());
    }
    let doms = simple_fast(&g, NodeIndex::new(root as usize));
    (0..n)
        .map(|i| {
            let node = NodeIndex::new(i);
            if i == root as usize {
                Some(root)
            } else {
                doms.immediate_dominator(node).map(|d| d.index() as u32)
            }
        })
        .collect()
}

/// The dominator tree of a function, rooted at the entry block.
#[derive(Clone, Debug)]
pub struct Dominators {
    /// `Some(idom)` per reachable block (the entry is its own idom), `None`
    /// for blocks unreachable from the entry.
    idom: Vec<Option<Block>>,
}

impl Dominators {
    /// Dominators of `f`'s CFG (empty for a declaration).
    pub fn compute(f: &FuncData) -> Dominators {
        let n = f.blocks.len();
        if n == 0 {
            return Dominators { idom: Vec::new() };
        }
        let mut edges = Vec::new();
        for i in 0..n {
            for s in successors(f, Block(i as u32)) {
                edges.push((i as u32, s.0));
            }
        }
        let idom = immediate_dominators(n, &edges, 0).into_iter().map(|d| d.map(Block)).collect();
        Dominators { idom }
    }

    /// Whether `b` is reachable from the entry block.
    pub fn is_reachable(&self, b: Block) -> bool {
        matches!(self.idom.get(b.index()), Some(Some(_)))
    }

    /// The immediate dominator of `b`; `None` for the entry block and for
    /// unreachable blocks.
    pub fn idom(&self, b: Block) -> Option<Block> {
        match self.idom.get(b.index()) {
            Some(Some(d)) if *d != b => Some(*d),
            _ => None,
        }
    }

    /// Whether `a` dominates `b` (reflexive). False when either block is
    /// unreachable, except that every block dominates itself.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if a == b {
            return true;
        }
        if !self.is_reachable(b) {
            return false;
        }
        let mut cur = b;
        while let Some(d) = self.idom(cur) {
            if d == a {
                return true;
            }
            cur = d;
        }
        false
    }
}

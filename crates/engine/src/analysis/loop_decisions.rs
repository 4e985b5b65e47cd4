//! Which branches are a loop's *loop decisions*: those that choose between
//! another iteration of the loop and leaving it. By default an iteration
//! counts towards k only when a symbolic loop decision chose it (see
//! [`crate::analysis`]), so every branch that can make that choice must
//! qualify, and no branch that cannot.
//!
//! The front end lowers a short-circuit condition into one branch block per
//! operand (`while (a || b)`: `a` jumps to the body or to the block of `b`,
//! which jumps to the body or out). Then the first branch's sides can both
//! reach the next iteration, yet it chooses one: when `a` holds, nothing
//! else decides. A branch `b` of loop `L` is therefore a loop decision when
//! - one side can reach `L`'s next iteration (its iteration start, or a back
//!   edge for IR without one) without leaving `L`, and the other cannot; or
//! - one side can reach the next iteration and the other can leave `L`
//!   (an edge out of `L`, a `return`, an `unreachable`) before it, and the
//!   two sides have no common post-dominator before that outcome: no block
//!   that every way from either side passes before the next iteration or
//!   leaving. Such a block would be where the choice is made (the loop's
//!   condition after an `if` of the body, whose sides meet again before
//!   it), not `b`.
//!
//! The second rule covers every operand of a condition chain (`(a || b) &&
//! c` with `c` concrete: `a`'s sides meet nowhere before the outcome, since
//! `b` may leave without passing `c`). A body's `if` whose sides meet again
//! before the condition is not a loop decision, so a fixed-count loop with a
//! symbolic `if` still costs nothing against k; an `if` whose side may
//! `break` (or `return`) is one, as the first rule already made it.
//!
//! An iteration is counted once however many of its branches were loop
//! decisions (`Frame::iteration_decided` is a flag).

use pathwise_ir::analysis::bound::LoopBound;
use pathwise_ir::analysis::{LoopId, LoopInfo};
use pathwise_ir::{Block, FuncData, Terminator};
use rustc_hash::FxHashMap;

/// For each block ending in a `br`: the loops (outermost first) for which
/// it is a loop decision.
pub fn loop_decisions(f: &FuncData, bound: &LoopBound) -> FxHashMap<Block, Vec<LoopId>> {
    let li = &bound.loops;
    let graphs: Vec<IterationGraph> = (0..li.loops.len())
        .map(|l| IterationGraph::new(f, li, LoopId(l as u32), bound.iteration_block(LoopId(l as u32))))
        .collect();
    let mut out = FxHashMap::default();
    for (bi, b) in f.blocks.iter().enumerate() {
        let from = Block(bi as u32);
        if let Terminator::Branch { then_block, else_block, .. } = b.term {
            let decided: Vec<LoopId> = li
                .enclosing(from)
                .into_iter()
                .filter(|l| graphs[l.0 as usize].decides(then_block, else_block))
                .collect();
            if !decided.is_empty() {
                out.insert(from, decided);
            }
        }
    }
    out
}

/// One loop's blocks up to the next iteration: every block of the loop but
/// its iteration start, and one sink standing for both outcomes (the next
/// iteration, leaving the loop).
struct IterationGraph {
    /// Per function block: its node, if it is a block of the loop other
    /// than the start.
    node: Vec<Option<usize>>,
    start: Block,
    /// Per node: the next iteration is reachable from it.
    iterates: Vec<bool>,
    /// Per node: the loop can be left from it before the next iteration.
    leaves: Vec<bool>,
    /// Per node: its immediate post-dominator (the sink is `node.len()`),
    /// `None` for nodes from which neither outcome is reachable.
    ipdom: Vec<Option<usize>>,
    /// Per node and the sink: postorder number of the reverse graph.
    po: Vec<usize>,
}

impl IterationGraph {
    fn new(f: &FuncData, li: &LoopInfo, l: LoopId, start: Block) -> IterationGraph {
        let members: Vec<Block> = li.loop_(l).blocks.iter().copied().filter(|&b| b != start).collect();
        let mut node = vec![None; f.blocks.len()];
        for (i, b) in members.iter().enumerate() {
            node[b.index()] = Some(i);
        }
        let n = members.len();
        let sink = n;
        // Successors of each node (the sink for both outcomes), and the
        // reverse edges for the backward searches.
        let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        let (mut iterates, mut leaves) = (vec![false; n], vec![false; n]);
        for (i, &b) in members.iter().enumerate() {
            let ss = f.block(b).term.successors();
            if ss.is_empty() {
                leaves[i] = true;
            }
            for s in ss {
                let to = match node[s.index()] {
                    Some(j) => j,
                    None => {
                        // Within the loop only the start is no node: an
                        // edge to it (or, without a recorded start, to the
                        // header: a back edge) begins the next iteration.
                        if s == start {
                            iterates[i] = true;
                        } else {
                            leaves[i] = true;
                        }
                        sink
                    }
                };
                if !succs[i].contains(&to) {
                    succs[i].push(to);
                    preds[to].push(i);
                }
            }
        }
        backward_closure(&mut iterates, &preds);
        backward_closure(&mut leaves, &preds);
        let (ipdom, po) = post_dominators(&succs, &preds);
        IterationGraph { node, start, iterates, leaves, ipdom, po }
    }

    /// Whether a branch with these sides decides between the next iteration
    /// and leaving (see the module doc).
    fn decides(&self, then_block: Block, else_block: Block) -> bool {
        let (t, e) = (self.side(then_block), self.side(else_block));
        if t.iterates != e.iterates {
            return true;
        }
        let chooses = (t.iterates && e.leaves) || (e.iterates && t.leaves);
        chooses && matches!((t.node, e.node), (Some(a), Some(b)) if self.meet(a, b) == self.ipdom.len())
    }

    /// What a side may lead to, and its node (the sink for a side that
    /// begins the next iteration or leaves at once, `None` when it reaches
    /// neither outcome).
    fn side(&self, to: Block) -> Side {
        let sink = self.ipdom.len();
        match self.node[to.index()] {
            Some(i) => Side { iterates: self.iterates[i], leaves: self.leaves[i], node: self.ipdom[i].map(|_| i) },
            None if to == self.start => Side { iterates: true, leaves: false, node: Some(sink) },
            // Not in the loop: leaves it.
            None => Side { iterates: false, leaves: true, node: Some(sink) },
        }
    }

    /// The nearest common post-dominator of two nodes (both reach the sink).
    fn meet(&self, mut a: usize, mut b: usize) -> usize {
        let up = |x: usize| self.ipdom.get(x).copied().flatten().unwrap_or(self.ipdom.len());
        while a != b {
            while self.po[a] < self.po[b] {
                a = up(a);
            }
            while self.po[b] < self.po[a] {
                b = up(b);
            }
        }
        a
    }
}

struct Side {
    iterates: bool,
    leaves: bool,
    node: Option<usize>,
}

/// Extends `set` to every node from which a node of `set` is reachable.
fn backward_closure(set: &mut [bool], preds: &[Vec<usize>]) {
    let mut work: Vec<usize> = (0..set.len()).filter(|&i| set[i]).collect();
    while let Some(x) = work.pop() {
        for &p in &preds[x] {
            if !set[p] {
                set[p] = true;
                work.push(p);
            }
        }
    }
}

/// Immediate post-dominators of the nodes `0..succs.len()` towards the sink
/// `succs.len()` (Cooper, Harvey and Kennedy's iteration on the reverse
/// graph), with the postorder numbers of the reverse graph's depth-first
/// search from the sink (the sink's is the highest).
fn post_dominators(succs: &[Vec<usize>], preds: &[Vec<usize>]) -> (Vec<Option<usize>>, Vec<usize>) {
    let sink = succs.len();
    let mut po = vec![usize::MAX; sink + 1];
    let mut order = Vec::with_capacity(sink + 1);
    let mut seen = vec![false; sink + 1];
    let mut stack = vec![(sink, 0usize)];
    seen[sink] = true;
    while let Some(&mut (x, ref mut i)) = stack.last_mut() {
        if let Some(&p) = preds[x].get(*i) {
            *i += 1;
            if !std::mem::replace(&mut seen[p], true) {
                stack.push((p, 0));
            }
        } else {
            po[x] = order.len();
            order.push(x);
            stack.pop();
        }
    }
    let mut idom: Vec<Option<usize>> = vec![None; sink + 1];
    idom[sink] = Some(sink);
    let mut changed = true;
    while changed {
        changed = false;
        for &x in order.iter().rev().skip(1) {
            let mut new: Option<usize> = None;
            for &s in &succs[x] {
                if idom[s].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => s,
                    Some(cur) => {
                        let (mut a, mut b) = (s, cur);
                        while a != b {
                            while po[a] < po[b] {
                                a = idom[a].expect("processed");
                            }
                            while po[b] < po[a] {
                                b = idom[b].expect("processed");
                            }
                        }
                        a
                    }
                });
            }
            if new.is_some() && idom[x] != new {
                idom[x] = new;
                changed = true;
            }
        }
    }
    idom.truncate(sink);
    (idom, po)
}

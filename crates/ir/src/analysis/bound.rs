//! The k-path bound: at most k iterations of each loop per entry into it,
//! and a recursion depth of at most k (the k-path criterion of seed 002,
//! with seed 000's depth for recursion). This module is its one
//! definition; the engine's runs (`Exec::goto` and its calls), its
//! abstract traces (`search/traces.rs`), the static paths (the `paths`
//! crate) and the VC method's unwinding (the `vc` crate) all count with it.
//!
//! **Iterations.** The loops are the natural loops of [`LoopInfo`]. An
//! iteration of loop `L` starts when control enters `L`'s *iteration-start
//! block*: the front end records the first block of every loop body in
//! [`FuncData::iteration_starts`] (see the module doc of cfront's
//! `stmt.rs`), so k counts body executions, also those left early by
//! `break` or `return`, and not the evaluations of the loop's condition.
//! A recorded start belongs to the innermost loop containing it; one in no
//! loop is ignored. Several recorded starts may belong to the same loop (a
//! `while` whose body always leaves it has no back edge, so it is no natural
//! loop and its body's start falls to the enclosing loop): entering any of
//! them starts an iteration. A loop without a recorded start (hand-written
//! IR) counts its back edges instead: an iteration starts on each edge from
//! inside the loop to its header.
//!
//! **Entries.** Every edge into a natural loop from outside it goes to its
//! header (the header dominates the loop), so entering the header from a
//! block outside the loop is an entry: the loop's count starts afresh. The
//! edge may start the loop's first iteration at once (a `do`-`while`, whose
//! header is its body's first block).
//!
//! **The bound.** Within one entry, iteration k + 1 of a loop exceeds the
//! bound: [`IterCounts`] keeps a frame's counts and says so when following
//! an edge. Callers decide what counts: the engine by default counts only
//! iterations a symbolic decision chose (that policy, `counted_iters` and
//! its decision flags, stays in the engine, on top of [`LoopBound::edge`]);
//! the traces, the static paths and the unwinding count every iteration
//! (the engine's `--strict-loop-count`).
//!
//! **Recursion.** Seed 000's depth of a path in a call-graph cycle is the
//! number of nested activations of the cycle's entry function less one;
//! the users take the most activations of any function of the cycle (see
//! `Exec::activations`), so a call exceeds depth k when its callee would
//! then have more than k + 1 activations ([`recursion_exceeds`]).

use crate::analysis::loops::{LoopId, LoopInfo};
use crate::entities::Block;
use crate::program::FuncData;

/// The loops of one function as the bound counts them: their structure and
/// the iteration start of each.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LoopBound {
    /// The natural loops.
    pub loops: LoopInfo,
    /// Per loop: the last iteration-start block recorded for it, if any.
    start: Vec<Option<Block>>,
    /// Per block: the loop whose iteration entering it starts, when it is a
    /// recorded iteration start inside a loop.
    start_of: Vec<Option<LoopId>>,
}

/// What following one CFG edge `from -> to` does to the loop counts.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Edge {
    /// The loop the edge enters afresh (its header is `to` and `from` is
    /// outside it): its count restarts. At most one loop has a given header.
    pub entered: Option<LoopId>,
    /// The loop whose iteration the edge starts (after the restart, when
    /// both concern the same loop).
    pub started: Option<LoopId>,
}

impl LoopBound {
    /// The loops of `f` and their iteration starts (none for a
    /// declaration).
    pub fn compute(f: &FuncData) -> LoopBound {
        let loops = LoopInfo::compute(f);
        let mut start = vec![None; loops.loops.len()];
        let mut start_of = vec![None; f.blocks.len()];
        for &b in &f.iteration_starts {
            if let Some(l) = loops.innermost(b) {
                start[l.0 as usize] = Some(b);
                start_of[b.index()] = Some(l);
            }
        }
        LoopBound { loops, start, start_of }
    }

    /// Number of loops.
    pub fn len(&self) -> usize {
        self.loops.loops.len()
    }

    /// Whether the function has no loop.
    pub fn is_empty(&self) -> bool {
        self.loops.loops.is_empty()
    }

    /// The iteration-start block recorded for loop `l` (the last one when
    /// several were), `None` when the loop counts its back edges.
    pub fn start(&self, l: LoopId) -> Option<Block> {
        self.start.get(l.0 as usize).copied().flatten()
    }

    /// Whether loop `l` counts its back edges (it has no recorded start).
    pub fn counts_back_edges(&self, l: LoopId) -> bool {
        self.start(l).is_none()
    }

    /// The block whose entry from inside loop `l` starts its next
    /// iteration: its recorded start, or for back-edge counting its header
    /// (which only a back edge reaches from inside).
    pub fn iteration_block(&self, l: LoopId) -> Block {
        self.start(l).unwrap_or(self.loops.loop_(l).header)
    }

    /// The loop whose iteration-start block `b` is, if it is one.
    pub fn start_of(&self, b: Block) -> Option<LoopId> {
        self.start_of.get(b.index()).copied().flatten()
    }

    /// The loop whose iteration the edge `from -> to` starts: the loop of
    /// the iteration start `to`, else the loop of the back edge for a loop
    /// counting its back edges. At most one (a back edge's header belongs to
    /// no inner loop, so it is no other loop's start).
    pub fn started(&self, from: Block, to: Block) -> Option<LoopId> {
        self.start_of(to).or_else(|| self.loops.back_edge_loop(from, to).filter(|&l| self.counts_back_edges(l)))
    }

    /// The loop the edge `from -> to` enters from outside, if any.
    pub fn entered(&self, from: Block, to: Block) -> Option<LoopId> {
        self.loops.loop_with_header(to).filter(|&l| !self.loops.contains(l, from))
    }

    /// The effect of the edge `from -> to` on the counts.
    pub fn edge(&self, from: Block, to: Block) -> Edge {
        Edge { entered: self.entered(from, to), started: self.started(from, to) }
    }
}

/// Whether the `count`-th iteration of a loop within one entry exceeds the
/// bound `k`.
pub fn iteration_exceeds(count: u32, k: u32) -> bool {
    count > k
}

/// Whether a call exceeds recursion depth `k` when its callee (a function of
/// a recursive cycle) would have `activations` activations with it: the
/// depth is the activations less one.
pub fn recursion_exceeds(activations: u32, k: u32) -> bool {
    activations > k.saturating_add(1)
}

/// The iteration counts of one activation: per loop of its function, the
/// iterations started since the loop was last entered.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct IterCounts(Vec<u32>);

impl IterCounts {
    /// All counts zero, one per loop of `bound`.
    pub fn new(bound: &LoopBound) -> IterCounts {
        IterCounts(vec![0; bound.len()])
    }

    /// The count of loop `l`.
    pub fn get(&self, l: LoopId) -> u32 {
        self.0[l.0 as usize]
    }

    /// Restart the count of loop `l` (it was entered from outside).
    pub fn reset(&mut self, l: LoopId) {
        self.0[l.0 as usize] = 0;
    }

    /// Count one more iteration of loop `l`; returns the new count.
    pub fn start(&mut self, l: LoopId) -> u32 {
        let c = &mut self.0[l.0 as usize];
        *c += 1;
        *c
    }

    /// Whether another iteration of loop `l` would exceed `k` (k done).
    pub fn full(&self, l: LoopId, k: u32) -> bool {
        iteration_exceeds(self.get(l) + 1, k)
    }

    /// Follow the edge `from -> to` counting every iteration: restart the
    /// loop it enters, count the iteration it starts. True when that
    /// iteration exceeds `k`.
    pub fn follow(&mut self, bound: &LoopBound, from: Block, to: Block, k: u32) -> bool {
        let edge = bound.edge(from, to);
        if let Some(l) = edge.entered {
            self.reset(l);
        }
        edge.started.is_some_and(|l| iteration_exceeds(self.start(l), k))
    }

    /// Zero the counts of the loops not containing `b`. They are never read
    /// before the loop is entered again, which restarts them, so this only
    /// makes states that differ in them equal (the unwinding merges them).
    pub fn forget_outside(&mut self, bound: &LoopBound, b: Block) {
        for (l, c) in self.0.iter_mut().enumerate() {
            if !bound.loops.contains(LoopId(l as u32), b) {
                *c = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse_program;

    fn bound(text: &str) -> LoopBound {
        let p = parse_program(text).unwrap();
        LoopBound::compute(&p.funcs[0])
    }

    /// Follow `blocks` as a path from its first block; the count of every
    /// loop after each edge, and the index of the first edge beyond `k`.
    fn walk(b: &LoopBound, blocks: &[u32], k: u32) -> (Vec<Vec<u32>>, Option<usize>) {
        let mut counts = IterCounts::new(b);
        let mut out = Vec::new();
        let mut beyond = None;
        for (i, w) in blocks.windows(2).enumerate() {
            if counts.follow(b, Block(w[0]), Block(w[1]), k) && beyond.is_none() {
                beyond = Some(i);
            }
            out.push(counts.0.clone());
        }
        (out, beyond)
    }

    /// `for (i = 0; i < n; i++) body;`: header bb1, body bb2 (the recorded
    /// start), step bb3.
    const FOR: &str = "
func @f(%0: i1) -> void {
  iterates bb2
bb0:
  jmp bb1
bb1:
  br %0, bb2, bb4
bb2:
  jmp bb3
bb3:
  jmp bb1
bb4:
  ret
}
";

    #[test]
    fn an_iteration_starts_on_entering_the_body() {
        let b = bound(FOR);
        let l = LoopId(0);
        assert_eq!((b.len(), b.start(l), b.iteration_block(l)), (1, Some(Block(2)), Block(2)));
        assert!(!b.counts_back_edges(l));
        assert_eq!(b.edge(Block(0), Block(1)), Edge { entered: Some(l), started: None });
        assert_eq!(b.edge(Block(1), Block(2)), Edge { entered: None, started: Some(l) });
        // The back edge only returns to the condition.
        assert_eq!(b.edge(Block(3), Block(1)), Edge::default());
        assert_eq!(b.edge(Block(1), Block(4)), Edge::default());
        assert_eq!(b.start_of(Block(2)), Some(l));
        assert_eq!(b.start_of(Block(1)), None);
    }

    #[test]
    fn iteration_k_plus_one_exceeds() {
        let b = bound(FOR);
        // Two iterations, then the exit: within k = 2.
        let path = [0, 1, 2, 3, 1, 2, 3, 1, 4];
        let (counts, beyond) = walk(&b, &path, 2);
        assert_eq!(beyond, None);
        let seq: Vec<u32> = counts.iter().map(|c| c[0]).collect();
        assert_eq!(seq, vec![0, 1, 1, 1, 2, 2, 2, 2]);
        // The third iteration exceeds k = 2 on entering the body (edge 7).
        let path = [0, 1, 2, 3, 1, 2, 3, 1, 2];
        assert_eq!(walk(&b, &path, 2).1, Some(7));
        // At k = 0 the first iteration already exceeds.
        assert_eq!(walk(&b, &path, 0).1, Some(1));
        let mut c = IterCounts::new(&b);
        assert!(!c.full(LoopId(0), 1));
        c.start(LoopId(0));
        assert!(c.full(LoopId(0), 1) && !c.full(LoopId(0), 2));
        assert!(!iteration_exceeds(2, 2) && iteration_exceeds(3, 2));
    }

    /// `while (a) { while (b) x; y; }`: outer header bb1 (body bb2), inner
    /// header bb3 (body bb4), bb5 the rest of the outer body.
    const NESTED: &str = "
func @f(%0: i1, %1: i1) -> void {
  iterates bb2
  iterates bb4
bb0:
  jmp bb1
bb1:
  br %0, bb2, bb6
bb2:
  jmp bb3
bb3:
  br %1, bb4, bb5
bb4:
  jmp bb3
bb5:
  jmp bb1
bb6:
  ret
}
";

    #[test]
    fn nested_loops_count_separately_and_restart_on_reentry() {
        let b = bound(NESTED);
        let (outer, inner) = (LoopId(0), LoopId(1));
        assert_eq!((b.loops.loop_(outer).header, b.loops.loop_(inner).header), (Block(1), Block(3)));
        assert_eq!((b.start(outer), b.start(inner)), (Some(Block(2)), Some(Block(4))));
        assert_eq!(b.edge(Block(1), Block(2)), Edge { entered: None, started: Some(outer) });
        assert_eq!(b.edge(Block(2), Block(3)), Edge { entered: Some(inner), started: None });
        assert_eq!(b.edge(Block(3), Block(4)), Edge { entered: None, started: Some(inner) });
        assert_eq!(b.edge(Block(4), Block(3)), Edge::default());
        assert_eq!(b.edge(Block(3), Block(5)), Edge::default());
        assert_eq!(b.edge(Block(5), Block(1)), Edge::default());
        // Two outer iterations, each with two inner ones: the inner count
        // restarts when the second outer iteration enters the inner loop.
        let path = [0, 1, 2, 3, 4, 3, 4, 3, 5, 1, 2, 3, 4, 3, 4, 3, 5, 1, 6];
        let (counts, beyond) = walk(&b, &path, 2);
        assert_eq!(beyond, None);
        assert_eq!(counts[1], vec![1, 0]);
        assert_eq!(counts[5], vec![1, 2], "two inner iterations");
        assert_eq!(counts[9], vec![2, 2], "outer iteration 2, inner not yet entered");
        assert_eq!(counts[10], vec![2, 0], "inner entered afresh");
        assert_eq!(counts[17], vec![2, 2]);
        // A third inner iteration in one entry exceeds k = 2 ...
        assert_eq!(walk(&b, &[0, 1, 2, 3, 4, 3, 4, 3, 4], 2).1, Some(7));
        // ... and a third outer one.
        assert_eq!(walk(&b, &[0, 1, 2, 3, 5, 1, 2, 3, 5, 1, 2], 2).1, Some(9));
        // Only the loops not containing a block are forgotten.
        let mut c = IterCounts::new(&b);
        c.start(outer);
        c.start(inner);
        c.forget_outside(&b, Block(4));
        assert_eq!((c.get(outer), c.get(inner)), (1, 1));
        c.forget_outside(&b, Block(5));
        assert_eq!((c.get(outer), c.get(inner)), (1, 0));
        c.forget_outside(&b, Block(6));
        assert_eq!(c, IterCounts::new(&b));
    }

    /// `do x; while (c);` without an iteration-start marker: the header bb1
    /// is the body, the latch bb2 jumps back to it.
    const DO_UNMARKED: &str = "
func @f(%0: i1) -> void {
bb0:
  jmp bb1
bb1:
  jmp bb2
bb2:
  br %0, bb1, bb3
bb3:
  ret
}
";

    #[test]
    fn a_loop_without_marker_counts_its_back_edges() {
        let b = bound(DO_UNMARKED);
        let l = LoopId(0);
        assert!(b.counts_back_edges(l));
        assert_eq!((b.start(l), b.iteration_block(l)), (None, Block(1)));
        // Entering is no iteration; each back edge is one.
        assert_eq!(b.edge(Block(0), Block(1)), Edge { entered: Some(l), started: None });
        assert_eq!(b.edge(Block(2), Block(1)), Edge { entered: None, started: Some(l) });
        assert_eq!(b.edge(Block(1), Block(2)), Edge::default());
        let path = [0, 1, 2, 1, 2, 1, 2, 3];
        let (counts, beyond) = walk(&b, &path, 2);
        assert_eq!(beyond, None);
        assert_eq!(counts.last(), Some(&vec![2]));
        assert_eq!(walk(&b, &[0, 1, 2, 1, 2, 1, 2, 1], 2).1, Some(6));
    }

    /// The same `do`-`while` with its body marked: entering the loop starts
    /// its first iteration, each back edge another.
    #[test]
    fn a_marked_header_starts_an_iteration_on_entry() {
        let b = bound(&DO_UNMARKED.replace("-> void {\n", "-> void {\n  iterates bb1\n"));
        let l = LoopId(0);
        assert_eq!(b.start(l), Some(Block(1)));
        assert_eq!(b.edge(Block(0), Block(1)), Edge { entered: Some(l), started: Some(l) });
        assert_eq!(b.edge(Block(2), Block(1)), Edge { entered: None, started: Some(l) });
        assert_eq!(walk(&b, &[0, 1, 2, 1, 2, 3], 2), (vec![vec![1], vec![1], vec![2], vec![2], vec![2]], None));
        assert_eq!(walk(&b, &[0, 1, 2, 1, 2, 1], 2).1, Some(4));
    }

    /// A start outside every loop is ignored; a second start of one loop
    /// counts too (as in `while (c) { if (d) while (e) { x; break; } }`: the
    /// inner `while` has no back edge, so its body bb4 falls to the loop of
    /// bb1).
    #[test]
    fn stray_starts() {
        let text = "
func @f(%0: i1, %1: i1, %2: i1) -> void {
  iterates bb2
  iterates bb4
  iterates bb5
bb0:
  jmp bb1
bb1:
  br %0, bb2, bb5
bb2:
  br %1, bb3, bb1
bb3:
  br %2, bb4, bb1
bb4:
  jmp bb1
bb5:
  ret
}
";
        let b = bound(text);
        let l = LoopId(0);
        assert_eq!(b.start(l), Some(Block(4)), "the last recorded");
        assert_eq!((b.start_of(Block(2)), b.start_of(Block(4)), b.start_of(Block(5))), (Some(l), Some(l), None));
        assert_eq!(b.edge(Block(3), Block(4)), Edge { entered: None, started: Some(l) });
        assert_eq!(b.edge(Block(1), Block(5)), Edge::default());
        let path = [0, 1, 2, 3, 4, 1, 2, 1, 5];
        let (counts, beyond) = walk(&b, &path, 3);
        let seq: Vec<u32> = counts.iter().map(|c| c[0]).collect();
        assert_eq!(seq, vec![0, 1, 1, 2, 2, 3, 3, 3]);
        assert_eq!(beyond, None);
        assert_eq!(walk(&b, &path, 2).1, Some(5));
    }

    #[test]
    fn recursion_depth_k_allows_k_plus_one_activations() {
        assert!(!recursion_exceeds(1, 0));
        assert!(recursion_exceeds(2, 0));
        assert!(!recursion_exceeds(3, 2));
        assert!(recursion_exceeds(4, 2));
        assert!(!recursion_exceeds(u32::MAX, u32::MAX));
    }

    #[test]
    fn a_declaration_has_no_loops() {
        let b = bound("declare @g(%0: i32) -> i32\n");
        assert!(b.is_empty());
        assert_eq!(IterCounts::new(&b), IterCounts::default());
    }
}

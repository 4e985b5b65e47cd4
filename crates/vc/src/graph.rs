//! Bounded unwinding (seed 001, section 3): the loop-free graph of unwound
//! blocks, built by exploring the states (call context, block, first
//! instruction, iteration counts of the enclosing loops).
//!
//! Loops and recursion are bounded by the engine's rule
//! ([`pathwise_ir::analysis::bound`]) under its strict count: a loop's
//! iteration starts when control enters its iteration-start block (the body
//! entry the front end marks; a loop without one counts its back edges).
//! Entering the start of iteration k + 1 within one entry into the loop is
//! a *cut* edge: the paths through it are excluded, as the concolic k-path
//! search excludes them. The counters of loops the target block is not in
//! are reset ([`IterCounts::forget_outside`]), so the exits of all unrolled
//! copies meet again in one node (the if-then-else tree of the seed's
//! Figure 3, with shared exits).
//!
//! Calls to functions with a body are inlined: the callee's entry gets a new
//! call context (the caller's continuation), and its returns lead back to
//! that continuation. A callee with k + 1 activations on the stack already
//! is a cut call (recursion depth k, [`recursion_exceeds`]). A node ends at
//! the first such call of its block or at the terminator.
//!
//! The precondition's loops are unwound to `pre_bound` iterations (its
//! loops are not bounded by k in the concolic search either; the bound only
//! has to exceed what valid inputs can need: `--max-array-len`).

use pathwise_ir::analysis::bound::{recursion_exceeds, IterCounts, LoopBound};
use pathwise_ir::{Block, FuncId, InstKind, Program, Reg, Terminator};
use rustc_hash::FxHashMap;

use crate::Unsupported;

/// Which function a node belongs to: the precondition (run first, on its own
/// copy of the inputs) or the function under test and its callees.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Region {
    Pre,
    Main,
}

/// A call context: the caller's continuation, interned.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Ctx {
    pub parent: usize,
    pub caller: FuncId,
    pub block: Block,
    pub next_inst: usize,
    /// The caller's iteration counts.
    pub counters: IterCounts,
    /// Where the caller wants the result.
    pub ret: Option<Reg>,
}

/// Identity of an unwound block.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Key {
    pub region: Region,
    /// Index into [`Graph::ctxs`]; 0 is the root of each region.
    pub ctx: usize,
    pub func: FuncId,
    pub block: Block,
    pub start: usize,
    /// Iterations started per loop of `func` (zero for the loops `block`
    /// is not in).
    pub counters: IterCounts,
}

/// How control leaves a node.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum EdgeKind {
    Jump,
    /// A side of the block's `br`.
    Branch(bool),
    /// Into an inlined callee (the node ends at instruction `inst`).
    Call {
        inst: usize,
        callee: FuncId,
    },
    /// Back to the caller's continuation.
    Return,
    /// The precondition returned: on to the function under test, if nonzero.
    PreAccept,
}

/// An edge of the unwound graph; `to == None` is a cut edge (beyond the bound).
#[derive(Clone, Debug)]
pub struct Edge {
    pub from: usize,
    pub to: Option<usize>,
    pub kind: EdgeKind,
}

/// The loop-free unwound program.
pub struct Graph {
    pub nodes: Vec<Key>,
    pub edges: Vec<Edge>,
    /// Per node, its outgoing edges (indices into `edges`), in order.
    pub out: Vec<Vec<usize>>,
    /// Per node, its incoming edges.
    pub preds: Vec<Vec<usize>>,
    /// Nodes in a topological order (every edge goes forward).
    pub topo: Vec<usize>,
    pub ctxs: Vec<Ctx>,
    /// The entry node of the function under test.
    pub main_entry: usize,
    /// The first node (the precondition's entry, or `main_entry`).
    pub root: usize,
}

/// Limits of the unwinding.
pub struct Bounds {
    pub k: u32,
    pub pre_bound: u32,
    /// Nodes at most (the unwound program grows exponentially with nesting).
    pub max_nodes: usize,
    /// Functions whose calls from the function under test are replaced by
    /// summaries: not inlined (see [`crate::summary`]).
    pub summarized: Vec<FuncId>,
}

struct Builder<'p> {
    program: &'p Program,
    main: FuncId,
    bounds: &'p Bounds,
    loops: FxHashMap<FuncId, LoopBound>,
    ctxs: Vec<Ctx>,
    ctx_ids: FxHashMap<Ctx, usize>,
    ids: FxHashMap<Key, usize>,
    nodes: Vec<Key>,
    edges: Vec<Edge>,
    out: Vec<Vec<usize>>,
}

/// Unwind `main` (after `pre`, if any).
pub fn build(program: &Program, main: FuncId, pre: Option<FuncId>, bounds: &Bounds) -> Result<Graph, Unsupported> {
    let root_ctx = Ctx {
        parent: usize::MAX,
        caller: main,
        block: Block(0),
        next_inst: 0,
        counters: IterCounts::default(),
        ret: None,
    };
    let mut b = Builder {
        program,
        main,
        bounds,
        loops: FxHashMap::default(),
        ctxs: vec![root_ctx.clone()],
        ctx_ids: FxHashMap::default(),
        ids: FxHashMap::default(),
        nodes: Vec::new(),
        edges: Vec::new(),
        out: Vec::new(),
    };
    b.ctx_ids.insert(root_ctx, 0);
    let main_key = b.entry_key(Region::Main, 0, main);
    let root_key = match pre {
        Some(p) => b.entry_key(Region::Pre, 0, p),
        None => main_key.clone(),
    };
    let root = b.explore(root_key)?;
    let main_entry = *b.ids.get(&main_key).unwrap_or(&root);
    let n = b.nodes.len();
    let mut preds = vec![Vec::new(); n];
    for (i, e) in b.edges.iter().enumerate() {
        if let Some(t) = e.to {
            preds[t].push(i);
        }
    }
    let topo = topo_order(n, &b.edges, &b.out, root)?;
    Ok(Graph { nodes: b.nodes, edges: b.edges, out: b.out, preds, topo, ctxs: b.ctxs, main_entry, root })
}

/// Kahn's algorithm; a cycle would mean an unbounded loop (never expected:
/// every cycle of a reducible CFG passes a counted block).
fn topo_order(n: usize, edges: &[Edge], out: &[Vec<usize>], root: usize) -> Result<Vec<usize>, Unsupported> {
    let mut indeg = vec![0usize; n];
    for e in edges {
        if let Some(t) = e.to {
            indeg[t] += 1;
        }
    }
    let mut ready = vec![root];
    let mut order = Vec::with_capacity(n);
    while let Some(v) = ready.pop() {
        order.push(v);
        for &ei in out[v].iter().rev() {
            if let Some(t) = edges[ei].to {
                indeg[t] -= 1;
                if indeg[t] == 0 {
                    ready.push(t);
                }
            }
        }
    }
    if order.len() != n {
        return Err(Unsupported::new(None, "a loop the unwinding cannot bound (irreducible control flow)"));
    }
    Ok(order)
}

impl Builder<'_> {
    /// The loops of `f` and their iteration starts (memoised).
    fn loop_bound(&mut self, f: FuncId) -> &LoopBound {
        let program = self.program;
        self.loops.entry(f).or_insert_with(|| LoopBound::compute(program.func(f)))
    }

    fn entry_key(&mut self, region: Region, ctx: usize, func: FuncId) -> Key {
        let counters = IterCounts::new(self.loop_bound(func));
        Key { region, ctx, func, block: Block(0), start: 0, counters }
    }

    fn intern_ctx(&mut self, c: Ctx) -> usize {
        if let Some(&id) = self.ctx_ids.get(&c) {
            return id;
        }
        self.ctxs.push(c.clone());
        self.ctx_ids.insert(c, self.ctxs.len() - 1);
        self.ctxs.len() - 1
    }

    fn bound(&self, region: Region) -> u32 {
        match region {
            Region::Pre => self.bounds.pre_bound,
            Region::Main => self.bounds.k,
        }
    }

    /// Depth-first exploration of every state reachable from `root`.
    fn explore(&mut self, root: Key) -> Result<usize, Unsupported> {
        let root_id = self.node(root);
        let mut stack = vec![root_id];
        let mut done = vec![false];
        while let Some(v) = stack.pop() {
            if done[v] {
                continue;
            }
            done[v] = true;
            let key = self.nodes[v].clone();
            for (kind, to) in self.successors(&key)? {
                let to = to.map(|k| self.node(k));
                if let Some(t) = to {
                    if t >= done.len() {
                        done.resize(t + 1, false);
                    }
                    stack.push(t);
                }
                self.edges.push(Edge { from: v, to, kind });
                self.out[v].push(self.edges.len() - 1);
            }
            if self.nodes.len() > self.bounds.max_nodes {
                return Err(Unsupported::new(
                    None,
                    &format!("the unwound program exceeds {} blocks; try a smaller --k", self.bounds.max_nodes),
                ));
            }
        }
        Ok(root_id)
    }

    fn node(&mut self, key: Key) -> usize {
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        self.nodes.push(key.clone());
        self.out.push(Vec::new());
        self.ids.insert(key, self.nodes.len() - 1);
        self.nodes.len() - 1
    }

    fn successors(&mut self, key: &Key) -> Result<Vec<(EdgeKind, Option<Key>)>, Unsupported> {
        let program = self.program;
        let f = program.func(key.func);
        let bd = f.block(key.block);
        for (i, inst) in bd.insts.iter().enumerate().skip(key.start) {
            if let InstKind::Call { func: callee, .. } = inst.kind {
                if program.func(callee).is_declaration()
                    || (key.region == Region::Main && self.bounds.summarized.contains(&callee))
                {
                    continue;
                }
                let kind = EdgeKind::Call { inst: i, callee };
                let active = self.activations(key, callee);
                if recursion_exceeds(active + 1, self.bound(key.region)) {
                    return Ok(vec![(kind, None)]);
                }
                let ctx = Ctx {
                    parent: key.ctx,
                    caller: key.func,
                    block: key.block,
                    next_inst: i + 1,
                    counters: key.counters.clone(),
                    ret: inst.result,
                };
                let c = self.intern_ctx(ctx);
                let entry = self.entry_key(key.region, c, callee);
                return Ok(vec![(kind, Some(entry))]);
            }
        }
        Ok(match &bd.term {
            Terminator::Jump(b) => vec![(EdgeKind::Jump, self.goto(key, *b))],
            Terminator::Branch { then_block, else_block, .. } => vec![
                (EdgeKind::Branch(true), self.goto(key, *then_block)),
                (EdgeKind::Branch(false), self.goto(key, *else_block)),
            ],
            Terminator::Return(_) if key.ctx != 0 => {
                let c = self.ctxs[key.ctx].clone();
                let back = Key {
                    region: key.region,
                    ctx: c.parent,
                    func: c.caller,
                    block: c.block,
                    start: c.next_inst,
                    counters: c.counters,
                };
                vec![(EdgeKind::Return, Some(back))]
            }
            Terminator::Return(_) if key.region == Region::Pre => {
                let main = self.main;
                vec![(EdgeKind::PreAccept, Some(self.entry_key(Region::Main, 0, main)))]
            }
            Terminator::Return(_) | Terminator::Unreachable => vec![],
        })
    }

    /// Activations of `callee` on the stack of `key` (the current
    /// function's included), before one more call.
    fn activations(&self, key: &Key, callee: FuncId) -> u32 {
        let mut n = u32::from(key.func == callee);
        let mut c = key.ctx;
        while c != 0 {
            let ctx = &self.ctxs[c];
            n += u32::from(ctx.caller == callee);
            c = ctx.parent;
        }
        n
    }

    /// The state after moving from `key`'s block to `to` (`None`: cut).
    fn goto(&mut self, key: &Key, to: Block) -> Option<Key> {
        let bound = self.bound(key.region);
        let lb = self.loop_bound(key.func);
        let mut counters = key.counters.clone();
        if counters.follow(lb, key.block, to, bound) {
            return None;
        }
        counters.forget_outside(lb, to);
        Some(Key { region: key.region, ctx: key.ctx, func: key.func, block: to, start: 0, counters })
    }
}

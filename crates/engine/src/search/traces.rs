//! Bounded abstract traces (seed 003, Definitions 4.4.3 and 5.2.1): the
//! trace generator of resource-driven generation.
//!
//! The abstraction keeps only control: the CFG of the function under test
//! and of every function it calls (calls entered, as the thesis keeps the
//! calls of each rule), bounded as the engine bounds a run under the
//! strict k-path count (at most k iterations per entry into a loop, counted
//! where `Exec::goto` counts them, and at most k + 1 activations of a
//! function of a recursive cycle). A trace is the sequence of branch sides
//! a run takes, which names the run's path (the code between two branches
//! is deterministic), so it compares directly with a run's `PathStep`s.
//!
//! Costs are observable (Definition 4.4.4) for instructions and calls: a
//! block costs its instructions plus its terminator (the interpreter's
//! `Meter` counts exactly these), or its calls (of one function). So an
//! abstract trace's cost is the cost of the run that follows it.
//!
//! The generator is a best-first search over partial traces whose priority
//! is the cost so far plus the largest cost any completion can add (a
//! memoised maximum over the bounded abstract state space, exact for the
//! abstraction): complete traces come out in decreasing order of cost
//! without enumerating them all. The search's learning prunes it: a trace
//! prefix found infeasible kills every trace through it ([`TraceQueue::kill`]).

use std::collections::BinaryHeap;

use pathwise_ir::{Block, FuncId, InstKind, Program, Terminator};
use rustc_hash::FxHashMap;

use crate::analysis::ProgramInfo;
use crate::cost::CostModel;

/// One branch side of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Step {
    pub func: FuncId,
    pub block: Block,
    pub taken: bool,
}

/// An activation of the abstraction: where it is and its loops' counts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Frame {
    func: FuncId,
    block: Block,
    /// The next instruction of `block` to look at for a call.
    inst: u32,
    /// Iterations started in the current entry into each loop of `func`.
    iters: Vec<u32>,
}

/// A state of the abstraction: its stack (empty once the function under
/// test returned).
type State = Vec<Frame>;

/// What running a state to its next branch gives.
enum Next {
    Done,
    /// Beyond the bound, or unreachable code: no trace.
    Dead,
    /// A branch, with the state after each side (`[else, then]`, `None`
    /// when the side leaves the bound) and the cost it adds.
    Branch {
        step: (FuncId, Block),
        sides: [Option<(State, u64)>; 2],
    },
}

/// At most this many abstract states are memoised; past it the
/// abstraction is reported too large (see [`TraceGen::best`]).
const MAX_STATES: usize = 2_000_000;

/// The bounded abstraction of a unit, with its cost model.
pub(crate) struct TraceGen<'a> {
    program: &'a Program,
    info: &'a ProgramInfo,
    main: FuncId,
    k: u32,
    /// Per function, per block: its cost.
    block_cost: Vec<Vec<u64>>,
    /// Per state: the largest cost a completion adds, and the number of
    /// complete traces from it (the naive abstraction's size, saturated).
    memo: FxHashMap<State, (Option<u64>, u128)>,
}

/// Whether a call of `name` is a call of the program (as `Meter::call`
/// counts them).
fn counted_call(name: &str) -> bool {
    !name.starts_with("pathwise_") && !name.starts_with("__pathwise")
}

/// Why `main` cannot be abstracted, if it cannot: calls through function
/// pointers (the abstraction does not know their targets).
pub fn unsupported(program: &Program, main: FuncId) -> Option<String> {
    let mut seen = vec![false; program.funcs.len()];
    let mut todo = vec![main];
    while let Some(f) = todo.pop() {
        if std::mem::replace(&mut seen[f.0 as usize], true) {
            continue;
        }
        let data = program.func(f);
        for b in &data.blocks {
            for i in &b.insts {
                match &i.kind {
                    InstKind::CallPtr { .. } => {
                        let at = program.files.get(i.loc.file as usize).map_or("?", String::as_str);
                        return Some(format!(
                            "{at}:{}:{}: `{}` calls through a function pointer, which abstract traces do not follow",
                            i.loc.line, i.loc.col, data.name
                        ));
                    }
                    InstKind::Call { func, .. } if !program.func(*func).is_declaration() => todo.push(*func),
                    _ => {}
                }
            }
        }
    }
    None
}

impl<'a> TraceGen<'a> {
    /// The abstraction of `main` within `k`, costed by `model`
    /// (instructions or calls: see the module doc).
    pub fn new(program: &'a Program, info: &'a ProgramInfo, main: FuncId, k: u32, model: &CostModel) -> Self {
        let block_cost = program
            .funcs
            .iter()
            .map(|f| {
                f.blocks
                    .iter()
                    .map(|b| match model {
                        CostModel::Instructions | CostModel::Memory => b.insts.len() as u64 + 1,
                        CostModel::Calls(which) => b
                            .insts
                            .iter()
                            .filter(|i| match &i.kind {
                                InstKind::Call { func, .. } => {
                                    let name = &program.func(*func).name;
                                    counted_call(name) && which.as_ref().is_none_or(|w| w == name)
                                }
                                _ => false,
                            })
                            .count() as u64,
                    })
                    .collect()
            })
            .collect();
        TraceGen { program, info, main, k, block_cost, memo: FxHashMap::default() }
    }

    fn frame(&self, func: FuncId) -> Frame {
        Frame { func, block: Block(0), inst: 0, iters: vec![0; self.info.func(func).loops.loops.len()] }
    }

    /// The start state and the cost of its first block.
    fn start(&self) -> (State, u64) {
        (vec![self.frame(self.main)], self.block_cost[self.main.0 as usize][0])
    }

    /// Follow the edge `from -> to` of the top frame as `Exec::goto` does
    /// under the strict count; false when it starts an iteration beyond k.
    fn goto(&self, fr: &mut Frame, to: Block) -> bool {
        let fi = self.info.func(fr.func);
        let loops = &fi.loops;
        let from = fr.block;
        for l in loops.enclosing(to) {
            if loops.loop_(l).header == to && !loops.contains(l, from) {
                fr.iters[l.0 as usize] = 0;
            }
        }
        let started = match fi.iter_start.get(&to) {
            Some(&l) => Some(l),
            None => loops.back_edge_loop(from, to).filter(|l| fi.loop_start[l.0 as usize].is_none()),
        };
        fr.block = to;
        fr.inst = 0;
        if let Some(l) = started {
            fr.iters[l.0 as usize] += 1;
            return fr.iters[l.0 as usize] <= self.k;
        }
        true
    }

    /// Run `state` to its next branch (or its end), adding the cost of the
    /// blocks entered to `cost`.
    fn run_to_branch(&self, state: &mut State, cost: &mut u64) -> Next {
        loop {
            let Some(top) = state.last_mut() else { return Next::Done };
            let f = self.program.func(top.func);
            let b = f.block(top.block);
            let call = b.insts.iter().enumerate().skip(top.inst as usize).find_map(|(i, inst)| match &inst.kind {
                InstKind::Call { func, .. } if !self.program.func(*func).is_declaration() => Some((i, *func)),
                _ => None,
            });
            if let Some((i, callee)) = call {
                top.inst = i as u32 + 1;
                let recursive = self.info.func(callee).recursive_scc.is_some();
                if recursive && state.iter().filter(|fr| fr.func == callee).count() as u32 + 1 > self.k + 1 {
                    return Next::Dead;
                }
                state.push(self.frame(callee));
                *cost += self.block_cost[callee.0 as usize][0];
                continue;
            }
            match b.term {
                Terminator::Return(_) => {
                    state.pop();
                }
                Terminator::Jump(to) => {
                    if !self.goto(top, to) {
                        return Next::Dead;
                    }
                    *cost += self.block_cost[top.func.0 as usize][to.index()];
                }
                Terminator::Branch { then_block, else_block, .. } => {
                    let at = (top.func, top.block);
                    let side = |to: Block| {
                        let mut s = state.clone();
                        let fr = s.last_mut().expect("a frame");
                        self.goto(fr, to).then(|| (s, self.block_cost[at.0 .0 as usize][to.index()]))
                    };
                    return Next::Branch { step: at, sides: [side(else_block), side(then_block)] };
                }
                Terminator::Unreachable => return Next::Dead,
            }
        }
    }

    /// The largest cost a completion of `state` adds (`None`: it has
    /// none within the bound), and the number of its completions.
    /// `Err` when the abstraction has more than [`MAX_STATES`] states.
    fn best(&mut self, state: &State) -> Result<(Option<u64>, u128), String> {
        if let Some(&v) = self.memo.get(state) {
            return Ok(v);
        }
        if self.memo.len() >= MAX_STATES {
            return Err(format!("the bounded abstraction has more than {MAX_STATES} states"));
        }
        let mut s = state.clone();
        let mut cost = 0;
        let v = match self.run_to_branch(&mut s, &mut cost) {
            Next::Done => (Some(cost), 1),
            Next::Dead => (None, 0),
            Next::Branch { sides, .. } => {
                let mut best: Option<u64> = None;
                let mut count: u128 = 0;
                for (next, add) in sides.into_iter().flatten() {
                    let (b, c) = self.best(&next)?;
                    if let Some(b) = b {
                        best = best.max(Some(cost + add + b));
                    }
                    count = count.saturating_add(c);
                }
                (best, count)
            }
        };
        self.memo.insert(state.clone(), v);
        Ok(v)
    }

    /// The number of complete bounded traces (what a naive generator
    /// would enumerate) and the largest cost of one.
    pub fn size(&mut self) -> Result<(u128, Option<u64>), String> {
        let (s, c) = self.start();
        let (best, count) = self.best(&s)?;
        Ok((count, best.map(|b| b + c)))
    }

    /// Abstract states memoised so far.
    pub fn states(&self) -> usize {
        self.memo.len()
    }
}

/// A node of the best-first search: a partial trace.
struct Node {
    parent: u32,
    step: Option<Step>,
    depth: u32,
    dead: bool,
    /// The cost of the blocks entered so far.
    cost: u64,
    /// The abstract state after the trace (`None` once expanded or when
    /// the trace is complete).
    state: Option<State>,
    complete: bool,
}

/// A complete trace popped from the queue.
pub(crate) struct Popped {
    pub node: u32,
    pub steps: Vec<Step>,
    pub cost: u64,
}

/// Complete bounded traces in decreasing order of cost (see the module
/// doc), with the infeasible prefixes the caller reports pruned.
pub(crate) struct TraceQueue<'a> {
    gen: TraceGen<'a>,
    nodes: Vec<Node>,
    /// (priority: an upper bound of the cost of every completion, then
    /// the earliest node first).
    heap: BinaryHeap<(u64, std::cmp::Reverse<u32>)>,
    /// Partial traces expanded.
    pub expanded: u64,
}

impl<'a> TraceQueue<'a> {
    pub fn new(mut gen: TraceGen<'a>) -> Result<Self, String> {
        let (state, cost) = gen.start();
        let best = gen.best(&state)?.0;
        let mut q = TraceQueue { gen, nodes: Vec::new(), heap: BinaryHeap::new(), expanded: 0 };
        if let Some(b) = best {
            let root =
                Node { parent: u32::MAX, step: None, depth: 0, dead: false, cost, state: Some(state), complete: false };
            q.push(root, cost + b);
        }
        Ok(q)
    }

    fn push(&mut self, node: Node, priority: u64) {
        self.nodes.push(node);
        self.heap.push((priority, std::cmp::Reverse(self.nodes.len() as u32 - 1)));
    }

    fn is_dead(&self, mut n: u32) -> bool {
        while n != u32::MAX {
            if self.nodes[n as usize].dead {
                return true;
            }
            n = self.nodes[n as usize].parent;
        }
        false
    }

    /// The most expensive complete trace left (by exact cost), if any.
    pub fn pop(&mut self) -> Result<Option<Popped>, String> {
        while let Some((priority, std::cmp::Reverse(n))) = self.heap.pop() {
            if self.is_dead(n) {
                continue;
            }
            let node = &mut self.nodes[n as usize];
            if node.complete {
                let mut steps = Vec::with_capacity(node.depth as usize);
                let mut at = n;
                while at != u32::MAX {
                    let nd = &self.nodes[at as usize];
                    steps.extend(nd.step);
                    at = nd.parent;
                }
                steps.reverse();
                return Ok(Some(Popped { node: n, steps, cost: priority }));
            }
            let Some(mut state) = node.state.take() else { continue };
            let (cost, depth) = (node.cost, node.depth);
            self.expanded += 1;
            let mut add = 0;
            match self.gen.run_to_branch(&mut state, &mut add) {
                Next::Dead => {}
                Next::Done => {
                    let total = cost + add;
                    let node = &mut self.nodes[n as usize];
                    node.complete = true;
                    node.cost = total;
                    self.heap.push((total, std::cmp::Reverse(n)));
                }
                Next::Branch { step: (func, block), sides } => {
                    for taken in [true, false] {
                        let Some((next, d)) = &sides[usize::from(taken)] else { continue };
                        let (Some(b), _) = self.gen.best(next)? else { continue };
                        let c = cost + add + d;
                        let step = Some(Step { func, block, taken });
                        let child = Node {
                            parent: n,
                            step,
                            depth: depth + 1,
                            dead: false,
                            cost: c,
                            state: Some(next.clone()),
                            complete: false,
                        };
                        self.push(child, c + b);
                    }
                }
            }
        }
        Ok(None)
    }

    /// Every trace through the first `depth` steps of `node`'s trace is
    /// infeasible (`depth` 0: every trace).
    pub fn kill(&mut self, node: u32, depth: u32) {
        let mut at = node;
        while at != u32::MAX && self.nodes[at as usize].depth > depth {
            at = self.nodes[at as usize].parent;
        }
        if at != u32::MAX {
            self.nodes[at as usize].dead = true;
        }
    }

    /// The generator (for its size).
    pub fn gen(&mut self) -> &mut TraceGen<'a> {
        &mut self.gen
    }
}

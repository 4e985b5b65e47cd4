//! Bounded abstract traces (seed 003, Definitions 4.4.3 and 5.2.1): the
//! trace generator of resource-driven generation.
//!
//! The abstraction keeps only control: the CFG of the function under test
//! and of every function it calls (calls entered, as the thesis keeps the
//! calls of each rule), bounded as the engine bounds a run under the
//! strict k-path count: at most k iterations per entry into a loop, and at
//! most k + 1 activations of a function of a recursive cycle, both by the
//! rule `Exec::goto` and `Exec::call` use ([`pathwise_ir::analysis::bound`]).
//! A trace is the sequence of branch sides a run takes, which names the
//! run's path (the code between two branches is deterministic), so it
//! compares directly with a run's `PathStep`s.
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
//!
//! Reach mode (guided generation, Definition 5.2.1 for program points):
//! the traces through a block holding a target line, shortest first (the
//! distance is the number of blocks), ending at the function's return or
//! at an `unreachable` terminator (an error end). No such trace within
//! the bound: the target is unreachable within it, without a solver call.

use std::collections::BinaryHeap;

use pathwise_ir::analysis::bound::{recursion_exceeds, IterCounts};
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
    iters: IterCounts,
}

/// A state of the abstraction: its stack (empty once the function under
/// test returned) and, when looking for a target, whether it was entered.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct State {
    stack: Vec<Frame>,
    reached: bool,
}

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
const MAX_STATES: usize = 500_000;

/// At most this many branches deep (the memoised search recurses once
/// per branch of a trace: a bound on the stack it uses).
const MAX_DEPTH: u32 = 4_000;

/// The bounded abstraction of a unit, with its cost model.
pub(crate) struct TraceGen<'a> {
    program: &'a Program,
    info: &'a ProgramInfo,
    main: FuncId,
    k: u32,
    /// Per function, per block: its cost.
    block_cost: Vec<Vec<u64>>,
    /// Per state: the best value of a completion (the largest cost added,
    /// or in reach mode the fewest blocks), and the number of complete
    /// traces from it (the naive abstraction's size, saturated).
    memo: FxHashMap<State, (Option<u64>, u128)>,
    /// Reach mode (guided generation): the blocks holding the target; a
    /// trace must enter one, every block costs 1, the best completion is
    /// the shortest, and a run may also end at `unreachable` (after
    /// `abort()`, a failed `assert`), which is an error test.
    targets: Vec<(FuncId, Block)>,
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
        TraceGen { program, info, main, k, block_cost, memo: FxHashMap::default(), targets: Vec::new() }
    }

    /// The abstraction of `main` within `k` for reaching one of `points`
    /// (function, line): traces through a block with code on the line, in
    /// increasing number of blocks.
    pub fn reach(program: &'a Program, info: &'a ProgramInfo, main: FuncId, k: u32, points: &[(FuncId, u32)]) -> Self {
        let mut gen = TraceGen::new(program, info, main, k, &CostModel::Instructions);
        for (f, blocks) in gen.block_cost.iter_mut().enumerate() {
            blocks.iter_mut().for_each(|c| *c = 1);
            let func = FuncId(f as u32);
            for (b, data) in program.func(func).blocks.iter().enumerate() {
                let on = |l: pathwise_ir::Loc| points.contains(&(func, l.line)) && !l.is_none();
                if data.insts.iter().any(|i| on(i.loc)) || on(data.term_loc) {
                    gen.targets.push((func, Block(b as u32)));
                }
            }
        }
        gen
    }

    fn reach_mode(&self) -> bool {
        !self.targets.is_empty()
    }

    /// Enter `block` of the top frame's function: its cost, and whether it
    /// holds the target.
    fn entered(&self, state: &mut State, func: FuncId, block: Block) -> u64 {
        if self.targets.contains(&(func, block)) {
            state.reached = true;
        }
        self.block_cost[func.0 as usize][block.index()]
    }

    fn frame(&self, func: FuncId) -> Frame {
        Frame { func, block: Block(0), inst: 0, iters: IterCounts::new(&self.info.func(func).bound) }
    }

    /// The start state and the cost of its first block.
    fn start(&self) -> (State, u64) {
        let mut state = State { stack: vec![self.frame(self.main)], reached: false };
        let cost = self.entered(&mut state, self.main, Block(0));
        (state, cost)
    }

    /// Follow the edge `from -> to` of the top frame as `Exec::goto` does
    /// under the strict count; false when it starts an iteration beyond k.
    fn goto(&self, fr: &mut Frame, to: Block) -> bool {
        let exceeded = fr.iters.follow(&self.info.func(fr.func).bound, fr.block, to, self.k);
        fr.block = to;
        fr.inst = 0;
        !exceeded
    }

    /// Run `state` to its next branch (or its end), adding the cost of the
    /// blocks entered to `cost`.
    fn run_to_branch(&self, state: &mut State, cost: &mut u64) -> Next {
        loop {
            let Some(top) = state.stack.last_mut() else { return Next::Done };
            let f = self.program.func(top.func);
            let b = f.block(top.block);
            let call = b.insts.iter().enumerate().skip(top.inst as usize).find_map(|(i, inst)| match &inst.kind {
                InstKind::Call { func, .. } if !self.program.func(*func).is_declaration() => Some((i, *func)),
                _ => None,
            });
            if let Some((i, callee)) = call {
                top.inst = i as u32 + 1;
                let recursive = self.info.func(callee).recursive_scc.is_some();
                let activations = state.stack.iter().filter(|fr| fr.func == callee).count() as u32 + 1;
                if recursive && recursion_exceeds(activations, self.k) {
                    return Next::Dead;
                }
                state.stack.push(self.frame(callee));
                *cost += self.entered(state, callee, Block(0));
                continue;
            }
            match b.term {
                Terminator::Return(_) => {
                    state.stack.pop();
                }
                Terminator::Jump(to) => {
                    let func = top.func;
                    if !self.goto(top, to) {
                        return Next::Dead;
                    }
                    *cost += self.entered(state, func, to);
                }
                Terminator::Branch { then_block, else_block, .. } => {
                    let at = (top.func, top.block);
                    let side = |to: Block| {
                        let mut s = state.clone();
                        let fr = s.stack.last_mut().expect("a frame");
                        if !self.goto(fr, to) {
                            return None;
                        }
                        let c = self.entered(&mut s, at.0, to);
                        Some((s, c))
                    };
                    return Next::Branch { step: at, sides: [side(else_block), side(then_block)] };
                }
                // An error end: a test only when looking for a target.
                Terminator::Unreachable if self.reach_mode() => return Next::Done,
                Terminator::Unreachable => return Next::Dead,
            }
        }
    }

    /// The largest cost a completion of `state` adds (`None`: it has
    /// none within the bound), and the number of its completions.
    /// `Err` when the abstraction has more than [`MAX_STATES`] states or
    /// traces more than [`MAX_DEPTH`] branches long.
    fn best(&mut self, state: &State) -> Result<(Option<u64>, u128), String> {
        self.best_at(state, 0)
    }

    fn best_at(&mut self, state: &State, depth: u32) -> Result<(Option<u64>, u128), String> {
        if let Some(&v) = self.memo.get(state) {
            return Ok(v);
        }
        if self.memo.len() >= MAX_STATES {
            return Err(format!("the bounded abstraction has more than {MAX_STATES} states"));
        }
        if depth >= MAX_DEPTH {
            return Err(format!("the bounded abstraction has traces of more than {MAX_DEPTH} branches"));
        }
        let mut s = state.clone();
        let mut cost = 0;
        let v = match self.run_to_branch(&mut s, &mut cost) {
            Next::Done if s.reached || !self.reach_mode() => (Some(cost), 1),
            Next::Done | Next::Dead => (None, 0),
            Next::Branch { sides, .. } => {
                let mut best: Option<u64> = None;
                let mut count: u128 = 0;
                for (next, add) in sides.into_iter().flatten() {
                    let (b, c) = self.best_at(&next, depth + 1)?;
                    if let Some(b) = b {
                        let v = cost + add + b;
                        best = Some(match best {
                            None => v,
                            Some(o) if self.reach_mode() => o.min(v),
                            Some(o) => o.max(v),
                        });
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

/// Complete bounded traces in decreasing order of cost (in reach mode:
/// through a target, in increasing length; see the module doc), with the
/// infeasible prefixes the caller reports pruned.
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
            let key = q.key(cost + b);
            q.push(root, key);
        }
        Ok(q)
    }

    /// The heap's key of a value: the most expensive first, or in reach
    /// mode the shortest.
    fn key(&self, v: u64) -> u64 {
        if self.gen.reach_mode() {
            u64::MAX - v
        } else {
            v
        }
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
        while let Some((_, std::cmp::Reverse(n))) = self.heap.pop() {
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
                let cost = self.nodes[n as usize].cost;
                return Ok(Some(Popped { node: n, steps, cost }));
            }
            let Some(mut state) = node.state.take() else { continue };
            let (cost, depth) = (node.cost, node.depth);
            self.expanded += 1;
            let mut add = 0;
            match self.gen.run_to_branch(&mut state, &mut add) {
                Next::Dead => {}
                Next::Done if self.gen.reach_mode() && !state.reached => {}
                Next::Done => {
                    let total = cost + add;
                    let node = &mut self.nodes[n as usize];
                    node.complete = true;
                    node.cost = total;
                    let key = self.key(total);
                    self.heap.push((key, std::cmp::Reverse(n)));
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
                        let key = self.key(c + b);
                        self.push(child, key);
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

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "int h(int x)\n{\n    if (x > 0)\n        return 1;\n    return 0;\n}\n\
        int f(int n, int a)\n{\n    int i, s = 0;\n    for (i = 0; i < n; i++)\n        s += h(a);\n    return s;\n}\n";

    fn program() -> Program {
        let opts = pathwise_cfront::FrontendOptions {
            include_dirs: vec![],
            defines: vec![],
            data_model: pathwise_cfront::DataModel::Lp64,
            extra_args: vec![],
        };
        pathwise_cfront::compile_source("t.c", SRC, &opts).expect("compiles").program
    }

    /// Every complete trace, in the order the queue gives them.
    fn drain(q: &mut TraceQueue<'_>) -> Vec<(Vec<bool>, u64)> {
        let mut out = Vec::new();
        while let Some(p) = q.pop().expect("small") {
            out.push((p.steps.iter().map(|s| s.taken).collect(), p.cost));
        }
        out
    }

    #[test]
    fn traces_come_most_expensive_first() {
        let p = program();
        let info = ProgramInfo::compute(&p);
        let f = p.func_by_name("f").expect("f");
        // Loop-2: 0, 1 or 2 iterations, each calling h (2 sides): 7.
        let mut gen = TraceGen::new(&p, &info, f, 2, &CostModel::Calls(Some("h".into())));
        assert_eq!(gen.size().expect("small"), (7, Some(2)));
        let mut q = TraceQueue::new(TraceGen::new(&p, &info, f, 2, &CostModel::Instructions)).expect("small");
        let all = drain(&mut q);
        assert_eq!(all.len(), 7);
        assert!(all.windows(2).all(|w| w[0].1 >= w[1].1), "{all:?}");
        // The most expensive iterates twice: loop condition, h's branch,
        // twice, then the loop's exit.
        assert_eq!(all[0].0.len(), 5);
        assert_eq!(all.last().expect("one").0, vec![false], "no iteration is the cheapest");
        // Killing the prefix "one iteration" removes the 6 traces through it.
        let mut q = TraceQueue::new(TraceGen::new(&p, &info, f, 2, &CostModel::Instructions)).expect("small");
        let first = q.pop().expect("small").expect("a trace");
        q.kill(first.node, 1);
        assert_eq!(drain(&mut q), vec![(vec![false], all.last().expect("one").1)]);
    }

    #[test]
    fn reach_mode_gives_the_shortest_traces_through_the_target() {
        let p = program();
        let info = ProgramInfo::compute(&p);
        let (f, h) = (p.func_by_name("f").expect("f"), p.func_by_name("h").expect("h"));
        // `return 1` (line 4): some iteration with x > 0.
        let mut q = TraceQueue::new(TraceGen::reach(&p, &info, f, 2, &[(h, 4)])).expect("small");
        let all = drain(&mut q);
        let steps: Vec<Vec<bool>> = all.iter().map(|t| t.0.clone()).collect();
        assert_eq!(steps[0], vec![true, true, false], "one iteration taking x > 0");
        assert_eq!(steps.len(), 4);
        assert!(all.windows(2).all(|w| w[0].1 <= w[1].1), "{all:?}");
        // At k = 0 no iteration: no trace, unreachable without solving.
        let mut q = TraceQueue::new(TraceGen::reach(&p, &info, f, 0, &[(h, 4)])).expect("small");
        assert!(q.pop().expect("small").is_none());
    }
}

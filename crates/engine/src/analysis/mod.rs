//! Static facts about functions that the k-path search needs.
//!
//! The k limit is enforced on prefixes, not only on finished paths (seed 002,
//! section 6): a branch side that *definitively* leads to one more iteration
//! of a loop, or to one more nested activation of a recursive function, is
//! not explored once the bound is reached. "Definitively" is decided here:
//! - an iteration of loop `L` starts as [`pathwise_ir::analysis::bound`]
//!   defines (entering its iteration-start block, the body entry the front
//!   end records, or for a loop without one its back edges); a side commits
//!   to another iteration when its target is that block
//!   ([`LoopBound::iteration_block`]: the header for back-edge counting),
//!   or lies in `L` and cannot leave `L` (by an exit edge, a `ret`, or a
//!   call to an external function, which may end the run) without passing
//!   it;
//! - a side commits to a recursive call when every way from its target to
//!   the function's end passes a block that calls a function of the same
//!   call-graph cycle; whether that call goes deeper than k depends on the
//!   run's activations ([`passes_call`], used by the interpreter).
//!
//! Which branches are loop decisions is in [`crate::loop_decisions`].
//!
//! For the block-k criterion (see [`crate::blockk`]) the commitment depends
//! on the visit counts of the run, so only the static part is here: which
//! blocks may leave the function and which functions each block calls.

pub mod loop_decisions;
pub mod loop_exits;
pub mod reject;

use pathwise_ir::analysis::bound::LoopBound;
use pathwise_ir::analysis::{CallGraph, LoopId};
use pathwise_ir::{Block, FuncData, FuncId, InstKind, Program, Terminator};
use rustc_hash::FxHashMap;

/// What taking one side of a branch commits the path to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideCommit {
    /// Loops whose back edge the side will take before leaving them.
    pub loops: Vec<LoopId>,
    /// The side will call a function of the same recursive cycle.
    pub recursion: bool,
}

/// Per-function analysis results.
pub struct FuncInfo {
    /// The loops and where their iterations start (the k bound's rule).
    pub bound: LoopBound,
    /// For each block ending in a `br`: commitments of its then and else sides.
    pub branch_commit: FxHashMap<Block, [SideCommit; 2]>,
    /// For each block ending in a `br`: the loops for which it decides
    /// between another iteration and leaving (see [`crate::loop_decisions`]).
    pub loop_decisions: FxHashMap<Block, Vec<LoopId>>,
    /// Per loop: whether some branch is one of its loop decisions (a
    /// `while (1)` without `break` has none).
    pub has_loop_decision: Vec<bool>,
    /// Per loop: whether one of its loop decisions reads state the
    /// iterations set under decisions (see [`crate::loop_exits`]).
    pub state_exit: Vec<bool>,
    /// The call-graph cycle of the function, if it is recursive.
    pub recursive_scc: Option<u32>,
    /// Per block: whether the run may leave the function there (see
    /// `exit_blocks`).
    pub exits: Vec<bool>,
    /// Per block: the functions with a body that it calls, in order.
    pub callees: Vec<Vec<FuncId>>,
    /// Registers defined by a `load` whose value is only ever stored: a copy
    /// (the front end copies structures scalar by scalar), which may carry
    /// indeterminate bytes without reading them (see [`crate::memcheck`]).
    pub copy_loads: rustc_hash::FxHashSet<pathwise_ir::Reg>,
    /// Per block: every path from it returns the constant 0 (see
    /// [`crate::reject`]; used for the precondition).
    pub rejects: Vec<bool>,
}

/// Analysis results for every function of a program.
pub struct ProgramInfo {
    pub funcs: Vec<FuncInfo>,
    pub callgraph: CallGraph,
}

impl ProgramInfo {
    pub fn compute(program: &Program) -> ProgramInfo {
        let callgraph = CallGraph::compute(program);
        let funcs = (0..program.funcs.len())
            .map(|i| {
                let id = FuncId(i as u32);
                analyse_function(program, &callgraph, id)
            })
            .collect();
        ProgramInfo { funcs, callgraph }
    }

    pub fn func(&self, id: FuncId) -> &FuncInfo {
        &self.funcs[id.0 as usize]
    }
}

fn analyse_function(program: &Program, cg: &CallGraph, id: FuncId) -> FuncInfo {
    let f = program.func(id);
    let bound = LoopBound::compute(f);
    let loops = &bound.loops;
    let recursive_scc = cg.is_recursive(id).then(|| cg.scc(id));
    let exits = exit_blocks(program, f);
    let copy_loads = copy_loads(f);
    let call_blocks: Vec<bool> = match recursive_scc {
        Some(scc) => f
            .blocks
            .iter()
            .map(|b| {
                b.insts.iter().any(|i| match &i.kind {
                    InstKind::Call { func, .. } => cg.scc(*func) == scc && cg.is_recursive(*func),
                    _ => false,
                })
            })
            .collect(),
        None => vec![false; f.blocks.len()],
    };
    let loop_decisions = crate::loop_decisions::loop_decisions(f, &bound);
    let mut has_loop_decision = vec![false; loops.loops.len()];
    for l in loop_decisions.values().flatten() {
        has_loop_decision[l.0 as usize] = true;
    }
    let state_exit = crate::loop_exits::state_decided_loops(program, f, loops, &loop_decisions);
    let mut branch_commit = FxHashMap::default();
    for (bi, b) in f.blocks.iter().enumerate() {
        let from = Block(bi as u32);
        if let Terminator::Branch { then_block, else_block, .. } = b.term {
            let side = |to: Block| SideCommit {
                loops: committed_loops(f, &bound, &exits, from, to),
                recursion: recursive_scc.is_some() && commits_to_call(f, &exits, &call_blocks, to),
            };
            branch_commit.insert(from, [side(then_block), side(else_block)]);
        }
    }
    let callees = f
        .blocks
        .iter()
        .map(|b| {
            let mut out: Vec<FuncId> = Vec::new();
            for i in &b.insts {
                if let InstKind::Call { func, .. } = &i.kind {
                    if !program.func(*func).is_declaration() && !out.contains(func) {
                        out.push(*func);
                    }
                }
            }
            out
        })
        .collect();
    let rejects = crate::reject::rejecting_blocks(f);
    FuncInfo {
        bound,
        branch_commit,
        loop_decisions,
        has_loop_decision,
        state_exit,
        recursive_scc,
        exits,
        callees,
        copy_loads,
        rejects,
    }
}

/// Blocks from which the run may leave the function: returns, unreachable
/// ends, and calls to functions without a body (abort, exit, unknown).
fn exit_blocks(program: &Program, f: &FuncData) -> Vec<bool> {
    f.blocks
        .iter()
        .map(|b| {
            matches!(b.term, Terminator::Return(_) | Terminator::Unreachable)
                || b.insts.iter().any(|i| match &i.kind {
                    InstKind::Call { func, .. } => program.func(*func).is_declaration(),
                    _ => false,
                })
        })
        .collect()
}

/// The loops enclosing `from` that the side `from -> to` commits to
/// iterating again (see the module doc).
fn committed_loops(f: &FuncData, bound: &LoopBound, exits: &[bool], from: Block, to: Block) -> Vec<LoopId> {
    let li = &bound.loops;
    let mut out = Vec::new();
    for l in li.enclosing(from) {
        // The block whose entry starts an iteration: the recorded start, or
        // for back-edge counting the header (reached again only by one).
        // With several recorded starts only `LoopBound::start` is looked
        // at here.
        let header = bound.iteration_block(l);
        let direct = match bound.start(l) {
            Some(s) => to == s,
            None => bound.started(from, to) == Some(l),
        };
        if direct {
            out.push(l);
            continue;
        }
        if to == header || !li.contains(l, to) {
            continue;
        }
        // Search the loop minus the start block for a way out.
        let mut seen = vec![false; f.blocks.len()];
        let mut stack = vec![to];
        let mut can_leave = false;
        while let Some(b) = stack.pop() {
            if std::mem::replace(&mut seen[b.index()], true) {
                continue;
            }
            if exits[b.index()] {
                can_leave = true;
                break;
            }
            for s in f.block(b).term.successors() {
                if !li.contains(l, s) {
                    can_leave = true;
                    break;
                }
                if s != header {
                    stack.push(s);
                }
            }
            if can_leave {
                break;
            }
        }
        if !can_leave {
            out.push(l);
        }
    }
    out
}

/// Whether every way from `to` out of the function passes a recursive call.
fn commits_to_call(f: &FuncData, exits: &[bool], call_blocks: &[bool], to: Block) -> bool {
    passes_blocks(f, exits, to, |b| call_blocks[b.index()])
}

/// Whether every way from `to` out of the function `f` (analysed as `fi`)
/// passes a block calling a function that `calls` accepts: the dynamic
/// part of a recursive commitment, which depends on the activations of the
/// run (see `Exec::activations`).
pub fn passes_call(f: &FuncData, fi: &FuncInfo, to: Block, calls: impl Fn(FuncId) -> bool) -> bool {
    passes_blocks(f, &fi.exits, to, |b| fi.callees[b.index()].iter().any(|&g| calls(g)))
}

/// Whether every way from `to` out of the function passes a block `stops`
/// accepts.
fn passes_blocks(f: &FuncData, exits: &[bool], to: Block, stops: impl Fn(Block) -> bool) -> bool {
    let mut seen = vec![false; f.blocks.len()];
    let mut stack = vec![to];
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut seen[b.index()], true) || stops(b) {
            continue;
        }
        if exits[b.index()] {
            return false;
        }
        stack.extend(f.block(b).term.successors());
    }
    true
}

/// The registers of `f` defined by a `load` and used only as the value
/// operand of `store`s.
fn copy_loads(f: &pathwise_ir::FuncData) -> rustc_hash::FxHashSet<pathwise_ir::Reg> {
    let mut loads: rustc_hash::FxHashSet<pathwise_ir::Reg> = Default::default();
    let mut other_use: rustc_hash::FxHashSet<pathwise_ir::Reg> = Default::default();
    for b in &f.blocks {
        for i in &b.insts {
            if let (InstKind::Load { .. }, Some(r)) = (&i.kind, i.result) {
                loads.insert(r);
            }
            match &i.kind {
                InstKind::Store { ptr, .. } => other_use.extend(ptr.reg()),
                k => other_use.extend(k.operands().iter().filter_map(|o| o.reg())),
            }
        }
        other_use.extend(b.term.operands().iter().filter_map(|o| o.reg()));
    }
    loads.retain(|r| !other_use.contains(r));
    loads
}

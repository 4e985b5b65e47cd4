//! Procedure summaries (seed 001, section 6): a callee's path cover as a
//! disjunction, reused in each calling context of the VC instead of the
//! callee's inlined body.
//!
//! The summary of a function `f` is computed once: `f`'s own VC (its
//! callees inlined) is covered with blocking clauses (Algorithm 1), and
//! every feasible path `p` of that cover becomes one disjunct: the path's
//! condition `pc_p` over `f`'s parameters (the VC with the path's
//! reachability and edge variables fixed) and the value it returns,
//! `ret_p`. At a call `f(args)` in a node with reachability variable `r`,
//! the caller's VC gets, per path, a boolean `s_p ⇔ r ∧ pc_p[args]`, the
//! assumption `r ⇒ ∨ s_p` (the seed's `assume Sum`) and the result
//! `ite(s_1, ret_1[args], ite(s_2, ...))`: the seed's "switch case over
//! possible input values".
//!
//! The seed keeps the concrete input and output values of each path's
//! valuation, an under-approximation that loses every calling context
//! whose arguments differ from the ones the prover happened to pick (its
//! `foo(x, 1)` works only if the prover chose `b = 1`), and which it
//! repairs by computing the summary again under the caller's constants.
//! Keeping each path's condition and result symbolic instead (as SMART's
//! summaries do, seed 004) makes the disjunction exact within the bound:
//! every calling context finds in it exactly the paths the callee can take
//! there, the others' `s_p` are false (`foo`'s else-path under `b = 1`),
//! and a statement or branch of the callee no `s_p` of a context can reach
//! is infeasible in that context. A path that leaves the bound or runs
//! into undefined behaviour inside the callee is not in the cover, so
//! `r ⇒ ∨ s_p` cuts the caller's paths that would take it, as inlining
//! does.
//!
//! Only functions whose effect is their result are summarised: integer
//! parameters and result, no pointers, no globals, not recursive; others
//! (and callees of summarised functions) are inlined as before.

use std::time::Instant;

use pathwise_expr::{ExprId, ExprPool, Session};
use pathwise_ir::analysis::CallGraph;
use pathwise_ir::{FuncId, InstKind, Program, Shape};
use rustc_hash::FxHashMap;

use crate::cover::{cover, Criterion, Goal};
use crate::graph::{EdgeKind, Region};
use crate::passive::{Decision, Vc};

/// One path of a summary.
#[derive(Clone, Debug)]
pub struct SummaryPath {
    /// The path's condition over the callee's parameter variables.
    pub pc: ExprId,
    /// The value it returns (`None` for `void`).
    pub ret: Option<ExprId>,
    /// Its decisions, in order (the callee's and its callees').
    pub decisions: Vec<Decision>,
    /// The blocks and branch sides it visits.
    pub goals: Vec<Goal>,
}

/// The summary of one function (see the module doc).
#[derive(Clone, Debug)]
pub struct Summary {
    pub func: FuncId,
    /// The parameter variables `pc` and `ret` are expressed in.
    pub formals: Vec<ExprId>,
    pub paths: Vec<SummaryPath>,
    /// The functions whose code the summary covers (`func` and its
    /// callees), for the goals of a cover.
    pub funcs: Vec<FuncId>,
    /// Solver checks spent computing it.
    pub queries: u64,
}

/// Why `f` cannot be summarised (`Ok`: it can).
pub fn summarizable(program: &Program, cg: &CallGraph, f: FuncId) -> Result<(), String> {
    let fd = program.func(f);
    if fd.is_declaration() {
        return Err("no body".into());
    }
    if cg.is_recursive(f) {
        return Err("recursive".into());
    }
    if fd.params.iter().any(|p| p.src.shape != Shape::Scalar || !p.ty.is_int()) {
        return Err("a parameter that is not an integer".into());
    }
    if fd.ret.is_some_and(|t| !t.is_int()) {
        return Err("a result that is not an integer".into());
    }
    for g in cg.reachable_from(f) {
        let gd = program.func(g);
        for inst in gd.blocks.iter().flat_map(|b| &b.insts) {
            let bad = match &inst.kind {
                InstKind::AddrGlobal { .. } => Some("uses a global"),
                InstKind::AddrFunc { .. } | InstKind::CallPtr { .. } => Some("uses a function pointer"),
                InstKind::Call { func, .. } if program.func(*func).is_declaration() => {
                    let name = program.func(*func).name.as_str();
                    (!matches!(name, "pathwise_assume" | "assume")).then_some("calls a function without a body")
                }
                _ => None,
            };
            if let Some(why) = bad {
                return Err(format!("`{}` {why}", gd.name));
            }
        }
    }
    Ok(())
}

/// Summarise the function of `vc` (its VC built on its own, no
/// precondition) by a path cover in `session` (which holds
/// `vc.constraints`). `None` when the cover does not complete (deadline,
/// `unknown`) or has more than `max_paths` paths: the callee is then
/// inlined.
pub fn summarize(
    pool: &mut ExprPool,
    program: &Program,
    vc: &Vc,
    session: &mut dyn Session,
    max_paths: usize,
    deadline: Option<Instant>,
) -> Result<Option<Summary>, String> {
    let g = &vc.graph;
    let func = g.nodes[g.main_entry].func;
    let res = cover(pool, program, vc, session, Criterion::Paths, deadline)?;
    if !res.complete || res.models.len() > max_paths {
        return Ok(None);
    }
    let mut funcs: Vec<FuncId> = g.nodes.iter().filter(|k| k.region == Region::Main).map(|k| k.func).collect();
    funcs.sort();
    funcs.dedup();
    let mut paths = Vec::new();
    for model in &res.models {
        let visits = vc.visits(pool, model);
        let mut map: FxHashMap<ExprId, ExprId> = FxHashMap::default();
        for (n, &v) in vc.reach.iter().enumerate() {
            map.insert(v, pool.bool_const(visits.nodes[n]));
        }
        for (e, &v) in vc.edge_vars.iter().enumerate() {
            map.insert(v, pool.bool_const(visits.edges[e]));
        }
        let mut memo = FxHashMap::default();
        let mut pc = pool.bool_const(true);
        for &c in &vc.constraints {
            let c = substitute(pool, c, &map, &mut memo);
            pc = pool.and(pc, c);
        }
        let ret = vc.ret.map(|r| substitute(pool, r, &map, &mut memo));
        let mut goals = Vec::new();
        for (n, key) in g.nodes.iter().enumerate() {
            if visits.nodes[n] && key.region == Region::Main && key.start == 0 {
                goals.push(Goal::Block(key.func, key.block));
            }
        }
        for (e, edge) in g.edges.iter().enumerate() {
            if let (true, EdgeKind::Branch(side)) = (visits.edges[e], edge.kind) {
                let key = &g.nodes[edge.from];
                goals.push(Goal::Branch(key.func, key.block, side));
            }
        }
        goals.sort();
        goals.dedup();
        let decisions = vc.decisions(program, &visits)?;
        paths.push(SummaryPath { pc, ret, decisions, goals });
    }
    Ok(Some(Summary { func, formals: vc.formals.clone(), paths, funcs, queries: res.queries }))
}

/// The summary's disjunct for path `p` at a call with arguments `args`
/// (expressions of the formals' sorts): its condition and result.
pub(crate) fn instantiate(
    pool: &mut ExprPool,
    summary: &Summary,
    args: &[ExprId],
    memo: &mut FxHashMap<ExprId, ExprId>,
) -> Vec<(ExprId, Option<ExprId>)> {
    let map: FxHashMap<ExprId, ExprId> = summary.formals.iter().copied().zip(args.iter().copied()).collect();
    summary
        .paths
        .iter()
        .map(|p| {
            let pc = substitute(pool, p.pc, &map, memo);
            let ret = p.ret.map(|r| substitute(pool, r, &map, memo));
            (pc, ret)
        })
        .collect()
}

pub(crate) use pathwise_expr::subst::substitute;

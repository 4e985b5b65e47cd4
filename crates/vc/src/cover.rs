//! The covering algorithms of seed 001, section 5, over a [`Vc`].
//!
//! - Path cover (Algorithm 1): solve, take the model's path, add a blocking
//!   clause — the negated conjunction of the values of every reachability
//!   variable of the function under test in that model — and repeat until
//!   the formula is unsatisfiable. (Blocking only the variables that are
//!   true would also block every path whose blocks are a superset, such as
//!   `if (c) x++;` taken, when the path that skips it is found first.)
//! - Statement cover (Algorithm 2): an enabling clause, the disjunction of
//!   the reachability variables of every unwound copy of a block no test has
//!   visited yet; each model removes the blocks it visits (all their copies)
//!   until the clause is empty or the formula unsatisfiable.
//! - Branch cover: the same with one variable per CFG edge leaving a
//!   decision (per side of each `br`), all unwound copies of a side together.
//!
//! When the loop ends on `unsat`, every goal left is infeasible within the
//! bound (the seed's Theorems 5.1 and 5.2: the unwound program is
//! loop-free, and the VC's valuations are exactly its feasible paths).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use pathwise_expr::{ExprId, ExprPool, Model, Query, SolveResult, SolverBackend};
use pathwise_ir::{Block, FuncId, Program};

use crate::graph::{EdgeKind, Region};
use crate::passive::{Decision, Vc};

/// What the tests must cover.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Criterion {
    /// Every feasible path within the bound (blocking clauses).
    Paths,
    /// Every feasible block (enabling clauses).
    Statements,
    /// Every feasible side of every decision (enabling clauses).
    Branches,
}

/// A coverage goal of the function under test or a callee.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Goal {
    Block(FuncId, Block),
    Branch(FuncId, Block, bool),
}

/// The outcome of a cover.
#[derive(Clone, Debug, Default)]
pub struct CoverResult {
    /// One valuation per test, in the order found.
    pub models: Vec<Model>,
    /// The decisions of each model's path.
    pub paths: Vec<Vec<Decision>>,
    /// Solver checks made.
    pub queries: u64,
    /// Time spent in the solver.
    pub solver_time: Duration,
    /// The last check was `unsat`: the cover is complete.
    pub complete: bool,
    /// Why the cover stopped early (timeout, a solver `unknown`).
    pub stopped: Option<String>,
    /// Every goal of the criterion (blocks for path and statement covers).
    pub goals: Vec<Goal>,
    /// The goals no model covers (infeasible within the bound when
    /// `complete`).
    pub uncovered: Vec<Goal>,
}

fn truth(model: &Model, v: ExprId) -> bool {
    model.bv.get(&v).copied().unwrap_or(0) == 1
}

/// Every goal of the functions the unwound function under test runs, with
/// the variables of its unwound copies (none for a goal never unwound).
fn goals(program: &Program, vc: &Vc, criterion: Criterion) -> BTreeMap<Goal, Vec<ExprId>> {
    let g = &vc.graph;
    let mut out: BTreeMap<Goal, Vec<ExprId>> = BTreeMap::new();
    let funcs: BTreeSet<FuncId> = vc.main_nodes().iter().map(|&n| g.nodes[n].func).collect();
    for &f in &funcs {
        for (bi, b) in program.func(f).blocks.iter().enumerate() {
            let block = Block(bi as u32);
            let located = b.insts.iter().any(|i| !i.loc.is_none()) || !b.term_loc.is_none();
            match criterion {
                Criterion::Branches => {
                    if let pathwise_ir::Terminator::Branch { .. } = b.term {
                        out.insert(Goal::Branch(f, block, true), Vec::new());
                        out.insert(Goal::Branch(f, block, false), Vec::new());
                    }
                }
                _ if located => {
                    out.insert(Goal::Block(f, block), Vec::new());
                }
                _ => {}
            }
        }
    }
    for n in vc.main_nodes() {
        let key = &g.nodes[n];
        match criterion {
            Criterion::Branches => {
                for &ei in &g.out[n] {
                    if let (EdgeKind::Branch(side), Some(_)) = (g.edges[ei].kind, g.edges[ei].to) {
                        let goal = Goal::Branch(key.func, key.block, side);
                        out.entry(goal).or_default().push(vc.edge_vars[ei]);
                    }
                }
            }
            _ if key.start == 0 => {
                if let Some(vars) = out.get_mut(&Goal::Block(key.func, key.block)) {
                    vars.push(vc.reach[n]);
                }
            }
            _ => {}
        }
    }
    out
}

/// Cover `vc` for `criterion` with `backend`, until `unsat`, `deadline` or
/// an `unknown`. Errors are bugs: a model whose path cannot be read.
pub fn cover(
    pool: &mut ExprPool,
    program: &Program,
    vc: &Vc,
    backend: &mut dyn SolverBackend,
    criterion: Criterion,
    deadline: Option<Instant>,
) -> Result<CoverResult, String> {
    let all = goals(program, vc, criterion);
    let mut res = CoverResult { goals: all.keys().copied().collect(), ..Default::default() };
    let mut uncovered: BTreeSet<Goal> = all.keys().copied().collect();
    let main: Vec<usize> = vc.main_nodes();
    let mut clauses: Vec<ExprId> = Vec::new();
    backend.set_deadline(deadline);
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            res.stopped = Some("timeout".into());
            break;
        }
        let mut constraints = vc.constraints.clone();
        constraints.extend(clauses.iter().copied());
        if criterion != Criterion::Paths {
            let mut enabling = pool.bool_const(false);
            for goal in &uncovered {
                for &v in &all[goal] {
                    enabling = pool.or(enabling, v);
                }
            }
            if pool.as_bool_const(enabling) == Some(false) {
                res.complete = true;
                break;
            }
            constraints.push(enabling);
        }
        res.queries += 1;
        let t = Instant::now();
        let answer = backend.check(pool, &Query { constraints, assumptions: Vec::new() });
        res.solver_time += t.elapsed();
        match answer {
            SolveResult::Sat(model) => {
                let path = vc.decisions(program, &model)?;
                uncovered.retain(|goal| !all[goal].iter().any(|&v| truth(&model, v)));
                if criterion == Criterion::Paths {
                    // The negated conjunction of every reachability
                    // variable's value in this model.
                    let mut clause = pool.bool_const(false);
                    for &n in &main {
                        let r = vc.reach[n];
                        let lit = if truth(&model, r) { pool.not(r) } else { r };
                        clause = pool.or(clause, lit);
                    }
                    clauses.push(clause);
                }
                res.models.push(model);
                res.paths.push(path);
            }
            SolveResult::Unsat { .. } => {
                res.complete = true;
                break;
            }
            SolveResult::Unknown(why) => {
                res.stopped = Some(why);
                break;
            }
        }
    }
    res.uncovered = uncovered.into_iter().collect();
    Ok(res)
}

/// Whether `n` is a node of the function under test (not the precondition).
pub fn is_main(vc: &Vc, n: usize) -> bool {
    vc.graph.nodes[n].region == Region::Main
}

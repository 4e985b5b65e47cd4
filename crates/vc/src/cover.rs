//! The covering algorithms of seed 001, section 5, over a [`Vc`], in one
//! incremental solver [`Session`] that holds the VC: each clause is
//! asserted into it, never the whole formula again.
//!
//! - Path cover (Algorithm 1): solve, take the model's path, add a blocking
//!   clause and repeat until the formula is unsatisfiable. The seed's
//!   clause is the negated conjunction of the values of every reachability
//!   variable in the model; here it is the negated conjunction of the edge
//!   variables of the branch sides the path takes (and of the summary paths
//!   it takes at summarised calls). The unwound program is deterministic:
//!   a complete path that takes all those sides is this path, so both
//!   clauses block exactly it, and this one has a literal per decision
//!   instead of one per block. (Blocking only the reachability variables
//!   that are true would not do: it also blocks every path whose blocks are
//!   a superset, such as `if (c) x++;` taken, when the path that skips it
//!   is found first.)
//! - Statement cover (Algorithm 2): an enabling clause, the disjunction of
//!   the reachability variables of every unwound copy of a block no test has
//!   visited yet; each model removes the blocks it visits (all their copies)
//!   until the clause is empty or the formula unsatisfiable. The goals only
//!   shrink, so each enabling clause implies the ones before: it is asserted
//!   for good. How few checks suffice depends on the models the solver
//!   picks (see `pathwise_solver_z3::Models`).
//! - Branch cover: the same with one variable per CFG edge leaving a
//!   decision (per side of each `br`), all unwound copies of a side together.
//!
//! When the loop ends on `unsat`, every goal left is infeasible within the
//! bound (the seed's Theorems 5.1 and 5.2: the unwound program is
//! loop-free, and the VC's valuations are exactly its feasible paths).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use pathwise_expr::{ExprId, ExprPool, Model, Session, SolveResult};
use pathwise_ir::{Block, FuncId, Program};

use crate::graph::{EdgeKind, Region};
use crate::passive::{Decision, Vc, Visits};

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
    /// The functions replaced by summaries (see [`crate::summary`]): each
    /// with its number of paths and the solver checks its cover took.
    pub summaries: Vec<(FuncId, usize, u64)>,
}

/// An unwound copy of a goal: a node (blocks) or an edge (branch sides).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Copy {
    Node(usize),
    Edge(usize),
    /// Path `.1` of the summary at summarised call `.0`.
    Call(usize, usize),
}

impl Copy {
    fn var(self, vc: &Vc) -> ExprId {
        match self {
            Copy::Node(n) => vc.reach[n],
            Copy::Edge(e) => vc.edge_vars[e],
            Copy::Call(c, p) => vc.calls[c].paths[p],
        }
    }

    fn visited(self, v: &Visits) -> bool {
        match self {
            Copy::Node(n) => v.nodes[n],
            Copy::Edge(e) => v.edges[e],
            Copy::Call(c, p) => v.calls[c] == Some(p),
        }
    }
}

/// Every goal of the functions the unwound function under test runs, with
/// the variables of its unwound copies (none for a goal never unwound).
fn goals(program: &Program, vc: &Vc, criterion: Criterion) -> BTreeMap<Goal, Vec<Copy>> {
    let g = &vc.graph;
    let mut out: BTreeMap<Goal, Vec<Copy>> = BTreeMap::new();
    let mut funcs: BTreeSet<FuncId> = vc.main_nodes().iter().map(|&n| g.nodes[n].func).collect();
    funcs.extend(vc.calls.iter().flat_map(|c| c.funcs.iter().copied()));
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
                        out.entry(goal).or_default().push(Copy::Edge(ei));
                    }
                }
            }
            _ if key.start == 0 => {
                if let Some(vars) = out.get_mut(&Goal::Block(key.func, key.block)) {
                    vars.push(Copy::Node(n));
                }
            }
            _ => {}
        }
    }
    // The callees' goals in each summarised call's context: reached when
    // a path of the summary that visits them is taken there.
    for (c, call) in vc.calls.iter().enumerate() {
        for (p, goals) in call.goals.iter().enumerate() {
            for goal in goals {
                let wanted = matches!(goal, Goal::Branch(..)) == (criterion == Criterion::Branches);
                if let (true, Some(copies)) = (wanted, out.get_mut(goal)) {
                    copies.push(Copy::Call(c, p));
                }
            }
        }
    }
    out
}

/// The edge variables of the branch sides `model`'s path takes in the
/// function under test, and the variables of the summaries' paths it takes
/// at summarised calls: the path is the only complete one that takes them
/// all (the unwound program is deterministic), so their negated
/// conjunction blocks exactly this path.
fn taken_branches(vc: &Vc, visits: &Visits) -> Vec<ExprId> {
    let g = &vc.graph;
    let mut n = g.main_entry;
    let mut out = Vec::new();
    while let Some(&ei) = g.out[n].iter().find(|&&ei| visits.edges[ei]) {
        if matches!(g.edges[ei].kind, EdgeKind::Branch(_)) {
            out.push(vc.edge_vars[ei]);
        }
        match g.edges[ei].to {
            Some(t) => n = t,
            None => break,
        }
    }
    for (c, p) in visits.calls.iter().enumerate() {
        if let Some(p) = *p {
            out.push(vc.calls[c].paths[p]);
        }
    }
    out
}

/// Cover `vc` for `criterion` in `session` (which holds `vc.constraints`
/// already), until `unsat`, `deadline` or an `unknown`. Errors are bugs: a
/// model whose path cannot be read.
pub fn cover(
    pool: &mut ExprPool,
    program: &Program,
    vc: &Vc,
    session: &mut dyn Session,
    criterion: Criterion,
    deadline: Option<Instant>,
) -> Result<CoverResult, String> {
    cover_with(pool, program, vc, session, (criterion, deadline), &mut |_, _| {})
}

/// [`cover`], calling `on_model` with each model as it is found (the CLI
/// replays it into a test there, so that the deadline covers the replay).
pub fn cover_with(
    pool: &mut ExprPool,
    program: &Program,
    vc: &Vc,
    session: &mut dyn Session,
    (criterion, deadline): (Criterion, Option<Instant>),
    on_model: &mut dyn FnMut(&mut ExprPool, &Model),
) -> Result<CoverResult, String> {
    let all = goals(program, vc, criterion);
    let mut res = CoverResult { goals: all.keys().copied().collect(), ..Default::default() };
    let mut uncovered: BTreeSet<Goal> = all.keys().copied().collect();
    session.set_deadline(deadline);
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            res.stopped = Some("timeout".into());
            break;
        }
        if criterion != Criterion::Paths {
            // The enabling clause: some copy of some uncovered goal.
            let mut enabling = pool.bool_const(false);
            for goal in &uncovered {
                for &c in &all[goal] {
                    enabling = pool.or(enabling, c.var(vc));
                }
            }
            if pool.as_bool_const(enabling) == Some(false) {
                res.complete = true;
                break;
            }
            session.assert(pool, enabling);
        }
        res.queries += 1;
        let t = Instant::now();
        let answer = session.check(pool, &[]);
        res.solver_time += t.elapsed();
        match answer {
            SolveResult::Sat(model) => {
                let visits = vc.visits(pool, &model);
                let path = vc.decisions(program, &visits)?;
                uncovered.retain(|goal| !all[goal].iter().any(|&c| c.visited(&visits)));
                if criterion == Criterion::Paths {
                    // The blocking clause (see the module doc).
                    let mut clause = pool.bool_const(false);
                    for e in taken_branches(vc, &visits) {
                        let ne = pool.not(e);
                        clause = pool.or(clause, ne);
                    }
                    session.assert(pool, clause);
                }
                on_model(pool, &model);
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

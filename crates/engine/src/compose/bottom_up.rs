//! Bottom-up summaries (seed 003, chapter 3, Algorithm 1) and the summary
//! store at the start of a search.
//!
//! The functions the function under test reaches are taken callee-first
//! (the call graph's SCCs in reverse topological order; recursive ones are
//! left to the top-down search). Each summarisable one is explored alone
//! by a search of its own (`Nested`): its parameters free, the same bound
//! and checks, its callees' summaries composed; every run of that search
//! is a case (its path condition over the parameters, renamed canonical,
//! its result and how it ended), errors included. The summary is complete
//! when that search was, and is then composed as it is: a calling context
//! only selects its cases (those whose precondition cannot hold there are
//! dropped by the solver: specialisation).
//!
//! Functions that touch globals, or whose pointer parameters are not
//! input arrays, are summarised top-down instead (their free inputs would
//! not be the ones a caller gives).

use pathwise_expr::{ExprId, ExprPool, SolverBackend};
use pathwise_ir::analysis::CallGraph;
use pathwise_ir::{FuncId, InstKind, Program, Shape};
use rustc_hash::FxHashMap;

use super::store::{self, Exported};
use super::summary::{all, substitute, Case, Origin, Outcome, Post};
use super::Summaries;
use crate::config::Config;
use crate::path::{End, Region};
use crate::run::{InputSpec, ParamInput, RunRecord};

/// A search that computes one function's summary for a caller.
pub(crate) struct Nested {
    /// Summaries of the function's callees.
    pub seed: Vec<Exported>,
    /// The function: every run is a case of its summary.
    pub record: FuncId,
    pub out: Option<Exported>,
    pub runs: u64,
    pub solver_calls: u64,
    pub complete: bool,
}

/// The summaries a search starts from: the seed of a nested search, or the
/// store's and the bottom-up ones of a search of the user's.
/// A search for one function's summary nested in this one (the search's
/// `generate_nested`, given by the caller so that summaries need not know
/// the search): whether it ran.
pub(crate) type NestedSearch<'a> = &'a mut dyn FnMut(&Config, &mut dyn SolverBackend, &mut Nested) -> bool;

pub(crate) fn prepare(
    program: &Program,
    config: &Config,
    (backend, nested_search): (&mut dyn SolverBackend, NestedSearch<'_>),
    pool: &mut ExprPool,
    main: FuncId,
    nested: Option<&Nested>,
) -> Summaries {
    let mut sums = Summaries::default();
    if let Some(n) = nested {
        for ex in &n.seed {
            let Some(f) = program.func_by_name(&ex.function) else { continue };
            if let Some(s) = store::import(pool, ex, Origin::BottomUp, &|n| n.to_string(), &|n| program.func_by_name(n))
            {
                insert_closed(&mut sums, f, s);
            }
        }
        sums.record_main = Some(n.record);
        return sums;
    }
    let graph = CallGraph::compute(program);
    let mut order: Vec<FuncId> = graph.reachable_from(main).into_iter().filter(|&f| f != main).collect();
    order.sort_by_key(|&f| (graph.scc(f), f));
    if let Some(dir) = &config.compose.store {
        for &f in &order {
            let name = &program.func(f).name;
            if program.func(f).is_declaration() {
                continue;
            }
            let key = store::key(program, f, config);
            let Some(ex) = store::load(dir, name, &key) else { continue };
            if let Some(s) = store::import(pool, &ex, Origin::Stored, &|n| n.to_string(), &|n| program.func_by_name(n))
            {
                insert_closed(&mut sums, f, s);
                sums.loaded.push(name.clone());
            }
        }
    }
    if !config.compose.bottom_up {
        return sums;
    }
    for &f in &order {
        if sums.funcs.contains_key(&f) || graph.is_recursive(f) || !bottom_up_ok(program, f, &graph) {
            continue;
        }
        let seed: Vec<Exported> = graph
            .reachable_from(f)
            .into_iter()
            .filter_map(|g| sums.funcs.get(&g).map(|s| store::export(pool, program, &program.func(g).name, s)))
            .collect();
        let sub = config.nested(&program.func(f).name);
        let mut n = Nested { seed, record: f, out: None, runs: 0, solver_calls: 0, complete: false };
        let found = nested_search(&sub, backend, &mut n);
        sums.bottom_up_runs += n.runs;
        sums.bottom_up_solver_calls += n.solver_calls;
        let (true, Some(ex)) = (found, n.out) else { continue };
        if let Some(mut s) =
            store::import(pool, &ex, Origin::BottomUp, &|n| n.to_string(), &|n| program.func_by_name(n))
        {
            s.complete = Some(n.complete);
            insert_closed(&mut sums, f, s);
        }
    }
    sums
}

fn insert_closed(sums: &mut Summaries, f: FuncId, mut s: super::summary::Summary) {
    s.closed = true;
    s.fixed = s.complete == Some(true);
    sums.funcs.insert(f, s);
}

/// Whether `f` can be explored alone with inputs a caller gives the same
/// way: statically summarisable, no globals (in it or below), integer or
/// input-array parameters.
fn bottom_up_ok(program: &Program, f: FuncId, graph: &CallGraph) -> bool {
    if super::summarisable(program, f, &mut Vec::new()).is_err() {
        return false;
    }
    let params = program.func(f).params.iter().all(|p| {
        matches!(p.src.shape, Shape::Pointer | Shape::Scalar)
            && (p.ty == pathwise_ir::Type::Ptr) == (p.src.shape == Shape::Pointer)
    });
    let globals = graph.reachable_from(f).into_iter().any(|g| {
        program.func(g).blocks.iter().flat_map(|b| &b.insts).any(|i| matches!(i.kind, InstKind::AddrGlobal { .. }))
    });
    params && !globals
}

/// In a nested search, the run `rec` of the function under test is a case
/// of its summary: its path condition over its parameters, renamed to the
/// canonical inputs.
pub(crate) fn record(sums: &mut Summaries, pool: &mut ExprPool, program: &Program, spec: &InputSpec, rec: &RunRecord) {
    let Some(f) = sums.record_main else { return };
    let outcome = match &rec.main_end {
        Some(End::Returned(_)) => Outcome::Return,
        Some(End::Error(e)) if e.kind != crate::suite::ErrorKind::Unsupported => {
            Outcome::Error(e.kind.name().into(), e.loc.line)
        }
        Some(End::BoundExceeded) => Outcome::Bound,
        _ => return,
    };
    let name = &program.func(f).name;
    let mut map: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    for (i, p) in spec.params.iter().enumerate() {
        match p {
            ParamInput::Scalar { var, .. } => {
                let c = super::canonical_param(pool, name, i, pool.sort(*var));
                map.insert(*var, c);
            }
            ParamInput::Array { input, .. } => {
                let c = super::canonical_param(pool, name, i, pool.sort(input.array));
                map.insert(input.array, c);
                let l = pool.var(&super::summary::len_name(name, i), pathwise_expr::Sort::Bv(64));
                map.insert(input.len, l);
            }
            _ => return,
        }
    }
    let mut memo = FxHashMap::default();
    let mut pre: Vec<ExprId> = Vec::new();
    for e in rec.main_entries.iter().filter(|e| e.region == Region::Main) {
        let c = substitute(pool, e.cond, &map, &mut memo);
        if e.bound_blocked && e.negatable {
            // The other side commits to exceeding the bound: a case too.
            let mut other = pre.clone();
            other.push(pool.not(c));
            let other = vec![all(pool, &other)];
            sums.add_case(
                f,
                // No trace: a bound from the fresh context of this search is
                // a bound in every calling context (counts only grow).
                Case {
                    pre: other,
                    post: Post { outcome: Outcome::Bound, ret: None, writes: Vec::new(), path: None },
                    trace: None,
                },
            );
        }
        if pool.as_bool_const(c) != Some(true) {
            pre.push(c);
        }
    }
    let ret = match outcome {
        Outcome::Return => rec.ret_expr.map(|r| substitute(pool, r, &map, &mut memo)),
        _ => None,
    };
    // One conjunction per case keeps stored summaries small.
    let pre = vec![all(pool, &pre)];
    sums.add_case(
        f,
        Case {
            pre,
            post: Post { outcome, ret, writes: Vec::new(), path: Some(super::summary::path_hash(&rec.seen.path)) },
            trace: (!rec.block_trace.is_empty()).then(|| rec.block_trace.as_slice().into()),
        },
    );
}

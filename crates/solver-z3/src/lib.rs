//! The Z3 backend of the Pathwise solver layer (the only crate that links Z3).
//!
//! [`Z3Backend`] implements [`SolverBackend`]: it translates hash-consed
//! pool expressions to Z3 terms (cached across queries, see
//! [`translate`](crate::translate)), checks `constraints ∧ assumptions` with
//! long-lived Z3 solvers, and reads back a validated [`Model`] (see
//! [`model`](crate::model)) or an unsat core.
//!
//! Z3 objects of the `z3` crate live in a thread-local context: a backend
//! must be used on the thread that created it (it is not `Send`).
//!
//! **Solver reuse.** Solvers serve many queries: each query runs in a
//! `push`/`pop` scope. On the `solver_bench` example (typical small array
//! queries) this is about 3x faster than a fresh solver or a `reset` per
//! query (which make Z3 run its non-incremental tactic pipeline every time);
//! see [`Reuse`].
//!
//! **Two solvers.** Queries go to a solver created for the logic `QF_ABV`,
//! which configures Z3's simple array theory and was about 30% faster on the
//! benchmark than the default solver's auto-configuration. That theory does
//! not support constant arrays (Z3 answers `unknown`, "incomplete (theory
//! array)"), so queries that contain one, and any query the `QF_ABV` solver
//! finds incomplete, go to a default (full array theory) solver.
//!
//! **Assumptions.** Each assumption `a` gets a fresh boolean literal `p`
//! (cached per expression id), `p ⇒ a` is asserted in the query's scope and
//! the literals are passed to `check_assumptions`; the unsat core's
//! literals map back to assumption indices. Z3 4.8.12 accepts non-literal
//! assumptions directly, but then simplifies them: a `false` assumption gives
//! an *empty* core, which would tell the engine the constraints alone are
//! unsatisfiable. Literals keep cores exact.
//!
//! **Z3 errors.** The `z3` crate disables Z3's error handler, and a Z3 error
//! (e.g. an unknown parameter name) silently leaves the solver in a state
//! where `check` answers `unsat`. The backend therefore only sets
//! parameters that Z3 4.8.12 knows (`timeout`).

mod model;
mod translate;

use std::time::{Duration, Instant};

use pathwise_expr::{ExprId, ExprPool, Query, SolveResult, SolverBackend};
use rustc_hash::FxHashMap;
use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

use crate::translate::Translator;

/// How a Z3 solver is reused between queries.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Reuse {
    /// Each query in a `push`/`pop` scope of a long-lived solver (the
    /// default: fastest).
    #[default]
    PushPop,
    /// A long-lived solver, `reset` after each query.
    Reset,
    /// A new solver per query.
    Fresh,
}

/// Counters of a [`Z3Backend`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Z3Stats {
    pub checks: u64,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
    /// Checks that went to the full-array-theory solver (constant arrays,
    /// or an incomplete answer of the `QF_ABV` solver).
    pub general_checks: u64,
    /// Time spent in Z3's `check` proper (not translation or models).
    pub check_time: Duration,
    /// Time spent reading, completing and validating models.
    pub model_time: Duration,
}

/// Which of the two solvers (see the crate doc).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Kind {
    QfAbv,
    General,
}

/// Translation state shared by both solvers.
struct Terms {
    translator: Translator,
    /// Assumption literal of each assumption expression (see the crate doc).
    literals: FxHashMap<ExprId, Bool>,
}

/// The Z3 solver backend; see the crate doc.
pub struct Z3Backend {
    qf_abv: Solver,
    general: Solver,
    params: Params,
    reuse: Reuse,
    terms: Terms,
    pool_uid: u64,
    stats: Z3Stats,
}

fn new_solver(kind: Kind, params: &Params) -> Solver {
    let s = match kind {
        Kind::QfAbv => Solver::new_for_logic("QF_ABV").expect("Z3 knows QF_ABV"),
        Kind::General => Solver::new(),
    };
    s.set_params(params);
    s
}

impl Z3Backend {
    /// A backend whose checks give up after `timeout_ms` milliseconds
    /// (reported as [`SolveResult::Unknown`]); `None` for no limit.
    pub fn new(timeout_ms: Option<u32>) -> Z3Backend {
        Z3Backend::with_reuse(timeout_ms, Reuse::default())
    }

    /// Like [`Z3Backend::new`], with an explicit solver-reuse strategy (for
    /// measurements; the default is the fastest one measured).
    pub fn with_reuse(timeout_ms: Option<u32>, reuse: Reuse) -> Z3Backend {
        let mut params = Params::new();
        if let Some(ms) = timeout_ms {
            params.set_u32("timeout", ms);
        }
        Z3Backend {
            qf_abv: new_solver(Kind::QfAbv, &params),
            general: new_solver(Kind::General, &params),
            params,
            reuse,
            terms: Terms { translator: Translator::default(), literals: FxHashMap::default() },
            pool_uid: 0,
            stats: Z3Stats::default(),
        }
    }

    pub fn stats(&self) -> Z3Stats {
        self.stats
    }

    /// Number of expressions whose Z3 translation is cached.
    pub fn cached_translations(&self) -> usize {
        self.terms.translator.cached()
    }

    /// Check `query` with the solver of `kind`, reused as configured.
    fn run(&mut self, kind: Kind, pool: &ExprPool, query: &Query) -> SolveResult {
        if kind == Kind::General {
            self.stats.general_checks += 1;
        }
        let solver = match kind {
            Kind::QfAbv => &mut self.qf_abv,
            Kind::General => &mut self.general,
        };
        match self.reuse {
            Reuse::PushPop => {
                solver.push();
                let r = check_in_scope(solver, &mut self.terms, &mut self.stats, pool, query);
                solver.pop(1);
                r
            }
            Reuse::Reset => {
                let r = check_in_scope(solver, &mut self.terms, &mut self.stats, pool, query);
                solver.reset();
                r
            }
            Reuse::Fresh => {
                *solver = new_solver(kind, &self.params);
                check_in_scope(solver, &mut self.terms, &mut self.stats, pool, query)
            }
        }
    }
}

impl SolverBackend for Z3Backend {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolveResult {
        self.stats.checks += 1;
        self.terms.translator.sync(pool);
        if self.pool_uid != pool.uid() {
            self.pool_uid = pool.uid();
            self.terms.literals.clear();
        }
        let tr = &mut self.terms.translator;
        let const_arrays = query.constraints.iter().chain(&query.assumptions).any(|&r| tr.has_const_array(pool, r));
        if const_arrays {
            return self.run(Kind::General, pool, query);
        }
        match self.run(Kind::QfAbv, pool, query) {
            SolveResult::Unknown(reason) if reason.contains("incomplete") => {
                self.stats.unknown -= 1; // counted again by the retry
                self.run(Kind::General, pool, query)
            }
            r => r,
        }
    }
}

/// Assert `query` in the current scope of `solver` and check it.
fn check_in_scope(solver: &Solver, terms: &mut Terms, stats: &mut Z3Stats, pool: &ExprPool, query: &Query) -> SolveResult {
    for &c in &query.constraints {
        solver.assert(terms.translator.bool_term(pool, c));
    }
    // One literal per distinct assumption, mapped to its first index.
    let mut lits = Vec::with_capacity(query.assumptions.len());
    let mut lit_index: FxHashMap<Bool, usize> = FxHashMap::default();
    for (i, &a) in query.assumptions.iter().enumerate() {
        let p = terms.literals.entry(a).or_insert_with(|| Bool::fresh_const("pw_assume")).clone();
        if lit_index.contains_key(&p) {
            continue;
        }
        solver.assert(p.implies(terms.translator.bool_term(pool, a)));
        lit_index.insert(p.clone(), i);
        lits.push(p);
    }
    let start = Instant::now();
    let r = solver.check_assumptions(&lits);
    stats.check_time += start.elapsed();
    match r {
        SatResult::Sat => {
            stats.sat += 1;
            let Some(m) = solver.get_model() else {
                return SolveResult::Unknown("Z3 reported sat without a model".into());
            };
            let start = Instant::now();
            let roots: Vec<ExprId> = query.constraints.iter().chain(&query.assumptions).copied().collect();
            let r = match model::extract(&mut terms.translator, pool, &roots, &m) {
                Ok(model) => SolveResult::Sat(model),
                Err(e) => SolveResult::Unknown(e),
            };
            stats.model_time += start.elapsed();
            r
        }
        SatResult::Unsat => {
            stats.unsat += 1;
            let mut core: Vec<usize> = solver.get_unsat_core().iter().filter_map(|l| lit_index.get(l).copied()).collect();
            core.sort_unstable();
            core.dedup();
            SolveResult::Unsat { core }
        }
        SatResult::Unknown => {
            stats.unknown += 1;
            SolveResult::Unknown(solver.get_reason_unknown().unwrap_or_else(|| "unknown".into()))
        }
    }
}

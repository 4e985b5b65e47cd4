//! The query interface between the engine and solver backends.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use crate::pool::{ExprId, ExprPool};

/// A satisfiability question: is `constraints ∧ assumptions` satisfiable?
///
/// `assumptions` are tracked: when the query is unsatisfiable the backend
/// reports which of them take part in an unsatisfiable core, which lets the
/// engine backjump over parts of a path that cannot help.
#[derive(Clone, Debug, Default)]
pub struct Query {
    pub constraints: Vec<ExprId>,
    pub assumptions: Vec<ExprId>,
}

/// The value of an array variable in a model: `default` everywhere except at
/// the listed indices.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ArrayValue {
    pub default: u64,
    pub entries: BTreeMap<u64, u64>,
}

impl ArrayValue {
    pub fn get(&self, index: u64) -> u64 {
        self.entries.get(&index).copied().unwrap_or(self.default)
    }
}

/// A satisfying assignment, keyed by variable expression ids.
/// Variables of the query that the backend left unconstrained may be absent
/// (they read as zero, see [`crate::eval`]). Boolean variables, if any, are
/// in `bv` as 0 or 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    pub bv: FxHashMap<ExprId, u64>,
    pub arrays: FxHashMap<ExprId, ArrayValue>,
}

/// The answer to a [`Query`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveResult {
    Sat(Model),
    /// Unsatisfiable; `core` lists indices into [`Query::assumptions`] of an
    /// unsatisfiable core (empty when the constraints alone are unsatisfiable).
    Unsat {
        core: Vec<usize>,
    },
    /// The backend gave up (timeout, resource limit): the prefix is neither
    /// explored nor proved infeasible.
    Unknown(String),
}

/// A solver backend (Z3, or a test double).
pub trait SolverBackend {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolveResult;

    /// Give every later check at most until `deadline` (`None`: no limit
    /// beyond the backend's own); a check still running then answers
    /// [`SolveResult::Unknown`]. The search sets it from `--timeout`, so
    /// that no query outlives the run's budget.
    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        let _ = deadline;
    }
}

/// An incremental solver session: constraints are asserted once and stay
/// for every later check, so that a sequence of checks over one large
/// formula (the covers of `--method vc`: the verification condition, then
/// a blocking or enabling clause per check) does not send, analyse and
/// internalise the formula again each time.
pub trait Session {
    /// Add `constraint` (a boolean expression) for every later check.
    fn assert(&mut self, pool: &ExprPool, constraint: ExprId);

    /// Whether the constraints so far and `assumptions` are satisfiable;
    /// an unsat core indexes `assumptions`, as for [`Query`].
    fn check(&mut self, pool: &ExprPool, assumptions: &[ExprId]) -> SolveResult;

    /// Give every later check at most until `deadline` (see
    /// [`SolverBackend::set_deadline`]).
    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        let _ = deadline;
    }
}

/// A [`Session`] over any [`SolverBackend`]: every check sends the whole
/// query again (for test doubles, and backends without a session of their
/// own).
pub struct ResendSession<'a> {
    pub backend: &'a mut dyn SolverBackend,
    pub constraints: Vec<ExprId>,
}

impl<'a> ResendSession<'a> {
    pub fn new(backend: &'a mut dyn SolverBackend, constraints: &[ExprId]) -> ResendSession<'a> {
        ResendSession { backend, constraints: constraints.to_vec() }
    }
}

impl Session for ResendSession<'_> {
    fn assert(&mut self, _pool: &ExprPool, constraint: ExprId) {
        self.constraints.push(constraint);
    }

    fn check(&mut self, pool: &ExprPool, assumptions: &[ExprId]) -> SolveResult {
        let query = Query { constraints: self.constraints.clone(), assumptions: assumptions.to_vec() };
        self.backend.check(pool, &query)
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.backend.set_deadline(deadline);
    }
}

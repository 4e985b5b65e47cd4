//! An independent referee for differential tests of the solver layer.
//!
//! [`SmtLibOracle`] answers a query by printing it as SMT-LIB
//! ([`pathwise_expr::smtlib::to_smtlib`]) and handing the text to a new Z3
//! solver with Z3's default configuration. It shares nothing with the
//! backend it referees: not the translator and its cache, not the
//! Ackermannization of constant-index reads, not the long-lived guarded
//! solvers, not the tuning parameters, not the engine's slicing, interval
//! refutation or query cache. What it decides is only `sat` or `unsat`
//! (models and cores come from the backend under test, and are checked
//! against the oracle: a model by evaluation, a core by asking whether the
//! constraints and the core's assumptions alone are unsatisfiable).
//!
//! It is slow (parsing per query) and meant for tests, never for runs.

use pathwise_expr::smtlib::to_smtlib;
use pathwise_expr::{ExprPool, Model, Query, SolveResult, SolverBackend};
use z3::{SatResult, Solver};

/// See the module doc.
#[derive(Default)]
pub struct SmtLibOracle {
    /// Queries answered.
    pub checks: u64,
}

impl SmtLibOracle {
    /// Whether `query` (constraints and every assumption) is satisfiable:
    /// `None` when Z3 answers `unknown`.
    pub fn satisfiable(&mut self, pool: &ExprPool, query: &Query) -> Option<bool> {
        self.checks += 1;
        let text = to_smtlib(pool, query);
        // The script ends in `check-sat-assuming` over one literal per
        // assumption; the oracle asserts them instead and checks plainly.
        let body = match text.find("(check-sat-assuming (") {
            Some(i) => {
                let lits = text[i + "(check-sat-assuming (".len()..].trim_end().trim_end_matches("))");
                format!("{}(assert (and true {lits}))\n", &text[..i])
            }
            None => text.replace("(check-sat)", ""),
        };
        let solver = Solver::new();
        solver.from_string(body);
        match solver.check() {
            SatResult::Sat => Some(true),
            SatResult::Unsat => Some(false),
            SatResult::Unknown => None,
        }
    }
}

impl SolverBackend for SmtLibOracle {
    /// `Sat` with an empty model (the oracle decides, it does not solve),
    /// `Unsat` with every assumption as the core.
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolveResult {
        match self.satisfiable(pool, query) {
            Some(true) => SolveResult::Sat(Model::default()),
            Some(false) => SolveResult::Unsat { core: (0..query.assumptions.len()).collect() },
            None => SolveResult::Unknown("the oracle's solver answered unknown".into()),
        }
    }
}

//! The error cover: the runtime errors of the function under test as goals
//! of the VC (issue 28, "Methods that agree").
//!
//! The VC built with `Options::errors` keeps every check the concolic
//! search makes (division by zero and overflow, signed overflow, shifts out
//! of range, out-of-bounds accesses of input arrays, unreachable code) as an
//! [`ErrorSite`]: a variable true exactly when the execution reaches the
//! check and fails it, where it stops. A goal is one check of the source
//! (its kind and location), over all its unwound copies; as the statement
//! cover does with blocks, each query asserts an enabling clause, the
//! disjunction of the sites of the goals no valuation has reached yet, until
//! it is unsatisfiable: the goals left cannot fail within the bound. An
//! execution stops at its first error, so each valuation covers one goal.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use pathwise_expr::{ExprId, ExprPool, Model, Session, SolveResult};

use crate::passive::Vc;
use crate::semantics::Check;

/// The outcome of an error cover.
#[derive(Clone, Debug, Default)]
pub struct ErrorCover {
    /// Every check of the unwound function under test that can fail.
    pub goals: Vec<Check>,
    /// One valuation per error found, in the order found.
    pub found: Vec<(Check, Model)>,
    /// The goals no valuation reaches: no input fails them within the
    /// bound when `complete`.
    pub absent: Vec<Check>,
    pub queries: u64,
    pub solver_time: Duration,
    /// The last check was `unsat`.
    pub complete: bool,
    /// Why the cover stopped early.
    pub stopped: Option<String>,
}

/// Cover the error sites of `vc` (built with `Options::errors`) in
/// `session` (which holds `vc.constraints`), calling `on_model` with each
/// valuation and the check it fails.
pub fn cover_errors(
    pool: &mut ExprPool,
    vc: &Vc,
    session: &mut dyn Session,
    deadline: Option<Instant>,
    on_model: &mut dyn FnMut(&mut ExprPool, Check, &Model),
) -> ErrorCover {
    let mut sites: BTreeMap<Check, Vec<ExprId>> = BTreeMap::new();
    for s in &vc.errors {
        sites.entry(s.check).or_default().push(s.var);
    }
    let mut res = ErrorCover { goals: sites.keys().copied().collect(), ..Default::default() };
    session.set_deadline(deadline);
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            res.stopped = Some("timeout".into());
            break;
        }
        let mut enabling = pool.bool_const(false);
        for vars in sites.values() {
            for &v in vars {
                enabling = pool.or(enabling, v);
            }
        }
        if pool.as_bool_const(enabling) == Some(false) {
            res.complete = true;
            break;
        }
        session.assert(pool, enabling);
        res.queries += 1;
        let t = Instant::now();
        let answer = session.check(pool, &[]);
        res.solver_time += t.elapsed();
        match answer {
            SolveResult::Sat(model) => {
                let mut ev = pathwise_expr::eval::Evaluator::new(pool, &model);
                let hit = sites
                    .iter()
                    .find(|(_, vars)| vars.iter().any(|&v| ev.eval(v) == pathwise_expr::Value::Bool(true)))
                    .map(|(c, _)| *c);
                let Some(check) = hit else {
                    res.stopped = Some("a valuation of the error cover fails no check (a bug)".into());
                    break;
                };
                sites.remove(&check);
                on_model(pool, check, &model);
                res.found.push((check, model));
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
    res.absent = sites.into_keys().collect();
    res
}

//! The VC method (seed 001, "Towards Bounded Infeasible Code Detection"):
//! the function under test, unwound to the k bound, as one formula whose
//! satisfying valuations are its feasible paths, covered by blocking clauses
//! (every feasible path, Algorithm 1) or enabling clauses (every feasible
//! block or branch side, Algorithm 2).
//!
//! Module map:
//! - [`graph`]: bounded unwinding of loops and calls into a loop-free graph
//!   of unwound blocks (nodes) and edges; cut edges leave the bound.
//! - [`passive`]: passive (SSA) form and the reachability verification
//!   condition, in the expression pool with C's bit-vector semantics.
//! - [`cover`]: the covering algorithms and the goals left uncovered (the
//!   code infeasible within the bound).
//! - [`errors`]: the error cover: each runtime check the concolic search
//!   makes, as a goal "the check fails here", from the same encoding.
//! - [`summary`]: procedure summaries (seed 001, section 6): a callee's
//!   path cover as a disjunction, reused in every calling context.
//! - [`generate`]: the method end to end (what `pathwise gen --method vc`
//!   runs): the VC and its summaries, the cover with Z3, each valuation
//!   replayed into a test by `pathwise_engine::replay_models`, the replays
//!   checked against the VC's paths, the infeasible goals located.
//!
//! The encoding and the covers see the solver only through
//! [`pathwise_expr::Session`], so that they can be tested and profiled
//! against any backend; only [`generate`] picks Z3 and the engine.

pub mod cover;
pub mod errors;
pub mod generate;
pub mod graph;
pub mod passive;
mod semantics;
pub mod summary;

use pathwise_ir::{Loc, Program};

/// A construct the VC method does not model, with where it occurs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub loc: Option<Loc>,
    pub what: String,
    /// Whether the concolic method supports it (the message then says so).
    pub concolic_supports: bool,
}

impl Unsupported {
    pub fn new(loc: Option<Loc>, what: &str) -> Unsupported {
        Unsupported { loc, what: what.to_string(), concolic_supports: true }
    }

    /// What neither method supports (`setjmp`): no pointer to the other.
    pub fn by_neither(loc: Option<Loc>, what: &str) -> Unsupported {
        Unsupported { concolic_supports: false, ..Unsupported::new(loc, what) }
    }

    /// `file:line:col: unsupported by --method vc: WHAT (...)`, with a
    /// pointer to the concolic method.
    pub fn describe(&self, program: &Program) -> String {
        let at = self.loc.filter(|l| !l.is_none()).map(|l| program.describe_loc(l));
        if !self.concolic_supports {
            return match at {
                Some(at) => format!("{at}: {}", self.what),
                None => self.what.clone(),
            };
        }
        let hint = "the default method, --method concolic, supports it";
        match at {
            Some(at) => format!("{at}: unsupported by --method vc: {} ({hint})", self.what),
            None => format!("unsupported by --method vc: {} ({hint})", self.what),
        }
    }
}

/// Options of the encoding.
#[derive(Clone, Debug)]
pub struct Options {
    /// Loop iterations per entry and recursion depth of the function under
    /// test and its callees.
    pub k: u32,
    /// Loop iterations per entry of the precondition (and its callees).
    pub pre_bound: u32,
    /// Largest input array length (elements).
    pub max_array_len: u32,
    /// Signed overflow (`nsw` operations) cuts the path (`true`, the
    /// default: such paths are the engine's errors, not tests) or wraps.
    pub check_overflow: bool,
    /// Largest unwound program, in nodes.
    pub max_nodes: usize,
    /// The function under test's runtime checks are goals ([`Vc::errors`])
    /// instead of assumptions.
    pub errors: bool,
    /// Length contracts (input array parameter, length parameter): the
    /// array has exactly that many elements, as the engine infers them
    /// (`pathwise_engine::contracts::inferred`).
    pub lengths: Vec<(usize, usize)>,
    /// `char *` parameters that are NUL-terminated strings (the engine's
    /// string contract): reading past the NUL is an out-of-bounds error.
    pub strings: Vec<usize>,
}

impl Options {
    pub fn new(k: u32, max_array_len: u32) -> Options {
        Options {
            k,
            pre_bound: max_array_len,
            max_array_len,
            check_overflow: true,
            max_nodes: 200_000,
            errors: false,
            lengths: Vec::new(),
            strings: Vec::new(),
        }
    }
}

pub use cover::{cover, cover_with, CoverResult, Criterion, Goal};
pub use errors::{cover_errors, ErrorCover};
pub use generate::{generate, Generated, LocatedGoal};
pub use passive::{build_vc, build_vc_with, Decision, ErrorSite, Vc};
pub use semantics::Check;
pub use summary::{summarizable, summarize, Summary};

//! The Pathwise solver layer, independent of any solver library.
//!
//! - [`pool`]: hash-consed expressions over booleans, bit-vectors (1..=64
//!   bits) and arrays (bit-vector index to bit-vector element). Structurally
//!   equal expressions share one [`ExprId`], so equality of ids is equality of
//!   terms and query caches key on ids.
//! - [`float`]: floating-point operators over IEEE bits (`float` and
//!   `double`) and their exact x86-64 semantics.
//! - [`float_range`]: sound ranges of floating expressions with bounded
//!   leaves, which decide comparisons and conversion checks without the
//!   solver.
//! - [`ops`]: the concrete semantics of every bit-vector operator, shared by
//!   the constant folder and by the engine's concrete execution so that the
//!   two can never disagree.
//! - [`solver`]: the query interface ([`Query`], [`SolveResult`], [`Model`])
//!   and the [`SolverBackend`] trait that backends (Z3, in its own crate)
//!   implement.
//! - [`eval`]: the concrete evaluator (model validation, reference semantics).
//! - [`slice`]: independence slicing of queries.
//! - [`cache`]: [`CachingSolver`], a memoising wrapper around a backend, with
//!   statistics and a fast path for trivial queries.
//! - [`linear`]: when a bit-vector query means the same over the integers;
//!   [`overflow`]: the signed-overflow condition of sums it reads.
//! - [`smtlib`]: SMT-LIB2 dumps of queries for debugging and bug reports.
//!
//! **Architecture invariant:** nothing here links a solver; the only crate
//! that knows Z3 is `pathwise-solver-z3`.

pub mod cache;
pub mod eval;
pub mod float;
pub mod float_range;
pub mod float_search;
pub mod intervals;
pub mod linear;
pub mod ops;
pub mod overflow;
pub mod pool;
pub mod portable;
pub mod range;
pub mod slice;
pub mod smtlib;
pub mod solver;
pub mod subst;

pub use float::{FpCmp, FpConv, FpFmt, FpOp, FpUn, RoundMode, Rounding};
pub use ops::{BvCmp, BvOp};
pub use pool::{Expr, ExprId, ExprPool, Sort};
pub use solver::{ArrayValue, Model, Query, ResendSession, Session, SolveResult, SolverBackend};

pub use cache::{CachingSolver, SolverStats};
pub use eval::{eval, Value};
pub use slice::{independent_slice, Slicer};
pub use smtlib::to_smtlib;

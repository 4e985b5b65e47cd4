//! The Pathwise solver layer, independent of any solver library.
//!
//! - [`pool`]: hash-consed expressions over booleans, bit-vectors (1..=64
//!   bits) and arrays (bit-vector index to bit-vector element). Structurally
//!   equal expressions share one [`ExprId`], so equality of ids is equality of
//!   terms and query caches key on ids.
//! - [`ops`]: the concrete semantics of every bit-vector operator, shared by
//!   the constant folder and by the engine's concrete execution so that the
//!   two can never disagree.
//! - [`solver`]: the query interface ([`Query`], [`SolveResult`], [`Model`])
//!   and the [`SolverBackend`] trait that backends (Z3, in its own crate)
//!   implement.
//!
//! **Architecture invariant:** nothing here links a solver; the only crate
//! that knows Z3 is `pathwise-solver-z3`.

pub mod ops;
pub mod pool;
pub mod solver;

pub use ops::{BvCmp, BvOp};
pub use pool::{Expr, ExprId, ExprPool, Sort};
pub use solver::{ArrayValue, Model, Query, SolveResult, SolverBackend};

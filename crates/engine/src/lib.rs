//! The Pathwise engine: concolic execution of the IR and the k-path search.
//!
//! Module map:
//! - [`suite`]: the plain data the engine produces (tests, paths, statistics,
//!   predicted coverage); emitters consume only this.
//! - [`config`]: the explicit configuration of one generation run.
//! - `analysis`: per-function static facts the search needs (loops, which
//!   branch sides commit to another iteration or a deeper recursion).
//! - `value`, `memory`: concrete values with optional symbolic shadows, and
//!   the object-based memory model (input arrays are solver arrays).
//! - `exec`: the concolic interpreter of one run, recording the path.
//! - `search`: PathCrawler's depth-first choice of the next prefix (MaxC),
//!   the k-path limit, preconditions, and test validation by replay.

pub mod config;
pub mod suite;
pub mod search;

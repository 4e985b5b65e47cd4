//! The Pathwise engine: concolic execution of the IR and the k-path search.
//!
//! Module map:
//! - [`suite`] (the `pathwise-suite` crate): the plain data the engine
//!   produces (tests, paths, statistics, predicted coverage); emitters
//!   consume only this.
//! - [`config`]: the explicit configuration of one generation run.
//! - [`analysis`]: per-function static facts the search needs (loops, which
//!   branch sides commit to another iteration or a deeper recursion);
//!   [`loop_decisions`]: the branches that choose between another iteration
//!   and leaving a loop (every operand of a `&&`/`||` condition);
//!   [`loop_exits`]: the loops whose exit reads state set under decisions
//!   (`while (!done)`, a state machine's driver), counted like `while (1)`;
//!   [`blockk`]: the block entries counted under the block-k criterion.
//! - [`value`], [`memory`]: concrete values with optional symbolic shadows,
//!   and the object-based memory model (input arrays are solver arrays);
//!   [`alloc`]: heap allocation and bulk copies over it.
//! - [`libc`]: the C library models, one file per header, behind the
//!   narrow `LibcHost` interface.
//! - [`exec`] and [`step`]: the concolic interpreter of one execution,
//!   recording the path condition ([`path`]).
//! - [`run`]: one run = precondition, then the function under test;
//!   [`joins`]: pointer parameters into one object (`f(s, end)`).
//! - [`search`]: PathCrawler's depth-first choice of the next prefix (MaxC)
//!   and, for whole programs, a coverage-guided search with deepening k,
//!   the k-path limit, preconditions; [`testcase`]: tests validated by replay;
//!   [`compose`]: function summaries composed into the search
//!   (`--compositional`, SMART).
//! - [`trace_pattern`]: partial traces given as input (`gen --trace`).
//! - [`setup`]: checks before a run and assembly of the suite;
//!   [`replay_models`]: tests from inputs another method found (`--method vc`).

pub mod alloc;
pub mod analysis;
pub mod blockk;
pub mod compose;
pub mod config;
pub mod contracts;
pub mod cost;
pub mod exec;
pub(crate) mod extension;
pub mod fnptr;
pub mod fp;
pub mod handwritten;
pub mod heap;
pub mod heap_assume;
pub mod heap_count;
pub mod heap_out;
pub mod heap_share;
pub mod heap_tail;
pub mod joins;
pub mod libc;
pub mod loop_decisions;
pub mod loop_exits;
pub mod memcheck;
pub mod memory;
pub mod null_params;
pub mod path;
pub mod reject;
pub mod replay_models;
pub mod run;
pub mod search;
pub mod semantics;
pub mod setup;
pub mod step;
pub mod strategy;
/// The plain data of a suite lives in its own crate (emitters use it
/// without the engine); re-exported under its old path.
pub use pathwise_suite as suite;
pub mod testcase;
pub mod trace_pattern;
pub mod value;

pub use search::{generate, generate_refereed, EngineError, NoObserver, Observer};

//! The Pathwise engine: concolic execution of the IR and the k-path search.
//!
//! Module map, by what the modules are (each also reachable by its short
//! path, `crate::exec`, re-exported below):
//! - [`suite`] (the `pathwise-suite` crate): the plain data the engine
//!   produces (tests, paths, statistics, predicted coverage); emitters
//!   consume only this.
//! - [`config`]: the explicit configuration of one generation run;
//!   [`strategy`]: the search mode it asks for, chosen and validated.
//! - [`analysis`]: per-function static facts the search needs (loops, which
//!   branch sides commit to another iteration or a deeper recursion, the
//!   loop decisions and the loops stepped by state, the branches of a
//!   precondition that reject).
//! - [`machine`]: the concolic interpreter of one run (`exec`, `step`), its
//!   extension point (`extension`), values and path conditions (`value`,
//!   `path`), one run and its record (`run`), the suite's assembly
//!   (`setup`), replays (`testcase`, `replay_models`).
//! - [`memory`]: the object model (input arrays are solver arrays) and,
//!   below it, input heaps, aliasing (`joins`), null parameters, string
//!   contracts and memory checks.
//! - [`semantics`]: the symbolic meaning of the IR's operators, shared with
//!   the VC method.
//! - [`libc`]: the C library models, one file per header, behind the
//!   narrow `LibcHost` interface.
//! - [`search`]: PathCrawler's depth-first choice of the next prefix (MaxC)
//!   and the other strategies; [`compose`]: function summaries composed
//!   into the search (`--compositional`, SMART); [`cost`]: resources and
//!   their goals; [`handwritten`]: hand-written summaries (`gen --summary`).
//! - [`trace_pattern`]: partial traces given as input (`gen --trace`).

pub mod analysis;
pub mod compose;
pub mod config;
pub mod cost;
pub mod handwritten;
pub mod libc;
pub mod memory;
pub mod parallel;
pub mod search;
pub mod semantics;
pub mod strategy;
/// The plain data of a suite lives in its own crate (emitters use it
/// without the engine); re-exported under its old path.
pub use pathwise_suite as suite;
pub mod trace_pattern;

pub mod machine;

pub use search::{generate, generate_refereed, EngineError, NoObserver, Observer};

// The modules under their short paths (`crate::exec`, `pathwise_engine::run`):
// the groups above are for reading; every path inside the crate and out of
// it names a module by what it is.
pub(crate) use analysis::{loop_decisions, loop_exits, reject};
pub(crate) use machine::{blockk, exec, extension, meter, observed, testcase, value};
pub use machine::{fnptr, path, replay_models, run, setup, step};
pub use memory::contracts;
pub(crate) use memory::{
    alloc_fail, heap, heap_assume, heap_count, heap_out, heap_share, heap_tail, joins, memcheck, null_params,
};

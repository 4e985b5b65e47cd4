//! The concolic machine: one run of the precondition and the function under
//! test on concrete inputs, recording the symbolic path condition.
//!
//! - [`exec`] and [`step`]: the interpreter (control flow, calls, built-ins
//!   and bounds; instruction semantics, guards, memory accesses), with
//!   [`extension`], its one extension point, and [`alloc`] (heap
//!   allocation and bulk copies), [`fnptr`] (function pointers), [`fp`]
//!   (floating operations, concretised), [`blockk`] (block entries counted
//!   under block-k), [`meter`] (the resources a run used).
//! - [`value`] and [`path`]: concrete values with symbolic shadows; the
//!   path-condition entries and run endings.
//! - [`run`]: one run = precondition, then the function under test, its
//!   record; [`setup`]: checks before a search and the suite's assembly;
//!   [`testcase`]: tests validated by a concrete replay;
//!   [`replay_models`]: tests from inputs another method found.

pub mod alloc;
pub mod blockk;
pub mod exec;
pub(crate) mod extension;
pub mod fnptr;
pub mod fp;
mod fp80;
mod fp_checks;
#[cfg(test)]
mod input_reads;
pub(crate) mod local_decisions;
pub mod meter;
pub mod observed;
pub mod path;
mod pointer_index;
pub mod replay_models;
pub mod run;
pub mod setup;
pub mod step;
pub mod testcase;
pub mod value;

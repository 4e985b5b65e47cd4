//! The library behind the `pathwise` command (see `main.rs` for the
//! commands and exit codes). It is a library so that the integration tests
//! in `tests/` can drive `gen` and `replay` without spawning the binary.
//!
//! - [`criterion`]: `gen --criterion` (either method's).
//! - [`exit`]: the exit codes, `--fail-on`, and a quiet end when stdout
//!   is closed.
//! - [`frontend`]: compiling the C file with `pathwise-cfront` and printing
//!   its diagnostics.
//! - [`gen`]: `pathwise gen` — options, search, output files, summary.
//! - [`paths_cmd`]: `pathwise paths` — static paths (seed 000) and their
//!   feasibility.
//! - [`project`]: `pathwise project` (every function of a project from its
//!   `compile_commands.json`, in parallel, incremental, CI shards) and
//!   `pathwise merge`.
//! - [`progress`]: the progress line and the stop conditions of a search.
//! - [`replay`]: `pathwise replay` — build with coverage, run, compare;
//!   [`replay_reports`]: its `--lcov` and `--junit` files.
//! - [`report`]: `pathwise report` — the HTML report and the SARIF log of
//!   a directory of suites; [`sources`]: finding the files they name.
//! - [`gcov`]: running gcov and reading its JSON.
//! - [`predict`]: the predicted coverage of the tests whose native runs
//!   record coverage.
//! - [`vc`]: `gen --method vc` — the command-line glue of
//!   `pathwise_vc::generate` (the reachability VC's covers, seed 001,
//!   replayed by the engine into ordinary tests).

pub mod criterion;
pub mod exit;
pub mod frontend;
pub mod gcov;
pub mod gen;
pub mod goals;
pub mod handwritten;
pub mod main_args;
pub mod paths_cmd;
pub mod predict;
pub mod progress;
pub mod project;
pub mod replay;
pub mod replay_reports;
pub mod report;
pub mod salvage;
pub mod sources;
pub mod suite_size;
pub mod testcomp;
pub mod vc;

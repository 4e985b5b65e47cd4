//! Pathwise emitters: turn a [`TestSuite`](pathwise_suite::TestSuite)
//! into artefacts a user keeps.
//!
//! - [`c_tests`]: a self-contained C file (`NAME_tests.c`) that includes the
//!   code under test, runs every generated test and checks the observed
//!   outputs (`cc NAME_tests.c && ./a.out`).
//!   `c_cmocka`: the same tests as a CMocka program (`NAME_cmocka.c`,
//!   `gen --format cmocka`).
//! - [`json`]: the machine-readable form of the suite (documented in
//!   `docs/json-schema.md`), with serde structs used both for writing and for
//!   reading it back (the CLI's `replay` reads predicted coverage from it).
//! - [`literal`]: C integer literals and value normalisation shared by both.
//! - [`testcomp`]: Test-Comp test suites (`metadata.xml`, `testcase-N.xml`
//!   and their zip) for whole programs, as the validator TestCov reads them.
//! - [`heap`]: heap objects' cells, access paths and readable values, shared
//!   by the C heap tests (`c_heap`: building input heaps, checking output
//!   heaps) and the JSON.
//! - `c_externs`: stubs in the C file for the external functions the code
//!   under test calls (`pathwise gen --external`), replaying each test's
//!   recorded calls.
//! - `c_frame`: frame checks in the C file (input objects filled with
//!   known bytes, untouched scalars checked unchanged), for the
//!   conformance tests of hand-written summaries.
//! - `c_leaks`: allocation counting in the C file, so that a `memory-leak`
//!   test observes the leaked object natively.
//! - [`report_html`] (and `report_html_func`, one function's section):
//!   the self-contained HTML report of a directory of suites (`pathwise
//!   report`).
//! - [`sarif`]: SARIF 2.1.0 logs of error tests (`pathwise report --sarif`).
//! - [`lcov`]: lcov tracefiles of measured coverage (`pathwise replay
//!   --lcov`).
//! - [`junit`]: JUnit XML of native results (`pathwise replay --junit`).
//! - [`describe`]: naming and compact descriptions (paths, locations) shared
//!   by both, so that the C comments and the JSON say the same thing.
//!
//! **Architecture invariant:** emitters see only the plain data of
//! `pathwise_suite` and the C descriptions of `pathwise_ir::SrcVar`;
//! they never look at the IR program or the engine's state.

mod c_cmocka;
mod c_externs;
mod c_frame;
mod c_heap;
mod c_leaks;
mod c_streams;
pub mod c_tests;
pub mod describe;
pub mod heap;
pub mod json;
pub mod json_goals;
pub mod junit;
pub mod lcov;
pub mod literal;
pub mod report_html;
mod report_html_func;
pub mod sarif;
pub mod testcomp;

pub use c_tests::{write_c_tests, write_c_tests_framed, write_cmocka_tests};
pub use json::{suite_from_json_str, suite_to_json, SuiteJson};
pub use testcomp::{Architecture, TestCompMetadata, TestCompWriter};

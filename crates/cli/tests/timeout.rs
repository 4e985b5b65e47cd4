//! `--timeout` holds while a solver check runs: a query Z3 does not decide
//! in minutes (a 64-bit hash inverted by a branch, `tests/c/hash_inversion.c`)
//! is interrupted at the deadline by the backend's watchdog, the run stops
//! with "timeout", and the tests found before it are written and replay.
//! Before the watchdog, this run took 137 s under `--timeout 3`.

mod common;

use std::time::{Duration, Instant};

#[test]
fn timeout_interrupts_a_hard_query_and_keeps_the_tests() {
    let out = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let (_, suite) =
        common::gen("tests/c/hash_inversion.c", "hard", &["--timeout", "2", "--no-overflow-check"], out.path());
    let took = start.elapsed();
    assert_eq!(suite["stop"], "timeout");
    // Generous: the front end, writing the suite and a loaded machine; an
    // unbounded check takes minutes.
    assert!(took < Duration::from_secs(20), "took {took:?}");
    let tests = suite["tests"].as_array().unwrap().len();
    assert!(tests >= 1, "the first path's test is kept");
    common::replay_passes(out.path(), tests, Vec::new(), false);
}

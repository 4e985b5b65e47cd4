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

/// Ctrl-C (SIGINT) stops a run that is inside a hard solver check: the
/// backend watches the flag the handler sets and interrupts Z3, the run
/// ends "interrupted" and writes the tests found so far. Before, the
/// flag was read only between queries, and this run went on for minutes.
#[test]
fn ctrl_c_interrupts_a_hard_query_and_keeps_the_tests() {
    signal_interrupts_a_hard_query_and_keeps_the_tests("INT");
}

/// SIGTERM (a CI job's timeout, `kill`) ends a run as Ctrl-C does: the
/// tests found are written. Before, it killed the process with nothing
/// written.
#[test]
fn sigterm_interrupts_a_hard_query_and_keeps_the_tests() {
    signal_interrupts_a_hard_query_and_keeps_the_tests("TERM");
}

/// SIGHUP (a closed terminal or ssh session) too.
#[test]
fn sighup_interrupts_a_hard_query_and_keeps_the_tests() {
    signal_interrupts_a_hard_query_and_keeps_the_tests("HUP");
}

fn signal_interrupts_a_hard_query_and_keeps_the_tests(signal: &str) {
    let out = tempfile::tempdir().unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .args([
            "gen",
            "tests/c/hash_inversion.c",
            "--function",
            "hard",
            "--no-overflow-check",
            "--k",
            "2",
            "--json",
            "--out",
        ])
        .arg(out.path())
        .current_dir(common::root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Long enough for the front end and the first test; the hard query
    // follows at once.
    std::thread::sleep(Duration::from_secs(3));
    let start = Instant::now();
    let kill =
        std::process::Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    let took = start.elapsed();
    // 130: stopped by a signal (not 0, which a complete run exits with).
    assert_eq!(o.status.code(), Some(130), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(took < Duration::from_secs(10), "took {took:?} after SIG{signal}");
    let suite: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(suite["stop"], "interrupted");
    let tests = suite["tests"].as_array().unwrap().len();
    assert!(tests >= 1, "the first path's test is kept");
    common::replay_passes(out.path(), tests, Vec::new(), false);
}

//! Sums accumulated in loops (`tests/c/accumulate.c`): every iteration
//! checks the sum for signed overflow, so one path carries a chain of
//! checked sums. Before, a 256-element checksum timed out at 30 s with
//! 4 GB of memory and a server loop adding an input forever grew past
//! 16 GB: the bit-vector solver could not decide the chain, and the
//! violation of every iteration's check was solved for one error site.
//! Now the chain is read over the integers (`pathwise_expr::overflow`) and
//! a repeated check whose earlier twin can fail is not solved
//! (`error_checks_repeated`); `--all-error-tests` still solves each.

mod common;

fn generate(function: &str, extra: &[&str]) -> (tempfile::TempDir, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let (_, suite) = common::gen("tests/c/accumulate.c", function, extra, out.path());
    (out, suite)
}

fn tests(suite: &serde_json::Value) -> &Vec<serde_json::Value> {
    suite["tests"].as_array().unwrap()
}

/// The (kind, line) of each error test.
fn errors(suite: &serde_json::Value) -> Vec<(String, u64)> {
    tests(suite)
        .iter()
        .filter_map(|t| {
            let e = t.get("error")?;
            Some((e["kind"].as_str().unwrap().to_string(), e["line"].as_u64().unwrap()))
        })
        .collect()
}

#[test]
fn a_checksum_gets_its_overflow_test_once() {
    let (out, suite) = generate("checksum", &[]);
    assert_eq!(suite["stop"], "complete", "{:#}", suite["stats"]);
    // No decision: the path, and the overflow of the sum at its earliest.
    assert_eq!(tests(&suite).len(), 2, "{suite:#}");
    assert_eq!(errors(&suite), [("signed-overflow".to_string(), 10)]);
    // 63 iterations check the sum (`0 + buf[0]` cannot overflow); the
    // second's violation gives the site its shortest path, the 62 later
    // ones are not solved.
    assert_eq!(suite["stats"]["error_checks_repeated"], 62, "{:#}", suite["stats"]);
    common::replay_passes(out.path(), 2, vec![], true);
}

#[test]
fn every_iterations_overflow_is_a_path_of_its_own_on_demand() {
    let (out, suite) = generate("checksum", &["--all-error-tests"]);
    assert_eq!(suite["stop"], "complete", "{:#}", suite["stats"]);
    // Each of the 63 checks can be the first to fail.
    assert_eq!(tests(&suite).len(), 64, "{:#}", suite["stats"]);
    assert_eq!(errors(&suite).len(), 63);
    assert_eq!(suite["stats"]["error_checks_repeated"], 0);
    assert_eq!(suite["stats"]["error_checks_infeasible"], 0);
    common::replay_passes(out.path(), 64, vec![], true);
}

#[test]
fn adding_an_input_to_itself_is_read_exactly_too() {
    let (out, suite) = generate("ticks_after", &[]);
    assert_eq!(suite["stop"], "complete", "{:#}", suite["stats"]);
    // rate < 16 or not, times 2^8 signs of the steps; and one overflow of
    // `ticks + rate` (at the second iteration, the first that can fail).
    assert_eq!(tests(&suite).len(), 2 * 256 + 1, "{:#}", suite["stats"]);
    assert_eq!(errors(&suite), [("signed-overflow".to_string(), 23)]);
    assert_eq!(suite["stats"]["error_checks_repeated"], 998, "{:#}", suite["stats"]);
    common::replay_passes(out.path(), 2 * 256 + 1, vec![], true);
}

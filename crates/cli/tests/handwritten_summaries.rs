//! `gen --summary FILE.c`: hand-written summaries (seed 003, section
//! 3.2.5; issue 13). The C inputs are in tests/c/summaries: arraycopy's
//! summary for tests/bench/rational.c (right and deliberately wrong), a
//! declared-only `lookup` with a summary and its real definition, and bad
//! summary files. Every suite is built with gcc and run natively.

mod common;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

const RATIONAL: &str = "tests/bench/rational.c";
/// Seed 003's programs are Java's: every reference may be null and its
/// dereference is an exception, a test of its own. The counts of
/// rational.c below are under that input model (`--null-args
/// references`), not `gen`'s default, which assumes the pointers simp
/// dereferences without a test are valid.
const THESIS_MODEL: [&str; 2] = ["--null-args", "references"];
const LOOKUP: &str = "tests/c/summaries/lookup.c";

/// The predicted coverage of `names` in a suite: (name, lines covered,
/// lines, branches covered, branches), in the order of `names`.
fn coverage(suite: &Value, names: &[&str]) -> Vec<(String, Value, Value, Value, Value)> {
    let fs = suite["coverage"]["functions"].as_array().unwrap();
    names
        .iter()
        .map(|n| {
            let f = fs.iter().find(|f| f["name"] == *n).unwrap_or_else(|| panic!("no coverage of {n}"));
            let g = |k: &str| f[k].clone();
            (n.to_string(), g("lines_covered"), g("lines"), g("branches_covered"), g("branches"))
        })
        .collect()
}

/// gcov's measured coverage of `names` in a replay: (name, lines, branches).
type Measured = (String, Option<(usize, usize)>, Option<(u64, u64)>);

fn measured(outcome: &pathwise_cli::replay::ReplayOutcome, names: &[&str]) -> Vec<Measured> {
    names
        .iter()
        .map(|n| {
            let r = outcome.rows.iter().find(|r| r.function == *n).unwrap_or_else(|| panic!("no row for {n}"));
            (n.to_string(), r.measured_lines, r.measured_branches)
        })
        .collect()
}

/// `pathwise gen` from the repository root, expected to fail: its stderr.
fn gen_fails(args: &[&str]) -> String {
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        .arg("gen")
        .args(args)
        .arg("--out")
        .arg(out.path())
        .current_dir(common::root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stdout));
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Build `DIR/NAME_tests.c` with gcc (`extra` sources and flags first) and
/// run it: (exit code, stdout).
fn native(dir: &Path, name: &str, extra: &[&str]) -> (i32, String) {
    let bench = format!("-I{}", common::root().join("tests/bench").display());
    let summaries = format!("-I{}", common::root().join("tests/c/summaries").display());
    let flags: Vec<&str> = [&[bench.as_str(), summaries.as_str()][..], extra].concat();
    common::build_and_run(dir, name, &flags)
}

const FUNCS: [&str; 4] = ["simp", "simplify", "gcd", "abs_int"];

#[test]
fn simp_with_arraycopy_summary_covers_as_the_analysed_arraycopy() {
    let summary = "tests/c/summaries/arraycopy_summary.c";
    let bench = vec![common::root().join("tests/bench")];
    let analysed = tempfile::tempdir().unwrap();
    // Every path its test (`--all-error-tests`): the suites compare path by
    // path.
    let (_, real) =
        common::gen(RATIONAL, "simp", &[&THESIS_MODEL[..], &["--all-error-tests"]].concat(), analysed.path());
    let summarised = tempfile::tempdir().unwrap();
    let (stdout, with) = common::gen(
        RATIONAL,
        "simp",
        &[&THESIS_MODEL[..], &["--summary", summary, "--all-error-tests"]].concat(),
        summarised.path(),
    );
    // Both explore every path of simp at k = 2: arraycopy's two cases split
    // simp's paths as its own loop does (len <= 0, 1, 2 elements).
    assert_eq!(real["tests"].as_array().unwrap().len(), 93);
    assert_eq!(with["tests"].as_array().unwrap().len(), 93);
    assert_eq!(with["stop"], "complete", "{stdout}");
    assert_eq!(coverage(&with, &FUNCS), coverage(&real, &FUNCS));
    // arraycopy did not run: no prediction for it.
    let names: Vec<&str> =
        with["coverage"]["functions"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["abs_int", "gcd", "simplify", "simp"]);
    // Replayed natively (calling the real arraycopy): all pass, and gcov
    // measures the same coverage of the four functions in both suites.
    let a = common::replay_passes(analysed.path(), 93, bench.clone(), true);
    let s = common::replay_passes(summarised.path(), 93, bench, true);
    assert_eq!(measured(&s, &FUNCS), measured(&a, &FUNCS));
    assert_eq!(measured(&s, &["simp"])[0].2, Some((2, 2)));
    // The conformance tests: one per path of the summary through a case,
    // with distinct objects behind src and dst (len 0, 1 and 2).
    assert!(
        stdout.contains("arraycopy (tests/c/summaries/arraycopy_summary.c:10:6): 3 conformance test(s)"),
        "{stdout}"
    );
    assert!(stdout.contains("pathwise_case(len <= 0) at tests/c/summaries/arraycopy_summary.c:13:9: 1"), "{stdout}");
    assert!(stdout.contains("pathwise_case(len > 0) at tests/c/summaries/arraycopy_summary.c:15:9: 2"), "{stdout}");
    assert!(!stdout.contains("conformance search of arraycopy's summary stopped"), "{stdout}");
    let dir = summarised.path().join("summary_arraycopy");
    let c = std::fs::read_to_string(dir.join("arraycopy_tests.c")).unwrap();
    let inputs: Vec<&str> = c.lines().filter(|l| l.starts_with(" * inputs:")).collect();
    assert_eq!(
        inputs,
        [
            " * inputs: src = &o1 {}, dst = &o2 {}, len = 0",
            " * inputs: src = &o1 {NULL}, dst = &o2 {}, len = 1",
            " * inputs: src = &o1 {[0]=NULL, [1]=NULL}, dst = &o2 {}, len = 2",
        ]
    );
    // Each object filled with its own byte; for len = 0 nothing may change.
    assert!(c.contains("__builtin_memset(pathwise_o2, 0xa2, 2 * sizeof(struct rational *));"), "{c}");
    assert!(
        c.contains(
            "pathwise_failed |= pathwise_check_frame(1, \"*dst\", \"o2\", 0, (const char *)pathwise_o2 + 0, 8, 0xa2);"
        ),
        "{c}"
    );
    let (code, run) = native(&dir, "arraycopy", &[]);
    assert_eq!((code, run.lines().last()), (0, Some("3 passed, 0 failed")), "{run}");
    // `pathwise replay OUT/summary_F` runs them too.
    common::replay_passes(&dir, 3, vec![common::root().join("tests/bench")], false);
}

#[test]
fn a_wrong_summary_makes_tests_fail_natively_and_names_its_case() {
    let summary = "tests/c/summaries/arraycopy_wrong.c";
    let out = tempfile::tempdir().unwrap();
    let (stdout, suite) = common::gen(
        RATIONAL,
        "simp",
        &[&THESIS_MODEL[..], &["--summary", summary, "--all-error-tests"]].concat(),
        out.path(),
    );
    assert_eq!(suite["tests"].as_array().unwrap().len(), 16, "{stdout}");
    // simp's tests expect `old` as the summary leaves it; the real
    // arraycopy writes one element more (into a null `old` when the
    // summary wrote nothing there).
    let (code, run) = native(out.path(), "simp", &[]);
    assert_eq!((code, run.lines().last()), (1, Some("10 passed, 6 failed")), "{run}");
    assert_eq!(run.lines().filter(|l| l.ends_with("crashed (signal 11)")).count(), 6, "{run}");
    // The conformance tests of the copying case (len = 1, 3, 2: src and dst
    // of len elements, as the case states) fail by value, not by a crash:
    // the real arraycopy writes the last element of dst, which the
    // summary's frame says stays as it was (filled with 0xa2), with the
    // last element of src (filled with 0xa1). Each failure names the case.
    let dir = out.path().join("summary_arraycopy");
    let c = std::fs::read_to_string(dir.join("arraycopy_tests.c")).unwrap();
    let inputs: Vec<&str> = c.lines().filter(|l| l.starts_with(" * inputs:")).collect();
    assert_eq!(inputs[3], " * inputs: src = &o1 {[0]=NULL}, dst = &o2 {}, len = 2");
    let (code, run) = native(&dir, "arraycopy", &[]);
    let case = "the real arraycopy violates case pathwise_case(len > 0) of its summary \
                (tests/c/summaries/arraycopy_wrong.c:16:9)";
    let changed = "changed: expected unchanged (every byte 0xa2), got a1 a1 a1 a1 a1 a1 a1 a1";
    assert_eq!(
        run.lines().collect::<Vec<_>>(),
        [
            format!("test 2: *dst (o2, bytes 0..7) {changed}"),
            format!("test 2: {case}"),
            format!("test 3: dst[2] (o2, bytes 16..23) {changed}"),
            format!("test 3: {case}"),
            format!("test 4: dst[1] (o2, bytes 8..15) {changed}"),
            format!("test 4: {case}"),
            "1 passed, 3 failed".to_string(),
        ]
    );
    assert_eq!(code, 1);
}

#[test]
fn a_declared_only_function_is_explored_through_its_summary() {
    // Without a summary the body-less lookup stops the search.
    let err = gen_fails(&[LOOKUP, "-f", "classify"]);
    assert!(err.contains("lookup.c:8:13: call to `lookup`, which has no body and no built-in model"), "{err}");
    let out = tempfile::tempdir().unwrap();
    let (stdout, suite) =
        common::gen(LOOKUP, "classify", &["--summary", "tests/c/summaries/lookup_summary.c"], out.path());
    // One test per case of the summary, each through one of classify's returns.
    assert_eq!(common::returns(&suite), [-1, 0, 1]);
    assert_eq!(suite["stop"], "complete");
    // Not a stub: the tests call the real lookup, linked natively.
    let c = std::fs::read_to_string(out.path().join("classify_tests.c")).unwrap();
    assert!(!c.contains("int lookup("), "the test file defines no stub");
    let real = common::root().join("tests/c/summaries/lookup_real.c");
    let real = real.to_string_lossy();
    let (code, run) = native(out.path(), "classify", &[&real]);
    assert_eq!((code, run.lines().last()), (0, Some("3 passed, 0 failed")), "{run}");
    assert!(stdout.contains("lookup (tests/c/summaries/lookup_summary.c:5:5): 3 conformance test(s)"), "{stdout}");
    let (code, run) = native(&out.path().join("summary_lookup"), "lookup", &[&real]);
    assert_eq!((code, run.lines().last()), (0, Some("3 passed, 0 failed")), "{run}");
}

#[test]
fn a_call_satisfying_no_case_is_reported_at_the_call() {
    let out = tempfile::tempdir().unwrap();
    let (stdout, suite) =
        common::gen(LOOKUP, "classify", &["--summary", "tests/c/summaries/lookup_partial.c"], out.path());
    assert_eq!(common::returns(&suite), [-1, 0]);
    assert!(
        stdout.contains(
            "warning: tests/c/summaries/lookup.c:8:13: the arguments of a call of lookup satisfy no case of its summary"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("explored, not complete"), "{stdout}");
    assert!(stdout.contains("1 path(s) of the summary of lookup return without a case"), "{stdout}");
}

/// A conformance search that is not complete (here a concretised offset:
/// `a[len - 1]` in the summary) says so next to its per-case counts, which
/// may then miss paths through a case.
#[test]
fn an_incomplete_conformance_search_is_reported() {
    let out = tempfile::tempdir().unwrap();
    let summary = "tests/c/summaries/set_last_summary.c";
    let (stdout, _) = common::gen("tests/c/summaries/set_last.c", "reset", &["--summary", summary], out.path());
    assert!(stdout.contains("set_last (tests/c/summaries/set_last_summary.c:5:6): 2 conformance test(s)"), "{stdout}");
    assert!(
        stdout.contains(
            "  warning: the conformance search of set_last's summary stopped: explored, not complete: \
             every prefix within the bound was tried, but 1 place(s) where a symbolic value was concretised\n"
        ),
        "{stdout}"
    );
}

#[test]
fn bad_summary_files_are_located_errors() {
    let bad = |file: &str| gen_fails(&[LOOKUP, "-f", "classify", "--summary", &format!("tests/c/summaries/{file}")]);
    let err = bad("bad_syntax.c");
    assert!(err.contains("tests/c/summaries/bad_syntax.c:8:9: error: syntax error: unexpected `return`"), "{err}");
    let err = bad("bad_unknown.c");
    assert!(
        err.contains(
            "error: tests/c/summaries/bad_unknown.c:4:5: `pathwise_summary_lokup` summarises `lokup`, \
             which tests/c/summaries/lookup.c neither declares nor defines"
        ),
        "{err}"
    );
    let err = bad("bad_signature.c");
    assert!(
        err.contains(
            "error: tests/c/summaries/bad_signature.c:4:5: wrong signature: `pathwise_summary_lookup` must have \
             the type of `lookup` (tests/c/summaries/lookup.c:4:5: `int lookup(int)`), not \
             `int pathwise_summary_lookup(long)`"
        ),
        "{err}"
    );
    let err = bad("bad_no_case.c");
    assert!(err.contains("error: tests/c/summaries/bad_no_case.c:4:5: `pathwise_summary_lookup` has no case"), "{err}");
    // A file that summarises nothing, and one that does not exist.
    let err = gen_fails(&[LOOKUP, "-f", "classify", "--summary", "tests/c/summaries/lookup_real.c"]);
    assert!(err.contains("error: tests/c/summaries/lookup_real.c: defines no hand-written summary"), "{err}");
    let err = gen_fails(&[LOOKUP, "-f", "classify", "--summary", "tests/c/summaries/none.c"]);
    assert!(err.contains("cannot read summary file tests/c/summaries/none.c"), "{err}");
}

#[test]
fn code_behind_a_summary_is_not_predicted() {
    // clamp's helper twice is called only by clamp: with clamp summarised,
    // the prediction is level's alone, and gcov agrees on it.
    let out = tempfile::tempdir().unwrap();
    let summary = "tests/c/summaries/clamp_summary.c";
    let (stdout, suite) = common::gen("tests/c/summaries/clamp.c", "level", &["--summary", summary], out.path());
    // x > 100; x < 0; x >= 0 with 2x == 100, 2x == 0 and another value.
    assert_eq!(common::returns(&suite), [0, 0, 1, 2, 2]);
    let names: Vec<&str> =
        suite["coverage"]["functions"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["level"]);
    let include = vec![common::root().join("tests/c/summaries")];
    let outcome = common::replay_passes(out.path(), 5, include, true);
    assert_eq!(measured(&outcome, &["level"]), [("level".to_string(), Some((7, 7)), Some((4, 4)))]);
    assert!(stdout.contains("clamp (tests/c/summaries/clamp_summary.c:4:5): 3 conformance test(s)"), "{stdout}");
    let (code, run) = native(&out.path().join("summary_clamp"), "clamp", &[]);
    assert_eq!((code, run.lines().last()), (0, Some("3 passed, 0 failed")), "{run}");
}

#[test]
fn block_k_with_the_summary_matches_the_analysed_arraycopy() {
    // Seed 003's criterion (block-2): the summary's blocks are counted as
    // arraycopy's would be, and simp's suite and coverage are the same.
    let args = |extra: &'static [&'static str]| {
        [&THESIS_MODEL[..], &["--criterion", "block-k", "--all-error-tests"][..], extra].concat()
    };
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_, real) = common::gen(RATIONAL, "simp", &args(&[]), a.path());
    let summary: &'static [&'static str] = &["--summary", "tests/c/summaries/arraycopy_summary.c"];
    let (_, with) = common::gen(RATIONAL, "simp", &args(summary), b.path());
    assert_eq!(real["tests"].as_array().unwrap().len(), 12);
    assert_eq!(with["tests"].as_array().unwrap().len(), 12);
    assert_eq!(common::errors(&with).len(), common::errors(&real).len());
    assert_eq!(coverage(&with, &FUNCS), coverage(&real, &FUNCS));
    common::replay_passes(b.path(), 12, vec![common::root().join("tests/bench")], true);
}

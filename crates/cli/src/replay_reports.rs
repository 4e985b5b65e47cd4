//! `pathwise replay DIR --lcov FILE --junit FILE`: replay's results in the
//! formats CI systems and coverage tools read (the emitters are
//! `pathwise_emit::lcov` and `pathwise_emit::junit`; this module turns
//! replay's outcomes into their data).
//!
//! The lcov tracefile holds the source files gcov measured, without the
//! generated test file itself (its coverage says nothing of the code under
//! test), named relative to the current directory when they lie under it
//! (as a tracefile committed or uploaded from a checkout needs), absolute
//! otherwise. The JUnit file has one testcase per generated test, its
//! verdict read from the test program's `test N: ...` lines.

use std::path::Path;

use anyhow::{Context, Result};
use pathwise_emit::junit::{write_junit, JunitCase, JunitSuite, Verdict};
use pathwise_emit::lcov::{merge, write_lcov, LcovFile};

use crate::replay::{ReplayArgs, ReplayOutcome, SuiteFiles};
use crate::sources::relative_to_cwd;

/// Write the files `args` asks for (`--lcov`, `--junit`) for the suites
/// of one directory (JUnit names each testsuite after its test file).
pub fn write_requested(args: &ReplayArgs, outcomes: &[(SuiteFiles, ReplayOutcome)]) -> Result<()> {
    let labelled: Vec<_> = outcomes.iter().map(|(f, o)| (format!("{}_tests.c", f.name), f, o)).collect();
    write_labelled(args, &labelled)
}

/// [`write_requested`] with each suite's JUnit testsuite name given
/// (`src/bits.c:gcd` for a project's).
pub fn write_labelled(args: &ReplayArgs, outcomes: &[(String, &SuiteFiles, &ReplayOutcome)]) -> Result<()> {
    if let Some(path) = &args.lcov {
        let text = write_lcov("pathwise", &lcov_files(outcomes.iter().map(|&(_, f, o)| (f, o))));
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
        println!("lcov tracefile: {}", path.display());
    }
    if let Some(path) = &args.junit {
        let suites: Vec<JunitSuite> = outcomes.iter().map(|(label, f, o)| junit_suite(label, f, o)).collect();
        std::fs::write(path, write_junit(&suites)).with_context(|| format!("cannot write {}", path.display()))?;
        println!("JUnit XML: {}", path.display());
    }
    Ok(())
}

/// The measured files of every suite, the test files left out, merged.
pub fn lcov_files<'a>(outcomes: impl Iterator<Item = (&'a SuiteFiles, &'a ReplayOutcome)>) -> Vec<LcovFile> {
    let mut files = Vec::new();
    for (suite, outcome) in outcomes {
        let Some(measured) = &outcome.measured else { continue };
        let harness = suite.c_file.canonicalize().unwrap_or_else(|_| suite.c_file.clone());
        for file in measured.files.values() {
            let path = Path::new(&file.path);
            if path == harness || path == suite.c_file {
                continue;
            }
            // gcov names files as gcc found them (`DIR/../src/x.c`, through
            // replay's include directories): canonical names merge.
            let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
            files.push(LcovFile { path: relative_to_cwd(&path), ..file.clone() });
        }
    }
    merge(files)
}

/// The lines of `lines` about test `id` (`test 3: ...`).
fn about(lines: &[String], id: usize) -> Vec<String> {
    let prefix = format!("test {id}: ");
    lines.iter().filter(|l| l.starts_with(&prefix)).cloned().collect()
}

/// One suite's JUnit testsuite (named `label`): a testcase per test, in
/// the suite's order; a suite that could not be replayed is one failing
/// testcase saying why (CI must show it, not lose it).
pub fn junit_suite(label: &str, files: &SuiteFiles, outcome: &ReplayOutcome) -> JunitSuite {
    if let Some(why) = &outcome.broken {
        let case = JunitCase {
            name: format!("{}_tests.c", files.name),
            classname: files.name.clone(),
            verdict: Verdict::Failed(why.lines().map(str::to_string).collect()),
        };
        return JunitSuite { name: label.to_string(), cases: vec![case], system_out: vec!["not replayed".into()] };
    }
    let cases: Vec<JunitCase> = outcome
        .test_names
        .iter()
        .map(|(id, name)| {
            let failed = about(&outcome.failures, *id);
            let not_observed = about(&outcome.not_observed_lines, *id);
            let verdict = if !failed.is_empty() {
                Verdict::Failed(failed)
            } else if let Some(line) = not_observed.first() {
                Verdict::Skipped(line.split_once(": ").map_or(line.as_str(), |(_, why)| why).to_string())
            } else {
                Verdict::Passed
            };
            JunitCase { name: name.clone(), classname: files.name.clone(), verdict }
        })
        .collect();
    let mut system_out = Vec::new();
    if outcome.tests > 0 {
        system_out.push(format!("{} passed, {} failed", outcome.passed, outcome.failed));
        let named = cases.iter().filter(|c| matches!(c.verdict, Verdict::Failed(_))).count() as u64;
        if named < outcome.failed {
            system_out.push(format!("{} failure(s) the test program named no test for", outcome.failed - named));
        }
        if outcome.disagreements.is_empty() {
            system_out.push("coverage agrees with the prediction".into());
        } else {
            system_out.push("coverage disagrees with the prediction:".into());
            system_out.extend(outcome.disagreements.iter().map(|d| format!("  {d}")));
        }
    }
    JunitSuite { name: label.to_string(), cases, system_out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_from_the_program_lines() {
        let files = SuiteFiles { name: "f".into(), c_file: "f_tests.c".into(), json_file: "f_tests.json".into() };
        let outcome = ReplayOutcome {
            tests: 3,
            passed: 1,
            failed: 1,
            not_observed: 1,
            failures: vec!["test 1: return expected 3 got 2".into(), "test 1: g expected 0 got 1".into()],
            not_observed_lines: vec!["test 10: error not observed natively: expected x".into()],
            test_names: vec![(1, "a".into()), (2, "b".into()), (10, "c".into())],
            ..ReplayOutcome::default()
        };
        let suite = junit_suite("f_tests.c", &files, &outcome);
        assert_eq!(suite.name, "f_tests.c");
        let verdicts: Vec<&Verdict> = suite.cases.iter().map(|c| &c.verdict).collect();
        assert_eq!(
            verdicts,
            [
                &Verdict::Failed(vec!["test 1: return expected 3 got 2".into(), "test 1: g expected 0 got 1".into()]),
                &Verdict::Passed,
                &Verdict::Skipped("error not observed natively: expected x".into()),
            ]
        );
        assert_eq!(suite.system_out, ["1 passed, 1 failed", "coverage agrees with the prediction"]);
        let broken = ReplayOutcome { broken: Some("gcc could not compile f_tests.c:\nf.c:1: error".into()), ..outcome };
        let suite = junit_suite("src/f.c:f", &files, &broken);
        assert_eq!(suite.name, "src/f.c:f");
        assert_eq!(suite.cases.len(), 1, "one failing case for the suite that did not build");
        assert_eq!(
            suite.cases[0].verdict,
            Verdict::Failed(vec!["gcc could not compile f_tests.c:".into(), "f.c:1: error".into()])
        );
    }
}

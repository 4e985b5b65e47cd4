//! The coverage `replay` compares with gcov's: that of the tests whose
//! native runs record coverage.
//!
//! The JSON's aggregate prediction covers every test, but gcov measures only
//! the tests that wrote their counters (see `replay.rs`). Each test also
//! carries its own coverage (lines, and branch sides numbered within their
//! line as the aggregate counts them), so the prediction for a subset of the
//! tests is the union of theirs. Suites written before per-test coverage
//! existed keep the aggregate.

use std::collections::{BTreeMap, BTreeSet};

use pathwise_emit::json::{FunctionCoverageJson, SuiteJson};

/// The predicted coverage of the suite's tests except those in `left_out`
/// (by id).
pub fn recorded_coverage(suite: &SuiteJson, left_out: &BTreeSet<usize>) -> Vec<FunctionCoverageJson> {
    let per_test_known = suite.tests.iter().all(|t| !t.coverage.is_empty());
    if left_out.is_empty() || !per_test_known {
        return suite.coverage.functions.clone();
    }
    // Per function: lines covered, and branch sides taken by line.
    let mut lines: BTreeMap<&str, BTreeSet<u32>> = BTreeMap::new();
    let mut sides: BTreeMap<&str, BTreeMap<u32, BTreeSet<u32>>> = BTreeMap::new();
    for t in suite.tests.iter().filter(|t| !left_out.contains(&t.id)) {
        for c in &t.coverage {
            lines.entry(&c.function).or_default().extend(&c.lines);
            let by_line = sides.entry(&c.function).or_default();
            for &(line, side) in &c.branches {
                by_line.entry(line).or_default().insert(side);
            }
        }
    }
    suite
        .coverage
        .functions
        .iter()
        .map(|f| {
            let covered = lines.get(f.name.as_str());
            let taken = sides.get(f.name.as_str());
            let branch_lines: Option<Vec<(u32, u64, u64)>> = f.branch_lines.as_ref().map(|bl| {
                bl.iter()
                    .map(|&(line, n, _)| {
                        let c = taken.and_then(|t| t.get(&line)).map_or(0, |s| s.len() as u64);
                        (line, n, c.min(n))
                    })
                    .collect()
            });
            FunctionCoverageJson {
                name: f.name.clone(),
                file: f.file.clone(),
                lines: f.lines.clone(),
                lines_covered: f.lines.iter().copied().filter(|l| covered.is_some_and(|c| c.contains(l))).collect(),
                branches: f.branches,
                branches_covered: branch_lines.as_ref().map_or(f.branches_covered, |bl| bl.iter().map(|b| b.2).sum()),
                branch_lines,
            }
        })
        .collect()
}

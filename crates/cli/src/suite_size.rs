//! The summary's word on a suite too large for a person to keep: above a
//! few hundred tests (a 15-line tokenizer gets 117 k-path tests and
//! thousands of lines of C at the default bound), say how large it is and
//! how few tests cover the same branch sides, so that the user knows
//! `--criterion branches` exists before committing the suite.

use pathwise_engine::suite::TestSuite;
use std::collections::BTreeSet;

/// Above this many tests the summary names the smaller suite.
pub const LARGE_SUITE: usize = 200;

/// How many of the suite's tests cover every branch side the suite
/// covers (a greedy cover, taking at each step the test adding the most
/// sides, the first in suite order on ties), and how many sides that is.
pub fn branch_cover_size(suite: &TestSuite) -> (usize, usize) {
    let sides: Vec<BTreeSet<(&str, u32, u32)>> = suite
        .tests
        .iter()
        .map(|t| {
            t.coverage.iter().flat_map(|c| c.branches.iter().map(move |&(l, i)| (c.function.as_str(), l, i))).collect()
        })
        .collect();
    let all: BTreeSet<_> = sides.iter().flatten().copied().collect();
    let mut covered = BTreeSet::new();
    let mut kept = 0;
    while covered.len() < all.len() {
        let best = sides.iter().max_by_key(|s| (s.difference(&covered).count(), std::cmp::Reverse(s.len())));
        let Some(best) = best.filter(|s| s.difference(&covered).next().is_some()) else { break };
        covered.extend(best.iter().copied());
        kept += 1;
    }
    (kept, all.len())
}

/// The summary's line on a large suite (`c_lines`: lines of the test
/// file), or nothing for a suite of a size a person keeps.
pub fn note(suite: &TestSuite, c_lines: usize) -> Option<String> {
    if suite.tests.len() <= LARGE_SUITE {
        return None;
    }
    let (kept, sides) = branch_cover_size(suite);
    let covers = if kept == 1 { "test covers" } else { "tests cover" };
    Some(format!(
        "  {:<20} {} tests ({c_lines} lines of C); {kept} {covers} the same {sides} branch sides: \
         `--criterion branches` keeps a suite that size\n",
        "large suite:",
        suite.tests.len()
    ))
}

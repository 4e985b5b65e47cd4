//! Issue 28, "suites of a size a person keeps": above a few hundred tests
//! the summary says so and names how small a branch suite is.

mod common;

use common::gen;

/// Branch sides covered by the suite, from its JSON coverage.
fn sides_covered(suite: &serde_json::Value) -> u64 {
    suite["coverage"]["functions"].as_array().unwrap().iter().map(|f| f["branches_covered"].as_u64().unwrap()).sum()
}

#[test]
fn a_large_suite_names_the_branch_suite() {
    let dir = tempfile::tempdir().unwrap();
    let (text, suite) = gen("tests/c/words.c", "count_words", &["--k", "5"], dir.path());
    let tests = suite["tests"].as_array().unwrap().len();
    assert!(tests > pathwise_cli::suite_size::LARGE_SUITE, "{tests} tests: not a large suite");
    let line = text.lines().find(|l| l.trim_start().starts_with("large suite:")).unwrap_or_else(|| panic!("{text}"));
    let c_lines = std::fs::read_to_string(dir.path().join("count_words_tests.c")).unwrap().lines().count();
    assert!(line.contains(&format!("{tests} tests ({c_lines} lines of C)")), "{line}");
    // "K test(s) cover(s) the same S branch sides".
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "same").unwrap();
    let kept: usize = words[at - 4].parse().unwrap();
    let sides: u64 = words[at + 1].parse().unwrap();
    assert_eq!(sides, sides_covered(&suite), "{line}");
    assert!(kept >= 1 && kept <= 6, "{line}");
    // The branch criterion indeed covers as many sides with a suite of
    // that order.
    let bdir = tempfile::tempdir().unwrap();
    let (btext, branches) =
        gen("tests/c/words.c", "count_words", &["--k", "5", "--criterion", "branches"], bdir.path());
    assert_eq!(sides_covered(&branches), sides);
    assert!(branches["tests"].as_array().unwrap().len() <= kept + 2, "{btext}");
    assert!(!btext.contains("large suite:"), "{btext}");
    // A small suite gets no such line.
    let sdir = tempfile::tempdir().unwrap();
    let (stext, _) = gen("tests/c/words.c", "count_words", &["--k", "2"], sdir.path());
    assert!(!stext.contains("large suite:"), "{stext}");
}

//! JUnit XML of replay's native results (`pathwise replay DIR --junit
//! FILE`), the test report format CI systems (GitLab, Jenkins, GitHub
//! actions that publish test results) show: one `<testsuite>` per
//! generated suite, one `<testcase>` per generated test.
//!
//! A test whose checks failed natively has a `<failure>` with the test
//! program's messages; an error test whose undefined behaviour did not
//! trap natively (neither passed nor failed in `replay`'s count) is
//! `<skipped>` with why. No time attribute: the file depends on the
//! suite and its results only.

use std::fmt::Write as _;

/// One generated test's native result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Passed,
    /// The test program's lines about it (`test 2: return expected 5 got 4`).
    Failed(Vec<String>),
    /// Why it neither passed nor failed.
    Skipped(String),
}

/// One `<testcase>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JunitCase {
    /// The test's C function (`pathwise_test_merge_case_2`).
    pub name: String,
    /// The suite's function under test, which CI tools show as the class.
    pub classname: String,
    pub verdict: Verdict,
}

/// One `<testsuite>`: the tests of one `NAME_tests.c`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JunitSuite {
    pub name: String,
    pub cases: Vec<JunitCase>,
    /// Lines for the suite's `<system-out>` (the coverage verdict).
    pub system_out: Vec<String>,
}

/// `s` with XML's special characters escaped and the characters XML 1.0
/// cannot hold (control characters other than tab and newline: code under
/// test may print anything) replaced by U+FFFD.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

fn counts(cases: &[JunitCase]) -> (usize, usize, usize) {
    let failures = cases.iter().filter(|c| matches!(c.verdict, Verdict::Failed(_))).count();
    let skipped = cases.iter().filter(|c| matches!(c.verdict, Verdict::Skipped(_))).count();
    (cases.len(), failures, skipped)
}

fn write_case(out: &mut String, case: &JunitCase) {
    let (name, class) = (xml_escape(&case.name), xml_escape(&case.classname));
    match &case.verdict {
        Verdict::Passed => {
            let _ = writeln!(out, "    <testcase name=\"{name}\" classname=\"{class}\"/>");
        }
        Verdict::Failed(lines) => {
            let message = lines.first().map_or("failed", String::as_str);
            let _ = writeln!(
                out,
                "    <testcase name=\"{name}\" classname=\"{class}\">\n      \
                 <failure message=\"{}\" type=\"failure\">{}</failure>\n    </testcase>",
                xml_escape(message),
                xml_escape(&lines.join("\n"))
            );
        }
        Verdict::Skipped(why) => {
            let _ = writeln!(
                out,
                "    <testcase name=\"{name}\" classname=\"{class}\">\n      <skipped message=\"{}\"/>\n    </testcase>",
                xml_escape(why)
            );
        }
    }
}

/// The JUnit XML document of `suites`, in their order.
pub fn write_junit(suites: &[JunitSuite]) -> String {
    let all: Vec<JunitCase> = suites.iter().flat_map(|s| s.cases.iter().cloned()).collect();
    let (tests, failures, skipped) = counts(&all);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"pathwise replay\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">"
    );
    for suite in suites {
        let (tests, failures, skipped) = counts(&suite.cases);
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">",
            xml_escape(&suite.name)
        );
        for case in &suite.cases {
            write_case(&mut out, case);
        }
        if !suite.system_out.is_empty() {
            let _ = writeln!(out, "    <system-out>{}</system-out>", xml_escape(&suite.system_out.join("\n")));
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_failures_and_skips_with_counts() {
        let case = |name: &str, verdict| JunitCase { name: name.into(), classname: "f".into(), verdict };
        let suite = JunitSuite {
            name: "f_tests.c".into(),
            cases: vec![
                case("t1", Verdict::Passed),
                case("t<2>", Verdict::Failed(vec!["test 2: return expected 1 got \"2\"".into(), "second".into()])),
                case("t3", Verdict::Skipped("error not observed\u{1}".into())),
            ],
            system_out: vec!["coverage agrees".into()],
        };
        let xml = write_junit(&[suite]);
        assert!(
            xml.contains("<testsuites name=\"pathwise replay\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\">")
        );
        assert!(xml.contains(
            "<testcase name=\"t&lt;2&gt;\" classname=\"f\">\n      <failure message=\"test 2: return expected 1 got \
             &quot;2&quot;\" type=\"failure\">test 2: return expected 1 got &quot;2&quot;\nsecond</failure>"
        ));
        assert!(xml.contains("<skipped message=\"error not observed\u{FFFD}\"/>"));
        assert!(xml.ends_with("  </testsuite>\n</testsuites>\n"));
    }
}

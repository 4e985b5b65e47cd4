//! The HTML report of a directory of suites (`pathwise report DIR`): one
//! self-contained page (inline CSS, no script, no external resource; a
//! Content-Security-Policy forbids loading any), so that it can be opened
//! from disk, attached to a CI run or mailed.
//!
//! The page starts with an index of the functions (tests, paths, how the
//! search ended, line and branch coverage, errors, infeasible code) and
//! has one section per function (`report_html_func.rs`): its errors with
//! their tests' inputs, its tests each linked to its path, the paths
//! linked to the source lines of their decisions, and the source with
//! each line coloured covered, partly covered (a branch side not taken),
//! not covered, or infeasible within the bound.
//!
//! The caller reads the files (the suites' JSON and the sources they
//! name); this module only renders, deterministically: the same suites
//! and sources give the same bytes (no timestamp).

use std::fmt::Write as _;

use crate::json::SuiteJson;
use crate::json_goals::InfeasibleJson;

/// A source file a suite's locations name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The file as the suite's JSON names it (`examples/merge.c`); empty
    /// for the suite's source in suites whose coverage names no file.
    pub name: String,
    /// The path shown in the report.
    pub shown: String,
    /// Its text, or why it could not be read.
    pub text: Result<String, String>,
}

/// One suite of the directory, with what the report shows of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportSuite {
    /// The suite's JSON file (`Merge_tests.json`).
    pub json_file: String,
    pub suite: SuiteJson,
    /// The infeasible code a complete cover recorded (`cover` or `vc`).
    pub infeasible: Vec<InfeasibleJson>,
    /// The files its coverage and locations name, the function under
    /// test's first.
    pub sources: Vec<SourceFile>,
}

/// `s` with HTML's special characters escaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#1b1f23;background:#fff}
h1{font-size:1.5em}h2{border-bottom:2px solid #d0d7de;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #d0d7de;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.num{text-align:right}a{color:#0550ae}
.stop-complete{color:#116329}.stop-cut{color:#9a6700;font-weight:bold}.has-errors{color:#cf222e;font-weight:bold}
.legend span{display:inline-block;padding:0 .5em;margin-right:.5em;border:1px solid #d0d7de}
table.source{font-family:ui-monospace,monospace;font-size:13px;width:100%}
table.source td{border:none;padding:0 .5em;white-space:pre;tab-size:4}
table.source td.ln,table.source td.hits{text-align:right;color:#57606a;width:3em;user-select:none}
table.source td.ln a{color:#57606a;text-decoration:none}
.cov{background:#dafbe1}.part{background:#fff8c5}.unc{background:#ffebe9}.inf{background:#eaeef2}
tr.err td.src{box-shadow:inset 4px 0 #cf222e}:target{outline:2px solid #0969da}
ol.path{font-family:ui-monospace,monospace;font-size:13px}div.path{margin:.3em 0}
.errors li{margin:.3em 0}.muted{color:#57606a}";

/// Covered and total lines and branch sides of a suite's coverage (the
/// function under test and its callees).
pub(crate) fn totals(suite: &SuiteJson) -> ((usize, usize), (u64, u64)) {
    let f = &suite.coverage.functions;
    let lines = (f.iter().map(|c| c.lines_covered.len()).sum(), f.iter().map(|c| c.lines.len()).sum());
    let branches = (f.iter().map(|c| c.branches_covered).sum(), f.iter().map(|c| c.branches).sum());
    (lines, branches)
}

/// `3/4 (75%)`, or `-` when there is nothing to cover.
pub(crate) fn ratio<T: Into<u64> + Copy>(covered: T, total: T) -> String {
    let (c, t) = (covered.into(), total.into());
    if t == 0 {
        return "-".into();
    }
    format!("{c}/{t} ({}%)", c * 100 / t)
}

/// How the search ended, and whether that is complete.
pub(crate) fn stop_text(suite: &SuiteJson) -> (String, bool) {
    let text = match (&suite.stop[..], &suite.stop_detail) {
        (stop, Some(detail)) => format!("{stop}: {detail}"),
        (stop, None) => stop.to_string(),
    };
    let complete = matches!(suite.stop.as_str(), "complete" | "explored" | "error-call-reached" | "targets-reached");
    (text, complete)
}

fn index_row(out: &mut String, i: usize, r: &ReportSuite) {
    let s = &r.suite;
    let ((lc, lt), (bc, bt)) = totals(s);
    let (stop, complete) = stop_text(s);
    let errors: Vec<&str> = s.tests.iter().filter_map(|t| t.error.as_ref()).map(|e| e.kind.as_str()).collect();
    let mut kinds = errors.clone();
    kinds.sort_unstable();
    kinds.dedup();
    let errors_cell = if errors.is_empty() {
        "0".to_string()
    } else {
        format!("<span class=\"has-errors\">{}</span> ({})", errors.len(), escape(&kinds.join(", ")))
    };
    let infeasible =
        if s.cover.is_some() || !r.infeasible.is_empty() { r.infeasible.len().to_string() } else { "-".into() };
    let _ = writeln!(
        out,
        "<tr class=\"function\"><td><a href=\"#f{i}\">{}</a></td><td>{}</td><td class=\"num\">{}</td>\
         <td class=\"num\">{}</td><td class=\"{}\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
         <td>{errors_cell}</td><td class=\"num\">{infeasible}</td></tr>",
        escape(&s.function),
        escape(&format!("{}, k = {}", s.criterion, s.k)),
        s.tests.len(),
        s.stats.feasible_paths,
        if complete { "stop-complete" } else { "stop-cut" },
        escape(&stop),
        ratio(lc as u64, lt as u64),
        ratio(bc, bt),
    );
}

/// A function of a project that has no suite (`pathwise project` could
/// not test it), listed with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Untested {
    /// `FILE:FUNCTION` as the project's index names it.
    pub function: String,
    pub reason: String,
}

/// The whole report page of `suites` (in the given order), then the
/// functions `untested`; `title` names the directory.
pub fn html_report(title: &str, suites: &[ReportSuite], untested: &[Untested]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Pathwise report: {t}</title>\n<style>\n{STYLE}\n</style>\n</head>\n<body>\n\
         <h1>Pathwise report: {t}</h1>\n",
        t = escape(title)
    );
    out.push_str(
        "<p class=\"legend\">Source lines: <span class=\"cov\">covered</span><span class=\"part\">covered, a branch \
         side not taken</span><span class=\"unc\">not covered</span><span class=\"inf\">infeasible within the \
         bound</span></p>\n",
    );
    out.push_str(
        "<table class=\"index\">\n<tr><th>function</th><th>criterion</th><th>tests</th><th>paths</th><th>search</th>\
         <th>lines</th><th>branches</th><th>errors</th><th>infeasible</th></tr>\n",
    );
    for (i, r) in suites.iter().enumerate() {
        index_row(&mut out, i, r);
    }
    out.push_str("</table>\n");
    if !untested.is_empty() {
        out.push_str(
            "<h2 id=\"untested\">Not tested</h2>\n<table class=\"index\">\n<tr><th>function</th><th>why</th></tr>\n",
        );
        for u in untested {
            let _ = writeln!(
                out,
                "<tr class=\"untested\"><td>{}</td><td>{}</td></tr>",
                escape(&u.function),
                escape(&u.reason)
            );
        }
        out.push_str("</table>\n");
    }
    for (i, r) in suites.iter().enumerate() {
        crate::report_html_func::function_section(&mut out, i, r);
    }
    out.push_str("</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(escape("a < b && c > \"d\" 'e'"), "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &#39;e&#39;");
    }

    #[test]
    fn ratios() {
        assert_eq!(ratio(3u64, 4u64), "3/4 (75%)");
        assert_eq!(ratio(0u64, 0u64), "-");
    }
}

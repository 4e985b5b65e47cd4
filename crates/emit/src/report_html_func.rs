//! One function's section of the HTML report (`report_html.rs`): summary,
//! errors, infeasible code, tests, paths and coloured sources.
//!
//! Anchors are numbered, not named after C identifiers or paths, so that
//! no escaping can make two collide: `f2` is the third suite, `f2-t5` its
//! test 5, `f2-p5` that test's path, `f2-e5` its error, `f2-s0-L17` line
//! 17 of its first source file.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::json::{StepJson, SuiteJson, TestJson};
use crate::report_html::{escape, ratio, stop_text, totals, ReportSuite, SourceFile};
use crate::sarif::inputs_text;

/// The anchor of `line` of `file` in suite `i`'s sources, when that file
/// is shown and has the line.
fn line_anchor(i: usize, r: &ReportSuite, file: &str, line: u32) -> Option<String> {
    let j = r.sources.iter().position(|s| s.name == file)?;
    let text = r.sources[j].text.as_ref().ok()?;
    (line >= 1 && (line as usize) <= text.lines().count()).then(|| format!("f{i}-s{j}-L{line}"))
}

/// `file:line:col`, linked to the source line when it is shown.
fn location_link(i: usize, r: &ReportSuite, file: &str, line: u32, col: u32) -> String {
    linked(i, r, file, line, &format!("{file}:{line}:{col}"))
}

/// `text`, linked to `line` of `file` when it is shown.
fn linked(i: usize, r: &ReportSuite, file: &str, line: u32, text: &str) -> String {
    let text = escape(text);
    match line_anchor(i, r, file, line) {
        Some(anchor) => format!("<a href=\"#{anchor}\">{text}</a>"),
        None => text,
    }
}

/// `file`, `line` of a `file:line:col` location.
fn split_location(at: &str) -> Option<(&str, u32)> {
    let mut parts = at.rsplitn(3, ':');
    let _col = parts.next()?;
    let line = parts.next()?.parse().ok()?;
    Some((parts.next()?, line))
}

fn summary(out: &mut String, i: usize, r: &ReportSuite) {
    let s = &r.suite;
    let ((lc, lt), (bc, bt)) = totals(s);
    let (stop, complete) = stop_text(s);
    let _ = writeln!(
        out,
        "<section id=\"f{i}\" class=\"function\">\n<h2>{}</h2>\n<table class=\"summary\">\n\
         <tr><th>suite</th><td>{}</td></tr>\n<tr><th>criterion</th><td>{}, k = {}{}</td></tr>\n\
         <tr><th>precondition</th><td>{}</td></tr>\n<tr><th>search</th><td class=\"{}\">{}</td></tr>\n\
         <tr><th>tests</th><td>{} ({} feasible paths, {} runs)</td></tr>\n\
         <tr><th>lines</th><td>{}</td></tr>\n<tr><th>branches</th><td>{}</td></tr>\n</table>",
        escape(&s.function),
        escape(&r.json_file),
        escape(&s.criterion),
        s.k,
        if s.deepened { " (deepened)" } else { "" },
        escape(s.precondition.as_deref().unwrap_or("none")),
        if complete { "stop-complete" } else { "stop-cut" },
        escape(&stop),
        s.tests.len(),
        s.stats.feasible_paths,
        s.stats.runs,
        ratio(lc as u64, lt as u64),
        ratio(bc, bt),
    );
    let notes: Vec<String> = s
        .contracts
        .iter()
        .map(|c| escape(c))
        .chain(s.at_bound.iter().map(|b| {
            let at = linked(i, r, &b.file, b.line, &b.location);
            format!("{} at the bound: {at} (a larger k may add paths there)", escape(&b.kind))
        }))
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(out, "<ul class=\"notes\">\n<li>{}</li>\n</ul>", notes.join("</li>\n<li>"));
    }
}

fn errors(out: &mut String, i: usize, r: &ReportSuite) {
    let tests: Vec<&TestJson> = r.suite.tests.iter().filter(|t| t.error.is_some()).collect();
    if tests.is_empty() {
        out.push_str("<h3>Errors</h3>\n<p class=\"muted\">No test ends in an error.</p>\n");
        return;
    }
    let _ = writeln!(out, "<h3>Errors ({})</h3>\n<ul class=\"errors\">", tests.len());
    for t in tests {
        let Some(e) = &t.error else { continue };
        let _ = writeln!(
            out,
            "<li id=\"f{i}-e{id}\" class=\"error\"><b>{}</b> at {}: {}. Test <a href=\"#f{i}-t{id}\">{id}</a> \
             (<code>{}</code>) with {}.</li>",
            escape(&e.kind),
            location_link(i, r, &e.file, e.line, e.col),
            escape(&e.message),
            escape(&t.name),
            escape(&inputs_text(t)),
            id = t.id,
        );
    }
    out.push_str("</ul>\n");
}

fn infeasible(out: &mut String, i: usize, r: &ReportSuite) {
    if r.infeasible.is_empty() {
        return;
    }
    let _ = writeln!(out, "<h3>Infeasible within the bound ({})</h3>\n<ul class=\"infeasible\">", r.infeasible.len());
    for g in &r.infeasible {
        let (file, line) = split_location(&g.location).unwrap_or(("", 0));
        let at = linked(i, r, file, line, &g.location);
        let what = match g.side {
            Some(side) => format!("branch, {side} side"),
            None => "statement".into(),
        };
        let _ = writeln!(out, "<li>{}: {what} at {at}</li>", escape(&g.function));
    }
    out.push_str("</ul>\n");
}

fn tests_table(out: &mut String, i: usize, s: &SuiteJson) {
    let _ = writeln!(
        out,
        "<h3>Tests ({})</h3>\n<table class=\"tests\">\n<tr><th>#</th><th>test</th><th>outcome</th><th>inputs</th>\
         <th>returns</th><th>path</th></tr>",
        s.tests.len()
    );
    for t in &s.tests {
        let outcome = match &t.error {
            Some(e) => format!("<a class=\"has-errors\" href=\"#f{i}-e{}\">{}</a>", t.id, escape(&e.kind)),
            None => escape(&t.outcome),
        };
        let ret = t.expected.ret.map(|r| r.0.to_string()).unwrap_or_default();
        let _ = writeln!(
            out,
            "<tr id=\"f{i}-t{id}\" class=\"test\"><td class=\"num\">{id}</td><td><code>{}</code></td><td>{outcome}</td>\
             <td>{}</td><td class=\"num\">{ret}</td><td><a href=\"#f{i}-p{id}\">{} decision(s)</a></td></tr>",
            escape(&t.name),
            escape(&inputs_text(t)),
            t.path.len(),
            id = t.id,
        );
    }
    out.push_str("</table>\n");
}

fn step_item(i: usize, r: &ReportSuite, step: &StepJson) -> String {
    let iteration = step.loop_iter.as_ref().map(|l| format!(" (loop iteration {})", l.iteration)).unwrap_or_default();
    format!(
        "<li>{} {}: {}{iteration}</li>",
        location_link(i, r, &step.file, step.line, step.col),
        escape(&step.function),
        if step.taken { "true" } else { "false" }
    )
}

fn paths(out: &mut String, i: usize, r: &ReportSuite) {
    out.push_str("<h3>Paths</h3>\n");
    for t in &r.suite.tests {
        let _ = writeln!(
            out,
            "<div class=\"path\" id=\"f{i}-p{id}\"><a href=\"#f{i}-t{id}\">test {id}</a>: {} decision(s)",
            t.path.len(),
            id = t.id
        );
        if !t.path.is_empty() {
            out.push_str("<ol class=\"path\">\n");
            for step in &t.path {
                out.push_str(&step_item(i, r, step));
                out.push('\n');
            }
            out.push_str("</ol>");
        }
        out.push_str("</div>\n");
    }
}

/// What the report knows of each line of one file.
#[derive(Default)]
struct LineFacts {
    code: BTreeSet<u32>,
    covered: BTreeSet<u32>,
    partial: BTreeSet<u32>,
    infeasible: BTreeMap<u32, Vec<String>>,
    errors: BTreeMap<u32, Vec<String>>,
    /// Tests covering each line.
    hits: BTreeMap<u32, usize>,
}

fn line_facts(r: &ReportSuite, file: &SourceFile) -> LineFacts {
    let mut facts = LineFacts::default();
    let in_file = |f: &Option<String>| f.as_deref().unwrap_or("") == file.name;
    let mut own = BTreeSet::new();
    for f in r.suite.coverage.functions.iter().filter(|f| in_file(&f.file)) {
        own.insert(f.name.as_str());
        facts.code.extend(&f.lines);
        facts.covered.extend(&f.lines_covered);
        let partial = f.branch_lines.iter().flatten().filter(|(_, n, c)| c < n).map(|b| b.0);
        facts.partial.extend(partial);
    }
    for g in &r.infeasible {
        if let Some((f, line)) = split_location(&g.location).filter(|(f, _)| *f == file.name) {
            let what = match g.side {
                Some(side) => format!("{f}:{line}: {side} side infeasible within the bound"),
                None => format!("{f}:{line}: statement infeasible within the bound"),
            };
            facts.infeasible.entry(line).or_default().push(what);
        }
    }
    for t in &r.suite.tests {
        if let Some(e) = t.error.as_ref().filter(|e| e.file == file.name) {
            facts.errors.entry(e.line).or_default().push(format!("test {}: {}", t.id, e.kind));
        }
        let lines: BTreeSet<u32> =
            t.coverage.iter().filter(|c| own.contains(c.function.as_str())).flat_map(|c| c.lines.clone()).collect();
        for line in lines {
            *facts.hits.entry(line).or_default() += 1;
        }
    }
    facts
}

fn source_table(out: &mut String, i: usize, j: usize, r: &ReportSuite, file: &SourceFile) {
    let _ = writeln!(out, "<h3 id=\"f{i}-s{j}\">{}</h3>", escape(&file.shown));
    let text = match &file.text {
        Ok(text) => text,
        Err(why) => {
            let _ = writeln!(out, "<p class=\"muted\">Source not shown: {}</p>", escape(why));
            return;
        }
    };
    let facts = line_facts(r, file);
    out.push_str("<table class=\"source\">\n");
    for (k, line) in text.lines().enumerate() {
        let n = k as u32 + 1;
        let state = if facts.infeasible.contains_key(&n) {
            " inf"
        } else if facts.code.contains(&n) && !facts.covered.contains(&n) {
            " unc"
        } else if facts.partial.contains(&n) {
            " part"
        } else if facts.covered.contains(&n) {
            " cov"
        } else {
            ""
        };
        let notes: Vec<&String> = facts.infeasible.get(&n).into_iter().chain(facts.errors.get(&n)).flatten().collect();
        let title = if notes.is_empty() {
            String::new()
        } else {
            format!(" title=\"{}\"", escape(&notes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("; ")))
        };
        let err = if facts.errors.contains_key(&n) { " err" } else { "" };
        let hits = facts.hits.get(&n).map(|h| h.to_string()).unwrap_or_default();
        let _ = writeln!(
            out,
            "<tr id=\"f{i}-s{j}-L{n}\" class=\"line{state}{err}\"{title}><td class=\"ln\"><a href=\"#f{i}-s{j}-L{n}\">{n}</a>\
             </td><td class=\"hits\">{hits}</td><td class=\"src\">{}</td></tr>",
            escape(line.strip_suffix('\r').unwrap_or(line))
        );
    }
    out.push_str("</table>\n");
}

/// The section of suite `i`.
pub(crate) fn function_section(out: &mut String, i: usize, r: &ReportSuite) {
    summary(out, i, r);
    errors(out, i, r);
    infeasible(out, i, r);
    tests_table(out, i, &r.suite);
    paths(out, i, r);
    out.push_str("<h3>Sources</h3>\n<p class=\"muted\">The second column counts the tests covering the line.</p>\n");
    for (j, file) in r.sources.iter().enumerate() {
        source_table(out, i, j, r, file);
    }
    out.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_locations_with_colons_in_the_path() {
        assert_eq!(split_location("tests/c/errors.c:10:37"), Some(("tests/c/errors.c", 10)));
        assert_eq!(split_location("C:/x.c:3:1"), Some(("C:/x.c", 3)));
        assert_eq!(split_location("nothing"), None);
    }
}

//! Running gcov and reading its JSON intermediate format.
//!
//! gcc 9+ `gcov --json-format` describes, per source file, every line with
//! code (`line_number`, execution `count`, the `branches` leaving it and —
//! since gcc 12 — the `function_name` it belongs to) and every function
//! (`name`, `start_line`, `end_line`). We reduce that to per-function line
//! counts and branch counts, which `replay` compares with the coverage the
//! generator predicted.
//!
//! The same data per source file, as `replay --lcov` writes it, is kept
//! in [`GcovReport::files`].
//!
//! gcc 12's gcov can print the JSON on stdout (`--stdout`, one document per
//! data file); older ones only write `NAME.gcov.json.gz` next to the current
//! directory, which we then decompress with `gzip -dc`. Both are handled.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};
use pathwise_emit::lcov::LcovFile;
use serde::Deserialize;

/// Coverage gcov measured for one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MeasuredFunction {
    pub name: String,
    /// Source file as gcov names it.
    pub file: String,
    /// Execution count of each line holding code of the function.
    pub lines: BTreeMap<u32, u64>,
    /// Branch sides (gcov "branches", exception edges excluded).
    pub branches: u64,
    /// Branch sides taken at least once.
    pub branches_taken: u64,
    /// Per line: (branches, branches taken).
    pub branch_lines: BTreeMap<u32, (u64, u64)>,
}

impl MeasuredFunction {
    /// Lines executed at least once.
    pub fn lines_covered(&self) -> impl Iterator<Item = u32> + '_ {
        self.lines.iter().filter(|(_, &c)| c > 0).map(|(&l, _)| l)
    }
}

/// Everything gcov reported, by function name (one translation unit, so
/// names are unique).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GcovReport {
    pub functions: BTreeMap<String, MeasuredFunction>,
    /// Every source file gcov reports (the test harness too), by gcov's
    /// name for it, with its line, branch and function counts.
    pub files: BTreeMap<String, LcovFile>,
}

#[derive(Deserialize)]
struct Document {
    #[serde(default)]
    files: Vec<File>,
}

#[derive(Deserialize)]
struct File {
    file: String,
    #[serde(default)]
    lines: Vec<Line>,
    #[serde(default)]
    functions: Vec<Function>,
}

#[derive(Deserialize)]
struct Line {
    line_number: u32,
    count: u64,
    #[serde(default)]
    branches: Vec<Branch>,
    /// Absent before gcc 12: then the function is found by line range.
    function_name: Option<String>,
}

#[derive(Deserialize)]
struct Branch {
    count: u64,
    #[serde(default)]
    throw: bool,
}

#[derive(Deserialize)]
struct Function {
    name: String,
    start_line: u32,
    end_line: u32,
    #[serde(default)]
    execution_count: u64,
}

/// The function owning `line` of a file: gcov's own attribution if present,
/// else the innermost function whose line range contains it.
fn owner<'a>(line: &'a Line, functions: &'a [Function]) -> Option<&'a str> {
    if let Some(name) = &line.function_name {
        return Some(name);
    }
    functions
        .iter()
        .filter(|f| f.start_line <= line.line_number && line.line_number <= f.end_line)
        .min_by_key(|f| f.end_line - f.start_line)
        .map(|f| f.name.as_str())
}

/// Parse gcov's JSON output: one or more concatenated documents.
pub fn parse_gcov_json(text: &str) -> Result<GcovReport> {
    let mut report = GcovReport::default();
    for doc in serde_json::Deserializer::from_str(text).into_iter::<Document>() {
        let doc = doc.context("gcov printed JSON this version of pathwise cannot read")?;
        for file in doc.files {
            record_file(&mut report, &file);
            for f in &file.functions {
                // Functions without any executable line still appear (with
                // zero lines), so that "not executed" differs from "unknown".
                report.functions.entry(f.name.clone()).or_insert_with(|| MeasuredFunction {
                    name: f.name.clone(),
                    file: file.file.clone(),
                    ..MeasuredFunction::default()
                });
            }
            for line in &file.lines {
                let Some(name) = owner(line, &file.functions) else { continue };
                let m = report.functions.entry(name.to_string()).or_insert_with(|| MeasuredFunction {
                    name: name.to_string(),
                    file: file.file.clone(),
                    ..MeasuredFunction::default()
                });
                // gcov may list a line once per basic-block group; counts of
                // one line within one function add up.
                *m.lines.entry(line.line_number).or_insert(0) += line.count;
                for b in line.branches.iter().filter(|b| !b.throw) {
                    m.branches += 1;
                    m.branches_taken += u64::from(b.count > 0);
                    let entry = m.branch_lines.entry(line.line_number).or_insert((0, 0));
                    entry.0 += 1;
                    entry.1 += u64::from(b.count > 0);
                }
            }
        }
    }
    Ok(report)
}

/// Add `file`'s counts to the per-file data of `report`.
fn record_file(report: &mut GcovReport, file: &File) {
    let into = report
        .files
        .entry(file.file.clone())
        .or_insert_with(|| LcovFile { path: file.file.clone(), ..LcovFile::default() });
    for f in &file.functions {
        into.functions.entry(f.name.clone()).or_insert((f.start_line, 0)).1 += f.execution_count;
    }
    for line in &file.lines {
        *into.lines.entry(line.line_number).or_insert(0) += line.count;
        let sides = line.branches.iter().filter(|b| !b.throw).map(|b| (line.count > 0).then_some(b.count));
        into.branches.entry(line.line_number).or_default().extend(sides);
    }
    into.branches.retain(|_, sides| !sides.is_empty());
}

/// Run gcov on `gcda` (a path relative to `dir`) from `dir` and parse its
/// JSON, trying `--stdout` first and the `.gcov.json.gz` file second.
pub fn run_gcov(dir: &Path, gcda: &str) -> Result<GcovReport> {
    let out = Command::new("gcov")
        .args(["--json-format", "--stdout", "--branch-probabilities", gcda])
        .current_dir(dir)
        .output()
        .context("cannot run gcov (is it installed and on PATH?)")?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.success() && stdout.trim_start().starts_with('{') {
        return parse_gcov_json(&stdout);
    }
    // Older gcov: no --stdout; it writes NAME.gcov.json.gz into `dir`.
    let out = Command::new("gcov")
        .args(["--json-format", "--branch-probabilities", gcda])
        .current_dir(dir)
        .output()
        .context("cannot run gcov (is it installed and on PATH?)")?;
    if !out.status.success() {
        bail!("gcov failed on {gcda}:\n{}", String::from_utf8_lossy(&out.stderr).trim());
    }
    let mut text = String::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.to_string_lossy().ends_with(".gcov.json.gz") {
            let unzip = Command::new("gzip").arg("-dc").arg(&path).output().context("cannot run gzip")?;
            if !unzip.status.success() {
                bail!("cannot decompress {}", path.display());
            }
            text.push_str(&String::from_utf8_lossy(&unzip.stdout));
            text.push('\n');
            // Keep the directory as replay found it.
            let _ = std::fs::remove_file(&path);
        }
    }
    if text.trim().is_empty() {
        bail!("gcov produced no JSON output for {gcda}");
    }
    parse_gcov_json(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Captured from gcc 12.2's `gcov --json-format --stdout` (trimmed).
    const SAMPLE: &str = r#"{"gcc_version": "12.2.0", "files": [
      {"file": "t.c", "functions": [{"blocks": 3, "end_column": 45, "start_line": 4, "name": "main",
        "blocks_executed": 3, "execution_count": 1, "demangled_name": "main", "start_column": 5, "end_line": 4}],
       "lines": [{"branches": [], "count": 1, "line_number": 4, "unexecuted_block": false, "function_name": "main"}]},
      {"file": "f.c", "functions": [{"blocks": 8, "end_column": 1, "start_line": 2, "name": "f",
        "blocks_executed": 6, "execution_count": 1, "demangled_name": "f", "start_column": 5, "end_line": 8}],
       "lines": [
        {"branches": [], "count": 1, "line_number": 2, "unexecuted_block": false, "function_name": "f"},
        {"branches": [{"fallthrough": true, "count": 0, "throw": false}, {"fallthrough": false, "count": 1, "throw": false},
                      {"fallthrough": true, "count": 0, "throw": false}, {"fallthrough": false, "count": 0, "throw": false}],
         "count": 1, "line_number": 3, "unexecuted_block": true, "function_name": "f"},
        {"branches": [], "count": 0, "line_number": 4, "unexecuted_block": true, "function_name": "f"},
        {"branches": [{"fallthrough": false, "count": 3, "throw": false}, {"fallthrough": true, "count": 1, "throw": false}],
         "count": 4, "line_number": 5, "unexecuted_block": false, "function_name": "f"},
        {"branches": [], "count": 3, "line_number": 6, "unexecuted_block": false, "function_name": "f"},
        {"branches": [], "count": 1, "line_number": 7, "unexecuted_block": false, "function_name": "f"}]}],
      "format_version": "1", "current_working_directory": "/tmp/gcovprobe", "data_file": "t.gcda"}"#;

    #[test]
    fn parses_captured_sample() {
        let r = parse_gcov_json(SAMPLE).unwrap();
        let f = &r.functions["f"];
        assert_eq!(f.file, "f.c");
        assert_eq!(f.lines.keys().copied().collect::<Vec<_>>(), vec![2, 3, 4, 5, 6, 7]);
        assert_eq!(f.lines_covered().collect::<Vec<_>>(), vec![2, 3, 5, 6, 7]);
        assert_eq!((f.branches, f.branches_taken), (6, 3));
        assert_eq!(r.functions["main"].lines.len(), 1);
        let file = &r.files["f.c"];
        assert_eq!(file.functions["f"], (2, 1));
        assert_eq!(
            file.lines.iter().map(|(&l, &c)| (l, c)).collect::<Vec<_>>(),
            [(2, 1), (3, 1), (4, 0), (5, 4), (6, 3), (7, 1)]
        );
        assert_eq!(file.branches[&3], vec![Some(0), Some(1), Some(0), Some(0)]);
        assert_eq!(file.branches[&5], vec![Some(3), Some(1)]);
        assert_eq!(file.branches.len(), 2);
    }

    #[test]
    fn attributes_by_range_without_function_name() {
        let old = SAMPLE.replace(r#", "function_name": "f""#, "").replace(r#", "function_name": "main""#, "");
        let r = parse_gcov_json(&old).unwrap();
        assert_eq!(r.functions["f"].lines.len(), 6);
        assert_eq!(r.functions["main"].lines.len(), 1);
    }

    /// Produce real coverage data with gcc and gcov and check the numbers.
    #[test]
    fn measures_a_real_program() {
        let dir = tempfile::tempdir().unwrap();
        let src = "int f(int a, int b) {\n    if (a > b && b > 0)\n        return a;\n    \
                   for (int i = 0; i < 3; i++)\n        b += i;\n    return b;\n}\n\
                   int main(void) { return f(1, 2) == 5 ? 0 : 1; }\n";
        std::fs::write(dir.path().join("p.c"), src).unwrap();
        let gcc = Command::new("gcc")
            .args(["--coverage", "-O0", "-o", "prog", "p.c"])
            .current_dir(dir.path())
            .status()
            .unwrap();
        assert!(gcc.success());
        assert!(Command::new(dir.path().join("prog")).current_dir(dir.path()).status().unwrap().success());
        let gcda = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .find(|n| n.ends_with(".gcda"))
            .expect("a .gcda file");
        let r = run_gcov(dir.path(), &gcda).unwrap();
        let f = &r.functions["f"];
        // Lines 1 (entry), 2, 4, 5, 6 ran; line 3 (`return a`) did not.
        assert_eq!(f.lines.keys().copied().collect::<Vec<_>>(), vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(f.lines_covered().collect::<Vec<_>>(), vec![1, 2, 4, 5, 6]);
        // `a > b` (2 sides, one taken), `b > 0` (never reached), loop test (both).
        assert_eq!((f.branches, f.branches_taken), (6, 3));
    }
}

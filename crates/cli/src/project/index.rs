//! `OUT/index.json`: one entry per function of a `pathwise project` run
//! (or of `pathwise merge`), which `pathwise replay OUT` follows, a later
//! run reads to reuse unchanged suites, and `--balance-from` reads for
//! each function's time.
//!
//! Paths in the index are relative, so that an output directory can be
//! committed or moved with its project: `root` is the project's root seen
//! from the index's directory, each entry's `file` and include
//! directories are relative to the root, and `dir` and `suite` to the
//! index's directory. Times (`elapsed_ms`) are the only fields that differ
//! between two runs of the same project with the same options, whatever
//! `--jobs` (and `reused`, on a run that reuses).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// The index file's name in an output directory.
pub const FILE: &str = "index.json";

/// The version of the index format.
pub const VERSION: u32 = 1;

/// How a function's run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The search ended by itself: its suite is complete.
    Complete,
    /// A limit stopped the search (its time budget, `--max-tests`, the
    /// run's budget, a signal): the tests found are written.
    Limit,
    /// No suite: unsupported C, a front-end error, an engine error, or
    /// not started (the run's budget ran out, or a signal).
    Failed,
}

/// The function's own predicted coverage (not its callees').
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    pub lines_covered: usize,
    pub lines: usize,
    pub branches_covered: u64,
    pub branches: u64,
}

/// The preprocessor flags the function's file was analysed with, which
/// its tests are built with (paths relative to the root).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flags {
    pub include_dirs: Vec<String>,
    pub defines: Vec<String>,
    /// `-std=...`, `-include FILE` (FILE relative to the root).
    pub extra: Vec<String>,
}

/// One function.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The C file, relative to the root.
    pub file: String,
    pub function: String,
    /// The line of its definition (0 when the file could not be compiled:
    /// then `function` is `*`).
    pub line: u32,
    pub status: Status,
    /// Why it failed, or which limit stopped it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// How the search ended, as `gen`'s summary says it (`stop:`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<String>,
    pub tests: usize,
    pub errors: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
    /// The suite's directory, relative to the index's directory.
    pub dir: String,
    /// Its `NAME_tests.json`, relative to the index's directory; none
    /// when the function failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suite: Option<String>,
    /// The hash of the function's IR, its callees' and its options: a
    /// later run with the same hash reuses the suite.
    pub hash: String,
    /// The suite was kept from an earlier run (not searched again).
    pub reused: bool,
    pub flags: Flags,
    /// Wall time of the function's search (of the earlier run that found
    /// it, when reused).
    pub elapsed_ms: u64,
}

/// Counts over the entries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub functions: usize,
    pub complete: usize,
    pub limit: usize,
    pub failed: usize,
    /// Searched in this run.
    pub searched: usize,
    /// Kept from an earlier run.
    pub reused: usize,
    pub tests: usize,
    pub errors: usize,
}

/// The whole index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Index {
    pub version: u32,
    /// The project's root, relative to the index's directory.
    pub root: String,
    /// `I/N` when the run was one shard of N.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    pub summary: Summary,
    pub functions: Vec<Entry>,
    /// Wall time of the whole run.
    pub elapsed_ms: u64,
}

impl Index {
    /// An index of `functions` (sorted here by file, line and name, so
    /// that the order is the same however the functions were run).
    pub fn new(root: String, shard: Option<String>, mut functions: Vec<Entry>, elapsed_ms: u64) -> Index {
        sort(&mut functions);
        let summary = summarise(&functions);
        Index { version: VERSION, root, shard, summary, functions, elapsed_ms }
    }

    /// Read `DIR/index.json` (or the file itself, named `*.json`).
    pub fn load(path: &Path) -> Result<Index> {
        let is_file = !path.is_dir() && path.extension().is_some_and(|e| e == "json");
        let file = if is_file { path.to_path_buf() } else { path.join(FILE) };
        let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
        serde_json::from_str(&text).with_context(|| format!("{} is not a Pathwise project index", file.display()))
    }

    /// Write it as `DIR/index.json`.
    pub fn save(&self, dir: &Path) -> Result<PathBuf> {
        let file = dir.join(FILE);
        let mut text = serde_json::to_string_pretty(self).context("cannot serialise the index")?;
        text.push('\n');
        std::fs::write(&file, text).with_context(|| format!("cannot write {}", file.display()))?;
        Ok(file)
    }

    /// The entry of `function` of `file`, if any.
    pub fn get(&self, file: &str, function: &str) -> Option<&Entry> {
        self.functions.iter().find(|e| e.file == file && e.function == function)
    }
}

/// Sort entries by file, line and function name.
pub fn sort(entries: &mut [Entry]) {
    entries.sort_by(|a, b| (&a.file, a.line, &a.function).cmp(&(&b.file, b.line, &b.function)));
}

/// The counts of `entries`.
pub fn summarise(entries: &[Entry]) -> Summary {
    let count = |s: Status| entries.iter().filter(|e| e.status == s).count();
    let searched = entries.iter().filter(|e| !e.reused && e.status != Status::Failed).count();
    Summary {
        functions: entries.len(),
        complete: count(Status::Complete),
        limit: count(Status::Limit),
        failed: count(Status::Failed),
        searched,
        reused: entries.iter().filter(|e| e.reused).count(),
        tests: entries.iter().map(|e| e.tests).sum(),
        errors: entries.iter().map(|e| e.errors).sum(),
    }
}

/// The suite directory of `function` of `file` (relative to the root)
/// under the output directory: `src/foo.c`, `bar` -> `src_foo.c/bar`.
pub fn suite_dir(file: &str, function: &str) -> String {
    let flat: String = file.trim_start_matches('/').replace(['/', '\\'], "_").replace("..", "__");
    format!("{flat}/{function}")
}

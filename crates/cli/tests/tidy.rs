//! House rules for every crate of the workspace: each Rust file starts with
//! a `//!` doc, files stay under 1500 lines and functions under 150 lines,
//! and the crates depend on each other in one direction, layer by layer.

use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn sources() -> Vec<(PathBuf, String)> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in fs::read_dir(&crates).unwrap() {
        let root = krate.unwrap().path();
        for sub in ["src", "tests", "benches", "examples"] {
            if root.join(sub).is_dir() {
                rust_files(&root.join(sub), &mut files);
            }
        }
    }
    files.sort();
    files.into_iter().map(|p| (p.clone(), fs::read_to_string(&p).unwrap())).collect()
}

#[test]
fn every_module_has_a_doc_comment() {
    for (path, text) in sources() {
        assert!(text.starts_with("//!"), "{} does not start with a `//!` module doc", path.display());
    }
}

#[test]
fn files_are_short() {
    for (path, text) in sources() {
        let n = text.lines().count();
        assert!(n < 1500, "{} has {n} lines", path.display());
    }
}

/// Functions are found by a line whose trimmed text starts a `fn` item and
/// ends with `{`; the function ends at the next line closing a brace at the
/// same indentation. Good enough for rustfmt-formatted code.
#[test]
fn functions_are_short() {
    for (path, text) in sources() {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let is_fn = ["fn ", "pub fn ", "pub(crate) fn ", "pub(super) fn "].iter().any(|p| trimmed.starts_with(p));
            if !is_fn || line.trim_end().ends_with(';') {
                continue;
            }
            let indent = line.len() - trimmed.len();
            let close = format!("{}}}", " ".repeat(indent));
            let end = lines[i..].iter().position(|l| l.starts_with(&close)).map(|k| i + k);
            if let Some(end) = end {
                let len = end - i + 1;
                assert!(len < 150, "{}:{}: function has {len} lines", path.display(), i + 1);
            }
        }
    }
}

/// The layers of the workspace, lowest first: a crate's `[dependencies]`
/// name only crates of lower layers (tests and benchmarks may use any).
/// The emitters read the suite's plain data, never the engine.
const LAYERS: &[&[&str]] = &[
    &["pathwise-ir", "pathwise-expr"],
    &["pathwise-cfront", "pathwise-suite", "pathwise-solver-z3"],
    &["pathwise-engine", "pathwise-emit"],
    &["pathwise-paths", "pathwise-vc"],
    &["pathwise-cli"],
];

#[test]
fn crates_depend_on_lower_layers_only() {
    let layer = |name: &str| LAYERS.iter().position(|l| l.contains(&name));
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut wrong = Vec::new();
    let mut seen = 0;
    for krate in fs::read_dir(&crates).unwrap() {
        let manifest = krate.unwrap().path().join("Cargo.toml");
        let Ok(text) = fs::read_to_string(&manifest) else { continue };
        let name = text.lines().find_map(|l| l.strip_prefix("name = \"")).and_then(|n| n.strip_suffix('"')).unwrap();
        let Some(own) = layer(name) else {
            wrong.push(format!("{name}: in no layer"));
            continue;
        };
        seen += 1;
        let mut in_deps = false;
        for line in text.lines() {
            if line.starts_with('[') {
                in_deps = line == "[dependencies]";
            } else if let (true, Some(dep)) = (in_deps, line.split(['.', ' ', '=']).next()) {
                if dep.starts_with("pathwise-") && layer(dep).is_none_or(|l| l >= own) {
                    wrong.push(format!("{name} depends on {dep}"));
                }
            }
        }
    }
    assert_eq!(seen, LAYERS.iter().map(|l| l.len()).sum::<usize>());
    assert!(wrong.is_empty(), "{wrong:?}");
}

//! Names and compact descriptions shared by the C and JSON emitters.
//!
//! Keeping these in one place guarantees that a test's comment in the C file
//! and its JSON record name the same parameters and describe the same path.

use std::collections::HashSet;

use pathwise_ir::{Loc, Shape, SrcVar};
use pathwise_suite::{PathStep, TestSuite};

/// The name of parameter `index` in JSON and comments: its C name, or
/// `argN` (1-based) for an unnamed parameter.
pub fn param_name(index: usize, src: &SrcVar) -> String {
    if src.name.is_empty() {
        format!("arg{}", index + 1)
    } else {
        src.name.clone()
    }
}

/// Whether a parameter is passed as an input array rather than a scalar or
/// a pointer into the test's heap. (`Shape::Array` never describes a
/// parameter in C, which decays arrays to pointers; treat it like a pointer
/// if a front end reports one.)
pub fn is_array_param(src: &SrcVar) -> bool {
    matches!(src.shape, Shape::Pointer | Shape::Array(_))
}

/// C identifiers for the locals holding each parameter's input in a test.
///
/// The parameter's own name reads best, but it must not shadow a global the
/// test checks after the call, the function under test, or the harness's own
/// `pathwise_` names; in those cases (and for unnamed parameters) the local
/// is called `pathwise_in_NAME`.
pub fn param_locals(suite: &TestSuite) -> Vec<String> {
    let mut taken: HashSet<&str> = suite.globals.iter().map(|g| g.src.name.as_str()).collect();
    taken.insert(suite.function.as_str());
    taken.insert("main");
    suite
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let name = param_name(i, p);
            if p.name.is_empty() || taken.contains(name.as_str()) || name.starts_with("pathwise_") {
                format!("pathwise_in_{name}")
            } else {
                name
            }
        })
        .collect()
}

/// The file name of a location (full, as the front end recorded it).
pub fn file_of(files: &[String], loc: Loc) -> &str {
    files.get(loc.file as usize).map(String::as_str).unwrap_or("?")
}

/// `file:line:col`, or `?` for a missing location.
pub fn loc_string(files: &[String], loc: Loc) -> String {
    if loc.is_none() {
        return "?".to_string();
    }
    format!("{}:{}:{}", file_of(files, loc), loc.line, loc.col)
}

/// `base:line` with the file's base name only: compact, for comments.
pub fn short_loc(files: &[String], loc: Loc) -> String {
    if loc.is_none() {
        return "?".to_string();
    }
    let file = file_of(files, loc);
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    format!("{base}:{}", loc.line)
}

/// One decision, compactly: `merge.c:19 T`, with ` [it 2]` for the second
/// iteration of its innermost loop and ` (in g)` for a decision of a callee.
/// `with_col` adds the column (`merge.c:19:12 T`), for lines holding several
/// conditions (`a && b`).
pub fn step_summary(suite: &TestSuite, step: &PathStep, with_col: bool) -> String {
    let mut loc = short_loc(&suite.files, step.loc);
    if with_col && !step.loc.is_none() {
        loc.push_str(&format!(":{}", step.loc.col));
    }
    let mut s = format!("{loc} {}", if step.taken { 'T' } else { 'F' });
    if let Some((_, iter)) = step.loop_iter {
        s.push_str(&format!(" [it {iter}]"));
    }
    if step.func != suite.function {
        s.push_str(&format!(" (in {})", step.func));
    }
    s
}

/// Make text safe inside a C block comment: no premature `*/`, and no
/// `/*` (gcc's `-Wcomment` warns about it; an input string `"l/*$"`).
pub fn comment_safe(text: &str) -> String {
    text.replace("*/", "* /").replace("/*", "/ *")
}

#[cfg(test)]
mod comment_tests {
    #[test]
    fn comments_never_open_or_close_inside() {
        let safe = super::comment_safe("re = \"l/*$\", end */ and /*/");
        assert!(!safe.contains("/*") && !safe.contains("*/"), "{safe}");
    }
}

/// Compact descriptions of all steps of a path; a step shows its column
/// when another condition of the same line appears on the path.
pub fn path_summary(suite: &TestSuite, path: &[PathStep]) -> Vec<String> {
    // Lines where the path decides at more than one column (linear: a
    // path of a 100,000-iteration loop has as many steps).
    let mut cols: std::collections::HashMap<(u32, u32), (u32, bool)> = std::collections::HashMap::new();
    for step in path {
        let e = cols.entry((step.loc.file, step.loc.line)).or_insert((step.loc.col, false));
        e.1 |= e.0 != step.loc.col;
    }
    path.iter().map(|step| step_summary(suite, step, cols[&(step.loc.file, step.loc.line)].1)).collect()
}

//! Names and compact descriptions shared by the C and JSON emitters.
//!
//! Keeping these in one place guarantees that a test's comment in the C file
//! and its JSON record name the same parameters and describe the same path.

use std::collections::HashSet;
use std::fmt::Write as _;

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
    let mut out = String::new();
    push_short_loc(&mut out, files, loc);
    out
}

/// [`short_loc`] onto `out`.
fn push_short_loc(out: &mut String, files: &[String], loc: Loc) {
    if loc.is_none() {
        out.push('?');
        return;
    }
    let file = file_of(files, loc);
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let _ = write!(out, "{base}:{}", loc.line);
}

/// One decision onto `out`, compactly: `merge.c:19 T`, with ` [it 2]` for
/// the second iteration of its innermost loop and ` (in g)` for a decision
/// of a callee. `with_col` adds the column (`merge.c:19:12 T`), for lines
/// holding several conditions (`a && b`).
fn push_step_summary(out: &mut String, suite: &TestSuite, step: &PathStep, with_col: bool) {
    push_short_loc(out, &suite.files, step.loc);
    if with_col && !step.loc.is_none() {
        let _ = write!(out, ":{}", step.loc.col);
    }
    out.push_str(if step.taken { " T" } else { " F" });
    if let Some((_, iter)) = step.loop_iter {
        let _ = write!(out, " [it {iter}]");
    }
    if *step.func != *suite.function {
        let _ = write!(out, " (in {})", step.func);
    }
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

/// The compact description of each step of a path (a step shows its
/// column when another condition of the same line appears on the path),
/// passed to `each` in a buffer reused from step to step: a large suite's
/// test file describes hundreds of thousands of steps.
pub fn for_each_step_summary(suite: &TestSuite, path: &[PathStep], mut each: impl FnMut(&str)) {
    // Lines where the path decides at more than one column (linear: a
    // path of a 100,000-iteration loop has as many steps).
    let mut cols: std::collections::HashMap<(u32, u32), (u32, bool)> = std::collections::HashMap::new();
    for step in path {
        let e = cols.entry((step.loc.file, step.loc.line)).or_insert((step.loc.col, false));
        e.1 |= e.0 != step.loc.col;
    }
    let mut buf = String::new();
    for step in path {
        buf.clear();
        push_step_summary(&mut buf, suite, step, cols[&(step.loc.file, step.loc.line)].1);
        each(&buf);
    }
}

/// The C function of each test, in test order, named for what it checks:
/// `pathwise_test_parse_int_signed_overflow_line_22` (the function, the
/// error's kind and line), `pathwise_test_find_returns_minus_1` (the
/// value returned, an enumeration's by its constant's name:
/// `pathwise_test_next_returns_GREEN`), `pathwise_test_reset_case` (no
/// value returned, or a pointer); `_2`, `_3`, ... on the second, third
/// test of the same name. Only the suite decides the names, so they are
/// the same from run to run; the JSON gives each test's (`name`).
pub fn test_names(suite: &TestSuite) -> Vec<String> {
    use pathwise_suite::{ErrorKind, Outcome};
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let f = identifier_part(&suite.function);
    suite
        .tests
        .iter()
        .map(|t| {
            let what = match (&t.outcome, t.ret, &suite.ret) {
                (Outcome::Error(e), ..) => {
                    let kind = match e.kind {
                        ErrorKind::Exit(status) => format!("exit_{}", number_part(status.into())),
                        kind => kind.name().replace('-', "_"),
                    };
                    format!("{kind}_line_{}", e.loc.line)
                }
                (Outcome::Returned, Some(v), Some(ret)) if !ret.scalar.ty.is_float() => {
                    let v = crate::literal::normalize(v, ret.scalar);
                    let e = suite.enums.iter().find(|e| e.c_name == ret.c_scalar);
                    match e.and_then(|e| e.name_of(v)) {
                        Some(name) => format!("returns_{name}"),
                        None => format!("returns_{}", number_part(v)),
                    }
                }
                _ => "case".to_string(),
            };
            let base = format!("pathwise_test_{f}_{what}");
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            if *n == 1 {
                base
            } else {
                format!("{base}_{n}")
            }
        })
        .collect()
}

/// A number as part of an identifier: `7`, `minus_1`.
fn number_part(v: i128) -> String {
    if v < 0 {
        format!("minus_{}", v.unsigned_abs())
    } else {
        v.to_string()
    }
}

/// A name as part of an identifier (C names already are).
fn identifier_part(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

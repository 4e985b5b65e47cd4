//! The feature-test macros a C file defines before its first `#include`
//! (`#define _GNU_SOURCE`): they choose what the C library's headers
//! declare (`memrchr`, `strsep`...), so a test file that includes the code
//! after a header of its own must define them first, or the code would see
//! other declarations than when it is built alone (an undeclared
//! `memrchr` returns an `int`).

/// The `#define` lines of feature-test macros that `text` has before its
/// first `#include`, as written (a value kept: `_POSIX_C_SOURCE 200809L`),
/// and `#undef __SIZEOF_INT128__` when the file tests that macro: Pathwise
/// preprocesses without it (it has no 128-bit integers), so the code
/// takes its portable branch, and the tests must build that branch too.
pub fn feature_macros(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    if text.contains(crate::preprocess::NO_INT128) {
        out.push(format!("#undef {}", crate::preprocess::NO_INT128));
    }
    for line in text.lines() {
        let Some(directive) = line.trim_start().strip_prefix('#') else { continue };
        let directive = directive.trim_start();
        if directive.starts_with("include") {
            break;
        }
        let Some(rest) = directive.strip_prefix("define") else { continue };
        if !rest.starts_with([' ', '\t']) {
            continue;
        }
        let rest = rest.trim();
        let name = rest.split([' ', '\t', '(']).next().unwrap_or("");
        // A comment after the definition is dropped with its value's
        // surrounding blanks.
        let rest = rest.split("/*").next().unwrap_or(rest).split("//").next().unwrap_or(rest).trim();
        if is_feature_macro(name) && !rest.contains('(') {
            out.push(format!("#define {rest}"));
        }
    }
    out
}

/// glibc's feature-test macros (`<features.h>`).
fn is_feature_macro(name: &str) -> bool {
    (name.starts_with('_') && name.ends_with("_SOURCE"))
        || matches!(name, "_FILE_OFFSET_BITS" | "_TIME_BITS" | "_REENTRANT" | "_THREAD_SAFE" | "_XOPEN_SOURCE_EXTENDED")
}

#[cfg(test)]
mod tests {
    use super::feature_macros;

    #[test]
    fn only_feature_macros_before_the_first_include() {
        let text = "/* a file */\n#define _GNU_SOURCE\n# define _POSIX_C_SOURCE 200809L /* POSIX */\n#define N 4\n\
                    #include <string.h>\n#define _DEFAULT_SOURCE\n";
        assert_eq!(feature_macros(text), ["#define _GNU_SOURCE", "#define _POSIX_C_SOURCE 200809L"]);
        assert!(feature_macros("#include <stdio.h>\n#define _GNU_SOURCE\n").is_empty());
        let guarded = "#include <stdint.h>\n#ifdef __SIZEOF_INT128__\n#endif\n";
        assert_eq!(feature_macros(guarded), ["#undef __SIZEOF_INT128__"]);
    }
}

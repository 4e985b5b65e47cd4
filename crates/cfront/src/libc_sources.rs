//! C library functions written in C (`cfront/libc/*.c`) and lowered with
//! a unit that calls them without defining them, as glibc 2.36 computes
//! them: `qsort` and `bsearch`, whose comparator is code of the unit that
//! the engine can only call from code, and string and arithmetic functions
//! that are short loops over the modelled ones (`strtok` over `strspn` and
//! `strcspn`), so that their results stay symbolic without a model of
//! their own. Each file is appended as a system header (line-marker flag
//! 3): its functions are kept only when called, and the emitters and
//! `replay` leave them out like other library code, while the tests link
//! the real library.

use crate::DataModel;

/// One file of library code and the functions it defines.
struct Source {
    file: &'static str,
    text: &'static str,
    /// The library functions it defines: it is appended when the unit
    /// uses one of them without defining it.
    names: &'static [&'static str],
    /// Its own helpers: a unit that defines any of them (or of `names`)
    /// gets none of the file.
    helpers: &'static [&'static str],
}

const SOURCES: &[Source] = &[
    Source {
        file: "search.c",
        text: include_str!("../libc/search.c"),
        names: &["qsort", "bsearch"],
        helpers: &["pathwise_msort"],
    },
    Source { file: "strtok.c", text: include_str!("../libc/strtok.c"), names: &["strtok", "strtok_r"], helpers: &[] },
    Source { file: "strsep.c", text: include_str!("../libc/strsep.c"), names: &["strsep"], helpers: &[] },
    Source { file: "stpcpy.c", text: include_str!("../libc/stpcpy.c"), names: &["stpcpy", "stpncpy"], helpers: &[] },
    Source { file: "memrchr.c", text: include_str!("../libc/memrchr.c"), names: &["memrchr"], helpers: &[] },
    Source { file: "div.c", text: include_str!("../libc/div.c"), names: &["div", "ldiv", "lldiv"], helpers: &[] },
    Source { file: "memmem.c", text: include_str!("../libc/memmem.c"), names: &["memmem"], helpers: &[] },
    Source { file: "strchrnul.c", text: include_str!("../libc/strchrnul.c"), names: &["strchrnul"], helpers: &[] },
    Source {
        file: "strcasestr.c",
        text: include_str!("../libc/strcasestr.c"),
        names: &["strcasestr"],
        helpers: &["pathwise_fold"],
    },
];

/// The library sources to lower with a unit whose preprocessed `text`
/// uses some of their functions without defining them (`PW_SIZE_T`
/// spelled as the data model's `size_t`), or `None`.
pub(crate) fn appended(text: &str, defined: &rustc_hash::FxHashSet<String>, model: DataModel) -> Option<String> {
    // A header declares each function once: a unit uses one only if it
    // names it again (a call, or its address), which spares units that
    // merely include the header a second parse.
    let mentions = |name: &str| {
        let word = |(i, _): &(usize, &str)| {
            let before = text[..*i].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
            let after = text[i + name.len()..].chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_');
            !before && !after
        };
        text.match_indices(name).filter(word).count() >= 2
    };
    let size_t = model.size_t().spelling();
    let mut out = String::new();
    for s in SOURCES {
        let wanted = s.names.iter().any(|n| mentions(n) && !defined.contains(*n));
        if !wanted || s.names.iter().chain(s.helpers).any(|n| defined.contains(*n)) {
            continue;
        }
        let code = without_comments(s.text).replace("PW_SIZE_T", size_t);
        out.push_str(&format!("\n# 1 \"<pathwise-libc>/{}\" 3\n{code}", s.file));
    }
    (!out.is_empty()).then_some(out)
}

/// `src` with its `/* */` comments blanked (newlines kept, so that lines
/// keep their numbers): the parser reads preprocessed text.
fn without_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("*/").map_or(rest.len(), |j| i + j + 2);
        out.extend(rest[i..end].chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

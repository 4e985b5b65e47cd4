//! Finding the source files a suite names, and naming them for reports.
//!
//! A suite's JSON records its C file relative to the suite's directory
//! (`source`), but its locations name files as the preprocessor did when
//! `gen` ran: relative to `gen`'s working directory (`examples/merge.c`,
//! `examples/../tests/bench/merge.c` for a file it includes), which the
//! suite does not record. That directory is, as a rule, an ancestor of the
//! source's directory (`gen examples/merge.c` from the repository root), so
//! a relative name is looked up against the ancestors of the source's
//! directory, nearest first, then against the current directory.
//!
//! Reports name files relative to the current directory (a repository's
//! root, from which CI runs `pathwise report`: SARIF consumers and lcov
//! readers resolve them there), or absolutely when they lie outside it.

use std::path::{Component, Path, PathBuf};

/// Resolves the file names of one suite.
#[derive(Clone, Debug)]
pub struct Resolver {
    /// The suite's C file, when it exists.
    source: Option<PathBuf>,
}

impl Resolver {
    /// For the suite in `suite_dir` whose JSON's `source` is `source`.
    pub fn new(suite_dir: &Path, source: Option<&str>) -> Resolver {
        let source = source.and_then(|s| suite_dir.join(s).canonicalize().ok());
        Resolver { source }
    }

    /// The suite's C file, when it exists.
    pub fn source(&self) -> Option<&Path> {
        self.source.as_deref()
    }

    /// The existing file the suite means by `name` (empty: its source).
    pub fn resolve(&self, name: &str) -> Option<PathBuf> {
        if name.is_empty() {
            return self.source.clone();
        }
        let path = Path::new(name);
        if path.is_absolute() {
            return path.canonicalize().ok();
        }
        let bases = self.source.iter().flat_map(|s| s.parent().into_iter().flat_map(Path::ancestors));
        let cwd = std::env::current_dir().ok();
        bases.chain(cwd.as_deref()).map(|b| b.join(path)).find(|p| p.is_file()).and_then(|p| p.canonicalize().ok())
    }

    /// How reports name `name`: relative to the current directory when the
    /// file is found under it, else its absolute path; the name as the
    /// suite gives it when the file is not found.
    pub fn shown(&self, name: &str) -> String {
        match self.resolve(name) {
            Some(path) => relative_to_cwd(&path),
            None => name.to_string(),
        }
    }
}

/// `path` relative to the current directory, with `/` separators, when it
/// lies under it; otherwise as given.
pub fn relative_to_cwd(path: &Path) -> String {
    let cwd = std::env::current_dir().ok().and_then(|c| c.canonicalize().ok());
    let rel = cwd.as_deref().and_then(|c| path.strip_prefix(c).ok());
    match rel {
        Some(rel) => rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"),
        None => path.to_string_lossy().into_owned(),
    }
}

/// A URI reference for a file named as [`Resolver::shown`] names it: a
/// relative path as it is, an absolute one as a `file://` URI; characters
/// outside RFC 3986's unreserved set and `/` are percent-encoded.
pub fn uri_of(shown: &str) -> String {
    let path = Path::new(shown);
    let mut out = String::new();
    if path.is_absolute() {
        out.push_str("file://");
    }
    let normal: Vec<String> = path
        .components()
        .filter_map(|c| match c {
            Component::RootDir => Some(String::new()),
            Component::CurDir => None,
            other => Some(other.as_os_str().to_string_lossy().into_owned()),
        })
        .collect();
    for byte in normal.join("/").bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(uri_of("tests/c/errors.c"), "tests/c/errors.c");
        assert_eq!(uri_of("/tmp/my dir/a+b.c"), "file:///tmp/my%20dir/a%2Bb.c");
    }

    #[test]
    fn resolves_against_the_sources_ancestors() {
        let root = tempfile::tempdir().unwrap();
        let repo = root.path().join("repo");
        std::fs::create_dir_all(repo.join("src/lib")).unwrap();
        std::fs::create_dir_all(repo.join("out")).unwrap();
        std::fs::write(repo.join("src/main.c"), "").unwrap();
        std::fs::write(repo.join("src/lib/util.h"), "").unwrap();
        let r = Resolver::new(&repo.join("out"), Some("../src/main.c"));
        let canon = |p: &str| repo.join(p).canonicalize().unwrap();
        assert_eq!(r.resolve(""), Some(canon("src/main.c")));
        assert_eq!(r.resolve("src/main.c"), Some(canon("src/main.c")));
        assert_eq!(r.resolve("src/../src/lib/util.h"), Some(canon("src/lib/util.h")));
        assert_eq!(r.resolve("no/such.c"), None);
        assert_eq!(r.shown("no/such.c"), "no/such.c");
    }
}

//! The clang JSON Compilation Database (`compile_commands.json`, written by
//! CMake, Meson and Bear): where it is, and each C file's own preprocessor
//! flags.
//!
//! An entry has a `file`, a `directory` its relative paths are read from
//! (itself relative to the database's directory when not absolute: a
//! database kept in a repository may say `"."`), and the compiler's
//! command line, either as `arguments` (a list) or as `command` (one
//! string, split as a POSIX shell does, with `shlex`). The flags that
//! change what the preprocessor sees are kept: `-I`, `-isystem`, `-iquote`
//! (all searched as `-I`), `-D`, `-U`, `-std=` and `-include`; the others
//! (`-c`, `-o`, warnings, optimisation) do not matter to the analysis.
//! A file listed twice keeps its first entry; files that are not C
//! (`.cc`, `.cpp`, `.S`) are left out.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use serde::Deserialize;

/// One entry as the JSON spells it.
#[derive(Deserialize)]
struct RawEntry {
    directory: Option<String>,
    file: String,
    #[serde(default)]
    arguments: Option<Vec<String>>,
    #[serde(default)]
    command: Option<String>,
}

/// The preprocessor flags of one file, paths absolute.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub include_dirs: Vec<PathBuf>,
    /// `NAME`, `NAME=VALUE`, or `-UNAME`, in command-line order.
    pub defines: Vec<String>,
    /// `-std=...`, and `-include` followed by its file.
    pub extra: Vec<String>,
}

/// A C file of the database with its flags.
#[derive(Clone, Debug)]
pub struct Unit {
    /// Absolute (as the database resolves it; not canonicalised).
    pub file: PathBuf,
    pub flags: Flags,
}

/// The database found from the `project` argument: the file itself, or
/// `DIR/compile_commands.json`, or `DIR/build/compile_commands.json`.
pub fn locate(arg: &Path) -> Result<PathBuf> {
    if arg.is_file() {
        return Ok(arg.to_path_buf());
    }
    if arg.is_dir() {
        for candidate in [arg.join("compile_commands.json"), arg.join("build").join("compile_commands.json")] {
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
        bail!(
            "no compile_commands.json in {} or {} (CMake writes one with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON; \
             Bear with `bear -- make`)",
            arg.display(),
            arg.join("build").display()
        );
    }
    bail!("cannot read {}: no such file or directory", arg.display())
}

/// Read the database at `path`: its C files in the order it lists them.
pub fn load(path: &Path) -> Result<Vec<Unit>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let raw: Vec<RawEntry> = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a JSON compilation database (an array of entries)", path.display()))?;
    let base = std::path::absolute(path)?.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut units: Vec<Unit> = Vec::new();
    for (i, e) in raw.into_iter().enumerate() {
        let unit = unit(&base, e).with_context(|| format!("{}: entry {}", path.display(), i + 1))?;
        let is_c = unit.file.extension().is_some_and(|x| x == "c" || x == "i");
        if is_c && !units.iter().any(|u| u.file == unit.file) {
            units.push(unit);
        }
    }
    if units.is_empty() {
        bail!("{} lists no C file", path.display());
    }
    Ok(units)
}

/// One entry resolved against `base`, the database's directory.
fn unit(base: &Path, e: RawEntry) -> Result<Unit> {
    let dir = match &e.directory {
        Some(d) => lexical_join(base, Path::new(d)),
        None => base.to_path_buf(),
    };
    let args = match (e.arguments, e.command) {
        (Some(a), _) => a,
        (None, Some(c)) => shlex::split(&c).ok_or_else(|| anyhow!("cannot split its `command`: {c}"))?,
        (None, None) => bail!("it has neither `arguments` nor `command`"),
    };
    Ok(Unit { file: lexical_join(&dir, Path::new(&e.file)), flags: flags(&dir, args.get(1..).unwrap_or_default())? })
}

/// The preprocessor flags among a compiler's arguments (without the
/// compiler itself), relative paths read from `dir`.
pub fn flags(dir: &Path, args: &[String]) -> Result<Flags> {
    let mut out = Flags::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| -> Result<String> {
            match a.strip_prefix(flag).filter(|v| !v.is_empty()) {
                Some(v) => Ok(v.trim_start_matches('=').to_string()),
                None => it.next().cloned().ok_or_else(|| anyhow!("`{flag}` without a value")),
            }
        };
        if let Some(flag) = ["-isystem", "-iquote", "-I"].into_iter().find(|f| a.starts_with(f)) {
            out.include_dirs.push(lexical_join(dir, Path::new(&value(flag)?)));
        } else if a.starts_with("-include") {
            let file = value("-include")?;
            out.extra.extend(["-include".to_string(), lexical_join(dir, Path::new(&file)).display().to_string()]);
        } else if a.starts_with("-D") {
            out.defines.push(value("-D")?);
        } else if a.starts_with("-U") {
            out.defines.push(format!("-U{}", value("-U")?));
        } else if a.starts_with("-std=") {
            out.extra.push(a.clone());
        }
    }
    Ok(out)
}

/// `rel` read from `dir`, with `.` and `..` resolved by name (the files
/// need not exist yet; symbolic links are not followed).
pub fn lexical_join(dir: &Path, rel: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in dir.join(rel).components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn flags_of_both_spellings() {
        let dir = Path::new("/p/build");
        let f = flags(
            dir,
            &strings(&[
                "-c", "-I../inc", "-I", "/abs", "-isystem", "sys", "-DA=1", "-D", "B", "-UC", "-std=c99", "-include",
                "cfg.h", "-O2", "-o", "x.o", "x.c",
            ]),
        )
        .unwrap();
        assert_eq!(f.include_dirs, vec![PathBuf::from("/p/inc"), PathBuf::from("/abs"), PathBuf::from("/p/build/sys")]);
        assert_eq!(f.defines, strings(&["A=1", "B", "-UC"]));
        assert_eq!(f.extra, strings(&["-std=c99", "-include", "/p/build/cfg.h"]));
        assert!(flags(dir, &strings(&["-I"])).is_err());
    }

    #[test]
    fn entries_resolve_against_their_directory() {
        let e = RawEntry {
            directory: Some("src".into()),
            file: "a.c".into(),
            arguments: None,
            command: Some("cc -I'../my inc' -c a.c".into()),
        };
        let u = unit(Path::new("/proj"), e).unwrap();
        assert_eq!(u.file, PathBuf::from("/proj/src/a.c"));
        assert_eq!(u.flags.include_dirs, vec![PathBuf::from("/proj/my inc")]);
    }
}

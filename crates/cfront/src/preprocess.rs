//! Preprocessing with the system C preprocessor (`gcc -E`).
//!
//! The command line is lang-c's gcc configuration ([`Config::with_gcc`]) plus
//! `-I` for a private temporary directory holding `pathwise.h` (so that every
//! input can include it), `-I` for each user include directory,
//! `-D__PATHWISE__`, `-U__SIZEOF_INT128__` and the user's defines. Sources given as text are piped
//! to `gcc -E -x c -`. Files named `*.i` are already preprocessed and are
//! read as they are. We run the command ourselves rather than through
//! `lang_c::driver::parse` so that gcc's own `file:line:col: error:` messages
//! (missing headers, `#error`) become structured diagnostics.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

use lang_c::driver::Config;

use crate::{DataModel, Diagnostic, FrontendOptions, PATHWISE_H};

/// The predefined macro that says `__int128` exists, undefined for the
/// code Pathwise reads.
pub(crate) const NO_INT128: &str = "__SIZEOF_INT128__";

/// What to preprocess.
pub(crate) enum Input<'s> {
    File(&'s Path),
    Text(&'s str),
}

/// A temporary directory containing `pathwise.h`, removed on drop.
struct HeaderDir {
    path: PathBuf,
}

impl HeaderDir {
    fn create() -> std::io::Result<HeaderDir> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("pathwise-cfront-{}-{}-{}", std::process::id(), n, nanos));
        std::fs::create_dir_all(&path)?;
        let dir = HeaderDir { path };
        std::fs::write(dir.path.join("pathwise.h"), PATHWISE_H)?;
        Ok(dir)
    }
}

impl Drop for HeaderDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The preprocessor's output.
pub(crate) struct Preprocessed {
    pub text: String,
    /// The temporary directory that held `pathwise.h` (already removed):
    /// line markers naming it are reported as plain `pathwise.h`.
    pub header_dir: String,
}

/// Runs the preprocessor; `display` is the main file's name in diagnostics.
pub(crate) fn preprocess(
    input: Input<'_>,
    display: &str,
    opts: &FrontendOptions,
) -> Result<Preprocessed, Vec<Diagnostic>> {
    let whole_file = |message: String| vec![Diagnostic::new(display, 0, 0, message)];
    if let Input::File(path) = input {
        if let Err(e) = std::fs::metadata(path) {
            return Err(whole_file(format!("cannot open source file: {e}")));
        }
    }
    if let Input::File(path) = input {
        if is_preprocessed(path) {
            return read_preprocessed(path).map_err(whole_file);
        }
    }
    let dir = HeaderDir::create().map_err(|e| whole_file(format!("cannot create a temporary directory: {e}")))?;
    let config = Config::with_gcc();
    let mut cmd = Command::new(&config.cpp_command);
    cmd.args(&config.cpp_options);
    if opts.data_model == DataModel::Ilp32 {
        // The 32-bit headers (gcc-multilib) define `size_t` and friends.
        cmd.arg("-m32");
    }
    cmd.arg("-I").arg(&dir.path);
    for inc in &opts.include_dirs {
        cmd.arg("-I").arg(inc);
    }
    cmd.arg("-D__PATHWISE__");
    // No `__int128` (values are 64 bits at most): code that tests for it
    // takes its portable branch (see `features::feature_macros`).
    cmd.arg(format!("-U{NO_INT128}"));
    // gcc's `__thread` is C11's `_Thread_local`, which the parser knows.
    cmd.arg("-D__thread=_Thread_local");
    for d in &opts.defines {
        if d.starts_with("-D") || d.starts_with("-U") {
            cmd.arg(d);
        } else {
            cmd.arg(format!("-D{d}"));
        }
    }
    cmd.args(&opts.extra_args);
    match input {
        Input::File(path) => {
            cmd.arg(path);
        }
        Input::Text(_) => {
            cmd.args(["-x", "c", "-"]);
        }
    }
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child =
        cmd.spawn().map_err(|e| whole_file(format!("cannot run the preprocessor `{}`: {e}", config.cpp_command)))?;
    // Write the input from another thread: gcc may fill its output pipe
    // before it has read all of its input.
    let mut stdin = child.stdin.take();
    let text = match input {
        Input::Text(t) => t.to_string(),
        Input::File(_) => String::new(),
    };
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(text.as_bytes());
        }
        drop(stdin);
    });
    let output = child.wait_with_output().map_err(|e| whole_file(format!("the preprocessor failed: {e}")))?;
    let _ = writer.join();
    let header_dir = dir.path.to_string_lossy().into_owned();
    drop(dir);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        let mut diags = parse_gcc_errors(&stderr, display);
        if diags.is_empty() {
            diags = whole_file(format!("the preprocessor failed: {}", stderr.trim()));
        }
        if opts.data_model == DataModel::Ilp32 && lacks_32bit_support(&stderr) {
            diags.push(Diagnostic::new(display, 0, 0, MULTILIB_HINT));
        }
        return Err(diags);
    }
    // Invalid UTF-8 (only possible in literals, as comments are gone) is
    // replaced rather than rejected; it can only shift columns on its line.
    let text = match String::from_utf8(output.stdout) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Ok(Preprocessed { text: respell_gnu_types(text), header_dir })
}

/// The diagnostic added when `gcc -m32` fails for want of 32-bit support.
pub(crate) const MULTILIB_HINT: &str = "preprocessing for the ILP32 data model (`gcc -E -m32`) failed: \
     the 32-bit C library headers are missing; install gcc-multilib (Debian/Ubuntu: `apt-get install gcc-multilib`)";

/// Whether gcc's errors say that `-m32` is not usable: a header missing
/// from the system include directories (`bits/...`, `gnu/stubs-32.h`: the
/// 32-bit variants live in a separate multilib package) or `-m32` itself
/// rejected.
fn lacks_32bit_support(stderr: &str) -> bool {
    stderr.lines().any(|l| {
        let missing_system_header = l.starts_with("/usr/") && l.contains("No such file or directory");
        missing_system_header || l.contains("stubs-32.h") || l.contains("'-m32'") || l.contains("`-m32'")
    })
}

/// Whether a file is already preprocessed C (`.i`, as in sv-benchmarks):
/// `gcc -E` would output nothing for it, and preprocessing it again could
/// expand identifiers that happen to be predefined macros (`linux`, `unix`).
pub(crate) fn is_preprocessed(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "i")
}

/// Reads a preprocessed file as the preprocessor's output. Its line markers
/// (if any) still map locations to the original files and tell system
/// headers apart.
fn read_preprocessed(path: &Path) -> Result<Preprocessed, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read source file: {e}"))?;
    let text = match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Ok(Preprocessed { text: respell_gnu_types(text), header_dir: String::new() })
}

/// gcc's extended floating types that lang-c does not know, with a
/// respelling of the same length (so that offsets and columns are kept).
/// They become the TS 18661-3 types of the same formats, which lang-c
/// parses and the front end rejects: the respelling only lets the parser
/// through, e.g. i386's `max_align_t` in `<stddef.h>`, and makes a use of
/// the type report "extended floating types" where it is.
const GNU_FLOAT_TYPES: [(&str, &str); 2] = [("__float128", "_Float128 "), ("__float80", "_Float64x")];

/// Replaces the identifiers of [`GNU_FLOAT_TYPES`] outside literals.
fn respell_gnu_types(text: String) -> String {
    if !text.contains("__float") {
        return text;
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut copied) = (0, 0);
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < bytes.len() {
        match bytes[i] {
            q @ (b'"' | b'\'') => {
                // Skip the literal (escapes included); it ends at its line.
                i += 1;
                while i < bytes.len() && bytes[i] != q && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b if is_ident(b) => {
                let start = i;
                while i < bytes.len() && is_ident(bytes[i]) {
                    i += 1;
                }
                if let Some((_, to)) = GNU_FLOAT_TYPES.iter().find(|(from, _)| text[start..i] == **from) {
                    out.push_str(&text[copied..start]);
                    out.push_str(to);
                    copied = i;
                }
            }
            _ => i += 1,
        }
    }
    out.push_str(text.get(copied..).unwrap_or(""));
    out
}

/// Extracts `file:line:col: error: message` lines from gcc's output.
fn parse_gcc_errors(stderr: &str, display: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for line in stderr.lines() {
        for marker in [": fatal error: ", ": error: "] {
            let Some(at) = line.find(marker) else { continue };
            let head = &line[..at];
            let message = line[at + marker.len()..].to_string();
            let mut parts = head.rsplitn(3, ':');
            let (col, lno, file) = (parts.next(), parts.next(), parts.next());
            let diag = match (file, lno.and_then(|l| l.parse().ok()), col.and_then(|c| c.parse().ok())) {
                (Some(file), Some(l), Some(c)) => {
                    let file = if file == "<stdin>" { display } else { file };
                    Diagnostic::new(file, l, c, message)
                }
                _ => Diagnostic::new(display, 0, 0, message),
            };
            out.push(diag);
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_gcc_error_lines() {
        let err = "<stdin>:3:10: fatal error: nope.h: No such file or directory\ncompilation terminated.\n";
        let d = parse_gcc_errors(err, "t.c");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].to_string(), "t.c:3:10: error: nope.h: No such file or directory");
    }

    #[test]
    fn respells_extended_float_types_outside_literals() {
        let t = "__float128 x; \"__float128\" '\\'' __float1280 a__float128 __float80\n";
        let r = respell_gnu_types(t.to_string());
        assert_eq!(r, "_Float128  x; \"__float128\" '\\'' __float1280 a__float128 _Float64x\n");
        assert_eq!(r.len(), t.len());
    }

    #[test]
    fn recognises_missing_multilib_headers() {
        let err = "In file included from <stdin>:1:\n/usr/include/stdio.h:27:10: fatal error: \
                   bits/libc-header-start.h: No such file or directory\n";
        assert!(lacks_32bit_support(err));
        assert!(lacks_32bit_support("/usr/include/features.h:474: fatal error: gnu/stubs-32.h: No such file"));
        assert!(!lacks_32bit_support("<stdin>:3:10: fatal error: nope.h: No such file or directory"));
    }
}

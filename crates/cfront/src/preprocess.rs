//! Preprocessing with the system C preprocessor (`gcc -E`).
//!
//! The command line is lang-c's gcc configuration ([`Config::with_gcc`]) plus
//! `-I` for a private temporary directory holding `pathwise.h` (so that every
//! input can include it), `-I` for each user include directory,
//! `-D__PATHWISE__` and the user's defines. Sources given as text are piped
//! to `gcc -E -x c -`. Files named `*.i` are already preprocessed and are
//! read as they are. We run the command ourselves rather than through
//! `lang_c::driver::parse` so that gcc's own `file:line:col: error:` messages
//! (missing headers, `#error`) become structured diagnostics.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

use lang_c::driver::Config;

use crate::{Diagnostic, FrontendOptions, PATHWISE_H};

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
    cmd.arg("-I").arg(&dir.path);
    for inc in &opts.include_dirs {
        cmd.arg("-I").arg(inc);
    }
    cmd.arg("-D__PATHWISE__");
    for d in &opts.defines {
        if d.starts_with("-D") || d.starts_with("-U") {
            cmd.arg(d);
        } else {
            cmd.arg(format!("-D{d}"));
        }
    }
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
        return Err(diags);
    }
    // Invalid UTF-8 (only possible in literals, as comments are gone) is
    // replaced rather than rejected; it can only shift columns on its line.
    let text = match String::from_utf8(output.stdout) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Ok(Preprocessed { text, header_dir })
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
    Ok(Preprocessed { text, header_dir: String::new() })
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
}

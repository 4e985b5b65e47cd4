//! Compiling the C file with the Pathwise front end and reporting its
//! diagnostics the way compilers do (`file:line:col: error: message`).
//!
//! The front end lowers what it can: a function using an unsupported
//! construct stays a declaration and comes back in `unsupported`. That is
//! only fatal when the function matters — the function under test, the
//! precondition, or a callee the engine then refuses — so the diagnostics
//! are kept and shown at that point rather than up front.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use pathwise_cfront::{Diagnostic, FrontendOptions, UnsupportedFunction};
use pathwise_ir::Program;

/// The text of `pathwise.h`, copied next to the generated tests.
pub const PATHWISE_H: &str = pathwise_cfront::PATHWISE_H;

/// A compiled program and the functions the front end could not lower.
pub struct Frontend {
    pub program: Program,
    pub unsupported: Vec<UnsupportedFunction>,
    /// See [`pathwise_cfront::Compiled::declared_only`].
    pub declared_only: Vec<String>,
    /// See [`pathwise_cfront::Compiled::enums`].
    pub enums: Vec<pathwise_ir::EnumDef>,
    /// See [`pathwise_cfront::Compiled::feature_macros`].
    pub feature_macros: Vec<String>,
}

impl From<pathwise_cfront::Compiled> for Frontend {
    fn from(c: pathwise_cfront::Compiled) -> Frontend {
        Frontend {
            program: c.program,
            unsupported: c.unsupported,
            declared_only: c.declared_only,
            enums: c.enums,
            feature_macros: c.feature_macros,
        }
    }
}

impl Frontend {
    /// Fail with the front end's diagnostic if `name` could not be lowered.
    pub fn check_supported(&self, name: &str, role: &str) -> Result<()> {
        if let Some(u) = self.unsupported.iter().find(|u| u.name == name) {
            eprintln!("{}", show(&u.diagnostic));
            bail!("{role} `{name}` uses a construct Pathwise does not support");
        }
        Ok(())
    }

    /// Diagnostics of unsupported functions that `message` (an engine
    /// error) names as `` `NAME` ``: the reason a call has no body.
    pub fn explain(&self, message: &str) -> Vec<String> {
        self.unsupported
            .iter()
            .filter(|u| message.contains(&format!("`{}`", u.name)))
            .map(|u| show(&u.diagnostic))
            .collect()
    }
}

/// Fail unless `file` is a file that can be compiled: `cannot read F: is
/// a directory` or `...: no such file` (a directory is not "missing").
/// `what` names it in the message (`summary file `).
pub fn check_input(file: &Path, what: &str) -> Result<()> {
    if file.is_dir() {
        bail!("cannot read {what}{}: is a directory (give the C file)", file.display());
    }
    if !file.is_file() {
        bail!("cannot read {what}{}: no such file", file.display());
    }
    Ok(())
}

/// `file:line:col: error: message`, or `file: error: message` for a
/// diagnostic about the whole file.
pub(crate) fn show(d: &Diagnostic) -> String {
    if d.line == 0 {
        format!("{}: error: {}", d.file, d.message)
    } else {
        d.to_string()
    }
}

/// Compile `file` with `-I`/`-D` options; on errors print every diagnostic
/// on stderr and fail.
pub fn compile(file: &Path, include_dirs: &[PathBuf], defines: &[String]) -> Result<Frontend> {
    compile_with(file, include_dirs, defines, pathwise_cfront::DataModel::Lp64)
}

/// [`compile`] with an explicit data model.
pub fn compile_with(
    file: &Path,
    include_dirs: &[PathBuf],
    defines: &[String],
    data_model: pathwise_cfront::DataModel,
) -> Result<Frontend> {
    compile_appended(file, &[], include_dirs, defines, data_model)
}

/// [`compile_with`], the files of `appended` read after `file` as the rest
/// of its translation unit (`gen --summary`).
pub fn compile_appended(
    file: &Path,
    appended: &[PathBuf],
    include_dirs: &[PathBuf],
    defines: &[String],
    data_model: pathwise_cfront::DataModel,
) -> Result<Frontend> {
    let opts = FrontendOptions {
        include_dirs: include_dirs.to_vec(),
        defines: defines.to_vec(),
        data_model,
        extra_args: Vec::new(),
    };
    compile_options(file, appended, &opts)
}

/// [`compile_appended`] with every preprocessor option given
/// (`pathwise project`: a compilation database's `-std` and `-include`).
pub fn compile_options(file: &Path, appended: &[PathBuf], opts: &FrontendOptions) -> Result<Frontend> {
    compile_parts(file, appended, None, opts)
}

/// [`compile`], then the C source `text` named `name` (code Pathwise adds
/// to the unit: see [`crate::main_args`]).
pub fn compile_adding(
    file: &Path,
    (include_dirs, defines): (&[PathBuf], &[String]),
    (name, text): (&str, &str),
) -> Result<Frontend> {
    let opts = FrontendOptions {
        include_dirs: include_dirs.to_vec(),
        defines: defines.to_vec(),
        data_model: pathwise_cfront::DataModel::Lp64,
        extra_args: Vec::new(),
    };
    compile_parts(file, &[], Some((name, text)), &opts)
}

fn compile_parts(
    file: &Path,
    appended: &[PathBuf],
    text: Option<(&str, &str)>,
    opts: &FrontendOptions,
) -> Result<Frontend> {
    match pathwise_cfront::compile_file_appending(file, appended, text, opts) {
        Ok(c) => Ok(Frontend::from(c)),
        Err(diags) => {
            for d in &diags.0 {
                eprintln!("{}", show(d));
            }
            let n = diags.0.len();
            let with = if appended.is_empty() { "" } else { " with its summary files" };
            bail!("{}{with} could not be compiled ({n} error{})", file.display(), if n == 1 { "" } else { "s" })
        }
    }
}

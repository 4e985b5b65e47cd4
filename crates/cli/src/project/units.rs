//! The files of a project compiled once each, the functions each defines,
//! and the hash that tells whether a function changed since a run.
//!
//! A file's functions are those with a body in the file itself (not in a
//! header it includes, nor the C library's modelled code), static ones
//! included, in source order, and those the front end could not lower (they
//! are recorded as failed with its diagnostic). A function `NAME_pre` is
//! `NAME`'s precondition when the unit defines `NAME`, and a function
//! named as a precondition in `pathwise.toml` is one too: neither is
//! tested itself.
//!
//! The hash (SHA-256) covers the printed IR of the function and of every
//! function it or its precondition may call, the globals they address, the
//! unit's structures and enumerations, Pathwise's version and the options:
//! an edit elsewhere in the file leaves it as it was, an edit to a callee
//! changes it. Locations are part of the IR, so an edit that moves the
//! function's lines changes it too (its suite's line numbers would be
//! stale).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use pathwise_cfront::{DataModel, FrontendOptions};
use pathwise_ir::{FuncId, GlobalId, InstKind, Program, RelocTarget};
use sha2::{Digest, Sha256};

use super::compdb;
use crate::frontend::Frontend;

/// One file of the database, compiled.
pub struct CompiledUnit {
    /// Absolute.
    pub file: PathBuf,
    /// Relative to the project's root (absolute when outside it).
    pub rel: String,
    pub flags: compdb::Flags,
    /// The front end's result, or its diagnostics as one message.
    pub frontend: Result<Frontend, String>,
}

/// A function to test.
#[derive(Clone, Debug)]
pub struct Function {
    /// Index of its unit.
    pub unit: usize,
    pub name: String,
    pub line: u32,
    /// The front end's diagnostic when it could not lower the function.
    pub unsupported: Option<String>,
}

/// Compile `unit`, with `preconditions` (a C file) read after it when given.
pub fn compile(unit: &compdb::Unit, root: &Path, preconditions: Option<&Path>) -> CompiledUnit {
    let opts = FrontendOptions {
        include_dirs: unit.flags.include_dirs.clone(),
        defines: unit.flags.defines.clone(),
        data_model: DataModel::Lp64,
        extra_args: unit.flags.extra.clone(),
    };
    let appended: Vec<PathBuf> = preconditions.map(Path::to_path_buf).into_iter().collect();
    let failed = |diags: pathwise_cfront::Diagnostics| {
        format!(
            "the file could not be compiled: {}",
            diags.0.iter().map(crate::frontend::show).collect::<Vec<_>>().join("; ")
        )
    };
    let frontend = if unit.file.is_file() {
        pathwise_cfront::compile_file_with(&unit.file, &appended, &opts).map_err(failed).and_then(|c| {
            // A `main(argc, argv)` is tested as the C runtime calls it, as
            // `gen` does: the unit again, with the arguments' contract.
            match crate::main_args::precondition_for(&c.program, "main") {
                Some(text) => pathwise_cfront::compile_file_appending(
                    &unit.file,
                    &appended,
                    Some((crate::main_args::SOURCE_NAME, &text)),
                    &opts,
                )
                .map_err(failed),
                None => Ok(c),
            }
            .map(Frontend::from)
        })
    } else {
        Err("the file could not be compiled: no such file".to_string())
    };
    CompiledUnit { file: unit.file.clone(), rel: relative_name(&unit.file, root), flags: unit.flags.clone(), frontend }
}

/// `file` relative to `root` with `/` separators, or as it is outside it.
pub fn relative_name(file: &Path, root: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap_or(file);
    rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/")
}

/// The functions of `unit` (index `at`) to test, in source order, less
/// preconditions (`NAME_pre` of a defined `NAME`, and those in `named`).
pub fn functions_of(at: usize, unit: &CompiledUnit, named: &BTreeSet<String>) -> Vec<Function> {
    let Ok(fe) = &unit.frontend else { return Vec::new() };
    let p = &fe.program;
    let main = unit.file.to_string_lossy();
    let mut out: Vec<Function> = p
        .funcs
        .iter()
        .filter(|f| !f.is_declaration() && f.loc.file == 0 && f.loc.line > 0)
        .map(|f| Function { unit: at, name: f.name.clone(), line: f.loc.line, unsupported: None })
        .collect();
    for u in fe.unsupported.iter().filter(|u| u.diagnostic.file == main) {
        let line = p.func_by_name(&u.name).map(|id| p.func(id).loc.line).filter(|&l| l > 0);
        let diagnostic = crate::frontend::show(&u.diagnostic);
        let reason = format!("unsupported C: {}", diagnostic.replace(&*main, &unit.rel));
        out.push(Function {
            unit: at,
            name: u.name.clone(),
            line: line.unwrap_or(u.diagnostic.line),
            unsupported: Some(reason),
        });
    }
    let defined: BTreeSet<&str> = out.iter().map(|f| f.name.as_str()).collect();
    let is_pre = |f: &Function| {
        named.contains(&f.name) || f.name.strip_suffix("_pre").is_some_and(|base| defined.contains(base))
    };
    let mut out: Vec<Function> = out.iter().filter(|f| !is_pre(f)).cloned().collect();
    out.sort_by(|a, b| (a.line, &a.name).cmp(&(b.line, &b.name)));
    out
}

/// The precondition of `name` by convention: `NAME_pre` when the unit
/// defines it, else for `main` the arguments' contract when [`compile`]
/// added it.
pub fn conventional_precondition(fe: &Frontend, name: &str) -> Option<String> {
    let defined = |pre: &str| fe.program.func_by_name(pre).is_some_and(|id| !fe.program.func(id).is_declaration());
    let pre = format!("{name}_pre");
    if defined(&pre) {
        return Some(pre);
    }
    // The contract `compile` added for a `main(argc, argv)`.
    (name == "main" && defined(crate::main_args::PRECONDITION)).then(|| crate::main_args::PRECONDITION.to_string())
}

/// The hash of function `name` (see the module doc): `options` is the
/// text of everything else its suite depends on.
pub fn function_hash(fe: &Frontend, name: &str, precondition: Option<&str>, options: &str) -> String {
    let p = &fe.program;
    let graph = pathwise_ir::analysis::CallGraph::compute(p);
    let mut reached: Vec<FuncId> = [Some(name), precondition]
        .into_iter()
        .flatten()
        .filter_map(|n| p.func_by_name(n))
        .flat_map(|id| graph.reachable_from(id))
        .collect();
    reached.sort();
    reached.dedup();
    let mut h = Sha256::new();
    h.update(format!("pathwise-project-1 {}\n", env!("CARGO_PKG_VERSION")));
    for &f in &reached {
        h.update(pathwise_ir::printer::print_function(p, f));
    }
    for g in globals_used(p, &reached) {
        h.update(format!("{:?}\n", p.globals[g.0 as usize]));
    }
    h.update(format!("{:?}\n{:?}\n", p.structs, fe.enums));
    h.update(options);
    h.finalize().iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// The globals the functions `funcs` take the address of, and those the
/// initial contents of these point to, transitively.
fn globals_used(p: &Program, funcs: &[FuncId]) -> BTreeSet<GlobalId> {
    let mut todo: Vec<GlobalId> = Vec::new();
    for &f in funcs {
        for b in &p.func(f).blocks {
            for inst in &b.insts {
                if let InstKind::AddrGlobal { global } = inst.kind {
                    todo.push(global);
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    while let Some(g) = todo.pop() {
        if seen.insert(g) {
            for r in &p.globals[g.0 as usize].relocs {
                if let RelocTarget::Global(t) = r.target {
                    todo.push(t);
                }
            }
        }
    }
    seen
}

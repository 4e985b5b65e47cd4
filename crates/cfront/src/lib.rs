//! Pathwise C front end: preprocesses C with `gcc -E`, parses it with lang-c
//! and lowers it to the Pathwise IR ([`pathwise_ir::Program`]).
//!
//! Pipeline: `preprocess` (gcc, with `pathwise.h` always on the include
//! path; `.i` files are read as they are) → lang-c parse → lowering, one
//! external declaration at a time in source order (`globals` for
//! declarations, `func` for definitions, which lowers statements (`stmt`,
//! `locals`, `vla` for storage allocated at run time), conditions (`cond`),
//! expressions (`expr`, `ops`, `calls`, `member` for structures) through an
//! IR `builder`); `structs` reads structure and union types and lays them out.
//! Locations are mapped back to the original files by `locations`.
//!
//! Contract with the engine (see the IR crate for the instruction set):
//! - x86 C, LP64 (x86-64, the default) or ILP32 (`-m32`, see
//!   [`DataModel`]): `char` is signed; `_Bool` is an `i8` holding 0 or 1;
//!   enums are `int`; integer semantics are bit-precise (promotions, usual
//!   arithmetic conversions, signedness in the operations).
//! - Every C variable lives in a slot (variable-length arrays: a slot
//!   holding the address of `alloca` storage); parameters are `%0..%n-1`
//!   and are stored into slots named after them at entry. Merged values
//!   (`&&`, `||`, `?:` in value context) go through synthetic slots named
//!   `tmp.N`; compound literals live in slots `lit.N`; string literals are
//!   `const` globals `.str.N`.
//! - An object containing a structure or union (local, global, compound
//!   literal) is a slot or global of bytes (`i8 x size`); members are reached
//!   by `ptradd` and accessed by scalar `load`/`store` of their own IR type,
//!   at any offset of the bytes. A global's `init` then lists its bytes
//!   (scalars little-endian; a null pointer is 8 zero bytes). Structure
//!   assignment copies scalar by scalar (see `structs::cells`).
//! - A pointer parameter or return value to a structure, union or pointer is
//!   a `Shape::Heap` with its full C type (`SrcVar::cty`); `Program::structs`
//!   holds the definitions those types reach.
//! - Every `br` is one atomic condition of the source, located at its first
//!   token; constant conditions are jumps.
//! - Unsupported constructs make only the enclosing function unsupported
//!   (it stays a declaration); genuine C errors in user code are fatal.
//!
//! The front end never panics on any input: lowering runs on its own thread
//! with a large stack and panics are turned into diagnostics.

mod addrconst;
mod bitfields;
mod bitops;
mod builder;
mod calls;
mod cond;
mod consteval;
mod ctypes;
mod enums;
mod expr;
mod features;
mod floats;
mod func;
mod generic;
mod globals;
mod init;
mod libc_sources;
mod literals;
mod locals;
mod locations;
mod member;
mod member_room;
mod ops;
mod packed;
mod preprocess;
mod stmt;
mod structs;
mod typespec;
mod unit;
mod varargs;
mod vla;

use std::fmt;
use std::path::{Path, PathBuf};

use lang_c::ast::ExternalDeclaration;
use lang_c::driver::{parse_preprocessed, Config, SyntaxError};
use pathwise_ir::Program;

use crate::locations::LineMap;
use crate::unit::{BodyState, Unit};

/// The text of `pathwise.h`, always includable by analysed code.
pub const PATHWISE_H: &str = include_str!("../include/pathwise.h");

/// The C data model: the sizes of `long` and of pointers.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum DataModel {
    /// 32-bit x86 (`gcc -m32`): `int`, `long` and pointers are 32 bits,
    /// `long long` 64. `size_t` is `unsigned int`, `ptrdiff_t` is `int`.
    /// Pointers stay 8-byte cells in the IR's memory: only `sizeof` sees 4.
    Ilp32,
    /// x86-64: `long` and pointers are 64 bits.
    #[default]
    Lp64,
}

/// Preprocessor and language settings.
#[derive(Clone, Debug, Default)]
pub struct FrontendOptions {
    /// Passed as `-I` (after the directory holding `pathwise.h`).
    pub include_dirs: Vec<PathBuf>,
    /// Passed as `-D` (`"N=3"` or `"-DN=3"`; `"-UX"` also accepted).
    pub defines: Vec<String>,
    /// The data model; ILP32 preprocesses with `gcc -E -m32`.
    pub data_model: DataModel,
    /// Further preprocessor options, after the definitions: a compilation
    /// database's `-std=...` and `-include FILE` (`pathwise project`).
    pub extra_args: Vec<String>,
}

/// An error with its location in the original source. `line` and `col` are
/// 1-based; 0 means the error concerns the whole file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: impl Into<String>, line: u32, col: u32, message: impl Into<String>) -> Diagnostic {
        Diagnostic { file: file.into(), line, col, message: message.into() }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: error: {}", self.file, self.line, self.col, self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// Several diagnostics, displayed one per line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// A function defined in the source that could not be lowered; it is in the
/// program as a declaration (no blocks) when its signature is supported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedFunction {
    pub name: String,
    pub diagnostic: Diagnostic,
}

/// A file-scope declaration of a user file (not a system header) that could
/// not be lowered and was skipped, e.g. a struct definition or a `double`
/// global. `name` is the declared identifier, or `struct tag`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedGlobal {
    pub name: String,
    pub diagnostic: Diagnostic,
}

/// The result of compiling a file.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub program: Program,
    /// Functions lowered as declarations because of unsupported constructs.
    pub unsupported: Vec<UnsupportedFunction>,
    /// Skipped file-scope declarations.
    pub unsupported_globals: Vec<UnsupportedGlobal>,
    /// The non-static functions that user files (not system headers)
    /// declare and the unit does not define, in declaration order, whether
    /// or not lowered code calls them: a function the front end could not
    /// lower may, and a test file including the unit must still link.
    pub declared_only: Vec<String>,
    /// The enumeration types the unit names (see `enums.rs`): a parameter
    /// or result of one has its name as `c_scalar`.
    pub enums: Vec<pathwise_ir::EnumDef>,
    /// The feature-test macros the main file defines before its first
    /// `#include` (see `features.rs`), as `#define` lines.
    pub feature_macros: Vec<String>,
}

impl Compiled {
    /// The program, or the unsupported-function diagnostics if there are any.
    pub fn into_strict(self) -> Result<Program, Diagnostics> {
        if self.unsupported.is_empty() {
            Ok(self.program)
        } else {
            Err(Diagnostics(self.unsupported.into_iter().map(|u| u.diagnostic).collect()))
        }
    }
}

/// Compiles a C file; diagnostics name it as given.
pub fn compile_file(path: &Path, opts: &FrontendOptions) -> Result<Compiled, Diagnostics> {
    let display = path.to_string_lossy().into_owned();
    guarded(&display, || {
        let pre = preprocess::preprocess(preprocess::Input::File(path), &display, opts).map_err(Diagnostics)?;
        // The lines of a `.i` file's main part are numbered after its line
        // markers (the original `.c` file, usually absent): an empty original
        // text keeps columns from being aligned with unrelated lines.
        let original = preprocess::is_preprocessed(path).then_some("");
        compile_preprocessed(&display, pre, original, opts.data_model).map(|c| with_features(c, path))
    })
}

/// `c` with the feature-test macros of the file at `path` (none when it
/// cannot be read: the preprocessor read it already).
fn with_features(mut c: Compiled, path: &Path) -> Compiled {
    c.feature_macros = std::fs::read_to_string(path).map(|t| features::feature_macros(&t)).unwrap_or_default();
    c
}

/// Compiles a C file followed by `appended` C files, each preprocessed on
/// its own and read after it as the rest of one translation unit (`gen
/// --summary`: hand-written summaries that use the unit's types). A type or
/// declaration both parts include (a header, a repeated structure) is then
/// declared twice, which the lowering accepts. Diagnostics name each file
/// as given.
pub fn compile_file_with(path: &Path, appended: &[PathBuf], opts: &FrontendOptions) -> Result<Compiled, Diagnostics> {
    compile_file_appending(path, appended, None, opts)
}

/// [`compile_file_with`], then the C source `text` (named `name` in
/// diagnostics and locations) read last: code Pathwise adds to the unit,
/// such as the contract of `main`'s arguments.
pub fn compile_file_appending(
    path: &Path,
    appended: &[PathBuf],
    text: Option<(&str, &str)>,
    opts: &FrontendOptions,
) -> Result<Compiled, Diagnostics> {
    let display = path.to_string_lossy().into_owned();
    guarded(&display, || {
        let mut pre = preprocess::preprocess(preprocess::Input::File(path), &display, opts).map_err(Diagnostics)?;
        let names: Vec<String> = appended.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        let files = appended.iter().zip(&names).map(|(p, n)| (preprocess::Input::File(p), n.as_str()));
        let texts = text.map(|(name, text)| (preprocess::Input::Text(text), name));
        for (input, name) in files.chain(texts) {
            let more = preprocess::preprocess(input, name, opts).map_err(Diagnostics)?;
            // One name for `pathwise.h` wherever it was included from.
            let text = if more.header_dir.is_empty() || pre.header_dir.is_empty() {
                more.text
            } else {
                more.text.replace(&more.header_dir, &pre.header_dir)
            };
            pre.text.push('\n');
            pre.text.push_str(&text);
        }
        let original = preprocess::is_preprocessed(path).then_some("");
        compile_preprocessed(&display, pre, original, opts.data_model).map(|c| with_features(c, path))
    })
}

/// Compiles C source text; `file_name` is what diagnostics and
/// `Program::files[0]` show. Relative `#include "..."` resolve from the
/// current directory.
pub fn compile_source(file_name: &str, source: &str, opts: &FrontendOptions) -> Result<Compiled, Diagnostics> {
    guarded(file_name, || {
        let pre = preprocess::preprocess(preprocess::Input::Text(source), file_name, opts).map_err(Diagnostics)?;
        let mut c = compile_preprocessed(file_name, pre, Some(source), opts.data_model)?;
        c.feature_macros = features::feature_macros(source);
        Ok(c)
    })
}

/// Runs `f` on a thread with a large stack (the parser and the lowering are
/// recursive), turning a panic into a diagnostic.
fn guarded<F>(display: &str, f: F) -> Result<Compiled, Diagnostics>
where
    F: FnOnce() -> Result<Compiled, Diagnostics> + Send,
{
    const STACK: usize = 256 << 20;
    let internal = |m: String| Diagnostics(vec![Diagnostic::new(display, 0, 0, m)]);
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new().name("pathwise-cfront".into()).stack_size(STACK).spawn_scoped(s, f);
        match handle {
            Ok(h) => h.join().unwrap_or_else(|payload| {
                let msg = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Err(internal(format!("internal error in the C front end: {msg}")))
            }),
            Err(e) => Err(internal(format!("cannot start the front-end thread: {e}"))),
        }
    })
}

/// Parses and lowers preprocessed text; `source` is the main file's text
/// when it was given as text (used to recover exact columns).
fn compile_preprocessed(
    display: &str,
    pre: preprocess::Preprocessed,
    source: Option<&str>,
    model: DataModel,
) -> Result<Compiled, Diagnostics> {
    let packed::Scanned { text, attrs } = packed::scan(pre.text);
    let parse_text = |text: String| {
        let mut lines = LineMap::new(&text, display, source);
        lines.rename_dir(&pre.header_dir, "pathwise.h", PATHWISE_H);
        match parse_preprocessed(&Config::with_gcc(), text) {
            Ok(p) => Ok((lines, p)),
            Err(e) => Err(Diagnostics(vec![syntax_error(&lines, &e)])),
        }
    };
    let (mut lines, mut parse) = parse_text(text)?;
    let mut defined = defined_names(&parse.unit);
    // Library functions that call back into the unit are C code lowered
    // with it (see `libc_sources`): parse again with them appended.
    if let Some(extra) = libc_sources::appended(&parse.source, &defined, model) {
        let text = format!("{}{extra}", parse.source);
        (lines, parse) = parse_text(text)?;
        defined = defined_names(&parse.unit);
    }
    let mut u = Unit::new(&lines, display, model);
    u.layout_attrs = attrs;
    u.defined_names = defined;
    for ext in &parse.unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => globals::file_decl(&mut u, d),
            ExternalDeclaration::StaticAssert(_) => {}
            ExternalDeclaration::FunctionDefinition(fd) => func::definition(&mut u, fd),
        }
    }
    // Definitions from system headers (static inline helpers) are lowered
    // only once something calls them, which may call further ones.
    while let Some(idx) = (0..u.funcs.len()).find(|&i| {
        u.funcs[i].id.is_some() && u.funcs[i].def.is_some() && matches!(u.funcs[i].body, BodyState::NotLowered)
    }) {
        func::lower_body(&mut u, idx);
    }
    let declared_only = u.declared_only();
    let enums = std::mem::take(&mut u.enums).into_named();
    let (program, unsupported, unsupported_globals, errors) = u.into_program();
    if !errors.is_empty() {
        return Err(Diagnostics(errors));
    }
    Ok(Compiled { program, unsupported, unsupported_globals, declared_only, enums, feature_macros: Vec::new() })
}

/// The names of the functions a translation unit defines.
fn defined_names(unit: &lang_c::ast::TranslationUnit) -> rustc_hash::FxHashSet<String> {
    unit.0
        .iter()
        .filter_map(|ext| match &ext.node {
            ExternalDeclaration::FunctionDefinition(fd) => func::declarator_name(&fd.node.declarator),
            _ => None,
        })
        .collect()
}

/// A lang-c syntax error, located in the original source.
fn syntax_error(lines: &LineMap, e: &SyntaxError) -> Diagnostic {
    let pos = lines.pos(e.offset);
    let found: String =
        e.source.get(e.offset..).unwrap_or("").chars().take_while(|c| !c.is_whitespace()).take(20).collect();
    let mut expected: Vec<&str> = e.expected.iter().copied().filter(|t| !t.is_empty()).collect();
    expected.sort_unstable();
    let shown: Vec<String> = expected.iter().take(8).map(|t| format!("`{t}`")).collect();
    let more = if expected.len() > 8 { ", ..." } else { "" };
    let what = if found.is_empty() { "end of input".to_string() } else { format!("`{found}`") };
    Diagnostic::new(
        lines.name(pos.file),
        pos.line,
        pos.col,
        format!("syntax error: unexpected {what}, expected {}{more}", shown.join(", ")),
    )
}

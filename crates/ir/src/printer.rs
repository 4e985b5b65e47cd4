//! The textual form of the IR (printing side; see [`crate::parser`] for the
//! reverse direction).
//!
//! The syntax is line-oriented and fully explicit: everything in a
//! [`Program`] appears in the text, so `parse_program(&p.to_string()) == p`
//! for every program, including invalid ones (dangling references, unmasked
//! constants, duplicated names). A complete example:
//!
//! ```text
//! file 0 "merge.c"
//!
//! struct 0 "struct node" size 16 align 8 { "data": int("int", i32 signed) @ 0, "next": ptr(struct 0) @ 8 }
//!
//! global @g: i32 x 10 = [1, -2, 3] const src("g", "int", i32 signed, array 10)
//! global @head: ptr x 1 src("head", "unsigned char", i8 unsigned, pointer, type(ptr(struct 0)))
//!
//! declare @abort() -> void
//!
//! func @max(%0: i32 src("a", "int", i32 signed, scalar), %1: i32) -> i32 static num_regs 4 @ 0:3:5 {
//!   local $0 "r": i32 x 1
//! bb0:
//!   %2 = cmp sgt i32 %0, %1               @ 0:4:9
//!   br %2, bb1, bb2                       @ 0:4:9
//! bb1:
//!   ret %0
//! bb2:
//!   call @abort()
//!   unreachable
//! }
//! ```
//!
//! Grammar (newlines are ordinary whitespace for the parser, `;` starts a
//! comment that runs to the end of the line):
//!
//! ```text
//! program  := item*
//! item     := 'file' INT STRING
//!           | ('struct' | 'union') INT STRING 'size' INT 'align' INT
//!             '{' [field {',' field}] '}'            ; Program::structs, in order
//!             ['bits' '{' bitfield {',' bitfield} '}']
//!           | 'global' NAME ':' TYPE ['x' INT] ['=' '[' [value {',' value}] ']']
//!             ['relocs' '[' reloc {',' reloc} ']'] ['const'] [src]
//!   reloc   := '(' INT ',' ['fn'] NAME ',' INT ')'  byte offset, target global (or function), addend
//!           | 'declare' header
//!           | 'func' header '{' local* iterates* switch* block* '}'
//! header   := NAME '(' [param {',' param}] ')' '->' ('void' | TYPE) [src]
//!             ['static'] ['ctype' '(' cty ')'] ['num_regs' INT] [loc]
//! param    := REG ':' TYPE [src]
//! src      := 'src' '(' STRING ',' STRING ',' TYPE ('signed'|'unsigned') ','
//!             ('scalar' | 'pointer' | 'array' INT | 'heap' | 'byvalue' | 'function')
//!             [',' 'type' '(' cty ')'] ')'
//! field    := STRING ':' cty '@' INT                   ; name, C type, byte offset
//! bitfield := STRING ':' cty '@' INT ':' INT           ; name, declared type, first bit, width
//! cty      := 'void' | 'int' '(' STRING ',' TYPE ('signed'|'unsigned') ')'
//!           | 'ptr' '(' cty ')' | 'array' '(' cty ',' INT ')'
//!           | 'struct' INT                            ; index into Program::structs
//!           | 'func' '(' STRING ',' STRING ')'         ; result and parameter spellings
//! local    := 'local' LOCAL STRING ':' TYPE ['x' INT]
//! iterates := 'iterates' BLOCK   (an iteration-start block; after the locals)
//! switch   := 'switch' '[' BLOCK (',' BLOCK)* ']'   (a switch's decision chain)
//! block    := LABEL ':' inst* term
//! inst     := [REG '='] op [loc]
//! op       := BINOP TYPE operand ',' operand            ; add sub mul udiv sdiv ...
//!           | 'cmp' CMPOP TYPE operand ',' operand
//!           | CASTOP TYPE operand 'to' TYPE              ; zext sext trunc
//!           | FBINOP TYPE operand ',' operand           ; fadd fsub fmul fdiv
//!           | 'fneg' TYPE operand
//!           | 'fcmp' FCMPOP TYPE operand ',' operand     ; oeq une olt ole ogt oge
//!           | FCASTOP TYPE operand 'to' TYPE             ; sitofp uitofp fptosi fptoui fpext fptrunc
//!           | 'addr' (LOCAL | NAME)
//!           | 'ptradd' operand ',' operand | 'ptrdiff' operand ',' operand
//!           | 'load' TYPE operand | 'store' TYPE operand ',' operand
//!           | 'alloca' TYPE ',' operand                 ; count of type i64
//!           | 'call' NAME '(' [operand {',' operand}] ')'
//!           | 'addrfn' NAME                             ; pointer to a function
//!           | 'callptr' operand '(' [operand {',' operand}] ')' ['->' TYPE]
//! term     := ('jmp' LABEL | 'br' operand ',' LABEL ',' LABEL
//!             | 'ret' [operand] | 'unreachable') [loc]
//! operand  := REG | value ':' TYPE                     ; 5:i32, -1:i8, 0:ptr
//! loc      := '@' INT ':' INT ':' INT                  ; file:line:col
//! NAME     := '@' IDENT | '@' STRING | '@#' INT        ; by name, or by index
//! ```
//!
//! Conventions that keep the text exact:
//! - `file`, `struct`, `local` and block indices must appear in order (`file 0`,
//!   `file 1`, ...), since they are positions in vectors.
//! - A function or global is referenced by name when the name is an
//!   identifier-like string (otherwise quoted) and the *first* entity of that
//!   name is the one meant; otherwise (duplicate names, out-of-range ids) by
//!   index, `@#3`.
//! - Values print as signed decimals when they are properly masked and their
//!   sign bit is set (`-1:i32` is `0xffffffff`); any other bit pattern prints
//!   as an unsigned decimal, so unmasked constants survive a round trip.
//!   Floating constants (`f32`, `f64`) print as their bits, in unsigned
//!   decimal (`4607182418800017408:f64` is 1.0): exact for NaNs and `-0.0`.
//! - Locations are printed when they differ from [`Loc::NONE`].
//! - `num_regs` is omitted when it equals [`crate::visit::min_num_regs`], and a
//!   parameter's `src(...)` when it equals [`default_param_src`].
//! - A function without blocks and locals prints as `declare`; one with locals
//!   but no blocks prints as `func ... { local ... }`.

use std::fmt::{self, Write};

use crate::ctype::{CType, StructDef};
use crate::program::{
    FuncData, FuncId, GlobalData, GlobalId, Inst, InstKind, Loc, Operand, Program, RelocTarget, Shape, SrcVar,
    Terminator,
};
use crate::types::{IntTy, Type};
use crate::visit::min_num_regs;

/// Column at which instruction locations are aligned, for readability.
const LOC_COLUMN: usize = 40;

/// The `SrcVar` a parameter gets when its `src(...)` is omitted in the text:
/// no name, no C spelling, signed scalar of the parameter's machine type.
pub fn default_param_src(ty: Type) -> SrcVar {
    SrcVar {
        name: String::new(),
        c_scalar: String::new(),
        scalar: IntTy { ty, signed: true },
        shape: Shape::Scalar,
        cty: None,
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        for (i, file) in self.files.iter().enumerate() {
            writeln!(out, "file {i} {}", quote(file))?;
        }
        if !self.structs.is_empty() {
            if !out.is_empty() {
                out.push('\n');
            }
            for (i, def) in self.structs.iter().enumerate() {
                writeln!(out, "{}", fmt_struct(i, def))?;
            }
        }
        if !self.globals.is_empty() {
            if !out.is_empty() {
                out.push('\n');
            }
            for g in &self.globals {
                write_global(&mut out, self, g)?;
            }
        }
        for id in 0..self.funcs.len() {
            if !out.is_empty() {
                out.push('\n');
            }
            write_function(&mut out, self, FuncId(id as u32))?;
        }
        f.write_str(&out)
    }
}

/// The text of one function (definition or declaration), ending in a newline.
///
/// # Panics
/// If `id` is not a function of `p`.
pub fn print_function(p: &Program, id: FuncId) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = write_function(&mut out, p, id);
    out
}

/// Quote a string with escapes: `\"`, `\\`, `\n`, `\t`, `\r` and `\xHH` for
/// the other ASCII control characters; everything else is written verbatim.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether a name can be written bare after `@` (otherwise it is quoted).
pub(crate) fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '.' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// `@name` or `@"odd name"`, for definitions.
fn name_def(name: &str) -> String {
    if is_ident(name) {
        format!("@{name}")
    } else {
        format!("@{}", quote(name))
    }
}

/// A reference to a function: by name when the name resolves back to this
/// function (the first of that name), by index otherwise.
fn func_ref(p: &Program, id: FuncId) -> String {
    match p.funcs.get(id.0 as usize) {
        Some(f) if p.func_by_name(&f.name) == Some(id) => name_def(&f.name),
        _ => format!("@#{}", id.0),
    }
}

/// A reference to a global, with the same convention as [`func_ref`].
fn global_ref(p: &Program, id: GlobalId) -> String {
    match p.globals.get(id.0 as usize) {
        Some(g) if p.global_by_name(&g.name) == Some(id) => name_def(&g.name),
        _ => format!("@#{}", id.0),
    }
}

/// A relocation's target: `@g` for a global, `fn @f` for a function.
fn reloc_target(p: &Program, t: RelocTarget) -> String {
    match t {
        RelocTarget::Global(g) => global_ref(p, g),
        RelocTarget::Func(f) => format!("fn {}", func_ref(p, f)),
    }
}

/// A value of type `ty`: negative decimal for masked values with the sign bit
/// set (not for `i1` and `ptr`), unsigned decimal otherwise.
pub(crate) fn fmt_value(ty: Type, v: u64) -> String {
    let bits = ty.bits();
    let negative = ty.is_int() && bits > 1 && v <= ty.mask() && (v >> (bits - 1)) & 1 == 1;
    if negative {
        // The magnitude is 2^bits - v, i.e. the two's complement negation
        // within the type's width.
        format!("-{}", v.wrapping_neg() & ty.mask())
    } else {
        v.to_string()
    }
}

fn fmt_operand(op: &Operand) -> String {
    match op {
        Operand::Reg(r) => r.to_string(),
        Operand::Const(ty, v) => format!("{}:{ty}", fmt_value(*ty, *v)),
    }
}

fn fmt_loc(loc: Loc) -> String {
    format!("@ {}:{}:{}", loc.file, loc.line, loc.col)
}

fn fmt_src(s: &SrcVar) -> String {
    let shape = match s.shape {
        Shape::Scalar => "scalar".to_string(),
        Shape::Pointer => "pointer".to_string(),
        Shape::Array(n) => format!("array {n}"),
        Shape::Heap => "heap".to_string(),
        Shape::ByValue => "byvalue".to_string(),
        Shape::Function => "function".to_string(),
        Shape::Stream => "stream".to_string(),
    };
    let sign = if s.scalar.signed { "signed" } else { "unsigned" };
    let cty = s.cty.as_ref().map(|t| format!(", type({})", fmt_cty(t))).unwrap_or_default();
    format!("src({}, {}, {} {sign}, {shape}{cty})", quote(&s.name), quote(&s.c_scalar), s.scalar.ty)
}

/// A C type in the `cty` syntax, e.g. `ptr(struct 0)`.
pub fn fmt_cty(t: &CType) -> String {
    match t {
        CType::Void => "void".to_string(),
        CType::Int { c_name, ty } => {
            let sign = if ty.signed { "signed" } else { "unsigned" };
            format!("int({}, {} {sign})", quote(c_name), ty.ty)
        }
        CType::Ptr(inner) => format!("ptr({})", fmt_cty(inner)),
        CType::Array(inner, n) => format!("array({}, {n})", fmt_cty(inner)),
        CType::Struct(id) => format!("struct {}", id.0),
        CType::Func { ret, params } => format!("func({}, {})", quote(ret), quote(params)),
    }
}

/// One `struct`/`union` item (without the newline).
fn fmt_struct(index: usize, def: &StructDef) -> String {
    let kw = if def.is_union { "union" } else { "struct" };
    let fields: Vec<String> =
        def.fields.iter().map(|f| format!("{}: {} @ {}", quote(&f.name), fmt_cty(&f.ty), f.offset)).collect();
    let body = if fields.is_empty() { "{ }".to_string() } else { format!("{{ {} }}", fields.join(", ")) };
    let bits: Vec<String> = def
        .bitfields
        .iter()
        .map(|b| format!("{}: {} @ {} : {}", quote(&b.name), fmt_cty(&b.ty), b.bit, b.width))
        .collect();
    let bits = if bits.is_empty() { String::new() } else { format!(" bits {{ {} }}", bits.join(", ")) };
    format!("{kw} {index} {} size {} align {} {body}{bits}", quote(&def.c_name), def.size, def.align)
}

fn write_global(out: &mut String, p: &Program, g: &GlobalData) -> fmt::Result {
    write!(out, "global {}: {} x {}", name_def(&g.name), g.elem, g.count)?;
    if !g.init.is_empty() {
        let vals: Vec<String> = g.init.iter().map(|v| fmt_value(g.elem, *v)).collect();
        write!(out, " = [{}]", vals.join(", "))?;
    }
    if !g.relocs.is_empty() {
        let items: Vec<String> =
            g.relocs.iter().map(|r| format!("({}, {}, {})", r.offset, reloc_target(p, r.target), r.addend)).collect();
        write!(out, " relocs [{}]", items.join(", "))?;
    }
    if g.is_const {
        out.push_str(" const");
    }
    if let Some(src) = &g.src {
        write!(out, " {}", fmt_src(src))?;
    }
    out.push('\n');
    Ok(())
}

/// The header shared by `declare` and `func`: name, parameters, return,
/// flags and location.
fn write_header(out: &mut String, f: &FuncData) -> fmt::Result {
    write!(out, "{}(", name_def(&f.name))?;
    for (i, param) in f.params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write!(out, "{}: {}", param.reg, param.ty)?;
        if param.src != default_param_src(param.ty) {
            write!(out, " {}", fmt_src(&param.src))?;
        }
    }
    out.push_str(") -> ");
    match f.ret {
        Some(t) => write!(out, "{t}")?,
        None => out.push_str("void"),
    }
    if let Some(src) = &f.ret_src {
        write!(out, " {}", fmt_src(src))?;
    }
    if f.is_static {
        out.push_str(" static");
    }
    if let Some(t) = &f.cty {
        write!(out, " ctype({})", fmt_cty(t))?;
    }
    if f.num_regs != min_num_regs(f) {
        write!(out, " num_regs {}", f.num_regs)?;
    }
    if f.loc != Loc::NONE {
        write!(out, " {}", fmt_loc(f.loc))?;
    }
    Ok(())
}

fn write_function(out: &mut String, p: &Program, id: FuncId) -> fmt::Result {
    let f = p.func(id);
    if f.blocks.is_empty() && f.locals.is_empty() && f.iteration_starts.is_empty() && f.switches.is_empty() {
        out.push_str("declare ");
        write_header(out, f)?;
        out.push('\n');
        return Ok(());
    }
    out.push_str("func ");
    write_header(out, f)?;
    out.push_str(" {\n");
    for (i, l) in f.locals.iter().enumerate() {
        writeln!(out, "  local ${i} {}: {} x {}", quote(&l.name), l.elem, l.count)?;
    }
    for b in &f.iteration_starts {
        writeln!(out, "  iterates {b}")?;
    }
    for chain in &f.switches {
        let blocks: Vec<String> = chain.iter().map(|b| b.to_string()).collect();
        writeln!(out, "  switch [{}]", blocks.join(", "))?;
    }
    for (i, b) in f.blocks.iter().enumerate() {
        writeln!(out, "bb{i}:")?;
        for inst in &b.insts {
            write_line(out, &fmt_inst(p, inst), inst.loc);
        }
        write_line(out, &fmt_term(&b.term), b.term_loc);
    }
    out.push_str("}\n");
    Ok(())
}

/// One indented body line, with its location aligned at [`LOC_COLUMN`].
fn write_line(out: &mut String, text: &str, loc: Loc) {
    out.push_str("  ");
    out.push_str(text);
    if loc != Loc::NONE {
        let width = text.chars().count() + 2;
        let pad = LOC_COLUMN.saturating_sub(width).max(1);
        out.extend(std::iter::repeat_n(' ', pad));
        out.push_str(&fmt_loc(loc));
    }
    out.push('\n');
}

fn fmt_inst(p: &Program, inst: &Inst) -> String {
    let body = match &inst.kind {
        InstKind::Bin { op, ty, a, b, nsw } => {
            let flag = if *nsw { " nsw" } else { "" };
            format!("{}{flag} {ty} {}, {}", op.name(), fmt_operand(a), fmt_operand(b))
        }
        InstKind::Cmp { op, ty, a, b } => {
            format!("cmp {} {ty} {}, {}", op.name(), fmt_operand(a), fmt_operand(b))
        }
        InstKind::Cast { op, from, to, a } => {
            format!("{} {from} {} to {to}", op.name(), fmt_operand(a))
        }
        InstKind::FBin { op, ty, a, b } => format!("{} {ty} {}, {}", op.name(), fmt_operand(a), fmt_operand(b)),
        InstKind::FNeg { ty, a } => format!("fneg {ty} {}", fmt_operand(a)),
        InstKind::FCmp { op, ty, a, b } => {
            format!("fcmp {} {ty} {}, {}", op.name(), fmt_operand(a), fmt_operand(b))
        }
        InstKind::FCast { op, from, to, a } => format!("{} {from} {} to {to}", op.name(), fmt_operand(a)),
        InstKind::AddrLocal { local } => format!("addr {local}"),
        InstKind::AddrGlobal { global } => format!("addr {}", global_ref(p, *global)),
        InstKind::AddrFunc { func } => format!("addrfn {}", func_ref(p, *func)),
        InstKind::PtrAdd { base, offset } => {
            format!("ptradd {}, {}", fmt_operand(base), fmt_operand(offset))
        }
        InstKind::PtrDiff { a, b } => format!("ptrdiff {}, {}", fmt_operand(a), fmt_operand(b)),
        InstKind::CheckIndex { index, len, end } => {
            let flag = if *end { " end" } else { "" };
            format!("checkindex{flag} {}, {len}", fmt_operand(index))
        }
        InstKind::Load { ty, ptr } => format!("load {ty} {}", fmt_operand(ptr)),
        InstKind::Alloca { elem, count } => format!("alloca {elem}, {}", fmt_operand(count)),
        InstKind::Store { ty, ptr, value } => {
            format!("store {ty} {}, {}", fmt_operand(ptr), fmt_operand(value))
        }
        InstKind::Call { func, args } => {
            let args: Vec<String> = args.iter().map(fmt_operand).collect();
            format!("call {}({})", func_ref(p, *func), args.join(", "))
        }
        InstKind::CallPtr { callee, args, ret } => {
            let args: Vec<String> = args.iter().map(fmt_operand).collect();
            let ret = ret.map(|t| format!(" -> {t}")).unwrap_or_default();
            format!("callptr {}({}){ret}", fmt_operand(callee), args.join(", "))
        }
    };
    match inst.result {
        Some(r) => format!("{r} = {body}"),
        None => body,
    }
}

fn fmt_term(t: &Terminator) -> String {
    match t {
        Terminator::Jump(b) => format!("jmp {b}"),
        Terminator::Branch { cond, then_block, else_block } => {
            format!("br {}, {then_block}, {else_block}", fmt_operand(cond))
        }
        Terminator::Return(None) => "ret".to_string(),
        Terminator::Return(Some(v)) => format!("ret {}", fmt_operand(v)),
        Terminator::Unreachable => "unreachable".to_string(),
    }
}

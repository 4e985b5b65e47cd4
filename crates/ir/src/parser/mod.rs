//! Parser for the textual IR written by [`crate::printer`] (the grammar is
//! documented there).
//!
//! A hand-written lexer and recursive-descent parser. It never panics: any
//! input either yields a [`Program`] or a [`ParseError`] with the line and
//! column of the offending token. The parser checks syntax, the ordering of
//! indexed definitions (`file N`, `local $N`, `bbN`) and that every name
//! reference resolves; all semantic checks (types, dominance, arity, ...) are
//! the [`crate::verifier`]'s job, so that invalid programs can still be
//! written down, e.g. in verifier tests.

mod lexer;

use std::fmt;

use lexer::{tokenize, NameTok, Tok, Token};

use crate::ctype::{BitFieldDef, CType, FieldDef, StructDef, StructId};
use crate::entities::{Block, Local, Reg};
use crate::printer::default_param_src;
use crate::program::{
    BinOp, BlockData, CastOp, CmpOp, FBinOp, FCastOp, FCmpOp, FuncData, FuncId, GlobalData, GlobalId, GlobalReloc,
    Inst, InstKind, Loc, LocalData, Operand, Param, Program, RelocTarget, Shape, SrcVar, Terminator,
};
use crate::types::{IntTy, Type};
use crate::visit::min_num_regs;

/// A syntax error, at a 1-based line and column (in characters).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parse a whole program from its text form.
///
/// ```
/// use pathwise_ir::{parse_program, verify, Type};
///
/// let text = "func @inc(%0: i32) -> i32 {\nbb0:\n  %1 = add i32 %0, 1:i32\n  ret %1\n}\n";
/// let p = parse_program(text).unwrap();
/// assert_eq!(p.funcs[0].ret, Some(Type::I32));
/// assert_eq!(verify(&p), Ok(()));
/// assert_eq!(p.to_string(), text); // the printer gives the same text back
///
/// let err = parse_program("func @f() -> i32 {\nbb0:\n  ret %0 %1\n}").unwrap_err();
/// assert_eq!(err.to_string(), "3:10: expected a block label (bbN), found register %1");
/// ```
pub fn parse_program(text: &str) -> Result<Program, ParseError> {
    let toks = tokenize(text)?;
    let mut p = Parser { toks, pos: 0, prog: Program::default(), fixups: Vec::new() };
    p.program()?;
    p.resolve()?;
    Ok(p.prog)
}

/// What a by-name reference inside a function body points to.
#[derive(Clone, Copy)]
enum FixKind {
    Func,
    Global,
    /// The target of relocation `block` of global `func` (indices reused).
    Reloc,
    /// The same, for a relocation to a function.
    RelocFunc,
    /// The function of an `addrfn`.
    FuncAddr,
}

/// A by-name reference that is resolved once every definition has been
/// seen, so that functions and globals may be used before they are defined.
struct Fixup {
    kind: FixKind,
    func: usize,
    block: usize,
    inst: usize,
    name: String,
    line: u32,
    col: u32,
}

/// One body line: an instruction, or the terminator that ends the block.
enum BodyLine {
    Inst(Inst),
    Term(Terminator, Loc),
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    prog: Program,
    fixups: Vec<Fixup>,
}

impl Parser {
    // ---- token helpers ----------------------------------------------------

    fn tok(&self) -> &Token {
        // The token list always ends with Eof and `bump` never moves past it.
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn peek(&self) -> &Tok {
        &self.tok().tok
    }

    fn bump(&mut self) -> Token {
        let t = self.tok().clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn err_at(t: &Token, message: impl Into<String>) -> ParseError {
        ParseError { line: t.line, col: t.col, message: message.into() }
    }

    fn err(&self, message: impl Into<String>) -> ParseError {
        Self::err_at(self.tok(), message)
    }

    fn expected(&self, what: &str) -> ParseError {
        self.err(format!("expected {what}, found {}", self.peek().describe()))
    }

    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == kw)
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        let yes = self.is_kw(kw);
        if yes {
            self.bump();
        }
        yes
    }

    fn expect_kw(&mut self, kw: &str) -> Result<(), ParseError> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{kw}`")))
        }
    }

    fn eat(&mut self, t: &Tok) -> bool {
        let yes = self.peek() == t;
        if yes {
            self.bump();
        }
        yes
    }

    fn expect(&mut self, t: &Tok) -> Result<(), ParseError> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(self.expected(&t.describe()))
        }
    }

    fn ident(&mut self, what: &str) -> Result<(String, Token), ParseError> {
        match self.peek().clone() {
            Tok::Ident(s) => Ok((s, self.bump())),
            _ => Err(self.expected(what)),
        }
    }

    fn int(&mut self, what: &str) -> Result<u64, ParseError> {
        match *self.peek() {
            Tok::Int(v) => {
                self.bump();
                Ok(v)
            }
            _ => Err(self.expected(what)),
        }
    }

    fn int_u32(&mut self, what: &str) -> Result<u32, ParseError> {
        let t = self.tok().clone();
        let v = self.int(what)?;
        u32::try_from(v).map_err(|_| Self::err_at(&t, format!("{what} too large")))
    }

    fn string(&mut self, what: &str) -> Result<String, ParseError> {
        match self.peek().clone() {
            Tok::Str(s) => {
                self.bump();
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    fn ty(&mut self) -> Result<Type, ParseError> {
        match self.peek() {
            Tok::Ident(s) => match Type::from_name(s) {
                Some(t) => {
                    self.bump();
                    Ok(t)
                }
                None => Err(self.expected("a type (i1, i8, i16, i32, i64, ptr, f32, f64)")),
            },
            _ => Err(self.expected("a type (i1, i8, i16, i32, i64, ptr, f32, f64)")),
        }
    }

    fn name(&mut self, what: &str) -> Result<(NameTok, Token), ParseError> {
        match self.peek().clone() {
            Tok::Name(n) => Ok((n, self.bump())),
            _ => Err(self.expected(what)),
        }
    }

    fn block_label(&mut self) -> Result<Block, ParseError> {
        let t = self.tok().clone();
        let (s, _) = self.ident("a block label (bbN)")?;
        let digits = s.strip_prefix("bb").filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
        let n = digits.and_then(|d| d.parse::<u32>().ok());
        n.map(Block).ok_or_else(|| Self::err_at(&t, format!("expected a block label (bbN), found `{s}`")))
    }

    /// Optional `@ file:line:col`; [`Loc::NONE`] when absent.
    fn opt_loc(&mut self) -> Result<Loc, ParseError> {
        if !self.eat(&Tok::At) {
            return Ok(Loc::NONE);
        }
        let file = self.int_u32("a file index")?;
        self.expect(&Tok::Colon)?;
        let line = self.int_u32("a line number")?;
        self.expect(&Tok::Colon)?;
        let col = self.int_u32("a column number")?;
        Ok(Loc { file, line, col })
    }

    // ---- values and operands ----------------------------------------------

    /// The bits of a literal of type `ty`. Negative literals are two's
    /// complement within the type's width; unsigned ones are kept verbatim,
    /// even if wider than the type (the verifier rejects those).
    fn value_bits(t: &Token, ty: Type) -> Result<u64, ParseError> {
        match t.tok {
            Tok::Int(v) => Ok(v),
            Tok::NegInt(mag) => {
                let bits = ty.bits();
                if !ty.is_int() || bits == 1 {
                    return Err(Self::err_at(t, format!("negative literal not allowed for {ty}")));
                }
                if mag > 1u64 << (bits - 1) {
                    return Err(Self::err_at(t, format!("-{mag} does not fit in {ty}")));
                }
                Ok(mag.wrapping_neg() & ty.mask())
            }
            _ => Err(Self::err_at(t, format!("expected an integer, found {}", t.tok.describe()))),
        }
    }

    fn operand(&mut self) -> Result<Operand, ParseError> {
        match *self.peek() {
            Tok::Reg(r) => {
                self.bump();
                Ok(Operand::Reg(Reg(r)))
            }
            Tok::Int(_) | Tok::NegInt(_) => {
                let lit = self.bump();
                self.expect(&Tok::Colon)?;
                let ty = self.ty()?;
                Ok(Operand::Const(ty, Self::value_bits(&lit, ty)?))
            }
            _ => Err(self.expected("an operand (%N or value:type)")),
        }
    }

    fn two_operands(&mut self) -> Result<(Operand, Operand), ParseError> {
        let a = self.operand()?;
        self.expect(&Tok::Comma)?;
        let b = self.operand()?;
        Ok((a, b))
    }

    // ---- top level ----------------------------------------------------------

    fn program(&mut self) -> Result<(), ParseError> {
        loop {
            match self.peek() {
                Tok::Eof => return Ok(()),
                Tok::Ident(s) => match s.as_str() {
                    "file" => self.file()?,
                    "struct" | "union" => self.struct_def()?,
                    "global" => self.global()?,
                    "declare" => self.declare()?,
                    "func" => self.func()?,
                    _ => return Err(self.expected("`file`, `struct`, `union`, `global`, `declare` or `func`")),
                },
                _ => return Err(self.expected("`file`, `struct`, `union`, `global`, `declare` or `func`")),
            }
        }
    }

    fn file(&mut self) -> Result<(), ParseError> {
        self.expect_kw("file")?;
        let t = self.tok().clone();
        let idx = self.int("a file index")?;
        if idx != self.prog.files.len() as u64 {
            return Err(Self::err_at(&t, format!("expected file index {}", self.prog.files.len())));
        }
        let name = self.string("a file name string")?;
        self.prog.files.push(name);
        Ok(())
    }

    /// `src("name", "c type", i32 signed, shape)`.
    fn src(&mut self) -> Result<SrcVar, ParseError> {
        self.expect_kw("src")?;
        self.expect(&Tok::LParen)?;
        let name = self.string("the C name string")?;
        self.expect(&Tok::Comma)?;
        let c_scalar = self.string("the C type string")?;
        self.expect(&Tok::Comma)?;
        let ty = self.ty()?;
        let signed = if self.eat_kw("signed") {
            true
        } else if self.eat_kw("unsigned") {
            false
        } else {
            return Err(self.expected("`signed` or `unsigned`"));
        };
        self.expect(&Tok::Comma)?;
        let shape = if self.eat_kw("scalar") {
            Shape::Scalar
        } else if self.eat_kw("pointer") {
            Shape::Pointer
        } else if self.eat_kw("array") {
            Shape::Array(self.int("an array length")?)
        } else if self.eat_kw("heap") {
            Shape::Heap
        } else if self.eat_kw("byvalue") {
            Shape::ByValue
        } else if self.eat_kw("function") {
            Shape::Function
        } else if self.eat_kw("stream") {
            Shape::Stream
        } else {
            return Err(self.expected("`scalar`, `pointer`, `array N`, `heap`, `byvalue`, `function` or `stream`"));
        };
        let cty = if self.eat(&Tok::Comma) {
            self.expect_kw("type")?;
            self.expect(&Tok::LParen)?;
            let t = self.cty(0)?;
            self.expect(&Tok::RParen)?;
            Some(t)
        } else {
            None
        };
        self.expect(&Tok::RParen)?;
        Ok(SrcVar { name, c_scalar, scalar: IntTy { ty, signed }, shape, cty })
    }

    /// `signed` or `unsigned`.
    fn signedness(&mut self) -> Result<bool, ParseError> {
        if self.eat_kw("signed") {
            Ok(true)
        } else if self.eat_kw("unsigned") {
            Ok(false)
        } else {
            Err(self.expected("`signed` or `unsigned`"))
        }
    }

    /// A C type (`cty` in the grammar); `depth` bounds the nesting so that
    /// hostile input cannot overflow the stack.
    fn cty(&mut self, depth: u32) -> Result<CType, ParseError> {
        const MAX_DEPTH: u32 = 200;
        if depth > MAX_DEPTH {
            return Err(self.err("C type nested too deeply"));
        }
        let (kw, t) = self.ident("a C type (void, int, ptr, array, struct)")?;
        Ok(match kw.as_str() {
            "void" => CType::Void,
            "int" => {
                self.expect(&Tok::LParen)?;
                let c_name = self.string("the C type string")?;
                self.expect(&Tok::Comma)?;
                let ty = self.ty()?;
                let signed = self.signedness()?;
                self.expect(&Tok::RParen)?;
                CType::Int { c_name, ty: IntTy { ty, signed } }
            }
            "ptr" => {
                self.expect(&Tok::LParen)?;
                let inner = self.cty(depth + 1)?;
                self.expect(&Tok::RParen)?;
                CType::Ptr(Box::new(inner))
            }
            "array" => {
                self.expect(&Tok::LParen)?;
                let inner = self.cty(depth + 1)?;
                self.expect(&Tok::Comma)?;
                let n = self.int("an array length")?;
                self.expect(&Tok::RParen)?;
                CType::Array(Box::new(inner), n)
            }
            "struct" => CType::Struct(StructId(self.int_u32("a struct index")?)),
            "func" => {
                self.expect(&Tok::LParen)?;
                let ret = self.string("the result type's spelling")?;
                self.expect(&Tok::Comma)?;
                let params = self.string("the parameter list's spelling")?;
                self.expect(&Tok::RParen)?;
                CType::Func { ret, params }
            }
            other => return Err(Self::err_at(&t, format!("expected a C type, found `{other}`"))),
        })
    }

    /// `struct N "name" size S align A { "f": cty @ off, ... }` (or `union`).
    fn struct_def(&mut self) -> Result<(), ParseError> {
        let (kw, _) = self.ident("`struct` or `union`")?;
        let t = self.tok().clone();
        let idx = self.int("a struct index")?;
        if idx != self.prog.structs.len() as u64 {
            return Err(Self::err_at(&t, format!("expected struct index {}", self.prog.structs.len())));
        }
        let c_name = self.string("the struct's C name string")?;
        self.expect_kw("size")?;
        let size = self.int("a size")?;
        self.expect_kw("align")?;
        let align = self.int("an alignment")?;
        self.expect(&Tok::LBrace)?;
        let mut fields = Vec::new();
        if !self.eat(&Tok::RBrace) {
            loop {
                let name = self.string("a field name string")?;
                self.expect(&Tok::Colon)?;
                let ty = self.cty(0)?;
                self.expect(&Tok::At)?;
                let offset = self.int("a field offset")?;
                fields.push(FieldDef { name, offset, ty });
                if self.eat(&Tok::RBrace) {
                    break;
                }
                self.expect(&Tok::Comma)?;
            }
        }
        let mut bitfields = Vec::new();
        if self.is_kw("bits") {
            self.expect_kw("bits")?;
            self.expect(&Tok::LBrace)?;
            loop {
                let name = self.string("a bit-field name string")?;
                self.expect(&Tok::Colon)?;
                let ty = self.cty(0)?;
                self.expect(&Tok::At)?;
                let bit = self.int("a bit position")?;
                self.expect(&Tok::Colon)?;
                let width = self.int_u32("a bit-field width")?;
                bitfields.push(BitFieldDef { name, ty, bit, width });
                if self.eat(&Tok::RBrace) {
                    break;
                }
                self.expect(&Tok::Comma)?;
            }
        }
        self.prog.structs.push(StructDef { c_name, is_union: kw == "union", size, align, fields, bitfields });
        Ok(())
    }

    fn opt_src(&mut self) -> Result<Option<SrcVar>, ParseError> {
        if self.is_kw("src") {
            Ok(Some(self.src()?))
        } else {
            Ok(None)
        }
    }

    /// The name in a definition: `@ident` or `@"quoted"` (not `@#N`).
    fn def_name(&mut self) -> Result<String, ParseError> {
        let (n, t) = self.name("a name (@name)")?;
        match n {
            NameTok::Named(s) => Ok(s),
            NameTok::Index(_) => Err(Self::err_at(&t, "a definition needs a name, not an index")),
        }
    }

    /// Optional `x N` element count, 1 when absent.
    fn opt_count(&mut self) -> Result<u64, ParseError> {
        if self.eat_kw("x") {
            self.int("an element count")
        } else {
            Ok(1)
        }
    }

    /// Optional `relocs [(offset, @target, addend), ...]` of the global
    /// about to be pushed (targets by name are resolved at the end).
    fn opt_relocs(&mut self) -> Result<Vec<GlobalReloc>, ParseError> {
        let mut relocs = Vec::new();
        if !self.eat_kw("relocs") {
            return Ok(relocs);
        }
        let global = self.prog.globals.len();
        self.expect(&Tok::LBracket)?;
        loop {
            self.expect(&Tok::LParen)?;
            let offset = self.int("a byte offset")?;
            self.expect(&Tok::Comma)?;
            let target = if self.eat_kw("fn") {
                RelocTarget::Func(FuncId(self.reference(FixKind::RelocFunc, global, relocs.len(), 0)?))
            } else {
                RelocTarget::Global(GlobalId(self.reference(FixKind::Reloc, global, relocs.len(), 0)?))
            };
            self.expect(&Tok::Comma)?;
            let addend = self.int("an addend")?;
            self.expect(&Tok::RParen)?;
            relocs.push(GlobalReloc { offset, target, addend });
            if self.eat(&Tok::RBracket) {
                break;
            }
            self.expect(&Tok::Comma)?;
        }
        Ok(relocs)
    }

    fn global(&mut self) -> Result<(), ParseError> {
        self.expect_kw("global")?;
        let name = self.def_name()?;
        self.expect(&Tok::Colon)?;
        let elem = self.ty()?;
        let count = self.opt_count()?;
        let mut init = Vec::new();
        if self.eat(&Tok::Eq) {
            self.expect(&Tok::LBracket)?;
            if !self.eat(&Tok::RBracket) {
                loop {
                    let t = self.bump();
                    init.push(Self::value_bits(&t, elem)?);
                    if self.eat(&Tok::RBracket) {
                        break;
                    }
                    self.expect(&Tok::Comma)?;
                }
            }
        }
        let relocs = self.opt_relocs()?;
        let is_const = self.eat_kw("const");
        let src = self.opt_src()?;
        self.prog.globals.push(GlobalData { name, elem, count, init, src, is_const, relocs });
        Ok(())
    }

    /// The function header shared by `declare` and `func`; `num_regs` is
    /// left at 0 when absent and filled in by [`Parser::finish_num_regs`].
    fn header(&mut self) -> Result<(FuncData, Option<u32>), ParseError> {
        let name = self.def_name()?;
        self.expect(&Tok::LParen)?;
        let mut params = Vec::new();
        if !self.eat(&Tok::RParen) {
            loop {
                let reg = match *self.peek() {
                    Tok::Reg(r) => {
                        self.bump();
                        Reg(r)
                    }
                    _ => return Err(self.expected("a parameter register (%N)")),
                };
                self.expect(&Tok::Colon)?;
                let ty = self.ty()?;
                let src = self.opt_src()?.unwrap_or_else(|| default_param_src(ty));
                params.push(Param { reg, ty, src });
                if self.eat(&Tok::RParen) {
                    break;
                }
                self.expect(&Tok::Comma)?;
            }
        }
        self.expect(&Tok::Arrow)?;
        let ret = if self.eat_kw("void") { None } else { Some(self.ty()?) };
        let ret_src = self.opt_src()?;
        let is_static = self.eat_kw("static");
        let cty = if self.eat_kw("ctype") {
            self.expect(&Tok::LParen)?;
            let t = self.cty(0)?;
            self.expect(&Tok::RParen)?;
            Some(t)
        } else {
            None
        };
        let num_regs = if self.eat_kw("num_regs") { Some(self.int_u32("a register count")?) } else { None };
        let loc = self.opt_loc()?;
        let f = FuncData {
            name,
            params,
            ret,
            ret_src,
            locals: Vec::new(),
            blocks: Vec::new(),
            iteration_starts: Vec::new(),
            switches: Vec::new(),
            num_regs: 0,
            is_static,
            cty,
            loc,
        };
        Ok((f, num_regs))
    }

    fn finish_num_regs(f: &mut FuncData, explicit: Option<u32>) {
        f.num_regs = explicit.unwrap_or_else(|| min_num_regs(f));
    }

    fn declare(&mut self) -> Result<(), ParseError> {
        self.expect_kw("declare")?;
        let (mut f, num_regs) = self.header()?;
        Self::finish_num_regs(&mut f, num_regs);
        self.prog.funcs.push(f);
        Ok(())
    }

    fn func(&mut self) -> Result<(), ParseError> {
        self.expect_kw("func")?;
        let (mut f, num_regs) = self.header()?;
        self.expect(&Tok::LBrace)?;
        while self.is_kw("local") {
            let t = self.bump();
            let idx = match *self.peek() {
                Tok::Local(l) => {
                    self.bump();
                    l
                }
                _ => return Err(self.expected("a local slot ($N)")),
            };
            if idx as usize != f.locals.len() {
                return Err(Self::err_at(&t, format!("expected local ${}", f.locals.len())));
            }
            let name = self.string("the local's name string")?;
            self.expect(&Tok::Colon)?;
            let elem = self.ty()?;
            let count = self.opt_count()?;
            f.locals.push(LocalData { name, elem, count });
        }
        while self.eat_kw("iterates") {
            let b = self.block_label()?;
            f.iteration_starts.push(b);
        }
        while self.eat_kw("switch") {
            self.expect(&Tok::LBracket)?;
            let mut chain = vec![self.block_label()?];
            while self.eat(&Tok::Comma) {
                chain.push(self.block_label()?);
            }
            self.expect(&Tok::RBracket)?;
            f.switches.push(chain);
        }
        let func_idx = self.prog.funcs.len();
        while !self.eat(&Tok::RBrace) {
            let block = self.block(func_idx, f.blocks.len())?;
            f.blocks.push(block);
        }
        Self::finish_num_regs(&mut f, num_regs);
        self.prog.funcs.push(f);
        Ok(())
    }

    // ---- bodies -------------------------------------------------------------

    fn block(&mut self, func: usize, index: usize) -> Result<BlockData, ParseError> {
        let t = self.tok().clone();
        let label = self.block_label()?;
        if label.index() != index {
            return Err(Self::err_at(&t, format!("expected block label bb{index} (blocks are numbered in order)")));
        }
        self.expect(&Tok::Colon)?;
        let mut insts = Vec::new();
        loop {
            match self.body_line(func, index, insts.len())? {
                BodyLine::Inst(i) => insts.push(i),
                BodyLine::Term(term, term_loc) => return Ok(BlockData { insts, term, term_loc }),
            }
        }
    }

    fn body_line(&mut self, func: usize, block: usize, inst: usize) -> Result<BodyLine, ParseError> {
        let result = match *self.peek() {
            Tok::Reg(r) => {
                self.bump();
                self.expect(&Tok::Eq)?;
                Some(Reg(r))
            }
            _ => None,
        };
        let (op, t) = match self.peek() {
            Tok::Ident(_) => self.ident("an instruction")?,
            Tok::RBrace | Tok::Eof => return Err(self.err(format!("block bb{block} has no terminator"))),
            _ => return Err(self.expected("an instruction or terminator")),
        };
        let term = match op.as_str() {
            "jmp" => Some(Terminator::Jump(self.block_label()?)),
            "br" => {
                let cond = self.operand()?;
                self.expect(&Tok::Comma)?;
                let then_block = self.block_label()?;
                self.expect(&Tok::Comma)?;
                let else_block = self.block_label()?;
                Some(Terminator::Branch { cond, then_block, else_block })
            }
            "ret" => match self.peek() {
                Tok::Reg(_) | Tok::Int(_) | Tok::NegInt(_) => Some(Terminator::Return(Some(self.operand()?))),
                _ => Some(Terminator::Return(None)),
            },
            "unreachable" => Some(Terminator::Unreachable),
            _ => None,
        };
        if let Some(term) = term {
            if result.is_some() {
                return Err(Self::err_at(&t, "a terminator has no result register"));
            }
            return Ok(BodyLine::Term(term, self.opt_loc()?));
        }
        let kind = self.inst_kind(&op, &t, func, block, inst)?;
        let loc = self.opt_loc()?;
        Ok(BodyLine::Inst(Inst { result, kind, loc }))
    }

    /// The operation of an instruction whose opcode `op` was just read.
    fn inst_kind(
        &mut self,
        op: &str,
        t: &Token,
        func: usize,
        block: usize,
        inst: usize,
    ) -> Result<InstKind, ParseError> {
        if let Some(op) = BinOp::from_name(op) {
            let nsw = self.eat_kw("nsw");
            let ty = self.ty()?;
            let (a, b) = self.two_operands()?;
            return Ok(InstKind::Bin { op, ty, a, b, nsw });
        }
        if let Some(op) = FBinOp::from_name(op) {
            let ty = self.ty()?;
            let (a, b) = self.two_operands()?;
            return Ok(InstKind::FBin { op, ty, a, b });
        }
        if let Some(op) = FCastOp::from_name(op) {
            let from = self.ty()?;
            let a = self.operand()?;
            self.expect_kw("to")?;
            let to = self.ty()?;
            return Ok(InstKind::FCast { op, from, to, a });
        }
        if let Some(op) = CastOp::from_name(op) {
            let from = self.ty()?;
            let a = self.operand()?;
            self.expect_kw("to")?;
            let to = self.ty()?;
            return Ok(InstKind::Cast { op, from, to, a });
        }
        Ok(match op {
            "cmp" => {
                let (name, nt) = self.ident("a comparison (eq, ne, slt, ...)")?;
                let op =
                    CmpOp::from_name(&name).ok_or_else(|| Self::err_at(&nt, format!("unknown comparison `{name}`")))?;
                let ty = self.ty()?;
                let (a, b) = self.two_operands()?;
                InstKind::Cmp { op, ty, a, b }
            }
            "fcmp" => {
                let (name, nt) = self.ident("a floating comparison (oeq, une, olt, ...)")?;
                let op = FCmpOp::from_name(&name)
                    .ok_or_else(|| Self::err_at(&nt, format!("unknown floating comparison `{name}`")))?;
                let ty = self.ty()?;
                let (a, b) = self.two_operands()?;
                InstKind::FCmp { op, ty, a, b }
            }
            "fneg" => {
                let ty = self.ty()?;
                InstKind::FNeg { ty, a: self.operand()? }
            }
            "addr" => match self.peek().clone() {
                Tok::Local(l) => {
                    self.bump();
                    InstKind::AddrLocal { local: Local(l) }
                }
                Tok::Name(_) => {
                    let id = self.reference(FixKind::Global, func, block, inst)?;
                    InstKind::AddrGlobal { global: GlobalId(id) }
                }
                _ => return Err(self.expected("a local ($N) or a global (@name)")),
            },
            "addrfn" => InstKind::AddrFunc { func: FuncId(self.reference(FixKind::FuncAddr, func, block, inst)?) },
            "ptradd" => {
                let (base, offset) = self.two_operands()?;
                InstKind::PtrAdd { base, offset }
            }
            "ptrdiff" => {
                let (a, b) = self.two_operands()?;
                InstKind::PtrDiff { a, b }
            }
            "checkindex" => {
                let end = self.eat_kw("end");
                let index = self.operand()?;
                self.expect(&Tok::Comma)?;
                InstKind::CheckIndex { index, len: self.int("an array length")?, end }
            }
            "load" => {
                let ty = self.ty()?;
                InstKind::Load { ty, ptr: self.operand()? }
            }
            "alloca" => {
                let elem = self.ty()?;
                self.expect(&Tok::Comma)?;
                InstKind::Alloca { elem, count: self.operand()? }
            }
            "store" => {
                let ty = self.ty()?;
                let (ptr, value) = self.two_operands()?;
                InstKind::Store { ty, ptr, value }
            }
            "call" => {
                let id = self.reference(FixKind::Func, func, block, inst)?;
                let args = self.arg_list()?;
                InstKind::Call { func: FuncId(id), args }
            }
            "callptr" => {
                let callee = self.operand()?;
                let args = self.arg_list()?;
                let ret = if self.eat(&Tok::Arrow) { Some(self.ty()?) } else { None };
                InstKind::CallPtr { callee, args, ret }
            }
            other => return Err(Self::err_at(t, format!("unknown instruction `{other}`"))),
        })
    }

    /// `(operand, ...)`: the arguments of a call.
    fn arg_list(&mut self) -> Result<Vec<Operand>, ParseError> {
        self.expect(&Tok::LParen)?;
        let mut args = Vec::new();
        if !self.eat(&Tok::RParen) {
            loop {
                args.push(self.operand()?);
                if self.eat(&Tok::RParen) {
                    break;
                }
                self.expect(&Tok::Comma)?;
            }
        }
        Ok(args)
    }

    /// A function or global reference: an index is used as is, a name is
    /// recorded for [`Parser::resolve`] (with a placeholder id of 0).
    fn reference(&mut self, kind: FixKind, func: usize, block: usize, inst: usize) -> Result<u32, ParseError> {
        let what = match kind {
            FixKind::Func | FixKind::FuncAddr | FixKind::RelocFunc => "a function name (@name)",
            FixKind::Global | FixKind::Reloc => "a global name (@name)",
        };
        let (n, t) = self.name(what)?;
        match n {
            NameTok::Index(i) => Ok(i),
            NameTok::Named(name) => {
                self.fixups.push(Fixup { kind, func, block, inst, name, line: t.line, col: t.col });
                Ok(0)
            }
        }
    }

    /// Patch by-name references; a name means the first entity so named.
    fn resolve(&mut self) -> Result<(), ParseError> {
        for fx in std::mem::take(&mut self.fixups) {
            let err =
                |what: &str| ParseError { line: fx.line, col: fx.col, message: format!("unknown {what} @{}", fx.name) };
            let id = match fx.kind {
                FixKind::Func | FixKind::FuncAddr | FixKind::RelocFunc => {
                    self.prog.func_by_name(&fx.name).map(|f| f.0).ok_or_else(|| err("function"))?
                }
                FixKind::Global | FixKind::Reloc => {
                    self.prog.global_by_name(&fx.name).map(|g| g.0).ok_or_else(|| err("global"))?
                }
            };
            match fx.kind {
                FixKind::Reloc => {
                    self.prog.globals[fx.func].relocs[fx.block].target = RelocTarget::Global(GlobalId(id));
                    continue;
                }
                FixKind::RelocFunc => {
                    self.prog.globals[fx.func].relocs[fx.block].target = RelocTarget::Func(FuncId(id));
                    continue;
                }
                _ => {}
            }
            let kind = &mut self.prog.funcs[fx.func].blocks[fx.block].insts[fx.inst].kind;
            match kind {
                InstKind::Call { func, .. } => *func = FuncId(id),
                InstKind::AddrGlobal { global } => *global = GlobalId(id),
                InstKind::AddrFunc { func } => *func = FuncId(id),
                _ => unreachable!("fixups are only recorded for calls and global and function addresses"),
            }
        }
        Ok(())
    }
}

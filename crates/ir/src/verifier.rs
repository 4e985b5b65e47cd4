//! The IR verifier: structural and type checks that every program produced by
//! the front end must pass before the engine runs it.
//!
//! Checks, per program:
//! - function names are unique, global names are unique;
//! - a global's `init` has at most `count` values, each fitting `elem`
//!   (`ptr` globals can only be initialised to 0, the null pointer);
//! - C types (struct fields, `src(..., type(...))` of parameters, returns and
//!   globals) name existing structures; every field lies within its
//!   structure's size (a union's at offset 0); a `heap` variable has a C type.
//!
//! Per function (declarations only get the checks on parameters, registers
//! and locations):
//! - definitions have an entry block `bb0`;
//! - iteration-start blocks exist; switch chains list blocks ending in `br`;
//! - every jump/branch target exists;
//! - every register (parameter, result, operand) is `< num_regs`;
//! - each register is defined exactly once (parameters count as definitions)
//!   and every used register is defined;
//! - every use is dominated by its definition: an earlier instruction of the
//!   same block, or a block dominating the user's block (dominators from
//!   `petgraph::algo::dominators::simple_fast`); uses inside blocks
//!   unreachable from the entry are not checked;
//! - instructions have a result register, except `store` (never) and `call`
//!   (exactly when the callee returns a value);
//! - operand types: `bin` operands have type `ty`, which is an integer type;
//!   `cmp` operands have type `ty`, and `ptr` comparisons are `eq`, `ne` or
//!   unsigned, never on floating types; `fadd`/`fsub`/`fmul`/`fdiv`,
//!   `fneg` and `fcmp` take operands of their floating type `ty`;
//!   `sitofp`/`uitofp`/`fptosi`/`fptoui` go between `i8`..`i64` and a
//!   floating type, `fpext` is `f32` to `f64` and `fptrunc` the reverse;
//!   casts go between integer types, with the operand of type
//!   `from`, `zext`/`sext` widening and `trunc` narrowing; `br` conditions
//!   are `i1`; `ptradd` takes a `ptr` base and an `i64` offset; `ptrdiff`
//!   takes two `ptr`s; an `alloca` count is `i64`; `load`/`store` addresses
//!   are `ptr`; a stored value has
//!   the store's type; `ret` matches the function's return type (a value iff
//!   the function is not `void`); calls have the callee's arity and parameter
//!   types (a declaration may get more arguments: a variadic function's);
//! - referenced locals, globals and functions exist;
//! - constants fit their type (no bits above its width), and `ptr`
//!   constants are 0;
//! - source locations name an existing file (or are [`Loc::NONE`]-like, with
//!   line 0).

use std::collections::hash_map::Entry;
use std::fmt;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analysis::Dominators;
use crate::ctype::{CType, StructDef};
use crate::entities::{Block, Reg};
use crate::program::{
    CastOp, CmpOp, FuncData, InstKind, Loc, Operand, Program, RelocTarget, Shape, SrcVar, Terminator,
};
use crate::types::Type;

/// One verifier finding, located by function and block.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VerifierError {
    /// The function's name; empty for program-level problems (globals).
    pub func: String,
    pub block: Option<Block>,
    pub message: String,
}

impl fmt::Display for VerifierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.func.is_empty(), self.block) {
            (true, _) => f.write_str(&self.message),
            (false, None) => write!(f, "in @{}: {}", self.func, self.message),
            (false, Some(b)) => write!(f, "in @{}, {b}: {}", self.func, self.message),
        }
    }
}

impl std::error::Error for VerifierError {}

/// Check `p`; all problems found are returned, in program order.
pub fn verify(p: &Program) -> Result<(), Vec<VerifierError>> {
    let mut errors = Vec::new();
    check_program(p, &mut errors);
    for f in &p.funcs {
        FnChecker::new(p, f, &mut errors).run();
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Type of each register `%0 .. %{num_regs-1}` as given by its definition
/// (parameter type or instruction result type), `None` for registers that
/// are never defined.
///
/// A call's result type is its callee's return type, which a `FuncData`
/// alone does not know: call results are `None` here. Use [`reg_types_in`]
/// to type them too.
///
/// The vector has `num_regs` entries: only call this on verified functions
/// (the verifier itself does not, so that a corrupt `num_regs` is harmless).
pub fn reg_types(f: &FuncData) -> Vec<Option<Type>> {
    reg_types_impl(None, f)
}

/// Like [`reg_types`], also typing call results from the callees of `p`.
pub fn reg_types_in(p: &Program, f: &FuncData) -> Vec<Option<Type>> {
    reg_types_impl(Some(p), f)
}

fn reg_types_impl(p: Option<&Program>, f: &FuncData) -> Vec<Option<Type>> {
    let mut types = vec![None; f.num_regs as usize];
    // The first definition wins; duplicates are a verifier error anyway.
    let mut set = |r: Reg, t: Option<Type>| {
        if let Some(slot) = types.get_mut(r.index()) {
            if slot.is_none() {
                *slot = t;
            }
        }
    };
    for param in &f.params {
        set(param.reg, Some(param.ty));
    }
    for b in &f.blocks {
        for i in &b.insts {
            if let Some(r) = i.result {
                set(r, i.kind.result_type(p));
            }
        }
    }
    types
}

/// Whether constant bits `v` are a valid value of type `ty`.
fn const_fits(ty: Type, v: u64) -> bool {
    match ty {
        Type::Ptr => v == 0,
        _ => v & !ty.mask() == 0,
    }
}

fn check_program(p: &Program, errors: &mut Vec<VerifierError>) {
    let mut err = |message: String| errors.push(VerifierError { func: String::new(), block: None, message });
    let mut seen = FxHashSet::default();
    for f in &p.funcs {
        if !seen.insert(f.name.as_str()) {
            err(format!("function name @{} is defined more than once", f.name));
        }
    }
    let mut seen = FxHashSet::default();
    for g in &p.globals {
        if !seen.insert(g.name.as_str()) {
            err(format!("global name @{} is defined more than once", g.name));
        }
        if g.init.len() as u64 > g.count {
            err(format!("global @{} has {} initial values for {} elements", g.name, g.init.len(), g.count));
        }
        for (k, v) in g.init.iter().enumerate() {
            if !const_fits(g.elem, *v) {
                err(format!("global @{}: initial value #{k} ({v}) does not fit {}", g.name, g.elem));
            }
        }
        let size = g.count.saturating_mul(g.elem.bytes());
        for r in &g.relocs {
            if r.offset.checked_add(8).is_none_or(|end| end > size) {
                err(format!("global @{}: relocation at byte {} is outside its {size} bytes", g.name, r.offset));
            }
            match r.target {
                RelocTarget::Global(target) => match p.globals.get(target.0 as usize) {
                    None => err(format!("global @{}: relocation to unknown global @#{}", g.name, target.0)),
                    Some(t) if r.addend > t.count.saturating_mul(t.elem.bytes()) => {
                        err(format!("global @{}: relocation to @{} + {} is past its end", g.name, t.name, r.addend))
                    }
                    Some(_) => {}
                },
                RelocTarget::Func(f) => match p.funcs.get(f.0 as usize) {
                    None => err(format!("global @{}: relocation to unknown function @#{}", g.name, f.0)),
                    Some(t) if r.addend != 0 => {
                        err(format!("global @{}: relocation to function @{} with addend {}", g.name, t.name, r.addend))
                    }
                    Some(_) => {}
                },
            }
        }
        if let Some(src) = &g.src {
            check_src(&p.structs, src, &format!("global @{}", g.name), &mut err);
        }
    }
    for f in &p.funcs {
        for param in &f.params {
            check_src(&p.structs, &param.src, &format!("@{}, parameter {}", f.name, param.reg), &mut err);
        }
        if let Some(src) = &f.ret_src {
            check_src(&p.structs, src, &format!("@{}, return value", f.name), &mut err);
        }
    }
    check_structs(&p.structs, &mut err);
}

/// The size of a C type without trusting struct indices (`None` when one is
/// out of range or the size overflows).
fn checked_size(structs: &[StructDef], t: &CType) -> Option<u64> {
    match t {
        CType::Void | CType::Func { .. } => Some(1),
        CType::Int { ty, .. } => Some(ty.ty.bytes()),
        CType::Ptr(_) => Some(8),
        CType::Array(e, n) => checked_size(structs, e)?.checked_mul(*n),
        CType::Struct(id) => structs.get(id.0 as usize).map(|d| d.size),
    }
}

/// The first out-of-range struct index in a C type.
fn bad_struct_ref(structs: &[StructDef], t: &CType) -> Option<u32> {
    match t {
        CType::Void | CType::Int { .. } | CType::Func { .. } => None,
        CType::Ptr(e) | CType::Array(e, _) => bad_struct_ref(structs, e),
        CType::Struct(id) => (id.0 as usize >= structs.len()).then_some(id.0),
    }
}

fn check_src(structs: &[StructDef], src: &SrcVar, what: &str, err: &mut impl FnMut(String)) {
    match &src.cty {
        Some(t) => {
            if let Some(i) = bad_struct_ref(structs, t) {
                err(format!("{what}: C type refers to struct {i}, which does not exist"));
            }
            let is_fn_ptr = matches!(t.pointee(), Some(CType::Func { .. }));
            if (src.shape == Shape::Function) != is_fn_ptr && matches!(src.shape, Shape::Function | Shape::Scalar) {
                err(format!("{what}: shape `function` goes with a pointer-to-function C type and only with it"));
            }
        }
        None if src.shape == Shape::Heap => err(format!("{what}: a heap variable needs a C type")),
        None if src.shape == Shape::ByValue => err(format!("{what}: a structure passed by value needs a C type")),
        None if src.shape == Shape::Function => err(format!("{what}: a function pointer needs a C type")),
        None => {}
    }
}

fn check_structs(structs: &[StructDef], err: &mut impl FnMut(String)) {
    for (i, def) in structs.iter().enumerate() {
        for f in &def.fields {
            if let Some(j) = bad_struct_ref(structs, &f.ty) {
                err(format!("struct {i}, field {:?}: refers to struct {j}, which does not exist", f.name));
                continue;
            }
            let end = checked_size(structs, &f.ty).and_then(|n| n.checked_add(f.offset));
            if end.is_none_or(|e| e > def.size) {
                err(format!("struct {i}, field {:?} at offset {} exceeds the size {}", f.name, f.offset, def.size));
            }
            if def.is_union && f.offset != 0 {
                err(format!("union {i}, field {:?} is not at offset 0", f.name));
            }
        }
    }
}

/// Where a register is defined.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Def {
    Param,
    /// Block and instruction index.
    Inst(Block, usize),
}

/// Per-function checking state.
struct FnChecker<'a> {
    p: &'a Program,
    f: &'a FuncData,
    errors: &'a mut Vec<VerifierError>,
    /// Definition site and type of each defined register. A map rather than
    /// `num_regs`-sized vectors, so that a corrupt `num_regs` (up to 2^32)
    /// cannot make the verifier allocate gigabytes.
    defs: FxHashMap<Reg, (Def, Option<Type>)>,
    doms: Dominators,
    /// Block being checked, for error locations.
    block: Option<Block>,
}

impl<'a> FnChecker<'a> {
    fn new(p: &'a Program, f: &'a FuncData, errors: &'a mut Vec<VerifierError>) -> Self {
        FnChecker { p, f, errors, defs: FxHashMap::default(), doms: Dominators::compute(f), block: None }
    }

    fn err(&mut self, message: String) {
        self.errors.push(VerifierError { func: self.f.name.clone(), block: self.block, message });
    }

    fn run(mut self) {
        self.check_loc(self.f.loc, "function");
        for i in 0..self.f.params.len() {
            let param = &self.f.params[i];
            self.define(param.reg, Def::Param, Some(param.ty));
        }
        if self.f.is_declaration() {
            return;
        }
        for &b in &self.f.iteration_starts {
            if b.index() >= self.f.blocks.len() {
                self.err(format!("iteration start {b} does not exist"));
            }
        }
        for &b in self.f.switches.iter().flatten() {
            match self.f.blocks.get(b.index()) {
                Some(data) if matches!(data.term, Terminator::Branch { .. }) => {}
                _ => self.err(format!("switch decision {b} is not a block ending in `br`")),
            }
        }
        // Record all definitions first, so that uses can be checked against
        // definitions that appear later in block order.
        for (bi, b) in self.f.blocks.iter().enumerate() {
            self.block = Some(Block(bi as u32));
            for (ii, inst) in b.insts.iter().enumerate() {
                if let Some(r) = inst.result {
                    let ty = inst.kind.result_type(Some(self.p));
                    self.define(r, Def::Inst(Block(bi as u32), ii), ty);
                }
            }
        }
        for bi in 0..self.f.blocks.len() {
            self.block = Some(Block(bi as u32));
            self.check_block(Block(bi as u32));
        }
    }

    fn check_loc(&mut self, loc: Loc, what: &str) {
        if !loc.is_none() && loc.file as usize >= self.p.files.len() {
            self.err(format!("{what} location refers to missing file {}", loc.file));
        }
    }

    fn define(&mut self, r: Reg, def: Def, ty: Option<Type>) {
        if r.0 >= self.f.num_regs {
            self.out_of_range(r);
            return;
        }
        match self.defs.entry(r) {
            Entry::Occupied(_) => self.err(format!("register {r} is defined more than once")),
            Entry::Vacant(v) => {
                v.insert((def, ty));
            }
        }
    }

    fn out_of_range(&mut self, r: Reg) {
        let n = self.f.num_regs;
        self.err(format!("register {r} is out of range (num_regs = {n})"));
    }

    fn check_block(&mut self, b: Block) {
        let f = self.f;
        let data = f.block(b);
        for (ii, inst) in data.insts.iter().enumerate() {
            self.check_loc(inst.loc, "instruction");
            for op in inst.kind.operands() {
                self.check_use(op, b, ii);
            }
            self.check_inst(&inst.kind, inst.result);
        }
        self.check_loc(data.term_loc, "terminator");
        for op in data.term.operands() {
            self.check_use(op, b, data.insts.len());
        }
        self.check_term(&data.term);
    }

    /// Range, definedness and dominance of a register use at instruction
    /// `pos` of block `b` (`pos == insts.len()` for the terminator), and the
    /// validity of a constant.
    fn check_use(&mut self, op: Operand, b: Block, pos: usize) {
        let r = match op {
            Operand::Const(ty, v) => {
                if !const_fits(ty, v) {
                    self.err(format!("constant {v} does not fit {ty}"));
                }
                return;
            }
            Operand::Reg(r) => r,
        };
        if r.0 >= self.f.num_regs {
            return self.out_of_range(r);
        }
        let Some(&(def, _)) = self.defs.get(&r) else {
            return self.err(format!("use of undefined register {r}"));
        };
        if !self.doms.is_reachable(b) {
            return;
        }
        let ok = match def {
            Def::Param => true,
            Def::Inst(db, di) if db == b => di < pos,
            Def::Inst(db, _) => self.doms.dominates(db, b),
        };
        if !ok {
            self.err(format!("use of {r} is not dominated by its definition"));
        }
    }

    fn ty_of(&self, op: Operand) -> Option<Type> {
        match op {
            Operand::Const(t, _) => Some(t),
            Operand::Reg(r) => self.defs.get(&r).and_then(|(_, t)| *t),
        }
    }

    /// Report `what` unless `op` has type `want` (unknown types were already
    /// reported as undefined registers).
    fn expect_ty(&mut self, op: Operand, want: Type, what: &str) {
        if let Some(t) = self.ty_of(op) {
            if t != want {
                self.err(format!("{what} has type {t}, expected {want}"));
            }
        }
    }

    fn check_result(&mut self, result: Option<Reg>, wanted: bool, what: &str) {
        match (result, wanted) {
            (None, true) => self.err(format!("{what} needs a result register")),
            (Some(r), false) => self.err(format!("{what} cannot have a result register (found {r})")),
            _ => {}
        }
    }

    fn check_inst(&mut self, kind: &InstKind, result: Option<Reg>) {
        match kind {
            InstKind::Bin { op, ty, a, b, nsw } => {
                if !ty.is_int() {
                    self.err(format!("`{}` on non-integer type {ty}", op.name()));
                }
                if *nsw && !matches!(op, crate::BinOp::Add | crate::BinOp::Sub | crate::BinOp::Mul | crate::BinOp::Shl)
                {
                    self.err(format!("`nsw` on `{}`", op.name()));
                }
                self.expect_ty(*a, *ty, "first operand");
                self.expect_ty(*b, *ty, "second operand");
            }
            InstKind::Cmp { op, ty, a, b } => {
                let signed = matches!(op, CmpOp::Slt | CmpOp::Sle | CmpOp::Sgt | CmpOp::Sge);
                if *ty == Type::Ptr && signed {
                    self.err(format!("signed comparison `{}` of pointers", op.name()));
                }
                if ty.is_float() {
                    self.err(format!("`cmp {}` on floating type {ty} (use `fcmp`)", op.name()));
                }
                self.expect_ty(*a, *ty, "first operand");
                self.expect_ty(*b, *ty, "second operand");
            }
            InstKind::Cast { op, from, to, a } => self.check_cast(*op, *from, *to, *a),
            InstKind::FBin { op, ty, a, b } => {
                self.expect_float(*ty, op.name());
                self.expect_ty(*a, *ty, "first operand");
                self.expect_ty(*b, *ty, "second operand");
            }
            InstKind::FNeg { ty, a } => {
                self.expect_float(*ty, "fneg");
                self.expect_ty(*a, *ty, "operand");
            }
            InstKind::FCmp { op, ty, a, b } => {
                self.expect_float(*ty, &format!("fcmp {}", op.name()));
                self.expect_ty(*a, *ty, "first operand");
                self.expect_ty(*b, *ty, "second operand");
            }
            InstKind::FCast { op, from, to, a } => {
                if !op.types_ok(*from, *to) {
                    self.err(format!("`{}` from {from} to {to}", op.name()));
                }
                self.expect_ty(*a, *from, "cast operand");
            }
            InstKind::AddrLocal { local } => {
                if local.index() >= self.f.locals.len() {
                    self.err(format!("reference to missing local {local}"));
                }
            }
            InstKind::AddrGlobal { global } => {
                if global.0 as usize >= self.p.globals.len() {
                    self.err(format!("reference to missing global @#{}", global.0));
                }
            }
            InstKind::AddrFunc { func } => {
                if func.0 as usize >= self.p.funcs.len() {
                    self.err(format!("reference to missing function @#{}", func.0));
                }
            }
            InstKind::PtrAdd { base, offset } => {
                self.expect_ty(*base, Type::Ptr, "ptradd base");
                self.expect_ty(*offset, Type::I64, "ptradd offset");
            }
            InstKind::PtrDiff { a, b } => {
                self.expect_ty(*a, Type::Ptr, "first ptrdiff operand");
                self.expect_ty(*b, Type::Ptr, "second ptrdiff operand");
            }
            InstKind::CheckIndex { index, .. } => {
                self.expect_ty(*index, Type::I64, "checkindex index");
                return self.check_result(result, false, "checkindex");
            }
            InstKind::Load { ptr, .. } => self.expect_ty(*ptr, Type::Ptr, "load address"),
            InstKind::Alloca { count, .. } => self.expect_ty(*count, Type::I64, "alloca count"),
            InstKind::Store { ty, ptr, value } => {
                self.expect_ty(*ptr, Type::Ptr, "store address");
                self.expect_ty(*value, *ty, "stored value");
                return self.check_result(result, false, "store");
            }
            InstKind::Call { func, args } => return self.check_call(*func, args, result),
            InstKind::CallPtr { callee, ret, .. } => {
                self.expect_ty(*callee, Type::Ptr, "callptr callee");
                return self.check_result(result, ret.is_some(), "callptr");
            }
        }
        self.check_result(result, true, "instruction");
    }

    fn expect_float(&mut self, ty: Type, what: &str) {
        if !ty.is_float() {
            self.err(format!("`{what}` on non-floating type {ty}"));
        }
    }

    fn check_cast(&mut self, op: CastOp, from: Type, to: Type, a: Operand) {
        if !from.is_int() || !to.is_int() {
            self.err(format!("`{}` between non-integer types {from} and {to}", op.name()));
        }
        let ok = match op {
            CastOp::ZExt | CastOp::SExt => to.bits() > from.bits(),
            CastOp::Trunc => to.bits() < from.bits(),
        };
        if !ok {
            let dir = if op == CastOp::Trunc { "narrow" } else { "widen" };
            self.err(format!("`{}` from {from} to {to} does not {dir}", op.name()));
        }
        self.expect_ty(a, from, "cast operand");
    }

    fn check_call(&mut self, func: crate::program::FuncId, args: &[Operand], result: Option<Reg>) {
        let Some(callee) = self.p.funcs.get(func.0 as usize) else {
            return self.err(format!("call to missing function @#{}", func.0));
        };
        // A declaration may take more: a variadic library function's extra
        // arguments (the front end keeps `...` only for body-less callees).
        let extra_ok = callee.is_declaration() && args.len() > callee.params.len();
        if args.len() != callee.params.len() && !extra_ok {
            self.err(format!(
                "call to @{} with {} arguments, expected {}",
                callee.name,
                args.len(),
                callee.params.len()
            ));
        }
        for (k, (a, param)) in args.iter().zip(&callee.params).enumerate() {
            self.expect_ty(*a, param.ty, &format!("argument #{k} of call to @{}", callee.name));
        }
        let what = format!("call to @{}", callee.name);
        self.check_result(result, callee.ret.is_some(), &what);
    }

    fn check_term(&mut self, term: &Terminator) {
        for s in term.successors() {
            if s.index() >= self.f.blocks.len() {
                self.err(format!("branch to missing block {s}"));
            }
        }
        match (term, self.f.ret) {
            (Terminator::Branch { cond, .. }, _) => self.expect_ty(*cond, Type::I1, "branch condition"),
            (Terminator::Return(Some(_)), None) => self.err("`ret` with a value in a void function".to_string()),
            (Terminator::Return(None), Some(t)) => self.err(format!("`ret` without a value, expected {t}")),
            (Terminator::Return(Some(v)), Some(t)) => self.expect_ty(*v, t, "returned value"),
            _ => {}
        }
    }
}

//! Translation-unit state shared by all lowering code: symbol scopes, the
//! registries of functions and global objects, the program under
//! construction and the collected diagnostics.
//!
//! Functions and globals get their IR ids lazily: a function defined in a
//! user file gets a [`FuncId`] when its definition is reached, any other
//! function only when a lowered body calls it; a global object gets a
//! [`GlobalId`] when it is defined or first used. System headers declare
//! hundreds of functions and objects, and only the used ones belong in the
//! program.
//!
//! Errors are classified: [`LowerError::Unsupported`] marks C outside the
//! supported subset (the enclosing function is then kept only as a
//! declaration and reported in `Compiled::unsupported`), while
//! [`LowerError::Invalid`] is a genuine error in the C program (undeclared
//! identifier, bad lvalue...), fatal for the whole file when it occurs in
//! user code.

use lang_c::ast::FunctionDefinition;
use lang_c::span::{Node, Span};
use pathwise_ir::{FuncData, FuncId, GlobalData, GlobalId, InstKind, Loc, Local, Param, Program, Reg, RelocTarget};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::ctypes::{param_src, src_var, CType, FuncSig};
use crate::locations::{FileTable, LineMap};
use crate::structs::StructRef;
use crate::{DataModel, Diagnostic, UnsupportedFunction, UnsupportedGlobal};

/// A lowering failure.
#[derive(Clone, Debug)]
pub(crate) enum LowerError {
    /// Valid C that Pathwise does not support.
    Unsupported(Diagnostic),
    /// An error in the C program.
    Invalid(Diagnostic),
}

impl LowerError {
    pub fn diagnostic(&self) -> &Diagnostic {
        match self {
            LowerError::Unsupported(d) | LowerError::Invalid(d) => d,
        }
    }
}

pub(crate) type LResult<T> = Result<T, LowerError>;

/// What an ordinary identifier denotes.
#[derive(Clone, Debug)]
pub(crate) enum Sym {
    /// A typedef name: the type, and whether it is `const`-qualified.
    Typedef(CType, bool),
    /// An enumeration constant, with its type (`int` unless its value
    /// does not fit; see `typespec::enum_type`).
    EnumConst(crate::consteval::CVal),
    /// A variable in a stack slot of the current function.
    Local { local: Local, ty: CType },
    /// A variable of the current function whose storage is allocated when
    /// its declaration runs (`alloca`: variable-length arrays, large
    /// zero-filled arrays); `slot` holds its address.
    Indirect { slot: Local, ty: CType },
    /// A global object: index into [`Unit::objects`].
    Global(usize),
    /// A function: index into [`Unit::funcs`].
    Func(usize),
    /// A declaration that could not be lowered; using it is unsupported.
    Unsupported(Diagnostic),
    /// A structure or union tag (key `tag NAME`, see `structs.rs`).
    Tag(StructRef),
}

/// How far a function's body has been lowered.
#[derive(Debug)]
pub(crate) enum BodyState {
    NotLowered,
    Lowered(Box<FuncData>),
    Failed,
}

/// A function known to the translation unit (declared or defined).
pub(crate) struct FuncEntry<'a> {
    pub name: String,
    pub sig: FuncSig,
    pub param_names: Vec<String>,
    pub param_spans: Vec<Span>,
    pub name_span: Span,
    pub is_static: bool,
    pub noreturn: bool,
    pub def: Option<&'a Node<FunctionDefinition>>,
    pub id: Option<FuncId>,
    pub body: BodyState,
}

/// A global object known to the translation unit.
pub(crate) struct ObjEntry {
    pub name: String,
    pub ty: CType,
    pub is_const: bool,
    pub gid: Option<GlobalId>,
}

pub(crate) struct Unit<'a> {
    pub lines: &'a LineMap,
    pub model: DataModel,
    pub files: FileTable,
    /// Scope stack; `scopes[0]` is file scope.
    pub scopes: Vec<FxHashMap<String, Sym>>,
    pub funcs: Vec<FuncEntry<'a>>,
    pub func_by_name: FxHashMap<String, usize>,
    /// `FuncId` to index in `funcs`.
    pub func_ids: Vec<usize>,
    pub objects: Vec<ObjEntry>,
    pub obj_by_name: FxHashMap<String, usize>,
    pub globals: Vec<GlobalData>,
    /// The anonymous `const char` arrays of string literals, by contents
    /// (identical literals share one object, as gcc merges them).
    pub strings: FxHashMap<Vec<u8>, GlobalId>,
    /// Names of all functions defined (with a body) in the translation unit.
    pub defined_names: FxHashSet<String>,
    pub unsupported: Vec<UnsupportedFunction>,
    pub unsupported_globals: Vec<UnsupportedGlobal>,
    pub errors: Vec<Diagnostic>,
    /// Every structure and union type, by [`crate::structs::StructInfo::id`].
    pub structs: Vec<StructRef>,
    /// `packed`/`aligned` of structure definitions, by the offset of their
    /// keyword (see `packed.rs`).
    pub layout_attrs: FxHashMap<usize, crate::packed::LayoutAttrs>,
    /// Enumeration types by name (see `enums.rs`).
    pub enums: crate::enums::Enums,
}

impl<'a> Unit<'a> {
    pub fn new(lines: &'a LineMap, main_name: &str, model: DataModel) -> Unit<'a> {
        // gcc's built-in type names (those lang-c parses): `va_list` is a
        // pointer into a variadic call's argument area (see `varargs.rs`).
        let mut file_scope = FxHashMap::default();
        file_scope.insert("__builtin_va_list".to_string(), Sym::Typedef(crate::varargs::va_list_type(), false));
        Unit {
            lines,
            model,
            files: FileTable::new(main_name),
            scopes: vec![file_scope],
            funcs: Vec::new(),
            func_by_name: FxHashMap::default(),
            func_ids: Vec::new(),
            objects: Vec::new(),
            obj_by_name: FxHashMap::default(),
            globals: Vec::new(),
            strings: FxHashMap::default(),
            defined_names: FxHashSet::default(),
            unsupported: Vec::new(),
            unsupported_globals: Vec::new(),
            errors: Vec::new(),
            structs: Vec::new(),
            layout_attrs: FxHashMap::default(),
            enums: Default::default(),
        }
    }

    pub fn diag(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        let message = message.into();
        if span.is_none() {
            return Diagnostic::new(self.lines.name(0), 0, 0, message);
        }
        let pos = self.lines.pos(span.start);
        Diagnostic::new(self.lines.name(pos.file), pos.line, pos.col, message)
    }

    pub fn unsupported(&self, span: Span, message: impl AsRef<str>) -> LowerError {
        LowerError::Unsupported(self.diag(span, format!("unsupported: {}", message.as_ref())))
    }

    pub fn invalid(&self, span: Span, message: impl Into<String>) -> LowerError {
        LowerError::Invalid(self.diag(span, message))
    }

    pub fn loc(&mut self, span: Span) -> Loc {
        self.files.loc(self.lines, span)
    }

    pub fn is_system(&self, span: Span) -> bool {
        self.lines.is_system(span)
    }

    pub fn lookup(&self, name: &str) -> Option<&Sym> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// Declares a name in the innermost scope.
    pub fn declare(&mut self, name: &str, sym: Sym) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_string(), sym);
        }
    }

    /// The error for using a symbol whose declaration was not lowered.
    pub fn use_of_unsupported(&self, span: Span, name: &str, reason: &Diagnostic) -> LowerError {
        self.unsupported(
            span,
            format!(
                "`{name}` has an unsupported declaration ({}:{}:{}: {})",
                reason.file, reason.line, reason.col, reason.message
            ),
        )
    }

    /// A body-less function the front end itself calls (an engine model
    /// such as `bitops::NONZERO_CHECK`), registered on first use without
    /// entering any scope: the program cannot name it.
    pub fn synthetic_decl(&mut self, name: &str, sig: FuncSig, span: Span) -> usize {
        if let Some(&i) = self.func_by_name.get(name) {
            return i;
        }
        self.funcs.push(FuncEntry {
            name: name.to_string(),
            param_names: (0..sig.params.len()).map(|i| format!("a{i}")).collect(),
            param_spans: vec![span; sig.params.len()],
            sig,
            name_span: span,
            is_static: false,
            noreturn: false,
            def: None,
            id: None,
            body: BodyState::NotLowered,
        });
        self.func_by_name.insert(name.to_string(), self.funcs.len() - 1);
        self.funcs.len() - 1
    }

    /// The function's id, assigned on first need.
    pub fn func_id(&mut self, idx: usize) -> FuncId {
        if let Some(id) = self.funcs[idx].id {
            return id;
        }
        let id = FuncId(self.func_ids.len() as u32);
        self.func_ids.push(idx);
        self.funcs[idx].id = Some(id);
        id
    }

    /// The global's id; an object only declared (`extern`) so far is created
    /// zero-initialised on first use, without a C description: it is
    /// defined elsewhere (the C library's `stdout`), so the emitted tests
    /// must neither reset nor check it (a definition later in the file
    /// replaces the entry with a described one).
    pub fn global_id(&mut self, idx: usize) -> GlobalId {
        if let Some(g) = self.objects[idx].gid {
            return g;
        }
        let (ty, name, is_const) = {
            let o = &self.objects[idx];
            (o.ty.clone(), o.name.clone(), o.is_const)
        };
        let gid = self.new_global(&name, &ty, Vec::new(), is_const, false);
        self.objects[idx].gid = Some(gid);
        gid
    }

    /// Appends a global of a (complete, scalar or array) type.
    pub fn new_global(&mut self, name: &str, ty: &CType, init: Vec<u64>, is_const: bool, described: bool) -> GlobalId {
        self.globals.push(global_data(name, ty, init, is_const, described));
        GlobalId((self.globals.len() - 1) as u32)
    }

    /// The object holding a string literal's bytes and its terminating zero:
    /// a `const` global named `.str.N` (no C identifier starts with a dot),
    /// without a C description, so emitters neither reset nor check it.
    pub fn string_global(&mut self, bytes: &[u8]) -> GlobalId {
        if let Some(&g) = self.strings.get(bytes) {
            return g;
        }
        let mut init: Vec<u64> = bytes.iter().map(|&b| u64::from(b)).collect();
        while init.last() == Some(&0) {
            init.pop();
        }
        self.globals.push(GlobalData {
            name: format!(".str.{}", self.strings.len()),
            elem: pathwise_ir::Type::I8,
            count: bytes.len() as u64 + 1,
            init,
            src: None,
            is_const: true,
            relocs: Vec::new(),
        });
        let g = GlobalId((self.globals.len() - 1) as u32);
        self.strings.insert(bytes.to_vec(), g);
        g
    }

    /// Records a failed function body (or signature).
    pub fn record_failure(&mut self, name: &str, err: LowerError, in_system: bool) {
        match err {
            LowerError::Invalid(d) if !in_system => self.errors.push(d),
            LowerError::Invalid(diagnostic) | LowerError::Unsupported(diagnostic) => {
                self.unsupported.push(UnsupportedFunction { name: name.to_string(), diagnostic })
            }
        }
    }

    /// The declaration-only form of a function.
    fn declaration(&mut self, idx: usize) -> FuncData {
        let span = self.funcs[idx].name_span;
        let loc = self.loc(span);
        let e = &self.funcs[idx];
        let params = e
            .sig
            .params
            .iter()
            .enumerate()
            .map(|(i, ty)| {
                let name = e.param_names.get(i).cloned().unwrap_or_default();
                Param {
                    reg: Reg(i as u32),
                    ty: ty.abi_ir().unwrap_or(pathwise_ir::Type::I64),
                    src: param_src(&name, ty).unwrap_or_else(|| placeholder_src(&name)),
                }
            })
            .collect::<Vec<_>>();
        FuncData {
            name: e.name.clone(),
            num_regs: params.len() as u32,
            params,
            ret: e.sig.ret.abi_ir(),
            ret_src: crate::ctypes::ret_src(&e.sig.ret),
            locals: Vec::new(),
            blocks: Vec::new(),
            iteration_starts: Vec::new(),
            switches: Vec::new(),
            is_static: e.is_static,
            cty: Some(e.sig.ir()),
            loc,
        }
    }

    /// A declaration `pathwise_stub_F_P` for each function-pointer
    /// parameter `P` of each function `F` defined in the unit, of the
    /// pointer's function type: the engine's stand-in for a callback the
    /// caller provides (an input function pointer may point to it; its
    /// calls return fresh inputs, as an external function's do, and the
    /// tests define it). Types a stub cannot have (variadic, without a
    /// prototype, structures by value) get none.
    fn callback_stubs(&self, funcs: &[FuncData]) -> Vec<FuncData> {
        let mut out = self.field_callback_stubs(funcs);
        for f in funcs.iter().filter(|f| !f.is_declaration()) {
            let Some(&idx) = self.func_by_name.get(&f.name) else { continue };
            let e = &self.funcs[idx];
            for (i, pty) in e.sig.params.iter().enumerate() {
                let Some(CType::Func(sig)) = pty.pointee() else { continue };
                if !stubbable(sig) {
                    continue;
                }
                let pname = e.param_names.get(i).cloned().unwrap_or_else(|| format!("arg{i}"));
                out.push(stub_decl(format!("pathwise_stub_{}_{pname}", f.name), sig, f.loc));
            }
        }
        out
    }

    /// The callbacks of the caller's that input structures may hold: one
    /// stub per function type of a function-pointer member of a complete
    /// structure (`pathwise_stub_field_S_m`, after the first such member),
    /// when the unit's functions exist to take such structures. The engine
    /// finds it by its type (see `pathwise_engine::fnptr`).
    fn field_callback_stubs(&self, funcs: &[FuncData]) -> Vec<FuncData> {
        let mut out: Vec<FuncData> = Vec::new();
        let Some(loc) = funcs.iter().find(|f| !f.is_declaration()).map(|f| f.loc) else { return out };
        for s in &self.structs {
            let info = s.0.borrow();
            let Some(layout) = &info.layout else { continue };
            let tag =
                info.tag.clone().or_else(|| info.typedef_name.clone()).unwrap_or_else(|| format!("anon{}", info.id));
            for field in &layout.fields {
                let (Some(name), Some(CType::Func(sig))) = (&field.name, field.ty.pointee()) else { continue };
                if !stubbable(sig) || out.iter().any(|f| f.cty.as_ref() == Some(&sig.ir())) {
                    continue;
                }
                let taken = funcs.iter().any(|f| f.name == format!("{}{tag}_{name}", pathwise_ir::FIELD_STUB_PREFIX));
                if !taken {
                    out.push(stub_decl(format!("{}{tag}_{name}", pathwise_ir::FIELD_STUB_PREFIX), sig, loc));
                }
            }
        }
        out
    }

    /// See [`crate::Compiled::declared_only`].
    pub fn declared_only(&self) -> Vec<String> {
        self.funcs
            .iter()
            .filter(|e| e.def.is_none() && !e.is_static && !e.name_span.is_none() && !self.lines.is_system(e.name_span))
            .map(|e| e.name.clone())
            .collect()
    }

    /// Assembles the program: functions in id order, bodies where lowered.
    /// Only functions defined in user files and the functions they (still)
    /// call are kept: a call lowered in code that turned out to be dead
    /// (`if (0) abort();`) does not bring in a declaration.
    pub fn into_program(mut self) -> (Program, Vec<UnsupportedFunction>, Vec<UnsupportedGlobal>, Vec<Diagnostic>) {
        let mut funcs = Vec::new();
        for id in 0..self.func_ids.len() {
            let idx = self.func_ids[id];
            let body = std::mem::replace(&mut self.funcs[idx].body, BodyState::Failed);
            let mut f = match body {
                BodyState::Lowered(f) => *f,
                _ => self.declaration(idx),
            };
            f.is_static = self.funcs[idx].is_static;
            funcs.push(f);
        }
        let roots: Vec<bool> = self
            .func_ids
            .iter()
            .map(|&idx| self.funcs[idx].def.is_some_and(|d| !self.lines.is_system(d.span)))
            .collect();
        let mut globals = std::mem::take(&mut self.globals);
        let mut funcs = keep_reachable(funcs, &roots, &mut globals);
        let stubs = self.callback_stubs(&funcs);
        funcs.extend(stubs);
        let mut ctys: Vec<&mut pathwise_ir::CType> = Vec::new();
        for g in globals.iter_mut() {
            ctys.extend(g.src.as_mut().and_then(|s| s.cty.as_mut()));
        }
        for f in funcs.iter_mut() {
            for p in f.params.iter_mut() {
                ctys.extend(p.src.cty.as_mut());
            }
            ctys.extend(f.ret_src.as_mut().and_then(|s| s.cty.as_mut()));
        }
        let structs = crate::structs::program_structs(&self.structs, &mut ctys);
        let program = Program { files: self.files.files, globals, funcs, structs };
        (program, self.unsupported, self.unsupported_globals, self.errors)
    }
}

/// Keeps the root functions and those they call, transitively, renumbering
/// the callees of calls.
fn keep_reachable(funcs: Vec<FuncData>, roots: &[bool], globals: &mut [GlobalData]) -> Vec<FuncData> {
    let mut keep = roots.to_vec();
    // A function whose address a global holds (a table of handlers) stays.
    for r in globals.iter().flat_map(|g| &g.relocs) {
        if let RelocTarget::Func(f) = r.target {
            keep[f.0 as usize] = true;
        }
    }
    let mut stack: Vec<usize> = (0..funcs.len()).filter(|&i| keep[i]).collect();
    while let Some(i) = stack.pop() {
        for inst in funcs[i].blocks.iter().flat_map(|b| &b.insts) {
            if let InstKind::Call { func, .. } | InstKind::AddrFunc { func } = inst.kind {
                if !std::mem::replace(&mut keep[func.0 as usize], true) {
                    stack.push(func.0 as usize);
                }
            }
        }
    }
    let mut new_id = vec![FuncId(u32::MAX); funcs.len()];
    let mut n = 0;
    for (i, k) in keep.iter().enumerate() {
        if *k {
            new_id[i] = FuncId(n);
            n += 1;
        }
    }
    for r in globals.iter_mut().flat_map(|g| &mut g.relocs) {
        if let RelocTarget::Func(f) = &mut r.target {
            *f = new_id[f.0 as usize];
        }
    }
    let mut out = Vec::new();
    for (i, mut f) in funcs.into_iter().enumerate() {
        if !keep[i] {
            continue;
        }
        for inst in f.blocks.iter_mut().flat_map(|b| &mut b.insts) {
            if let InstKind::Call { func, .. } | InstKind::AddrFunc { func } = &mut inst.kind {
                *func = new_id[func.0 as usize];
            }
        }
        out.push(f);
    }
    out
}

/// The IR form of a global of a (complete, scalar or array) type;
/// `described` globals carry a [`pathwise_ir::SrcVar`] for emitters.
/// An object containing a structure is stored as bytes, `init` holding
/// their values (little-endian scalars).
pub(crate) fn global_data(name: &str, ty: &CType, init: Vec<u64>, is_const: bool, described: bool) -> GlobalData {
    let (elem, count) = ty.storage().map(|(e, n)| (Some(e), n)).unwrap_or((None, 1));
    GlobalData {
        name: name.to_string(),
        elem: elem.unwrap_or(pathwise_ir::Type::I8),
        count,
        init,
        src: if described { src_var(name, ty) } else { None },
        is_const,
        relocs: Vec::new(),
    }
}

/// A description for a parameter whose type has none (never for the
/// supported parameter types, which are integers and pointers).
pub(crate) fn placeholder_src(name: &str) -> pathwise_ir::SrcVar {
    pathwise_ir::SrcVar {
        name: name.to_string(),
        c_scalar: "long".to_string(),
        scalar: pathwise_ir::IntTy { ty: pathwise_ir::Type::I64, signed: true },
        shape: pathwise_ir::Shape::Scalar,
        cty: None,
    }
}

/// Lowering contexts (file scope, function bodies) share constant evaluation
/// and type-specifier code through this trait.
pub(crate) trait Ctx<'a> {
    fn unit(&mut self) -> &mut Unit<'a>;
    fn unit_ref(&self) -> &Unit<'a>;
    /// The type of an expression without evaluating it (`sizeof expr`).
    fn expr_type(&mut self, e: &Node<lang_c::ast::Expression>) -> LResult<CType>;
}

/// Whether a callback of type `sig` can be a stub of the tests: a
/// prototype over scalars.
fn stubbable(sig: &crate::ctypes::FuncSig) -> bool {
    let scalar = |t: &CType| matches!(t, CType::Int(_) | CType::Ptr(_));
    sig.prototyped && !sig.variadic && sig.params.iter().all(scalar) && (scalar(&sig.ret) || sig.ret == CType::Void)
}

/// The declaration of callback stub `name` of type `sig`.
fn stub_decl(name: String, sig: &crate::ctypes::FuncSig, loc: pathwise_ir::Loc) -> FuncData {
    let params: Vec<Param> = sig
        .params
        .iter()
        .enumerate()
        .map(|(j, t)| {
            let name = format!("a{j}");
            let src = param_src(&name, t).unwrap_or_else(|| placeholder_src(&name));
            Param { reg: Reg(j as u32), ty: t.abi_ir().unwrap_or(pathwise_ir::Type::I64), src }
        })
        .collect();
    FuncData {
        name,
        num_regs: params.len() as u32,
        params,
        ret: sig.ret.abi_ir(),
        ret_src: crate::ctypes::ret_src(&sig.ret),
        locals: Vec::new(),
        blocks: Vec::new(),
        iteration_starts: Vec::new(),
        switches: Vec::new(),
        is_static: false,
        cty: Some(sig.ir()),
        loc,
    }
}

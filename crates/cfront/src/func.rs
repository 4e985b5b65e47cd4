//! Function definitions: signature registration and body lowering.
//!
//! A body is lowered by a [`FnCtx`], which owns the IR builder and the
//! per-function state (break/continue targets, labels, enclosing switches).
//! Every parameter arrives in a register (`%0..%n-1`, in order) and is stored
//! at entry into its own slot named after it, so that C code can assign it
//! and take its address like any variable. Falling off the end returns 0
//! (or nothing, for `void`).
//!
//! Failures are per function: an unsupported construct makes the function a
//! declaration (no blocks) and is reported in `Compiled::unsupported`; an
//! invalid one in user code is fatal for the file. Definitions in system
//! headers are only lowered when a lowered body calls them.

use lang_c::ast::{Expression, FunctionDefinition, StorageClassSpecifier};
use lang_c::span::{Node, Span};
use pathwise_ir::{FuncData, Local, Operand, Param, Reg, Terminator};
use rustc_hash::FxHashMap;

use crate::builder::FuncBuilder;
use crate::ctypes::{param_src, CType, FuncSig};
use crate::typespec::{self, ParamDecl};
use crate::unit::{placeholder_src, BodyState, Ctx, FuncEntry, LResult, Sym, Unit};

/// A `goto` label of the function being lowered.
#[derive(Clone)]
pub(crate) struct LabelInfo {
    pub block: pathwise_ir::Block,
    pub defined: bool,
    pub first_use: Span,
}

/// The case labels of an enclosing `switch`, by the source offset of the label.
#[derive(Clone, Default)]
pub(crate) struct SwitchCtx {
    pub cases: FxHashMap<usize, pathwise_ir::Block>,
    pub default: Option<pathwise_ir::Block>,
}

/// State of one function body being lowered.
pub(crate) struct FnCtx<'u, 'a> {
    pub u: &'u mut Unit<'a>,
    pub b: FuncBuilder,
    pub ret: CType,
    pub breaks: Vec<pathwise_ir::Block>,
    pub continues: Vec<pathwise_ir::Block>,
    pub labels: FxHashMap<String, LabelInfo>,
    pub switches: Vec<SwitchCtx>,
    /// Name of the function (static locals become globals `func.name`).
    pub fname: String,
    /// The `void *` parameters' value loads and the pointer types they are
    /// converted to (see [`VoidParams`]).
    pub void_params: VoidParams,
}

/// What a `void *` parameter points to, as its conversions say: an input
/// pointer needs a target type, and `struct s *q = p;` (or `(int *)p`)
/// states it. Only parameters whose conversions all agree get one.
#[derive(Default)]
pub(crate) struct VoidParams {
    /// Parameter index by local slot.
    slots: FxHashMap<Local, usize>,
    /// Parameter index by register holding a load of its slot.
    loads: FxHashMap<Reg, usize>,
    /// Target types of the conversions, per parameter.
    targets: FxHashMap<usize, Vec<CType>>,
}

impl VoidParams {
    /// A load of `local` into `reg`.
    pub fn note_load(&mut self, local: Local, reg: Reg) {
        if let Some(&i) = self.slots.get(&local) {
            self.loads.insert(reg, i);
        }
    }

    /// A conversion of `op` to a pointer to `target`.
    pub fn note_conversion(&mut self, op: Operand, target: &CType) {
        if let (Operand::Reg(r), false) = (op, *target == CType::Void) {
            if let Some(&i) = self.loads.get(&r) {
                self.targets.entry(i).or_default().push(target.clone());
            }
        }
    }

    /// The type parameter `i` points to, when its conversions agree.
    fn target(&self, i: usize) -> Option<&CType> {
        let ts = self.targets.get(&i)?;
        ts.iter().all(|t| *t == ts[0]).then(|| &ts[0])
    }
}

impl<'a> Ctx<'a> for FnCtx<'_, 'a> {
    fn unit(&mut self) -> &mut Unit<'a> {
        self.u
    }

    fn unit_ref(&self) -> &Unit<'a> {
        self.u
    }

    /// The type of `e` without evaluating it (`sizeof`): read off directly
    /// for the usual operands (`x`, `a[i]`, `*p`), otherwise by lowering `e`
    /// on a scratch copy of the builder that is then thrown away.
    fn expr_type(&mut self, e: &Node<Expression>) -> LResult<CType> {
        if let Some(t) = self.simple_type(e) {
            return Ok(t);
        }
        let saved_b = self.b.clone();
        let saved_labels = self.labels.clone();
        let depth = self.u.scopes.len();
        let ty = match &e.node {
            Expression::StringLiteral(s) => crate::literals::string_bytes(&s.node)
                .map(|b| CType::Array(Box::new(CType::Int(crate::ctypes::IntKind::Char)), Some(b.len() as u64 + 1)))
                .map_err(|m| self.u.invalid(s.span, m)),
            Expression::Identifier(_) | Expression::UnaryOperator(_) | Expression::BinaryOperator(_)
                if self.is_lvalue_expr(e) =>
            {
                self.lvalue(e).map(|lv| lv.ty)
            }
            _ => self.rvalue(e).map(|v| v.ty),
        };
        self.u.scopes.truncate(depth);
        self.b = saved_b;
        self.labels = saved_labels;
        ty
    }
}

impl<'u, 'a> FnCtx<'u, 'a> {
    /// A call of `name`, a body-less `void` function the engine models
    /// (`pathwise_assume`, the `clz` argument check), declared on first
    /// use with parameters `params`: checks and assumptions the front end
    /// adds, which the program cannot name.
    pub(crate) fn call_engine_model(&mut self, name: &str, params: Vec<CType>, args: Vec<Operand>, span: Span) {
        self.call_engine_value(name, (params, CType::Void), args, span);
    }

    /// Like [`FnCtx::call_engine_model`], for a model with a result of C
    /// type `sig.1` (its value; unused for `void`).
    pub(crate) fn call_engine_value(
        &mut self,
        name: &str,
        sig: (Vec<CType>, CType),
        args: Vec<Operand>,
        span: Span,
    ) -> Operand {
        let (params, ret) = sig;
        let loc = self.loc(span);
        let void = ret == CType::Void;
        let sig = FuncSig { ret, const_params: vec![false; params.len()], params, variadic: false, prototyped: true };
        let idx = self.u.synthetic_decl(name, sig, span);
        let func = self.u.func_id(idx);
        if void {
            self.b.effect(pathwise_ir::InstKind::Call { func, args }, loc);
            return Operand::Const(pathwise_ir::Type::I32, 0);
        }
        self.b.value(pathwise_ir::InstKind::Call { func, args }, loc)
    }

    /// The type of a variable, or an element of one, when evident.
    fn simple_type(&self, e: &Node<Expression>) -> Option<CType> {
        use lang_c::ast::{BinaryOperator, UnaryOperator};
        let element = |t: CType| match t {
            CType::Ptr(t) | CType::Array(t, _) | CType::Vla(t, _) if *t != CType::Void => Some(*t),
            _ => None,
        };
        match &e.node {
            Expression::Identifier(id) => match self.u.lookup(&id.node.name)? {
                Sym::Local { ty, .. } | Sym::Indirect { ty, .. } => Some(ty.clone()),
                Sym::Global(i) => Some(self.u.objects[*i].ty.clone()),
                _ => None,
            },
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                element(self.simple_type(&u.node.operand)?)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                element(self.simple_type(&b.node.lhs)?)
            }
            _ => None,
        }
    }

    pub fn loc(&mut self, span: Span) -> pathwise_ir::Loc {
        self.u.loc(span)
    }
}

/// A function declaration or definition to register.
pub(crate) struct FuncDecl<'a> {
    pub name: String,
    pub sig: FuncSig,
    pub params: Vec<ParamDecl>,
    pub name_span: Span,
    pub is_static: bool,
    pub noreturn: bool,
    pub def: Option<&'a Node<FunctionDefinition>>,
}

/// Registers a function declaration or definition (merging with earlier
/// declarations of the name); returns its index.
pub(crate) fn register_func<'a>(u: &mut Unit<'a>, d: FuncDecl<'a>) -> usize {
    let FuncDecl { name, sig, params, name_span, is_static, noreturn, def } = d;
    let name = name.as_str();
    let idx = match u.func_by_name.get(name) {
        Some(&i) => {
            let e = &mut u.funcs[i];
            e.is_static |= is_static;
            e.noreturn |= noreturn;
            if def.is_some() || (!e.sig.prototyped && sig.prototyped) {
                e.sig = sig;
                e.param_names = params.iter().map(|p| p.name.clone()).collect();
                e.param_spans = params.iter().map(|p| p.span).collect();
            }
            if def.is_some() {
                e.def = def;
                e.name_span = name_span;
            }
            i
        }
        None => {
            u.funcs.push(FuncEntry {
                name: name.to_string(),
                param_names: params.iter().map(|p| p.name.clone()).collect(),
                param_spans: params.iter().map(|p| p.span).collect(),
                sig,
                name_span,
                is_static,
                noreturn,
                def,
                id: None,
                body: BodyState::NotLowered,
            });
            u.func_by_name.insert(name.to_string(), u.funcs.len() - 1);
            u.funcs.len() - 1
        }
    };
    u.declare(name, Sym::Func(idx));
    idx
}

/// Checks that a function type is representable: scalar parameters and a
/// scalar or void return type.
pub(crate) fn check_sig(u: &Unit<'_>, sig: &FuncSig, params: &[ParamDecl], span: Span) -> LResult<()> {
    for p in params {
        if let CType::Struct(s) = &p.ty {
            if s.size().is_none() {
                return Err(u.invalid(p.span, format!("parameter `{}` has incomplete type `{}`", p.name, s.name())));
            }
            continue;
        }
        if !p.ty.is_scalar() {
            return Err(u.unsupported(p.span, format!("parameters of type `{}`", p.ty.spelling())));
        }
        // A pointer to rows of varying length (`int a[n][m]` adjusted to
        // `int (*a)[m]`): the lengths are evaluated on entry (see
        // `FnCtx::vla_param`).
        if p.ty.has_vla() && !matches!(&p.ty, CType::Ptr(t) if matches!(**t, CType::Vla(..))) {
            return Err(u.unsupported(p.span, "this parameter of variably modified type"));
        }
    }
    if let CType::Struct(s) = &sig.ret {
        if s.size().is_none() {
            return Err(u.invalid(span, format!("return type `{}` is incomplete", s.name())));
        }
        return Ok(());
    }
    if !(sig.ret.is_scalar() || sig.ret == CType::Void) {
        return Err(u.invalid(span, "invalid function return type"));
    }
    Ok(())
}

/// Handles a function definition at file scope.
pub(crate) fn definition<'a>(u: &mut Unit<'a>, fd: &'a Node<FunctionDefinition>) {
    let in_system = u.is_system(fd.span);
    let name_guess = declarator_name(&fd.node.declarator).unwrap_or_default();
    let reg = |u: &mut Unit<'a>| -> LResult<usize> {
        let spec = typespec::decl_spec(u, &fd.node.specifiers, fd.span)?;
        let d = typespec::declarator(u, spec.ty, spec.is_const, &fd.node.declarator)?;
        let CType::Func(sig) = d.ty else {
            return Err(u.invalid(fd.node.declarator.span, "function definition without a function type"));
        };
        if !fd.node.declarations.is_empty() {
            return Err(u.unsupported(fd.node.declarator.span, "K&R-style function definitions"));
        }
        check_sig(u, &sig, &d.params, d.name_span)?;
        let is_static = spec.storage == Some(StorageClassSpecifier::Static);
        let name = d.name.unwrap_or_default();
        let noreturn = spec.noreturn || d.noreturn;
        let decl =
            FuncDecl { name, sig: *sig, params: d.params, name_span: d.name_span, is_static, noreturn, def: Some(fd) };
        Ok(register_func(u, decl))
    };
    match reg(u) {
        Ok(idx) => {
            if !in_system {
                u.func_id(idx);
                lower_body(u, idx);
            }
        }
        Err(e) => {
            u.declare(&name_guess, Sym::Unsupported(e.diagnostic().clone()));
            if in_system {
                return;
            }
            // lang-c reads `struct __attribute__((packed)) S { int a; };` as
            // the definition of a "function" `S` returning an anonymous
            // struct: without a function declarator it is a declaration.
            if is_function_declarator(&fd.node.declarator) {
                u.record_failure(&name_guess, e, false);
            } else {
                let diagnostic = e.diagnostic().clone();
                u.unsupported_globals.push(crate::UnsupportedGlobal { name: name_guess, diagnostic });
            }
        }
    }
}

/// Evaluate the varying lengths of parameters that point to rows of
/// variable-length arrays (`int m[n][k]` is `int (*m)[k]`: `k` is read
/// once, on entry, as C11 6.9.1p10 says the size expressions of the
/// parameters are), once every parameter is declared, since the sizes name
/// earlier ones.
fn bind_vla_params(
    cx: &mut FnCtx<'_, '_>,
    fd: &Node<FunctionDefinition>,
    sig: &FuncSig,
    names: &[String],
    spans: &[Span],
) -> LResult<()> {
    let Some(list) = param_declarations(fd) else { return Ok(()) };
    for (i, ty) in sig.params.iter().enumerate() {
        let CType::Ptr(rows) = ty else { continue };
        if !rows.has_vla() {
            continue;
        }
        let (Some(name), Some(decl)) = (names.get(i), list.get(i).and_then(|p| p.node.declarator.as_ref())) else {
            continue;
        };
        let span = spans.get(i).copied().unwrap_or(decl.span);
        let bound = cx.vla_param(name, rows, decl, span)?;
        let Some(Sym::Local { local, .. }) = cx.u.lookup(name).cloned() else { continue };
        cx.u.declare(name, Sym::Local { local, ty: bound });
    }
    Ok(())
}

/// The parameters of a definition's declarator.
fn param_declarations(fd: &Node<FunctionDefinition>) -> Option<&[Node<lang_c::ast::ParameterDeclaration>]> {
    fd.node.declarator.node.derived.iter().find_map(|d| match &d.node {
        lang_c::ast::DerivedDeclarator::Function(f) => Some(&f.node.parameters[..]),
        _ => None,
    })
}

/// Describe array parameters with their declared length (`int a[10]`,
/// `int m[3][4]`, `vec3 a` of an array type) as arrays of it, which the
/// emitted tests allocate at least (gcc checks calls against the declared
/// size: a test passing a shorter input array would not build with
/// `-Werror`).
fn declared_array_params(cx: &mut FnCtx<'_, '_>, fd: &Node<FunctionDefinition>, params: &mut [Param]) {
    let Some(list) = param_declarations(fd) else { return };
    for (p, decl) in params.iter_mut().zip(list) {
        let Some(d) = decl.node.declarator.as_ref() else { continue };
        if p.src.shape != pathwise_ir::Shape::Pointer {
            continue;
        }
        let Some(n) = typespec::declared_param_len(cx, &decl.node.specifiers, d) else { continue };
        let Some(CType::Ptr(elem)) = cx.u.lookup(&p.src.name).and_then(|s| match s {
            Sym::Local { ty, .. } => Some(ty.clone()),
            _ => None,
        }) else {
            continue;
        };
        if let Some(row) = crate::ctypes::row_ctype(&elem) {
            p.src.cty = Some(pathwise_ir::CType::Array(Box::new(row), n));
        }
    }
}

/// Whether a declarator (or one nested in it) has a parameter list.
fn is_function_declarator(d: &Node<lang_c::ast::Declarator>) -> bool {
    use lang_c::ast::{DeclaratorKind, DerivedDeclarator};
    d.node.derived.iter().any(|x| matches!(x.node, DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)))
        || matches!(&d.node.kind.node, DeclaratorKind::Declarator(inner) if is_function_declarator(inner))
}

/// The identifier a declarator declares.
pub(crate) fn declarator_name(d: &Node<lang_c::ast::Declarator>) -> Option<String> {
    match &d.node.kind.node {
        lang_c::ast::DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        lang_c::ast::DeclaratorKind::Declarator(inner) => declarator_name(inner),
        lang_c::ast::DeclaratorKind::Abstract => None,
    }
}

/// Lowers the body of a registered definition, recording the outcome.
pub(crate) fn lower_body(u: &mut Unit<'_>, idx: usize) {
    let Some(fd) = u.funcs[idx].def else { return };
    if !matches!(u.funcs[idx].body, BodyState::NotLowered) {
        return;
    }
    // Mark first: a recursive call must not lower the body again.
    u.funcs[idx].body = BodyState::Failed;
    let in_system = u.is_system(fd.span);
    let depth = u.scopes.len();
    let result = lower_function(u, idx, fd);
    u.scopes.truncate(depth);
    match result {
        Ok(f) => u.funcs[idx].body = BodyState::Lowered(Box::new(f)),
        Err(e) => {
            let name = u.funcs[idx].name.clone();
            u.record_failure(&name, e, in_system);
        }
    }
}

fn lower_function<'a>(u: &mut Unit<'a>, idx: usize, fd: &'a Node<FunctionDefinition>) -> LResult<FuncData> {
    let e = &u.funcs[idx];
    let (name, sig, names, spans) = (e.name.clone(), e.sig.clone(), e.param_names.clone(), e.param_spans.clone());
    let name_span = e.name_span;
    let mut cx = FnCtx {
        // A variadic function's argument area is one more parameter.
        b: FuncBuilder::new(sig.params.len() as u32 + u32::from(sig.variadic)),
        ret: sig.ret.clone(),
        breaks: Vec::new(),
        continues: Vec::new(),
        labels: FxHashMap::default(),
        switches: Vec::new(),
        fname: name.clone(),
        void_params: VoidParams::default(),
        u,
    };
    cx.u.scopes.push(FxHashMap::default());
    let mut params = Vec::new();
    for (i, ty) in sig.params.iter().enumerate() {
        let pname = names.get(i).cloned().unwrap_or_default();
        let span = spans.get(i).copied().unwrap_or(name_span);
        let loc = cx.loc(span);
        let ir = ty.abi_ir().unwrap_or(pathwise_ir::Type::I64);
        // A `long double` parameter's object is the C object (16 or 12
        // bytes, byte storage), which `&x` exposes, not its 10 value bytes.
        let (elem, count) = match (ty, ty.storage()) {
            (CType::Float(k), Some(storage)) if k.is_long_double() => storage,
            _ => (ir, 1),
        };
        let slot: Local = cx.b.local(pname.clone(), elem, count);
        let addr = cx.b.addr_local(slot, loc);
        cx.b.store(ir, addr, Operand::Reg(Reg(i as u32)), loc);
        if let CType::Struct(_) = ty {
            // The caller's copy, reached through the pointer it passed.
            cx.u.declare(&pname, Sym::Indirect { slot, ty: ty.clone() });
        } else {
            cx.u.declare(&pname, Sym::Local { local: slot, ty: ty.clone() });
        }
        if *ty == CType::Ptr(Box::new(CType::Void)) {
            cx.void_params.slots.insert(slot, i);
        }
        params.push(Param {
            reg: Reg(i as u32),
            ty: ir,
            src: param_src(&pname, ty).unwrap_or_else(|| placeholder_src(&pname)),
        });
    }
    if sig.variadic {
        params.push(cx.argument_area_param(sig.params.len(), name_span));
    }
    bind_vla_params(&mut cx, fd, &sig, &names, &spans)?;
    declared_array_params(&mut cx, fd, &mut params);
    cx.stmt(&fd.node.statement)?;
    if !cx.b.is_terminated() {
        // Falling off the end: the closing brace is the location.
        let end = Span::span(fd.node.statement.span.end.saturating_sub(1), fd.node.statement.span.end);
        let loc = cx.loc(end);
        let value = sig.ret.abi_ir().map(|t| Operand::Const(t, 0));
        cx.b.terminate(Terminator::Return(value), loc);
    }
    if let Some((l, info)) = cx.labels.iter().find(|(_, i)| !i.defined) {
        return Err(cx.u.invalid(info.first_use, format!("label `{l}` used but not defined")));
    }
    for (i, p) in params.iter_mut().enumerate() {
        if let Some(t) = cx.void_params.target(i) {
            let ty = CType::Ptr(Box::new(t.clone()));
            p.src = param_src(&p.src.name, &ty).unwrap_or_else(|| p.src.clone());
        }
    }
    let FnCtx { b, u, .. } = cx;
    let (ret_enum, param_enums) = crate::enums::of_definition(u, &fd.node);
    for (p, e) in params.iter_mut().zip(param_enums) {
        if let (Some(e), pathwise_ir::Shape::Scalar) = (e, p.src.shape) {
            p.src.c_scalar = e;
        }
    }
    let mut ret_src = crate::ctypes::ret_src(&sig.ret);
    if let (Some(s), Some(e)) = (ret_src.as_mut(), ret_enum) {
        if s.shape == pathwise_ir::Shape::Scalar {
            s.c_scalar = e;
        }
    }
    let loc = u.loc(name_span);
    let crate::builder::Finished { blocks, locals, num_regs, iteration_starts, switches } = b.finish();
    Ok(FuncData {
        name,
        params,
        ret: sig.ret.abi_ir(),
        ret_src,
        locals,
        blocks,
        iteration_starts,
        switches,
        num_regs,
        is_static: u.funcs[idx].is_static,
        cty: Some(u.funcs[idx].sig.ir()),
        loc,
    })
}

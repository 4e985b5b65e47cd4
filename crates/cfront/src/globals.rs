//! File-scope declarations: typedefs, function prototypes and global objects.
//!
//! A global object *definition* (no `extern`, or with an initializer) becomes
//! a `GlobalData` at once, with its initializer evaluated to constants
//! (integers, the null pointer, string bytes for `char` arrays, also in
//! braces; trailing zeros are left out) and address constants to
//! relocations (`addrconst.rs`). Repeated declarations of one name share an entry, so
//! a tentative definition followed by an initialized one works. A declaration
//! that cannot be lowered declares its names as unsupported: using them later
//! makes the using function unsupported. In user files (not system headers)
//! such declarations are also reported in `Compiled::unsupported_globals`.

use lang_c::ast::{
    Declaration, DeclarationSpecifier, DerivedDeclarator, Expression, InitDeclarator, Initializer,
    StorageClassSpecifier, TypeSpecifier,
};
use lang_c::span::{Node, Span};

use crate::consteval;
use crate::ctypes::{CType, IntKind};
use crate::func::{check_sig, declarator_name, register_func, FuncDecl};
use crate::init::{self, InitItem};
use crate::typespec::{self, DeclSpec};
use crate::unit::{global_data, Ctx, LResult, LowerError, ObjEntry, Sym, Unit};
use crate::UnsupportedGlobal;

impl<'a> Ctx<'a> for Unit<'a> {
    fn unit(&mut self) -> &mut Unit<'a> {
        self
    }

    fn unit_ref(&self) -> &Unit<'a> {
        self
    }

    /// Types of the operands `sizeof` commonly has at file scope.
    fn expr_type(&mut self, e: &Node<Expression>) -> LResult<CType> {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Sym::Global(i)) => Ok(self.objects[*i].ty.clone()),
                Some(Sym::EnumConst(v)) => Ok(CType::Int(v.kind)),
                _ => Err(self.invalid(e.span, format!("`{}` is not an object", id.node.name))),
            },
            Expression::StringLiteral(s) => {
                let n = crate::literals::string_bytes(&s.node).map_err(|m| self.invalid(s.span, m))?.len();
                Ok(CType::Array(Box::new(CType::Int(IntKind::Char)), Some(n as u64 + 1)))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == lang_c::ast::UnaryOperator::Indirection => {
                element_of(self, &u.node.operand, e.span)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == lang_c::ast::BinaryOperator::Index => {
                element_of(self, &b.node.lhs, e.span)
            }
            Expression::Cast(c) => typespec::type_name(self, &c.node.type_name),
            Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => {
                Ok(CType::Int(self.model.size_t()))
            }
            _ => match consteval::eval(self, e)? {
                Some(v) => Ok(CType::Int(v.kind)),
                None => Err(self.unsupported(e.span, "this operand of sizeof at file scope")),
            },
        }
    }
}

fn element_of(u: &mut Unit<'_>, e: &Node<Expression>, span: Span) -> LResult<CType> {
    match u.expr_type(e)? {
        CType::Array(t, _) | CType::Ptr(t) => Ok(*t),
        _ => Err(u.invalid(span, "subscripted value is not an array or pointer")),
    }
}

/// A file-scope declaration.
pub(crate) fn file_decl<'a>(u: &mut Unit<'a>, d: &'a Node<Declaration>) {
    let in_system = u.is_system(d.span);
    let spec = match typespec::decl_spec(u, &d.node.specifiers, d.span) {
        Ok(s) => s,
        Err(e) => {
            if d.node.declarators.is_empty() && !in_system {
                let name = tag_name(d).unwrap_or_else(|| "?".to_string());
                report(u, &name, e.clone(), true);
            }
            for id in &d.node.declarators {
                declaration_failed(u, id, e.clone(), in_system);
            }
            return;
        }
    };
    for id in &d.node.declarators {
        if let Err(e) = declare_one(u, &spec, id) {
            declaration_failed(u, id, e, in_system);
        }
    }
}

/// `struct tag` / `union tag` / `enum tag` of a declaration without declarators.
fn tag_name(d: &Node<Declaration>) -> Option<String> {
    d.node.specifiers.iter().find_map(|s| match &s.node {
        DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
            TypeSpecifier::Struct(st) => {
                let kind = match st.node.kind.node {
                    lang_c::ast::StructKind::Struct => "struct",
                    lang_c::ast::StructKind::Union => "union",
                };
                Some(match &st.node.identifier {
                    Some(id) => format!("{kind} {}", id.node.name),
                    None => format!("{kind} <anonymous>"),
                })
            }
            TypeSpecifier::Enum(en) => Some(match &en.node.identifier {
                Some(id) => format!("enum {}", id.node.name),
                None => "enum <anonymous>".to_string(),
            }),
            _ => None,
        },
        _ => None,
    })
}

/// Records a declarator that could not be lowered.
fn declaration_failed(u: &mut Unit<'_>, id: &Node<InitDeclarator>, e: LowerError, quiet: bool) {
    let Some(name) = declarator_name(&id.node.declarator) else { return };
    u.declare(&name, Sym::Unsupported(e.diagnostic().clone()));
    // A prototype only matters if called; the call reports it then.
    let is_prototype = matches!(id.node.declarator.node.kind.node, lang_c::ast::DeclaratorKind::Identifier(_))
        && id
            .node
            .declarator
            .node
            .derived
            .iter()
            .any(|x| matches!(x.node, DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)));
    if !quiet && !is_prototype {
        report(u, &name, e, false);
    }
}

fn report(u: &mut Unit<'_>, name: &str, e: LowerError, only_unsupported: bool) {
    match e {
        LowerError::Invalid(d) if !only_unsupported => u.errors.push(d),
        LowerError::Invalid(diagnostic) | LowerError::Unsupported(diagnostic) => {
            u.unsupported_globals.push(UnsupportedGlobal { name: name.to_string(), diagnostic })
        }
    }
}

fn declare_one<'a>(u: &mut Unit<'a>, spec: &DeclSpec, id: &'a Node<InitDeclarator>) -> LResult<()> {
    let dd = typespec::declarator(u, spec.ty.clone(), spec.is_const, &id.node.declarator)?;
    let Some(name) = dd.name.clone() else {
        return Err(u.invalid(id.span, "declaration without a name"));
    };
    if spec.storage == Some(StorageClassSpecifier::Typedef) {
        crate::structs::name_by_typedef(&dd.ty, &name);
        if let (Some(i), CType::Int(_)) = (spec.enum_def, &dd.ty) {
            u.enums.typedef(i, &name);
        }
        u.declare(&name, Sym::Typedef(dd.ty, dd.is_const));
        return Ok(());
    }
    if let CType::Func(sig) = dd.ty {
        check_sig(u, &sig, &dd.params, dd.name_span)?;
        let is_static = spec.storage == Some(StorageClassSpecifier::Static);
        let noreturn = spec.noreturn || dd.noreturn;
        register_func(
            u,
            FuncDecl { name, sig: *sig, params: dd.params, name_span: dd.name_span, is_static, noreturn, def: None },
        );
        return Ok(());
    }
    let init = id.node.initializer.as_ref();
    let is_definition = spec.storage != Some(StorageClassSpecifier::Extern) || init.is_some();
    let idx = object_entry(u, &name, &dd.ty, dd.is_const, dd.name_span)?;
    u.declare(&name, Sym::Global(idx));
    if !is_definition {
        return Ok(());
    }
    if init.is_none() && u.objects[idx].gid.is_some() {
        // A tentative definition after the real one adds nothing.
        return Ok(());
    }
    // A tentative definition of an array of unknown size has one element.
    let ty = match (&dd.ty, init) {
        (CType::Array(e, None), None) => CType::Array(e.clone(), Some(1)),
        (t, _) => t.clone(),
    };
    let StaticInit { ty, values, relocs } = static_init(u, &ty, init, dd.name_span)?;
    u.objects[idx].ty = ty.clone();
    let gid = match u.objects[idx].gid {
        Some(gid) => {
            u.globals[gid.0 as usize] = global_data(&name, &ty, values, dd.is_const, true);
            gid
        }
        None => {
            let gid = u.new_global(&name, &ty, values, dd.is_const, true);
            u.objects[idx].gid = Some(gid);
            gid
        }
    };
    u.globals[gid.0 as usize].relocs = relocs;
    Ok(())
}

/// Checks that an object type is representable: integers, pointers and
/// structures, or arrays of them.
fn check_object_type(u: &Unit<'_>, ty: &CType, span: Span) -> LResult<()> {
    if ty.has_vla() {
        // Not C (static storage needs a constant size), or a size that
        // only gcc can evaluate.
        return Err(u.unsupported(span, "variable-length arrays"));
    }
    let mut t = ty;
    while let CType::Array(e, _) = t {
        t = e;
    }
    match t {
        CType::Int(_) | CType::Float(_) | CType::Ptr(_) | CType::Struct(_) => Ok(()),
        CType::Void => Err(u.invalid(span, "variable declared void")),
        _ => Err(u.invalid(span, format!("variable of type `{}`", ty.spelling()))),
    }
}

/// The entry of a global object with external or internal linkage, shared
/// by all its declarations.
pub(crate) fn object_entry(u: &mut Unit<'_>, name: &str, ty: &CType, is_const: bool, span: Span) -> LResult<usize> {
    check_object_type(u, ty, span)?;
    if let Some(&i) = u.obj_by_name.get(name) {
        if matches!(u.objects[i].ty, CType::Array(_, None)) {
            u.objects[i].ty = ty.clone();
        }
        return Ok(i);
    }
    u.objects.push(ObjEntry { name: name.to_string(), ty: ty.clone(), is_const, gid: None });
    u.obj_by_name.insert(name.to_string(), u.objects.len() - 1);
    Ok(u.objects.len() - 1)
}

/// The constant initial contents of an object with static storage duration.
pub(crate) struct StaticInit {
    /// The type, completed by the initializer (`int a[] = {1, 2}`).
    pub ty: CType,
    /// Element values (bytes for objects containing structures).
    pub values: Vec<u64>,
    /// Pointers to other globals (address constants).
    pub relocs: Vec<pathwise_ir::GlobalReloc>,
}

/// The completed type and constant initial contents of an object with
/// static storage duration.
pub(crate) fn static_init<'a>(
    cx: &mut dyn Ctx<'a>,
    ty: &CType,
    init: Option<&Node<Initializer>>,
    span: Span,
) -> LResult<StaticInit> {
    check_object_type(cx.unit_ref(), ty, span)?;
    let Some(init) = init else {
        if ty.has_struct() && ty.mem_size().is_none() && !matches!(ty, CType::Array(_, None)) {
            return Err(crate::structs::incomplete(cx, span, ty));
        }
        if ty.mem_size().is_none() {
            return Err(cx.unit_ref().invalid(span, "array size missing"));
        }
        return Ok(StaticInit { ty: ty.clone(), values: Vec::new(), relocs: Vec::new() });
    };
    let flat = init::flatten(cx, ty, init)?;
    let Some((elem, count)) = flat.ty.storage() else {
        return Err(cx.unit_ref().invalid(span, "array size missing"));
    };
    // Typed elements by index, or (objects containing structures) bytes.
    let bytes = flat.ty.byte_stored();
    let mut values = vec![0u64; count.min(1 << 20) as usize];
    let mut relocs = Vec::new();
    for (&offset, (ity, item)) in &flat.items {
        let bits = match item {
            InitItem::Const(b) => u128::from(*b),
            InitItem::Expr(e) if matches!(ity, CType::Struct(_)) => {
                return Err(cx.unit_ref().unsupported(e.span, "non-constant initializers of globals"));
            }
            InitItem::Expr(e) if matches!(ity, CType::Ptr(_)) && !is_null_pointer_constant(cx, e)? => {
                let Some((target, addend)) = crate::addrconst::address_constant(cx, e)? else {
                    return Err(cx.unit_ref().unsupported(e.span, "this address in the initializer of a global"));
                };
                relocs.push(pathwise_ir::GlobalReloc { offset, target, addend });
                0
            }
            InitItem::Expr(e) => constant_value(cx, ity, e)?,
        };
        if bytes {
            let width = ity.ir().map_or(1, |t| t.bytes());
            for k in 0..width {
                if let Some(v) = values.get_mut((offset + k) as usize) {
                    *v = (bits >> (8 * k)) as u64 & 0xff;
                }
            }
        } else if let Some(v) = values.get_mut((offset / elem.bytes()) as usize) {
            *v = bits as u64;
        }
    }
    // Bit-fields: their low bits merged into the bytes they span.
    for (&bit, (width, ity, e)) in &flat.bitfields {
        let v = constant_value(cx, ity, e)? as u64;
        let mask = if *width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
        let placed = u128::from(v & mask) << (bit % 8);
        let m = u128::from(mask) << (bit % 8);
        for k in 0..=((bit % 8) + u64::from(*width) - 1) / 8 {
            if let Some(b) = values.get_mut((bit / 8 + k) as usize) {
                let (pk, mk) = (((placed >> (8 * k)) & 0xff) as u64, ((m >> (8 * k)) & 0xff) as u64);
                *b = (*b & !mk) | pk;
            }
        }
    }
    while values.last() == Some(&0) {
        values.pop();
    }
    Ok(StaticInit { ty: flat.ty, values, relocs })
}

/// The bits of a constant initializer element (a `long double`'s 80).
fn constant_value<'a>(cx: &mut dyn Ctx<'a>, elem: &CType, e: &Node<Expression>) -> LResult<u128> {
    match elem {
        CType::Int(k) => match consteval::eval(cx, e)? {
            Some(v) => Ok(u128::from(v.convert(*k).bits)),
            None => match crate::floats::eval_num(cx, e)?.and_then(|n| n.convert(elem)) {
                Some(bits) => Ok(bits),
                None => Err(cx.unit_ref().unsupported(e.span, "non-constant initializers of globals")),
            },
        },
        CType::Float(_) => match crate::floats::eval_num(cx, e)?.and_then(|n| n.convert(elem)) {
            Some(bits) => Ok(bits),
            None => Err(cx.unit_ref().unsupported(e.span, "non-constant initializers of globals")),
        },
        _ => {
            if is_null_pointer_constant(cx, e)? {
                Ok(0)
            } else {
                Err(cx.unit_ref().unsupported(e.span, "globals initialized with an address"))
            }
        }
    }
}

/// `0`, `(void *)0`, `NULL`.
fn is_null_pointer_constant<'a>(cx: &mut dyn Ctx<'a>, e: &Node<Expression>) -> LResult<bool> {
    if let Expression::Cast(c) = &e.node {
        let ty = typespec::type_name(cx, &c.node.type_name)?;
        if matches!(ty, CType::Ptr(_)) {
            return is_null_pointer_constant(cx, &c.node.expression);
        }
    }
    Ok(consteval::eval(cx, e)?.is_some_and(|v| v.is_zero()))
}

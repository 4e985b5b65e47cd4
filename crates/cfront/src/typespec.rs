//! From lang-c declaration specifiers and declarators to [`CType`]s.
//!
//! lang-c lists a declarator's derived parts in source order: pointers (the
//! prefix) first, then array and function suffixes. Suffixes bind tighter
//! than the prefix, so the type is built from the base type by applying the
//! pointers left to right, then the suffixes right to left, then the
//! enclosing parenthesised declarator if any (`int (*p)[4]`).
//!
//! Unsupported types (`long double`, extended floating types, function
//! pointers; K&R
//! and variadic definitions are decided by the callers) are reported at the
//! specifier or declarator that introduces them. An array whose size is not
//! an integer constant expression is a [`CType::Vla`] whose length is left
//! for the declaration to evaluate ([`array_sizes`] finds the expressions).
//! Enumerations have gcc's types ([`enum_type`]: `unsigned int` unless a
//! constant is negative or too large); their constants are declared in the
//! current scope as a side effect of reading the specifier.

use lang_c::ast::{
    ArraySize, DeclarationSpecifier, Declarator, DeclaratorKind, DerivedDeclarator, Extension, FunctionSpecifier,
    ParameterDeclaration, PointerQualifier, SpecifierQualifier, StorageClassSpecifier, TypeName, TypeOf, TypeQualifier,
    TypeSpecifier,
};
use lang_c::span::{Node, Span};

use crate::consteval;
use crate::ctypes::{CType, FloatKind, FuncSig, IntKind};
use crate::unit::{Ctx, LResult, Sym};

/// The meaning of a declaration's specifiers.
pub(crate) struct DeclSpec {
    pub ty: CType,
    pub is_const: bool,
    pub storage: Option<StorageClassSpecifier>,
    pub noreturn: bool,
    /// The enumeration the specifiers name, if any (see `enums.rs`).
    pub enum_def: Option<usize>,
}

/// A parameter of a function declarator.
#[derive(Clone)]
pub(crate) struct ParamDecl {
    pub name: String,
    pub span: Span,
    pub ty: CType,
    /// Whether the declaration specifiers say `const` and the parameter is
    /// a pointer: it points to `const` data (see [`FuncSig::const_params`]).
    pub const_pointee: bool,
}

/// A declarator applied to a base type.
pub(crate) struct Declared {
    pub name: Option<String>,
    pub name_span: Span,
    pub ty: CType,
    /// The declared object is `const` (e.g. `const int x`, `int *const p`).
    pub is_const: bool,
    /// The parameters, when the declared entity is a function.
    pub params: Vec<ParamDecl>,
    pub noreturn: bool,
}

fn is_noreturn_attr(ext: &[Node<Extension>]) -> bool {
    ext.iter().any(|e| matches!(&e.node, Extension::Attribute(a) if a.name.node.trim_matches('_') == "noreturn"))
}

/// Reads declaration specifiers.
pub(crate) fn decl_spec<'a>(
    cx: &mut dyn Ctx<'a>,
    specs: &[Node<DeclarationSpecifier>],
    span: Span,
) -> LResult<DeclSpec> {
    let mut tss = Vec::new();
    let mut is_const = false;
    let mut storage = None;
    let mut noreturn = false;
    for s in specs {
        match &s.node {
            DeclarationSpecifier::StorageClass(sc) => {
                // A test runs the code on one thread, whose instance of a
                // thread-local object is a static one: `_Thread_local`
                // (`__thread`) adds nothing to the `static` or `extern` it
                // comes with, or to a file-scope definition alone.
                if sc.node != StorageClassSpecifier::ThreadLocal {
                    storage = Some(sc.node.clone());
                }
            }
            DeclarationSpecifier::TypeSpecifier(t) => tss.push(t),
            DeclarationSpecifier::TypeQualifier(q) => {
                check_qualifier(cx, q)?;
                is_const |= q.node == TypeQualifier::Const;
            }
            DeclarationSpecifier::Function(f) => noreturn |= f.node == FunctionSpecifier::Noreturn,
            DeclarationSpecifier::Alignment(_) => {}
            DeclarationSpecifier::Extension(ext) => noreturn |= is_noreturn_attr(ext),
        }
    }
    let (ty, typedef_const) = base_type(cx, &tss, span)?;
    let enum_def = cx.unit_ref().enums.named(tss.iter().map(|t| &t.node));
    Ok(DeclSpec { ty, is_const: is_const || typedef_const, storage, noreturn, enum_def })
}

fn check_qualifier<'a>(cx: &mut dyn Ctx<'a>, q: &Node<TypeQualifier>) -> LResult<()> {
    if q.node == TypeQualifier::Atomic {
        return Err(cx.unit_ref().unsupported(q.span, "_Atomic"));
    }
    Ok(())
}

/// Reads the specifier-qualifier list of a type name.
pub(crate) fn specqual<'a>(
    cx: &mut dyn Ctx<'a>,
    specs: &[Node<SpecifierQualifier>],
    span: Span,
) -> LResult<(CType, bool)> {
    let mut tss = Vec::new();
    let mut is_const = false;
    for s in specs {
        match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => tss.push(t),
            SpecifierQualifier::TypeQualifier(q) => {
                check_qualifier(cx, q)?;
                is_const |= q.node == TypeQualifier::Const;
            }
            SpecifierQualifier::Extension(_) => {}
        }
    }
    let (ty, typedef_const) = base_type(cx, &tss, span)?;
    Ok((ty, is_const || typedef_const))
}

/// The type named by a list of type specifiers.
/// Also tells whether a typedef name brought a `const` qualifier.
fn base_type<'a>(cx: &mut dyn Ctx<'a>, tss: &[&Node<TypeSpecifier>], span: Span) -> LResult<(CType, bool)> {
    let mut typedef_const = false;
    let (mut void, mut boolean, mut char, mut short, mut int, mut long) = (0, 0, 0, 0, 0, 0);
    let (mut signed, mut unsigned) = (0, 0);
    let (mut float, mut double) = (0, 0);
    // Where `float`/`double` is written (diagnostics point at it).
    let mut float_at = span;
    let mut other: Option<CType> = None;
    for t in tss {
        match &t.node {
            TypeSpecifier::Void => void += 1,
            TypeSpecifier::Bool => boolean += 1,
            TypeSpecifier::Char => char += 1,
            TypeSpecifier::Short => short += 1,
            TypeSpecifier::Int => int += 1,
            TypeSpecifier::Long => long += 1,
            TypeSpecifier::Signed => signed += 1,
            TypeSpecifier::Unsigned => unsigned += 1,
            TypeSpecifier::Float | TypeSpecifier::Double => {
                if matches!(t.node, TypeSpecifier::Float) {
                    float += 1;
                } else {
                    double += 1;
                }
                float_at = t.span;
            }
            TypeSpecifier::TS18661Float(_) => {
                return Err(cx.unit_ref().unsupported(t.span, "extended floating types (`_FloatN`, `__float128`)"))
            }
            TypeSpecifier::Complex => return Err(cx.unit_ref().unsupported(t.span, "complex types")),
            TypeSpecifier::Atomic(_) => return Err(cx.unit_ref().unsupported(t.span, "_Atomic types")),
            TypeSpecifier::Struct(s) => other = Some(crate::structs::specifier(cx, s)?),
            TypeSpecifier::Enum(e) => other = Some(CType::Int(enum_type(cx, e)?)),
            TypeSpecifier::TypedefName(id) => {
                let name = &id.node.name;
                other = Some(match cx.unit_ref().lookup(name) {
                    Some(Sym::Typedef(t, c)) => {
                        typedef_const = *c;
                        t.clone()
                    }
                    Some(Sym::Unsupported(reason)) => {
                        let reason = reason.clone();
                        return Err(cx.unit_ref().use_of_unsupported(id.span, name, &reason));
                    }
                    _ => return Err(cx.unit_ref().invalid(id.span, format!("unknown type name `{name}`"))),
                });
            }
            TypeSpecifier::TypeOf(of) => {
                // `typeof(e)` does not evaluate `e` (except for variably
                // modified types, which are not supported here).
                other = Some(match &of.node {
                    TypeOf::Type(tn) => type_name(cx, tn)?,
                    TypeOf::Expression(e) => cx.expr_type(e)?,
                });
            }
        }
    }
    let ints = boolean + char + short + int + long + signed + unsigned;
    if float + double > 0 {
        return floating(cx, (float, double), ints + void - long, long, other.is_some(), float_at);
    }
    if let Some(t) = other {
        if ints + void == 0 && tss.len() == 1 {
            return Ok((t, typedef_const));
        }
        return Err(cx.unit_ref().invalid(span, "invalid combination of type specifiers"));
    }
    if void == 1 && ints == 0 {
        return Ok((CType::Void, false));
    }
    let bad = || cx.unit_ref().invalid(span, "invalid combination of type specifiers");
    if void > 0 || signed + unsigned > 1 || short + char + boolean > 1 || int > 1 || long > 2 {
        return Err(bad());
    }
    use IntKind::*;
    let model = cx.unit_ref().model;
    let kind = if boolean == 1 {
        if ints > 1 {
            return Err(bad());
        }
        Bool
    } else if char == 1 {
        if int + long > 0 {
            return Err(bad());
        }
        match (signed, unsigned) {
            (1, _) => SChar,
            (_, 1) => UChar,
            _ => Char,
        }
    } else if short == 1 {
        if long > 0 {
            return Err(bad());
        }
        if unsigned == 1 {
            UShort
        } else {
            Short
        }
    } else if long == 2 {
        if unsigned == 1 {
            ULongLong
        } else {
            LongLong
        }
    } else if long == 1 {
        if unsigned == 1 {
            model.ulong()
        } else {
            model.long()
        }
    } else if int + signed + unsigned > 0 {
        if unsigned == 1 {
            UInt
        } else {
            Int
        }
    } else {
        return Err(cx.unit_ref().unsupported(span, "declarations without a type specifier (implicit int)"));
    };
    Ok((CType::Int(kind), false))
}

/// `float`, `double` or `long double` from the counts of their specifiers
/// (`others`: specifiers other than `long` that do not combine with them).
fn floating<'a>(
    cx: &mut dyn Ctx<'a>,
    (float, double): (u32, u32),
    others: u32,
    long: u32,
    named: bool,
    span: Span,
) -> LResult<(CType, bool)> {
    if others > 0 || named || float + double > 1 || long > 1 || (float == 1 && long > 0) {
        return Err(cx.unit_ref().invalid(span, "invalid combination of type specifiers"));
    }
    let kind = match (float, long) {
        (1, _) => FloatKind::Float,
        (_, 1) => cx.unit_ref().model.long_double(),
        _ => FloatKind::Double,
    };
    Ok((CType::Float(kind), false))
}

/// The type of an enumeration, as gcc chooses it (C leaves it to the
/// implementation; gcc before C23): `unsigned int` when no constant is
/// negative and all fit it, `int` when some is negative and all fit it,
/// else the first of `long`, `long long` (their unsigned forms without
/// negative constants) holding them all, which depends on the data model.
/// So an enumeration variable of value 3000000000 is positive, and `e - 1
/// < 0` is false for `e == 0`. A definition declares its constants: of
/// type `int` when their value fits it, of the enumeration's type otherwise
/// (gcc's extension; within the list, the smallest type holding the value).
/// The type is recorded under the key `enum TAG` (no identifier has a
/// space) for later references to the tag; an unknown tag is `unsigned
/// int`, the usual type.
fn enum_type<'a>(cx: &mut dyn Ctx<'a>, e: &Node<lang_c::ast::EnumType>) -> LResult<IntKind> {
    let key = e.node.identifier.as_ref().map(|id| format!("enum {}", id.node.name));
    if e.node.enumerators.is_empty() {
        return Ok(match key.as_deref().and_then(|k| cx.unit_ref().lookup(k)) {
            Some(Sym::Typedef(CType::Int(kind), _)) => *kind,
            _ => IntKind::UInt,
        });
    }
    let model = cx.unit_ref().model;
    let mut next: i128 = 0;
    let mut values: Vec<(&str, i128)> = Vec::new();
    for en in &e.node.enumerators {
        if let Some(x) = &en.node.expression {
            let v = consteval::eval(cx, x)?
                .ok_or_else(|| cx.unit_ref().invalid(x.span, "enumerator value is not an integer constant"))?;
            next = v.value();
        }
        let Some(kind) = enum_kind(next, next, model) else {
            return Err(cx.unit_ref().unsupported(en.span, "enumerator value outside the range of long long"));
        };
        let name = en.node.identifier.node.name.as_str();
        let kind = if fits(IntKind::Int, next, next) { IntKind::Int } else { kind };
        cx.unit().declare(name, Sym::EnumConst(consteval::CVal::of(kind, next)));
        values.push((name, next));
        next += 1;
    }
    let min = values.iter().map(|v| v.1).min().unwrap_or(0);
    let max = values.iter().map(|v| v.1).max().unwrap_or(0);
    let Some(kind) = enum_kind(min, max, model) else {
        return Err(cx.unit_ref().unsupported(e.span, "enumerator values need more than 64 bits together"));
    };
    let constants = values.iter().map(|&(n, v)| (n.to_string(), v)).collect();
    cx.unit().enums.define(key.clone(), constants);
    for (name, v) in values.into_iter().filter(|&(_, v)| !fits(IntKind::Int, v, v)) {
        cx.unit().declare(name, Sym::EnumConst(consteval::CVal::of(kind, v)));
    }
    if let Some(key) = key {
        cx.unit().declare(&key, Sym::Typedef(CType::Int(kind), false));
    }
    Ok(kind)
}

/// gcc's type for an enumeration whose constants range over `min..=max`.
fn enum_kind(min: i128, max: i128, model: crate::DataModel) -> Option<IntKind> {
    let candidates = if min >= 0 {
        [IntKind::UInt, model.ulong(), IntKind::ULongLong]
    } else {
        [IntKind::Int, model.long(), IntKind::LongLong]
    };
    candidates.into_iter().find(|&k| fits(k, min, max))
}

/// Whether every value of `min..=max` is one of `kind`.
fn fits(kind: IntKind, min: i128, max: i128) -> bool {
    let bits = kind.bits();
    if kind.signed() {
        min >= -(1i128 << (bits - 1)) && max < 1i128 << (bits - 1)
    } else {
        min >= 0 && max < 1i128 << bits
    }
}

/// Applies a declarator to a base type.
pub(crate) fn declarator<'a>(
    cx: &mut dyn Ctx<'a>,
    base: CType,
    base_const: bool,
    d: &Node<Declarator>,
) -> LResult<Declared> {
    let mut out =
        Declared { name: None, name_span: d.span, ty: base, is_const: base_const, params: Vec::new(), noreturn: false };
    apply(cx, &mut out, d)?;
    Ok(out)
}

fn apply<'a>(cx: &mut dyn Ctx<'a>, out: &mut Declared, d: &Node<Declarator>) -> LResult<()> {
    out.noreturn |= is_noreturn_attr(&d.node.extensions);
    let derived = &d.node.derived;
    let split = derived.iter().take_while(|x| matches!(x.node, DerivedDeclarator::Pointer(_))).count();
    for p in &derived[..split] {
        if let DerivedDeclarator::Pointer(quals) = &p.node {
            out.ty = CType::ptr_to(std::mem::replace(&mut out.ty, CType::Void));
            out.is_const = quals
                .iter()
                .any(|q| matches!(&q.node, PointerQualifier::TypeQualifier(t) if t.node == TypeQualifier::Const));
        }
    }
    for s in derived[split..].iter().rev() {
        let inner = std::mem::replace(&mut out.ty, CType::Void);
        out.ty = match &s.node {
            DerivedDeclarator::Pointer(_) => {
                return Err(cx.unit_ref().invalid(s.span, "unexpected pointer declarator"));
            }
            DerivedDeclarator::Array(a) => {
                if matches!(inner, CType::Func(_) | CType::Void) {
                    return Err(cx.unit_ref().invalid(s.span, "invalid array element type"));
                }
                match array_len(cx, &a.node.size)? {
                    Some(len) => CType::Array(Box::new(inner), len),
                    None => CType::Vla(Box::new(inner), None),
                }
            }
            DerivedDeclarator::Function(f) => {
                if matches!(inner, CType::Func(_) | CType::Array(..)) {
                    return Err(cx.unit_ref().invalid(s.span, "function cannot return a function or an array"));
                }
                let (params, variadic) = parameters(cx, &f.node.parameters, &f.node.ellipsis)?;
                let tys = params.iter().map(|p| p.ty.clone()).collect();
                let const_params = params.iter().map(|p| p.const_pointee).collect();
                out.params = params;
                CType::Func(Box::new(FuncSig { ret: inner, params: tys, variadic, prototyped: true, const_params }))
            }
            DerivedDeclarator::KRFunction(names) => {
                if !names.is_empty() {
                    return Err(cx.unit_ref().unsupported(s.span, "K&R-style function definitions"));
                }
                out.params = Vec::new();
                CType::Func(Box::new(FuncSig {
                    ret: inner,
                    params: Vec::new(),
                    variadic: false,
                    prototyped: false,
                    const_params: Vec::new(),
                }))
            }
            DerivedDeclarator::Block(_) => return Err(cx.unit_ref().unsupported(s.span, "block pointers")),
        };
    }
    match &d.node.kind.node {
        DeclaratorKind::Abstract => Ok(()),
        DeclaratorKind::Identifier(id) => {
            out.name = Some(id.node.name.clone());
            out.name_span = id.span;
            Ok(())
        }
        DeclaratorKind::Declarator(inner) => {
            // `int (*f)(int)`: the inner declarator's pointer applies to
            // the function type built so far. A function declarator inside
            // (`int (*g(int))(int)`, a function returning a function
            // pointer) would give `out.params` the outer list's names.
            if matches!(out.ty, CType::Func(_))
                && inner.node.derived.iter().any(|d| matches!(d.node, DerivedDeclarator::Function(_)))
            {
                return Err(cx.unit_ref().unsupported(inner.span, "functions returning function pointers"));
            }
            if matches!(out.ty, CType::Func(_))
                && inner.node.derived.iter().any(|d| matches!(d.node, DerivedDeclarator::Pointer(_)))
            {
                out.params.clear();
            }
            apply(cx, out, inner)
        }
    }
}

/// The length of an array declarator: `Some(None)` when omitted, `None`
/// when it is not a constant (a variable-length array).
fn array_len<'a>(cx: &mut dyn Ctx<'a>, size: &ArraySize) -> LResult<Option<Option<u64>>> {
    match size {
        ArraySize::Unknown => Ok(Some(None)),
        ArraySize::VariableUnknown => Ok(None),
        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => match consteval::eval(cx, e)? {
            Some(v) if v.value() > 0 && v.value() <= i128::from(u32::MAX) => Ok(Some(Some(v.value() as u64))),
            Some(v) if v.value() > 0 => Err(cx.unit_ref().unsupported(e.span, "arrays of more than 2^32 - 1 elements")),
            Some(_) => Err(cx.unit_ref().invalid(e.span, "array size must be positive")),
            None => Ok(None),
        },
    }
}

/// The size expressions of the arrays a declared pointer points to
/// (`int (*p)[n][4]`: `n`, `4`), outermost first; nothing for other forms.
pub(crate) fn pointee_array_sizes(d: &Node<Declarator>) -> Vec<Option<&Node<lang_c::ast::Expression>>> {
    let DeclaratorKind::Declarator(inner) = &d.node.kind.node else { return Vec::new() };
    let only_pointers = inner.node.derived.iter().all(|x| matches!(x.node, DerivedDeclarator::Pointer(_)));
    if !only_pointers || inner.node.derived.len() != 1 || !matches!(inner.node.kind.node, DeclaratorKind::Identifier(_))
    {
        return Vec::new();
    }
    leading_array_sizes(d.node.derived.iter())
}

/// The size expressions of a declarator's arrays, outermost first (`int
/// m[r][4][c]`: `r`, `4`, `c`; `None` for `[]` and `[*]`); nothing for a
/// parenthesised declarator.
pub(crate) fn array_sizes(d: &Node<Declarator>) -> Vec<Option<&Node<lang_c::ast::Expression>>> {
    if !matches!(d.node.kind.node, DeclaratorKind::Identifier(_) | DeclaratorKind::Abstract) {
        return Vec::new();
    }
    leading_array_sizes(d.node.derived.iter().skip_while(|x| matches!(x.node, DerivedDeclarator::Pointer(_))))
}

/// The size expressions of the array declarators at the start of `derived`.
fn leading_array_sizes<'d>(
    derived: impl Iterator<Item = &'d Node<DerivedDeclarator>>,
) -> Vec<Option<&'d Node<lang_c::ast::Expression>>> {
    derived
        .map_while(|x| match &x.node {
            DerivedDeclarator::Array(a) => Some(match &a.node.size {
                ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => Some(&**e),
                _ => None,
            }),
            _ => None,
        })
        .collect()
}

/// The constant length of the array a parameter declarator declares
/// (`int a[10]`: 10, `int m[3][4]`: 3) before its adjustment to a
/// pointer; `None` for a pointer, `[]`, `[*]` or a varying length.
pub(crate) fn declared_param_len<'a>(
    cx: &mut dyn Ctx<'a>,
    specifiers: &[Node<DeclarationSpecifier>],
    d: &Node<Declarator>,
) -> Option<u64> {
    if !matches!(d.node.kind.node, DeclaratorKind::Identifier(_)) {
        return None;
    }
    match d.node.derived.first().map(|x| &x.node) {
        Some(DerivedDeclarator::Array(a)) => array_len(cx, &a.node.size).ok().flatten().flatten(),
        Some(_) => None,
        // `const vec3 a` with `typedef int vec3[3]`.
        None => specifiers.iter().find_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
                TypeSpecifier::TypedefName(id) => match cx.unit_ref().lookup(&id.node.name) {
                    Some(Sym::Typedef(CType::Array(_, Some(n)), _)) => Some(*n),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }),
    }
}

/// The parameters of a prototype; `(void)` is none.
fn parameters<'a>(
    cx: &mut dyn Ctx<'a>,
    list: &[Node<ParameterDeclaration>],
    ellipsis: &lang_c::ast::Ellipsis,
) -> LResult<(Vec<ParamDecl>, bool)> {
    let mut out = Vec::new();
    for (i, p) in list.iter().enumerate() {
        let spec = decl_spec(cx, &p.node.specifiers, p.span)?;
        let d = match &p.node.declarator {
            Some(d) => declarator(cx, spec.ty, spec.is_const, d)?,
            None => Declared {
                name: None,
                name_span: p.span,
                ty: spec.ty,
                is_const: false,
                params: Vec::new(),
                noreturn: false,
            },
        };
        if d.ty == CType::Void {
            if list.len() == 1 && d.name.is_none() {
                break;
            }
            return Err(cx.unit_ref().invalid(p.span, "parameter has type void"));
        }
        // Parameter adjustment (C11 6.7.6.3p7): arrays become pointers.
        let ty = match d.ty {
            CType::Array(e, _) | CType::Vla(e, _) => CType::Ptr(e),
            // ... and functions pointers to them (C11 6.7.6.3p8).
            t @ CType::Func(_) => CType::ptr_to(t),
            t => t,
        };
        let name = d.name.unwrap_or_else(|| format!("__arg{i}"));
        let const_pointee = spec.is_const && matches!(ty, CType::Ptr(_));
        out.push(ParamDecl { name, span: d.name_span, ty, const_pointee });
    }
    Ok((out, *ellipsis == lang_c::ast::Ellipsis::Some))
}

/// The type denoted by a type name (casts, `sizeof`).
pub(crate) fn type_name<'a>(cx: &mut dyn Ctx<'a>, tn: &Node<TypeName>) -> LResult<CType> {
    let (base, is_const) = specqual(cx, &tn.node.specifiers, tn.span)?;
    match &tn.node.declarator {
        Some(d) => Ok(declarator(cx, base, is_const, d)?.ty),
        None => Ok(base),
    }
}

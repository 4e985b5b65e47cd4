//! Address constants in the initializers of objects with static storage
//! (C11 6.6p9): `int *p = &x;`, `char *s = "ab";`, `&tab[2]`, `&s.field`,
//! `arr + 1`, a table of strings. Each becomes a relocation of the global
//! ([`pathwise_ir::GlobalReloc`]): the address of another global (a string
//! literal is one, `.str.N`) plus a constant number of bytes, which the
//! engine turns into a pointer when it builds a run's memory.
//!
//! Offsets are in the IR's memory layout (`CType::mem_size`), which is
//! where the engine's pointers point; they equal gcc's except for
//! pointer members under ILP32 (see `structs.rs`). A function designator
//! (`handler`, `&handler`, a cast of either) is the address of that
//! function: a table of handlers.

use lang_c::ast::{BinaryOperator, Expression, MemberOperator, UnaryOperator};
use lang_c::span::Node;
use pathwise_ir::{GlobalId, RelocTarget};

use crate::consteval;
use crate::ctypes::CType;
use crate::typespec;
use crate::unit::{Ctx, LResult, Sym};

/// A constant address: a global, a byte offset into it, and the type of
/// what is there (an lvalue's type; arrays not decayed).
struct Place {
    global: GlobalId,
    offset: i128,
    ty: CType,
}

/// The value of `e`, an initializer of pointer type, as (target, byte
/// offset), or `None` when it is not an address constant Pathwise knows.
pub(crate) fn address_constant<'a>(cx: &mut dyn Ctx<'a>, e: &Node<Expression>) -> LResult<Option<(RelocTarget, u64)>> {
    if let Some(idx) = function_designator(cx, e) {
        let func = cx.unit().func_id(idx);
        return Ok(Some((RelocTarget::Func(func), 0)));
    }
    let Some((global, offset, _)) = pointer_value(cx, e)? else { return Ok(None) };
    Ok(u64::try_from(offset).ok().map(|o| (RelocTarget::Global(global), o)))
}

/// The function `e` designates (`f`, `&f`, `*f`, a cast of one), by its
/// index in `Unit::funcs`.
fn function_designator<'a>(cx: &mut dyn Ctx<'a>, e: &Node<Expression>) -> Option<usize> {
    match &e.node {
        Expression::Identifier(id) => match cx.unit_ref().lookup(&id.node.name) {
            Some(Sym::Func(idx)) => Some(*idx),
            _ => None,
        },
        Expression::UnaryOperator(u)
            if matches!(u.node.operator.node, UnaryOperator::Address | UnaryOperator::Indirection) =>
        {
            function_designator(cx, &u.node.operand)
        }
        Expression::Cast(c) => function_designator(cx, &c.node.expression),
        _ => None,
    }
}

/// A pointer-valued constant: (global, byte offset, pointee type).
fn pointer_value<'a>(cx: &mut dyn Ctx<'a>, e: &Node<Expression>) -> LResult<Option<(GlobalId, i128, CType)>> {
    match &e.node {
        Expression::Cast(c) => {
            let to = typespec::type_name(cx, &c.node.type_name)?;
            let CType::Ptr(pointee) = to else { return Ok(None) };
            Ok(pointer_value(cx, &c.node.expression)?.map(|(g, o, _)| (g, o, *pointee)))
        }
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            Ok(place(cx, &u.node.operand)?.map(|p| (p.global, p.offset, p.ty)))
        }
        Expression::BinaryOperator(b)
            if matches!(b.node.operator.node, BinaryOperator::Plus | BinaryOperator::Minus) =>
        {
            let minus = b.node.operator.node == BinaryOperator::Minus;
            // `n + p` as well as `p + n` (not `n - p`).
            let (ptr, int) = match pointer_value(cx, &b.node.lhs)? {
                Some(p) => (p, &b.node.rhs),
                None if !minus => match pointer_value(cx, &b.node.rhs)? {
                    Some(p) => (p, &b.node.lhs),
                    None => return Ok(None),
                },
                None => return Ok(None),
            };
            let Some(n) = consteval::eval(cx, int)? else { return Ok(None) };
            let Some(size) = ptr.2.mem_size() else { return Ok(None) };
            let delta = n.value() * i128::from(size);
            Ok(Some((ptr.0, if minus { ptr.1 - delta } else { ptr.1 + delta }, ptr.2)))
        }
        // An array (or string literal) converted to a pointer to its first element.
        _ => Ok(place(cx, e)?.and_then(|p| match p.ty {
            CType::Array(elem, _) => Some((p.global, p.offset, *elem)),
            _ => None,
        })),
    }
}

/// The object an lvalue expression designates, when its address is a
/// constant.
fn place<'a>(cx: &mut dyn Ctx<'a>, e: &Node<Expression>) -> LResult<Option<Place>> {
    match &e.node {
        Expression::Identifier(id) => {
            let Some(Sym::Global(idx)) = cx.unit_ref().lookup(&id.node.name).cloned() else { return Ok(None) };
            let ty = cx.unit_ref().objects[idx].ty.clone();
            let global = cx.unit().global_id(idx);
            Ok(Some(Place { global, offset: 0, ty }))
        }
        Expression::StringLiteral(s) => {
            let bytes = crate::literals::string_bytes(&s.node).map_err(|m| cx.unit_ref().invalid(s.span, m))?;
            let n = bytes.len() as u64 + 1;
            let global = cx.unit().string_global(&bytes);
            let ty = CType::Array(Box::new(CType::Int(crate::ctypes::IntKind::Char)), Some(n));
            Ok(Some(Place { global, offset: 0, ty }))
        }
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            let Some((global, offset, elem)) = pointer_value(cx, &b.node.lhs)? else { return Ok(None) };
            let Some(i) = consteval::eval(cx, &b.node.rhs)? else { return Ok(None) };
            let Some(size) = elem.mem_size() else { return Ok(None) };
            Ok(Some(Place { global, offset: offset + i.value() * i128::from(size), ty: elem }))
        }
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
            Ok(pointer_value(cx, &u.node.operand)?.map(|(global, offset, ty)| Place { global, offset, ty }))
        }
        Expression::Member(m) => {
            let base = match m.node.operator.node {
                MemberOperator::Direct => place(cx, &m.node.expression)?,
                MemberOperator::Indirect => {
                    pointer_value(cx, &m.node.expression)?.map(|(global, offset, ty)| Place { global, offset, ty })
                }
            };
            let Some(base) = base else { return Ok(None) };
            let CType::Struct(s) = &base.ty else { return Ok(None) };
            let Some((off, ty, None)) = s.member(&m.node.identifier.node.name) else { return Ok(None) };
            Ok(Some(Place { global: base.global, offset: base.offset + i128::from(off), ty }))
        }
        _ => Ok(None),
    }
}

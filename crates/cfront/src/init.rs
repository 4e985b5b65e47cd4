//! Initializers, flattened to element indices.
//!
//! Arrays are flat in memory (`int m[3][4]` is 12 `i32`s), so an initializer
//! becomes a list of (flat element index, item) pairs, following C11 6.7.9:
//! nested braces, brace elision (`int m[2][2] = {1, 2, 3, 4}`), array
//! designators (`[3] = 7`), string literals for `char` arrays, and the size of
//! `[]` arrays taken from the initializer. Elements not listed are zero; the
//! callers (locals: stores, globals: constant data) fill them.

use lang_c::ast::{Designator, Expression, Initializer, InitializerListItem};
use lang_c::span::{Node, Span};

use crate::consteval;
use crate::ctypes::{CType, IntKind};
use crate::literals;
use crate::unit::{Ctx, LResult};

/// One initialized element.
pub(crate) enum InitItem<'e> {
    Expr(&'e Node<Expression>),
    /// A byte of a string literal.
    Const(u64),
}

/// An initializer flattened against a type, with the type completed.
pub(crate) struct FlatInit<'e> {
    pub ty: CType,
    pub items: Vec<(u64, InitItem<'e>)>,
}

fn is_char_kind(t: &CType) -> bool {
    matches!(t, CType::Int(IntKind::Char | IntKind::SChar | IntKind::UChar))
}

/// Flattens `init` for an object of type `ty` (a scalar or an array).
pub(crate) fn flatten<'a, 'e>(cx: &mut dyn Ctx<'a>, ty: &CType, init: &'e Node<Initializer>) -> LResult<FlatInit<'e>> {
    let mut items = Vec::new();
    match (ty, &init.node) {
        (CType::Array(..), Initializer::Expression(e)) => {
            let n = string_init(cx, ty, e, 0, &mut items)?;
            Ok(FlatInit { ty: complete(ty, n), items })
        }
        (_, Initializer::Expression(e)) => {
            items.push((0, InitItem::Expr(e)));
            Ok(FlatInit { ty: ty.clone(), items })
        }
        (_, Initializer::List(list)) => flatten_list(cx, ty, list, init.span),
    }
}

/// Flattens a braced initializer list (also that of a compound literal)
/// for an object of type `ty`.
pub(crate) fn flatten_list<'a, 'e>(
    cx: &mut dyn Ctx<'a>,
    ty: &CType,
    list: &'e [Node<InitializerListItem>],
    span: Span,
) -> LResult<FlatInit<'e>> {
    let mut items = Vec::new();
    if let CType::Array(..) = ty {
        let mut pos = 0;
        let n = fill_array(cx, ty, list, &mut pos, 0, true, &mut items)?;
        if pos < list.len() {
            return Err(cx.unit_ref().invalid(list[pos].span, "excess elements in array initializer"));
        }
        return Ok(FlatInit { ty: complete(ty, n), items });
    }
    if let Some(e) = scalar_in_braces(cx, list, span)? {
        items.push((0, InitItem::Expr(e)));
    }
    Ok(FlatInit { ty: ty.clone(), items })
}

/// `int a[]` gets its length from the initializer.
fn complete(ty: &CType, n: u64) -> CType {
    match ty {
        CType::Array(e, None) => CType::Array(e.clone(), Some(n)),
        t => t.clone(),
    }
}

/// `{ e }` for a scalar (`{}` is zero, as in GNU C and C23).
fn scalar_in_braces<'a, 'e>(
    cx: &mut dyn Ctx<'a>,
    list: &'e [Node<InitializerListItem>],
    span: Span,
) -> LResult<Option<&'e Node<Expression>>> {
    match list {
        [] => Ok(None),
        [item] if item.node.designation.is_empty() => match &item.node.initializer.node {
            Initializer::Expression(e) => Ok(Some(e)),
            Initializer::List(inner) => scalar_in_braces(cx, inner, item.span),
        },
        _ => Err(cx.unit_ref().invalid(span, "excess elements in scalar initializer")),
    }
}

/// A string literal initializing a `char` array at flat index `base`;
/// returns the number of elements it occupies.
fn string_init<'a, 'e>(
    cx: &mut dyn Ctx<'a>,
    ty: &CType,
    e: &'e Node<Expression>,
    base: u64,
    out: &mut Vec<(u64, InitItem<'e>)>,
) -> LResult<u64> {
    let (CType::Array(elem, len), Expression::StringLiteral(s)) = (ty, &e.node) else {
        return Err(cx.unit_ref().invalid(e.span, "array initializer must be an initializer list"));
    };
    if !is_char_kind(elem) {
        return Err(cx.unit_ref().invalid(e.span, "string literal initializes an array of non-character type"));
    }
    let bytes = literals::string_bytes(&s.node).map_err(|m| cx.unit_ref().invalid(s.span, m))?;
    let n = len.unwrap_or(bytes.len() as u64 + 1);
    if bytes.len() as u64 > n {
        return Err(cx.unit_ref().invalid(e.span, "initializer string is too long for the array"));
    }
    for (i, b) in bytes.iter().enumerate() {
        out.push((base + i as u64, InitItem::Const(u64::from(*b))));
    }
    Ok(n)
}

/// Fills the array `ty` at flat index `base` from `list[*pos..]`. A braced
/// list is consumed up to its end; an unbraced one (brace elision) only as
/// far as the array needs. Returns the number of elements initialized.
fn fill_array<'a, 'e>(
    cx: &mut dyn Ctx<'a>,
    ty: &CType,
    list: &'e [Node<InitializerListItem>],
    pos: &mut usize,
    base: u64,
    braced: bool,
    out: &mut Vec<(u64, InitItem<'e>)>,
) -> LResult<u64> {
    let CType::Array(elem, len) = ty else {
        return Err(cx.unit_ref().invalid(Span::none(), "array type expected"));
    };
    let per = elem.flatten().map(|(_, n)| n).unwrap_or(1);
    let (mut i, mut max) = (0u64, 0u64);
    while *pos < list.len() {
        let item = &list[*pos];
        if !item.node.designation.is_empty() {
            if !braced {
                break;
            }
            i = designator_index(cx, &item.node.designation, item.span)?;
            if len.is_some_and(|n| i >= n) {
                return Err(cx.unit_ref().invalid(item.span, "array designator index out of bounds"));
            }
        } else if len.is_some_and(|n| i >= n) {
            break;
        }
        let at = base + i * per;
        match (&**elem, &item.node.initializer.node) {
            (CType::Array(..), Initializer::List(sub)) => {
                let mut p = 0;
                fill_array(cx, elem, sub, &mut p, at, true, out)?;
                if p < sub.len() {
                    return Err(cx.unit_ref().invalid(sub[p].span, "excess elements in array initializer"));
                }
                *pos += 1;
            }
            (CType::Array(..), Initializer::Expression(e)) => {
                if matches!(e.node, Expression::StringLiteral(_)) {
                    string_init(cx, elem, e, at, out)?;
                    *pos += 1;
                } else {
                    fill_array(cx, elem, list, pos, at, false, out)?;
                }
            }
            (_, Initializer::List(sub)) => {
                if let Some(e) = scalar_in_braces(cx, sub, item.span)? {
                    out.push((at, InitItem::Expr(e)));
                }
                *pos += 1;
            }
            (_, Initializer::Expression(e)) => {
                out.push((at, InitItem::Expr(e)));
                *pos += 1;
            }
        }
        i += 1;
        max = max.max(i);
    }
    Ok(max)
}

fn designator_index<'a>(cx: &mut dyn Ctx<'a>, des: &[Node<Designator>], span: Span) -> LResult<u64> {
    match des {
        [d] => match &d.node {
            Designator::Index(e) => match consteval::eval(cx, e)? {
                Some(v) if v.value() >= 0 => Ok(v.value() as u64),
                _ => Err(cx.unit_ref().invalid(e.span, "array designator is not a non-negative integer constant")),
            },
            Designator::Member(_) => Err(cx.unit_ref().unsupported(d.span, "struct and union member designators")),
            Designator::Range(_) => Err(cx.unit_ref().unsupported(d.span, "designator ranges")),
        },
        _ => Err(cx.unit_ref().unsupported(span, "nested designators")),
    }
}

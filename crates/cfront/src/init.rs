//! Initializers, flattened to byte offsets.
//!
//! An initializer becomes a map from byte offset to (scalar type, item),
//! following C11 6.7.9: nested braces, brace elision (`int m[2][2] = {1, 2,
//! 3, 4}`, also through structures), array designators (`[3] = 7`), member
//! designators (`.next = 0`, nested as `.a.b` or `.a[2]`), string literals
//! for `char` arrays, a structure initialised from a structure value, and
//! the size of `[]` arrays taken from the initializer. A later initializer
//! of the same bytes replaces an earlier one. After a nested designator
//! (`.a.b = 1, 2`) the next item continues after `a` (C says after `a.b`).
//! Unlisted bytes are zero: the callers (locals: stores of the missing
//! cells, see [`FlatInit::unions`]; globals: constant data) fill them.

use std::collections::BTreeMap;

use lang_c::ast::{Designator, Expression, Initializer, InitializerListItem};
use lang_c::span::{Node, Span};
use rustc_hash::FxHashMap;

use crate::consteval;
use crate::ctypes::{CType, IntKind};
use crate::literals;
use crate::unit::{Ctx, LResult};

/// One initialized element.
pub(crate) enum InitItem<'e> {
    /// An expression for a scalar, or a structure value for a structure.
    Expr(&'e Node<Expression>),
    /// A byte of a string literal.
    Const(u64),
}

/// An initializer flattened against a type, with the type completed.
pub(crate) struct FlatInit<'e> {
    pub ty: CType,
    /// By byte offset: the type of the item (a scalar, or a structure
    /// initialised from a value) and the item; items never overlap.
    pub items: BTreeMap<u64, (CType, InitItem<'e>)>,
    /// The member initialised of each union, by the union's offset (the
    /// first member otherwise).
    pub unions: FxHashMap<u64, usize>,
    /// Bit-fields, by their first bit in the object: width, declared type
    /// and expression. Their bytes are not `items`: the callers zero them
    /// first, then merge each field in.
    pub bitfields: BTreeMap<u64, (u32, CType, &'e Node<Expression>)>,
}

impl<'e> FlatInit<'e> {
    fn new(ty: CType) -> FlatInit<'e> {
        FlatInit { ty, items: BTreeMap::new(), unions: FxHashMap::default(), bitfields: BTreeMap::new() }
    }

    /// Records an item, dropping earlier ones of the same bytes.
    fn put(&mut self, offset: u64, ty: CType, item: InitItem<'e>) {
        let end = offset + ty.mem_size().unwrap_or(1).max(1);
        let overlapping: Vec<u64> = self
            .items
            .range(..end)
            .rev()
            .take_while(|(&o, (t, _))| o + t.mem_size().unwrap_or(1).max(1) > offset)
            .map(|(&o, _)| o)
            .collect();
        for o in overlapping {
            self.items.remove(&o);
        }
        self.items.insert(offset, (ty, item));
    }

    /// Whether an item covers byte `offset`.
    pub fn covers(&self, offset: u64) -> bool {
        self.items
            .range(..=offset)
            .next_back()
            .is_some_and(|(&o, (t, _))| o + t.mem_size().unwrap_or(1).max(1) > offset)
    }
}

fn is_char_kind(t: &CType) -> bool {
    matches!(t, CType::Int(IntKind::Char | IntKind::SChar | IntKind::UChar))
}

fn is_aggregate(t: &CType) -> bool {
    matches!(t, CType::Array(..) | CType::Struct(_))
}

/// Flattens `init` for an object of type `ty`.
pub(crate) fn flatten<'a, 'e>(cx: &mut dyn Ctx<'a>, ty: &CType, init: &'e Node<Initializer>) -> LResult<FlatInit<'e>> {
    match (ty, &init.node) {
        (CType::Array(..), Initializer::Expression(e)) => {
            let mut out = FlatInit::new(ty.clone());
            let n = string_init(cx, ty, e, 0, &mut out)?;
            out.ty = complete(ty, n);
            Ok(out)
        }
        (_, Initializer::Expression(e)) => {
            let mut out = FlatInit::new(ty.clone());
            out.put(0, ty.clone(), InitItem::Expr(e));
            Ok(out)
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
    let mut out = FlatInit::new(ty.clone());
    if let Some(e) = braced_string(ty, list) {
        let n = string_init(cx, ty, e, 0, &mut out)?;
        out.ty = complete(ty, n);
        return Ok(out);
    }
    if is_aggregate(ty) {
        if ty.has_struct() && ty.mem_size().is_none() && !matches!(ty, CType::Array(_, None)) {
            return Err(crate::structs::incomplete(cx, span, ty));
        }
        let n = fill_braced(cx, ty, 0, list, &mut out)?;
        out.ty = complete(ty, n);
        return Ok(out);
    }
    if let Some(e) = scalar_in_braces(cx, list, span)? {
        out.put(0, ty.clone(), InitItem::Expr(e));
    }
    Ok(out)
}

/// `{"abc"}` for a character array: the string literal alone in braces
/// (C11 6.7.9p14), which initializes the array as the bare literal does.
fn braced_string<'e>(ty: &CType, list: &'e [Node<InitializerListItem>]) -> Option<&'e Node<Expression>> {
    let CType::Array(elem, _) = ty else { return None };
    match list {
        [item] if item.node.designation.is_empty() && is_char_kind(elem) => match &item.node.initializer.node {
            Initializer::Expression(e) if matches!(e.node, Expression::StringLiteral(_)) => Some(e),
            _ => None,
        },
        _ => None,
    }
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

/// A string literal initializing a `char` array at byte offset `base`;
/// returns the number of elements it occupies.
fn string_init<'a, 'e>(
    cx: &mut dyn Ctx<'a>,
    ty: &CType,
    e: &'e Node<Expression>,
    base: u64,
    out: &mut FlatInit<'e>,
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
        out.put(base + i as u64, (**elem).clone(), InitItem::Const(u64::from(*b)));
    }
    Ok(n)
}

/// A braced list for the aggregate `ty` at `base`, consumed to its end.
fn fill_braced<'a, 'e>(
    cx: &mut dyn Ctx<'a>,
    ty: &CType,
    base: u64,
    list: &'e [Node<InitializerListItem>],
    out: &mut FlatInit<'e>,
) -> LResult<u64> {
    let mut pos = 0;
    let n = fill(cx, ty, base, list, &mut pos, true, out)?;
    if pos < list.len() {
        let what = if matches!(ty, CType::Array(..)) { "array" } else { "structure" };
        return Err(cx.unit_ref().invalid(list[pos].span, format!("excess elements in {what} initializer")));
    }
    Ok(n)
}

/// Fills the aggregate `ty` at byte offset `base` from `list[*pos..]`. A
/// braced list is consumed up to its end; an unbraced one (brace elision)
/// only as far as the aggregate needs. Returns the number of array elements
/// initialized (1 for a structure).
fn fill<'a, 'e>(
    cx: &mut dyn Ctx<'a>,
    ty: &CType,
    base: u64,
    list: &'e [Node<InitializerListItem>],
    pos: &mut usize,
    braced: bool,
    out: &mut FlatInit<'e>,
) -> LResult<u64> {
    match ty {
        CType::Array(elem, len) => {
            let per = elem.mem_size().unwrap_or(0);
            let (mut i, mut max) = (0u64, 0u64);
            while *pos < list.len() {
                let item = &list[*pos];
                if let Some((first, rest)) = item.node.designation.split_first() {
                    if !braced {
                        break;
                    }
                    i = designator_index(cx, first)?;
                    if len.is_some_and(|n| i >= n) {
                        return Err(cx.unit_ref().invalid(item.span, "array designator index out of bounds"));
                    }
                    designated(cx, elem, base + i * per, rest, list, pos, out)?;
                } else {
                    if len.is_some_and(|n| i >= n) {
                        break;
                    }
                    element(cx, elem, base + i * per, list, pos, out)?;
                }
                i += 1;
                max = max.max(i);
            }
            Ok(max)
        }
        CType::Struct(s) => {
            let fields = s.fields().unwrap_or_default();
            let mut fi = 0usize;
            while *pos < list.len() {
                let item = &list[*pos];
                if let Some((first, rest)) = item.node.designation.split_first() {
                    if !braced {
                        break;
                    }
                    let path = member_path(cx, ty, first)?;
                    let (top, _) = path[0];
                    // Through anonymous members: the inner members are
                    // designated one after the other.
                    let (mut off, mut t, mut bits) = (base, ty.clone(), None);
                    for &(idx, _) in &path {
                        let CType::Struct(cur) = &t else { break };
                        let f = cur.fields().unwrap_or_default().swap_remove(idx);
                        if cur.is_union() {
                            out.unions.insert(off, idx);
                        }
                        bits = f.bits.map(|b| (off * 8 + b.bit, b.width));
                        off += f.offset;
                        t = f.ty;
                    }
                    match bits {
                        Some((bit, width)) if rest.is_empty() => bit_field_item(cx, &t, bit, width, list, pos, out)?,
                        Some(_) => return Err(cx.unit_ref().invalid(item.span, "designator for a bit-field's part")),
                        None => designated(cx, &t, off, rest, list, pos, out)?,
                    }
                    fi = top + 1;
                } else {
                    if fi >= fields.len() || (s.is_union() && fi >= 1) {
                        break;
                    }
                    if s.is_union() {
                        out.unions.insert(base, fi);
                    }
                    match fields[fi].bits {
                        Some(b) => bit_field_item(cx, &fields[fi].ty, base * 8 + b.bit, b.width, list, pos, out)?,
                        None => element(cx, &fields[fi].ty, base + fields[fi].offset, list, pos, out)?,
                    }
                    fi += 1;
                }
            }
            Ok(1)
        }
        _ => Err(cx.unit_ref().invalid(Span::none(), "aggregate type expected")),
    }
}

/// The subobject selected by a designator list's first part, at `at` of
/// type `ty`, with the `rest` of the designators still to apply; consumes
/// the item.
fn designated<'a, 'e>(
    cx: &mut dyn Ctx<'a>,
    ty: &CType,
    at: u64,
    rest: &'e [Node<Designator>],
    list: &'e [Node<InitializerListItem>],
    pos: &mut usize,
    out: &mut FlatInit<'e>,
) -> LResult<()> {
    let Some((d, more)) = rest.split_first() else {
        return element(cx, ty, at, list, pos, out);
    };
    match ty {
        CType::Array(elem, len) => {
            let i = designator_index(cx, d)?;
            if len.is_some_and(|n| i >= n) {
                return Err(cx.unit_ref().invalid(d.span, "array designator index out of bounds"));
            }
            designated(cx, elem, at + i * elem.mem_size().unwrap_or(0), more, list, pos, out)
        }
        CType::Struct(_) => {
            let (mut off, mut t, mut bits) = (at, ty.clone(), None);
            for (idx, _) in member_path(cx, ty, d)? {
                let CType::Struct(cur) = &t else { break };
                let f = cur.fields().unwrap_or_default().swap_remove(idx);
                if cur.is_union() {
                    out.unions.insert(off, idx);
                }
                bits = f.bits.map(|b| (off * 8 + b.bit, b.width));
                off += f.offset;
                t = f.ty;
            }
            match bits {
                Some((bit, width)) if more.is_empty() => bit_field_item(cx, &t, bit, width, list, pos, out),
                Some(_) => Err(cx.unit_ref().invalid(d.span, "designator for a bit-field's part")),
                None => designated(cx, &t, off, more, list, pos, out),
            }
        }
        _ => Err(cx.unit_ref().invalid(d.span, "designator for a scalar")),
    }
}

/// The current item for the bit-field of declared type `ty`, `width` bits
/// from bit `bit` of the object.
fn bit_field_item<'a, 'e>(
    cx: &mut dyn Ctx<'a>,
    ty: &CType,
    bit: u64,
    width: u32,
    list: &'e [Node<InitializerListItem>],
    pos: &mut usize,
    out: &mut FlatInit<'e>,
) -> LResult<()> {
    let item = &list[*pos];
    let e = match &item.node.initializer.node {
        Initializer::Expression(e) => Some(&**e),
        Initializer::List(sub) => scalar_in_braces(cx, sub, item.span)?,
    };
    if let Some(e) = e {
        out.bitfields.insert(bit, (width, ty.clone(), e));
    }
    *pos += 1;
    Ok(())
}

/// The current item for a subobject of type `ty` at byte offset `at`.
fn element<'a, 'e>(
    cx: &mut dyn Ctx<'a>,
    ty: &CType,
    at: u64,
    list: &'e [Node<InitializerListItem>],
    pos: &mut usize,
    out: &mut FlatInit<'e>,
) -> LResult<()> {
    let item = &list[*pos];
    match &item.node.initializer.node {
        Initializer::List(sub) if is_aggregate(ty) => {
            match braced_string(ty, sub) {
                Some(e) => {
                    string_init(cx, ty, e, at, out)?;
                }
                None => {
                    fill_braced(cx, ty, at, sub, out)?;
                }
            }
            *pos += 1;
        }
        Initializer::List(sub) => {
            if let Some(e) = scalar_in_braces(cx, sub, item.span)? {
                out.put(at, ty.clone(), InitItem::Expr(e));
            }
            *pos += 1;
        }
        Initializer::Expression(e) if !is_aggregate(ty) => {
            out.put(at, ty.clone(), InitItem::Expr(e));
            *pos += 1;
        }
        Initializer::Expression(e) => {
            if matches!(ty, CType::Array(..)) && matches!(e.node, Expression::StringLiteral(_)) {
                string_init(cx, ty, e, at, out)?;
                *pos += 1;
            } else if matches!(ty, CType::Struct(_)) && cx.expr_type(e)? == *ty {
                out.put(at, ty.clone(), InitItem::Expr(e));
                *pos += 1;
            } else {
                // Brace elision: the items initialize the subobject's elements.
                fill(cx, ty, at, list, pos, false, out)?;
            }
        }
    }
    Ok(())
}

fn designator_index<'a>(cx: &mut dyn Ctx<'a>, d: &Node<Designator>) -> LResult<u64> {
    match &d.node {
        Designator::Index(e) => match consteval::eval(cx, e)? {
            Some(v) if v.value() >= 0 => Ok(v.value() as u64),
            _ => Err(cx.unit_ref().invalid(e.span, "array designator is not a non-negative integer constant")),
        },
        Designator::Member(_) => Err(cx.unit_ref().invalid(d.span, "member designator in an array initializer")),
        Designator::Range(_) => Err(cx.unit_ref().unsupported(d.span, "designator ranges")),
    }
}

/// The field indices leading to member `.name` of the structure `ty`
/// (through anonymous members: several), each with the field's type.
fn member_path<'a>(cx: &mut dyn Ctx<'a>, ty: &CType, d: &Node<Designator>) -> LResult<Vec<(usize, CType)>> {
    let name = match &d.node {
        Designator::Member(id) => &id.node.name,
        Designator::Index(_) => return Err(cx.unit_ref().invalid(d.span, "array designator for a structure")),
        Designator::Range(_) => return Err(cx.unit_ref().unsupported(d.span, "designator ranges")),
    };
    match find_path(ty, name) {
        Some(p) => Ok(p),
        None => Err(cx.unit_ref().invalid(d.span, format!("no member named `{name}` in `{}`", ty.spelling()))),
    }
}

fn find_path(ty: &CType, name: &str) -> Option<Vec<(usize, CType)>> {
    let CType::Struct(s) = ty else { return None };
    for (i, f) in s.fields()?.into_iter().enumerate() {
        match &f.name {
            Some(n) if n == name => return Some(vec![(i, f.ty)]),
            None => {
                if let Some(mut rest) = find_path(&f.ty, name) {
                    rest.insert(0, (i, f.ty));
                    return Some(rest);
                }
            }
            _ => {}
        }
    }
    None
}

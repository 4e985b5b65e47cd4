//! Structures and unions: tags, definitions, layouts and their IR description.
//!
//! A structure type is shared ([`StructRef`]): a forward declaration
//! (`struct node;`, or a first use such as `struct node *next;` inside its
//! own definition) creates an incomplete type that the definition completes
//! in place, so every earlier use sees the layout. Tags live in the ordinary
//! scope maps under the key `tag NAME` (not an identifier, so no clash);
//! `struct` and `union` share the tag namespace, as in C.
//!
//! Layouts are the IR's memory layouts, computed as gcc does for x86:
//! members in order, each at the next multiple of its alignment, the size
//! rounded up to the largest alignment; a union's members all at offset 0.
//! Under LP64 they are exactly gcc's. Under ILP32 they are gcc's for
//! structures without pointers; a pointer is an 8-byte cell of the IR's
//! memory in both models, so under ILP32 it is laid out as an 8-byte scalar
//! aligned to 4 (as `long long` is), and `sizeof` of such a structure is its
//! memory size, larger than gcc's: `malloc(sizeof(struct node))` then
//! allocates what the IR's accesses need.
//!
//! An anonymous member (`struct { int a; union { int b; char c; }; }`) is a
//! field without a name whose members are found through it. A flexible
//! array member (`char data[]`, last) takes no bytes and is reached past
//! the structure's size, as in C; `packed` and `aligned` attributes come
//! from `packed.rs`. A definition that cannot be lowered (a bit-field of
//! 33 to 63 bits, bit-fields in a union) fails and the tag records why, so
//! that each use of the type reports it (only the using functions become
//! unavailable).
//!
//! Bit-fields are laid out as gcc does for the x86 System V ABIs (i386 and
//! x86-64): from the least significant bit of the structure up, each where
//! the previous one ended unless it would straddle a boundary of its
//! declared type's alignment (`bit % align + width > size`: then at the
//! next multiple of that alignment); a named bit-field aligns the
//! structure as its type does, an unnamed one does not, and `:0` moves to
//! the next boundary of its type's alignment; `packed` puts each right
//! after the previous one. The bytes holding named bit-fields are
//! [`Layout::storage`]: the IR reads and writes them as bytes
//! (`bitfields.rs`), copies copy them, and the IR's structure description
//! lists them as one-byte fields with the bit-fields beside them
//! (`StructDef::bitfields`), from which the emitters set and check each
//! bit-field by name. gcc computes with a bit-field of 33 to 63 bits in its
//! own width (`x.f + 1` wraps at 2^40 for a 40-bit field), which no C
//! type of the front end has: such widths are unsupported.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use lang_c::ast::{StructDeclaration, StructKind, StructType};
use lang_c::span::{Node, Span};
use pathwise_ir::{BitFieldDef, FieldDef, StructDef, StructId, Type, BIT_STORAGE};
use rustc_hash::FxHashMap;

use crate::ctypes::{ir_ctype, CType};
use crate::typespec;
use crate::unit::{Ctx, LResult, Sym, Unit};
use crate::{DataModel, Diagnostic};

/// One member of a structure or union.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    /// `None` for an anonymous structure or union member.
    pub name: Option<String>,
    /// The byte offset (of a bit-field: of the byte holding its first bit).
    pub offset: u64,
    /// The type (of a bit-field: its declared integer type).
    pub ty: CType,
    /// Where a bit-field is.
    pub bits: Option<BitPos>,
}

/// A bit-field's place: `width` bits from bit `bit` of the structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BitPos {
    pub bit: u64,
    pub width: u32,
}

/// A complete structure's layout (IR memory layout, see the module doc).
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub size: u64,
    pub align: u64,
    pub fields: Vec<Field>,
    /// The bytes holding named bit-fields, in order.
    pub storage: Vec<u64>,
}

/// A member as declared: its name, type and bit-field width.
pub(crate) struct Member {
    pub name: Option<String>,
    pub ty: CType,
    pub width: Option<u32>,
}

/// A structure or union type of the translation unit.
#[derive(Debug)]
pub(crate) struct StructInfo {
    /// Index in [`Unit::structs`].
    pub id: usize,
    pub tag: Option<String>,
    pub is_union: bool,
    /// The typedef name that first named an anonymous structure.
    pub typedef_name: Option<String>,
    /// `None` while incomplete.
    pub layout: Option<Layout>,
    /// Why the definition could not be lowered, if it could not.
    pub failed: Option<Diagnostic>,
}

/// A shared handle on a structure type; equality is identity.
#[derive(Clone)]
pub(crate) struct StructRef(pub Rc<RefCell<StructInfo>>);

impl PartialEq for StructRef {
    fn eq(&self, other: &StructRef) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl fmt::Debug for StructRef {
    // The fields may point back to the structure: print the name only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.name(), self.id())
    }
}

impl StructRef {
    pub fn id(&self) -> usize {
        self.0.borrow().id
    }

    pub fn is_union(&self) -> bool {
        self.0.borrow().is_union
    }

    /// The C spelling: `struct tag`, `union tag`, or a typedef name.
    pub fn name(&self) -> String {
        let s = self.0.borrow();
        let kw = if s.is_union { "union" } else { "struct" };
        match (&s.tag, &s.typedef_name) {
            (Some(t), _) => format!("{kw} {t}"),
            (None, Some(t)) => t.clone(),
            (None, None) => format!("{kw} <anonymous>"),
        }
    }

    pub fn size(&self) -> Option<u64> {
        self.0.borrow().layout.as_ref().map(|l| l.size)
    }

    pub fn align(&self) -> Option<u64> {
        self.0.borrow().layout.as_ref().map(|l| l.align)
    }

    pub fn fields(&self) -> Option<Vec<Field>> {
        self.0.borrow().layout.as_ref().map(|l| l.fields.clone())
    }

    pub fn failed(&self) -> Option<Diagnostic> {
        self.0.borrow().failed.clone()
    }

    /// The offset and type of member `name`, looked up through anonymous
    /// members too, and for a bit-field its place (from this structure's
    /// start).
    pub fn member(&self, name: &str) -> Option<(u64, CType, Option<BitPos>)> {
        for f in self.fields()? {
            match (&f.name, &f.ty) {
                (Some(n), _) if n == name => return Some((f.offset, f.ty, f.bits)),
                (None, CType::Struct(inner)) => {
                    if let Some((off, ty, bits)) = inner.member(name) {
                        let bits = bits.map(|b| BitPos { bit: b.bit + 8 * f.offset, ..b });
                        return Some((f.offset + off, ty, bits));
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Whether no member of the structure starts after byte `offset` (that
    /// of a member found by [`Self::member`]). Every member of a union is
    /// such a member.
    pub fn is_last_at(&self, offset: u64) -> bool {
        self.fields().is_none_or(|fs| fs.iter().all(|f| f.offset <= offset))
    }

    /// Whether member `ty` at `offset` may be a flexible array member,
    /// whose subscripts are not checked against its declared length: `[]`,
    /// or the older idioms `[0]` and `[1]` (`char data[1]` allocated
    /// longer), last in a structure, or any member of a union (a view of
    /// the same bytes). A trailing `int buf[8]` is no such member: C gives
    /// it 8 elements (gcc's `-fstrict-flex-arrays=1`), and `r->buf[8]`
    /// reads past it even when the caller's object goes on.
    pub fn may_be_flexible(&self, offset: u64, ty: &CType) -> bool {
        let declared = match ty {
            CType::Array(_, Some(n)) => *n,
            _ => 0,
        };
        self.is_last_at(offset) && (self.is_union() || declared <= 1)
    }

    /// The bytes holding named bit-fields.
    pub fn storage(&self) -> Vec<u64> {
        self.0.borrow().layout.as_ref().map(|l| l.storage.clone()).unwrap_or_default()
    }
}

/// The error for a structure type that is incomplete where a complete one
/// is needed: unsupported when its definition failed, invalid otherwise.
pub(crate) fn incomplete<'a>(cx: &dyn Ctx<'a>, span: Span, ty: &CType) -> crate::unit::LowerError {
    let mut t = ty;
    while let CType::Array(e, _) | CType::Vla(e, _) = t {
        t = e;
    }
    if let CType::Struct(s) = t {
        if let Some(reason) = s.failed() {
            return cx.unit_ref().use_of_unsupported(span, &s.name(), &reason);
        }
    }
    cx.unit_ref().invalid(span, format!("incomplete type `{}`", ty.spelling()))
}

fn round_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a.max(1)) * a.max(1)
}

/// Lays out members of a structure or union; `packed` puts every member
/// at alignment 1 (gcc's `__attribute__((packed))`), and `aligned` raises
/// the type's alignment. Bit-fields as in the module doc (never in a
/// union: `members` refused them).
fn layout(members: Vec<Member>, is_union: bool, model: DataModel, attrs: crate::packed::LayoutAttrs) -> Option<Layout> {
    // `bit`: the first free bit (a structure's members are never below it).
    let (mut bit, mut end, mut align) = (0u64, 0u64, attrs.aligned.unwrap_or(1));
    let mut fields = Vec::with_capacity(members.len());
    let mut storage = Vec::new();
    for Member { name, ty, width } in members {
        let a = if attrs.packed { 1 } else { ty.mem_align(model)? };
        if let Some(w) = width {
            let (w, size_bits, a_bits) = (u64::from(w), ty.mem_size()? * 8, ty.mem_align(model)? * 8);
            // `:0`, or a field that would straddle its type's unit.
            if w == 0 || (!attrs.packed && bit % a_bits + w > size_bits) {
                bit = round_up(bit, a_bits);
            }
            if let (Some(_), true) = (&name, w > 0) {
                align = align.max(a);
                for b in bit / 8..=(bit + w - 1) / 8 {
                    if storage.last() < Some(&b) {
                        storage.push(b);
                    }
                }
                fields.push(Field { name, offset: bit / 8, ty, bits: Some(BitPos { bit, width: w as u32 }) });
            }
            bit = bit.checked_add(w)?;
            end = bit.div_ceil(8);
            continue;
        }
        // A flexible array member (`char data[]`, last) occupies no bytes.
        let size = match &ty {
            CType::Array(_, None) => 0,
            t => t.mem_size()?,
        };
        let offset = if is_union { 0 } else { round_up(bit.div_ceil(8), a) };
        end = if is_union { end.max(size) } else { offset.checked_add(size)? };
        bit = end.checked_mul(8)?;
        align = align.max(a);
        fields.push(Field { name, offset, ty, bits: None });
    }
    Some(Layout { size: round_up(end, align), align, fields, storage })
}

/// The type named by a `struct`/`union` specifier, defining it if it has a
/// member list.
pub(crate) fn specifier<'a>(cx: &mut dyn Ctx<'a>, st: &Node<StructType>) -> LResult<CType> {
    let is_union = st.node.kind.node == StructKind::Union;
    let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
    let key = tag.as_ref().map(|t| format!("tag {t}"));
    let Some(decls) = &st.node.declarations else {
        let Some(key) = key else {
            // Also how lang-c reads `struct __attribute__((packed)) S {...}`.
            return Err(cx.unit_ref().unsupported(st.span, "structure or union types without a tag or members"));
        };
        if let Some(Sym::Tag(s)) = cx.unit_ref().lookup(&key) {
            let s = s.clone();
            check_kind(cx, &s, is_union, st.span)?;
            return Ok(CType::Struct(s));
        }
        let s = new_struct(cx.unit(), tag, is_union);
        cx.unit().declare(&key, Sym::Tag(s.clone()));
        return Ok(CType::Struct(s));
    };
    // A definition: completes an incomplete type of the same scope, or
    // declares a new one.
    let existing = key.as_ref().and_then(|k| match cx.unit_ref().scopes.last().and_then(|m| m.get(k)) {
        Some(Sym::Tag(s)) => Some(s.clone()),
        _ => None,
    });
    let s = match existing {
        Some(s) if s.size().is_some() || s.failed().is_some() => {
            return Err(cx.unit_ref().invalid(st.span, format!("redefinition of `{}`", s.name())));
        }
        Some(s) => {
            check_kind(cx, &s, is_union, st.span)?;
            s
        }
        None => {
            let s = new_struct(cx.unit(), tag, is_union);
            if let Some(k) = &key {
                cx.unit().declare(k, Sym::Tag(s.clone()));
            }
            s
        }
    };
    match members(cx, decls, is_union) {
        Ok(list) => {
            let model = cx.unit_ref().model;
            let attrs = cx.unit_ref().layout_attrs.get(&st.span.start).copied().unwrap_or_default();
            let Some(l) = layout(list, is_union, model, attrs) else {
                return Err(cx.unit_ref().unsupported(st.span, "structures larger than 2^64 bytes"));
            };
            s.0.borrow_mut().layout = Some(l);
            Ok(CType::Struct(s))
        }
        Err(e) => {
            s.0.borrow_mut().failed = Some(e.diagnostic().clone());
            Err(e)
        }
    }
}

fn check_kind<'a>(cx: &dyn Ctx<'a>, s: &StructRef, is_union: bool, span: Span) -> LResult<()> {
    if s.is_union() != is_union {
        return Err(cx.unit_ref().invalid(span, format!("`{}` used with the wrong tag kind", s.name())));
    }
    Ok(())
}

fn new_struct(u: &mut Unit<'_>, tag: Option<String>, is_union: bool) -> StructRef {
    let info = StructInfo { id: u.structs.len(), tag, is_union, typedef_name: None, layout: None, failed: None };
    let s = StructRef(Rc::new(RefCell::new(info)));
    u.structs.push(s.clone());
    s
}

/// The members of a definition, with their checked types.
fn members<'a>(cx: &mut dyn Ctx<'a>, decls: &[Node<StructDeclaration>], is_union: bool) -> LResult<Vec<Member>> {
    let mut out: Vec<Member> = Vec::new();
    let last = decls.iter().rposition(|d| matches!(d.node, StructDeclaration::Field(_)));
    for (k, d) in decls.iter().enumerate() {
        let StructDeclaration::Field(f) = &d.node else { continue };
        let (base, is_const) = typespec::specqual(cx, &f.node.specifiers, f.span)?;
        if f.node.declarators.is_empty() {
            // C11 anonymous structure or union member.
            if let CType::Struct(s) = &base {
                if s.0.borrow().tag.is_none() {
                    out.push(Member { name: None, ty: base.clone(), width: None });
                }
            }
            continue;
        }
        let n = f.node.declarators.len();
        for (j, sd) in f.node.declarators.iter().enumerate() {
            if let Some(w) = &sd.node.bit_width {
                out.push(crate::bitfields::bit_field_member(cx, &base, is_const, sd, w, is_union)?);
                continue;
            }
            let Some(decl) = &sd.node.declarator else { continue };
            let dd = typespec::declarator(cx, base.clone(), is_const, decl)?;
            let name = dd.name.unwrap_or_default();
            match &dd.ty {
                CType::Func(_) => return Err(cx.unit_ref().invalid(dd.name_span, "field declared as a function")),
                // C11 6.7.2.1p18: the last member of a structure with
                // another named member may be a flexible array member.
                CType::Array(e, None)
                    if Some(k) == last && j + 1 == n && !out.is_empty() && !is_union && e.mem_size().is_none() =>
                {
                    return Err(incomplete(cx, dd.name_span, e));
                }
                CType::Array(_, None) if Some(k) == last && j + 1 == n && !out.is_empty() && !is_union => {}
                CType::Array(_, None) => {
                    return Err(cx
                        .unit_ref()
                        .invalid(dd.name_span, "flexible array member not at the end of a structure"));
                }
                CType::Vla(..) => {
                    return Err(cx.unit_ref().invalid(dd.name_span, "variably modified type in a structure"));
                }
                CType::Void => return Err(cx.unit_ref().invalid(dd.name_span, "field declared void")),
                t if t.mem_size().is_none() => return Err(incomplete(cx, dd.name_span, t)),
                _ => {}
            }
            out.push(Member { name: Some(name), ty: dd.ty, width: None });
        }
    }
    Ok(out)
}

/// Names an anonymous structure after the typedef that first names it.
pub(crate) fn name_by_typedef(ty: &CType, name: &str) {
    if let CType::Struct(s) = ty {
        let mut info = s.0.borrow_mut();
        if info.tag.is_none() && info.typedef_name.is_none() {
            info.typedef_name = Some(name.to_string());
        }
    }
}

/// The scalar cells of an object of type `ty` (offset, IR type), in offset
/// order; a union contributes its largest member (the first of the
/// largest), which covers the bytes any member may hold. Stops (returning
/// `None`) beyond `max` cells.
pub(crate) fn cells(ty: &CType, max: usize) -> Option<Vec<(u64, Type)>> {
    let mut out = Vec::new();
    collect_cells(ty, 0, None, max, &mut out)?;
    Some(out)
}

/// As [`cells`], with a choice of member for unions at given offsets.
pub(crate) fn cells_choosing(ty: &CType, unions: &FxHashMap<u64, usize>, max: usize) -> Option<Vec<(u64, Type)>> {
    let mut out = Vec::new();
    collect_cells(ty, 0, Some(unions), max, &mut out)?;
    Some(out)
}

fn collect_cells(
    ty: &CType,
    base: u64,
    unions: Option<&FxHashMap<u64, usize>>,
    max: usize,
    out: &mut Vec<(u64, Type)>,
) -> Option<()> {
    match ty {
        CType::Int(_) | CType::Float(_) | CType::Ptr(_) => {
            if out.len() >= max {
                return None;
            }
            out.push((base, ty.ir()?));
        }
        CType::Array(e, Some(n)) => {
            let size = e.mem_size()?;
            for i in 0..*n {
                collect_cells(e, base + i * size, unions, max, out)?;
            }
        }
        CType::Struct(s) => {
            let fields = s.fields()?;
            if s.is_union() {
                let chosen = unions.and_then(|u| u.get(&base).copied()).or_else(|| {
                    // The largest member, for copies; the first, for zero-filling.
                    if unions.is_some() {
                        return Some(0);
                    }
                    let mut best = 0;
                    for (i, f) in fields.iter().enumerate() {
                        if f.ty.mem_size() > fields[best].ty.mem_size() {
                            best = i;
                        }
                    }
                    Some(best)
                });
                if let Some(f) = chosen.and_then(|i| fields.get(i)) {
                    collect_cells(&f.ty, base, unions, max, out)?;
                }
            } else {
                // Bit-fields are copied as the bytes that hold them.
                let start = out.len();
                for f in fields.iter().filter(|f| f.bits.is_none()) {
                    collect_cells(&f.ty, base + f.offset, unions, max, out)?;
                }
                for b in s.storage() {
                    if out.len() >= max {
                        return None;
                    }
                    out.push((base + b, Type::I8));
                }
                out[start..].sort_by_key(|c| c.0);
            }
        }
        _ => {}
    }
    Some(())
}

/// The structure definitions reachable from the C types of `cty`s, in the
/// order first reached, with the ids in those `cty`s renumbered to match.
/// Anonymous members are flattened into their parent (their fields at the
/// sum of the offsets); an anonymous union inside a structure thus gives
/// overlapping fields.
pub(crate) fn program_structs(all: &[StructRef], ctys: &mut [&mut pathwise_ir::CType]) -> Vec<StructDef> {
    let mut new_id: FxHashMap<usize, u32> = FxHashMap::default();
    let mut order: Vec<usize> = Vec::new();
    let mut queue: Vec<pathwise_ir::CType> = ctys.iter().map(|t| (**t).clone()).collect();
    queue.reverse();
    // Discover in a deterministic depth-first order.
    while let Some(t) = queue.pop() {
        let mut found = Vec::new();
        struct_ids(&t, &mut found);
        for id in found {
            if new_id.contains_key(&id) || id >= all.len() {
                continue;
            }
            new_id.insert(id, order.len() as u32);
            order.push(id);
            let mut inner: Vec<pathwise_ir::CType> =
                flat_fields(&all[id], 0).0.into_iter().filter_map(|(_, _, ty)| ir_ctype(&ty)).collect();
            inner.reverse();
            queue.extend(inner);
        }
    }
    for t in ctys.iter_mut() {
        renumber(t, &new_id);
    }
    order
        .iter()
        .map(|&id| {
            let s = &all[id];
            let (flat, bits) = flat_fields(s, 0);
            let mut fields: Vec<FieldDef> = flat
                .into_iter()
                .filter_map(|(name, offset, ty)| {
                    let mut ty = ir_ctype(&ty)?;
                    renumber(&mut ty, &new_id);
                    Some(FieldDef { name, offset, ty })
                })
                .collect();
            let byte = ir_ctype(&CType::Int(crate::ctypes::IntKind::UChar));
            let storage = flat_storage(s, 0).into_iter();
            fields.extend(
                storage.filter_map(|offset| Some(FieldDef { name: BIT_STORAGE.into(), offset, ty: byte.clone()? })),
            );
            fields.sort_by_key(|f| f.offset);
            let bitfields = bits
                .into_iter()
                .filter_map(|(name, ty, b)| Some(BitFieldDef { name, ty: ir_ctype(&ty)?, bit: b.bit, width: b.width }))
                .collect();
            StructDef {
                c_name: s.name(),
                is_union: s.is_union(),
                size: s.size().unwrap_or(0),
                align: s.align().unwrap_or(1),
                fields,
                bitfields,
            }
        })
        .collect()
}

/// Named fields (without bit-fields) and bit-fields with anonymous
/// members flattened, offsets from `base`.
type FlatFields = (Vec<(String, u64, CType)>, Vec<(String, CType, BitPos)>);

fn flat_fields(s: &StructRef, base: u64) -> FlatFields {
    let (mut out, mut bits) = (Vec::new(), Vec::new());
    for f in s.fields().unwrap_or_default() {
        match (&f.name, &f.ty, f.bits) {
            (Some(n), _, Some(b)) => bits.push((n.clone(), f.ty.clone(), BitPos { bit: b.bit + 8 * base, ..b })),
            (Some(n), _, None) => out.push((n.clone(), base + f.offset, f.ty.clone())),
            (None, CType::Struct(inner), _) => {
                let (o, b) = flat_fields(inner, base + f.offset);
                out.extend(o);
                bits.extend(b);
            }
            (None, _, _) => {}
        }
    }
    (out, bits)
}

/// The bytes holding bit-fields, anonymous members flattened, from `base`.
fn flat_storage(s: &StructRef, base: u64) -> Vec<u64> {
    let mut out: Vec<u64> = s.storage().into_iter().map(|b| base + b).collect();
    for f in s.fields().unwrap_or_default() {
        if let (None, CType::Struct(inner)) = (&f.name, &f.ty) {
            out.extend(flat_storage(inner, base + f.offset));
        }
    }
    out
}

fn struct_ids(t: &pathwise_ir::CType, out: &mut Vec<usize>) {
    use pathwise_ir::CType as I;
    match t {
        I::Ptr(e) | I::Array(e, _) => struct_ids(e, out),
        I::Struct(id) => out.push(id.0 as usize),
        I::Void | I::Int { .. } | I::Func { .. } => {}
    }
}

fn renumber(t: &mut pathwise_ir::CType, new_id: &FxHashMap<usize, u32>) {
    use pathwise_ir::CType as I;
    match t {
        I::Ptr(e) | I::Array(e, _) => renumber(e, new_id),
        I::Struct(id) => *id = StructId(new_id.get(&(id.0 as usize)).copied().unwrap_or(0)),
        I::Void | I::Int { .. } | I::Func { .. } => {}
    }
}

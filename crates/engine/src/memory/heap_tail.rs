//! Input objects whose type ends in a flexible array member.
//!
//! Most input objects are arrays of their type (see [`crate::heap_count`]).
//! C forbids arrays of a structure with a flexible array member
//! (`struct msg { int len; char data[]; }`): such an object is one
//! structure followed by a *tail* of elements of the member's type, as
//! many as the caller allocated. So its `#count` pseudo-field counts tail
//! elements instead (named `->#tail`, from 0), the object's bytes are the
//! fixed part up to the member's offset plus the tail (C's bounds: the tail
//! starts at `offsetof(struct msg, data)`, which may lie before the end of
//! `sizeof`'s padding), and byte offsets map to fields of the structure or
//! to tail elements (`.data[1]`, `.items[0].x`), never to a second
//! structure.
//!
//! Everything else is the count's: a free tail grows during the run to the
//! elements the path touches (smallest first), and a tail tied by
//! `pathwise_array_len(m->data, n)` makes accesses past it out-of-bounds
//! errors.

use pathwise_ir::{CType, ScalarAt, StructDef, Type};

use crate::exec::Exec;
use crate::value::{ObjId, Pointer};

/// Where a structure type's tail starts and how large its elements are.
pub(crate) fn tail_of(structs: &[StructDef], cty: &CType) -> Option<(u64, u64)> {
    let (off, elem) = cty.flexible(structs)?;
    Some((off, elem.size(structs).max(1)))
}

/// Tail elements of a `size`-byte object of type `cty` (a structure with
/// a flexible array member): whole elements after the fixed part.
pub fn tail_len(structs: &[StructDef], cty: &CType, size: u64) -> Option<u64> {
    let (off, es) = tail_of(structs, cty)?;
    Some(size.saturating_sub(off) / es)
}

/// How an object of elements of type `cty` grows: `(base, stride, first)`,
/// the byte where its counted elements start, their size, and how many
/// it always has (an array of structures has its first; a tail may be
/// empty).
pub(crate) fn count_layout(structs: &[StructDef], cty: Option<&CType>) -> (u64, u64, u64) {
    match cty {
        Some(c) => match tail_of(structs, c) {
            Some((off, es)) => (off, es, 0),
            None => (0, c.size(structs).max(1), 1),
        },
        None => (0, 1, 1),
    }
}

/// The scalar at byte `off` of an object of elements of `cty` holding
/// `size` bytes, located by `find(type, offset within it, tail)`, with its
/// offset from the object's start.
fn locate(
    structs: &[StructDef],
    cty: &CType,
    size: u64,
    off: u64,
    find: &dyn Fn(&CType, u64, u64) -> Option<ScalarAt>,
) -> Option<ScalarAt> {
    if let Some(tail) = tail_len(structs, cty, size) {
        return find(cty, off, tail);
    }
    let es = cty.size(structs).max(1);
    let mut at = find(cty, off % es, 0)?;
    at.offset += off - off % es;
    Some(at)
}

/// The scalar of machine type `ty` starting at byte `off` of a `size`-byte
/// object of elements of `cty` (offsets from the object's start).
pub fn scalar_typed_in(structs: &[StructDef], cty: &CType, size: u64, off: u64, ty: Type) -> Option<ScalarAt> {
    locate(structs, cty, size, off, &|c, o, tail| c.scalar_typed_tail(structs, o, ty, tail))
}

/// The scalar that starts at or covers byte `off` of a `size`-byte object
/// of elements of `cty` (offsets from the object's start).
pub fn scalar_at_in(structs: &[StructDef], cty: &CType, size: u64, off: u64) -> Option<ScalarAt> {
    locate(structs, cty, size, off, &|c, o, tail| c.scalar_at_tail(structs, o, tail))
}

impl Exec<'_, '_> {
    /// [`scalar_typed_in`] for memory object `obj` (`None` without a C type).
    pub(crate) fn obj_scalar_typed(&self, obj: ObjId, off: u64, ty: Type) -> Option<ScalarAt> {
        let o = self.mem.object(obj);
        scalar_typed_in(&self.m.program.structs, o.cty.as_ref()?, o.size_bytes(), off, ty)
    }

    /// [`scalar_at_in`] for memory object `obj` (`None` without a C type).
    pub(crate) fn obj_scalar_at(&self, obj: ObjId, off: u64) -> Option<ScalarAt> {
        let o = self.mem.object(obj);
        scalar_at_in(&self.m.program.structs, o.cty.as_ref()?, o.size_bytes(), off)
    }

    /// Whether heap input object `obj` is a structure with a flexible
    /// array member (its count is its tail's).
    pub(crate) fn has_tail(&self, obj: ObjId) -> bool {
        let cty = self.mem.object(obj).cty.as_ref();
        cty.is_some_and(|c| tail_of(&self.m.program.structs, c).is_some())
    }

    /// Whether `p` (concrete offset) points at the start of the tail of a
    /// structure with a flexible array member: `pathwise_array_len(m->data,
    /// n)` ties the tail's length.
    pub(crate) fn at_tail_start(&self, p: &Pointer) -> bool {
        let Some(obj) = p.obj else { return false };
        let cty = self.mem.object(obj).cty.as_ref();
        p.off_sym.is_none() && cty.and_then(|c| tail_of(&self.m.program.structs, c)).is_some_and(|(o, _)| o == p.off)
    }
}

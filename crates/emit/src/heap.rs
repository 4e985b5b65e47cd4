//! Heap objects as the emitters name them: which scalar a cell of a
//! [`HeapObject`] is, its access path, and readable descriptions of values.
//!
//! Shared by the C tests (`c_heap.rs`), the JSON and the comments, so that
//! all three name a cell the same way: `.data` for a field of a single
//! structure, `[1].next` for an element of an array of them, `` for the one
//! scalar an object of scalar type holds, `[2]` for an element of a scalar
//! array.
//!
//! Cells are located by byte offset in the element type's layout
//! ([`CType::scalar_at`]) rather than by the engine's path string, so that
//! the C access always agrees with the type the cell is read with.
//!
//! The bytes holding bit-fields are cells of their own (one-byte fields
//! named [`BIT_STORAGE`], which C cannot name): the C tests and comments
//! show the bit-fields instead ([`bit_field_cells`]), each assigned and
//! checked by name with its value assembled from those bytes.

use pathwise_ir::{BitFieldAt, CType, IntTy, ScalarAt, StructDef, Type, BIT_STORAGE};
use pathwise_suite::{HeapCell, HeapObject, HeapValue, TestSuite};

/// `unsigned char`: the element type used for `void` objects.
fn byte() -> CType {
    CType::Int { c_name: "unsigned char".into(), ty: IntTy { ty: Type::I8, signed: false } }
}

/// The element type of an object as the C test declares it (`void` objects
/// are byte arrays: C cannot index a `void *`).
pub fn elem_type(obj: &HeapObject) -> CType {
    match obj.cty {
        CType::Void => byte(),
        _ => obj.cty.clone(),
    }
}

/// Size of one element (at least 1).
pub fn elem_size(structs: &[StructDef], elem: &CType) -> u64 {
    elem.size(structs).max(1)
}

/// The distance between elements that pointers into an object of `elem`s
/// may be written as (`o2 + 1`, `&o2[1]`): none for a structure with a
/// flexible array member, of which C has no arrays (`u64::MAX`: only the
/// offset 0 is an element).
pub fn elem_stride(structs: &[StructDef], elem: &CType) -> u64 {
    match elem.flexible(structs) {
        Some(_) => u64::MAX,
        None => elem_size(structs, elem),
    }
}

/// The C spelling of a type name (for casts and `sizeof`), e.g. `struct node *`.
pub fn type_name(structs: &[StructDef], cty: &CType) -> String {
    cty.declare(structs, "")
}

/// A cell located in its object: the element index and the scalar there
/// (its offset relative to the element, its path inside the element).
pub struct CellAt {
    pub index: u64,
    pub scalar: ScalarAt,
}

/// Locate the scalar starting at byte `offset` of `obj` (`None` when no
/// scalar of the element type starts exactly there). In a union several
/// may: the one the engine's path `engine_path` names (the member of the
/// type the cell was read with) is chosen.
pub fn cell_at(structs: &[StructDef], obj: &HeapObject, offset: u64, engine_path: &str) -> Option<CellAt> {
    let elem = elem_type(obj);
    // A structure with a flexible array member is one structure, its tail
    // elements members of it (`.data[2]`).
    let (index, inner, tail) = match obj.tail {
        Some(n) => (0, offset, n),
        None => {
            let es = elem_size(structs, &elem);
            (offset / es, offset % es, 0)
        }
    };
    if index >= obj.count.max(1) {
        return None;
    }
    let first =
        elem.scalar_at_tail(structs, inner, tail).filter(|s| s.offset == inner).map(|scalar| CellAt { index, scalar });
    if first.as_ref().is_some_and(|at| cell_path(obj, at) == engine_path) {
        return first;
    }
    let typed = [Type::I8, Type::I16, Type::I32, Type::I64, Type::Ptr]
        .into_iter()
        .filter_map(|t| elem.scalar_typed_tail(structs, inner, t, tail))
        .map(|scalar| CellAt { index, scalar })
        .find(|at| cell_path(obj, at) == engine_path);
    typed.or(first)
}

/// The access path of a cell from its object's start: `.data`, `[1].next`,
/// `` (the scalar of a single scalar object), `[2]`.
pub fn cell_path(obj: &HeapObject, at: &CellAt) -> String {
    if obj.count <= 1 && at.index == 0 {
        at.scalar.path.clone()
    } else {
        format!("[{}]{}", at.index, at.scalar.path)
    }
}

/// A C lvalue for a cell given a pointer `base` to the object's first
/// element: `base->data`, `base[1].next`, `*base`, `base[0][2]`.
pub fn cell_lvalue(base: &str, obj: &HeapObject, at: &CellAt) -> String {
    let inner = &at.scalar.path;
    if obj.count <= 1 && at.index == 0 {
        if inner.is_empty() {
            format!("*{base}")
        } else if let Some(field) = inner.strip_prefix('.') {
            format!("{base}->{field}")
        } else {
            format!("{base}[0]{inner}")
        }
    } else {
        format!("{base}[{}]{inner}", at.index)
    }
}

/// The path of a cell as JSON and comments show it: the located path, or the
/// engine's own when the layout has no scalar there.
pub fn shown_path(structs: &[StructDef], obj: &HeapObject, offset: u64, engine_path: &str) -> String {
    match cell_at(structs, obj, offset, engine_path) {
        Some(at) => cell_path(obj, &at),
        None => engine_path.to_string(),
    }
}

/// A pointer into object `name` at byte `offset`, readably: `&o2`,
/// `&o2[1]` (an element boundary), `(char *)&o2 + 12`.
pub fn shown_ref(structs: &[StructDef], obj: Option<&HeapObject>, name: &str, offset: u64) -> String {
    if offset == 0 {
        return format!("&{name}");
    }
    let es = obj.map(|o| elem_stride(structs, &elem_type(o))).unwrap_or(1);
    if es > 1 && offset.is_multiple_of(es) {
        format!("&{name}[{}]", offset / es)
    } else {
        format!("(char *)&{name} + {offset}")
    }
}

/// An object of a test's input heap, looked up by id.
pub fn find(objects: &[HeapObject], id: u32) -> Option<&HeapObject> {
    objects.iter().find(|o| o.id == id)
}

/// A heap value readably, for comments: `3`, `NULL`, `&o2`, `s + 3` (into
/// a parameter's input array), `buf` (into a global), `?` (opaque).
/// Integers are normalised with the cell's type when it is known.
pub fn shown_value(suite: &TestSuite, heap: &[HeapObject], value: &HeapValue, int_ty: Option<IntTy>) -> String {
    match value {
        HeapValue::Int(v) => match int_ty {
            Some(ty) => crate::literal::display_value(*v, ty),
            None => v.to_string(),
        },
        HeapValue::Null => "NULL".to_string(),
        HeapValue::Ref { obj, offset } => shown_ref(&suite.structs, find(heap, *obj), &format!("o{obj}"), *offset),
        HeapValue::Param { param, offset } => match suite.params.get(*param) {
            Some(p) => shown_into(&crate::describe::param_name(*param, p), p.scalar.ty.bytes(), *offset),
            None => "?".to_string(),
        },
        HeapValue::Global { .. } | HeapValue::Constant { .. } => match value.global_src(suite) {
            Some((src, offset)) => shown_into(&src.name, src.scalar.ty.bytes(), offset),
            None => "?".to_string(),
        },
        HeapValue::Function(name) => name.clone(),
        HeapValue::Opaque => "?".to_string(),
    }
}

/// A pointer to byte `offset` of the array `name` of `elem_bytes`-byte
/// elements, readably: `s`, `s + 3`, `(char *)s + 5` (between elements).
pub fn shown_into(name: &str, elem_bytes: u64, offset: u64) -> String {
    let es = elem_bytes.max(1);
    match offset {
        0 => name.to_string(),
        _ if offset.is_multiple_of(es) => format!("{name} + {}", offset / es),
        _ => format!("(char *){name} + {offset}"),
    }
}

/// The known contents of an input object, readably: `{data=3, next=&o2}`,
/// `{[0]=1, [1]=2}`, `{&o2}` for a single pointer.
pub fn shown_contents(suite: &TestSuite, heap: &[HeapObject], obj: &HeapObject) -> String {
    let mut items: Vec<String> = obj
        .cells
        .iter()
        .filter(|c| !is_bit_storage(&suite.structs, obj, c))
        .map(|c| {
            let at = cell_at(&suite.structs, obj, c.offset, &c.path);
            let ty = at.as_ref().and_then(|a| match &a.scalar.cty {
                CType::Int { ty, .. } => Some(*ty),
                _ => None,
            });
            let path = match &at {
                Some(at) => cell_path(obj, at),
                None => c.path.clone(),
            };
            let value = shown_value(suite, heap, &c.value, ty);
            let label = path.strip_prefix('.').unwrap_or(&path);
            if label.is_empty() {
                value
            } else {
                format!("{label}={value}")
            }
        })
        .collect();
    for (at, v) in bit_field_cells(&suite.structs, obj) {
        let path = cell_path(obj, &at);
        let ty = match &at.scalar.cty {
            CType::Int { ty, .. } => *ty,
            _ => IntTy { ty: at.scalar.ty, signed: false },
        };
        items.push(format!("{}={}", path.strip_prefix('.').unwrap_or(&path), crate::literal::display_value(v, ty)));
    }
    format!("{{{}}}", items.join(", "))
}

/// Whether `cell` of `obj` is a byte holding bit-fields.
pub fn is_bit_storage(structs: &[StructDef], obj: &HeapObject, cell: &HeapCell) -> bool {
    cell_at(structs, obj, cell.offset, &cell.path).is_some_and(|at| at.scalar.path.ends_with(BIT_STORAGE))
}

/// The bit-fields of `obj` of which a byte is known, each as a cell of
/// its declared type (path `.flags`, `[1].mode`) with its value (bits of
/// that type) from the known bytes (others read as 0, as the test's
/// zeroed objects do).
pub fn bit_field_cells(structs: &[StructDef], obj: &HeapObject) -> Vec<(CellAt, i128)> {
    let elem = elem_type(obj);
    let fields: Vec<BitFieldAt> = elem.bit_fields(structs);
    if fields.is_empty() {
        return Vec::new();
    }
    let es = elem_size(structs, &elem);
    let bytes: std::collections::BTreeMap<u64, u64> = obj
        .cells
        .iter()
        .filter(|c| is_bit_storage(structs, obj, c))
        .filter_map(|c| match c.value {
            HeapValue::Int(v) => Some((c.offset, v as u64)),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for index in 0..obj.count.max(1) {
        let base = index * es;
        for f in &fields {
            if !f.bytes().any(|b| bytes.contains_key(&(base + b))) {
                continue;
            }
            let Some(ty) = f.ty.scalar() else { continue };
            let bits = f.value(&|b| bytes.get(&(base + b)).copied().unwrap_or(0));
            // As the engine gives integers: signed ones by their value.
            let value = match &f.ty {
                CType::Int { ty: t, .. } if t.signed => i128::from(bits as i64),
                _ => i128::from(bits & ty.mask()),
            };
            let scalar = ScalarAt { ty, cty: f.ty.clone(), offset: f.bit / 8, path: f.path.clone() };
            out.push((CellAt { index, scalar }, value));
        }
    }
    out
}

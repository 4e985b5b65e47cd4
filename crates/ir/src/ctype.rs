//! C types as the heap model and the emitters need them.
//!
//! The IR's own types are machine scalars ([`Type`]); structures, unions and
//! pointer targets are C-level knowledge. The engine needs it to lay out
//! input objects that it materialises lazily (which byte offsets hold which
//! scalar, which hold pointers and to what), the emitters to build input
//! heaps and check output heaps field by field by name. Both read it from
//! [`crate::Program::structs`] and [`crate::SrcVar::cty`]; nothing in the
//! instruction stream refers to it (loads and stores stay scalar, fields are
//! `ptradd` offsets).

use crate::types::{IntTy, Type};

/// Index into [`crate::Program::structs`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct StructId(pub u32);

/// A C object type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum CType {
    /// `void` (only as a pointer target or return type).
    Void,
    /// An integer type (`_Bool`, enums and characters included) with its C spelling.
    Int { c_name: String, ty: IntTy },
    /// A pointer to the inner type.
    Ptr(Box<CType>),
    /// An array of `n` elements.
    Array(Box<CType>, u64),
    /// A structure or union, defined in [`crate::Program::structs`].
    Struct(StructId),
    /// A function type, by the C spellings of its result and parameter
    /// list (`int` and `const char *, int`): two functions have the same
    /// type exactly when both spellings are equal, since the front end
    /// spells types with typedefs resolved and parameters' top-level
    /// qualifiers dropped. Only as a pointer target.
    Func { ret: String, params: String },
}

/// A structure or union definition with its layout (in the program's data model).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StructDef {
    /// C spelling of the type, e.g. `struct node`, `union u`, or a typedef name
    /// for an anonymous structure.
    pub c_name: String,
    pub is_union: bool,
    pub size: u64,
    pub align: u64,
    /// Fields in declaration order (a union's all at offset 0). The bytes
    /// that hold bit-fields are fields named [`BIT_STORAGE`] of type
    /// `unsigned char`, one per byte: what a load or store of the IR
    /// reads and writes there; the bit-fields themselves are in
    /// [`StructDef::bitfields`].
    pub fields: Vec<FieldDef>,
    /// The named bit-fields, in declaration order (anonymous members
    /// flattened into their parent).
    pub bitfields: Vec<BitFieldDef>,
}

/// The name of the one-byte fields standing for the bytes that hold
/// bit-fields (not a C identifier, so it never clashes with a member).
pub const BIT_STORAGE: &str = "<bit-fields>";

/// A named bit-field: `width` bits from bit `bit` of the structure (bit 0
/// is the least significant bit of byte 0: x86 is little-endian and gcc
/// allocates bit-fields from the least significant bit up).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BitFieldDef {
    pub name: String,
    /// The declared type (an integer type): signed ones sign-extend.
    pub ty: CType,
    pub bit: u64,
    pub width: u32,
}

/// A bit-field inside an object of some C type (see [`CType::bit_fields`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BitFieldAt {
    /// Access path from the object's start, e.g. `.flags`, `[1].in.mode`.
    pub path: String,
    pub ty: CType,
    /// First bit from the object's start.
    pub bit: u64,
    pub width: u32,
}

impl BitFieldAt {
    /// The field's value (as its declared type's bits, sign-extended for
    /// a signed type) read from the object's bytes, given by `byte` (a
    /// byte not known reads as 0).
    pub fn value(&self, byte: &dyn Fn(u64) -> u64) -> u64 {
        let mut raw: u128 = 0;
        let (first, last) = (self.bit / 8, (self.bit + u64::from(self.width) - 1) / 8);
        for b in first..=last {
            raw |= u128::from(byte(b) & 0xff) << (8 * (b - first));
        }
        let v = (raw >> (self.bit % 8)) as u64;
        let w = self.width;
        let v = if w >= 64 { v } else { v & ((1u64 << w) - 1) };
        match &self.ty {
            CType::Int { ty, .. } if ty.signed && w < 64 && (v >> (w - 1)) & 1 == 1 => v | !((1u64 << w) - 1),
            _ => v,
        }
    }

    /// The bytes of the object the field occupies.
    pub fn bytes(&self) -> std::ops::RangeInclusive<u64> {
        self.bit / 8..=(self.bit + u64::from(self.width) - 1) / 8
    }
}

impl StructDef {
    /// The flexible array member (C99 `T name[]`, or GNU C's `T name[0]`
    /// in the same place): the last field of a structure, an array of no
    /// elements. An object of the type is one structure followed by a tail
    /// of any number of such elements, starting at the member's offset,
    /// which may lie before `size` (padding after it belongs to the tail).
    pub fn flexible(&self) -> Option<&FieldDef> {
        let last = self.fields.last().filter(|_| !self.is_union)?;
        matches!(last.ty, CType::Array(_, 0)).then_some(last)
    }
}

/// An enumeration type with its constants, for the emitters: a value of a
/// parameter or result of this type is written by its constant's name
/// (`RED`). Not part of the IR proper (a [`SrcVar`](crate::SrcVar) of this
/// type has it as `c_scalar`, its integer type as `scalar`): the front end
/// hands the definitions out beside the program.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EnumDef {
    /// How C names the type: `enum light`, or a typedef name (`light_t`).
    pub c_name: String,
    /// The constants in declaration order, with their values.
    pub constants: Vec<(String, i128)>,
}

impl EnumDef {
    /// The first constant of value `v`.
    pub fn name_of(&self, v: i128) -> Option<&str> {
        self.constants.iter().find(|c| c.1 == v).map(|c| c.0.as_str())
    }
}

/// One named member of a structure or union.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FieldDef {
    pub name: String,
    /// Byte offset from the start of the structure.
    pub offset: u64,
    pub ty: CType,
}

/// A scalar found at a byte offset inside an object of some C type.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ScalarAt {
    /// The machine type stored there.
    pub ty: Type,
    /// Its C type (an integer type or a pointer).
    pub cty: CType,
    /// Byte offset of the scalar's start (equal to the offset asked for
    /// when the access is aligned with it).
    pub offset: u64,
    /// Access path from the object's start, e.g. `.next`, `[2].data`.
    pub path: String,
}

impl CType {
    /// The machine type of a scalar C type (`None` for aggregates and `void`).
    pub fn scalar(&self) -> Option<Type> {
        match self {
            CType::Int { ty, .. } => Some(ty.ty),
            CType::Ptr(_) => Some(Type::Ptr),
            _ => None,
        }
    }

    /// Size in bytes (`void` has none; pointers are 8 bytes in memory, see
    /// ARCHITECTURE.md on the ILP32 data model).
    pub fn size(&self, structs: &[StructDef]) -> u64 {
        match self {
            CType::Void => 1,
            CType::Int { ty, .. } => ty.ty.bytes(),
            CType::Ptr(_) => 8,
            CType::Array(e, n) => e.size(structs) * n,
            CType::Struct(s) => structs[s.0 as usize].size,
            // GNU C's `sizeof` of a function, which no object has.
            CType::Func { .. } => 1,
        }
    }

    /// The offset and element type of the flexible array member of a
    /// structure type (see [`StructDef::flexible`]).
    pub fn flexible(&self, structs: &[StructDef]) -> Option<(u64, CType)> {
        let CType::Struct(s) = self else { return None };
        let f = structs[s.0 as usize].flexible()?;
        let CType::Array(e, _) = &f.ty else { return None };
        Some((f.offset, (**e).clone()))
    }

    /// The pointer's target type, for a pointer.
    pub fn pointee(&self) -> Option<&CType> {
        match self {
            CType::Ptr(t) => Some(t),
            _ => None,
        }
    }

    /// The C spelling of the type as used in declarations of a variable
    /// `name` (e.g. `struct node *name`, `int name[3]`).
    pub fn declare(&self, structs: &[StructDef], name: &str) -> String {
        match self {
            CType::Void => format!("void {name}").trim_end().to_string(),
            CType::Int { c_name, .. } => format!("{c_name} {name}").trim_end().to_string(),
            CType::Struct(s) => format!("{} {name}", structs[s.0 as usize].c_name).trim_end().to_string(),
            CType::Ptr(t) => match **t {
                CType::Array(..) | CType::Func { .. } => t.declare(structs, &format!("(*{name})")),
                _ => t.declare(structs, &format!("*{name}")),
            },
            CType::Array(e, n) => e.declare(structs, &format!("{name}[{n}]")),
            CType::Func { ret, params } => format!("{ret} {name}({params})"),
        }
    }

    /// The scalar that starts at or covers byte `offset` of an object of this
    /// type (for a union, its first member that has one there).
    pub fn scalar_at(&self, structs: &[StructDef], offset: u64) -> Option<ScalarAt> {
        self.locate_scalar(structs, offset, 0, &|ty, off| off < ty.bytes())
    }

    /// [`Self::scalar_at`] in an object of this type whose flexible array
    /// member has `tail` elements (paths `.data[2]`, `.items[1].x`).
    pub fn scalar_at_tail(&self, structs: &[StructDef], offset: u64, tail: u64) -> Option<ScalarAt> {
        self.locate_scalar(structs, offset, tail, &|ty, off| off < ty.bytes())
    }

    /// [`Self::scalar_typed`] in an object of this type whose flexible
    /// array member has `tail` elements.
    pub fn scalar_typed_tail(&self, structs: &[StructDef], offset: u64, ty: Type, tail: u64) -> Option<ScalarAt> {
        self.locate_scalar(structs, offset, tail, &|t, off| off == 0 && t.bits_type() == ty.bits_type())
    }

    /// The scalar of machine type `ty` (floating ones as their bits) that
    /// starts exactly at byte `offset`: for a union, the member that has
    /// one there (a byte array beside an `int`, a pointer beside a `long`).
    pub fn scalar_typed(&self, structs: &[StructDef], offset: u64, ty: Type) -> Option<ScalarAt> {
        self.locate_scalar(structs, offset, 0, &|t, off| off == 0 && t.bits_type() == ty.bits_type())
    }

    /// The first scalar (in member order) at byte `offset` that `fits`,
    /// given its machine type and the offset relative to its start; a
    /// structure's flexible array member has `tail` elements (nested
    /// types have none: C puts a flexible array member only at the end of
    /// the outermost object).
    fn locate_scalar(
        &self,
        structs: &[StructDef],
        offset: u64,
        tail: u64,
        fits: &dyn Fn(Type, u64) -> bool,
    ) -> Option<ScalarAt> {
        match self {
            CType::Int { .. } | CType::Ptr(_) => {
                let ty = self.scalar()?;
                fits(ty, offset).then(|| ScalarAt { ty, cty: self.clone(), offset: 0, path: String::new() })
            }
            CType::Void | CType::Func { .. } => None,
            CType::Array(e, n) => {
                let es = e.size(structs).max(1);
                let i = offset / es;
                if i >= *n {
                    return None;
                }
                let mut inner = e.locate_scalar(structs, offset - i * es, 0, fits)?;
                inner.offset += i * es;
                inner.path = format!("[{i}]{}", inner.path);
                Some(inner)
            }
            CType::Struct(s) => structs[s.0 as usize].fields.iter().find_map(|f| {
                let flexible = match &f.ty {
                    CType::Array(e, 0) if tail > 0 && structs[s.0 as usize].flexible() == Some(f) => {
                        Some(CType::Array(e.clone(), tail))
                    }
                    _ => None,
                };
                let ty = flexible.as_ref().unwrap_or(&f.ty);
                if offset < f.offset || offset >= f.offset + ty.size(structs) {
                    return None;
                }
                let mut inner = ty.locate_scalar(structs, offset - f.offset, 0, fits)?;
                inner.offset += f.offset;
                inner.path = format!(".{}{}", f.name, inner.path);
                Some(inner)
            }),
        }
    }

    /// Every named bit-field of an object of this type, in offset order (a
    /// union contributes its first member's only).
    pub fn bit_fields(&self, structs: &[StructDef]) -> Vec<BitFieldAt> {
        let mut out = Vec::new();
        self.collect_bit_fields(structs, 0, "", &mut out);
        out
    }

    fn collect_bit_fields(&self, structs: &[StructDef], base: u64, path: &str, out: &mut Vec<BitFieldAt>) {
        match self {
            CType::Array(e, n) => {
                let es = e.size(structs);
                for i in 0..*n {
                    e.collect_bit_fields(structs, base + i * es, &format!("{path}[{i}]"), out);
                }
            }
            CType::Struct(s) => {
                let def = &structs[s.0 as usize];
                for b in &def.bitfields {
                    let path = format!("{path}.{}", b.name);
                    out.push(BitFieldAt { path, ty: b.ty.clone(), bit: base * 8 + b.bit, width: b.width });
                }
                let fields = if def.is_union { &def.fields[..def.fields.len().min(1)] } else { &def.fields[..] };
                for f in fields {
                    f.ty.collect_bit_fields(structs, base + f.offset, &format!("{path}.{}", f.name), out);
                }
            }
            _ => {}
        }
    }

    /// Every scalar of an object of this type, in offset order (a union
    /// contributes its first member only).
    pub fn scalars(&self, structs: &[StructDef]) -> Vec<ScalarAt> {
        let mut out = Vec::new();
        self.collect_scalars(structs, 0, "", &mut out);
        out
    }

    fn collect_scalars(&self, structs: &[StructDef], base: u64, path: &str, out: &mut Vec<ScalarAt>) {
        match self {
            CType::Int { .. } | CType::Ptr(_) => {
                let ty = self.scalar().expect("scalar");
                out.push(ScalarAt { ty, cty: self.clone(), offset: base, path: path.to_string() });
            }
            CType::Void | CType::Func { .. } => {}
            CType::Array(e, n) => {
                let es = e.size(structs);
                for i in 0..*n {
                    e.collect_scalars(structs, base + i * es, &format!("{path}[{i}]"), out);
                }
            }
            CType::Struct(s) => {
                let def = &structs[s.0 as usize];
                let fields = if def.is_union { &def.fields[..def.fields.len().min(1)] } else { &def.fields[..] };
                for f in fields {
                    f.ty.collect_scalars(structs, base + f.offset, &format!("{path}.{}", f.name), out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int() -> CType {
        CType::Int { c_name: "int".into(), ty: IntTy { ty: Type::I32, signed: true } }
    }

    fn node() -> Vec<StructDef> {
        vec![StructDef {
            c_name: "struct node".into(),
            is_union: false,
            size: 16,
            align: 8,
            fields: vec![
                FieldDef { name: "data".into(), offset: 0, ty: int() },
                FieldDef { name: "next".into(), offset: 8, ty: CType::Ptr(Box::new(CType::Struct(StructId(0)))) },
            ],
            bitfields: vec![],
        }]
    }

    #[test]
    fn scalars_and_offsets_of_a_struct() {
        let s = node();
        let t = CType::Array(Box::new(CType::Struct(StructId(0))), 2);
        let all = t.scalars(&s);
        let paths: Vec<_> = all.iter().map(|a| (a.offset, a.path.as_str(), a.ty)).collect();
        assert_eq!(
            paths,
            vec![
                (0, "[0].data", Type::I32),
                (8, "[0].next", Type::Ptr),
                (16, "[1].data", Type::I32),
                (24, "[1].next", Type::Ptr)
            ]
        );
        let at = t.scalar_at(&s, 25).unwrap();
        assert_eq!((at.offset, at.path.as_str()), (24, "[1].next"));
        assert!(t.scalar_at(&s, 4).is_none(), "padding holds no scalar");
        assert_eq!(t.size(&s), 32);
    }

    #[test]
    fn flexible_array_member_tail() {
        let short = CType::Int { c_name: "short".into(), ty: IntTy { ty: Type::I16, signed: true } };
        // struct padded { int len; char tag; short vals[]; }: gcc puts
        // `vals` at 6, inside the 8 bytes of sizeof.
        let s = vec![StructDef {
            c_name: "struct padded".into(),
            is_union: false,
            size: 8,
            align: 4,
            fields: vec![
                FieldDef { name: "len".into(), offset: 0, ty: int() },
                FieldDef { name: "vals".into(), offset: 6, ty: CType::Array(Box::new(short), 0) },
            ],
            bitfields: vec![],
        }];
        let t = CType::Struct(StructId(0));
        assert_eq!(t.flexible(&s).map(|(o, e)| (o, e.size(&s))), Some((6, 2)));
        assert!(t.scalar_at(&s, 6).is_none(), "no tail by default");
        let at = t.scalar_typed_tail(&s, 8, Type::I16, 2).unwrap();
        assert_eq!((at.offset, at.path.as_str()), (8, ".vals[1]"));
        assert!(t.scalar_at_tail(&s, 10, 2).is_none(), "past the tail");
        assert!(node()[0].flexible().is_none());
    }

    #[test]
    fn declarations_spell_c() {
        let s = node();
        let p = CType::Ptr(Box::new(CType::Struct(StructId(0))));
        assert_eq!(p.declare(&s, "l"), "struct node *l");
        assert_eq!(CType::Ptr(Box::new(p.clone())).declare(&s, "pp"), "struct node **pp");
        assert_eq!(CType::Array(Box::new(int()), 3).declare(&s, "a"), "int a[3]");
        assert_eq!(CType::Ptr(Box::new(CType::Array(Box::new(int()), 3))).declare(&s, "q"), "int (*q)[3]");
    }
}

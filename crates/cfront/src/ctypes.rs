//! C types of the supported subset and their mapping to the IR (x86, LP64
//! or ILP32).
//!
//! Integer types, `float` and `double` ([`FloatKind`]), pointers, arrays,
//! structures and unions (see `structs.rs`) and function types exist here; the front end rejects everything else
//! before building a [`CType`]. Qualifiers
//! are dropped (the IR has no use for them); top-level `const` of a declared
//! object is tracked separately by the declaration code. This module also
//! implements the integer promotions and usual arithmetic conversions
//! (C11 6.3.1.1, 6.3.1.8), which depend on the data model.
//!
//! The data model is decided once, when `long` is read from the source
//! ([`DataModel::long`]): ILP32's 32-bit `long` is a kind of its own
//! ([`IntKind::Long32`]), so that widths, ranks and conversions need no
//! context afterwards. Pointers are 8-byte cells of the IR's memory in both
//! models; only `sizeof` ([`CType::sizeof`]) reports 4 bytes under ILP32,
//! while pointer arithmetic scales by the IR's layout ([`CType::mem_size`]).
//! Structure layouts are memory layouts too (see `structs.rs`), so `sizeof`
//! of a structure is its size in the IR's memory in both models.

use pathwise_ir::{IntTy, Local, Shape, SrcVar, Type};

use crate::structs::StructRef;
use crate::DataModel;

/// The standard integer types (enums are `int`, `char` is signed).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum IntKind {
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    /// `long` of the LP64 model (64 bits).
    Long,
    ULong,
    /// `long` of the ILP32 model (32 bits, same rank as LP64's `long`).
    Long32,
    ULong32,
    LongLong,
    ULongLong,
}

impl IntKind {
    /// Storage width in bits (`_Bool` occupies a byte holding 0 or 1).
    pub fn bits(self) -> u32 {
        self.ir().bits()
    }

    pub fn ir(self) -> Type {
        use IntKind::*;
        match self {
            Bool | Char | SChar | UChar => Type::I8,
            Short | UShort => Type::I16,
            Int | UInt | Long32 | ULong32 => Type::I32,
            Long | ULong | LongLong | ULongLong => Type::I64,
        }
    }

    pub fn signed(self) -> bool {
        use IntKind::*;
        matches!(self, Char | SChar | Short | Int | Long | Long32 | LongLong)
    }

    /// Integer conversion rank (C11 6.3.1.1).
    fn rank(self) -> u8 {
        use IntKind::*;
        match self {
            Bool => 0,
            Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong | Long32 | ULong32 => 4,
            LongLong | ULongLong => 5,
        }
    }

    /// The unsigned type of the same rank.
    fn to_unsigned(self) -> IntKind {
        use IntKind::*;
        match self {
            Char | SChar => UChar,
            Short => UShort,
            Int => UInt,
            Long => ULong,
            Long32 => ULong32,
            LongLong => ULongLong,
            k => k,
        }
    }

    /// Integer promotion: everything narrower than `int` fits in `int`.
    pub fn promote(self) -> IntKind {
        if self.rank() < IntKind::Int.rank() {
            IntKind::Int
        } else {
            self
        }
    }

    /// Usual arithmetic conversions of two (unpromoted) operand types.
    pub fn common(a: IntKind, b: IntKind) -> IntKind {
        let (a, b) = (a.promote(), b.promote());
        if a == b {
            return a;
        }
        if a.signed() == b.signed() {
            return if a.rank() >= b.rank() { a } else { b };
        }
        let (s, u) = if a.signed() { (a, b) } else { (b, a) };
        if u.rank() >= s.rank() {
            u
        } else if s.bits() > u.bits() {
            s
        } else {
            s.to_unsigned()
        }
    }

    /// The normalised C spelling, used in [`SrcVar::c_scalar`].
    pub fn spelling(self) -> &'static str {
        use IntKind::*;
        match self {
            Bool => "_Bool",
            Char => "char",
            SChar => "signed char",
            UChar => "unsigned char",
            Short => "short",
            UShort => "unsigned short",
            Int => "int",
            UInt => "unsigned int",
            Long | Long32 => "long",
            ULong | ULong32 => "unsigned long",
            LongLong => "long long",
            ULongLong => "unsigned long long",
        }
    }

    pub fn int_ty(self) -> IntTy {
        IntTy { ty: self.ir(), signed: self.signed() }
    }

    /// Masks raw bits to this type's width (`_Bool` keeps 0 or 1).
    pub fn wrap(self, bits: u64) -> u64 {
        bits & self.ir().mask()
    }

    /// The value of in-range bits, sign-extended for signed types.
    pub fn value(self, bits: u64) -> i128 {
        self.int_ty().to_i128(bits)
    }
}

/// The floating types, in the order of their range: `float` is IEEE
/// binary32 and `double` binary64 in both data models; `long double` is
/// x87 extended precision, computed while its values are doubles (IR type
/// `f80`, see `pathwise_ir::float`), whose object layout depends on the data
/// model: decided once, when the type is read ([`DataModel::long_double`]),
/// as `long` is.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub(crate) enum FloatKind {
    Float,
    Double,
    /// x86-64's `long double`: a 16-byte, 16-aligned object.
    LongDouble,
    /// i386's `long double` (ILP32): a 12-byte, 4-aligned object.
    LongDouble32,
}

impl FloatKind {
    pub fn ir(self) -> Type {
        match self {
            FloatKind::Float => Type::F32,
            FloatKind::Double => Type::F64,
            FloatKind::LongDouble | FloatKind::LongDouble32 => Type::F80,
        }
    }

    pub fn spelling(self) -> &'static str {
        match self {
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::LongDouble | FloatKind::LongDouble32 => "long double",
        }
    }

    /// The size of an object: a `long double` takes 16 bytes (x86-64's
    /// `sizeof`; 12 on i386), of which its value uses the first 8 (see
    /// `Type::F80`).
    pub fn mem_size(self) -> u64 {
        match self {
            FloatKind::LongDouble => 16,
            FloatKind::LongDouble32 => 12,
            k => k.ir().bytes(),
        }
    }

    /// Whether this is `long double` (in either data model).
    pub fn is_long_double(self) -> bool {
        matches!(self, FloatKind::LongDouble | FloatKind::LongDouble32)
    }

    /// The emitters' description: floating types count as signed.
    pub fn int_ty(self) -> IntTy {
        IntTy { ty: self.ir(), signed: true }
    }

    /// The common real type of two floating operands (C11 6.3.1.8).
    pub fn common(a: FloatKind, b: FloatKind) -> FloatKind {
        a.max(b)
    }
}

impl DataModel {
    /// `long`.
    pub(crate) fn long(self) -> IntKind {
        match self {
            DataModel::Ilp32 => IntKind::Long32,
            DataModel::Lp64 => IntKind::Long,
        }
    }

    /// `long double`.
    pub(crate) fn long_double(self) -> FloatKind {
        match self {
            DataModel::Ilp32 => FloatKind::LongDouble32,
            DataModel::Lp64 => FloatKind::LongDouble,
        }
    }

    /// `unsigned long`.
    pub(crate) fn ulong(self) -> IntKind {
        self.long().to_unsigned()
    }

    /// `size_t`, the type of `sizeof`.
    pub(crate) fn size_t(self) -> IntKind {
        match self {
            DataModel::Ilp32 => IntKind::UInt,
            DataModel::Lp64 => IntKind::ULong,
        }
    }

    /// `ptrdiff_t`, the type of a pointer difference.
    pub(crate) fn ptrdiff_t(self) -> IntKind {
        match self {
            DataModel::Ilp32 => IntKind::Int,
            DataModel::Lp64 => IntKind::Long,
        }
    }

    /// `sizeof` of a pointer in C (not its size in the IR's memory).
    fn pointer_bytes(self) -> u64 {
        match self {
            DataModel::Ilp32 => 4,
            DataModel::Lp64 => 8,
        }
    }

    /// The alignment of a scalar of `size` bytes: the i386 System V ABI
    /// aligns 8-byte scalars (`long long`) to 4.
    pub(crate) fn align(self, size: u64) -> u64 {
        match self {
            DataModel::Ilp32 => size.min(4),
            DataModel::Lp64 => size,
        }
    }
}

/// A C function type.
#[derive(Clone, Debug)]
pub(crate) struct FuncSig {
    pub ret: CType,
    pub params: Vec<CType>,
    pub variadic: bool,
    /// `false` for `int f()` (no prototype).
    pub prototyped: bool,
    /// Per parameter, whether it points to `const` data (`const void *`).
    /// [`CType`] drops qualifiers, but the spelling of a function type
    /// needs them: a test that passes `cmp` to an `int (*)(const void *,
    /// const void *)` parameter must declare it so, or gcc 14 rejects the
    /// file. Not part of equality (the front end's checks ignore
    /// qualifiers).
    pub const_params: Vec<bool>,
}

impl PartialEq for FuncSig {
    fn eq(&self, other: &FuncSig) -> bool {
        (&self.ret, &self.params, self.variadic, self.prototyped)
            == (&other.ret, &other.params, other.variadic, other.prototyped)
    }
}

/// A C type of the supported subset (qualifiers dropped).
#[derive(Clone, PartialEq, Debug)]
pub(crate) enum CType {
    Void,
    Int(IntKind),
    Float(FloatKind),
    Ptr(Box<CType>),
    /// Element type and length (`None`: incomplete, e.g. `extern int a[];`).
    Array(Box<CType>, Option<u64>),
    /// A variable-length array: element type, and the slot holding the
    /// element count (an `i64`) once the declaration has evaluated it
    /// (`None` straight out of a declarator).
    Vla(Box<CType>, Option<Local>),
    Func(Box<FuncSig>),
    /// A structure or union (complete once its definition has been read).
    Struct(StructRef),
}

pub(crate) const INT: CType = CType::Int(IntKind::Int);

impl CType {
    pub fn ptr_to(t: CType) -> CType {
        CType::Ptr(Box::new(t))
    }

    pub fn int_kind(&self) -> Option<IntKind> {
        match self {
            CType::Int(k) => Some(*k),
            _ => None,
        }
    }

    pub fn is_scalar(&self) -> bool {
        matches!(self, CType::Int(_) | CType::Float(_) | CType::Ptr(_))
    }

    pub fn pointee(&self) -> Option<&CType> {
        match self {
            CType::Ptr(t) => Some(t),
            _ => None,
        }
    }

    /// The IR type of a scalar value of this type.
    /// The IR type of a parameter or result of this type: a structure or
    /// union passed or returned by value is a pointer to an object holding
    /// it (see [`pathwise_ir::Shape::ByValue`]).
    pub fn abi_ir(&self) -> Option<Type> {
        match self {
            CType::Struct(_) => Some(Type::Ptr),
            t => t.ir(),
        }
    }

    pub fn ir(&self) -> Option<Type> {
        match self {
            CType::Int(k) => Some(k.ir()),
            CType::Float(k) => Some(k.ir()),
            CType::Ptr(_) => Some(Type::Ptr),
            _ => None,
        }
    }

    /// The size in the IR's memory, when the type is complete (`void` is 1,
    /// as in GNU C): what pointer arithmetic scales by. Pointers are 8-byte
    /// cells whatever the data model.
    pub fn mem_size(&self) -> Option<u64> {
        match self {
            CType::Void => Some(1),
            CType::Int(k) => Some(k.ir().bytes()),
            CType::Float(k) => Some(k.mem_size()),
            CType::Ptr(_) => Some(8),
            CType::Array(e, Some(n)) => e.mem_size()?.checked_mul(*n),
            CType::Struct(s) => s.size(),
            CType::Array(_, None) | CType::Vla(..) | CType::Func(_) => None,
        }
    }

    /// The alignment in the IR's memory layout: scalars as the data model
    /// aligns them, pointers (8-byte cells) as 8-byte scalars (4 under ILP32,
    /// like `long long`).
    pub fn mem_align(&self, model: DataModel) -> Option<u64> {
        match self {
            CType::Void => Some(1),
            CType::Int(k) => Some(model.align(k.ir().bytes())),
            // i386 aligns `double` to 4 inside structures, as `long long`.
            CType::Float(k) => Some(model.align(k.mem_size())),
            CType::Ptr(_) => Some(model.align(8)),
            CType::Array(e, _) | CType::Vla(e, _) => e.mem_align(model),
            CType::Struct(s) => s.align(),
            CType::Func(_) => None,
        }
    }

    /// Whether objects of this type contain a structure or union (they are
    /// then stored as bytes: `i8` slots and globals).
    pub fn has_struct(&self) -> bool {
        match self {
            CType::Struct(_) => true,
            CType::Array(e, _) | CType::Vla(e, _) => e.has_struct(),
            _ => false,
        }
    }

    /// Whether objects of this type are stored as bytes (`i8` slots and
    /// globals): those containing a structure or union, and `long double`s,
    /// whose value does not fill the object.
    pub fn byte_stored(&self) -> bool {
        match self {
            CType::Struct(_) => true,
            CType::Float(k) => k.is_long_double(),
            CType::Array(e, _) | CType::Vla(e, _) => e.byte_stored(),
            _ => false,
        }
    }

    /// Whether the type involves a variable-length array (it has no size
    /// known to the front end).
    pub fn has_vla(&self) -> bool {
        match self {
            CType::Vla(..) => true,
            CType::Array(e, _) | CType::Ptr(e) => e.has_vla(),
            _ => false,
        }
    }

    /// C's `sizeof` in a data model, when the type is complete: as
    /// [`CType::mem_size`] but with the model's pointer size.
    pub fn sizeof(&self, model: DataModel) -> Option<u64> {
        match self {
            CType::Ptr(_) => Some(model.pointer_bytes()),
            CType::Array(e, Some(n)) => e.sizeof(model)?.checked_mul(*n),
            // A structure's memory layout (see `structs.rs` on ILP32).
            t => t.mem_size(),
        }
    }

    /// The innermost element type and total element count of a (possibly
    /// multi-dimensional) array; a scalar is its own single element.
    pub fn flatten(&self) -> Option<(&CType, u64)> {
        match self {
            CType::Array(e, Some(n)) => {
                let (inner, m) = e.flatten()?;
                Some((inner, n.checked_mul(m)?))
            }
            CType::Array(_, None) | CType::Vla(..) | CType::Func(_) | CType::Void => None,
            t => Some((t, 1)),
        }
    }

    /// The IR storage of an object of this type: `count` elements of `elem`
    /// (arrays flattened; anything containing a structure is bytes).
    pub fn storage(&self) -> Option<(Type, u64)> {
        if self.byte_stored() {
            return Some((Type::I8, self.mem_size()?));
        }
        let (elem, n) = self.flatten()?;
        Some((elem.ir()?, n))
    }

    /// The C spelling with qualifiers dropped, e.g. `unsigned int`, `char *`.
    pub fn spelling(&self) -> String {
        match self {
            CType::Void => "void".to_string(),
            CType::Int(k) => k.spelling().to_string(),
            CType::Float(k) => k.spelling().to_string(),
            CType::Ptr(t) if matches!(**t, CType::Func(_)) => self.declare(""),
            CType::Ptr(t) => match &**t {
                CType::Array(..) | CType::Vla(..) => format!("{} (*)", t.spelling()),
                t => {
                    let s = t.spelling();
                    if s.ends_with('*') {
                        format!("{s}*")
                    } else {
                        format!("{s} *")
                    }
                }
            },
            CType::Array(e, Some(n)) => format!("{}[{n}]", e.spelling()),
            CType::Array(e, None) => format!("{}[]", e.spelling()),
            CType::Vla(e, _) => format!("{}[*]", e.spelling()),
            CType::Func(_) => self.declare(""),
            CType::Struct(s) => s.name(),
        }
    }

    /// A C declaration of `name` with this type (`int (*name)(int)`,
    /// `char *name[3]`); with an empty name, the type's C spelling as a
    /// cast or a parameter list writes it (`int (*)(int)`).
    pub fn declare(&self, name: &str) -> String {
        match self {
            CType::Ptr(t) => match **t {
                CType::Array(..) | CType::Vla(..) | CType::Func(_) => t.declare(&format!("(*{name})")),
                _ => t.declare(&format!("*{name}")),
            },
            CType::Array(e, Some(n)) => e.declare(&format!("{name}[{n}]")),
            CType::Array(e, None) => e.declare(&format!("{name}[]")),
            CType::Vla(e, _) => e.declare(&format!("{name}[*]")),
            CType::Func(sig) => sig.ret.declare(&format!("{name}({})", sig.param_list())),
            t => {
                let base = t.spelling();
                if name.is_empty() {
                    base
                } else {
                    format!("{base} {name}")
                }
            }
        }
    }
}

impl FuncSig {
    /// The parameter list as C spells it: `int, char *`, `void` for a
    /// prototype without parameters, empty for none (`int f()`).
    pub fn param_list(&self) -> String {
        let mut parts: Vec<String> = self
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let spelt = p.declare("");
                match (p, self.const_params.get(i)) {
                    (CType::Ptr(_), Some(true)) => format!("const {spelt}"),
                    _ => spelt,
                }
            })
            .collect();
        if self.variadic {
            parts.push("...".to_string());
        }
        if parts.is_empty() && self.prototyped {
            return "void".to_string();
        }
        parts.join(", ")
    }

    /// The IR's description of this function type (see
    /// [`pathwise_ir::CType::Func`]).
    pub fn ir(&self) -> pathwise_ir::CType {
        pathwise_ir::CType::Func { ret: self.ret.declare(""), params: self.param_list() }
    }
}

/// The element description of data reached through a pointer: the innermost
/// scalar (arrays are flat in memory); `void` is described as bytes, spelt
/// `unsigned char` so that emitted tests can declare the input array.
fn element_desc(pointee: &CType) -> (IntTy, String) {
    let mut t = pointee;
    while let CType::Array(e, _) | CType::Vla(e, _) = t {
        t = e;
    }
    match t {
        CType::Int(k) => (k.int_ty(), k.spelling().to_string()),
        CType::Float(k) => (k.int_ty(), k.spelling().to_string()),
        CType::Ptr(_) => (IntTy { ty: Type::Ptr, signed: false }, t.spelling()),
        _ => (IntTy { ty: Type::I8, signed: false }, "unsigned char".to_string()),
    }
}

/// Whether a pointer parameter or return value of type `ty` is an input
/// heap (a pointer to a structure, union or pointer) rather than an input
/// array of integers.
fn is_heap_pointer(ty: &CType) -> bool {
    matches!(ty, CType::Ptr(p) if matches!(**p, CType::Struct(_) | CType::Ptr(_)))
}

/// The [`SrcVar`] of a parameter of type `ty`: as [`src_var`], but a
/// pointer to a structure, union or pointer is a [`Shape::Heap`], and a
/// `FILE *` a [`Shape::Stream`].
pub(crate) fn param_src(name: &str, ty: &CType) -> Option<SrcVar> {
    if is_stream(ty) {
        return Some(SrcVar {
            name: name.to_string(),
            c_scalar: "unsigned char".to_string(),
            scalar: IntTy { ty: Type::I8, signed: false },
            shape: Shape::Stream,
            cty: ir_ctype(ty),
        });
    }
    value_src(name, ty)
}

/// Whether `ty` is glibc's `FILE *` (`struct _IO_FILE *`): a parameter of
/// this type is an input stream ([`Shape::Stream`]).
fn is_stream(ty: &CType) -> bool {
    matches!(ty, CType::Ptr(p) if matches!(&**p, CType::Struct(s) if s.name() == "struct _IO_FILE"))
}

/// [`param_src`] without streams: a `FILE *` result is a pointer to a
/// structure like any other.
fn value_src(name: &str, ty: &CType) -> Option<SrcVar> {
    if let CType::Struct(s) = ty {
        // Passed by value: the IR value points to an object holding it.
        return Some(SrcVar {
            name: name.to_string(),
            c_scalar: s.name(),
            scalar: IntTy { ty: Type::Ptr, signed: false },
            shape: Shape::ByValue,
            cty: ir_ctype(&CType::Ptr(Box::new(ty.clone()))),
        });
    }
    let mut sv = src_var(name, ty)?;
    if is_heap_pointer(ty) {
        sv.shape = Shape::Heap;
    }
    Some(sv)
}

/// The [`SrcVar`] of a return value of type `ty`: as [`param_src`], with
/// the full C type of every pointer (an external function's result is an
/// input pointer, and a `void *` one has no type to build).
pub(crate) fn ret_src(ty: &CType) -> Option<SrcVar> {
    let mut sv = value_src("", ty)?;
    if sv.cty.is_none() && matches!(ty, CType::Ptr(_)) {
        sv.cty = ir_ctype(ty);
    }
    Some(sv)
}

/// The [`SrcVar`] of a parameter, return value or global of type `ty`.
/// `cty` is set when the type involves a structure or a pointer to a
/// pointer; its struct ids are indices of `Unit::structs` until the unit
/// renumbers them (`structs::program_structs`).
pub(crate) fn src_var(name: &str, ty: &CType) -> Option<SrcVar> {
    if matches!(ty, CType::Struct(_)) || (ty.has_struct() && matches!(ty, CType::Array(..))) {
        // Objects of structure type have no description in the emitters' terms.
        return None;
    }
    if let CType::Ptr(f) = ty {
        if let CType::Func(sig) = &**f {
            // A function pointer: its value is a function of the unit.
            let cty = Some(pathwise_ir::CType::Ptr(Box::new(sig.ir())));
            let scalar = IntTy { ty: Type::Ptr, signed: false };
            return Some(SrcVar {
                name: name.to_string(),
                c_scalar: ty.spelling(),
                scalar,
                shape: Shape::Function,
                cty,
            });
        }
    }
    let (scalar, c_scalar, shape) = match ty {
        CType::Int(k) => (k.int_ty(), k.spelling().to_string(), Shape::Scalar),
        CType::Float(k) => (k.int_ty(), k.spelling().to_string(), Shape::Scalar),
        CType::Ptr(p) => {
            let (scalar, c) = element_desc(p);
            (scalar, c, Shape::Pointer)
        }
        CType::Array(..) => {
            let (elem, n) = ty.flatten()?;
            let (scalar, c) = element_desc(elem);
            (scalar, c, Shape::Array(n))
        }
        CType::Void | CType::Func(_) | CType::Vla(..) | CType::Struct(_) => return None,
    };
    let cty = match ty {
        CType::Ptr(p) if p.has_struct() || matches!(**p, CType::Ptr(_)) => ir_ctype(ty),
        // A pointer to rows (`int a[][4]`, `int a[n][m]` parameters): the
        // emitters pass the flat input array through `void *`. A varying
        // length is described as 0.
        CType::Ptr(p) if matches!(**p, CType::Array(..) | CType::Vla(..)) => {
            Some(pathwise_ir::CType::Ptr(Box::new(row_ctype(p)?)))
        }
        _ => None,
    };
    Some(SrcVar { name: name.to_string(), c_scalar, scalar, shape, cty })
}

/// The IR's description of an array type whose lengths may vary (0).
pub(crate) fn row_ctype(ty: &CType) -> Option<pathwise_ir::CType> {
    match ty {
        CType::Array(e, n) => Some(pathwise_ir::CType::Array(Box::new(row_ctype(e)?), n.unwrap_or(0))),
        CType::Vla(e, _) => Some(pathwise_ir::CType::Array(Box::new(row_ctype(e)?), 0)),
        t => ir_ctype(t),
    }
}

/// The IR's description of a C type (`None` for function types and
/// variable-length arrays); see [`src_var`] on struct ids.
pub(crate) fn ir_ctype(ty: &CType) -> Option<pathwise_ir::CType> {
    use pathwise_ir::CType as I;
    Some(match ty {
        CType::Void => I::Void,
        CType::Int(k) => I::Int { c_name: k.spelling().to_string(), ty: k.int_ty() },
        // A floating scalar is described like an integer one: its C name
        // and an `f32`/`f64` machine type.
        CType::Float(k) => I::Int { c_name: k.spelling().to_string(), ty: k.int_ty() },
        CType::Ptr(t) => I::Ptr(Box::new(ir_ctype(t).unwrap_or(I::Void))),
        CType::Array(e, n) => I::Array(Box::new(ir_ctype(e)?), n.unwrap_or(0)),
        CType::Struct(s) => I::Struct(pathwise_ir::StructId(s.id() as u32)),
        CType::Func(sig) => sig.ir(),
        CType::Vla(..) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::IntKind::*;
    use super::*;

    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(IntKind::common(UInt, Int), UInt);
        assert_eq!(IntKind::common(Char, UChar), Int);
        assert_eq!(IntKind::common(Long, UInt), Long);
        assert_eq!(IntKind::common(Long, ULong), ULong);
        assert_eq!(IntKind::common(LongLong, ULong), ULongLong);
        assert_eq!(IntKind::common(UShort, Short), Int);
        // ILP32: `long` cannot represent every `unsigned int`.
        assert_eq!(IntKind::common(Long32, UInt), ULong32);
        assert_eq!(IntKind::common(Long32, ULong32), ULong32);
        assert_eq!(IntKind::common(LongLong, ULong32), LongLong);
        assert_eq!(IntKind::common(Long32, Int), Long32);
        assert_eq!(Long32.ir(), Type::I32);
    }

    #[test]
    fn spellings_and_shapes() {
        let p = CType::ptr_to(CType::ptr_to(CType::Int(Char)));
        assert_eq!(p.spelling(), "char **");
        let sv = src_var("argv", &p).unwrap();
        assert_eq!((sv.c_scalar.as_str(), sv.shape), ("char *", Shape::Pointer));
        let arr = CType::Array(Box::new(CType::Array(Box::new(CType::Int(UChar)), Some(4))), Some(3));
        let sv = src_var("m", &arr).unwrap();
        assert_eq!((sv.c_scalar.as_str(), sv.shape), ("unsigned char", Shape::Array(12)));
    }
}

//! Scalar types of the IR.

use std::fmt;

/// A scalar machine type. Pointers are 64-bit (LP64 data model).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Type {
    /// A boolean, the result of comparisons and the type of branch conditions.
    I1,
    I8,
    I16,
    I32,
    I64,
    /// A pointer: an object and a byte offset into it.
    Ptr,
    /// IEEE binary32 (C's `float`), held as its bits (see [`crate::float`]).
    F32,
    /// IEEE binary64 (C's `double`), held as its bits.
    F64,
    /// x87 80-bit extended precision (C's `long double` on x86), held as the
    /// bits of the binary64 number it equals when it equals one, which is
    /// the solver's view of it (64 bits); other values exist at run time
    /// only (see [`crate::x87`]). In memory it takes 10 bytes, the x87
    /// format, of the C object's 12 or 16.
    F80,
}

impl Type {
    /// Width in bits (pointers: 64).
    pub fn bits(self) -> u32 {
        match self {
            Type::I1 => 1,
            Type::I8 => 8,
            Type::I16 => 16,
            Type::I32 | Type::F32 => 32,
            Type::I64 | Type::Ptr | Type::F64 | Type::F80 => 64,
        }
    }

    /// Size in bytes when stored in memory (`i1` occupies one byte, like `_Bool`).
    pub fn bytes(self) -> u64 {
        match self {
            Type::I1 | Type::I8 => 1,
            Type::I16 => 2,
            Type::I32 | Type::F32 => 4,
            Type::I64 | Type::Ptr | Type::F64 => 8,
            // The 80 bits x87's `fstp tbyte` writes; the C object is 12 or
            // 16 bytes.
            Type::F80 => 10,
        }
    }

    /// The integer type of a given width in bits, if any.
    pub fn int_of_bits(bits: u32) -> Option<Type> {
        Some(match bits {
            1 => Type::I1,
            8 => Type::I8,
            16 => Type::I16,
            32 => Type::I32,
            64 => Type::I64,
            _ => return None,
        })
    }

    pub fn is_int(self) -> bool {
        !matches!(self, Type::Ptr | Type::F32 | Type::F64 | Type::F80)
    }

    pub fn is_float(self) -> bool {
        matches!(self, Type::F32 | Type::F64 | Type::F80)
    }

    /// The integer type of the same width, for `f32` and `f64` (itself
    /// otherwise): how the engine's memory and solver see the bits. An
    /// `f80` stays itself: its 10 bytes in memory are not a double's bits.
    pub fn bits_type(self) -> Type {
        match self {
            Type::F32 => Type::I32,
            Type::F64 => Type::I64,
            t => t,
        }
    }

    /// The textual name used by the printer and the parser.
    pub fn name(self) -> &'static str {
        match self {
            Type::I1 => "i1",
            Type::I8 => "i8",
            Type::I16 => "i16",
            Type::I32 => "i32",
            Type::I64 => "i64",
            Type::Ptr => "ptr",
            Type::F32 => "f32",
            Type::F64 => "f64",
            Type::F80 => "f80",
        }
    }

    pub fn from_name(s: &str) -> Option<Type> {
        Some(match s {
            "i1" => Type::I1,
            "i8" => Type::I8,
            "i16" => Type::I16,
            "i32" => Type::I32,
            "i64" => Type::I64,
            "ptr" => Type::Ptr,
            "f32" => Type::F32,
            "f64" => Type::F64,
            "f80" => Type::F80,
            _ => return None,
        })
    }

    /// Mask of the value bits of this type.
    pub fn mask(self) -> u64 {
        match self.bits() {
            64 => u64::MAX,
            n => (1u64 << n) - 1,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A C scalar type: machine type plus signedness (for emitters and inputs).
/// Floating types (`f32`, `f64`) are always marked signed.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct IntTy {
    pub ty: Type,
    pub signed: bool,
}

impl IntTy {
    /// Interpret raw bits (masked to the width) as a signed or unsigned
    /// integer. Floating values stay bits, but an `f80`, held as the bits
    /// of the double it equals, becomes its x87 80 bits: the one form of
    /// `long double` values in test suites.
    pub fn to_i128(self, bits: u64) -> i128 {
        if self.ty == Type::F80 {
            return crate::x87::X87::from_f64(f64::from_bits(bits)).0 as i128;
        }
        let bits = bits & self.ty.mask();
        let w = self.ty.bits();
        if self.signed && w < 128 && (bits >> (w - 1)) & 1 == 1 && self.ty != Type::I1 {
            bits as i128 - (1i128 << w)
        } else {
            bits as i128
        }
    }

    /// As [`IntTy::to_i128`], of bits that are an `f80`'s 80 bits already
    /// (for an `f80`) or a value's bits in the low 64.
    pub fn to_i128_wide(self, bits: u128) -> i128 {
        if self.ty == Type::F80 {
            bits as i128
        } else {
            self.to_i128(bits as u64)
        }
    }
}

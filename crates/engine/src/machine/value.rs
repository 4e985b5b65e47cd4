//! Runtime values: concrete bits with an optional symbolic shadow.
//!
//! A value is concrete first (the execution always follows concrete inputs)
//! and carries a symbolic expression only when it depends on an input. `i1`
//! values carry boolean-sorted expressions; wider integers carry bit-vectors.

use pathwise_expr::{Expr, ExprId, ExprPool, Sort};
use pathwise_ir::x87::X87;

/// Index of a memory object in the current run's [`crate::memory::Memory`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct ObjId(pub u32);

/// A pointer: an object (or none, for null) and a byte offset into it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Pointer {
    pub obj: Option<ObjId>,
    /// Concrete byte offset (two's complement).
    pub off: u64,
    /// Symbolic byte offset (64-bit), when the offset depends on inputs.
    pub off_sym: Option<ExprId>,
    /// Symbolic identity of the object (a 32-bit heap reference, see
    /// [`crate::heap`]) when the pointer was read from an input heap slot:
    /// 0 is null, otherwise the id of the slot that materialised the object.
    pub base_sym: Option<ExprId>,
    /// The access path (a heap slot id, see [`crate::heap::SlotTable`]) of
    /// a pointer read from an input slot, 0 for other pointers: accesses
    /// through it are named after it.
    pub path: u32,
}

impl Pointer {
    pub const NULL: Pointer = Pointer { obj: None, off: 0, off_sym: None, base_sym: None, path: 0 };
}

/// A register or memory cell value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Value {
    Int {
        conc: u64,
        sym: Option<ExprId>,
    },
    Ptr(Pointer),
    /// A `long double` (`f80`) that is not exactly a double, always
    /// concrete: one that equals a double is an `Int` holding the double's
    /// bits, symbolic or not (see [`Value::of_x87`]).
    Ext(X87),
}

impl Value {
    pub fn int(conc: u64) -> Value {
        Value::Int { conc, sym: None }
    }

    /// An `f80` value: a double's bits when it equals a double, else its
    /// 80 bits.
    pub fn of_x87(x: X87) -> Value {
        match x.as_double() {
            Some(d) => Value::int(d.to_bits()),
            None => Value::Ext(x),
        }
    }

    /// The exact value of an `f80` value.
    pub fn x87(&self) -> X87 {
        match *self {
            Value::Ext(x) => x,
            _ => X87::from_f64(f64::from_bits(self.conc())),
        }
    }

    /// The concrete bits of a value of type `ty` as tests record them: an
    /// `f80`'s 80 bits (`pathwise_ir::IntTy::to_i128_wide`), others' bits.
    pub fn out_bits(&self, ty: Option<pathwise_ir::Type>) -> u128 {
        match ty {
            Some(pathwise_ir::Type::F80) => self.x87().0,
            _ => u128::from(self.conc()),
        }
    }

    /// The concrete integer bits (pointers: their offset; callers check
    /// types; a non-double `long double`: the double nearest, for the
    /// places that see any floating value as a double).
    pub fn conc(&self) -> u64 {
        match *self {
            Value::Int { conc, .. } => conc,
            Value::Ptr(p) => p.off,
            Value::Ext(x) => x.to_f64().to_bits(),
        }
    }

    pub fn sym(&self) -> Option<ExprId> {
        match *self {
            Value::Int { sym, .. } => sym,
            Value::Ptr(p) => p.off_sym,
            Value::Ext(_) => None,
        }
    }

    pub fn as_ptr(&self) -> Pointer {
        match *self {
            Value::Ptr(p) => p,
            // Only the constant 0 converts to a pointer (the front end enforces it).
            Value::Int { .. } | Value::Ext(_) => {
                Pointer { obj: None, off: self.conc(), off_sym: None, base_sym: None, path: 0 }
            }
        }
    }
}

/// The expression of an integer value as a bit-vector of `width` bits
/// (a constant when the value is concrete).
pub fn bv_of(pool: &mut ExprPool, conc: u64, sym: Option<ExprId>, width: u32) -> ExprId {
    match sym {
        None => pool.bv_const(width, conc),
        Some(e) => match pool.sort(e) {
            Sort::Bool => {
                let one = pool.bv_const(1, 1);
                let zero = pool.bv_const(1, 0);
                let b = pool.ite(e, one, zero);
                if width == 1 {
                    b
                } else {
                    pool.zext(b, width)
                }
            }
            _ => e,
        },
    }
}

/// The expression of an `i1` value as a boolean.
pub fn bool_of(pool: &mut ExprPool, conc: u64, sym: Option<ExprId>) -> ExprId {
    match sym {
        None => pool.bool_const(conc & 1 == 1),
        Some(e) => match pool.sort(e) {
            Sort::Bool => e,
            _ => {
                let one = pool.bv_const(pool.width(e), 1);
                pool.eq(e, one)
            }
        },
    }
}

/// `Some(e)` unless `e` is a constant (so concrete values stay unshadowed).
pub fn non_const(pool: &ExprPool, e: ExprId) -> Option<ExprId> {
    match pool.get(e) {
        Expr::BvConst { .. } | Expr::BoolConst(_) => None,
        _ => Some(e),
    }
}

//! Conversions and operators on values: integer promotions and usual
//! arithmetic conversions, `sdiv`/`udiv`, `ashr`/`lshr` and signed/unsigned
//! comparisons chosen by the converted type, and pointer arithmetic.
//! Operations with a floating operand are delegated to `floats.rs`.
//!
//! Pointer arithmetic is in bytes: `p + i` is `ptradd p, (ext i to i64) * size`
//! and `p - q` is `ptrdiff p, q` divided (`sdiv`) by the element size;
//! relational pointer comparisons are unsigned `cmp` on `ptr`.
//! Pointers convert to each other only when their elements have the same
//! layout (or one is `void`), and integers to pointers only as the null
//! pointer constant, because the engine's memory is typed by element.

use lang_c::ast::BinaryOperator;
use lang_c::span::Span;
use pathwise_ir::{BinOp, CmpOp, InstKind, Loc, Operand, Type};

use crate::ctypes::{CType, IntKind, INT};
use crate::expr::Val;
use crate::func::FnCtx;
use crate::unit::LResult;

/// Whether a conversion is written (a cast) or implied (assignment, call,
/// return); only the wording of diagnostics differs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Conv {
    Implicit,
    Explicit,
}

/// The scalar layout of a pointee, arrays stripped (`None` for `void`).
fn layout(t: &CType) -> Option<Type> {
    match t {
        CType::Array(e, _) | CType::Vla(e, _) => layout(e),
        t => t.ir(),
    }
}

/// Pointers to `a` and to `b` may be converted into each other.
fn compatible_pointees(a: &CType, b: &CType) -> bool {
    a == b || *a == CType::Void || *b == CType::Void || (layout(a).is_some() && layout(a) == layout(b))
}

/// A constant zero of integer type: a null pointer constant.
pub(crate) fn is_null_constant(v: &Val) -> bool {
    matches!((&v.ty, v.op), (CType::Int(_), Operand::Const(_, 0)))
}

impl<'u, 'a> FnCtx<'u, 'a> {
    /// Integer-to-integer conversion (`_Bool` is `x != 0`).
    pub fn int_conv(&mut self, op: Operand, from: IntKind, to: IntKind, loc: Loc) -> Operand {
        if to == IntKind::Bool && from != IntKind::Bool {
            let c = self.b.cmp(CmpOp::Ne, from.ir(), op, Operand::Const(from.ir(), 0), loc);
            return self.b.cast(false, Type::I1, Type::I8, c, loc);
        }
        self.b.cast(from.signed(), from.ir(), to.ir(), op, loc)
    }

    /// Converts a value to type `to`.
    pub fn convert(&mut self, v: Val, to: &CType, span: Span, how: Conv) -> LResult<Val> {
        if v.ty == *to {
            return Ok(v);
        }
        let loc = self.loc(span);
        if let Some(op) = self.float_convert(&v, to, span)? {
            return Ok(Val { op, ty: to.clone() });
        }
        let op = match (&v.ty, to) {
            (_, CType::Void) if how == Conv::Explicit => return Ok(Val::void()),
            (CType::Void, _) => return Err(self.u.invalid(span, "void value not ignored as it ought to be")),
            (CType::Int(from), CType::Int(k)) => self.int_conv(v.op, *from, *k, loc),
            (CType::Ptr(_), CType::Int(IntKind::Bool)) => {
                let c = self.zero_test(v, CmpOp::Ne, span)?;
                self.b.cast(false, Type::I1, Type::I8, c, loc)
            }
            (CType::Ptr(_), CType::Int(_)) => {
                return Err(self.u.unsupported(span, "conversions from pointers to integers"));
            }
            (CType::Int(_), CType::Ptr(_)) if is_null_constant(&v) => Operand::Const(Type::Ptr, 0),
            (CType::Int(_), CType::Ptr(_)) => {
                return Err(self.u.unsupported(
                    span,
                    "conversions from integers to pointers (other than the null pointer constant 0)",
                ));
            }
            // Between function pointer types: the engine checks the type
            // of the function a call reaches (calling it through another
            // type is undefined behaviour; converting is not).
            (CType::Ptr(a), CType::Ptr(b)) if matches!((&**a, &**b), (CType::Func(_), CType::Func(_))) => v.op,
            (CType::Ptr(a), CType::Ptr(b)) if compatible_pointees(a, b) => {
                if **a == CType::Void {
                    self.void_params.note_conversion(v.op, b);
                }
                v.op
            }
            // Between object pointer types (a structure viewed as bytes, a
            // header before a string, `container_of`): the pointer is the
            // same address; memory is bytes holding typed cells, so each
            // access is checked where it happens, at its own type.
            (CType::Ptr(a), CType::Ptr(b)) if !matches!(**a, CType::Func(_)) && !matches!(**b, CType::Func(_)) => v.op,
            (CType::Ptr(_), CType::Ptr(_)) => {
                return Err(self.u.unsupported(
                    span,
                    format!("conversion between pointer types `{}` and `{}`", v.ty.spelling(), to.spelling()),
                ));
            }
            _ => {
                return Err(self.u.invalid(
                    span,
                    format!("cannot convert a value of type `{}` to `{}`", v.ty.spelling(), to.spelling()),
                ));
            }
        };
        Ok(Val { op, ty: to.clone() })
    }

    /// Integer promotion of an integer value.
    pub fn promote(&mut self, v: Val, span: Span) -> LResult<(Operand, IntKind)> {
        let Some(k) = v.ty.int_kind() else {
            return Err(self.u.invalid(span, format!("integer operand expected, found `{}`", v.ty.spelling())));
        };
        let loc = self.loc(span);
        let p = k.promote();
        Ok((self.int_conv(v.op, k, p, loc), p))
    }

    /// Compares a scalar with zero (or null): `i1` result.
    pub fn zero_test(&mut self, v: Val, op: CmpOp, span: Span) -> LResult<Operand> {
        let loc = self.loc(span);
        let Some(ty) = v.ty.ir().filter(|_| v.ty.is_scalar()) else {
            return Err(self.u.invalid(span, format!("scalar value required, found `{}`", v.ty.spelling())));
        };
        if ty.is_float() {
            return Ok(self.float_zero_test(&v, op, span));
        }
        if let Operand::Const(_, c) = v.op {
            let zero = c & ty.mask() == 0;
            return Ok(Operand::Const(Type::I1, u64::from(zero == (op == CmpOp::Eq))));
        }
        Ok(self.b.cmp(op, ty, v.op, Operand::Const(ty, 0), loc))
    }

    /// `v != 0` as an `i1`: the truth value of a condition.
    pub fn truth(&mut self, v: Val, span: Span) -> LResult<Operand> {
        self.zero_test(v, CmpOp::Ne, span)
    }

    /// Both operands converted to their common arithmetic type.
    fn arith_operands(&mut self, l: Val, r: Val, span: Span) -> LResult<(Operand, Operand, IntKind)> {
        let (Some(a), Some(b)) = (l.ty.int_kind(), r.ty.int_kind()) else {
            return Err(self
                .u
                .invalid(span, format!("invalid operands of types `{}` and `{}`", l.ty.spelling(), r.ty.spelling())));
        };
        let k = IntKind::common(a, b);
        let loc = self.loc(span);
        Ok((self.int_conv(l.op, a, k, loc), self.int_conv(r.op, b, k, loc), k))
    }

    /// A binary arithmetic, bitwise, shift or comparison operator.
    pub fn arith(&mut self, op: &BinaryOperator, l: Val, r: Val, span: Span) -> LResult<Val> {
        use BinaryOperator as B;
        let loc = self.loc(span);
        if let Some(v) = self.float_arith(op, &l, &r, span)? {
            return Ok(v);
        }
        match op {
            B::Plus => match (&l.ty, &r.ty) {
                (CType::Ptr(_), CType::Int(_)) => self.ptr_offset(l, r, false, span),
                (CType::Int(_), CType::Ptr(_)) => self.ptr_offset(r, l, false, span),
                _ => self.int_bin(BinOp::Add, l, r, span),
            },
            B::Minus => match (&l.ty, &r.ty) {
                (CType::Ptr(_), CType::Int(_)) => self.ptr_offset(l, r, true, span),
                (CType::Ptr(_), CType::Ptr(_)) => self.ptr_diff(l, r, span),
                _ => self.int_bin(BinOp::Sub, l, r, span),
            },
            B::Multiply => self.int_bin(BinOp::Mul, l, r, span),
            B::Divide | B::Modulo => {
                let (a, b, k) = self.arith_operands(l, r, span)?;
                let bop = match (op, k.signed()) {
                    (B::Divide, true) => BinOp::SDiv,
                    (B::Divide, false) => BinOp::UDiv,
                    (_, true) => BinOp::SRem,
                    (_, false) => BinOp::URem,
                };
                Ok(Val { op: self.b.bin(bop, k.ir(), a, b, loc), ty: CType::Int(k) })
            }
            B::BitwiseAnd => self.int_bin(BinOp::And, l, r, span),
            B::BitwiseOr => self.int_bin(BinOp::Or, l, r, span),
            B::BitwiseXor => self.int_bin(BinOp::Xor, l, r, span),
            B::ShiftLeft | B::ShiftRight => {
                // The result has the promoted left type; the count is promoted
                // separately and brought to the same width for the IR.
                let (a, k) = self.promote(l, span)?;
                let (b, bk) = self.promote(r, span)?;
                let b = self.int_conv(b, bk, k, loc);
                let bop = match (op, k.signed()) {
                    (B::ShiftLeft, _) => BinOp::Shl,
                    (_, true) => BinOp::AShr,
                    (_, false) => BinOp::LShr,
                };
                Ok(Val { op: self.b.arith(bop, k.ir(), k.signed(), a, b, loc), ty: CType::Int(k) })
            }
            B::Less | B::Greater | B::LessOrEqual | B::GreaterOrEqual | B::Equals | B::NotEquals => {
                let c = self.compare(op, l, r, span)?;
                Ok(Val { op: self.b.cast(false, Type::I1, Type::I32, c, loc), ty: INT })
            }
            _ => Err(self.u.invalid(span, "unexpected operator")),
        }
    }

    fn int_bin(&mut self, bop: BinOp, l: Val, r: Val, span: Span) -> LResult<Val> {
        let (a, b, k) = self.arith_operands(l, r, span)?;
        let loc = self.loc(span);
        Ok(Val { op: self.b.arith(bop, k.ir(), k.signed(), a, b, loc), ty: CType::Int(k) })
    }

    /// A comparison as an `i1`.
    pub fn compare(&mut self, op: &BinaryOperator, l: Val, r: Val, span: Span) -> LResult<Operand> {
        use BinaryOperator as B;
        let loc = self.loc(span);
        if let Some(c) = self.float_compare(op, &l, &r, span)? {
            return Ok(c);
        }
        let (a, b, ty, signed) = match (&l.ty, &r.ty) {
            (CType::Int(_), CType::Int(_)) => {
                let (a, b, k) = self.arith_operands(l, r, span)?;
                (a, b, k.ir(), k.signed())
            }
            (CType::Ptr(x), CType::Ptr(y)) if compatible_pointees(x, y) => (l.op, r.op, Type::Ptr, false),
            (CType::Ptr(_), CType::Int(_)) if is_null_constant(&r) => {
                (l.op, Operand::Const(Type::Ptr, 0), Type::Ptr, false)
            }
            (CType::Int(_), CType::Ptr(_)) if is_null_constant(&l) => {
                (Operand::Const(Type::Ptr, 0), r.op, Type::Ptr, false)
            }
            _ => {
                return Err(self
                    .u
                    .invalid(span, format!("comparison between `{}` and `{}`", l.ty.spelling(), r.ty.spelling())));
            }
        };
        let cop = match (op, signed) {
            (B::Equals, _) => CmpOp::Eq,
            (B::NotEquals, _) => CmpOp::Ne,
            (B::Less, true) => CmpOp::Slt,
            (B::Less, false) => CmpOp::Ult,
            (B::Greater, true) => CmpOp::Sgt,
            (B::Greater, false) => CmpOp::Ugt,
            (B::LessOrEqual, true) => CmpOp::Sle,
            (B::LessOrEqual, false) => CmpOp::Ule,
            (B::GreaterOrEqual, true) => CmpOp::Sge,
            _ => CmpOp::Uge,
        };
        Ok(self.b.cmp(cop, ty, a, b, loc))
    }

    /// `p + i` (or `p - i`): a byte offset of `i * sizeof *p`.
    pub fn ptr_offset(&mut self, p: Val, i: Val, negate: bool, span: Span) -> LResult<Val> {
        let idx = self.wide_index(i, span)?;
        self.ptr_offset_wide(p, idx, negate, span)
    }

    /// The integer `i` as the IR's 64-bit index (in both data models).
    pub fn wide_index(&mut self, i: Val, span: Span) -> LResult<Operand> {
        let Some(k) = i.ty.int_kind() else {
            return Err(self.u.invalid(span, "pointer offset must be an integer"));
        };
        let wide = if k.signed() { IntKind::LongLong } else { IntKind::ULongLong };
        let loc = self.loc(span);
        Ok(self.int_conv(i.op, k, wide, loc))
    }

    /// `p + idx` elements (`p - idx` with `negate`), `idx` a 64-bit index.
    pub fn ptr_offset_wide(&mut self, p: Val, idx: Operand, negate: bool, span: Span) -> LResult<Val> {
        let size = self.elem_stride(&p.ty, span)?;
        let loc = self.loc(span);
        let off = match size {
            Operand::Const(_, size) => {
                let scale = if negate { size.wrapping_neg() } else { size };
                if scale == 1 {
                    idx
                } else {
                    self.b.bin(BinOp::Mul, Type::I64, idx, Operand::Const(Type::I64, scale), loc)
                }
            }
            // A row of a variable-length array: its size is read at run time.
            size => {
                let off = self.b.bin(BinOp::Mul, Type::I64, idx, size, loc);
                if negate {
                    self.b.bin(BinOp::Sub, Type::I64, Operand::Const(Type::I64, 0), off, loc)
                } else {
                    off
                }
            }
        };
        if let Operand::Const(_, 0) = off {
            return Ok(p);
        }
        let op = self.b.value(InstKind::PtrAdd { base: p.op, offset: off }, loc);
        Ok(Val { op, ty: p.ty })
    }

    /// `p - q`: element distance as a `ptrdiff_t` (computed in 64 bits).
    fn ptr_diff(&mut self, l: Val, r: Val, span: Span) -> LResult<Val> {
        let (CType::Ptr(x), CType::Ptr(y)) = (&l.ty, &r.ty) else {
            return Err(self.u.invalid(span, "pointer subtraction needs two pointers"));
        };
        if !compatible_pointees(x, y) {
            return Err(self.u.invalid(span, "subtraction of incompatible pointers"));
        }
        let size = self.elem_stride(&l.ty, span)?;
        let loc = self.loc(span);
        let d = self.b.value(InstKind::PtrDiff { a: l.op, b: r.op }, loc);
        let q = match size {
            Operand::Const(_, 1) => d,
            size => self.b.bin(BinOp::SDiv, Type::I64, d, size, loc),
        };
        let k = self.u.model.ptrdiff_t();
        let q = self.int_conv(q, IntKind::LongLong, k, loc);
        Ok(Val { op: q, ty: CType::Int(k) })
    }

    /// The byte stride of pointer arithmetic on `ptr`: a constant, or for a
    /// pointer to a row of a variable-length array, the row's size computed
    /// from its length slots.
    fn elem_stride(&mut self, ptr: &CType, span: Span) -> LResult<Operand> {
        match ptr.pointee() {
            Some(t) if t.has_vla() => {
                let loc = self.loc(span);
                let t = t.clone();
                self.runtime_size(&t, false, loc)
                    .ok_or_else(|| self.u.unsupported(span, "pointers to variable-length arrays of unknown length"))
            }
            _ => Ok(Operand::Const(Type::I64, self.elem_size(ptr, span)?)),
        }
    }

    fn elem_size(&mut self, ptr: &CType, span: Span) -> LResult<u64> {
        match ptr.pointee() {
            Some(CType::Func(_)) => Err(self.u.unsupported(span, "arithmetic on a pointer to a function")),
            Some(t) if t.has_vla() => Err(self.u.unsupported(span, "pointers to variable-length arrays")),
            Some(t) if t.has_struct() && t.mem_size().is_none() => Err(crate::structs::incomplete(self, span, t)),
            Some(t) => {
                t.mem_size().ok_or_else(|| self.u.invalid(span, "arithmetic on a pointer to an incomplete type"))
            }
            None => Err(self.u.invalid(span, "pointer operand expected")),
        }
    }

    /// The type of `c ? a : b` (C11 6.5.15).
    pub fn conditional_type(&mut self, a: &Val, b: &Val, span: Span) -> LResult<CType> {
        if let Some(t) = crate::floats::conditional_type(&a.ty, &b.ty) {
            return Ok(t);
        }
        Ok(match (&a.ty, &b.ty) {
            (CType::Int(x), CType::Int(y)) => CType::Int(IntKind::common(*x, *y)),
            (CType::Void, CType::Void) => CType::Void,
            (CType::Ptr(x), CType::Ptr(y)) if x == y => a.ty.clone(),
            (CType::Ptr(x), CType::Ptr(y)) if **x == CType::Void || **y == CType::Void => CType::ptr_to(CType::Void),
            (CType::Ptr(x), CType::Ptr(y)) if compatible_pointees(x, y) => a.ty.clone(),
            (CType::Ptr(_), CType::Int(_)) if is_null_constant(b) => a.ty.clone(),
            (CType::Int(_), CType::Ptr(_)) if is_null_constant(a) => b.ty.clone(),
            (CType::Struct(x), CType::Struct(y)) if x == y => {
                return Err(self.u.unsupported(span, "conditional expressions of structure or union type"));
            }
            _ => {
                return Err(self.u.invalid(
                    span,
                    format!(
                        "incompatible operand types `{}` and `{}` in conditional expression",
                        a.ty.spelling(),
                        b.ty.spelling()
                    ),
                ));
            }
        })
    }
}

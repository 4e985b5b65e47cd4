//! Bit-fields: their declarations, and their reads and writes.
//!
//! The layout is `structs.rs`'s (gcc's). A bit-field's lvalue is the
//! address of the byte holding its first bit plus a shift and a width
//! ([`crate::expr::LVal::bits`]). The IR reads and writes the bytes that
//! hold it one by one (`i8` loads and stores), never a wider unit: bytes
//! are what the IR's structure description lists for bit-field storage
//! (one-byte fields, see `structs.rs`), so the engine's typed memory and
//! input objects see the same cells whichever bit-field of a byte is
//! accessed, and a byte shared by fields of different declared types
//! (`char a:3; int b:5;`) needs no choice of unit.
//!
//! - A read assembles the bytes into an `i64` (little-endian), shifts the
//!   field down, masks it to its width and sign-extends a signed field
//!   (`(v << (64 - w)) >> (64 - w)` arithmetically); no branch.
//! - A write converts the value to the declared type, keeps its low
//!   `width` bits, and merges them into each byte
//!   (`(old & ~mask) | (bits & mask)`), reading only the bytes the field
//!   shares with something else. The value of the assignment is the
//!   field's new value (`s.a = 9` is 1 for `int a:3`... sign and all), as
//!   gcc gives it.
//! - The type of a read is gcc's: the declared type when the width is the
//!   type's, otherwise `int` (a width below 32, or 32 bits of a signed
//!   64-bit type) or `unsigned int` (32 bits of an unsigned 64-bit type);
//!   widths of 33 to 63 bits are refused at the declaration.

use lang_c::ast::{Expression, StructDeclarator};
use lang_c::span::{Node, Span};
use pathwise_ir::{BinOp, Operand, Type};

use crate::ctypes::{CType, IntKind, INT};
use crate::expr::{LVal, Val};
use crate::func::FnCtx;
use crate::structs::Member;
use crate::unit::{Ctx, LResult};

/// The bytes a field of `width` bits starting at bit `shift` of a byte spans.
fn span_bytes(shift: u32, width: u32) -> u32 {
    (shift + width).div_ceil(8)
}

/// A member declared with a width (`int a:3`, `unsigned :0`): checked.
pub(crate) fn bit_field_member<'a>(
    cx: &mut dyn Ctx<'a>,
    base: &CType,
    is_const: bool,
    sd: &Node<StructDeclarator>,
    w: &Node<Expression>,
    is_union: bool,
) -> LResult<Member> {
    let (name, ty, at) = match &sd.node.declarator {
        Some(d) => {
            let dd = crate::typespec::declarator(cx, base.clone(), is_const, d)?;
            (dd.name, dd.ty, dd.name_span)
        }
        None => (None, base.clone(), w.span),
    };
    let shown = name.as_deref().unwrap_or("<unnamed>").to_string();
    if is_union {
        return Err(cx.unit_ref().unsupported(w.span, "bit-fields in unions"));
    }
    let CType::Int(k) = ty else {
        return Err(cx.unit_ref().invalid(at, format!("bit-field `{shown}` has invalid type `{}`", ty.spelling())));
    };
    let width = match crate::consteval::eval(cx, w)? {
        Some(v) if v.value() >= 0 => v.value(),
        _ => {
            return Err(cx
                .unit_ref()
                .invalid(w.span, format!("bit-field `{shown}` width not a non-negative integer constant")))
        }
    };
    let bits = if k == IntKind::Bool { 1 } else { i128::from(k.bits()) };
    if width > bits {
        return Err(cx.unit_ref().invalid(w.span, format!("width of bit-field `{shown}` exceeds its type")));
    }
    if width == 0 && name.is_some() {
        return Err(cx.unit_ref().invalid(w.span, format!("zero width for bit-field `{shown}`")));
    }
    if width > 32 && width < 64 {
        return Err(cx
            .unit_ref()
            .unsupported(w.span, "bit-fields of 33 to 63 bits (gcc computes with them in their own width)"));
    }
    Ok(Member { name, ty: CType::Int(k), width: Some(width as u32) })
}

/// The type of a bit-field's value (see the module doc).
fn value_type(k: IntKind, width: u32) -> IntKind {
    let full = if k == IntKind::Bool { 1 } else { k.bits() };
    if width == full {
        k
    } else if width < 32 || k.signed() {
        IntKind::Int
    } else {
        IntKind::UInt
    }
}

impl<'u, 'a> FnCtx<'u, 'a> {
    /// Reads the bit-field `lv` (whose `bits` are set).
    pub fn bitfield_load(&mut self, lv: &LVal, span: Span) -> Val {
        let (shift, width) = lv.bits.unwrap_or((0, 1));
        let CType::Int(k) = lv.ty else { return Val { op: Operand::Const(Type::I32, 0), ty: INT } };
        let loc = self.loc(span);
        let mut raw = Operand::Const(Type::I64, 0);
        for i in 0..span_bytes(shift, width) {
            let p = self.offset_ptr(lv.ptr, u64::from(i), loc);
            let byte = self.b.load(Type::I8, p, loc);
            let byte = self.b.cast(false, Type::I8, Type::I64, byte, loc);
            let byte = self.b.bin(BinOp::Shl, Type::I64, byte, Operand::Const(Type::I64, 8 * u64::from(i)), loc);
            raw = self.b.bin(BinOp::Or, Type::I64, raw, byte, loc);
        }
        // The field at the top of the word, then down with its sign or zeros.
        let up = u64::from(64 - shift - width);
        let down = u64::from(64 - width);
        let v = self.b.bin(BinOp::Shl, Type::I64, raw, Operand::Const(Type::I64, up), loc);
        let op = if k.signed() { BinOp::AShr } else { BinOp::LShr };
        let v = self.b.bin(op, Type::I64, v, Operand::Const(Type::I64, down), loc);
        let vk = value_type(k, width);
        Val { op: self.b.cast(false, Type::I64, vk.ir(), v, loc), ty: CType::Int(vk) }
    }

    /// Writes `value` (already of the declared type) to the bit-field `lv`;
    /// returns the field's new value, as a read would give it.
    pub fn bitfield_store(&mut self, lv: &LVal, value: Operand, span: Span) -> Val {
        let (shift, width) = lv.bits.unwrap_or((0, 1));
        let CType::Int(k) = lv.ty else { return Val { op: Operand::Const(Type::I32, 0), ty: INT } };
        let loc = self.loc(span);
        let v = self.b.cast(k.signed(), k.ir(), Type::I64, value, loc);
        let field_mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
        let v = self.b.bin(BinOp::And, Type::I64, v, Operand::Const(Type::I64, field_mask), loc);
        let placed = self.b.bin(BinOp::Shl, Type::I64, v, Operand::Const(Type::I64, u64::from(shift)), loc);
        // The field's bits in the bytes it spans (128 bits: 64 shifted by up to 7).
        let mask = u128::from(field_mask) << shift;
        for i in 0..span_bytes(shift, width) {
            let m = ((mask >> (8 * i)) & 0xff) as u64;
            let part = self.b.bin(BinOp::LShr, Type::I64, placed, Operand::Const(Type::I64, 8 * u64::from(i)), loc);
            let part = self.b.cast(false, Type::I64, Type::I8, part, loc);
            let p = self.offset_ptr(lv.ptr, u64::from(i), loc);
            let byte = if m == 0xff {
                part
            } else {
                let old = self.b.load(Type::I8, p, loc);
                let kept = self.b.bin(BinOp::And, Type::I8, old, Operand::Const(Type::I8, !m & 0xff), loc);
                let new = self.b.bin(BinOp::And, Type::I8, part, Operand::Const(Type::I8, m), loc);
                self.b.bin(BinOp::Or, Type::I8, kept, new, loc)
            };
            self.b.store(Type::I8, p, byte, loc);
        }
        // The value stored, as a read gives it: its low bits, extended.
        let down = u64::from(64 - width);
        let top = self.b.bin(BinOp::Shl, Type::I64, v, Operand::Const(Type::I64, down), loc);
        let op = if k.signed() { BinOp::AShr } else { BinOp::LShr };
        let r = self.b.bin(op, Type::I64, top, Operand::Const(Type::I64, down), loc);
        let vk = value_type(k, width);
        Val { op: self.b.cast(false, Type::I64, vk.ir(), r, loc), ty: CType::Int(vk) }
    }
}

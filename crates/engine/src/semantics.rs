//! The symbolic meaning of the IR's operators: one table shared by the
//! concolic interpreter (`step.rs`) and the VC method (`pathwise-vc`'s
//! `semantics.rs`), so that both models of C compute the same expressions
//! and the same conditions of definedness.
//!
//! Only pure functions of the operator and its operand expressions live
//! here; what each method does with a condition differs (the interpreter
//! records it as a guard or an error, the VC assumes it) and stays there.

use pathwise_expr::{BvCmp, BvOp, ExprId, ExprPool};
use pathwise_ir::{BinOp, CastOp, CmpOp};

/// The bit-vector operation of an integer operator (C's wrapping result;
/// definedness is separate, see [`division_defined`] and [`shift_defined`]).
pub fn bv_op(op: BinOp) -> BvOp {
    match op {
        BinOp::Add => BvOp::Add,
        BinOp::Sub => BvOp::Sub,
        BinOp::Mul => BvOp::Mul,
        BinOp::UDiv => BvOp::UDiv,
        BinOp::SDiv => BvOp::SDiv,
        BinOp::URem => BvOp::URem,
        BinOp::SRem => BvOp::SRem,
        BinOp::Shl => BvOp::Shl,
        BinOp::LShr => BvOp::LShr,
        BinOp::AShr => BvOp::AShr,
        BinOp::And => BvOp::And,
        BinOp::Or => BvOp::Or,
        BinOp::Xor => BvOp::Xor,
    }
}

/// A comparison as (canonical operator, swap operands, negate result):
/// the expression layer has `=`, `<u`, `<=u`, `<s`, `<=s` only.
pub fn cmp_parts(op: CmpOp) -> (Option<BvCmp>, bool, bool) {
    match op {
        CmpOp::Eq => (None, false, false),
        CmpOp::Ne => (None, false, true),
        CmpOp::Ult => (Some(BvCmp::Ult), false, false),
        CmpOp::Ule => (Some(BvCmp::Ule), false, false),
        CmpOp::Ugt => (Some(BvCmp::Ult), true, false),
        CmpOp::Uge => (Some(BvCmp::Ule), true, false),
        CmpOp::Slt => (Some(BvCmp::Slt), false, false),
        CmpOp::Sle => (Some(BvCmp::Sle), false, false),
        CmpOp::Sgt => (Some(BvCmp::Slt), true, false),
        CmpOp::Sge => (Some(BvCmp::Sle), true, false),
    }
}

/// `a op b` as a boolean expression.
pub fn compare(pool: &mut ExprPool, op: CmpOp, a: ExprId, b: ExprId) -> ExprId {
    let (c, swap, neg) = cmp_parts(op);
    let (x, y) = if swap { (b, a) } else { (a, b) };
    let e = match c {
        None => pool.eq(x, y),
        Some(c) => pool.cmp(c, x, y),
    };
    if neg {
        pool.not(e)
    } else {
        e
    }
}

/// `a op b` on concrete `width`-bit values, as [`compare`] computes it.
pub fn eval_compare(op: CmpOp, width: u32, a: u64, b: u64) -> bool {
    let (c, swap, neg) = cmp_parts(op);
    let (a, b) = if swap { (b, a) } else { (a, b) };
    let m = pathwise_expr::ops::mask(width);
    let r = match c {
        None => a & m == b & m,
        Some(c) => pathwise_expr::ops::eval_cmp(c, width, a, b),
    };
    r != neg
}

/// The signed form of an ordering (equality is unchanged): offsets into
/// one object order as its addresses do, also below its start.
pub fn signed_cmp(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Ult => CmpOp::Slt,
        CmpOp::Ule => CmpOp::Sle,
        CmpOp::Ugt => CmpOp::Sgt,
        CmpOp::Uge => CmpOp::Sge,
        op => op,
    }
}

/// An integer conversion of the `from_bits`-bit expression `e` to
/// `to_bits` bits (a conversion to the same width is `e`).
pub fn cast(pool: &mut ExprPool, op: CastOp, e: ExprId, to_bits: u32) -> ExprId {
    match op {
        CastOp::ZExt => pool.zext(e, to_bits),
        CastOp::SExt => pool.sext(e, to_bits),
        CastOp::Trunc => pool.extract(e, to_bits - 1, 0),
    }
}

/// The condition under which a division or remainder by `b` (`w` bits)
/// is defined: `b != 0`.
pub fn nonzero_divisor(pool: &mut ExprPool, w: u32, b: ExprId) -> ExprId {
    let zero = pool.bv_const(w, 0);
    let is_zero = pool.eq(b, zero);
    pool.not(is_zero)
}

/// The further condition under which a signed division or remainder
/// `a op b` (`w` bits) is defined: not `MIN / -1`.
pub fn no_division_overflow(pool: &mut ExprPool, w: u32, a: ExprId, b: ExprId) -> ExprId {
    let min = pool.bv_const(w, 1u64 << (w - 1));
    let neg1 = pool.bv_const(w, pathwise_expr::ops::mask(w));
    let a_min = pool.eq(a, min);
    let b_neg1 = pool.eq(b, neg1);
    let both = pool.and(a_min, b_neg1);
    pool.not(both)
}

/// The conditions under which the division or remainder `a op b` of
/// `w`-bit values is defined, in order ([`nonzero_divisor`], then for a
/// signed one [`no_division_overflow`]); empty for other operators.
pub fn division_defined(pool: &mut ExprPool, op: BinOp, w: u32, a: ExprId, b: ExprId) -> Vec<ExprId> {
    if !matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem) {
        return Vec::new();
    }
    let mut out = vec![nonzero_divisor(pool, w, b)];
    if matches!(op, BinOp::SDiv | BinOp::SRem) {
        out.push(no_division_overflow(pool, w, a, b));
    }
    out
}

/// The condition under which a shift of a `w`-bit value by `b` is defined
/// (`b` in 0..w); `None` for other operators.
pub fn shift_defined(pool: &mut ExprPool, op: BinOp, w: u32, b: ExprId) -> Option<ExprId> {
    if !matches!(op, BinOp::Shl | BinOp::LShr | BinOp::AShr) {
        return None;
    }
    let wc = pool.bv_const(w, w as u64);
    Some(pool.cmp(BvCmp::Ult, b, wc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_agree_with_their_concrete_evaluation() {
        let mut pool = ExprPool::new();
        for op in CmpOp::ALL {
            for (a, b) in [(0u64, 0u64), (1, 0xff), (0x80, 0x7f), (0xff, 0xff), (3, 5)] {
                let (x, y) = (pool.bv_const(8, a), pool.bv_const(8, b));
                let e = compare(&mut pool, op, x, y);
                assert_eq!(pool.as_bool_const(e), Some(eval_compare(op, 8, a, b)), "{op:?} {a} {b}");
            }
        }
    }

    #[test]
    fn definedness_of_division_and_shifts() {
        let mut pool = ExprPool::new();
        let (min, m1, zero, two) =
            (pool.bv_const(8, 0x80), pool.bv_const(8, 0xff), pool.bv_const(8, 0), pool.bv_const(8, 2));
        let c = division_defined(&mut pool, BinOp::SDiv, 8, min, m1);
        assert_eq!(c.iter().map(|&e| pool.as_bool_const(e)).collect::<Vec<_>>(), vec![Some(true), Some(false)]);
        let c = division_defined(&mut pool, BinOp::UDiv, 8, min, zero);
        assert_eq!(c.iter().map(|&e| pool.as_bool_const(e)).collect::<Vec<_>>(), vec![Some(false)]);
        assert!(division_defined(&mut pool, BinOp::Add, 8, min, zero).is_empty());
        let eight = pool.bv_const(8, 8);
        let ok = shift_defined(&mut pool, BinOp::Shl, 8, two).unwrap();
        let bad = shift_defined(&mut pool, BinOp::AShr, 8, eight).unwrap();
        assert_eq!((pool.as_bool_const(ok), pool.as_bool_const(bad)), (Some(true), Some(false)));
        assert!(shift_defined(&mut pool, BinOp::Mul, 8, two).is_none());
    }
}

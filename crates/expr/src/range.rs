//! Sound signed value ranges of bit-vector expressions, by interval
//! arithmetic over the expression tree.
//!
//! The engine asks, before recording an overflow check, whether the exact
//! result of `a op b` can leave its type at all. A small input widened to
//! `int` and multiplied (`(int)u16 * ((int)u16 / 16)`) never overflows, yet
//! proving that with the solver means refuting a multiplier circuit, which
//! bit-blasting solvers do very slowly. Ranges answer such cases at once.
//!
//! Every answer is sound: the expression's value, read as a signed number of
//! its width, lies in the range. When an operation might wrap, or an
//! operator is not modelled, the full range of the width is returned.

use crate::float::FpConv;
use crate::ops::mask;
use crate::pool::{Expr, ExprId, ExprPool};
use crate::BvOp;

/// Deeper subterms get the full range: keeps the walk linear on DAGs that
/// would otherwise be explored exponentially often.
const MAX_DEPTH: u32 = 12;

/// The signed range `(lo, hi)` of a bit-vector expression.
pub fn signed_range(pool: &ExprPool, e: ExprId) -> (i128, i128) {
    range(pool, e, MAX_DEPTH)
}

/// The full signed range of `width` bits.
pub fn full(width: u32) -> (i128, i128) {
    let half = 1i128 << (width - 1);
    (-half, half - 1)
}

/// Whether every value of `r` is representable in signed `width` bits.
pub fn fits(r: (i128, i128), width: u32) -> bool {
    let (lo, hi) = full(width);
    r.0 >= lo && r.1 <= hi
}

/// The range of a conversion of a floating value to an integer, when the
/// value's range (see [`float_range`](crate::float_range)) makes every
/// conversion defined: the truncations of its bounds. (An undefined one
/// gives x86's "integer indefinite", which no bound would cover.)
fn truncated(pool: &ExprPool, op: FpConv, a: ExprId) -> Option<(i128, i128)> {
    let (from, lo_int, hi_int) = match op {
        FpConv::ToSigned { from, width } => (from, -(1i128 << (width - 1)), (1i128 << (width - 1)) - 1),
        // Read as signed, values from 2^(width-1) on are negative: only
        // ranges below that are kept.
        FpConv::ToUnsigned { from, width } => (from, 0, (1i128 << (width - 1)) - 1),
        _ => return None,
    };
    let (lo, hi) = crate::float_range::float_range(pool, a, from)?;
    // Every bound is an integer or between two, so `trunc` gives exact
    // integers; the comparisons are between exact values (f64 holds every
    // truncation that passes them, all below 2^63 in magnitude).
    let (lo, hi) = (lo.trunc(), hi.trunc());
    (lo >= lo_int as f64 && hi <= hi_int as f64 && hi < 9.2e18 && lo > -9.2e18).then(|| (lo as i128, hi as i128))
}

/// The range of an exact result, or the full range if it may not fit.
fn checked(r: (i128, i128), width: u32) -> (i128, i128) {
    if fits(r, width) {
        r
    } else {
        full(width)
    }
}

fn range(pool: &ExprPool, e: ExprId, depth: u32) -> (i128, i128) {
    let width = pool.width(e);
    if depth == 0 {
        return full(width);
    }
    let sub = |x: ExprId| range(pool, x, depth - 1);
    match *pool.get(e) {
        Expr::BvConst { value, .. } => {
            let v = crate::ops::to_signed(value, width) as i128;
            (v, v)
        }
        Expr::ZExt { a, .. } => {
            let wa = pool.width(a);
            let (lo, hi) = sub(a);
            // Non-negative sources keep their range; otherwise anything in
            // the unsigned range of the source.
            if lo >= 0 {
                (lo, hi)
            } else {
                (0, mask(wa) as i128)
            }
        }
        Expr::SExt { a, .. } => sub(a),
        Expr::Bin { op, a, b } => bin_range(op, sub(a), sub(b), width),
        Expr::FConv { op, a } => truncated(pool, op, a).unwrap_or_else(|| full(width)),
        _ => full(width),
    }
}

/// The range of the mathematically exact `a op b` for `+`, `-`, `*` (before
/// any wrap-around); `None` for other operations.
pub fn exact(op: BvOp, a: (i128, i128), b: (i128, i128)) -> Option<(i128, i128)> {
    match op {
        BvOp::Add => Some((a.0 + b.0, a.1 + b.1)),
        BvOp::Sub => Some((a.0 - b.1, a.1 - b.0)),
        BvOp::Mul => {
            let products = [a.0 * b.0, a.0 * b.1, a.1 * b.0, a.1 * b.1];
            Some((*products.iter().min().expect("four products"), *products.iter().max().expect("four products")))
        }
        _ => None,
    }
}

fn bin_range(op: BvOp, a: (i128, i128), b: (i128, i128), width: u32) -> (i128, i128) {
    match op {
        BvOp::Add | BvOp::Sub | BvOp::Mul => exact(op, a, b).map_or(full(width), |r| checked(r, width)),
        // Unsigned division of non-negative values by a positive constant.
        BvOp::UDiv | BvOp::SDiv if a.0 >= 0 && b.0 == b.1 && b.0 > 0 => (a.0 / b.0, a.1 / b.0),
        // Signed division by a positive constant truncates towards zero.
        BvOp::SDiv if b.0 == b.1 && b.0 > 0 => (a.0 / b.0, a.1 / b.0),
        // `x & m` with a non-negative constant mask is within [0, m]; with a
        // non-negative `x`, also within [0, x].
        BvOp::And if b.0 == b.1 && b.0 >= 0 => (0, if a.0 >= 0 { b.0.min(a.1) } else { b.0 }),
        BvOp::And if a.0 == a.1 && a.0 >= 0 => (0, if b.0 >= 0 { a.0.min(b.1) } else { a.0 }),
        BvOp::URem | BvOp::SRem if a.0 >= 0 && b.0 > 0 => (0, a.1.min(b.1 - 1)),
        BvOp::LShr if a.0 >= 0 && b.0 == b.1 && (0..width as i128).contains(&b.0) => (a.0 >> b.0, a.1 >> b.0),
        BvOp::AShr if b.0 == b.1 && (0..width as i128).contains(&b.0) => (a.0 >> b.0, a.1 >> b.0),
        _ => full(width),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sort;

    #[test]
    fn widened_small_values_multiply_without_overflow() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(16));
        let wide = p.zext(x, 32);
        let sixteen = p.bv_const(32, 16);
        let q = p.bin(BvOp::SDiv, wide, sixteen);
        let prod = p.bin(BvOp::Mul, wide, q);
        assert_eq!(signed_range(&p, wide), (0, 65535));
        assert_eq!(signed_range(&p, q), (0, 4095));
        assert_eq!(signed_range(&p, prod), (0, 65535 * 4095));
    }

    #[test]
    fn possible_wrap_gives_the_full_range() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(32));
        let one = p.bv_const(32, 1);
        let s = p.bin(BvOp::Add, x, one);
        assert_eq!(signed_range(&p, s), full(32));
        let y = p.var("y", Sort::Bv(8));
        let sy = p.sext(y, 32);
        let t = p.bin(BvOp::Add, sy, one);
        assert_eq!(signed_range(&p, t), (-127, 128));
        let m = p.bv_const(32, 0xff);
        let a = p.bin(BvOp::And, x, m);
        assert_eq!(signed_range(&p, a), (0, 255));
    }

    #[test]
    fn conversions_of_bounded_floats_have_the_truncated_range() {
        use crate::float::{FpFmt, FpOp};
        let mut p = ExprPool::new();
        let c = p.var("c", Sort::Bv(8));
        let d = p.fconv(FpConv::FromUnsigned(FpFmt::F64), c);
        let half = p.bv_const(64, 0.5f64.to_bits());
        let h = p.fbin(FpOp::Mul, FpFmt::F64, d, half);
        let l = p.fconv(FpConv::ToSigned { from: FpFmt::F64, width: 64 }, h);
        assert_eq!(signed_range(&p, l), (0, 127));
        // Scaled past `int`, a conversion may be undefined: nothing known.
        let big = p.bv_const(64, 1e8f64.to_bits());
        let b = p.fbin(FpOp::Mul, FpFmt::F64, d, big);
        let i = p.fconv(FpConv::ToSigned { from: FpFmt::F64, width: 32 }, b);
        assert_eq!(signed_range(&p, i), full(32));
        let f = p.var("f", Sort::Bv(64));
        let j = p.fconv(FpConv::ToSigned { from: FpFmt::F64, width: 32 }, f);
        assert_eq!(signed_range(&p, j), full(32));
    }
}

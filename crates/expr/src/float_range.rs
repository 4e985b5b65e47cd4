//! Sound value ranges of floating expressions whose leaves are bounded, to
//! decide comparisons and the range checks of float-to-integer conversions
//! without the solver.
//!
//! `(long)(d * 0.5)` with `d = (double)c` for an `unsigned char c` is always
//! defined, yet proving it with Z3's floating-point theory means refuting a
//! floating multiplier circuit: seconds per check in Z3 4.8.12, which the
//! search pays on every path (tests/c/floats.c `conversions` spent ~170 s
//! on such checks). The range of `d * 0.5` is `[0, 127.5]`, which settles
//! the check at once.
//!
//! A range is known for constants (not NaN, not infinite), integers
//! converted to a floating format (the integer's range, from
//! [`range`](crate::range)), and the operators over them: `+ - * /`,
//! square root, rounding to an integral value, conversions between formats,
//! negation and `fabs` (bit operations on the sign) and `?:`. Anything else
//! (a float input, a memory cell) has no range, and neither has a result
//! that may be infinite or NaN (a division whose divisor's range contains
//! zero, an overflow at a corner).
//!
//! **Soundness.** Every endpoint is computed with the evaluator's own IEEE
//! operations (`eval_fbin`, `eval_fun`, `eval_fconv`), rounded to nearest
//! like the expression. Rounding is monotone, and each modelled operation
//! is monotone in each operand over a range that excludes the points where
//! it is not (a divisor of zero, a square root of a negative number), so
//! the rounded results at the corners bound every rounded result inside:
//! the range holds every value the expression can take, none of them NaN.

use rustc_hash::FxHashMap;

use crate::float::{eval_fbin_in, eval_fconv, eval_fun, FpCmp, FpConv, FpFmt, FpOp, FpUn};
use crate::ops::mask;
use crate::pool::{Expr, ExprId, ExprPool};
use crate::BvOp;

/// Deeper subterms have no range: keeps the walk short on long chains
/// (a filter's state after many iterations).
const MAX_DEPTH: u32 = 16;

/// The range `[lo, hi]` (finite, never NaN) of the floating value whose
/// bits of format `fmt` are `e`, or `None` when no bound is known.
pub fn float_range(pool: &ExprPool, e: ExprId, fmt: FpFmt) -> Option<(f64, f64)> {
    Walk { pool, memo: FxHashMap::default() }.range(e, fmt, MAX_DEPTH)
}

/// `Some(b)` when the ranges of `a` and `b` decide `a op b` to be `b`.
pub fn decide_fcmp(pool: &ExprPool, op: FpCmp, fmt: FpFmt, a: ExprId, b: ExprId) -> Option<bool> {
    let (a, b) = (float_range(pool, a, fmt)?, float_range(pool, b, fmt)?);
    match op {
        FpCmp::Lt if a.1 < b.0 => Some(true),
        FpCmp::Lt if a.0 >= b.1 => Some(false),
        FpCmp::Le if a.1 <= b.0 => Some(true),
        FpCmp::Le if a.0 > b.1 => Some(false),
        FpCmp::Eq if a.1 < b.0 || b.1 < a.0 => Some(false),
        _ => None,
    }
}

/// `Some(b)` when the range of `a` decides whether its truncation lies in
/// `[lo, hi)` (the defined conversions to an integer, bounds as values).
pub fn decide_in_range(pool: &ExprPool, fmt: FpFmt, a: ExprId, lo: f64, hi: f64) -> Option<bool> {
    let (x, y) = float_range(pool, a, fmt)?;
    // `lo - 1 < x` makes the truncation at least `lo`; `lo - 1.0` rounds
    // up to `lo` for 64-bit bounds, which only makes the test stricter.
    if x > lo - 1.0 && y < hi {
        return Some(true);
    }
    if x >= hi {
        return Some(false);
    }
    None
}

struct Walk<'a> {
    pool: &'a ExprPool,
    memo: FxHashMap<(ExprId, FpFmt), Option<(f64, f64)>>,
}

/// The bits of value `v` (a value of format `fmt`).
fn bits(fmt: FpFmt, v: f64) -> u64 {
    match fmt {
        FpFmt::F32 => u64::from((v as f32).to_bits()),
        FpFmt::F64 => v.to_bits(),
    }
}

/// The finite value of `b` in format `fmt`, or `None` for an infinity or NaN.
fn finite(fmt: FpFmt, b: u64) -> Option<f64> {
    let v = fmt.to_f64(b);
    v.is_finite().then_some(v)
}

/// The range spanned by the finite values `vs`.
fn span(vs: impl IntoIterator<Item = Option<f64>>) -> Option<(f64, f64)> {
    let mut r: Option<(f64, f64)> = None;
    for v in vs {
        let v = v?;
        r = Some(r.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))));
    }
    r
}

impl Walk<'_> {
    fn range(&mut self, e: ExprId, fmt: FpFmt, depth: u32) -> Option<(f64, f64)> {
        if depth == 0 {
            return None;
        }
        if let Some(r) = self.memo.get(&(e, fmt)) {
            return *r;
        }
        let r = self.compute(e, fmt, depth - 1);
        self.memo.insert((e, fmt), r);
        r
    }

    fn compute(&mut self, e: ExprId, fmt: FpFmt, depth: u32) -> Option<(f64, f64)> {
        match *self.pool.get(e) {
            Expr::BvConst { value, .. } => finite(fmt, value).map(|v| (v, v)),
            Expr::FBin { op, rnd, fmt: f, a, b } if f == fmt => {
                let (x, y) = (self.range(a, fmt, depth)?, self.range(b, fmt, depth)?);
                // A divisor that may be zero gives infinities or NaN.
                if op == FpOp::Div && y.0 <= 0.0 && y.1 >= 0.0 {
                    return None;
                }
                // Rounding in any direction is monotonic: the bounds are
                // the rounded results at the operands' bounds.
                let at = |p: f64, q: f64| finite(fmt, eval_fbin_in(op, rnd, fmt, bits(fmt, p), bits(fmt, q)));
                span([at(x.0, y.0), at(x.0, y.1), at(x.1, y.0), at(x.1, y.1)])
            }
            Expr::FUn { op, fmt: f, a } if f == fmt => {
                let x = self.range(a, fmt, depth)?;
                if matches!(op, FpUn::Sqrt | FpUn::SqrtIn(_)) && x.0 < 0.0 {
                    return None;
                }
                let at = |p: f64| finite(fmt, eval_fun(op, fmt, bits(fmt, p)));
                span([at(x.0), at(x.1)])
            }
            Expr::FConv { op, a } => self.conversion(op, a, fmt, depth),
            Expr::Ite { then_, else_, .. } => {
                let (x, y) = (self.range(then_, fmt, depth)?, self.range(else_, fmt, depth)?);
                Some((x.0.min(y.0), x.1.max(y.1)))
            }
            Expr::Bin { op, a, b } => self.sign_op(op, a, b, fmt, depth),
            _ => None,
        }
    }

    /// A conversion whose result has format `fmt`.
    fn conversion(&mut self, op: FpConv, a: ExprId, fmt: FpFmt, depth: u32) -> Option<(f64, f64)> {
        let w = self.pool.width(a);
        let (lo, hi) = match op {
            FpConv::Fp { from, to } if to == fmt => {
                let x = self.range(a, from, depth)?;
                (bits(from, x.0), bits(from, x.1))
            }
            FpConv::FromSigned(to) if to == fmt => {
                let (lo, hi) = crate::range::signed_range(self.pool, a);
                ((lo as i64 as u64) & mask(w), (hi as i64 as u64) & mask(w))
            }
            FpConv::FromUnsigned(to) if to == fmt => {
                let (lo, hi) = crate::range::signed_range(self.pool, a);
                // A negative signed range says nothing of the unsigned one.
                if lo >= 0 {
                    (lo as u64, hi as u64)
                } else {
                    (0, mask(w))
                }
            }
            _ => return None,
        };
        span([finite(fmt, eval_fconv(op, w, lo)), finite(fmt, eval_fconv(op, w, hi))])
    }

    /// Negation (the sign bit flipped) and `fabs` (the sign bit cleared),
    /// which the pool builds as bit operations with a constant.
    fn sign_op(&mut self, op: BvOp, a: ExprId, b: ExprId, fmt: FpFmt, depth: u32) -> Option<(f64, f64)> {
        if self.pool.width(a) != fmt.bits() {
            return None;
        }
        let (k, x) = match (self.pool.as_bv_const(a), self.pool.as_bv_const(b)) {
            (Some(k), None) => (k, b),
            (None, Some(k)) => (k, a),
            _ => return None,
        };
        match op {
            BvOp::Xor if k == fmt.sign_bit() => {
                let (lo, hi) = self.range(x, fmt, depth)?;
                Some((-hi, -lo))
            }
            BvOp::And if k == fmt.abs_mask() => {
                let (lo, hi) = self.range(x, fmt, depth)?;
                Some(if lo >= 0.0 {
                    (lo, hi)
                } else if hi <= 0.0 {
                    (-hi, -lo)
                } else {
                    (0.0, hi.max(-lo))
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::Sort;

    fn d(pool: &mut ExprPool, v: f64) -> ExprId {
        pool.bv_const(64, v.to_bits())
    }

    #[test]
    fn an_unsigned_char_halved_has_a_small_range() {
        let mut p = ExprPool::new();
        let c = p.var("c", Sort::Bv(8));
        let c32 = p.zext(c, 32);
        let x = p.fconv(FpConv::FromSigned(FpFmt::F64), c32);
        let half = d(&mut p, 0.5);
        let y = p.fbin(FpOp::Mul, FpFmt::F64, x, half);
        assert_eq!(float_range(&p, y, FpFmt::F64), Some((0.0, 127.5)));
        let neg = p.fp_neg(FpFmt::F64, y);
        assert_eq!(float_range(&p, neg, FpFmt::F64), Some((-127.5, -0.0)));
        let abs = p.fp_abs(FpFmt::F64, neg);
        assert_eq!(float_range(&p, abs, FpFmt::F64), Some((0.0, 127.5)));
    }

    #[test]
    fn inputs_divisors_with_zero_and_overflows_have_no_range() {
        let mut p = ExprPool::new();
        let f = p.var("f", Sort::Bv(64));
        assert_eq!(float_range(&p, f, FpFmt::F64), None);
        let i = p.var("i", Sort::Bv(32));
        let x = p.fconv(FpConv::FromSigned(FpFmt::F64), i);
        assert_eq!(float_range(&p, x, FpFmt::F64), Some((-2147483648.0, 2147483647.0)));
        let one = d(&mut p, 1.0);
        let q = p.fbin(FpOp::Div, FpFmt::F64, one, x);
        assert_eq!(float_range(&p, q, FpFmt::F64), None);
        let big = d(&mut p, 1e300);
        let m = p.fbin(FpOp::Mul, FpFmt::F64, x, big);
        assert_eq!(float_range(&p, m, FpFmt::F64), None);
    }

    #[test]
    fn single_precision_rounds_like_the_evaluator() {
        let mut p = ExprPool::new();
        let u = p.var("u", Sort::Bv(32));
        // (float)u rounds 2^32 - 1 up to 2^32.
        let f = p.fconv(FpConv::FromUnsigned(FpFmt::F32), u);
        assert_eq!(float_range(&p, f, FpFmt::F32), Some((0.0, 4294967296.0)));
        let k = p.bv_const(32, u64::from(1e9f32.to_bits()));
        let q = p.fbin(FpOp::Div, FpFmt::F32, f, k);
        let (lo, hi) = float_range(&p, q, FpFmt::F32).unwrap();
        assert_eq!((lo, hi), (0.0, (4294967296.0f32 / 1e9f32) as f64));
        // A conversion to unsigned char is always defined; to a 2-bit one not.
        assert_eq!(decide_in_range(&p, FpFmt::F32, q, 0.0, 256.0), Some(true));
        assert_eq!(decide_in_range(&p, FpFmt::F32, q, 0.0, 4.0), None);
    }
}

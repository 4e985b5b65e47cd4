//! Signed overflow of a sum or a difference: one builder and its matcher.
//!
//! The engine checks C's undefined signed overflow of `a + b` and `a - b`
//! with the sign rule over the wrapped result `r` (bit-blasting solvers
//! like it: three sign bits, no wider adder). [`add_sub_overflow`] builds
//! that condition, and [`recognise`] recognises it again in a
//! query, so that [`linear`](crate::linear) can read it over the integers:
//! with `a` and `b` read exactly, "`a op b` overflows" is
//! `a op b < MIN || a op b > MAX`, and a path that asserts the sum does
//! *not* overflow makes its wrapped result `r` exact. A loop accumulating
//! a symbolic sum (`sum += buf[i]`, a checksum over 256 ints) gives a path
//! whose prefixes chain 256 such checks: bit-blasted, Z3 could not decide
//! the deepest one in 30 s; over the integers it takes milliseconds.
//!
//! The matcher recognises the exact shape the builder makes for
//! non-constant operands. With a constant operand the pool folds a sign
//! bit and the shape differs: such a condition is then read as any other
//! boolean structure (interval proofs bound a sum with a constant).

use crate::pool::{Expr, ExprId, ExprPool};
use crate::BvCmp;
use crate::BvOp;

/// The condition that `a op b` (`op` is [`BvOp::Add`] or [`BvOp::Sub`],
/// over `w`-bit signed values) overflows, given its wrapped result `r`:
/// for a sum, operands of one sign and a result of the other; for a
/// difference, operands of different signs and a result unlike `a`.
pub fn add_sub_overflow(pool: &mut ExprPool, op: BvOp, a: ExprId, b: ExprId, r: ExprId) -> ExprId {
    debug_assert!(matches!(op, BvOp::Add | BvOp::Sub), "{op:?}");
    let zero = pool.bv_const(pool.width(a), 0);
    let (na, nb, nr) = (pool.cmp(BvCmp::Slt, a, zero), pool.cmp(BvCmp::Slt, b, zero), pool.cmp(BvCmp::Slt, r, zero));
    let same = pool.eq(na, nb);
    let signs = if op == BvOp::Add { same } else { pool.not(same) };
    let kept = pool.eq(nr, na);
    let flipped = pool.not(kept);
    pool.and(signs, flipped)
}

/// A condition on the signed overflow of `a op b`, whose wrapped result
/// is the node `r`, as [`recognise`] found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddSubOverflow {
    pub op: BvOp,
    pub a: ExprId,
    pub b: ExprId,
    pub r: ExprId,
    /// The condition says that `a op b` overflows (else that it does not).
    pub overflows: bool,
}

/// The condition `id` if [`add_sub_overflow`] built it for non-constant
/// operands (`overflows`), or it is the pool's negation of one such for
/// `x + x` (where the operands' signs agree, the pool reduces the rule to
/// "the result's sign is `x`'s", and its negation to an equality).
/// The negation `not(c)` of a condition `c` of the general shape is not
/// recognised itself: it is the `Not` of a recognised node.
pub fn recognise(pool: &ExprPool, id: ExprId) -> Option<AddSubOverflow> {
    match *pool.get(id) {
        Expr::And(x, y) => [(x, y), (y, x)].into_iter().find_map(|(signs, flipped)| general(pool, signs, flipped)),
        Expr::Not(kept) => doubled(pool, kept).map(|o| AddSubOverflow { overflows: true, ..o }),
        Expr::Eq(..) => doubled(pool, id),
        _ => None,
    }
}

/// [`recognise`] for `signs && flipped`: operands' signs equal (a sum)
/// or different (a difference), and a result whose sign is not `a`'s.
fn general(pool: &ExprPool, signs: ExprId, flipped: ExprId) -> Option<AddSubOverflow> {
    let Expr::Not(kept) = *pool.get(flipped) else { return None };
    let (sum, same) = match *pool.get(signs) {
        Expr::Eq(p, q) => (true, (p, q)),
        Expr::Not(inner) => match *pool.get(inner) {
            Expr::Eq(p, q) => (false, (p, q)),
            _ => return None,
        },
        _ => return None,
    };
    let (s1, s2) = (negative(pool, same.0)?, negative(pool, same.1)?);
    let Expr::Eq(k1, k2) = *pool.get(kept) else { return None };
    let (k1, k2) = (negative(pool, k1)?, negative(pool, k2)?);
    // One side of `kept` is the result's sign, the other the sign of `a`.
    [(k1, k2), (k2, k1)].into_iter().find_map(|(r, t)| {
        let Expr::Bin { op, a, b } = *pool.get(r) else { return None };
        let operands = (s1 == a && s2 == b) || (s1 == b && s2 == a);
        let found = AddSubOverflow { op, a, b, r, overflows: true };
        match op {
            BvOp::Add if sum && operands && (t == a || t == b) => Some(found),
            BvOp::Sub if !sum && operands && t == a => Some(found),
            _ => None,
        }
    })
}

/// [`recognise`] for `kept`, the equality "`x + x` has the sign of `x`":
/// the condition that `x + x` does not overflow.
fn doubled(pool: &ExprPool, kept: ExprId) -> Option<AddSubOverflow> {
    let Expr::Eq(k1, k2) = *pool.get(kept) else { return None };
    let (k1, k2) = (negative(pool, k1)?, negative(pool, k2)?);
    [(k1, k2), (k2, k1)].into_iter().find_map(|(r, t)| match *pool.get(r) {
        Expr::Bin { op: BvOp::Add, a, b } if a == b && a == t => {
            Some(AddSubOverflow { op: BvOp::Add, a, b, r, overflows: false })
        }
        _ => None,
    })
}

/// `x` of a comparison `x < 0` (signed) with a non-constant `x`.
fn negative(pool: &ExprPool, id: ExprId) -> Option<ExprId> {
    match *pool.get(id) {
        Expr::Cmp { op: BvCmp::Slt, a, b } if pool.as_bv_const(b) == Some(0) && pool.as_bv_const(a).is_none() => {
            Some(a)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{eval, Value};
    use crate::pool::Sort;
    use crate::Model;

    #[test]
    fn the_matcher_finds_what_the_builder_made() {
        let mut p = ExprPool::new();
        for w in [8, 32, 64] {
            let a = p.var(&format!("a{w}"), Sort::Bv(w));
            let b = p.var(&format!("b{w}"), Sort::Bv(w));
            for op in [BvOp::Add, BvOp::Sub] {
                for (x, y) in [(a, b), (b, a)] {
                    let r = p.bin(op, x, y);
                    let c = add_sub_overflow(&mut p, op, x, y, r);
                    let want = AddSubOverflow { op, a: x, b: y, r, overflows: true };
                    assert_eq!(recognise(&p, c), Some(want), "{op:?} {w}");
                    // Its negation is not the shape.
                    let n = p.not(c);
                    assert_eq!(recognise(&p, n), None);
                }
                if op == BvOp::Add {
                    // `a + a`: the pool reduces the rule; both it and its
                    // negation are recognised.
                    let r = p.bin(op, a, a);
                    let c = add_sub_overflow(&mut p, op, a, a, r);
                    let want = AddSubOverflow { op, a, b: a, r, overflows: true };
                    assert_eq!(recognise(&p, c), Some(want), "{w}");
                    let n = p.not(c);
                    assert_eq!(recognise(&p, n), Some(AddSubOverflow { overflows: false, ..want }), "{w}");
                }
            }
        }
    }

    #[test]
    fn other_conditions_are_not_taken_for_it() {
        let mut p = ExprPool::new();
        let a = p.var("a", Sort::Bv(32));
        let b = p.var("b", Sort::Bv(32));
        let c = p.var("c", Sort::Bv(32));
        // The sum's sign rule checked against the wrong result.
        let r = p.bin(BvOp::Add, a, c);
        let wrong = add_sub_overflow(&mut p, BvOp::Add, a, b, r);
        assert_eq!(recognise(&p, wrong), None);
        // A difference's rule must compare the result with the minuend.
        let d = p.bin(BvOp::Sub, a, b);
        let sub = add_sub_overflow(&mut p, BvOp::Sub, b, a, d);
        assert_eq!(recognise(&p, sub), None);
        // A constant operand folds a sign: not recognised (see the module doc).
        let k = p.bv_const(32, 5);
        let s = p.bin(BvOp::Add, a, k);
        let folded = add_sub_overflow(&mut p, BvOp::Add, a, k, s);
        assert_eq!(recognise(&p, folded), None);
    }

    #[test]
    fn the_condition_is_signed_overflow() {
        let mut p = ExprPool::new();
        let (a, b) = (p.var("a", Sort::Bv(8)), p.var("b", Sort::Bv(8)));
        for (op, b) in [(BvOp::Add, b), (BvOp::Sub, b), (BvOp::Add, a)] {
            let r = p.bin(op, a, b);
            let c = add_sub_overflow(&mut p, op, a, b, r);
            for x in [-128i64, -100, -1, 0, 1, 64, 127] {
                for y in [-128i64, -64, -1, 0, 1, 100, 127] {
                    let y = if b == a { x } else { y };
                    let mut m = Model::default();
                    m.bv.insert(a, x as u64 & 0xff);
                    m.bv.insert(b, y as u64 & 0xff);
                    let exact = if op == BvOp::Add { x + y } else { x - y };
                    let want = !(-128..=127).contains(&exact);
                    assert_eq!(eval(&p, c, &m), Value::Bool(want), "{x} {op:?} {y}");
                }
            }
        }
    }
}

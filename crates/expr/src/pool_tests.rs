//! Tests of the builders' canonical forms and rewrites: one unit test per
//! rewrite, and a randomized check that building through the simplifying
//! builders never changes the value of a term (reference: a naive evaluator
//! of the unsimplified tree).

use super::*;
use crate::eval::{eval, Value};
use crate::solver::{ArrayValue, Model};

fn bv(p: &mut ExprPool, w: u32, v: u64) -> ExprId {
    p.bv_const(w, v)
}

#[test]
fn negated_comparisons_are_converse_comparisons() {
    let mut p = ExprPool::new();
    let (x, y) = (p.var("x", Sort::Bv(8)), p.var("y", Sort::Bv(8)));
    for (op, neg) in
        [(BvCmp::Ult, BvCmp::Ule), (BvCmp::Ule, BvCmp::Ult), (BvCmp::Slt, BvCmp::Sle), (BvCmp::Sle, BvCmp::Slt)]
    {
        let c = p.cmp(op, x, y);
        let n = p.not(c);
        assert_eq!(n, p.cmp(neg, y, x));
        assert_eq!(p.not(n), c);
        assert_eq!(p.and(c, n), p.bool_const(false));
        assert_eq!(p.or(n, c), p.bool_const(true));
    }
    let e = p.eq(x, y);
    let ne = p.not(e);
    assert_eq!(p.and(e, ne), p.bool_const(false));
}

#[test]
fn eq_solves_through_add_xor_sub() {
    let mut p = ExprPool::new();
    let x = p.var("x", Sort::Bv(8));
    let (k3, k10) = (bv(&mut p, 8, 3), bv(&mut p, 8, 10));
    let expect = |p: &mut ExprPool, c| {
        let c = p.bv_const(8, c);
        p.intern(Expr::Eq(c, x), Sort::Bool)
    };
    let add = p.bin(BvOp::Add, x, k3);
    assert_eq!(p.eq(k10, add), expect(&mut p, 7));
    assert_eq!(p.eq(add, k10), expect(&mut p, 7));
    let xor = p.bin(BvOp::Xor, k3, x);
    assert_eq!(p.eq(xor, k10), expect(&mut p, 9));
    let sub = p.bin(BvOp::Sub, k3, x); // 10 = 3 - x  <=>  x = -7
    assert_eq!(p.eq(k10, sub), expect(&mut p, 249));
    let sub2 = p.bin(BvOp::Sub, x, k3); // 10 = x - 3  <=>  x = 13
    assert_eq!(p.eq(k10, sub2), expect(&mut p, 13));
}

#[test]
fn eq_through_extensions() {
    let mut p = ExprPool::new();
    let x = p.var("x", Sort::Bv(8));
    let zx = p.zext(x, 32);
    let sx = p.sext(x, 32);
    let k = bv(&mut p, 32, 200);
    let k8 = bv(&mut p, 8, 200);
    let direct = p.eq(k8, x);
    assert_eq!(p.eq(k, zx), direct);
    let big = bv(&mut p, 32, 256);
    assert_eq!(p.eq(big, zx), p.bool_const(false));
    // sext: 0xffffffc8 is sext of 0xc8; 200 is not a sign extension.
    let neg = bv(&mut p, 32, 0xffff_ffc8);
    assert_eq!(p.eq(neg, sx), direct);
    assert_eq!(p.eq(k, sx), p.bool_const(false));
}

#[test]
fn eq_and_cmp_through_constant_ite_undo_bool_encoding() {
    let mut p = ExprPool::new();
    let (x, y) = (p.var("x", Sort::Bv(32)), p.var("y", Sort::Bv(32)));
    let c = p.cmp(BvCmp::Slt, x, y);
    // The engine's i1 encoding: ite(c, 1, 0), zero-extended, compared to 1.
    let (one, zero) = (bv(&mut p, 1, 1), bv(&mut p, 1, 0));
    let b = p.ite(c, one, zero);
    let w = p.zext(b, 32);
    let one32 = bv(&mut p, 32, 1);
    let zero32 = bv(&mut p, 32, 0);
    assert_eq!(p.eq(one32, w), c);
    let nc = p.not(c);
    assert_eq!(p.eq(zero32, w), nc);
    let k5 = bv(&mut p, 32, 5);
    assert_eq!(p.eq(k5, w), p.bool_const(false));
    assert_eq!(p.cmp(BvCmp::Ult, zero32, w), c);
    let one1 = bv(&mut p, 1, 1);
    assert_eq!(p.eq(one1, b), c);
    // Operators fold into constant branches.
    let k = bv(&mut p, 32, 7);
    let sum = p.bin(BvOp::Add, w, k);
    let (k8, k7) = (bv(&mut p, 32, 8), bv(&mut p, 32, 7));
    assert_eq!(sum, p.ite(c, k8, k7));
    assert_eq!(p.sext(b, 8), {
        let (m, z) = (bv(&mut p, 8, 0xff), bv(&mut p, 8, 0));
        p.ite(c, m, z)
    });
}

#[test]
fn boolean_eq_and_ite() {
    let mut p = ExprPool::new();
    let (a, b) = (p.var("a", Sort::Bool), p.var("b", Sort::Bool));
    let (t, f) = (p.bool_const(true), p.bool_const(false));
    assert_eq!(p.eq(t, a), a);
    let na = p.not(a);
    assert_eq!(p.eq(a, f), na);
    assert_eq!(p.ite(a, t, f), a);
    assert_eq!(p.ite(a, f, t), na);
    assert_eq!(p.ite(a, t, b), p.or(a, b));
    assert_eq!(p.ite(a, b, f), p.and(a, b));
    let x = p.var("x", Sort::Bv(8));
    let y = p.var("y", Sort::Bv(8));
    assert_eq!(p.ite(na, x, y), p.ite(a, y, x));
}

#[test]
fn bin_canonical_forms() {
    let mut p = ExprPool::new();
    let x = p.var("x", Sort::Bv(16));
    let (k1, k2, k3) = (bv(&mut p, 16, 1), bv(&mut p, 16, 2), bv(&mut p, 16, 3));
    let s = p.bin(BvOp::Sub, x, k1);
    let m1 = bv(&mut p, 16, 0xffff);
    assert_eq!(s, p.intern(Expr::Bin { op: BvOp::Add, a: m1, b: x }, Sort::Bv(16)));
    let inner = p.bin(BvOp::Add, x, k1);
    let outer = p.bin(BvOp::Add, k2, inner);
    assert_eq!(outer, p.bin(BvOp::Add, k3, x));
    // x - 1 + 1 is x.
    assert_eq!(p.bin(BvOp::Add, s, k1), x);
    let m = p.bin(BvOp::Mul, k2, x);
    let k6 = bv(&mut p, 16, 6);
    assert_eq!(p.bin(BvOp::Mul, m, k3), p.bin(BvOp::Mul, k6, x));
    assert_eq!(p.bin(BvOp::Xor, x, x), bv(&mut p, 16, 0));
    assert_eq!(p.bin(BvOp::Sub, x, x), bv(&mut p, 16, 0));
    assert_eq!(p.bin(BvOp::And, x, x), x);
    assert_eq!(p.bin(BvOp::And, x, m1), x);
    assert_eq!(p.bin(BvOp::Or, m1, x), m1);
    let big = bv(&mut p, 16, 16);
    assert_eq!(p.bin(BvOp::Shl, x, big), bv(&mut p, 16, 0));
    assert_ne!(p.bin(BvOp::AShr, x, big), bv(&mut p, 16, 0));
}

#[test]
fn comparisons_against_bounds_are_decided() {
    let mut p = ExprPool::new();
    let x = p.var("x", Sort::Bv(8));
    let (t, f) = (p.bool_const(true), p.bool_const(false));
    let (zero, max, smin, smax) = (bv(&mut p, 8, 0), bv(&mut p, 8, 0xff), bv(&mut p, 8, 0x80), bv(&mut p, 8, 0x7f));
    assert_eq!(p.cmp(BvCmp::Ult, x, zero), f);
    assert_eq!(p.cmp(BvCmp::Ult, max, x), f);
    assert_eq!(p.cmp(BvCmp::Ule, zero, x), t);
    assert_eq!(p.cmp(BvCmp::Ule, x, max), t);
    assert_eq!(p.cmp(BvCmp::Slt, x, smin), f);
    assert_eq!(p.cmp(BvCmp::Slt, smax, x), f);
    assert_eq!(p.cmp(BvCmp::Sle, smin, x), t);
    assert_eq!(p.cmp(BvCmp::Sle, x, smax), t);
    // Not decided:
    let lt = p.cmp(BvCmp::Slt, x, zero);
    assert!(matches!(p.get(lt), Expr::Cmp { .. }));
}

#[test]
fn signed_multiplication_check_canonical_forms() {
    let mut p = ExprPool::new();
    let (x, y) = (p.var("x", Sort::Bv(8)), p.var("y", Sort::Bv(8)));
    let t = p.bool_const(true);
    let (zero, one, m1, k) = (bv(&mut p, 8, 0), bv(&mut p, 8, 1), bv(&mut p, 8, 0xff), bv(&mut p, 8, 0x80));
    assert_eq!(p.smul_no_overflow(x, zero), t);
    assert_eq!(p.smul_no_overflow(one, x), t);
    // -1 * -128 overflows: decided on constants, kept on a variable.
    let f = p.bool_const(false);
    assert_eq!(p.smul_no_overflow(m1, k), f);
    let xm1 = p.smul_no_overflow(x, m1);
    assert_eq!(p.get(xm1), &Expr::SMulNoOverflow(m1, x));
    let (yx, xy) = (p.smul_no_overflow(y, x), p.smul_no_overflow(x, y));
    assert_eq!(yx, xy);
    // In one bit, 1 is -1 and (-1) * (-1) overflows.
    let b = p.var("b", Sort::Bv(1));
    let one1 = bv(&mut p, 1, 1);
    let b1 = p.smul_no_overflow(b, one1);
    assert!(matches!(p.get(b1), Expr::SMulNoOverflow(..)));
}

#[test]
fn extension_and_extraction_merge() {
    let mut p = ExprPool::new();
    let x = p.var("x", Sort::Bv(8));
    let z16 = p.zext(x, 16);
    assert_eq!(p.zext(z16, 32), p.zext(x, 32));
    let s16 = p.sext(x, 16);
    assert_eq!(p.sext(s16, 32), p.sext(x, 32));
    assert_eq!(p.sext(z16, 32), p.zext(x, 32));
    let z32 = p.zext(x, 32);
    assert_eq!(p.extract(z32, 7, 0), x);
    assert_eq!(p.extract(z32, 5, 2), p.extract(x, 5, 2));
    assert_eq!(p.extract(z32, 31, 8), bv(&mut p, 24, 0));
    let s32 = p.sext(x, 32);
    assert_eq!(p.extract(s32, 3, 0), p.extract(x, 3, 0));
    let y = p.var("y", Sort::Bv(32));
    let e1 = p.extract(y, 23, 8);
    assert_eq!(p.extract(e1, 11, 4), p.extract(y, 19, 12));
}

/// A term built without any simplification, with its own naive semantics.
#[derive(Clone, Debug)]
enum T {
    Var(ExprId, Sort),
    Bv(#[allow(dead_code)] u32, u64),
    Bool(bool),
    Not(Box<T>),
    And(Box<T>, Box<T>),
    Or(Box<T>, Box<T>),
    Eq(Box<T>, Box<T>),
    Bin(BvOp, u32, Box<T>, Box<T>),
    Cmp(BvCmp, u32, Box<T>, Box<T>),
    SMulFits(u32, Box<T>, Box<T>),
    Ite(Box<T>, Box<T>, Box<T>),
    ZExt(#[allow(dead_code)] u32, Box<T>),
    SExt(u32, u32, Box<T>),
    Extract(u32, u32, Box<T>),
    Select(Box<T>, Box<T>),
    Store(Box<T>, Box<T>, Box<T>),
    ConstArray(Box<T>),
}

#[derive(Clone, Debug, PartialEq)]
enum V {
    B(bool),
    N(u64),
    A(ArrayValue),
}

fn reference(t: &T, m: &Model) -> V {
    let n = |t: &T| match reference(t, m) {
        V::N(v) => v,
        V::B(b) => b as u64,
        V::A(_) => panic!(),
    };
    let b = |t: &T| n(t) != 0;
    match t {
        T::Var(id, Sort::Array { .. }) => V::A(m.arrays.get(id).cloned().unwrap_or_default()),
        T::Var(id, Sort::Bool) => V::B(m.bv.get(id).is_some_and(|&v| v != 0)),
        T::Var(id, Sort::Bv(_)) => V::N(m.bv.get(id).copied().unwrap_or(0)),
        T::Bv(_, v) => V::N(*v),
        T::Bool(x) => V::B(*x),
        T::Not(a) => V::B(!b(a)),
        T::And(x, y) => V::B(b(x) && b(y)),
        T::Or(x, y) => V::B(b(x) || b(y)),
        T::Eq(x, y) => V::B(n(x) == n(y)),
        T::Bin(op, w, x, y) => V::N(eval_bin(*op, *w, n(x), n(y))),
        T::Cmp(op, w, x, y) => V::B(eval_cmp(*op, *w, n(x), n(y))),
        T::SMulFits(w, x, y) => {
            let product = to_signed(n(x), *w) as i128 * to_signed(n(y), *w) as i128;
            V::B(product == to_signed(product as u64, *w) as i128)
        }
        T::Ite(c, x, y) => reference(if b(c) { x } else { y }, m),
        T::ZExt(_, x) => V::N(n(x)),
        T::SExt(from, to, x) => V::N(to_signed(n(x), *from) as u64 & mask(*to)),
        T::Extract(hi, lo, x) => V::N((n(x) >> lo) & mask(hi - lo + 1)),
        T::Select(a, i) => match reference(a, m) {
            V::A(a) => V::N(a.get(n(i))),
            _ => panic!(),
        },
        T::Store(a, i, v) => match reference(a, m) {
            V::A(mut a) => {
                a.entries.insert(n(i), n(v));
                V::A(a)
            }
            _ => panic!(),
        },
        T::ConstArray(v) => V::A(ArrayValue { default: n(v), entries: Default::default() }),
    }
}

struct Gen {
    state: u64,
    vars: Vec<(ExprId, Sort)>,
}

impl Gen {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn constant(&mut self, w: u32) -> u64 {
        let m = mask(w);
        match self.below(6) {
            0 => 0,
            1 => 1,
            2 => m,
            3 => (1u64 << (w - 1)) & m,
            4 => self.below(4) & m,
            _ => self.next() & m,
        }
    }

    fn var_of(&mut self, p: &mut ExprPool, sort: Sort) -> ExprId {
        let k = self.below(2);
        let name = format!("{sort:?}{k}");
        let id = p.var(&name, sort);
        if !self.vars.contains(&(id, sort)) {
            self.vars.push((id, sort));
        }
        id
    }

    fn bv(&mut self, p: &mut ExprPool, w: u32, d: u32) -> (ExprId, T) {
        if d == 0 || self.below(5) == 0 {
            if self.below(2) == 0 {
                let v = self.constant(w);
                return (p.bv_const(w, v), T::Bv(w, v));
            }
            let id = self.var_of(p, Sort::Bv(w));
            return (id, T::Var(id, Sort::Bv(w)));
        }
        let widths = [1, 8, 16, 32, 64];
        match self.below(7) {
            0 | 1 => {
                let ops = BvOp::ALL;
                let op = ops[self.below(ops.len() as u64) as usize];
                let (a, ta) = self.bv(p, w, d - 1);
                let (b, tb) = self.bv(p, w, d - 1);
                (p.bin(op, a, b), T::Bin(op, w, Box::new(ta), Box::new(tb)))
            }
            2 => {
                let (c, tc) = self.boolean(p, d - 1);
                let (a, ta) = self.bv(p, w, d - 1);
                let (b, tb) = self.bv(p, w, d - 1);
                (p.ite(c, a, b), T::Ite(Box::new(tc), Box::new(ta), Box::new(tb)))
            }
            3 if w > 1 => {
                let from = widths.iter().copied().filter(|&x| x < w).nth(self.below(4) as usize).unwrap_or(1);
                let (a, ta) = self.bv(p, from, d - 1);
                if self.below(2) == 0 {
                    (p.zext(a, w), T::ZExt(w, Box::new(ta)))
                } else {
                    (p.sext(a, w), T::SExt(from, w, Box::new(ta)))
                }
            }
            4 if w < 64 => {
                let from = widths.iter().copied().filter(|&x| x > w).nth(self.below(4) as usize).unwrap_or(64);
                let lo = self.below((from - w + 1) as u64) as u32;
                let (a, ta) = self.bv(p, from, d - 1);
                (p.extract(a, lo + w - 1, lo), T::Extract(lo + w - 1, lo, Box::new(ta)))
            }
            5 if w == 8 => {
                let (arr, tarr) = self.array(p, d - 1);
                let (i, ti) = self.bv(p, 8, d - 1);
                (p.select(arr, i), T::Select(Box::new(tarr), Box::new(ti)))
            }
            _ => {
                // Bias towards the encodings the engine produces: ite(c, k1, k2).
                let (c, tc) = self.boolean(p, d - 1);
                let (k1, k2) = (self.constant(w), self.constant(w));
                let (a, b) = (p.bv_const(w, k1), p.bv_const(w, k2));
                (p.ite(c, a, b), T::Ite(Box::new(tc), Box::new(T::Bv(w, k1)), Box::new(T::Bv(w, k2))))
            }
        }
    }

    fn array(&mut self, p: &mut ExprPool, d: u32) -> (ExprId, T) {
        let sort = Sort::Array { index: 8, elem: 8 };
        if d == 0 || self.below(3) == 0 {
            let id = self.var_of(p, sort);
            return (id, T::Var(id, sort));
        }
        match self.below(4) {
            0 => {
                let (v, tv) = self.bv(p, 8, d - 1);
                (p.const_array(8, v), T::ConstArray(Box::new(tv)))
            }
            1 => {
                let (c, tc) = self.boolean(p, d - 1);
                let (a, ta) = self.array(p, d - 1);
                let (b, tb) = self.array(p, d - 1);
                (p.ite(c, a, b), T::Ite(Box::new(tc), Box::new(ta), Box::new(tb)))
            }
            _ => {
                let (a, ta) = self.array(p, d - 1);
                let (i, ti) = self.bv(p, 8, d - 1);
                let (v, tv) = self.bv(p, 8, d - 1);
                (p.store(a, i, v), T::Store(Box::new(ta), Box::new(ti), Box::new(tv)))
            }
        }
    }

    fn boolean(&mut self, p: &mut ExprPool, d: u32) -> (ExprId, T) {
        if d == 0 || self.below(6) == 0 {
            if self.below(3) == 0 {
                let b = self.below(2) == 0;
                return (p.bool_const(b), T::Bool(b));
            }
            let id = self.var_of(p, Sort::Bool);
            return (id, T::Var(id, Sort::Bool));
        }
        let w = [1, 8, 16, 32, 64][self.below(5) as usize];
        match self.below(8) {
            0 => {
                let (a, ta) = self.boolean(p, d - 1);
                (p.not(a), T::Not(Box::new(ta)))
            }
            1 | 2 => {
                let (a, ta) = self.boolean(p, d - 1);
                let (b, tb) = self.boolean(p, d - 1);
                if self.below(2) == 0 {
                    (p.and(a, b), T::And(Box::new(ta), Box::new(tb)))
                } else {
                    (p.or(a, b), T::Or(Box::new(ta), Box::new(tb)))
                }
            }
            3 => {
                let (a, ta) = self.bv(p, w, d - 1);
                let (b, tb) = self.bv(p, w, d - 1);
                (p.eq(a, b), T::Eq(Box::new(ta), Box::new(tb)))
            }
            4 => {
                let (c, tc) = self.boolean(p, d - 1);
                let (a, ta) = self.boolean(p, d - 1);
                let (b, tb) = self.boolean(p, d - 1);
                (p.ite(c, a, b), T::Ite(Box::new(tc), Box::new(ta), Box::new(tb)))
            }
            7 => {
                let (a, ta) = self.bv(p, w, d - 1);
                let (b, tb) = if self.below(2) == 0 {
                    let k = self.constant(w);
                    (p.bv_const(w, k), T::Bv(w, k))
                } else {
                    self.bv(p, w, d - 1)
                };
                (p.smul_no_overflow(a, b), T::SMulFits(w, Box::new(ta), Box::new(tb)))
            }
            _ => {
                let ops = [BvCmp::Ult, BvCmp::Ule, BvCmp::Slt, BvCmp::Sle];
                let op = ops[self.below(4) as usize];
                let (a, ta) = self.bv(p, w, d - 1);
                let (b, tb) = if self.below(2) == 0 {
                    let k = self.constant(w);
                    (p.bv_const(w, k), T::Bv(w, k))
                } else {
                    self.bv(p, w, d - 1)
                };
                (p.cmp(op, a, b), T::Cmp(op, w, Box::new(ta), Box::new(tb)))
            }
        }
    }

    fn model(&mut self) -> Model {
        let mut m = Model::default();
        for (id, sort) in self.vars.clone() {
            match sort {
                Sort::Bool => {
                    m.bv.insert(id, self.below(2));
                }
                Sort::Bv(w) => {
                    let v = self.constant(w);
                    m.bv.insert(id, v);
                }
                Sort::Array { .. } => {
                    let mut a = ArrayValue { default: self.constant(8), entries: Default::default() };
                    for _ in 0..self.below(4) {
                        let (i, v) = (self.below(4), self.constant(8));
                        a.entries.insert(i, v);
                    }
                    m.arrays.insert(id, a);
                }
            }
        }
        m
    }
}

#[test]
fn random_terms_keep_their_value_through_the_builders() {
    let mut g = Gen { state: 0x5eed, vars: Vec::new() };
    let mut p = ExprPool::new();
    for round in 0..4000 {
        let (id, t) = if round % 2 == 0 {
            g.boolean(&mut p, 5)
        } else {
            let w = [1, 8, 16, 32, 64][g.below(5) as usize];
            g.bv(&mut p, w, 5)
        };
        for _ in 0..4 {
            let m = g.model();
            let want = match reference(&t, &m) {
                V::B(b) => Value::Bool(b),
                V::N(v) => Value::Bv(v),
                V::A(a) => Value::Array(a),
            };
            assert_eq!(eval(&p, id, &m), want, "round {round}: {} from {t:?}", p.display(id));
        }
    }
}

//! Fixed-width integers and conditions that are concrete with an optional
//! symbolic shadow, the arithmetic library models compute with.
//!
//! Each operation computes this run's value and, when an operand is
//! symbolic, the expression (constants stay unshadowed, so concrete
//! arguments never produce path entries). Models thus write one piece of
//! code for concrete and symbolic arguments, and a result is exactly the
//! C function's on every input, not only on this run's.

use pathwise_expr::ops::{eval_bin, eval_cmp, mask};
use pathwise_expr::{BvCmp, BvOp, ExprId, ExprPool};

use crate::value::{bv_of, non_const, Value};

/// A condition: its outcome in this run and, when it depends on inputs,
/// its expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cond {
    pub holds: bool,
    pub sym: Option<ExprId>,
}

impl Cond {
    pub fn konst(holds: bool) -> Cond {
        Cond { holds, sym: None }
    }

    fn of(pool: &ExprPool, holds: bool, e: Option<ExprId>) -> Cond {
        Cond { holds, sym: e.and_then(|e| non_const(pool, e)) }
    }

    fn expr(self, pool: &mut ExprPool) -> ExprId {
        self.sym.unwrap_or_else(|| pool.bool_const(self.holds))
    }

    pub fn not(self, pool: &mut ExprPool) -> Cond {
        let e = self.sym.map(|e| pool.not(e));
        Cond::of(pool, !self.holds, e)
    }

    pub fn and(self, pool: &mut ExprPool, o: Cond) -> Cond {
        let holds = self.holds && o.holds;
        if self.sym.is_none() && o.sym.is_none() {
            return Cond::konst(holds);
        }
        let (a, b) = (self.expr(pool), o.expr(pool));
        let e = pool.and(a, b);
        Cond::of(pool, holds, Some(e))
    }

    pub fn or(self, pool: &mut ExprPool, o: Cond) -> Cond {
        let holds = self.holds || o.holds;
        if self.sym.is_none() && o.sym.is_none() {
            return Cond::konst(holds);
        }
        let (a, b) = (self.expr(pool), o.expr(pool));
        let e = pool.or(a, b);
        Cond::of(pool, holds, Some(e))
    }

    /// The disjunction of `conds` (false when empty).
    pub fn any(pool: &mut ExprPool, conds: impl IntoIterator<Item = Cond>) -> Cond {
        conds.into_iter().fold(Cond::konst(false), |acc, c| acc.or(pool, c))
    }
}

/// A `w`-bit integer (1..=64 bits), concrete bits with an optional
/// expression of width `w`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Int {
    pub conc: u64,
    pub sym: Option<ExprId>,
    pub w: u32,
}

impl Int {
    pub fn konst(v: u64, w: u32) -> Int {
        Int { conc: v & mask(w), sym: None, w }
    }

    /// The low `w` bits of a register or memory value (an expression of
    /// another width is truncated or zero-extended to `w` bits).
    pub fn of(pool: &mut ExprPool, v: Value, w: u32) -> Int {
        let conc = v.conc() & mask(w);
        let sym = v.sym().map(|e| {
            let e = bv_of(pool, v.conc(), Some(e), w);
            let ew = pool.width(e);
            match ew.cmp(&w) {
                std::cmp::Ordering::Greater => pool.extract(e, w - 1, 0),
                std::cmp::Ordering::Less => pool.zext(e, w),
                std::cmp::Ordering::Equal => e,
            }
        });
        Int { conc, sym: sym.and_then(|e| non_const(pool, e)), w }
    }

    pub fn value(self) -> Value {
        Value::Int { conc: self.conc, sym: self.sym }
    }

    pub fn expr(self, pool: &mut ExprPool) -> ExprId {
        self.sym.unwrap_or_else(|| pool.bv_const(self.w, self.conc))
    }

    /// The value as a C signed integer of `w` bits.
    pub fn signed(self) -> i64 {
        pathwise_expr::ops::to_signed(self.conc, self.w)
    }

    fn with(pool: &ExprPool, conc: u64, e: Option<ExprId>, w: u32) -> Int {
        Int { conc: conc & mask(w), sym: e.and_then(|e| non_const(pool, e)), w }
    }

    /// `self op o` in `w` bits (wrapping; division by zero is the caller's
    /// concern).
    pub fn bin(self, pool: &mut ExprPool, op: BvOp, o: Int) -> Int {
        let conc = eval_bin(op, self.w, self.conc, o.conc);
        if self.sym.is_none() && o.sym.is_none() {
            return Int::konst(conc, self.w);
        }
        let (a, b) = (self.expr(pool), o.expr(pool));
        let e = pool.bin(op, a, b);
        Int::with(pool, conc, Some(e), self.w)
    }

    /// `self op k` for a constant `k`.
    pub fn binc(self, pool: &mut ExprPool, op: BvOp, k: u64) -> Int {
        self.bin(pool, op, Int::konst(k, self.w))
    }

    pub fn cmp(self, pool: &mut ExprPool, op: BvCmp, o: Int) -> Cond {
        let holds = eval_cmp(op, self.w, self.conc, o.conc);
        if self.sym.is_none() && o.sym.is_none() {
            return Cond::konst(holds);
        }
        let (a, b) = (self.expr(pool), o.expr(pool));
        let e = pool.cmp(op, a, b);
        Cond::of(pool, holds, Some(e))
    }

    pub fn eq(self, pool: &mut ExprPool, o: Int) -> Cond {
        let holds = self.conc == o.conc;
        if self.sym.is_none() && o.sym.is_none() {
            return Cond::konst(holds);
        }
        let (a, b) = (self.expr(pool), o.expr(pool));
        let e = pool.eq(a, b);
        Cond::of(pool, holds, Some(e))
    }

    pub fn eqc(self, pool: &mut ExprPool, k: u64) -> Cond {
        self.eq(pool, Int::konst(k, self.w))
    }

    pub fn is_zero(self, pool: &mut ExprPool) -> Cond {
        self.eqc(pool, 0)
    }

    /// `lo <= self <= hi`, unsigned.
    pub fn in_range(self, pool: &mut ExprPool, lo: u64, hi: u64) -> Cond {
        if lo == hi {
            return self.eqc(pool, lo);
        }
        // One comparison: `self - lo <=u hi - lo`.
        let d = self.binc(pool, BvOp::Sub, lo);
        d.cmp(pool, BvCmp::Ule, Int::konst(hi.wrapping_sub(lo), self.w))
    }

    pub fn zext(self, pool: &mut ExprPool, w: u32) -> Int {
        if w <= self.w {
            return self.trunc(pool, w);
        }
        let e = self.sym.map(|e| pool.zext(e, w));
        Int::with(pool, self.conc, e, w)
    }

    pub fn trunc(self, pool: &mut ExprPool, w: u32) -> Int {
        if w >= self.w {
            return self;
        }
        let e = self.sym.map(|e| pool.extract(e, w - 1, 0));
        Int::with(pool, self.conc, e, w)
    }

    /// `c ? a : b` (operands of one width).
    pub fn ite(pool: &mut ExprPool, c: Cond, a: Int, b: Int) -> Int {
        let conc = if c.holds { a.conc } else { b.conc };
        match c.sym {
            None => {
                if c.holds {
                    a
                } else {
                    b
                }
            }
            Some(ce) => {
                if a.sym.is_none() && b.sym.is_none() && a.conc == b.conc {
                    return a;
                }
                let (ea, eb) = (a.expr(pool), b.expr(pool));
                let e = pool.ite(ce, ea, eb);
                Int::with(pool, conc, Some(e), a.w)
            }
        }
    }

    /// The larger of two unsigned values.
    pub fn umax(self, pool: &mut ExprPool, o: Int) -> Int {
        let less = self.cmp(pool, BvCmp::Ult, o);
        Int::ite(pool, less, o, self)
    }

    /// 1 when `c` holds, else 0, in `w` bits.
    pub fn from_cond(pool: &mut ExprPool, c: Cond, w: u32) -> Int {
        Int::ite(pool, c, Int::konst(1, w), Int::konst(0, w))
    }
}

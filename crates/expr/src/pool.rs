//! Hash-consed expressions.
//!
//! Canonical forms maintained by the builders (so that caches hit and the
//! solver sees small terms). Every rewrite is a cheap, local, semantics-
//! preserving step (checked against the concrete evaluator in the tests):
//! - no operator node has only constant operands (it is folded);
//! - comparisons are `eq`, `ult`, `ule`, `slt`, `sle` only; `ne` is `not eq`
//!   and greater-than swaps operands; comparisons that are decided by a
//!   bound (`x <u 0`, `x <=u max`, `MIN <=s x`, ...) fold to constants;
//! - `not (not a)` is `a`; `not (a < b)` is `b <= a` (and `not (a <= b)` is
//!   `b < a`, signed and unsigned), so a branch condition and its negation
//!   are both plain comparisons;
//! - `and`/`or` with a constant operand, equal operands, or complementary
//!   operands (`a`, `not a`) are simplified;
//! - `eq` puts a constant operand first; `eq(true, a)` is `a`, `eq(false, a)`
//!   is `not a`; with a constant `c` on the left it solves through
//!   `c = k + x`, `c = k ^ x`, `c = k - x` (to `c' = x`), through extensions
//!   (`c = zext(x)` becomes `c' = x` or `false` when `c` does not fit), and
//!   through a constant-branch `ite` (`c = ite(p, k1, k2)` becomes `p`,
//!   `not p` or `false`), which undoes the engine's `i1` to bit-vector
//!   encoding `ite(p, 1, 0)`;
//! - commutative bit-vector operators put a constant operand first; `x - k`
//!   is `(-k) + x`; nested constants of an associative operator are combined
//!   (`k1 + (k2 + x)` is `(k1+k2) + x`, same for `*`, `&`, `|`, `^`);
//!   identities and absorbing elements fold (`x + 0`, `x & 0`, `x & ~0`,
//!   `x ^ x`, `x - x`, ...);
//! - an operator, comparison, extension or extraction applied to an `ite`
//!   whose branches are constants (and to constants) is pushed into the
//!   branches, so it folds;
//! - boolean `ite(p, true, false)` is `p`, `ite(p, false, true)` is `not p`,
//!   and `ite(not p, a, b)` is `ite(p, b, a)`;
//! - nested extensions merge (`zext(zext(x))`, `sext(sext(x))`,
//!   `sext(zext(x))` with a wider inner extension), and an extraction from
//!   an extension reads the source or folds to zero;
//! - a `select` from a `store` at a different constant index reads through;
//! - `smul_no_overflow` (commutative) puts a constant operand first, holds
//!   when an operand is 0 (or 1, above one bit), and folds on constants and
//!   constant-branch `ite`s like a comparison.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};

use rustc_hash::FxHashMap;

use crate::float::{FpCmp, FpConv, FpFmt, FpOp, FpUn, Rounding};
use crate::ops::{eval_bin, eval_cmp, mask, smul_fits, to_signed, BvCmp, BvOp};

/// An expression, identified by its index in the [`ExprPool`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ExprId(pub u32);

/// The sort of an expression.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Sort {
    Bool,
    /// Bit-vector of 1..=64 bits.
    Bv(u32),
    /// Array from `index`-bit to `elem`-bit bit-vectors.
    Array {
        index: u32,
        elem: u32,
    },
}

/// One expression node. Children are [`ExprId`]s of the same pool.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Expr {
    BoolConst(bool),
    BvConst {
        width: u32,
        value: u64,
    },
    /// A free variable (an input) of bit-vector or array sort.
    Var {
        name: String,
        sort: Sort,
    },
    Not(ExprId),
    And(ExprId, ExprId),
    Or(ExprId, ExprId),
    /// Equality of two expressions of the same sort (bool or bit-vector).
    Eq(ExprId, ExprId),
    Bin {
        op: BvOp,
        a: ExprId,
        b: ExprId,
    },
    Cmp {
        op: BvCmp,
        a: ExprId,
        b: ExprId,
    },
    /// Whether the signed product of two bit-vectors of one width fits in
    /// that width (C's signed `a * b` does not overflow). A predicate of its
    /// own because the solver checks it with a dedicated circuit, while
    /// both encodings with other operators are slow at 64 bits: a division
    /// (`r / a == b`) or a product in twice the width, which this pool's
    /// 64-bit limit cannot express anyway.
    SMulNoOverflow(ExprId, ExprId),
    Ite {
        cond: ExprId,
        then_: ExprId,
        else_: ExprId,
    },
    ZExt {
        a: ExprId,
        width: u32,
    },
    SExt {
        a: ExprId,
        width: u32,
    },
    /// Bits `hi..=lo` of `a`.
    Extract {
        a: ExprId,
        hi: u32,
        lo: u32,
    },
    Select {
        array: ExprId,
        index: ExprId,
    },
    Store {
        array: ExprId,
        index: ExprId,
        value: ExprId,
    },
    /// The array mapping every index to `value` (a bit-vector expression).
    ConstArray {
        index: u32,
        value: ExprId,
    },
    /// Floating arithmetic on IEEE bits (see [`crate::float`]): the bits
    /// of the rounded result.
    FBin {
        op: FpOp,
        /// The rounding direction (to nearest unless `fesetround` said
        /// otherwise).
        rnd: Rounding,
        fmt: FpFmt,
        a: ExprId,
        b: ExprId,
    },
    /// A unary floating operator on IEEE bits (square root, rounding to an
    /// integral value): the result's bits.
    FUn {
        op: FpUn,
        fmt: FpFmt,
        a: ExprId,
    },
    /// An ordered floating comparison of IEEE bits (a boolean).
    FCmp {
        op: FpCmp,
        fmt: FpFmt,
        a: ExprId,
        b: ExprId,
    },
    /// A conversion between floating formats, or between an integer and a
    /// floating format.
    FConv {
        op: FpConv,
        a: ExprId,
    },
}

/// The arena that owns all expressions and hash-conses them.
pub struct ExprPool {
    nodes: Vec<Expr>,
    sorts: Vec<Sort>,
    /// Per node: whether it contains a floating operator.
    floats: Vec<bool>,
    map: FxHashMap<Expr, ExprId>,
    /// Process-unique identity (see [`ExprPool::uid`]).
    uid: u64,
}

/// Source of [`ExprPool::uid`]s.
static NEXT_POOL_UID: AtomicU64 = AtomicU64::new(1);

impl Default for ExprPool {
    fn default() -> ExprPool {
        ExprPool {
            nodes: Vec::new(),
            sorts: Vec::new(),
            floats: Vec::new(),
            map: FxHashMap::default(),
            uid: NEXT_POOL_UID.fetch_add(1, AtomicOrdering::Relaxed),
        }
    }
}

impl ExprPool {
    pub fn new() -> ExprPool {
        ExprPool::default()
    }

    /// A copy of this pool under an identity of its own: the same ids mean
    /// the same terms in both, and each grows on its own from here (a
    /// parallel search's subtree starts from its giver's pool, so that
    /// what the giver learnt about its ids, its query cache, still holds).
    pub fn fork(&self) -> ExprPool {
        ExprPool {
            nodes: self.nodes.clone(),
            sorts: self.sorts.clone(),
            floats: self.floats.clone(),
            map: self.map.clone(),
            ..ExprPool::default()
        }
    }

    /// An identity that no other pool of this process shares.
    ///
    /// Pools only grow, so an [`ExprId`] means the same term for the whole
    /// life of a pool; side tables keyed by ids (translation caches, query
    /// caches, variable tables) stay valid as long as they are used with the
    /// same pool, and key on (or reset at a change of) this uid otherwise.
    pub fn uid(&self) -> u64 {
        self.uid
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn get(&self, id: ExprId) -> &Expr {
        &self.nodes[id.0 as usize]
    }

    pub fn sort(&self, id: ExprId) -> Sort {
        self.sorts[id.0 as usize]
    }

    /// Width of a bit-vector expression (panics on other sorts: a builder bug).
    pub fn width(&self, id: ExprId) -> u32 {
        match self.sort(id) {
            Sort::Bv(w) => w,
            s => panic!("expected a bit-vector, found {s:?}"),
        }
    }

    pub(crate) fn intern(&mut self, e: Expr, sort: Sort) -> ExprId {
        if let Some(&id) = self.map.get(&e) {
            return id;
        }
        let id = ExprId(self.nodes.len() as u32);
        let float = crate::float::is_float_node(&e) || children(&e).iter().any(|k| self.floats[k.0 as usize]);
        self.floats.push(float);
        self.nodes.push(e.clone());
        self.sorts.push(sort);
        self.map.insert(e, id);
        id
    }

    pub(crate) fn float_flag(&self, id: ExprId) -> bool {
        self.floats[id.0 as usize]
    }

    /// The constant value of a bit-vector constant.
    pub fn as_bv_const(&self, id: ExprId) -> Option<u64> {
        match self.get(id) {
            Expr::BvConst { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// The value of a boolean constant.
    pub fn as_bool_const(&self, id: ExprId) -> Option<bool> {
        match self.get(id) {
            Expr::BoolConst(b) => Some(*b),
            _ => None,
        }
    }

    pub fn bool_const(&mut self, b: bool) -> ExprId {
        self.intern(Expr::BoolConst(b), Sort::Bool)
    }

    pub fn bv_const(&mut self, width: u32, value: u64) -> ExprId {
        assert!((1..=64).contains(&width), "bit-vector width {width}");
        self.intern(Expr::BvConst { width, value: value & mask(width) }, Sort::Bv(width))
    }

    /// A named variable; the same name and sort give the same id.
    pub fn var(&mut self, name: &str, sort: Sort) -> ExprId {
        self.intern(Expr::Var { name: name.to_string(), sort }, sort)
    }

    pub fn not(&mut self, a: ExprId) -> ExprId {
        match *self.get(a) {
            Expr::BoolConst(b) => self.bool_const(!b),
            Expr::Not(inner) => inner,
            // The negation of a comparison is the converse comparison, so a
            // branch condition and its negation are both single nodes (and
            // the rewrite is an involution: negating twice gives `a` back).
            Expr::Cmp { op, a: x, b: y } => {
                let neg = match op {
                    BvCmp::Ult => BvCmp::Ule,
                    BvCmp::Ule => BvCmp::Ult,
                    BvCmp::Slt => BvCmp::Sle,
                    BvCmp::Sle => BvCmp::Slt,
                };
                self.cmp(neg, y, x)
            }
            _ => self.intern(Expr::Not(a), Sort::Bool),
        }
    }

    /// Whether `a` and `b` are syntactically each other's negation.
    fn complementary(&self, a: ExprId, b: ExprId) -> bool {
        match (self.get(a), self.get(b)) {
            (Expr::Not(x), _) if *x == b => true,
            (_, Expr::Not(y)) if *y == a => true,
            (Expr::Cmp { op: o1, a: a1, b: b1 }, Expr::Cmp { op: o2, a: a2, b: b2 }) => {
                a1 == b2
                    && b1 == a2
                    && matches!(
                        (o1, o2),
                        (BvCmp::Ult, BvCmp::Ule)
                            | (BvCmp::Ule, BvCmp::Ult)
                            | (BvCmp::Slt, BvCmp::Sle)
                            | (BvCmp::Sle, BvCmp::Slt)
                    )
            }
            _ => false,
        }
    }

    pub fn and(&mut self, a: ExprId, b: ExprId) -> ExprId {
        match (self.as_bool_const(a), self.as_bool_const(b)) {
            (Some(false), _) | (_, Some(false)) => self.bool_const(false),
            (Some(true), _) => b,
            (_, Some(true)) => a,
            _ if a == b => a,
            _ if self.complementary(a, b) => self.bool_const(false),
            _ => {
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                self.intern(Expr::And(a, b), Sort::Bool)
            }
        }
    }

    pub fn or(&mut self, a: ExprId, b: ExprId) -> ExprId {
        match (self.as_bool_const(a), self.as_bool_const(b)) {
            (Some(true), _) | (_, Some(true)) => self.bool_const(true),
            (Some(false), _) => b,
            (_, Some(false)) => a,
            _ if a == b => a,
            _ if self.complementary(a, b) => self.bool_const(true),
            _ => {
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                self.intern(Expr::Or(a, b), Sort::Bool)
            }
        }
    }

    pub fn eq(&mut self, a: ExprId, b: ExprId) -> ExprId {
        if a == b {
            return self.bool_const(true);
        }
        match (self.get(a), self.get(b)) {
            (Expr::BvConst { value: x, .. }, Expr::BvConst { value: y, .. }) => {
                let r = x == y;
                self.bool_const(r)
            }
            (Expr::BoolConst(x), Expr::BoolConst(y)) => {
                let r = x == y;
                self.bool_const(r)
            }
            _ => {
                // Constants go first so that `x == 3` and `3 == x` share a node.
                let (a, b) = if self.is_const(b) || (!self.is_const(a) && b < a) { (b, a) } else { (a, b) };
                if let Some(r) = self.eq_with_const(a, b) {
                    return r;
                }
                self.intern(Expr::Eq(a, b), Sort::Bool)
            }
        }
    }

    /// Rewrites of `a == b` when `a` is a constant (and `b` is not): solve
    /// for the inner operand of an invertible operation, or decide the
    /// equation. `None` when no rewrite applies.
    fn eq_with_const(&mut self, a: ExprId, b: ExprId) -> Option<ExprId> {
        if let Some(c) = self.as_bool_const(a) {
            return Some(if c { b } else { self.not(b) });
        }
        let c = self.as_bv_const(a)?;
        let w = self.width(b);
        let solved = |pool: &mut ExprPool, k: u64, x: ExprId| {
            let k = pool.bv_const(w, k);
            pool.eq(k, x)
        };
        match *self.get(b) {
            Expr::Bin { op: BvOp::Add, a: k, b: x } => {
                let k = self.as_bv_const(k)?;
                Some(solved(self, c.wrapping_sub(k), x))
            }
            Expr::Bin { op: BvOp::Xor, a: k, b: x } => {
                let k = self.as_bv_const(k)?;
                Some(solved(self, c ^ k, x))
            }
            // c = k - x  <=>  x = k - c
            Expr::Bin { op: BvOp::Sub, a: k, b: x } => {
                let k = self.as_bv_const(k)?;
                Some(solved(self, k.wrapping_sub(c), x))
            }
            Expr::ZExt { a: x, .. } => {
                let wx = self.width(x);
                if c >> wx != 0 {
                    return Some(self.bool_const(false));
                }
                let k = self.bv_const(wx, c);
                Some(self.eq(k, x))
            }
            Expr::SExt { a: x, .. } => {
                let wx = self.width(x);
                let t = c & mask(wx);
                if (to_signed(t, wx) as u64) & mask(w) != c {
                    return Some(self.bool_const(false));
                }
                let k = self.bv_const(wx, t);
                Some(self.eq(k, x))
            }
            Expr::Ite { .. } => {
                let (cond, k1, k2) = self.const_ite(b)?;
                Some(self.bool_select(cond, c == k1, c == k2))
            }
            _ => None,
        }
    }

    fn is_const(&self, id: ExprId) -> bool {
        matches!(self.get(id), Expr::BvConst { .. } | Expr::BoolConst(_))
    }

    /// `Some((cond, k1, k2))` when `id` is `ite(cond, k1, k2)` with
    /// bit-vector constant branches.
    fn const_ite(&self, id: ExprId) -> Option<(ExprId, u64, u64)> {
        match *self.get(id) {
            Expr::Ite { cond, then_, else_ } => Some((cond, self.as_bv_const(then_)?, self.as_bv_const(else_)?)),
            _ => None,
        }
    }

    /// The boolean `if cond { r1 } else { r2 }` for constant outcomes.
    fn bool_select(&mut self, cond: ExprId, r1: bool, r2: bool) -> ExprId {
        match (r1, r2) {
            (true, false) => cond,
            (false, true) => self.not(cond),
            (r, _) => self.bool_const(r),
        }
    }

    pub fn bin(&mut self, op: BvOp, a: ExprId, b: ExprId) -> ExprId {
        let w = self.width(a);
        debug_assert_eq!(w, self.width(b), "operand widths of {op:?}");
        if let (Some(x), Some(y)) = (self.as_bv_const(a), self.as_bv_const(b)) {
            return self.bv_const(w, eval_bin(op, w, x, y));
        }
        if let Some(r) = self.bin_simplify(op, w, a, b) {
            return r;
        }
        let commutative = matches!(op, BvOp::Add | BvOp::Mul | BvOp::And | BvOp::Or | BvOp::Xor);
        let (a, b) = if commutative && self.is_const(b) { (b, a) } else { (a, b) };
        // Reassociate constants: `k1 op (k2 op x)` is `(k1 op k2) op x`
        // (all commutative operators here are also associative).
        if commutative {
            if let (Some(k1), &Expr::Bin { op: op2, a: k2, b: x }) = (self.as_bv_const(a), self.get(b)) {
                if let (true, Some(k2)) = (op2 == op, self.as_bv_const(k2)) {
                    let k = self.bv_const(w, eval_bin(op, w, k1, k2));
                    return self.bin(op, k, x);
                }
            }
        }
        self.intern(Expr::Bin { op, a, b }, Sort::Bv(w))
    }

    /// Identities, absorbing elements and constant-`ite` pushing for `bin`
    /// (operands not both constant). `None` when nothing applies.
    fn bin_simplify(&mut self, op: BvOp, w: u32, a: ExprId, b: ExprId) -> Option<ExprId> {
        let ca = self.as_bv_const(a);
        let cb = self.as_bv_const(b);
        let ones = mask(w);
        match (op, ca, cb) {
            (BvOp::Add | BvOp::Sub | BvOp::Or | BvOp::Xor | BvOp::Shl | BvOp::LShr | BvOp::AShr, _, Some(0)) => {
                return Some(a)
            }
            (BvOp::Add | BvOp::Or | BvOp::Xor, Some(0), _) => return Some(b),
            (BvOp::Mul, _, Some(1)) | (BvOp::UDiv | BvOp::SDiv, _, Some(1)) => return Some(a),
            (BvOp::Mul, Some(1), _) => return Some(b),
            (BvOp::Mul | BvOp::And, _, Some(0))
            | (BvOp::Mul | BvOp::And, Some(0), _)
            | (BvOp::Shl | BvOp::LShr | BvOp::AShr, Some(0), _) => return Some(self.bv_const(w, 0)),
            (BvOp::Shl | BvOp::LShr, _, Some(k)) if k >= w as u64 => return Some(self.bv_const(w, 0)),
            (BvOp::And, _, Some(k)) if k == ones => return Some(a),
            (BvOp::And, Some(k), _) if k == ones => return Some(b),
            (BvOp::Or, _, Some(k)) | (BvOp::Or, Some(k), _) if k == ones => return Some(self.bv_const(w, ones)),
            // `x - k` is `(-k) + x`: one canonical form for offsets.
            (BvOp::Sub, None, Some(k)) => {
                let neg = self.bv_const(w, k.wrapping_neg());
                return Some(self.bin(BvOp::Add, neg, a));
            }
            _ => {}
        }
        if a == b {
            match op {
                BvOp::Sub | BvOp::Xor => return Some(self.bv_const(w, 0)),
                BvOp::And | BvOp::Or => return Some(a),
                _ => {}
            }
        }
        // An operator between a constant-branch `ite` and a constant folds
        // into the branches.
        if let (Some((cond, k1, k2)), Some(k)) = (self.const_ite(a), cb) {
            let (r1, r2) = (eval_bin(op, w, k1, k), eval_bin(op, w, k2, k));
            let (t, e) = (self.bv_const(w, r1), self.bv_const(w, r2));
            return Some(self.ite(cond, t, e));
        }
        if let (Some(k), Some((cond, k1, k2))) = (ca, self.const_ite(b)) {
            let (r1, r2) = (eval_bin(op, w, k, k1), eval_bin(op, w, k, k2));
            let (t, e) = (self.bv_const(w, r1), self.bv_const(w, r2));
            return Some(self.ite(cond, t, e));
        }
        None
    }

    pub fn cmp(&mut self, op: BvCmp, a: ExprId, b: ExprId) -> ExprId {
        let w = self.width(a);
        if let (Some(x), Some(y)) = (self.as_bv_const(a), self.as_bv_const(b)) {
            return self.bool_const(eval_cmp(op, w, x, y));
        }
        if a == b {
            return self.bool_const(matches!(op, BvCmp::Ule | BvCmp::Sle));
        }
        let (ca, cb) = (self.as_bv_const(a), self.as_bv_const(b));
        // Comparisons against the extreme values of their order are decided.
        let (umax, smin) = (mask(w), 1u64 << (w - 1));
        let smax = smin - 1;
        let decided = match (op, ca, cb) {
            (BvCmp::Ult, _, Some(0)) => Some(false),
            (BvCmp::Ult, Some(k), _) if k == umax => Some(false),
            (BvCmp::Ule, Some(0), _) => Some(true),
            (BvCmp::Ule, _, Some(k)) if k == umax => Some(true),
            (BvCmp::Slt, _, Some(k)) if k == smin => Some(false),
            (BvCmp::Slt, Some(k), _) if k == smax => Some(false),
            (BvCmp::Sle, Some(k), _) if k == smin => Some(true),
            (BvCmp::Sle, _, Some(k)) if k == smax => Some(true),
            _ => None,
        };
        if let Some(r) = decided {
            return self.bool_const(r);
        }
        if let (Some((cond, k1, k2)), Some(k)) = (self.const_ite(a), cb) {
            return self.bool_select(cond, eval_cmp(op, w, k1, k), eval_cmp(op, w, k2, k));
        }
        if let (Some(k), Some((cond, k1, k2))) = (ca, self.const_ite(b)) {
            return self.bool_select(cond, eval_cmp(op, w, k, k1), eval_cmp(op, w, k, k2));
        }
        self.intern(Expr::Cmp { op, a, b }, Sort::Bool)
    }

    /// Whether the signed product `a * b` fits in the operands' width (see
    /// [`Expr::SMulNoOverflow`]).
    pub fn smul_no_overflow(&mut self, a: ExprId, b: ExprId) -> ExprId {
        let w = self.width(a);
        let (ca, cb) = (self.as_bv_const(a), self.as_bv_const(b));
        if let (Some(x), Some(y)) = (ca, cb) {
            return self.bool_const(smul_fits(w, x, y));
        }
        // 0 never overflows; 1 neither, except in one bit where it is -1.
        let trivial = |k: Option<u64>| k == Some(0) || (k == Some(1) && w > 1);
        if trivial(ca) || trivial(cb) {
            return self.bool_const(true);
        }
        if let (Some((cond, k1, k2)), Some(k)) = (self.const_ite(a), cb) {
            return self.bool_select(cond, smul_fits(w, k1, k), smul_fits(w, k2, k));
        }
        if let (Some(k), Some((cond, k1, k2))) = (ca, self.const_ite(b)) {
            return self.bool_select(cond, smul_fits(w, k, k1), smul_fits(w, k, k2));
        }
        let (a, b) = if self.is_const(b) || (!self.is_const(a) && b < a) { (b, a) } else { (a, b) };
        self.intern(Expr::SMulNoOverflow(a, b), Sort::Bool)
    }

    pub fn ite(&mut self, cond: ExprId, then_: ExprId, else_: ExprId) -> ExprId {
        match self.as_bool_const(cond) {
            Some(true) => return then_,
            Some(false) => return else_,
            None => {}
        }
        if then_ == else_ {
            return then_;
        }
        if let Expr::Not(inner) = *self.get(cond) {
            return self.ite(inner, else_, then_);
        }
        let sort = self.sort(then_);
        if sort == Sort::Bool {
            // Boolean `ite` with a constant branch is a connective.
            match (self.as_bool_const(then_), self.as_bool_const(else_)) {
                (Some(true), _) => return self.or(cond, else_),
                (Some(false), _) => {
                    let n = self.not(cond);
                    return self.and(n, else_);
                }
                (_, Some(true)) => {
                    let n = self.not(cond);
                    return self.or(n, then_);
                }
                (_, Some(false)) => return self.and(cond, then_),
                _ => {}
            }
        }
        self.intern(Expr::Ite { cond, then_, else_ }, sort)
    }

    /// `ite(cond, f(k1), f(k2))` when `a` is a constant-branch `ite`.
    fn map_const_ite(&mut self, a: ExprId, width: u32, f: impl Fn(u64) -> u64) -> Option<ExprId> {
        let (cond, k1, k2) = self.const_ite(a)?;
        let t = self.bv_const(width, f(k1));
        let e = self.bv_const(width, f(k2));
        Some(self.ite(cond, t, e))
    }

    pub fn zext(&mut self, a: ExprId, width: u32) -> ExprId {
        let w = self.width(a);
        if w == width {
            return a;
        }
        if let Some(x) = self.as_bv_const(a) {
            return self.bv_const(width, x);
        }
        if let Expr::ZExt { a: inner, .. } = *self.get(a) {
            return self.zext(inner, width);
        }
        if let Some(r) = self.map_const_ite(a, width, |k| k) {
            return r;
        }
        self.intern(Expr::ZExt { a, width }, Sort::Bv(width))
    }

    pub fn sext(&mut self, a: ExprId, width: u32) -> ExprId {
        let w = self.width(a);
        if w == width {
            return a;
        }
        if let Some(x) = self.as_bv_const(a) {
            return self.bv_const(width, to_signed(x, w) as u64);
        }
        match *self.get(a) {
            Expr::SExt { a: inner, .. } => return self.sext(inner, width),
            // A strictly wider zero extension has a zero sign bit.
            Expr::ZExt { a: inner, .. } if self.width(inner) < w => return self.zext(inner, width),
            _ => {}
        }
        if let Some(r) = self.map_const_ite(a, width, |k| to_signed(k, w) as u64) {
            return r;
        }
        self.intern(Expr::SExt { a, width }, Sort::Bv(width))
    }

    pub fn extract(&mut self, a: ExprId, hi: u32, lo: u32) -> ExprId {
        let w = self.width(a);
        if lo == 0 && hi + 1 == w {
            return a;
        }
        if let Some(x) = self.as_bv_const(a) {
            return self.bv_const(hi - lo + 1, x >> lo);
        }
        match *self.get(a) {
            // Bits of an extension's source are the source's bits; bits above
            // a zero extension's source are zero.
            Expr::ZExt { a: inner, .. } | Expr::SExt { a: inner, .. } if hi < self.width(inner) => {
                return self.extract(inner, hi, lo);
            }
            Expr::ZExt { a: inner, .. } if lo >= self.width(inner) => return self.bv_const(hi - lo + 1, 0),
            Expr::Extract { a: inner, lo: l1, .. } => return self.extract(inner, l1 + hi, l1 + lo),
            _ => {}
        }
        if let Some(r) = self.map_const_ite(a, hi - lo + 1, |k| k >> lo) {
            return r;
        }
        self.intern(Expr::Extract { a, hi, lo }, Sort::Bv(hi - lo + 1))
    }

    pub fn select(&mut self, array: ExprId, index: ExprId) -> ExprId {
        let elem = match self.sort(array) {
            Sort::Array { elem, .. } => elem,
            s => panic!("select from {s:?}"),
        };
        let mut cur = array;
        loop {
            match *self.get(cur) {
                Expr::Store { array: inner, index: i, value } => {
                    if i == index {
                        return value;
                    }
                    match (self.as_bv_const(i), self.as_bv_const(index)) {
                        (Some(x), Some(y)) if x != y => cur = inner,
                        _ => break,
                    }
                }
                Expr::ConstArray { value, .. } => return value,
                _ => break,
            }
        }
        self.intern(Expr::Select { array: cur, index }, Sort::Bv(elem))
    }

    pub fn store(&mut self, array: ExprId, index: ExprId, value: ExprId) -> ExprId {
        let sort = self.sort(array);
        self.intern(Expr::Store { array, index, value }, sort)
    }

    pub fn const_array(&mut self, index: u32, value: ExprId) -> ExprId {
        let elem = self.width(value);
        self.intern(Expr::ConstArray { index, value }, Sort::Array { index, elem })
    }

    /// The free variables of `roots`, in first-occurrence order (deterministic).
    pub fn vars_of(&self, roots: &[ExprId]) -> Vec<ExprId> {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut out = Vec::new();
        let mut stack: Vec<ExprId> = roots.iter().rev().copied().collect();
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            let e = self.get(id);
            if let Expr::Var { .. } = e {
                out.push(id);
            }
            let mut kids = children(e);
            kids.reverse();
            stack.extend(kids);
        }
        out
    }

    /// A printable view of an expression (SMT-LIB-like s-expression).
    pub fn display(&self, id: ExprId) -> DisplayExpr<'_> {
        DisplayExpr { pool: self, id }
    }
}

/// The direct children of a node, in order.
pub fn children(e: &Expr) -> Vec<ExprId> {
    match *e {
        Expr::BoolConst(_) | Expr::BvConst { .. } | Expr::Var { .. } => vec![],
        Expr::Not(a)
        | Expr::ZExt { a, .. }
        | Expr::SExt { a, .. }
        | Expr::Extract { a, .. }
        | Expr::FUn { a, .. }
        | Expr::FConv { a, .. } => vec![a],
        Expr::ConstArray { value, .. } => vec![value],
        Expr::And(a, b)
        | Expr::Or(a, b)
        | Expr::Eq(a, b)
        | Expr::Bin { a, b, .. }
        | Expr::Cmp { a, b, .. }
        | Expr::SMulNoOverflow(a, b)
        | Expr::FBin { a, b, .. }
        | Expr::FCmp { a, b, .. } => vec![a, b],
        Expr::Select { array, index } => vec![array, index],
        Expr::Ite { cond, then_, else_ } => vec![cond, then_, else_],
        Expr::Store { array, index, value } => vec![array, index, value],
    }
}

/// See [`ExprPool::display`].
pub struct DisplayExpr<'a> {
    pool: &'a ExprPool,
    id: ExprId,
}

impl fmt::Display for DisplayExpr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.pool;
        let d = |id| DisplayExpr { pool: p, id };
        match p.get(self.id) {
            Expr::BoolConst(b) => write!(f, "{b}"),
            Expr::BvConst { width, value } => write!(f, "{}:{width}", to_signed(*value, *width)),
            Expr::Var { name, .. } => write!(f, "{name}"),
            Expr::Not(a) => write!(f, "(not {})", d(*a)),
            Expr::And(a, b) => write!(f, "(and {} {})", d(*a), d(*b)),
            Expr::Or(a, b) => write!(f, "(or {} {})", d(*a), d(*b)),
            Expr::Eq(a, b) => write!(f, "(= {} {})", d(*a), d(*b)),
            Expr::Bin { op, a, b } => write!(f, "({} {} {})", format!("{op:?}").to_lowercase(), d(*a), d(*b)),
            Expr::Cmp { op, a, b } => write!(f, "({} {} {})", format!("{op:?}").to_lowercase(), d(*a), d(*b)),
            Expr::SMulNoOverflow(a, b) => write!(f, "(smul_no_overflow {} {})", d(*a), d(*b)),
            Expr::Ite { cond, then_, else_ } => write!(f, "(ite {} {} {})", d(*cond), d(*then_), d(*else_)),
            Expr::ZExt { a, width } => write!(f, "(zext{width} {})", d(*a)),
            Expr::SExt { a, width } => write!(f, "(sext{width} {})", d(*a)),
            Expr::Extract { a, hi, lo } => write!(f, "(extract{hi}:{lo} {})", d(*a)),
            Expr::Select { array, index } => write!(f, "(select {} {})", d(*array), d(*index)),
            Expr::Store { array, index, value } => write!(f, "(store {} {} {})", d(*array), d(*index), d(*value)),
            Expr::ConstArray { value, .. } => write!(f, "(const-array {})", d(*value)),
            Expr::FBin { op, rnd: Rounding::NearestEven, fmt, a, b } => {
                write!(f, "(f{op:?}.{fmt:?} {} {})", d(*a), d(*b))
            }
            Expr::FBin { op, rnd, fmt, a, b } => write!(f, "(f{op:?}.{rnd:?}.{fmt:?} {} {})", d(*a), d(*b)),
            Expr::FUn { op, fmt, a } => write!(f, "({op:?}.{fmt:?} {})", d(*a)),
            Expr::FCmp { op, fmt, a, b } => write!(f, "(f{op:?}.{fmt:?} {} {})", d(*a), d(*b)),
            Expr::FConv { op, a } => write!(f, "({op:?} {})", d(*a)),
        }
    }
}

#[cfg(test)]
#[path = "pool_tests.rs"]
mod tests;

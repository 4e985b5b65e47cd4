//! Hash-consed expressions.
//!
//! Canonical forms maintained by the builders (so that caches hit and the
//! solver sees small terms):
//! - no operator node has only constant operands (it is folded);
//! - comparisons are `eq`, `ult`, `ule`, `slt`, `sle` only; `ne` is `not eq`
//!   and greater-than swaps operands;
//! - `not (not a)` is `a`; `and`/`or` with a constant operand are simplified;
//! - a `select` from a `store` at a different constant index reads through.

use std::fmt;

use rustc_hash::FxHashMap;

use crate::ops::{eval_bin, eval_cmp, mask, BvCmp, BvOp};

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
    Array { index: u32, elem: u32 },
}

/// One expression node. Children are [`ExprId`]s of the same pool.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Expr {
    BoolConst(bool),
    BvConst { width: u32, value: u64 },
    /// A free variable (an input) of bit-vector or array sort.
    Var { name: String, sort: Sort },
    Not(ExprId),
    And(ExprId, ExprId),
    Or(ExprId, ExprId),
    /// Equality of two expressions of the same sort (bool or bit-vector).
    Eq(ExprId, ExprId),
    Bin { op: BvOp, a: ExprId, b: ExprId },
    Cmp { op: BvCmp, a: ExprId, b: ExprId },
    Ite { cond: ExprId, then_: ExprId, else_: ExprId },
    ZExt { a: ExprId, width: u32 },
    SExt { a: ExprId, width: u32 },
    /// Bits `hi..=lo` of `a`.
    Extract { a: ExprId, hi: u32, lo: u32 },
    Select { array: ExprId, index: ExprId },
    Store { array: ExprId, index: ExprId, value: ExprId },
    /// The array mapping every index to `value` (a bit-vector expression).
    ConstArray { index: u32, value: ExprId },
}

/// The arena that owns all expressions and hash-conses them.
#[derive(Default)]
pub struct ExprPool {
    nodes: Vec<Expr>,
    sorts: Vec<Sort>,
    map: FxHashMap<Expr, ExprId>,
}

impl ExprPool {
    pub fn new() -> ExprPool {
        ExprPool::default()
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

    fn intern(&mut self, e: Expr, sort: Sort) -> ExprId {
        if let Some(&id) = self.map.get(&e) {
            return id;
        }
        let id = ExprId(self.nodes.len() as u32);
        self.nodes.push(e.clone());
        self.sorts.push(sort);
        self.map.insert(e, id);
        id
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
        match self.get(a) {
            Expr::BoolConst(b) => {
                let b = !*b;
                self.bool_const(b)
            }
            Expr::Not(inner) => *inner,
            _ => self.intern(Expr::Not(a), Sort::Bool),
        }
    }

    pub fn and(&mut self, a: ExprId, b: ExprId) -> ExprId {
        match (self.as_bool_const(a), self.as_bool_const(b)) {
            (Some(false), _) | (_, Some(false)) => self.bool_const(false),
            (Some(true), _) => b,
            (_, Some(true)) => a,
            _ if a == b => a,
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
                self.intern(Expr::Eq(a, b), Sort::Bool)
            }
        }
    }

    fn is_const(&self, id: ExprId) -> bool {
        matches!(self.get(id), Expr::BvConst { .. } | Expr::BoolConst(_))
    }

    pub fn bin(&mut self, op: BvOp, a: ExprId, b: ExprId) -> ExprId {
        let w = self.width(a);
        debug_assert_eq!(w, self.width(b), "operand widths of {op:?}");
        if let (Some(x), Some(y)) = (self.as_bv_const(a), self.as_bv_const(b)) {
            return self.bv_const(w, eval_bin(op, w, x, y));
        }
        let cb = self.as_bv_const(b);
        let ca = self.as_bv_const(a);
        match (op, ca, cb) {
            (BvOp::Add | BvOp::Sub | BvOp::Or | BvOp::Xor | BvOp::Shl | BvOp::LShr | BvOp::AShr, _, Some(0)) => {
                return a
            }
            (BvOp::Add | BvOp::Or | BvOp::Xor, Some(0), _) => return b,
            (BvOp::Mul, _, Some(1)) | (BvOp::UDiv | BvOp::SDiv, _, Some(1)) => return a,
            (BvOp::Mul, Some(1), _) => return b,
            (BvOp::Mul | BvOp::And, _, Some(0)) | (BvOp::Mul | BvOp::And, Some(0), _) => {
                return self.bv_const(w, 0)
            }
            _ => {}
        }
        let commutative = matches!(op, BvOp::Add | BvOp::Mul | BvOp::And | BvOp::Or | BvOp::Xor);
        let (a, b) = if commutative && cb.is_some() { (b, a) } else { (a, b) };
        self.intern(Expr::Bin { op, a, b }, Sort::Bv(w))
    }

    pub fn cmp(&mut self, op: BvCmp, a: ExprId, b: ExprId) -> ExprId {
        let w = self.width(a);
        if let (Some(x), Some(y)) = (self.as_bv_const(a), self.as_bv_const(b)) {
            return self.bool_const(eval_cmp(op, w, x, y));
        }
        if a == b {
            return self.bool_const(matches!(op, BvCmp::Ule | BvCmp::Sle));
        }
        self.intern(Expr::Cmp { op, a, b }, Sort::Bool)
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
        let sort = self.sort(then_);
        self.intern(Expr::Ite { cond, then_, else_ }, sort)
    }

    pub fn zext(&mut self, a: ExprId, width: u32) -> ExprId {
        let w = self.width(a);
        if w == width {
            return a;
        }
        if let Some(x) = self.as_bv_const(a) {
            return self.bv_const(width, x);
        }
        self.intern(Expr::ZExt { a, width }, Sort::Bv(width))
    }

    pub fn sext(&mut self, a: ExprId, width: u32) -> ExprId {
        let w = self.width(a);
        if w == width {
            return a;
        }
        if let Some(x) = self.as_bv_const(a) {
            return self.bv_const(width, crate::ops::to_signed(x, w) as u64);
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
        // Truncating an extension back to (at most) its source width.
        if lo == 0 {
            if let Expr::ZExt { a: inner, .. } | Expr::SExt { a: inner, .. } = *self.get(a) {
                let iw = self.width(inner);
                if hi + 1 == iw {
                    return inner;
                }
                if hi + 1 < iw {
                    return self.extract(inner, hi, 0);
                }
            }
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
        Expr::Not(a) | Expr::ZExt { a, .. } | Expr::SExt { a, .. } | Expr::Extract { a, .. } => vec![a],
        Expr::ConstArray { value, .. } => vec![value],
        Expr::And(a, b) | Expr::Or(a, b) | Expr::Eq(a, b) | Expr::Bin { a, b, .. } | Expr::Cmp { a, b, .. } => {
            vec![a, b]
        }
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
            Expr::BvConst { width, value } => write!(f, "{}:{width}", crate::ops::to_signed(*value, *width)),
            Expr::Var { name, .. } => write!(f, "{name}"),
            Expr::Not(a) => write!(f, "(not {})", d(*a)),
            Expr::And(a, b) => write!(f, "(and {} {})", d(*a), d(*b)),
            Expr::Or(a, b) => write!(f, "(or {} {})", d(*a), d(*b)),
            Expr::Eq(a, b) => write!(f, "(= {} {})", d(*a), d(*b)),
            Expr::Bin { op, a, b } => write!(f, "({} {} {})", format!("{op:?}").to_lowercase(), d(*a), d(*b)),
            Expr::Cmp { op, a, b } => write!(f, "({} {} {})", format!("{op:?}").to_lowercase(), d(*a), d(*b)),
            Expr::Ite { cond, then_, else_ } => write!(f, "(ite {} {} {})", d(*cond), d(*then_), d(*else_)),
            Expr::ZExt { a, width } => write!(f, "(zext{width} {})", d(*a)),
            Expr::SExt { a, width } => write!(f, "(sext{width} {})", d(*a)),
            Expr::Extract { a, hi, lo } => write!(f, "(extract{hi}:{lo} {})", d(*a)),
            Expr::Select { array, index } => write!(f, "(select {} {})", d(*array), d(*index)),
            Expr::Store { array, index, value } => write!(f, "(store {} {} {})", d(*array), d(*index), d(*value)),
            Expr::ConstArray { value, .. } => write!(f, "(const-array {})", d(*value)),
        }
    }
}

//! Translation of pool expressions to Z3 terms, with a persistent cache.
//!
//! The cache is a vector indexed by [`ExprId`]: pools only grow and ids are
//! stable, so a translation stays valid for the whole life of its pool and is
//! shared by all later queries (path conditions repeat their prefixes, so
//! most of a query is already translated). The cache is tied to one pool via
//! [`ExprPool::uid`]: when a query arrives with another pool the cache is
//! cleared (keying on `len()` alone would not do: two pools can have the
//! same length and different terms).
//!
//! Z3 hash-conses its terms too, so equal pool terms map to the same Z3
//! term; the cache only saves the work of rebuilding them.
//!
//! A constant-index read of an array variable, `select(A, c)`, translates
//! to a fresh bit-vector constant `A@c` (Ackermannization, see
//! [`ackermann`](crate::ackermann)); the axioms that tie it to `A` when
//! needed are per query and not cached. A symbolic-index read of a
//! constant table becomes a piecewise term instead of an array read (see
//! [`tables`](crate::tables)).

use pathwise_expr::{BvCmp, BvOp, Expr, ExprId, ExprPool, Sort};
use z3::ast::{Array, Bool, Dynamic, BV};

use crate::ackermann::{is_ackermannized, Read};

/// Pool-to-Z3 translation with a cache (see the module doc).
#[derive(Default)]
pub(crate) struct Translator {
    pool_uid: u64,
    cache: Vec<Option<Dynamic>>,
    /// Per translated node: whether it contains a non-linear operator
    /// (see [`Translator::is_heavy`]).
    heavy: Vec<bool>,
    /// Native float terms of floating nodes (see [`float`](crate::float)).
    floats: crate::float::FloatTerms,
}

impl Translator {
    /// Prepare the cache for `pool` (clearing it if the pool changed).
    pub(crate) fn sync(&mut self, pool: &ExprPool) {
        if self.pool_uid != pool.uid() {
            self.pool_uid = pool.uid();
            self.cache.clear();
            self.heavy.clear();
            self.floats.clear();
        }
        self.floats.resize(pool.len());
        if self.cache.len() < pool.len() {
            self.cache.resize(pool.len(), None);
            self.heavy.resize(pool.len(), false);
        }
    }

    /// Number of cached translations (for tests and statistics).
    pub(crate) fn cached(&self) -> usize {
        self.cache.iter().filter(|c| c.is_some()).count()
    }

    /// The Z3 term of `root`. `sync` must have been called with `pool`.
    /// Iterative post-order, so deep terms cannot overflow the stack.
    pub(crate) fn term(&mut self, pool: &ExprPool, root: ExprId) -> Dynamic {
        if let Some(t) = &self.cache[root.0 as usize] {
            return t.clone();
        }
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if self.cache[id.0 as usize].is_some() {
                continue;
            }
            if !expanded {
                stack.push((id, true));
                if let Expr::Select { array, index } = *pool.get(id) {
                    if is_ackermannized(pool, array, index) {
                        continue; // a leaf: `A@c` needs neither `A` nor `c`
                    }
                }
                for k in pathwise_expr::pool::children(pool.get(id)) {
                    if self.cache[k.0 as usize].is_none() {
                        stack.push((k, false));
                    }
                }
                continue;
            }
            let t = self.build(pool, id);
            self.cache[id.0 as usize] = Some(t);
            self.heavy[id.0 as usize] = self.heavy_node(pool, id);
        }
        self.cache[root.0 as usize].clone().expect("translated above")
    }

    /// Whether `root` (translated if needed) contains a multiplication of
    /// two non-constant operands, or a division or remainder: they
    /// bit-blast to large circuits, which Z3 shrinks only when
    /// preprocessing finds constant operands (see
    /// [`guarded`](crate::guarded)).
    pub(crate) fn is_heavy(&mut self, pool: &ExprPool, root: ExprId) -> bool {
        self.term(pool, root);
        self.heavy[root.0 as usize]
    }

    fn heavy_node(&self, pool: &ExprPool, id: ExprId) -> bool {
        let e = pool.get(id);
        let own = match *e {
            // A constant factor is a few shifts and adds; the pool puts
            // the constant first.
            Expr::Bin { op: BvOp::Mul, a, .. } => pool.as_bv_const(a).is_none(),
            Expr::Bin { op: BvOp::UDiv | BvOp::SDiv | BvOp::URem | BvOp::SRem, .. } => true,
            Expr::Select { array, index } if is_ackermannized(pool, array, index) => return false,
            // IEEE operations bit-blast to large circuits too.
            Expr::FBin { .. } | Expr::FUn { .. } | Expr::FConv { .. } | Expr::FCmp { .. } => true,
            _ => false,
        };
        own || pathwise_expr::pool::children(e).iter().any(|k| self.heavy[k.0 as usize])
    }

    /// The axiom `select(A, c) = A@c` of an Ackermannized read.
    pub(crate) fn linking_axiom(&mut self, pool: &ExprPool, read: &Read) -> Bool {
        let ack = self.term(pool, read.select);
        let array = self.term(pool, read.array).as_array().expect("array variable");
        let Sort::Array { index: width, .. } = pool.sort(read.array) else { unreachable!("array variable") };
        array.select(&BV::from_u64(read.index, width)).eq(&ack)
    }

    /// The Z3 term of a boolean expression.
    pub(crate) fn bool_term(&mut self, pool: &ExprPool, root: ExprId) -> Bool {
        self.term(pool, root).as_bool().expect("boolean expression")
    }

    fn get(&self, id: ExprId) -> &Dynamic {
        self.cache[id.0 as usize].as_ref().expect("children are translated first")
    }

    fn bool(&self, id: ExprId) -> Bool {
        self.get(id).as_bool().expect("boolean operand")
    }

    fn bv(&self, id: ExprId) -> BV {
        self.get(id).as_bv().expect("bit-vector operand")
    }

    fn array(&self, id: ExprId) -> Array {
        self.get(id).as_array().expect("array operand")
    }

    /// The Z3 term of one node whose children are translated.
    fn build(&mut self, pool: &ExprPool, id: ExprId) -> Dynamic {
        if pathwise_expr::float::is_float(pool.get(id)) {
            let cache = &self.cache;
            let bits = |k: ExprId| cache[k.0 as usize].as_ref().and_then(|t| t.as_bv()).expect("bit-vector operand");
            return self.floats.build(pool, id, &bits);
        }
        match *pool.get(id) {
            Expr::BoolConst(b) => Bool::from_bool(b).into(),
            Expr::BvConst { width, value } => BV::from_u64(value, width).into(),
            Expr::Var { ref name, sort } => var(name, sort),
            Expr::Not(a) => self.bool(a).not().into(),
            Expr::And(a, b) => Bool::and(&[self.bool(a), self.bool(b)]).into(),
            Expr::Or(a, b) => Bool::or(&[self.bool(a), self.bool(b)]).into(),
            Expr::Eq(a, b) => self.get(a).eq(self.get(b)).into(),
            Expr::Bin { op, a, b } => bin(op, &self.bv(a), &self.bv(b)).into(),
            Expr::Cmp { op, a, b } => {
                let (a, b) = (self.bv(a), self.bv(b));
                match op {
                    BvCmp::Ult => a.bvult(&b),
                    BvCmp::Ule => a.bvule(&b),
                    BvCmp::Slt => a.bvslt(&b),
                    BvCmp::Sle => a.bvsle(&b),
                }
                .into()
            }
            Expr::SMulNoOverflow(x, y) => {
                // Z3's signed checks: the product neither exceeds the maximum
                // nor falls below the minimum (each a compact circuit). In one
                // bit Z3 4.8.12 misses (-1) * (-1) = 1, so there the check is
                // spelt out: not both operands -1 (tests/differential.rs
                // compares every width with the evaluator).
                let (a, b) = (self.bv(x), self.bv(y));
                if pool.width(x) == 1 {
                    return a.bvand(&b).eq(BV::from_u64(0, 1)).into();
                }
                Bool::and(&[a.bvmul_no_overflow(&b, true), a.bvmul_no_underflow(&b)]).into()
            }
            Expr::Ite { cond, then_, else_ } => self.bool(cond).ite(self.get(then_), self.get(else_)),
            Expr::ZExt { a, width } => self.bv(a).zero_ext(width - pool.width(a)).into(),
            Expr::SExt { a, width } => self.bv(a).sign_ext(width - pool.width(a)).into(),
            Expr::Extract { a, hi, lo } => self.bv(a).extract(hi, lo).into(),
            Expr::Select { array, index } if is_ackermannized(pool, array, index) => {
                let Expr::Var { ref name, .. } = *pool.get(array) else { unreachable!("array variable") };
                let c = pool.as_bv_const(index).expect("constant index");
                // A fresh constant cannot clash with a pool variable of the
                // same name; the name only helps reading Z3 dumps.
                BV::fresh_const(&format!("{name}@{c}"), pool.width(id)).into()
            }
            Expr::Select { array, index } => match crate::tables::table_read(pool, array, &self.bv(index)) {
                Some(t) => t.into(),
                None => self.array(array).select(self.get(index)),
            },
            Expr::Store { array, index, value } => self.array(array).store(self.get(index), self.get(value)).into(),
            Expr::ConstArray { index, value } => {
                Array::const_array(&z3::Sort::bitvector(index), self.get(value)).into()
            }
            Expr::FBin { .. } | Expr::FUn { .. } | Expr::FCmp { .. } | Expr::FConv { .. } => {
                unreachable!("translated above")
            }
        }
    }
}

/// A named Z3 constant for a pool variable. Names are the pool's names: the
/// pool makes (name, sort) unique, and Z3 distinguishes equal names of
/// different sorts, so distinct variables never alias.
fn var(name: &str, sort: Sort) -> Dynamic {
    match sort {
        Sort::Bool => Bool::new_const(name).into(),
        Sort::Bv(w) => BV::new_const(name, w).into(),
        Sort::Array { index, elem } => {
            Array::new_const(name, &z3::Sort::bitvector(index), &z3::Sort::bitvector(elem)).into()
        }
    }
}

/// The Z3 term of a binary operator. The SMT-LIB semantics of division by
/// zero and of over-wide shifts are the ones `pathwise_expr::ops` implements
/// (checked by the differential tests).
fn bin(op: BvOp, a: &BV, b: &BV) -> BV {
    match op {
        BvOp::Add => a.bvadd(b),
        BvOp::Sub => a.bvsub(b),
        BvOp::Mul => a.bvmul(b),
        BvOp::UDiv => a.bvudiv(b),
        BvOp::SDiv => a.bvsdiv(b),
        BvOp::URem => a.bvurem(b),
        BvOp::SRem => a.bvsrem(b),
        BvOp::Shl => a.bvshl(b),
        BvOp::LShr => a.bvlshr(b),
        BvOp::AShr => a.bvashr(b),
        BvOp::And => a.bvand(b),
        BvOp::Or => a.bvor(b),
        BvOp::Xor => a.bvxor(b),
    }
}

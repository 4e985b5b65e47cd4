//! A concrete evaluator: the value of an expression under a [`Model`].
//!
//! Used to validate solver models (a model must make every constraint and
//! assumption of its query true) and by tests as the reference semantics.
//! Bit-vector operators go through [`crate::ops`], so the evaluator, the
//! constant folder and the engine's concrete execution agree by
//! construction.
//!
//! Unassigned variables read as zero (booleans as false, arrays as the
//! all-zero array). Boolean variables are read from [`Model::bv`] (0 is
//! false, anything else true), since a [`Model`] has no separate map for
//! them.
//!
//! `select` is evaluated lazily, by walking the array term (`store`s,
//! `ite`s, constant arrays) down to the index that is read, instead of
//! materialising whole arrays. This keeps long store chains cheap and lets an
//! [`Evaluator`] record which cells of which array variables were read,
//! which the Z3 backend uses to complete models whose array values it could
//! not decode exactly.

use rustc_hash::FxHashMap;

use crate::ops::{eval_bin, eval_cmp, mask, to_signed};
use crate::pool::{children, Expr, ExprId, ExprPool, Sort};
use crate::solver::{ArrayValue, Model};

/// The value of an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Bool(bool),
    /// The low `width` bits, upper bits zero.
    Bv(u64),
    Array(ArrayValue),
}

impl Value {
    /// The boolean, or `None` for other sorts.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The bit-vector, or `None` for other sorts.
    pub fn as_bv(&self) -> Option<u64> {
        match self {
            Value::Bv(v) => Some(*v),
            _ => None,
        }
    }
}

/// The value of `e` under `assignment` (see the module doc for unassigned
/// variables).
pub fn eval(pool: &ExprPool, e: ExprId, assignment: &Model) -> Value {
    Evaluator::new(pool, assignment).eval(e)
}

/// Whether every expression of `roots` (booleans) is true under `model`.
pub fn satisfies(pool: &ExprPool, roots: &[ExprId], model: &Model) -> bool {
    let mut ev = Evaluator::new(pool, model);
    roots.iter().all(|&r| ev.eval(r) == Value::Bool(true))
}

/// An evaluator that memoises the scalar values of shared subterms across
/// calls (for one model), optionally recording array reads.
pub struct Evaluator<'a> {
    pool: &'a ExprPool,
    model: &'a Model,
    /// Scalar values (booleans as 0/1) of already evaluated nodes.
    memo: FxHashMap<ExprId, u64>,
    reads: Option<Vec<(ExprId, u64)>>,
}

impl<'a> Evaluator<'a> {
    pub fn new(pool: &'a ExprPool, model: &'a Model) -> Evaluator<'a> {
        Evaluator { pool, model, memo: FxHashMap::default(), reads: None }
    }

    /// Record every read of an array variable (see [`Evaluator::reads`]).
    pub fn recording_reads(mut self) -> Evaluator<'a> {
        self.reads = Some(Vec::new());
        self
    }

    /// The `(array variable, index)` pairs read by `select`s so far (with
    /// repetitions), when recording was enabled.
    pub fn reads(&self) -> &[(ExprId, u64)] {
        self.reads.as_deref().unwrap_or(&[])
    }

    /// The value of `e`.
    pub fn eval(&mut self, e: ExprId) -> Value {
        match self.pool.sort(e) {
            Sort::Bool => Value::Bool(self.scalar(e) != 0),
            Sort::Bv(_) => Value::Bv(self.scalar(e)),
            Sort::Array { .. } => Value::Array(self.array_value(e)),
        }
    }

    /// The value of a boolean or bit-vector node. Iterative post-order (with
    /// an explicit stack) so that deep terms cannot overflow the call stack;
    /// the only re-entrant calls are for `select` indices met while walking
    /// an array term and for array equalities, whose nesting is shallow.
    fn scalar(&mut self, root: ExprId) -> u64 {
        if let Some(&v) = self.memo.get(&root) {
            return v;
        }
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if self.memo.contains_key(&id) {
                continue;
            }
            if !expanded {
                stack.push((id, true));
                self.push_scalar_children(id, &mut stack);
                continue;
            }
            let v = self.compute(id);
            self.memo.insert(id, v);
        }
        self.memo[&root]
    }

    /// Push the children whose scalar values `compute` needs first and
    /// that are not memoised yet (without allocating: this is the
    /// evaluator's inner loop). Array-sorted children are walked lazily by
    /// `select_value` / `array_value` instead.
    fn push_scalar_children(&self, id: ExprId, stack: &mut Vec<(ExprId, bool)>) {
        let mut push = |k: ExprId| {
            if !self.memo.contains_key(&k) {
                stack.push((k, false));
            }
        };
        match *self.pool.get(id) {
            Expr::BoolConst(_) | Expr::BvConst { .. } | Expr::Var { .. } => {}
            Expr::Select { index, .. } => push(index),
            Expr::Eq(a, _) if matches!(self.pool.sort(a), Sort::Array { .. }) => {}
            Expr::Not(a) | Expr::ZExt { a, .. } | Expr::SExt { a, .. } | Expr::Extract { a, .. } => push(a),
            Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Eq(a, b)
            | Expr::Bin { a, b, .. }
            | Expr::Cmp { a, b, .. }
            | Expr::SMulNoOverflow(a, b) => {
                push(a);
                push(b);
            }
            Expr::Ite { cond, then_, else_ } => {
                push(cond);
                push(then_);
                push(else_);
            }
            ref e => children(e).into_iter().for_each(push),
        }
    }

    /// The scalar value of `id`, all of whose scalar children are memoised.
    fn compute(&mut self, id: ExprId) -> u64 {
        let pool = self.pool;
        let v = |s: &Self, k: ExprId| s.memo[&k];
        match *pool.get(id) {
            Expr::BoolConst(b) => b as u64,
            Expr::BvConst { value, .. } => value,
            Expr::Var { ref sort, .. } => match sort {
                Sort::Bool => (self.model.bv.get(&id).copied().unwrap_or(0) != 0) as u64,
                Sort::Bv(w) => self.model.bv.get(&id).copied().unwrap_or(0) & mask(*w),
                Sort::Array { .. } => unreachable!("array variable evaluated as a scalar"),
            },
            Expr::Not(a) => 1 - v(self, a),
            Expr::And(a, b) => v(self, a) & v(self, b),
            Expr::Or(a, b) => v(self, a) | v(self, b),
            Expr::Eq(a, b) => match pool.sort(a) {
                Sort::Array { index, .. } => {
                    let (x, y) = (self.array_value(a), self.array_value(b));
                    arrays_equal(&x, &y, index) as u64
                }
                _ => (v(self, a) == v(self, b)) as u64,
            },
            Expr::Bin { op, a, b } => eval_bin(op, pool.width(a), v(self, a), v(self, b)),
            Expr::Cmp { op, a, b } => eval_cmp(op, pool.width(a), v(self, a), v(self, b)) as u64,
            Expr::SMulNoOverflow(a, b) => crate::ops::smul_fits(pool.width(a), v(self, a), v(self, b)) as u64,
            Expr::Ite { cond, then_, else_ } => {
                if v(self, cond) != 0 {
                    v(self, then_)
                } else {
                    v(self, else_)
                }
            }
            Expr::ZExt { a, .. } => v(self, a),
            Expr::SExt { a, width } => to_signed(v(self, a), pool.width(a)) as u64 & mask(width),
            Expr::Extract { a, hi, lo } => (v(self, a) >> lo) & mask(hi - lo + 1),
            Expr::Select { array, index } => {
                let i = v(self, index);
                self.select_value(array, i)
            }
            Expr::Store { .. } | Expr::ConstArray { .. } => unreachable!("array term evaluated as a scalar"),
            Expr::FBin { op, rnd, fmt, a, b } => crate::float::eval_fbin_in(op, rnd, fmt, v(self, a), v(self, b)),
            Expr::FUn { op, fmt, a } => crate::float::eval_fun(op, fmt, v(self, a)),
            Expr::FCmp { op, fmt, a, b } => crate::float::eval_fcmp(op, fmt, v(self, a), v(self, b)) as u64,
            Expr::FConv { op, a } => crate::float::eval_fconv(op, pool.width(a), v(self, a)),
        }
    }

    /// The element of array term `array` at index `i`, by walking the term.
    fn select_value(&mut self, array: ExprId, i: u64) -> u64 {
        let mut cur = array;
        loop {
            match *self.pool.get(cur) {
                Expr::Store { array: inner, index, value } => {
                    if self.scalar(index) == i {
                        return self.scalar(value);
                    }
                    cur = inner;
                }
                Expr::ConstArray { value, .. } => return self.scalar(value),
                Expr::Ite { cond, then_, else_ } => cur = if self.scalar(cond) != 0 { then_ } else { else_ },
                Expr::Var { .. } => {
                    if let Some(reads) = &mut self.reads {
                        reads.push((cur, i));
                    }
                    return self.model.arrays.get(&cur).map_or(0, |a| a.get(i));
                }
                ref e => unreachable!("not an array term: {e:?}"),
            }
        }
    }

    /// The whole value of array term `array` (for array equalities and
    /// top-level evaluation). Walks the store chain iteratively, then applies
    /// the stores from the innermost out.
    fn array_value(&mut self, array: ExprId) -> ArrayValue {
        let mut stores = Vec::new();
        let mut cur = array;
        let mut base = loop {
            match *self.pool.get(cur) {
                Expr::Store { array: inner, index, value } => {
                    stores.push((index, value));
                    cur = inner;
                }
                Expr::Ite { cond, then_, else_ } => cur = if self.scalar(cond) != 0 { then_ } else { else_ },
                Expr::ConstArray { value, .. } => {
                    break ArrayValue { default: self.scalar(value), entries: Default::default() }
                }
                Expr::Var { .. } => break self.model.arrays.get(&cur).cloned().unwrap_or_default(),
                ref e => unreachable!("not an array term: {e:?}"),
            }
        };
        for &(index, value) in stores.iter().rev() {
            let (i, v) = (self.scalar(index), self.scalar(value));
            base.entries.insert(i, v);
        }
        base
    }
}

/// Extensional equality of two array values over `index_width`-bit indices.
/// The defaults matter unless the listed entries cover the whole domain.
pub fn arrays_equal(x: &ArrayValue, y: &ArrayValue, index_width: u32) -> bool {
    let mut keys: Vec<u64> = x.entries.keys().chain(y.entries.keys()).copied().collect();
    keys.sort_unstable();
    keys.dedup();
    if keys.iter().any(|&k| x.get(k) != y.get(k)) {
        return false;
    }
    let covers_domain = index_width < 64 && keys.len() as u64 == 1u64 << index_width;
    covers_domain || x.default == y.default
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{BvCmp, BvOp};

    #[test]
    fn unassigned_variables_are_zero() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(8));
        let a = p.var("A", Sort::Array { index: 32, elem: 8 });
        let i = p.bv_const(32, 5);
        let r = p.select(a, i);
        let s = p.bin(BvOp::Add, x, r);
        let m = Model::default();
        assert_eq!(eval(&p, s, &m), Value::Bv(0));
        assert_eq!(eval(&p, a, &m), Value::Array(ArrayValue::default()));
    }

    #[test]
    fn selects_read_through_stores_and_record_reads() {
        let mut p = ExprPool::new();
        let a = p.var("A", Sort::Array { index: 8, elem: 8 });
        let i = p.var("i", Sort::Bv(8));
        let j = p.var("j", Sort::Bv(8));
        let v = p.bv_const(8, 42);
        let st = p.store(a, i, v);
        let rj = p.select(st, j);
        let mut m = Model::default();
        m.bv.insert(i, 3);
        m.bv.insert(j, 4);
        let mut arr = ArrayValue { default: 7, entries: Default::default() };
        arr.entries.insert(4, 9);
        m.arrays.insert(a, arr);
        let mut ev = Evaluator::new(&p, &m).recording_reads();
        assert_eq!(ev.eval(rj), Value::Bv(9));
        assert_eq!(ev.reads(), &[(a, 4)]);
        m.bv.insert(j, 3);
        let mut ev = Evaluator::new(&p, &m).recording_reads();
        assert_eq!(ev.eval(rj), Value::Bv(42));
        assert!(ev.reads().is_empty());
        let whole = eval(&p, st, &m);
        let Value::Array(w) = whole else { panic!() };
        assert_eq!((w.default, w.get(3), w.get(4), w.get(5)), (7, 42, 9, 7));
    }

    #[test]
    fn array_equality_is_extensional() {
        let d = |default, es: &[(u64, u64)]| ArrayValue { default, entries: es.iter().copied().collect() };
        assert!(arrays_equal(&d(0, &[(1, 0)]), &d(0, &[]), 8));
        assert!(!arrays_equal(&d(0, &[(1, 2)]), &d(0, &[]), 8));
        assert!(!arrays_equal(&d(0, &[]), &d(1, &[]), 8));
        // A 1-bit index domain fully covered: the defaults are irrelevant.
        assert!(arrays_equal(&d(0, &[(0, 5), (1, 6)]), &d(3, &[(0, 5), (1, 6)]), 1));
    }

    #[test]
    fn booleans_signed_ops_and_extensions() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(8));
        let b = p.var("b", Sort::Bool);
        let sx = p.sext(x, 16);
        let ex = p.extract(sx, 15, 8);
        let zero = p.bv_const(8, 0);
        let neg = p.cmp(BvCmp::Slt, x, zero);
        let both = p.and(neg, b);
        let mut m = Model::default();
        m.bv.insert(x, 0x80);
        m.bv.insert(b, 1);
        assert_eq!(eval(&p, sx, &m), Value::Bv(0xff80));
        assert_eq!(eval(&p, ex, &m), Value::Bv(0xff));
        assert_eq!(eval(&p, both, &m), Value::Bool(true));
        assert!(satisfies(&p, &[neg, b], &m));
        m.bv.insert(b, 0);
        assert!(!satisfies(&p, &[neg, b], &m));
    }
}

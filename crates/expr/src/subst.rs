//! Substitution of variables in hash-consed expressions, shared by the
//! summaries of the concolic engine (`compose`) and of the VC method: a
//! summary's case is stated over canonical formals and instantiated at each
//! call by replacing them with the call's arguments.

use rustc_hash::FxHashMap;

use crate::{Expr, ExprId, ExprPool};

/// `e` with the variables of `map` replaced, all at once (`memo`: nodes
/// done under this map). An `ite` whose condition becomes constant keeps
/// only the branch taken (the other is not rewritten).
pub fn substitute(
    pool: &mut ExprPool,
    e: ExprId,
    map: &FxHashMap<ExprId, ExprId>,
    memo: &mut FxHashMap<ExprId, ExprId>,
) -> ExprId {
    if let Some(&r) = map.get(&e).or_else(|| memo.get(&e)) {
        return r;
    }
    let mut s = |pool: &mut ExprPool, x: ExprId| substitute(pool, x, map, memo);
    let r = match pool.get(e).clone() {
        Expr::BoolConst(_) | Expr::BvConst { .. } | Expr::Var { .. } => e,
        Expr::Not(a) => {
            let a = s(pool, a);
            pool.not(a)
        }
        Expr::And(a, b) => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.and(a, b)
        }
        Expr::Or(a, b) => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.or(a, b)
        }
        Expr::Eq(a, b) => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.eq(a, b)
        }
        Expr::Bin { op, a, b } => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.bin(op, a, b)
        }
        Expr::Cmp { op, a, b } => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.cmp(op, a, b)
        }
        Expr::SMulNoOverflow(a, b) => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.smul_no_overflow(a, b)
        }
        Expr::Ite { cond, then_, else_ } => {
            let c = s(pool, cond);
            match pool.as_bool_const(c) {
                Some(true) => s(pool, then_),
                Some(false) => s(pool, else_),
                None => {
                    let (t, f) = (s(pool, then_), s(pool, else_));
                    pool.ite(c, t, f)
                }
            }
        }
        Expr::ZExt { a, width } => {
            let a = s(pool, a);
            pool.zext(a, width)
        }
        Expr::SExt { a, width } => {
            let a = s(pool, a);
            pool.sext(a, width)
        }
        Expr::Extract { a, hi, lo } => {
            let a = s(pool, a);
            pool.extract(a, hi, lo)
        }
        Expr::Select { array, index } => {
            let (a, i) = (s(pool, array), s(pool, index));
            pool.select(a, i)
        }
        Expr::Store { array, index, value } => {
            let (a, i, v) = (s(pool, array), s(pool, index), s(pool, value));
            pool.store(a, i, v)
        }
        Expr::ConstArray { index, value } => {
            let v = s(pool, value);
            pool.const_array(index, v)
        }
        Expr::FBin { op, rnd, fmt, a, b } => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.fbin_in(op, rnd, fmt, a, b)
        }
        Expr::FCmp { op, fmt, a, b } => {
            let (a, b) = (s(pool, a), s(pool, b));
            pool.fcmp(op, fmt, a, b)
        }
        Expr::FUn { op, fmt, a } => {
            let a = s(pool, a);
            pool.fun(op, fmt, a)
        }
        Expr::FConv { op, a } => {
            let a = s(pool, a);
            pool.fconv(op, a)
        }
    };
    memo.insert(e, r);
    r
}

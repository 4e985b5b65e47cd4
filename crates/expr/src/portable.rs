//! Models that leave their pool: the workers of a parallel search each
//! have a pool of their own, whose ids mean nothing to another, so the
//! inputs one gives another name their variables (a variable is its name
//! and sort in every pool: [`ExprPool::var`]).

use crate::pool::{Expr, ExprPool, Sort};
use crate::solver::{ArrayValue, Model};

/// A [`Model`] with variables by name and sort, sorted by name (so that
/// equal models are equal values whatever pool they came from).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortableModel {
    pub bv: Vec<(String, Sort, u64)>,
    pub arrays: Vec<(String, Sort, ArrayValue)>,
}

impl PortableModel {
    /// `model`'s variables by name. Keys that are not variables (no
    /// model has any) are left out.
    pub fn export(pool: &ExprPool, model: &Model) -> PortableModel {
        let named = |id| match pool.get(id) {
            Expr::Var { name, sort } => Some((name.clone(), *sort)),
            _ => None,
        };
        let mut bv: Vec<_> = model.bv.iter().filter_map(|(&id, &v)| named(id).map(|(n, s)| (n, s, v))).collect();
        let mut arrays: Vec<_> =
            model.arrays.iter().filter_map(|(&id, a)| named(id).map(|(n, s)| (n, s, a.clone()))).collect();
        bv.sort_by(|a, b| a.0.cmp(&b.0));
        arrays.sort_by(|a, b| a.0.cmp(&b.0));
        PortableModel { bv, arrays }
    }

    /// The model in `pool`, whose variables it interns.
    pub fn import(&self, pool: &mut ExprPool) -> Model {
        let mut model = Model::default();
        for (name, sort, v) in &self.bv {
            model.bv.insert(pool.var(name, *sort), *v);
        }
        for (name, sort, a) in &self.arrays {
            model.arrays.insert(pool.var(name, *sort), a.clone());
        }
        model
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_means_the_same_in_another_pool() {
        let mut a = ExprPool::new();
        let x = a.var("x", Sort::Bv(32));
        let arr = a.var("arr", Sort::Array { index: 64, elem: 8 });
        let mut m = Model::default();
        m.bv.insert(x, 7);
        m.arrays.insert(arr, ArrayValue { default: 1, entries: [(3, 9)].into_iter().collect() });
        let portable = PortableModel::export(&a, &m);
        // Another pool, with other variables first: other ids.
        let mut b = ExprPool::new();
        b.var("y", Sort::Bv(8));
        let back = portable.import(&mut b);
        let (bx, barr) = (b.var("x", Sort::Bv(32)), b.var("arr", Sort::Array { index: 64, elem: 8 }));
        assert_ne!(bx, x);
        assert_eq!(back.bv[&bx], 7);
        assert_eq!(back.arrays[&barr].get(3), 9);
        assert_eq!(back.arrays[&barr].get(0), 1);
        assert_eq!(PortableModel::export(&b, &back), portable);
    }
}

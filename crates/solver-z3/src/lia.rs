//! Queries checked over the integers (linear integer arithmetic).
//!
//! A query whose operations provably never wrap around under its own
//! bounds ([`pathwise_expr::linear::integer_exact`]) is satisfied by the
//! same assignments when each bit-vector is read as the signed integer it
//! denotes. Z3's `QF_LIA` solver decides such queries in about a
//! millisecond where bit-blasting took seconds: the hardest refuted
//! prefixes of the random diamonds (`diamonds_5_0`, seed 1) took the
//! bit-vector solver 0.2–4.3 s each and the integer solver 1–3 ms.
//!
//! The translation of a node does not depend on the query (the query's
//! bounds only decide *whether* it is exact), so it is cached by
//! [`ExprId`] like the bit-vector one:
//! - sums, differences, products by constants and left shifts by
//!   constants are the integer operations (exact: nothing wraps);
//! - arithmetic right shifts by constants are floor divisions by a power
//!   of two (Z3's `div` by a positive divisor is the floor);
//! - sign extensions and low extracts keep the value (a low extract is
//!   exact when the value fits its bits); a zero extension of a possibly
//!   negative `x` of `w` bits is `ite(x < 0, x + 2^w, x)`, and unsigned
//!   comparisons compare such unsigned readings;
//! - a signed-multiplication no-overflow predicate is `true` (the
//!   analysis proved the product fits);
//! - a constant-index read of an array variable is a fresh integer;
//! - the signed-overflow condition of `a + b` or `a - b` (the sign rule
//!   of [`pathwise_expr::overflow`]) is the exact result out of the
//!   width's signed range: its wrapped result is not read.
//!
//! Every leaf is constrained to its width's signed range. The model is
//! read back as two's complement bit-vectors and validated like every
//! other model; an unsatisfiable core is completed as
//! [`pathwise_expr::linear`] says ("Cores").

use pathwise_expr::linear::{is_leaf_read, reading_children, IntegerExact};
use pathwise_expr::ops::mask;
use pathwise_expr::overflow::recognise;
use pathwise_expr::{ArrayValue, BvCmp, BvOp, Expr, ExprId, ExprPool, Model, Query, SolveResult, Sort};
use rustc_hash::FxHashMap;
use z3::ast::{Bool, Dynamic, Int};
use z3::{SatResult, Solver};

use crate::Terms;

/// Pool-to-integer translation with a cache (see the module doc).
#[derive(Default)]
pub(crate) struct LiaTranslator {
    pool_uid: u64,
    cache: Vec<Option<Dynamic>>,
}

impl LiaTranslator {
    pub(crate) fn sync(&mut self, pool: &ExprPool) {
        if self.pool_uid != pool.uid() {
            self.pool_uid = pool.uid();
            self.cache.clear();
        }
        if self.cache.len() < pool.len() {
            self.cache.resize(pool.len(), None);
        }
    }

    /// The integer (or boolean) term of `root`; iterative post-order.
    pub(crate) fn term(&mut self, pool: &ExprPool, root: ExprId) -> Dynamic {
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if self.cache[id.0 as usize].is_some() {
                continue;
            }
            if !expanded {
                stack.push((id, true));
                stack.extend(reading_children(pool, id).into_iter().map(|k| (k, false)));
                continue;
            }
            let t = self.build(pool, id);
            self.cache[id.0 as usize] = Some(t);
        }
        self.cache[root.0 as usize].clone().expect("translated above")
    }

    fn get(&self, id: ExprId) -> &Dynamic {
        self.cache[id.0 as usize].as_ref().expect("children are translated first")
    }

    fn int(&self, id: ExprId) -> Int {
        self.get(id).as_int().expect("integer operand")
    }

    fn bool(&self, id: ExprId) -> Bool {
        self.get(id).as_bool().expect("boolean operand")
    }

    /// The unsigned reading of `id`, a `w`-bit value read as signed.
    fn unsigned(&self, pool: &ExprPool, id: ExprId) -> Int {
        let x = self.int(id);
        let nonneg = match *pool.get(id) {
            Expr::ZExt { .. } => true,
            Expr::BvConst { value, width } => value >> (width - 1) & 1 == 0,
            _ => false,
        };
        if nonneg {
            return x;
        }
        let w = pool.width(id);
        let wrapped = Int::add(&[x.clone(), Int::from_i128(1i128 << w)]);
        x.lt(Int::from_i64(0)).ite(&wrapped, &x)
    }

    fn build(&self, pool: &ExprPool, id: ExprId) -> Dynamic {
        if let Some(o) = recognise(pool, id) {
            let (a, b) = (self.int(o.a), self.int(o.b));
            let exact = if o.op == BvOp::Add { Int::add(&[a, b]) } else { Int::sub(&[a, b]) };
            let fits = domain(&exact, pool.width(o.a));
            return if o.overflows { fits.not() } else { fits }.into();
        }
        match *pool.get(id) {
            Expr::BoolConst(b) => Bool::from_bool(b).into(),
            Expr::BvConst { width, value } => Int::from_i64(pathwise_expr::ops::to_signed(value, width)).into(),
            Expr::Var { ref name, sort: Sort::Bool } => Bool::new_const(name.as_str()).into(),
            Expr::Var { ref name, .. } => Int::new_const(format!("{name}!int")).into(),
            Expr::Select { array, index } => {
                let Expr::Var { ref name, .. } = *pool.get(array) else { unreachable!("checked exact") };
                let c = pool.as_bv_const(index).expect("constant index");
                Int::fresh_const(&format!("{name}@{c}")).into()
            }
            Expr::Not(a) => self.bool(a).not().into(),
            Expr::And(a, b) => Bool::and(&[self.bool(a), self.bool(b)]).into(),
            Expr::Or(a, b) => Bool::or(&[self.bool(a), self.bool(b)]).into(),
            Expr::Eq(a, b) => self.get(a).eq(self.get(b)).into(),
            Expr::Cmp { op, a, b } => match op {
                BvCmp::Slt => self.int(a).lt(self.int(b)),
                BvCmp::Sle => self.int(a).le(self.int(b)),
                BvCmp::Ult => self.unsigned(pool, a).lt(self.unsigned(pool, b)),
                BvCmp::Ule => self.unsigned(pool, a).le(self.unsigned(pool, b)),
            }
            .into(),
            // The analysis proved that the product fits.
            Expr::SMulNoOverflow(..) => Bool::from_bool(true).into(),
            Expr::Ite { cond, then_, else_ } => self.bool(cond).ite(self.get(then_), self.get(else_)),
            Expr::SExt { a, .. } | Expr::Extract { a, .. } => self.get(a).clone(),
            Expr::ZExt { a, .. } => self.unsigned(pool, a).into(),
            Expr::FBin { .. } | Expr::FUn { .. } | Expr::FCmp { .. } | Expr::FConv { .. } => {
                unreachable!("floating operators have no integer reading (`integer_exact`)")
            }
            Expr::Bin { op, a, b } => {
                let (x, y) = (self.int(a), self.int(b));
                let pow2 = |s: ExprId| Int::from_i128(1i128 << pool.as_bv_const(s).expect("constant shift"));
                match op {
                    BvOp::Add => Int::add(&[x, y]),
                    BvOp::Sub => Int::sub(&[x, y]),
                    BvOp::Mul => Int::mul(&[x, y]),
                    BvOp::Shl => Int::mul(&[x, pow2(b)]),
                    BvOp::AShr | BvOp::LShr => x.div(pow2(b)),
                    _ => unreachable!("no integer reading: the analysis rejects {op:?}"),
                }
                .into()
            }
            Expr::Store { .. } | Expr::ConstArray { .. } => unreachable!("no integer reading"),
        }
    }
}

/// The signed range of a `w`-bit leaf, as a constraint on its integer.
pub(crate) fn domain(x: &Int, w: u32) -> Bool {
    let half = 1i128 << (w - 1);
    Bool::and(&[x.ge(Int::from_i128(-half)), x.le(Int::from_i128(half - 1))])
}

/// Facts beyond twice a query's parts that the integer solver keeps.
const STALE_FACTS: usize = 256;

/// The integer solver and what it keeps between queries: like the
/// bit-vector solver's guarded mode (see [`guarded`](crate::guarded)),
/// every constraint and assumption `c` is asserted once, as `p => c` with
/// its literal `p`, and each query is checked under the literals of its
/// parts, so that a query sharing most of its parts with earlier ones
/// (path prefixes; the covers of `--method vc`, whose queries repeat the
/// whole formula) costs only its new parts. Leaves' domains are facts.
pub(crate) struct IntegerSolver {
    solver: Solver,
    /// Parts asserted behind their literal, and leaves whose domain is.
    facts: rustc_hash::FxHashSet<ExprId>,
    pool_uid: u64,
}

impl IntegerSolver {
    pub(crate) fn new(solver: Solver) -> IntegerSolver {
        IntegerSolver { solver, facts: Default::default(), pool_uid: 0 }
    }

    /// Assert `part`'s fact once (`lit => part` over the integers).
    fn ensure(&mut self, terms: &mut Terms, pool: &ExprPool, part: ExprId) -> Bool {
        let p = terms.literals.entry(part).or_insert_with(|| Bool::fresh_const("pw_assume")).clone();
        if self.facts.insert(part) {
            let t = terms.lia.term(pool, part).as_bool().expect("boolean part");
            self.solver.assert(p.implies(t));
        }
        p
    }
}

/// Check `query` (which the analysis found integer-exact, see `exact`)
/// with the integer solver `s`.
pub(crate) fn check(
    s: &mut IntegerSolver,
    terms: &mut Terms,
    pool: &ExprPool,
    query: &Query,
    exact: &IntegerExact,
) -> SolveResult {
    terms.lia.sync(pool);
    let roots: Vec<ExprId> = query.constraints.iter().chain(&query.assumptions).copied().collect();
    let leaves = leaves(pool, &roots);
    // Facts of other queries slow every check down (Z3 keeps their atoms):
    // start over when they outnumber this query's parts. Queries that
    // repeat most of a large formula (the covers of `--method vc`) keep
    // it; a search whose paths keep adding atoms does not drag them along.
    // (Measured: a bound of 4,000 facts made the concolic search of
    // diamonds_5_1 6x slower than a solver per query; this rule made it
    // 1.5x faster, and the VC path cover of diamonds_5_0 2.6x faster.)
    let stale = s.facts.len() > 2 * (roots.len() + leaves.len()) + STALE_FACTS;
    if s.pool_uid != pool.uid() || stale {
        // Another pool's ids would alias too.
        s.solver.reset();
        s.facts.clear();
        s.pool_uid = pool.uid();
    }
    for &leaf in &leaves {
        if let Sort::Bv(w) = pool.sort(leaf) {
            if s.facts.insert(leaf) {
                s.solver.assert(domain(&terms.lia.term(pool, leaf).as_int().expect("integer leaf"), w));
            }
        }
    }
    let mut lits = Vec::with_capacity(roots.len());
    // Assumption literals to their first index (constraints' are always on).
    let mut lit_index: FxHashMap<Bool, usize> = FxHashMap::default();
    let n = query.constraints.len();
    for (i, &c) in query.constraints.iter().enumerate() {
        if exact.implied.binary_search(&i).is_err() {
            lits.push(s.ensure(terms, pool, c));
        }
    }
    for (i, &a) in query.assumptions.iter().enumerate() {
        if exact.implied.binary_search(&(n + i)).is_ok() {
            continue;
        }
        let p = s.ensure(terms, pool, a);
        if query.constraints.contains(&a) || lit_index.contains_key(&p) {
            continue;
        }
        lit_index.insert(p.clone(), i);
        lits.push(p);
    }
    match s.solver.check_assumptions(&lits) {
        SatResult::Sat => match s.solver.get_model() {
            Some(m) => read_model(&mut terms.lia, pool, &roots, &leaves, &m),
            None => SolveResult::Unknown("Z3 reported sat without a model".into()),
        },
        SatResult::Unsat => {
            let mut core: Vec<usize> =
                s.solver.get_unsat_core().iter().filter_map(|l| lit_index.get(l).copied()).collect();
            core.sort_unstable();
            core.dedup();
            SolveResult::Unsat { core: complete_core(pool, query, exact, core) }
        }
        SatResult::Unknown => SolveResult::Unknown(s.solver.get_reason_unknown().unwrap_or_else(|| "unknown".into())),
    }
}

/// A core of the query from a core of its integer reading (see
/// [`pathwise_expr::linear`], "Cores").
fn complete_core(pool: &ExprPool, query: &Query, exact: &IntegerExact, mut core: Vec<usize>) -> Vec<usize> {
    let sub = Query {
        constraints: query.constraints.clone(),
        assumptions: core.iter().map(|&i| query.assumptions[i]).collect(),
    };
    if pathwise_expr::linear::integer_exact(pool, &sub).is_none() {
        core.extend(&exact.assumptions_used);
        core.sort_unstable();
        core.dedup();
    }
    core
}

/// The query's leaves: variables and constant-index reads, in id order.
pub(crate) fn leaves(pool: &ExprPool, roots: &[ExprId]) -> Vec<ExprId> {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = roots.to_vec();
    let mut out = Vec::new();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        match *pool.get(id) {
            Expr::Var { .. } => out.push(id),
            Expr::Select { array, index } if is_leaf_read(pool, array, index) => out.push(id),
            ref e => stack.extend(pathwise_expr::pool::children(e)),
        }
    }
    out.sort_unstable();
    out
}

/// The model of the integer solver as bit-vectors, validated.
pub(crate) fn read_model(
    tr: &mut LiaTranslator,
    pool: &ExprPool,
    roots: &[ExprId],
    leaves: &[ExprId],
    m: &z3::Model,
) -> SolveResult {
    let mut model = Model::default();
    for &leaf in leaves {
        let t = tr.term(pool, leaf);
        let value = match pool.sort(leaf) {
            Sort::Bool => m.eval(&t.as_bool().expect("bool"), true).and_then(|b| b.as_bool()).map(u64::from),
            Sort::Bv(w) => m.eval(&t.as_int().expect("int"), true).and_then(|x| x.as_i64()).map(|x| x as u64 & mask(w)),
            Sort::Array { .. } => unreachable!("arrays are only read at constant indices"),
        };
        let Some(value) = value else { return SolveResult::Unknown("Z3's integer model has no value".into()) };
        match *pool.get(leaf) {
            Expr::Select { array, index } => {
                let index = pool.as_bv_const(index).expect("constant index");
                let cells = model.arrays.entry(array).or_insert_with(ArrayValue::default);
                cells.entries.insert(index, value);
            }
            _ => {
                model.bv.insert(leaf, value);
            }
        }
    }
    if !pathwise_expr::eval::satisfies(pool, roots, &model) {
        return SolveResult::Unknown("the integer model does not satisfy the query".into());
    }
    SolveResult::Sat(model)
}

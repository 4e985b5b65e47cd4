//! [`Z3Session`]: one Z3 solver for a sequence of checks over a formula that
//! only grows (the covers of `--method vc`).
//!
//! The backend's [`check`](crate::Z3Backend) takes a whole query each time
//! and finds out again which solver it needs, whether it is exact over the
//! integers, which of its parts the solver already holds; on the covers'
//! queries (the verification condition, a few hundred constraints, plus
//! one blocking or enabling clause per check) that bookkeeping and the
//! guard literal of every part cost more than the checks themselves. A
//! session asserts each constraint once, permanently, and every check only
//! adds what is new: Z3 keeps what it learnt about the formula from one
//! check to the next.
//!
//! **Integers.** When the constraints are integer-exact
//! ([`pathwise_expr::linear::integer_exact`]; the bounded linear VCs of the
//! random diamonds are), the session checks their integer reading (see
//! [`lia`](crate::lia)); a later constraint or assumption with bit-vector
//! terms of its own is checked for exactness with the rest, and if the
//! whole is no longer exact the session moves to a bit-vector solver,
//! asserting everything again. Constraints made only of booleans (the
//! covers' clauses over reachability variables) keep the reading exact
//! without a check.
//!
//! **The solver.** Measured on the VC path covers of the random diamonds
//! (seed 1; Z3 4.8.12; per-check times of `check` proper):
//! - Z3's default solver, not its `QF_LIA` configuration: 222 checks of
//!   `diamonds_4_0` took 1.9 s with `QF_LIA`, 0.28 s with the default;
//! - `smt.arith.propagation_mode = 0` (no bound propagation in the
//!   simplex): `diamonds_5_1`'s 795 checks 1.75 s → 0.75 s;
//! - a `push` right after creation: the default solver uses its
//!   non-incremental tactics (whose `ctx-simplify` alone took 0.13 s)
//!   until it is used incrementally, so the first check of a 9-diamond VC
//!   took ~200 ms instead of ~20 ms.
//!
//! Together with the VC's own changes (blocking clauses over the branch
//! sides taken, the precondition's facts instead of its code, conditions
//! the inputs' bounds decide left out) the path covers of the 40 programs
//! with 2-5 diamonds went from 175 s to about 6 s.
//!
//! **Models.** [`Models::Close`] keeps Z3's phase caching: each search
//! starts from the last model's values, so consecutive models differ
//! little (the seed notes SMTInterpol's same habit); that suits blocking
//! clauses. [`Models::Diverse`] uses random phases (fixed seed): with
//! enabling clauses, a model then tends to reach many uncovered blocks at
//! once instead of the one the clause forces. The statement covers of the
//! 80 diamond programs took 1,262 checks (at most 28 for one program) with
//! phase caching, 771 (at most 17) with random phases (random seeds 1 and
//! 2: 789 and 759, at most 16 and 17), against the seed's 854 (at most 20).
//!
//! Models are read for every variable of the constraints and assumptions
//! and validated against all of them with the concrete evaluator, as the
//! backend's are; a model that does not validate is an `unknown` (an
//! integer session first asks its bit-vector successor).
//!
//! **Assumptions** get a literal each (`p ⇒ a`, asserted once), so cores
//! index the assumptions as for [`Query`](pathwise_expr::Query).

use std::time::{Duration, Instant};

use pathwise_expr::linear::integer_exact;
use pathwise_expr::{Expr, ExprId, ExprPool, Query, Session, SolveResult, Sort};
use rustc_hash::{FxHashMap, FxHashSet};
use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

use crate::ackermann::{Read, Scan, Scanner};
use crate::lia::{self, LiaTranslator};
use crate::translate::Translator;
use crate::{contained, is_timeout, watchdog};

/// Counters of a [`Z3Session`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionStats {
    pub checks: u64,
    /// Time in Z3's `check` proper.
    pub check_time: Duration,
    /// Time reading and validating models.
    pub model_time: Duration,
    /// Time in Z3's `get_model`.
    pub get_model_time: Duration,
    /// Whether the session works over the integers (now).
    pub integers: bool,
    /// Moves from the integer to the bit-vector reading.
    pub fallbacks: u64,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Mode {
    Integers,
    BitVectors,
}

/// An incremental Z3 solver over one pool (see the module doc).
pub struct Z3Session {
    mode: Mode,
    models: Models,
    solver: Solver,
    pool_uid: u64,
    /// Every constraint asserted, in order (for validation and rebuilds).
    roots: Vec<ExprId>,
    /// Nodes known to contain no bit-vector or array term.
    boolean: FxHashSet<ExprId>,
    lia: LiaTranslator,
    /// Leaves of the integer reading whose domain is asserted.
    leaves: FxHashSet<ExprId>,
    leaf_list: Vec<ExprId>,
    tr: Translator,
    scanner: Scanner,
    /// What the bit-vector reading needs about everything asserted.
    scan: Scan,
    axioms: FxHashSet<ExprId>,
    /// The literal of each assumption asserted as `p ⇒ a`.
    literals: FxHashMap<ExprId, Bool>,
    deadline: Option<Instant>,
    watchdog: Option<watchdog::Watchdog>,
    stats: SessionStats,
}

/// How a session's solver picks among the models of its constraints.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Models {
    /// Z3's default: each check's search starts from the values of the last
    /// model (phase caching), so consecutive models differ little. Right
    /// for blocking clauses, which exclude one path at a time.
    #[default]
    Close,
    /// Random phases (with a fixed seed: runs repeat): consecutive models
    /// differ much. Right for enabling clauses, where a model that reaches
    /// many uncovered blocks at once saves checks (see the module doc).
    Diverse,
}

fn params(mode: Mode, models: Models) -> Params {
    let mut p = Params::new();
    p.set_bool("model.compact", false);
    p.set_bool("ctrl_c", false);
    if mode == Mode::Integers {
        // No bound propagation in the simplex (see the module doc).
        p.set_u32("smt.arith.propagation_mode", 0);
    }
    if models == Models::Diverse {
        p.set_u32("smt.phase_selection", 5);
        p.set_u32("random_seed", 1);
    }
    p
}

fn new_solver(mode: Mode, const_array: bool, models: Models) -> Solver {
    let logic = match mode {
        // Z3's default solver, not its `QF_LIA` configuration (see the
        // module doc).
        Mode::Integers => "",
        Mode::BitVectors if const_array => "",
        Mode::BitVectors => "QF_ABV",
    };
    let s = if logic.is_empty() { Solver::new() } else { Solver::new_for_logic(logic).expect("Z3 knows the logic") };
    s.set_params(&params(mode, models));
    // Z3's default solver checks with its non-incremental tactics until it
    // is used incrementally; a scope makes it incremental from the first
    // check (see the module doc). It is never popped.
    s.push();
    s
}

impl Z3Session {
    /// A session whose constraints are `constraints` (more can be added
    /// with [`Session::assert`]), with [`Models::Close`].
    pub fn new(pool: &ExprPool, constraints: &[ExprId]) -> Z3Session {
        Z3Session::with_models(pool, constraints, Models::Close)
    }

    /// A session whose constraints are `constraints` and whose models are
    /// picked as `models` says.
    pub fn with_models(pool: &ExprPool, constraints: &[ExprId], models: Models) -> Z3Session {
        let exact = integer_exact(pool, &Query { constraints: constraints.to_vec(), assumptions: Vec::new() });
        let mode = if exact.is_some() { Mode::Integers } else { Mode::BitVectors };
        let mut s = Z3Session {
            mode,
            models,
            solver: new_solver(mode, false, models),
            pool_uid: pool.uid(),
            roots: Vec::new(),
            boolean: FxHashSet::default(),
            lia: LiaTranslator::default(),
            leaves: FxHashSet::default(),
            leaf_list: Vec::new(),
            tr: Translator::default(),
            scanner: Scanner::default(),
            scan: Scan::default(),
            axioms: FxHashSet::default(),
            literals: FxHashMap::default(),
            deadline: None,
            watchdog: None,
            stats: SessionStats { integers: mode == Mode::Integers, ..Default::default() },
        };
        for &c in constraints {
            s.roots.push(c);
            s.assert_root(pool, c);
        }
        s
    }

    pub fn stats(&self) -> SessionStats {
        self.stats
    }

    /// The solver's assertions in SMT-LIB (for debugging).
    #[doc(hidden)]
    pub fn smtlib(&self) -> String {
        self.solver.to_string()
    }

    /// Whether `id` contains no bit-vector or array term (memoised).
    fn is_boolean(&mut self, pool: &ExprPool, id: ExprId) -> bool {
        let mut stack = vec![id];
        let mut seen = Vec::new();
        while let Some(n) = stack.pop() {
            if self.boolean.contains(&n) {
                continue;
            }
            match *pool.get(n) {
                Expr::BoolConst(_) | Expr::Var { sort: Sort::Bool, .. } => {}
                Expr::Not(a) => stack.push(a),
                Expr::And(a, b) | Expr::Or(a, b) => stack.extend([a, b]),
                Expr::Eq(a, b) if pool.sort(a) == Sort::Bool => stack.extend([a, b]),
                Expr::Ite { cond, then_, else_ } if pool.sort(then_) == Sort::Bool => {
                    stack.extend([cond, then_, else_])
                }
                _ => return false,
            }
            seen.push(n);
        }
        self.boolean.extend(seen);
        true
    }

    /// Assert `c` (already in `roots`) in the current reading.
    fn assert_root(&mut self, pool: &ExprPool, c: ExprId) {
        let t = self.term(pool, c);
        self.solver.assert(&t);
    }

    /// The term of boolean `c` in the current reading, with the leaves'
    /// domains (integers) or linking axioms (bit-vectors) it needs asserted.
    fn term(&mut self, pool: &ExprPool, c: ExprId) -> Bool {
        match self.mode {
            Mode::Integers => {
                self.lia.sync(pool);
                for leaf in lia::leaves(pool, &[c]) {
                    if self.leaves.insert(leaf) {
                        self.leaf_list.push(leaf);
                        if let Sort::Bv(w) = pool.sort(leaf) {
                            let x = self.lia.term(pool, leaf).as_int().expect("integer leaf");
                            self.solver.assert(lia::domain(&x, w));
                        }
                    }
                }
                self.lia.term(pool, c).as_bool().expect("boolean constraint")
            }
            Mode::BitVectors => {
                self.tr.sync(pool);
                let scan = self.scanner.scan(pool, &[c]);
                self.merge_scan(pool, scan);
                self.tr.bool_term(pool, c)
            }
        }
    }

    /// Add a scan of new constraints to the session's, asserting the
    /// linking axioms of reads of arrays that are (now) linked.
    fn merge_scan(&mut self, pool: &ExprPool, scan: Scan) {
        let known: FxHashSet<ExprId> = self.scan.vars.iter().copied().collect();
        self.scan.vars.extend(scan.vars.into_iter().filter(|v| !known.contains(v)));
        let reads: FxHashSet<ExprId> = self.scan.reads.iter().map(|r| r.select).collect();
        self.scan.reads.extend(scan.reads.into_iter().filter(|r| !reads.contains(&r.select)));
        self.scan.linked.extend(scan.linked);
        self.scan.linked.sort_unstable();
        self.scan.linked.dedup();
        if scan.const_array && !self.scan.const_array {
            self.scan.const_array = true;
        }
        let pending: Vec<Read> = self
            .scan
            .reads
            .iter()
            .filter(|r| self.scan.is_linked(r.array) && !self.axioms.contains(&r.select))
            .copied()
            .collect();
        for r in pending {
            self.axioms.insert(r.select);
            let ax = self.tr.linking_axiom(pool, &r);
            self.solver.assert(&ax);
        }
    }

    /// Start over with a bit-vector solver (the integer reading is no
    /// longer exact, or could not decide).
    fn switch_to_bitvectors(&mut self, pool: &ExprPool) {
        self.stats.fallbacks += 1;
        self.mode = Mode::BitVectors;
        self.stats.integers = false;
        self.literals.clear();
        self.scan = self.scanner.scan(pool, &self.roots);
        self.solver = new_solver(Mode::BitVectors, self.scan.const_array, self.models);
        self.tr.sync(pool);
        self.axioms.clear();
        let scan = std::mem::take(&mut self.scan);
        self.merge_scan(pool, scan);
        for c in self.roots.clone() {
            let t = self.tr.bool_term(pool, c);
            self.solver.assert(&t);
        }
        self.restart_watchdog();
    }

    fn restart_watchdog(&mut self) {
        let ctx = self.solver.get_context().get_z3_context();
        self.watchdog = self.deadline.map(|d| watchdog::Watchdog::start(ctx, d));
    }

    /// Whether the integer reading stays exact with `extra` added.
    fn stays_exact(&mut self, pool: &ExprPool, extra: &[ExprId]) -> bool {
        if extra.iter().all(|&e| self.is_boolean(pool, e)) {
            return true;
        }
        let mut constraints = self.roots.clone();
        constraints.extend(extra);
        integer_exact(pool, &Query { constraints, assumptions: Vec::new() }).is_some()
    }

    fn check_once(&mut self, pool: &ExprPool, assumptions: &[ExprId]) -> SolveResult {
        let mut lits = Vec::with_capacity(assumptions.len());
        let mut index: FxHashMap<Bool, usize> = FxHashMap::default();
        for (i, &a) in assumptions.iter().enumerate() {
            let p = match self.literals.get(&a) {
                Some(p) => p.clone(),
                None => {
                    let p = Bool::fresh_const("pw_session");
                    let t = self.term(pool, a);
                    self.solver.assert(p.implies(&t));
                    self.literals.insert(a, p.clone());
                    p
                }
            };
            if !index.contains_key(&p) {
                index.insert(p.clone(), i);
                lits.push(p);
            }
        }
        let start = Instant::now();
        let r = self.solver.check_assumptions(&lits);
        self.stats.check_time += start.elapsed();
        match r {
            SatResult::Sat => {
                let start = Instant::now();
                let Some(m) = self.solver.get_model() else {
                    return SolveResult::Unknown("Z3 reported sat without a model".into());
                };
                self.stats.get_model_time += start.elapsed();
                let start = Instant::now();
                let mut roots = self.roots.clone();
                roots.extend(assumptions);
                let r = match self.mode {
                    Mode::Integers => lia::read_model(&mut self.lia, pool, &roots, &self.leaf_list, &m),
                    Mode::BitVectors => match crate::model::extract(&mut self.tr, pool, &roots, &self.scan, &m) {
                        Ok(model) => SolveResult::Sat(model),
                        Err(e) => SolveResult::Unknown(e),
                    },
                };
                self.stats.model_time += start.elapsed();
                r
            }
            SatResult::Unsat => {
                let mut core: Vec<usize> =
                    self.solver.get_unsat_core().iter().filter_map(|l| index.get(l).copied()).collect();
                core.sort_unstable();
                core.dedup();
                SolveResult::Unsat { core }
            }
            SatResult::Unknown => {
                SolveResult::Unknown(self.solver.get_reason_unknown().unwrap_or_else(|| "unknown".into()))
            }
        }
    }
}

impl Session for Z3Session {
    fn assert(&mut self, pool: &ExprPool, constraint: ExprId) {
        assert_eq!(pool.uid(), self.pool_uid, "a session serves one pool");
        if self.mode == Mode::Integers && !self.stays_exact(pool, &[constraint]) {
            self.roots.push(constraint);
            self.switch_to_bitvectors(pool);
            return;
        }
        self.roots.push(constraint);
        if contained(|| self.assert_root(pool, constraint)).is_err() {
            self.switch_to_bitvectors(pool);
        }
    }

    fn check(&mut self, pool: &ExprPool, assumptions: &[ExprId]) -> SolveResult {
        assert_eq!(pool.uid(), self.pool_uid, "a session serves one pool");
        self.stats.checks += 1;
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return SolveResult::Unknown("deadline reached before the check".into());
        }
        if self.mode == Mode::Integers && !self.stays_exact(pool, assumptions) {
            self.switch_to_bitvectors(pool);
        }
        let r = contained(|| self.check_once(pool, assumptions))
            .unwrap_or_else(|what| SolveResult::Unknown(format!("internal solver error: {what}")));
        match r {
            SolveResult::Unknown(why) if self.mode == Mode::Integers && !is_timeout(&why) => {
                self.switch_to_bitvectors(pool);
                contained(|| self.check_once(pool, assumptions))
                    .unwrap_or_else(|what| SolveResult::Unknown(format!("internal solver error: {what}")))
            }
            r => r,
        }
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.restart_watchdog();
    }
}

//! The Z3 backend of the Pathwise solver layer (the only crate that links Z3).
//!
//! [`Z3Backend`] implements [`SolverBackend`]: it translates hash-consed
//! pool expressions to Z3 terms (cached across queries, see
//! [`translate`](crate::translate)), checks `constraints ∧ assumptions` with
//! long-lived Z3 solvers, and reads back a validated [`Model`] (see
//! [`model`](crate::model)) or an unsat core.
//!
//! Z3 objects of the `z3` crate live in a thread-local context: a backend
//! must be used on the thread that created it (it is not `Send`).
//!
//! Measurements below are from the `solver_bench` example and from replaying
//! the ~560 backend queries of the engine's Merge benchmark (k = 5), on Z3
//! 4.8.12. The Merge queries are small: 20–50 comparisons of 32-bit values
//! read from input arrays at constant offsets, and of 64-bit lengths.
//!
//! **Ackermannization.** A read `select(A, c)` of an array variable at a
//! constant index becomes a fresh bit-vector constant `A@c`; a query that
//! also uses `A` another way gets the axioms `select(A, c) = A@c` (see
//! [`ackermann`](crate::ackermann)). Queries whose arrays are only read at
//! constant indices (all of Merge's) thus contain no array at all.
//!
//! **Three solvers.** Queries without arrays go to a "bit-vector" solver.
//! Z3 4.8.12's `QF_BV` and `QF_FD` solvers (SAT-based) took 3.0–3.4 ms per
//! query on the Merge-like workload with `push`/`pop` and ~1.0 ms with
//! [`Reuse::Guarded`], the default solver 1.6 / 0.9 ms, and a solver
//! created for `QF_ABV` (Z3's SMT core configured for bit-vectors and
//! simple arrays) 1.15 / 0.5 ms: the bit-vector solver is therefore a
//! `QF_ABV` one too, kept apart so that its facts do not mix with array
//! reasoning. Queries with arrays go to a second `QF_ABV` solver: against
//! the default solver's auto-configuration it took 1.0 ms against 1.5 ms
//! per array query, and 10 ms against 30 ms on bit-vector queries with
//! multiplications and remainders. The simple array theory does not
//! support constant arrays (Z3 answers `unknown`, "incomplete (theory
//! array)"), so queries that contain one, and any query the `QF_ABV`
//! solver finds incomplete, go to a default (full array theory) solver.
//!
//! **Integers.** A query without arrays whose arithmetic provably never
//! wraps under its own bounds, and that adds or subtracts two
//! non-constant terms, goes to a fourth solver, for linear integer
//! arithmetic (see [`lia`](crate::lia)): bit-blasting is slow at sums of
//! bounded variables (seed 001's random diamonds: up to 4.3 s per refuted
//! prefix of `diamonds_5_0`, 21.7 s for the run; over the integers 0.5 s
//! for the run), and exact once nothing wraps.
//!
//! **Solver reuse.** Solvers serve many queries; see [`Reuse`] and
//! [`guarded`](crate::guarded) for the default, which keeps the parts of
//! past queries in the solver behind literals instead of asserting and
//! bit-blasting every query from scratch in a `push`/`pop` scope. Per query
//! on the Merge replay (two versions of the engine, whose queries differ):
//! 1.1 and 1.6 ms before this backend used Ackermannization and guarded
//! solvers, 0.30 and 0.52 ms after (about two thirds in the checks proper,
//! most of the rest in Z3 building the models of satisfiable queries);
//! with `push`/`pop` instead of guarded solvers, 0.98 and 1.43 ms. On the
//! `solver_bench` workloads, `push`/`pop` → guarded: random array queries
//! 1.0–1.1 → 0.77–0.81 ms, Merge-like queries 1.0–1.2 → 0.37–0.48 ms,
//! random 32-bit arithmetic 1.8–2.0 → 2.0–2.1 ms, its worst case (queries
//! with a non-linear operator are checked in a plain `push`/`pop` scope,
//! see the module). A fresh solver or a `reset` per query took 1.5–1.7 ms
//! (Z3 reruns its non-incremental tactic pipeline each time).
//!
//! **Assumptions.** Each assumption `a` gets a fresh boolean literal `p`
//! (cached per expression id), `p ⇒ a` is asserted and the literals are
//! passed to `check_assumptions`; the unsat core's literals map back to
//! assumption indices. Z3 4.8.12 accepts non-literal assumptions directly,
//! but then simplifies them: a `false` assumption gives an *empty* core,
//! which would tell the engine the constraints alone are unsatisfiable.
//! Literals keep cores exact. (Guarded solvers give constraints literals
//! too, and enable them as unit facts of the query's scope, so that cores
//! still only name assumptions; see [`guarded`](crate::guarded).)
//!
//! **Parameters.** Besides `timeout`, two parameters of Z3 4.8.12, each
//! measured on the Merge replay with guarded solvers:
//! `model.compact = false` (no compaction of models, which our bit-vector
//! and store-chain models do not need) took `get_model` from ~0.22 to
//! ~0.13 ms per satisfiable query, and `smt.bv.eq_axioms = false` (no
//! "redundant" bit-vector equality axioms) the checks from ~0.28 to
//! ~0.23 ms; on insertAVL under `avl_ok` at k = 2 it is the difference
//! between 11 s and 80 s. The latter is set for the bit-vector solver
//! only, and it is *incomplete*: without the axioms, Z3 may answer `sat`
//! with a model that violates the query (with arrays often, which is why
//! the array solvers keep the axioms; without arrays rarely: once on the
//! random diamonds `diamonds_4_2` of seed 001's generator, seed 1). Its
//! `unsat` answers stay sound (dropping valid axioms only weakens the
//! formula), and every model is validated, so a wrong model is an
//! `unknown`, which the second opinion below settles. Before it existed,
//! that one `unknown` was a dropped prefix: 92 tests instead of 104, under
//! a stop line that said "complete". Tried without measurable effect, and
//! not kept: `smt.relevancy` (0, 1, 2; the logic's setup fixes it unless
//! `smt.auto_config` is off, which was slower), `smt.bv.reflect`,
//! `smt.bv.delay`, `smt.bv.watch_diseq`, `smt.case_split`,
//! `smt.restart_strategy`, `model.completion`; `smt.phase_selection = 0`
//! was slower.
//!
//! **Second opinion.** An `unknown` that is not a timeout (a model that
//! fails validation, an incomplete theory, a contained panic) is asked
//! again of a new solver with Z3's default configuration, which shares
//! nothing with the long-lived ones; only its answer counts. An `unknown`
//! that remains is reported to the engine, which never counts it as an
//! infeasible prefix.
//!
//! **Deadlines.** [`SolverBackend::set_deadline`] starts a watchdog that
//! interrupts Z3 at the deadline (see [`watchdog`](crate::watchdog): Z3's
//! `timeout` parameter, set on a solver in use, did not stop its check),
//! so a run with `--timeout` never waits for a hard query past its budget;
//! a check asked after the deadline is `unknown` at once, and a second
//! opinion gets only the time left. A query with floats may also have a
//! budget of its own ([`Z3Backend::with_float_budget`]): a watchdog per
//! such check interrupts it when the budget is spent. In Z3 4.8.12 a
//! multiplication or division of two symbolic doubles can take minutes to
//! refute; under a time limit, one such query would take the time of
//! every other prefix. (A watchdog that fires just as its check ends can
//! only make the next check `unknown`, never answer it wrongly.)
//!
//! **Failures.** A panic in the `z3` crate (it unwraps Z3's null results,
//! e.g. for an ill-sorted term) is caught around the check: the query is
//! `unknown`, the solvers are renewed, and the run goes on
//! ([`panic_is_contained`] lets the CLI's panic hook stay quiet).
//!
//! **Z3 errors.** The `z3` crate disables Z3's error handler, so Z3 errors
//! go unnoticed. Z3 4.8.12 validates parameter names only on an initialised
//! solver, where an unknown name makes it drop the whole parameter set
//! (timeout included); on a new solver, as the backend sets them, a
//! misspelt name would silently do nothing. The unit test
//! `z3_accepts_every_parameter` therefore sets the backend's parameters on
//! an initialised solver of each kind and checks Z3's error code, and
//! `tuning_parameters_keep_answers_right` checks each solver's answers and
//! timeout.

mod ackermann;
mod float;
mod guarded;
mod lia;
mod model;
mod oracle;
mod session;
mod tables;
mod translate;
mod watchdog;

use std::time::{Duration, Instant};

use pathwise_expr::{ExprId, ExprPool, Query, SolveResult, SolverBackend};
use rustc_hash::FxHashMap;
use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

pub use crate::oracle::SmtLibOracle;
pub use crate::session::{Models, SessionStats, Z3Session};

use crate::ackermann::{Scan, Scanner};
use crate::translate::Translator;

/// How a Z3 solver is reused between queries.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Reuse {
    /// Long-lived solvers that keep the parts of past queries behind
    /// literals, and check each query in a light `push`/`pop` scope that
    /// enables its parts (the default: fastest; see the crate doc).
    #[default]
    Guarded,
    /// Each query in a `push`/`pop` scope of a long-lived solver.
    PushPop,
    /// A long-lived solver, `reset` after each query.
    Reset,
    /// A new solver per query.
    Fresh,
}

/// Counters of a [`Z3Backend`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Z3Stats {
    pub checks: u64,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
    /// Checks that went to the bit-vector solver (queries without arrays
    /// once constant-index reads are Ackermannized).
    pub bv_checks: u64,
    /// Checks that went to the full-array-theory solver (constant arrays,
    /// or an incomplete answer of the `QF_ABV` solver).
    pub general_checks: u64,
    /// Time spent in Z3's `check` proper (not translation or models).
    pub check_time: Duration,
    /// Time spent reading, completing and validating models.
    pub model_time: Duration,
    /// `unknown` answers asked again of a new default solver (see the
    /// crate doc, "Second opinion"), and how many of those it settled.
    pub second_opinions: u64,
    pub settled_by_second_opinion: u64,
    /// Panics of the `z3` crate contained to their query.
    pub contained_panics: u64,
    /// Checks that went to the integer solver (see [`lia`](crate::lia)).
    pub integer_checks: u64,
    /// Checks of queries with floating operators (see [`float`](crate::float)),
    /// which go to a solver of Z3's default configuration.
    pub float_checks: u64,
}

/// Which of the three solvers (see the crate doc).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Kind {
    Bv,
    QfAbv,
    General,
    /// Queries with floating operators and arrays: Z3's default solver
    /// (the `QF_ABV` setup has no floating-point theory).
    Float,
    /// Queries with floating operators and no array: Z3's `QF_FPBV`
    /// tactic (floats to bit-vectors, bit-blasting, SAT), 1.75x faster
    /// than the default solver on `tests/c/floats.c`'s `conversions`.
    FloatBv,
}

/// How solvers are created.
struct Setup {
    /// Parameters of the solvers for queries with arrays.
    params: Params,
    /// Parameters of the [`Kind::Bv`] solver: `params` and
    /// `smt.bv.eq_axioms = false` (see the crate doc: incomplete, its wrong
    /// models are caught by validation and asked again).
    bv_params: Params,
    /// The logic of the [`Kind::Bv`] solver (`""`: Z3's default solver).
    bv_logic: &'static str,
}

impl Setup {
    fn solver(&self, kind: Kind) -> Solver {
        let logic = match kind {
            Kind::Bv => self.bv_logic,
            Kind::QfAbv => "QF_ABV",
            Kind::FloatBv => "QF_FPBV",
            Kind::General | Kind::Float => "",
        };
        let s =
            if logic.is_empty() { Solver::new() } else { Solver::new_for_logic(logic).expect("Z3 knows the logic") };
        s.set_params(self.params(kind));
        s
    }

    fn params(&self, kind: Kind) -> &Params {
        match kind {
            Kind::Bv => &self.bv_params,
            Kind::QfAbv | Kind::General | Kind::Float | Kind::FloatBv => &self.params,
        }
    }
}

/// One of the backend's solvers, with what it keeps between queries.
struct Slot {
    kind: Kind,
    solver: Solver,
    /// Bookkeeping of [`Reuse::Guarded`].
    facts: guarded::Facts,
    /// The parameters and logic to renew the solver with (a copy: `Params`
    /// is reference-counted by Z3).
    setup: std::rc::Rc<Setup>,
}

impl Slot {
    fn new(kind: Kind, setup: &std::rc::Rc<Setup>) -> Slot {
        Slot { kind, solver: setup.solver(kind), facts: guarded::Facts::default(), setup: setup.clone() }
    }

    /// Replace the solver by a new one (what the slot knows about past
    /// queries stays valid: it is keyed by pool ids).
    fn renew(&mut self) {
        self.solver = self.setup.solver(self.kind);
        self.facts.forget_kept();
    }
}

/// Translation state shared by all solvers.
struct Terms {
    translator: Translator,
    scanner: Scanner,
    /// The literal of each node that is a part of some query: a boolean
    /// expression `e` (a constraint or assumption; the fact is `p ⇒ e`), or
    /// an Ackermannized read (the fact is `p ⇒ select(A, c) = A@c`). See
    /// the crate doc.
    literals: FxHashMap<ExprId, Bool>,
    /// The integer translation (see [`lia`](crate::lia)).
    lia: lia::LiaTranslator,
}

impl Terms {
    fn literal(&mut self, id: ExprId) -> Bool {
        self.literals.entry(id).or_insert_with(|| Bool::fresh_const("pw_assume")).clone()
    }
}

/// The Z3 solver backend; see the crate doc.
pub struct Z3Backend {
    bv: Slot,
    qf_abv: Slot,
    general: Slot,
    float: Slot,
    float_bv: Slot,
    /// The `QF_LIA` solver for integer-exact queries (see
    /// [`lia`](crate::lia)); `None` when disabled.
    integers: Option<lia::IntegerSolver>,
    reuse: Reuse,
    terms: Terms,
    pool_uid: u64,
    stats: Z3Stats,
    /// The backend's own limit per check.
    timeout_ms: Option<u32>,
    /// See [`SolverBackend::set_deadline`].
    deadline: Option<Instant>,
    /// Interrupts Z3 at the deadline (see [`watchdog`](crate::watchdog)).
    watchdog: Option<watchdog::Watchdog>,
    /// Interrupts Z3 when the caller's stop flag is set.
    flag_watchdog: Option<watchdog::Watchdog>,
    /// The time a query with floats may take (see the crate doc,
    /// "Deadlines"); `None` for no limit.
    float_budget: Option<std::time::Duration>,
}

/// The logic of the bit-vector solver (see the crate doc).
const BV_LOGIC: &str = "QF_ABV";

impl Z3Backend {
    /// A backend whose checks give up after `timeout_ms` milliseconds
    /// (reported as [`SolveResult::Unknown`]); `None` for no limit.
    pub fn new(timeout_ms: Option<u32>) -> Z3Backend {
        Z3Backend::with_reuse(timeout_ms, Reuse::default())
    }

    /// Like [`Z3Backend::new`], with an explicit solver-reuse strategy (for
    /// measurements; the default is the fastest one measured).
    pub fn with_reuse(timeout_ms: Option<u32>, reuse: Reuse) -> Z3Backend {
        Z3Backend::with_bv_logic(timeout_ms, reuse, BV_LOGIC)
    }

    /// Like [`Z3Backend::with_reuse`], with the logic of the solver for
    /// queries without arrays (`""` for Z3's default solver). For the
    /// measurements of the `solver_bench` example only.
    #[doc(hidden)]
    pub fn with_bv_logic(timeout_ms: Option<u32>, reuse: Reuse, bv_logic: &'static str) -> Z3Backend {
        // See the crate doc ("Parameters") for the measurements, and the
        // tests `z3_accepts_every_parameter` and
        // `tuning_parameters_keep_answers_right`.
        let common = || {
            let mut params = Params::new();
            if let Some(ms) = timeout_ms {
                params.set_u32("timeout", ms);
            }
            params.set_bool("model.compact", false);
            // Z3 catches SIGINT during a check and cancels just that
            // check; Ctrl-C must reach the CLI's handler, which stops the
            // run (and interrupts the check through the flag watchdog).
            params.set_bool("ctrl_c", false);
            params
        };
        let mut bv_params = common();
        bv_params.set_bool("smt.bv.eq_axioms", false);
        let setup = std::rc::Rc::new(Setup { params: common(), bv_params, bv_logic });
        Z3Backend {
            bv: Slot::new(Kind::Bv, &setup),
            qf_abv: Slot::new(Kind::QfAbv, &setup),
            general: Slot::new(Kind::General, &setup),
            float: Slot::new(Kind::Float, &setup),
            float_bv: Slot::new(Kind::FloatBv, &setup),
            integers: Some(lia::IntegerSolver::new(integer_solver(&setup))),
            reuse,
            terms: Terms {
                translator: Translator::default(),
                scanner: Scanner::default(),
                literals: FxHashMap::default(),
                lia: lia::LiaTranslator::default(),
            },
            pool_uid: 0,
            stats: Z3Stats::default(),
            timeout_ms,
            deadline: None,
            watchdog: None,
            flag_watchdog: None,
            float_budget: None,
        }
    }

    /// Give up a query with floats after `budget` (it answers `unknown`,
    /// which the search never takes for infeasible): one hard query, a
    /// floating multiplier circuit to refute, must not spend a run's whole
    /// time while other prefixes wait. `None` (the default) for no limit.
    pub fn with_float_budget(mut self, budget: Option<std::time::Duration>) -> Z3Backend {
        self.float_budget = budget;
        self
    }

    /// Check every query with bit-vectors, none over the integers (for
    /// measurements and differential tests; see [`lia`](crate::lia)).
    pub fn without_integers(mut self) -> Z3Backend {
        self.integers = None;
        self
    }

    /// Interrupt a running check when `flag` is set (the CLI's Ctrl-C
    /// flag): the check answers `unknown` at once, and the search, which
    /// reads the same flag, stops (see [`watchdog`](crate::watchdog)).
    pub fn interrupt_when(mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Z3Backend {
        let ctx = self.bv.solver.get_context().get_z3_context();
        self.flag_watchdog = Some(watchdog::Watchdog::on_flag(ctx, flag));
        self
    }

    pub fn stats(&self) -> Z3Stats {
        self.stats
    }

    /// Number of expressions whose Z3 translation is cached.
    pub fn cached_translations(&self) -> usize {
        self.terms.translator.cached()
    }

    /// Forget everything tied to the previous pool (ids would alias).
    fn change_pool(&mut self, pool: &ExprPool) {
        self.pool_uid = pool.uid();
        self.terms.literals.clear();
        self.terms.scanner.reset();
        for slot in [&mut self.bv, &mut self.qf_abv, &mut self.general, &mut self.float, &mut self.float_bv] {
            if self.reuse == Reuse::Guarded {
                slot.renew();
            }
            slot.facts = guarded::Facts::default();
        }
    }

    /// Check `query` with the solver of `kind`, reused as configured.
    fn run(&mut self, kind: Kind, pool: &ExprPool, query: &Query, scan: &Scan) -> SolveResult {
        match kind {
            Kind::Bv => self.stats.bv_checks += 1,
            Kind::QfAbv => {}
            Kind::General => self.stats.general_checks += 1,
            Kind::Float | Kind::FloatBv => self.stats.float_checks += 1,
        }
        let slot = match kind {
            Kind::Bv => &mut self.bv,
            Kind::QfAbv => &mut self.qf_abv,
            Kind::General => &mut self.general,
            Kind::Float => &mut self.float,
            Kind::FloatBv => &mut self.float_bv,
        };
        let cx = Cx { terms: &mut self.terms, stats: &mut self.stats, pool, query, scan };
        match self.reuse {
            Reuse::Guarded => guarded::check(slot, cx),
            Reuse::PushPop => {
                slot.solver.push();
                let r = check_scoped(&slot.solver, cx);
                slot.solver.pop(1);
                r
            }
            Reuse::Reset => {
                let r = check_scoped(&slot.solver, cx);
                slot.solver.reset();
                r
            }
            Reuse::Fresh => {
                slot.renew();
                check_scoped(&slot.solver, cx)
            }
        }
    }
}

impl Z3Backend {
    /// The limit of the next check, in milliseconds: the backend's own,
    /// shortened to the time left before the deadline. `Err` when the
    /// deadline has passed.
    fn limit_ms(&self) -> Result<Option<u32>, ()> {
        let Some(deadline) = self.deadline else { return Ok(self.timeout_ms) };
        let left = deadline.saturating_duration_since(Instant::now()).as_millis();
        if left == 0 {
            return Err(());
        }
        let left = u32::try_from(left).unwrap_or(u32::MAX);
        Ok(Some(self.timeout_ms.map_or(left, |t| t.min(left))))
    }

    /// The check proper: the solver the query needs, reused as configured.
    fn dispatch(&mut self, pool: &ExprPool, query: &Query) -> SolveResult {
        let roots: Vec<ExprId> = query.constraints.iter().chain(&query.assumptions).copied().collect();
        let scan = self.terms.scanner.scan(pool, &roots);
        if roots.iter().any(|&r| pool.has_float(r)) {
            let kind = if scan.is_pure_bv() { Kind::FloatBv } else { Kind::Float };
            // Dropped after the check: the budget's watchdog stands down.
            let _budget = self.float_budget.map(|b| {
                let end = Instant::now() + b;
                let end = self.deadline.map_or(end, |d| d.min(end));
                watchdog::Watchdog::start(self.bv.solver.get_context().get_z3_context(), end)
            });
            return self.run(kind, pool, query, &scan);
        }
        if scan.const_array {
            return self.run(Kind::General, pool, query, &scan);
        }
        if scan.is_pure_bv() {
            if let Some(r) = self.over_integers(pool, query) {
                return r;
            }
            return self.run(Kind::Bv, pool, query, &scan);
        }
        match self.run(Kind::QfAbv, pool, query, &scan) {
            SolveResult::Unknown(reason) if reason.contains("incomplete") => {
                self.stats.unknown -= 1; // counted again by the retry
                self.run(Kind::General, pool, query, &scan)
            }
            r => r,
        }
    }

    /// Check an integer-exact query with arithmetic over the integers;
    /// `None` for other queries, and when the integer solver could not
    /// decide (the bit-vector solver then has its turn).
    fn over_integers(&mut self, pool: &ExprPool, query: &Query) -> Option<SolveResult> {
        let solver = self.integers.as_mut()?;
        let exact = pathwise_expr::linear::integer_exact(pool, query)?;
        if let Some(core) = exact.refuted {
            self.stats.unsat += 1;
            return Some(SolveResult::Unsat { core });
        }
        if !exact.sums_variables {
            return None;
        }
        self.stats.integer_checks += 1;
        let start = Instant::now();
        let r = lia::check(solver, &mut self.terms, pool, query, &exact);
        self.stats.check_time += start.elapsed();
        match &r {
            SolveResult::Sat(_) => self.stats.sat += 1,
            SolveResult::Unsat { .. } => self.stats.unsat += 1,
            SolveResult::Unknown(why) if is_timeout(why) => self.stats.unknown += 1,
            SolveResult::Unknown(_) => return None,
        }
        Some(r)
    }

    /// Ask `query` of a new solver with Z3's default configuration (see
    /// the crate doc, "Second opinion").
    fn second_opinion(&mut self, pool: &ExprPool, query: &Query, limit: Option<u32>) -> SolveResult {
        self.stats.second_opinions += 1;
        let roots: Vec<ExprId> = query.constraints.iter().chain(&query.assumptions).copied().collect();
        let scan = self.terms.scanner.scan(pool, &roots);
        let solver = Solver::new();
        let mut p = Params::new();
        p.set_bool("ctrl_c", false);
        if let Some(ms) = limit {
            p.set_u32("timeout", ms);
        }
        solver.set_params(&p);
        let cx = Cx { terms: &mut self.terms, stats: &mut self.stats, pool, query, scan: &scan };
        let r = check_scoped(&solver, cx);
        if !matches!(r, SolveResult::Unknown(_)) {
            self.stats.settled_by_second_opinion += 1;
        }
        r
    }

    /// Renew every solver (after a contained panic: a scope may be open).
    fn renew_all(&mut self) {
        for slot in [&mut self.bv, &mut self.qf_abv, &mut self.general, &mut self.float, &mut self.float_bv] {
            slot.renew();
            slot.facts = guarded::Facts::default();
        }
        if self.integers.is_some() {
            self.integers = Some(lia::IntegerSolver::new(integer_solver(&self.bv.setup)));
        }
    }
}

/// The solver for integer-exact queries (see [`lia`](crate::lia)).
fn integer_solver(setup: &Setup) -> Solver {
    let s = Solver::new_for_logic("QF_LIA").expect("Z3 knows QF_LIA");
    s.set_params(&setup.params);
    s
}

/// Whether an `unknown` reason says the time ran out (or the check was
/// interrupted): asking again would only spend more time.
fn is_timeout(reason: &str) -> bool {
    ["timeout", "canceled", "cancelled", "interrupted", "deadline"].iter().any(|w| reason.contains(w))
}

thread_local! {
    static CONTAINED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the current thread is inside a check whose panics the backend
/// contains (a panic hook can then stay quiet: the query becomes
/// `unknown` and the run goes on).
pub fn panic_is_contained() -> bool {
    CONTAINED.with(|c| c.get())
}

/// Run `f` with panics contained (see [`panic_is_contained`]).
fn contained<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let was = CONTAINED.with(|c| c.replace(true));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(was));
    r.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into())
    })
}

impl SolverBackend for Z3Backend {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolveResult {
        self.stats.checks += 1;
        if self.limit_ms().is_err() {
            self.stats.unknown += 1;
            return SolveResult::Unknown("deadline reached before the check".into());
        }
        let r = match contained(|| {
            self.terms.translator.sync(pool);
            if self.pool_uid != pool.uid() {
                self.change_pool(pool);
            }
            self.dispatch(pool, query)
        }) {
            Ok(r) => r,
            Err(what) => {
                self.stats.contained_panics += 1;
                self.stats.unknown += 1;
                // The translation caches may hold half-built state, and a
                // solver may be left inside a scope: start over.
                self.terms.translator = Translator::default();
                self.terms.lia = lia::LiaTranslator::default();
                self.terms.literals.clear();
                self.terms.scanner.reset();
                self.pool_uid = 0;
                self.renew_all();
                return SolveResult::Unknown(format!("internal solver error: {what}"));
            }
        };
        match r {
            SolveResult::Unknown(reason) if !is_timeout(&reason) => {
                let Ok(limit) = self.limit_ms() else { return SolveResult::Unknown(reason) };
                match contained(|| self.second_opinion(pool, query, limit)) {
                    Ok(SolveResult::Unknown(again)) => {
                        self.stats.unknown -= 1; // one query, one unknown
                        SolveResult::Unknown(format!("{reason}; then {again}"))
                    }
                    Ok(r) => {
                        self.stats.unknown -= 1;
                        r
                    }
                    Err(what) => {
                        self.stats.contained_panics += 1;
                        SolveResult::Unknown(format!("{reason}; then internal solver error: {what}"))
                    }
                }
            }
            r => r,
        }
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        let ctx = self.bv.solver.get_context().get_z3_context();
        self.watchdog = deadline.map(|d| watchdog::Watchdog::start(ctx, d));
    }
}

/// One query and the backend state that checking it uses.
struct Cx<'a> {
    terms: &'a mut Terms,
    stats: &'a mut Z3Stats,
    pool: &'a ExprPool,
    query: &'a Query,
    scan: &'a Scan,
}

/// Assert the query of `cx` in the current scope of `solver` and check it
/// (all strategies but [`Reuse::Guarded`]).
fn check_scoped(solver: &Solver, cx: Cx) -> SolveResult {
    let (pool, query, scan, terms) = (cx.pool, cx.query, cx.scan, &mut *cx.terms);
    for &c in &query.constraints {
        solver.assert(terms.translator.bool_term(pool, c));
    }
    for read in scan.reads.iter().filter(|r| scan.is_linked(r.array)) {
        solver.assert(terms.translator.linking_axiom(pool, read));
    }
    // One literal per distinct assumption, mapped to its first index.
    let mut lits = Vec::with_capacity(query.assumptions.len());
    let mut lit_index: FxHashMap<Bool, usize> = FxHashMap::default();
    for (i, &a) in query.assumptions.iter().enumerate() {
        let p = terms.literal(a);
        if lit_index.contains_key(&p) {
            continue;
        }
        solver.assert(p.implies(terms.translator.bool_term(pool, a)));
        lit_index.insert(p.clone(), i);
        lits.push(p);
    }
    check_under(solver, &lits, &lit_index, cx)
}

/// Check `solver` under the assumption literals `lits` and read the
/// answer: a validated model, or a core of assumption indices through
/// `lit_index`.
fn check_under(solver: &Solver, lits: &[Bool], lit_index: &FxHashMap<Bool, usize>, cx: Cx) -> SolveResult {
    let Cx { terms, stats, pool, query, scan } = cx;
    let start = Instant::now();
    let r = solver.check_assumptions(lits);
    stats.check_time += start.elapsed();
    match r {
        SatResult::Sat => {
            stats.sat += 1;
            let Some(m) = solver.get_model() else {
                return SolveResult::Unknown("Z3 reported sat without a model".into());
            };
            let start = Instant::now();
            let roots: Vec<ExprId> = query.constraints.iter().chain(&query.assumptions).copied().collect();
            let r = match model::extract(&mut terms.translator, pool, &roots, scan, &m) {
                Ok(model) => SolveResult::Sat(model),
                Err(e) => SolveResult::Unknown(e),
            };
            stats.model_time += start.elapsed();
            r
        }
        SatResult::Unsat => {
            stats.unsat += 1;
            let mut core: Vec<usize> =
                solver.get_unsat_core().iter().filter_map(|l| lit_index.get(l).copied()).collect();
            core.sort_unstable();
            core.dedup();
            SolveResult::Unsat { core }
        }
        SatResult::Unknown => {
            stats.unknown += 1;
            SolveResult::Unknown(solver.get_reason_unknown().unwrap_or_else(|| "unknown".into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error code of Z3's last call on `s`'s context.
    fn last_error(s: &Solver) -> z3_sys::ErrorCode {
        // SAFETY: a plain query of the (thread-local) context's state.
        unsafe { z3_sys::Z3_get_error_code(s.get_context().get_z3_context()) }
    }

    /// The `z3` crate ignores Z3 errors, and Z3 only validates parameter
    /// names on an initialised solver (those given at creation, as the
    /// backend does, are taken without a check: a misspelt one would do
    /// nothing). So set the backend's parameters again on an initialised
    /// solver of each kind and read the error code.
    #[test]
    fn z3_accepts_every_parameter() {
        let backend = Z3Backend::new(Some(1000));
        let setup = &backend.bv.setup;
        for kind in [Kind::Bv, Kind::QfAbv, Kind::General] {
            let s = setup.solver(kind);
            s.assert(Bool::from_bool(true)); // initialises the solver
            s.set_params(setup.params(kind));
            assert_eq!(last_error(&s), z3_sys::ErrorCode::Ok, "{kind:?}");
        }
        // The check does catch an unknown name.
        let s = setup.solver(Kind::Bv);
        s.assert(Bool::from_bool(true));
        let mut p = Params::new();
        p.set_bool("smt.no_such_parameter", false);
        s.set_params(&p);
        assert_ne!(last_error(&s), z3_sys::ErrorCode::Ok);
    }
}

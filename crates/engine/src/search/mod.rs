//! The k-path search: PathCrawler's depth-first choice of the next path
//! prefix (seed 002, section 6; DART's stack, seed 004).
//!
//! After each run, the deepest decision of the function under test whose
//! other side is unexplored, feasible and within the k bound is negated; its
//! prefix is solved and the solution executed. A prefix proved infeasible
//! prunes every path through it. Entries carry `done` flags so that each
//! prefix is solved at most once.
//!
//! Preconditions. The precondition runs first on the same inputs; its path
//! `Q` is passed to the solver as tracked assumptions next to the prefix `P`.
//! If `P ∧ Q` is unsatisfiable and the unsatisfiable core involves `Q`, the
//! alternative may still be valid under another path of the precondition:
//! [`Search::find_valid`] searches the precondition's paths depth-first under
//! `P`, backjumping with cores, and stops at the first valid one. The
//! precondition's own loops are therefore never bounded by k, yet it is only
//! explored as far as the function under test needs.

use std::rc::Rc;
use std::time::Instant;

use pathwise_expr::cache::CachingSolver;
use pathwise_expr::float_search::FloatSearch;
use pathwise_expr::slice::Slicer;
use pathwise_expr::{ExprId, ExprPool, Model, Query, SolveResult, SolverBackend};
use pathwise_ir::{FuncId, Program};
use rustc_hash::FxHashSet;

use crate::analysis::ProgramInfo;
use crate::config::Config;
use crate::exec::Machine;
use crate::path::{follows_prefix, End, Entry};
use crate::run::{run_once, InputSpec, RunRecord, RunSetup};
use crate::suite::{PathStep, Stats, StopReason, TestCase, TestSuite};

pub use crate::setup::{EngineError, NoObserver, Observer};

mod cover;
mod deepen;
mod driven;
mod error_sites;
mod generational;
mod goals;
mod guided;
mod local;
mod partial;
mod readable;
mod repeated_checks;
pub(crate) mod shared;
mod targeted;
mod traces;

pub(crate) use error_sites::{ErrorSites, Verdict};

/// Times a prefix is solved again after its run grew a summary (see
/// [`Search::solve_following`]); each retry knows at least one more case.
const MAX_SUMMARY_RETRIES: usize = 8;

/// Answers kept by the query cache before it is emptied.
const MAX_CACHED_QUERIES: usize = 50_000;

/// Generate one test per feasible k-path of `config.function`.
pub fn generate(
    program: &Program,
    config: &Config,
    backend: &mut dyn SolverBackend,
    observer: &mut dyn Observer,
) -> Result<TestSuite, EngineError> {
    generate_with(program, config, backend, None, observer).map(|(suite, _)| suite)
}

/// [`generate`], with every answer the search acts on checked by
/// `referee`, an independent solver (for differential tests: see
/// `pathwise_solver_z3::SmtLibOracle`): the *unsliced* query of an answer
/// must be satisfiable when the answer is `sat`, and the constraints with
/// the core's assumptions unsatisfiable when it is `unsat`, whichever
/// shortcut gave it (interval refutation, slicing, the query cache, the
/// backend's solver reuse). Returns the disagreements, one line each.
pub fn generate_refereed(
    program: &Program,
    config: &Config,
    backend: &mut dyn SolverBackend,
    referee: &mut dyn SolverBackend,
    observer: &mut dyn Observer,
) -> Result<(TestSuite, Vec<String>), EngineError> {
    generate_with(program, config, backend, Some(referee), observer)
}

fn generate_with(
    program: &Program,
    config: &Config,
    backend: &mut dyn SolverBackend,
    referee: Option<&mut dyn SolverBackend>,
    observer: &mut dyn Observer,
) -> Result<(TestSuite, Vec<String>), EngineError> {
    generate_inner(program, config, backend, referee, observer, None)
}

/// A bottom-up search for one function's summary (see
/// [`crate::compose::bottom_up`]): whether it ran.
pub(crate) fn generate_nested(
    program: &Program,
    config: &Config,
    backend: &mut dyn SolverBackend,
    nested: &mut crate::compose::bottom_up::Nested,
) -> bool {
    generate_inner(program, config, backend, None, &mut NoObserver, Some(nested)).is_ok()
}

fn generate_inner(
    program: &Program,
    config: &Config,
    backend: &mut dyn SolverBackend,
    referee: Option<&mut dyn SolverBackend>,
    observer: &mut dyn Observer,
    mut nested: Option<&mut crate::compose::bottom_up::Nested>,
) -> Result<(TestSuite, Vec<String>), EngineError> {
    let start = Instant::now();
    let (main, pre) = crate::setup::check(program, config)?;
    crate::strategy::Strategy::choose(config).map_err(|message| EngineError { message, unmodelled_call: None })?;
    if let Some(message) = config.goals.driven.then(|| traces::unsupported(program, main)).flatten() {
        return Err(EngineError { message, unmodelled_call: None });
    }
    let info = ProgramInfo::compute(program);
    let program_mode = config.program_mode.as_ref();
    let mut pool = ExprPool::new();
    let summaries = (config.compositional && program_mode.is_none()).then(|| {
        let nested_search =
            &mut |sub: &Config, backend: &mut dyn SolverBackend, n: &mut _| generate_nested(program, sub, backend, n);
        crate::compose::bottom_up::prepare(
            program,
            config,
            (backend, nested_search),
            &mut pool,
            main,
            nested.as_deref(),
        )
    });
    let machine = Machine {
        deadline: config.timeout.map(|t| start + t),
        summaries: summaries.map(std::cell::RefCell::new),
        ..Machine::new(program, &info, config)
    };
    let spec = if config.program_mode.is_some() {
        InputSpec::empty()
    } else {
        InputSpec::new(&mut pool, program, main, config)
    };
    let parts = Parts { main, pre, start, observer };
    let mut search = Search::new(&machine, &spec, pool, backend, parts);
    // Re-borrowed: a trait object's lifetime shortens only by coercion.
    search.referee = referee.map(|r| -> &mut dyn SolverBackend { r });
    search.goal = goal_state(program, &info, main, config);
    let stop = search.explore_as_configured(program);
    let Search {
        mut stats,
        mut tests,
        mut covered_lines,
        mut covered_sides,
        mut test_coverage,
        goal,
        pool,
        solver,
        float_inputs_pinned,
        float_sites,
        pin_sites,
        disagreements,
        error_sites,
        bound_sites,
        deepening,
        ..
    } = search;
    stats.float_inputs_concretised = float_inputs_pinned.len() as u64;
    stats.float_values_concretised = float_sites.len() as u64;
    stats.values_concretised = pin_sites.len() as u64;
    stats.concretised_at = sorted(&pin_sites);
    // "Complete" is a claim about every feasible path: never made when a
    // prefix went undecided or a symbolic value was concretised (unless a
    // cover stopped because every goal has a test, which stays true).
    let covered_all = goal.cover.as_ref().is_some_and(|c| c.done());
    // A local prefix refuted along every callee path the exhaustive search
    // took is infeasible (see `search/local.rs`): no reason to stop short.
    let traces_open = [&goal.driven, &goal.guided].iter().any(|d| d.as_ref().is_some_and(|d| d.undecided > 0));
    let stop = if stop == StopReason::Complete && (!stats.undecided().is_empty() || traces_open) && !covered_all {
        StopReason::Explored
    } else {
        stop
    };
    let (mut pool, mut solver) = (pool, solver);
    if let Some(sums) = &machine.summaries {
        let sums = &mut sums.borrow_mut();
        finish_summaries(program, config, sums, (&mut pool, &mut solver), (&mut stats, &stop), nested.as_deref_mut());
    }
    solver_figures(&mut stats, &solver);
    // A replaced error test took its coverage with it.
    let replaced = error_sites.finish(&mut stats, &mut tests);
    let before = tests.len();
    let report = goals::finish(config, goal, &pool, (&mut tests, &mut test_coverage), (&stop, &stats));
    if replaced || tests.len() < before {
        // Predicted coverage is the kept tests'.
        covered_lines = test_coverage.iter().flat_map(|c| c.0.iter().copied()).collect();
        covered_sides = test_coverage.iter().flat_map(|c| c.1.iter().copied()).collect();
    }
    stats.tests = tests.len() as u64;
    stats.elapsed_ms = start.elapsed().as_millis() as u64;
    let mut suite = crate::setup::assemble(
        program,
        &info,
        config,
        main,
        tests,
        stats,
        stop,
        &(covered_lines, covered_sides),
        &test_coverage,
    );
    // Whole-program mode and deepening deepen k: report the bound reached.
    let deepened = machine.strategy == crate::strategy::Strategy::Deepening;
    (suite.k, suite.bound) = deepen::report(deepened, machine.k.get(), deepening, bound_sites);
    suite.goals = report;
    Ok((suite, disagreements))
}

/// The solver's figures (calls, cache hits, time, floating queries).
fn solver_figures(stats: &mut Stats, solver: &Solver<'_>) {
    let figures = solver.stats();
    stats.solver_calls = figures.backend_calls;
    stats.solver_cache_hits = figures.cache_hits;
    stats.solver_ms = figures.backend_time.as_millis() as u64;
    stats.float_solver_calls = figures.float_calls;
    stats.float_solver_ms = figures.float_time.as_millis() as u64;
    stats.float_searched = solver.backend().stats().found;
}

/// The summaries' report, then the nested search's result (a bottom-up
/// summary) or the store's update.
fn finish_summaries(
    program: &Program,
    config: &Config,
    sums: &mut crate::compose::Summaries,
    (pool, solver): (&mut ExprPool, &mut Solver<'_>),
    (stats, stop): (&mut Stats, &StopReason),
    nested: Option<&mut crate::compose::bottom_up::Nested>,
) {
    stats.summaries = sums.report(program, pool, |pool, uncovered| {
        let q = Query { constraints: vec![uncovered], assumptions: Vec::new() };
        matches!(solver.check(pool, &q), SolveResult::Unsat { .. })
    });
    match nested {
        Some(n) => {
            n.out =
                sums.funcs.get(&n.record).map(|s| crate::compose::store::export(pool, program, &config.function, s));
            n.runs = stats.runs;
            n.solver_calls = solver.stats().backend_calls;
            n.complete = *stop == StopReason::Complete;
        }
        None => crate::compose::save(program, config, pool, sums, &mut stats.summaries),
    }
}

/// The state of the goals the options ask for (covers, local paths, a
/// partial trace); the other goals start empty.
fn goal_state(program: &Program, info: &ProgramInfo, main: FuncId, config: &Config) -> goals::GoalState {
    let mut goal = goals::GoalState::default();
    if let Some(kind) = config.goals.cover {
        goal.cover = Some(cover::CoverState::new(program, info, main, kind));
    }
    if config.goals.local_paths {
        goal.local = Some(Default::default());
    }
    goal.partial = config.goals.trace.clone().map(partial::PartialState::new);
    goal
}

pub(crate) struct Search<'a, 'p> {
    m: &'a Machine<'p>,
    pool: ExprPool,
    spec: &'a InputSpec,
    main: FuncId,
    pre: Option<FuncId>,
    config: &'a Config,
    solver: Solver<'a>,
    slicer: Slicer,
    observer: &'a mut dyn Observer,
    start: Instant,
    stats: Stats,
    tests: Vec<TestCase>,
    /// Paths (with their error, if any) already turned into tests.
    seen: FxHashSet<(Vec<PathStep>, Option<crate::suite::ErrorInfo>)>,
    error_paths: FxHashSet<Vec<PathStep>>,
    covered_lines: FxHashSet<(FuncId, u32)>,
    covered_sides: FxHashSet<(FuncId, pathwise_ir::Block, bool)>,
    /// What each test covers, in test order (for per-test predictions).
    test_coverage: Vec<crate::setup::RunCoverage>,
    stopped: Option<StopReason>,
    /// The last `find_valid` ran out of its budget.
    abandoned: bool,
    /// Floating input variables seen (only counted).
    float_inputs: FxHashSet<ExprId>,
    /// The floating inputs pinned by an operation without a symbolic
    /// model (see `machine/fp.rs`).
    float_inputs_pinned: FxHashSet<ExprId>,
    /// Locations where a symbolic value other than a floating input was
    /// concretised by a floating operation (only counted).
    float_sites: FxHashSet<pathwise_ir::Loc>,
    /// Locations where another symbolic value was concretised
    /// ([`crate::exec::Exec::concretise`]).
    pin_sites: FxHashSet<pathwise_ir::Loc>,
    /// The non-null checks of array parameters a run already dereferenced
    /// while null (see [`Search::pointless_negation`]).
    known_nonnull: FxHashSet<ExprId>,
    /// The error check being solved, if any: its `--max-array-len` prunes
    /// are not reported, so they need no confirmation (see
    /// [`Search::own_core`]), and an out-of-bounds one keeps the solver's
    /// values (see `readable`).
    solving_error_check: Option<ErrorCheck>,
    /// See [`generate_refereed`].
    referee: Option<&'a mut dyn SolverBackend>,
    disagreements: Vec<String>,
    /// Costs, policies and targets (see [`goals`]).
    goal: goals::GoalState,
    /// `--compositional`: per function explored in its first context, the
    /// inputs of the latest run in which that call returned (see
    /// [`Search::resume`]).
    resume_inputs: rustc_hash::FxHashMap<FuncId, Model>,
    /// One error test per (kind, location) (see [`error_sites`]).
    error_sites: error_sites::ErrorSites,
    /// Where the bound cut runs or blocked sides (in the search at the
    /// current k, when deepening: see [`deepen`]).
    bound_sites: std::collections::BTreeSet<crate::suite::BoundSite>,
    /// How far deepening got (see [`deepen`]).
    deepening: deepen::Progress,
    /// Instructions the runs executed (a parallel search's simulation
    /// measures time in them: see `crate::parallel::simulate`).
    steps: u64,
}

/// A run together with the inputs that produced it.
pub(crate) struct Current {
    inputs: Model,
    /// Shared with the alternatives a generational search queues from it
    /// (see [`generational`]).
    run: Rc<RunRecord>,
    /// `done[i]`: both sides of main entry `i` are handled.
    done: Vec<bool>,
}

/// What a [`Search`] needs besides its machine, input spec, pool and
/// backend.
pub(crate) struct Parts<'a> {
    pub main: FuncId,
    pub pre: Option<FuncId>,
    /// When the search (or the parallel search it works for) started.
    pub start: Instant,
    pub observer: &'a mut dyn Observer,
}

impl<'a, 'p> Search<'a, 'p> {
    /// A search with nothing explored yet, no referee and no goals (the
    /// caller sets those it needs).
    pub(crate) fn new(
        m: &'a Machine<'p>,
        spec: &'a InputSpec,
        pool: ExprPool,
        backend: &'a mut dyn SolverBackend,
        parts: Parts<'a>,
    ) -> Search<'a, 'p> {
        let Parts { main, pre, start, observer } = parts;
        let config = m.config;
        let mut solver = CachingSolver::new(FloatSearch::new(DynBackend(backend)));
        solver.set_deadline(config.timeout.map(|t| start + t));
        Search {
            m,
            pool,
            spec,
            main,
            pre,
            config,
            solver,
            slicer: Slicer::new(),
            observer,
            start,
            stats: Stats::default(),
            tests: Vec::new(),
            seen: FxHashSet::default(),
            error_paths: FxHashSet::default(),
            covered_lines: FxHashSet::default(),
            covered_sides: FxHashSet::default(),
            test_coverage: Vec::new(),
            stopped: None,
            abandoned: false,
            float_inputs: spec.float_vars(m.program, main),
            float_inputs_pinned: FxHashSet::default(),
            float_sites: FxHashSet::default(),
            pin_sites: FxHashSet::default(),
            known_nonnull: FxHashSet::default(),
            solving_error_check: None,
            referee: None,
            disagreements: Vec::new(),
            goal: goals::GoalState::default(),
            resume_inputs: rustc_hash::FxHashMap::default(),
            error_sites: error_sites::ErrorSites::default(),
            bound_sites: Default::default(),
            deepening: Default::default(),
            steps: 0,
        }
    }
}

impl<'a> Search<'a, '_> {
    fn setup(&self, symbolic: bool) -> RunSetup<'a> {
        RunSetup { main: self.main, pre: self.pre, spec: self.spec, symbolic }
    }

    /// One concolic run of `inputs`, which then give each free input array
    /// at least the length the run touched: a run lengthens such an array
    /// in place (`Exec::grow_free_input`), and the path it records holds
    /// for the longer array only, which later queries' slices rely on.
    fn execute(&mut self, inputs: &mut Model) -> RunRecord {
        self.stats.runs += 1;
        let setup = self.setup(true);
        let rec = run_once(self.m, &mut self.pool, &setup, inputs);
        self.steps += rec.steps;
        for (i, p) in self.spec.params.iter().enumerate() {
            if let crate::run::ParamInput::Array { input, .. } = p {
                let touched = rec.touched_len[i];
                if !rec.len_is_tied(input.len) && inputs.bv.get(&input.len).is_none_or(|&n| n < touched) {
                    inputs.bv.insert(input.len, touched);
                }
            }
        }
        for &(f, _, returned) in &rec.explored {
            if returned {
                self.resume_inputs.insert(f, inputs.clone());
            }
        }
        self.float_inputs.extend(rec.seen.float_inputs.iter().copied());
        for pin in &rec.seen.float_pins {
            // Reading a floating input (a variable, an element of a floating
            // input array) is that input's concretisation, counted above.
            let vars = self.pool.vars_of(&[pin.expr]);
            if vars.iter().all(|v| self.float_inputs.contains(v)) {
                self.float_inputs_pinned.extend(vars);
            } else {
                self.float_sites.insert(pin.loc);
            }
        }
        self.pin_sites.extend(rec.seen.pins.iter().copied());
        self.bound_sites.extend(rec.seen.bound_sites.iter().copied());
        for (&name, &n) in &rec.seen.counts {
            *self.stats.counts.entry(name.to_string()).or_default() += n;
        }
        if let Some(sums) = self.m.summaries.as_ref().filter(|s| s.borrow().record_main.is_some()) {
            crate::compose::bottom_up::record(&mut sums.borrow_mut(), &mut self.pool, self.m.program, self.spec, &rec);
        }
        if !rec.pre_valid() {
            self.stats.precondition_rejected_runs += 1;
        } else {
            self.observer.on_run(&rec);
        }
        if let Some((loc, callee)) = rec.no_case {
            self.stats.handwritten.note((loc, self.m.program.func(callee).name.clone()));
        }
        if let Some((param, loc)) = rec.nonnull_assumed {
            self.stats.nonnull_assumed_runs += 1;
            if !self.stats.nonnull_assumed.iter().any(|a| a.0 == param) {
                self.stats.nonnull_assumed.push((param, loc));
                if let Some(crate::run::ParamInput::Array { null: Some(var), .. }) = self.spec.params.get(param) {
                    self.known_nonnull.insert(crate::null_params::not_null(&mut self.pool, *var));
                }
            }
        }
        if let Some(loc) = rec.unrelated {
            self.stats.unrelated_pointer_runs += 1;
            self.stats.unrelated_pointer_site.get_or_insert(loc);
        }
        rec
    }

    /// A solver's model made minimal the way tests should be: parameters in
    /// their own arrays and input references to fresh objects, where the
    /// query allows (see [`crate::joins`] and [`crate::heap`]).
    fn prefer(&self, query: &[ExprId], model: Model, null_first: bool) -> Model {
        let model = crate::joins::prefer_unjoined(&self.spec.joins, &self.pool, query, model);
        let model = self.text_streams(query, model);
        self.m.prefer_fresh(&self.pool, query, model, null_first)
    }

    /// Why the search must stop now, if it must; once set, it stays.
    fn stop_reason(&mut self) -> Option<StopReason> {
        if self.stopped.is_none() {
            self.stopped = if self.observer.should_stop() {
                Some(StopReason::Interrupted)
            } else if self.config.timeout.is_some_and(|t| self.start.elapsed() >= t) {
                Some(StopReason::Timeout)
            } else if self.config.max_tests.is_some_and(|n| self.tests.len() as u64 >= n) {
                Some(StopReason::Limit(format!("{} tests (--max-tests)", self.tests.len())))
            } else if self.targets_done() {
                Some(StopReason::TargetsReached)
            } else if self.goal.cover.as_ref().is_some_and(|c| c.done()) {
                Some(StopReason::Complete)
            } else {
                None
            };
        }
        self.stopped.clone()
    }

    /// The search the options ask for: whole program, driven by a
    /// partial trace, guided towards targets, or depth-first over every
    /// path.
    fn explore_as_configured(&mut self, program: &Program) -> StopReason {
        use crate::strategy::Strategy;
        match self.m.strategy {
            Strategy::WholeProgram => self.explore_program(),
            Strategy::Deepening => self.explore_deepening(),
            Strategy::ResourceDriven => self.explore_driven(),
            Strategy::GuidedTargets if traces::unsupported(program, self.main).is_none() => self.explore_targets(),
            Strategy::GuidedTargets | Strategy::DepthFirst => self.explore(),
        }
    }

    /// The plain search at the current k, in the order the configuration
    /// asks for (see [`generational`]).
    fn explore(&mut self) -> StopReason {
        if crate::strategy::Strategy::new_branches_first(self.config) == Ok(true) {
            return self.explore_generational(None);
        }
        self.explore_depth_first()
    }

    /// PathCrawler's depth-first search (seed 002): negate the deepest open
    /// entry of the latest run, which inherits what is done of its prefix.
    fn explore_depth_first(&mut self) -> StopReason {
        let Some(mut cur) = self.first_run() else { return self.stop_reason().unwrap_or(StopReason::Complete) };
        loop {
            if let Some(r) = self.stop_reason() {
                return r;
            }
            // No next run: either every prefix is explored, or a stop
            // condition cut the search short.
            let Some(next) = self.next_run(&mut cur) else { return self.stop_reason().unwrap_or(StopReason::Complete) };
            cur = next;
            self.consider(&cur.inputs, &cur.run);
        }
    }

    /// Negate the deepest open main entry whose prefix is feasible.
    fn next_run(&mut self, cur: &mut Current) -> Option<Current> {
        for j in (0..cur.run.main_entries.len()).rev() {
            if let Some(next) = self.resume(cur, Some(j)) {
                return Some(next);
            }
            let e = &cur.run.main_entries[j];
            if cur.done[j] || !e.negatable || self.pointless_negation(&cur.run, e) || self.local_skips(&cur.run, j) {
                continue;
            }
            // (An exercise entry that holds always asks for nothing.)
            let assumption = e.kind == crate::path::EntryKind::Assume;
            let always = self.pool.as_bool_const(e.cond) == Some(true);
            let stale = |s: &Self| {
                let ctx = || crate::compose::context_hashes(&cur.run.main_entries[..=j])[j];
                s.m.summaries
                    .as_ref()
                    .is_some_and(|c| c.borrow().is_exercise_entry(e.cond) && c.borrow().stale(e.cond, ctx()))
            };
            if assumption && (always || stale(self)) {
                cur.done[j] = true;
                continue;
            }
            cur.done[j] = true;
            if e.bound_blocked {
                self.stats.bound_pruned_prefixes += 1;
                continue;
            }
            if self.stop_reason().is_some() {
                return None;
            }
            let exercised = |s: &Self| s.m.summaries.as_ref().map(|c| c.borrow().exercised_count());
            let before = exercised(self);
            let Some((inputs, run, aligned)) = self.solve_following(cur, j) else { continue };
            self.local_reached(&run);
            let mut done: Vec<bool> = aligned.counterpart.iter().map(|c| c.is_some_and(|o| cur.done[o])).collect();
            done.resize(run.main_entries.len(), false);
            // `--compositional`: a summary's paths no run took yet are
            // asked for at one place while that finds new ones.
            let flipped = run.main_entries[aligned.flipped].cond;
            let grew = exercised(self) > before;
            if grew && self.m.summaries.as_ref().is_some_and(|s| s.borrow().is_exercise_entry(flipped)) {
                done[aligned.flipped] = false;
            }
            return Some(Current { inputs, run: Rc::new(run), done });
        }
        self.resume(cur, None)
    }

    /// `--compositional` (SMART): when the search moves above an explored
    /// call of an open summary (to entry `at`; `None`: every entry is done),
    /// its exploration in that context is over: the summary is closed and
    /// the run repeated with the call composed, so that the caller's
    /// entries after it, frozen so far, are explored against the summary
    /// (see [`crate::compose`]).
    fn resume(&mut self, cur: &Current, at: Option<usize>) -> Option<Current> {
        let sums = self.m.summaries.as_ref()?;
        let open: Vec<(FuncId, usize, bool)> = cur
            .run
            .explored
            .iter()
            .copied()
            .filter(|&(f, start, _)| at.is_none_or(|j| start > j) && !sums.borrow().is_closed(f))
            .collect();
        let &(first, start, returned) = open.iter().min_by_key(|r| r.1)?;
        for &(f, _, _) in &open {
            sums.borrow_mut().close(f);
        }
        if self.stop_reason().is_some() {
            return None;
        }
        // The caller's continuation needs a run in which the call returns:
        // when this one ended inside it (an error, the bound), the latest
        // run of the same context that returned (every run of the
        // exploration shares the entries before the call).
        let mut inputs = cur.inputs.clone();
        if !returned {
            if let Some(other) = self.resume_inputs.get(&first) {
                inputs = other.clone();
            }
        }
        let mut run = self.execute(&mut inputs);
        let same = |a: &[Entry], b: &[Entry]| {
            a.len() >= start && b.len() >= start && a[..start].iter().zip(&b[..start]).all(|(x, y)| x.cond == y.cond)
        };
        if inputs != cur.inputs && !same(&run.main_entries, &cur.run.main_entries) {
            inputs = cur.inputs.clone();
            run = self.execute(&mut inputs);
        }
        let mut done: Vec<bool> = cur.done.iter().copied().take(start.min(run.main_entries.len())).collect();
        done.resize(run.main_entries.len(), false);
        Some(Current { inputs, run: Rc::new(run), done })
    }

    /// Solve the prefix of `cur` negating entry `j` and run it; `None`
    /// when it is infeasible or the run does not follow it. With
    /// `--compositional`, a run that grew a summary without following is
    /// not yet a divergence: the prefix is solved again against the grown
    /// summary (see [`crate::compose`]), a few times at most.
    fn solve_following(&mut self, cur: &Current, j: usize) -> Option<(Model, RunRecord, crate::path::Alignment)> {
        let generation = |s: &Self| s.m.summaries.as_ref().map(|c| c.borrow().generation);
        for _ in 0..=MAX_SUMMARY_RETRIES {
            let before = generation(self);
            let (inputs, run) = self.solve_prefix(cur, j)?;
            if let Some(aligned) = follows_prefix(&cur.run.main_entries, j, &run.main_entries) {
                if run.unpredicted {
                    // Its entries line up but a composed call did not take
                    // the case solved for: the path asked for has no test
                    // (the run's entries are still explored).
                    self.stats.divergences += 1;
                }
                return Some((inputs, run, aligned));
            }
            if generation(self) == before || self.stop_reason().is_some() {
                break;
            }
            self.stats.summary_retries += 1;
        }
        self.stats.divergences += 1;
        None
    }

    /// An entry whose other side is not worth solving for:
    /// - a holding bounds check of an input array whose length nothing
    ///   else constrains: its other side only asks for a longer array,
    ///   which the search gets anyway when a path reads further;
    /// - under `--null-args assume`, the non-null check of an array
    ///   parameter a run already dereferenced while null: its other side
    ///   is another rejected run (the contract is known), one per path
    ///   (`*out = n` after a loop doubled the runs).
    fn pointless_negation(&self, run: &RunRecord, e: &Entry) -> bool {
        if e.kind == (crate::path::EntryKind::Guard { violated: false }) && self.known_nonnull.contains(&e.cond) {
            return self.config.null_args == crate::config::NullArgs::Assume;
        }
        let crate::path::EntryKind::InBounds { param, violated: false } = e.kind else { return false };
        match self.spec.params.get(param) {
            Some(crate::run::ParamInput::Array { input, .. }) => !run.len_is_tied(input.len),
            _ => true,
        }
    }

    /// Solve main prefix `entries[..j] ∧ ¬entries[j]` under the precondition.
    fn solve_prefix(&mut self, cur: &Current, j: usize) -> Option<(Model, RunRecord)> {
        // Error checks are counted apart from decision prefixes, so that the
        // decision figures stay comparable with seed 002's.
        if is_error_check(&cur.run.main_entries[j]) {
            if self.repeats_violable_check(cur, j) {
                self.stats.error_checks_repeated += 1;
                return None;
            }
            let s = &self.stats;
            let before = (s.prefixes_explored, s.infeasible_prefixes, s.array_limit_prunes);
            self.solving_error_check = Some(match cur.run.main_entries[j].kind {
                crate::path::EntryKind::InBounds { .. } => ErrorCheck::Bounds,
                _ => ErrorCheck::Guard,
            });
            let r = self.solve_prefix_inner(cur, j);
            self.solving_error_check = None;
            self.stats.error_checks += self.stats.prefixes_explored - before.0;
            self.stats.error_checks_infeasible += self.stats.infeasible_prefixes - before.1;
            let s = &mut self.stats;
            (s.prefixes_explored, s.infeasible_prefixes, s.array_limit_prunes) = before;
            return r;
        }
        self.solve_prefix_inner(cur, j)
    }

    /// The query of `cur`'s prefix with entry `j` negated: the
    /// constraints (the hard ones, the entries before `j`, the negation
    /// last), the precondition's entries as assumptions, and the negation.
    fn prefix_query(&mut self, cur: &Current, j: usize) -> (Vec<ExprId>, Vec<ExprId>, ExprId) {
        let ctx = crate::compose::context_hashes(&cur.run.main_entries[..=j]);
        let cond = match &self.m.summaries {
            Some(sums) => sums.borrow().refresh(&mut self.pool, cur.run.main_entries[j].cond, ctx[j]),
            None => cur.run.main_entries[j].cond,
        };
        let neg = self.pool.not(cond);
        let mut base: Vec<ExprId> = self.spec.hard.clone();
        match &self.m.summaries {
            // Composition entries as the summaries are now.
            Some(sums) => {
                let sums = sums.borrow();
                let entries = cur.run.main_entries[..j].iter().zip(&ctx);
                base.extend(entries.map(|(e, &c)| sums.refresh(&mut self.pool, e.cond, c)));
            }
            None => base.extend(cur.run.main_entries[..j].iter().map(|e| e.cond)),
        }
        base.push(neg);
        let assumptions: Vec<ExprId> = cur.run.pre_entries.iter().map(|e| e.cond).collect();
        (base, assumptions, neg)
    }

    fn solve_prefix_inner(&mut self, cur: &Current, j: usize) -> Option<(Model, RunRecord)> {
        self.stats.prefixes_explored += 1;
        let (base, assumptions, neg) = self.prefix_query(cur, j);
        match self.check(&base, &assumptions, &[neg], &cur.inputs) {
            SolveResult::Sat(model) => {
                let all: Vec<ExprId> = base.iter().chain(&assumptions).copied().collect();
                let mut inputs = self.prefer(&all, merge(&self.pool, &all, &cur.inputs, model), false);
                let run = self.execute(&mut inputs);
                if run.pre_valid() {
                    return Some(self.observable_out_of_bounds(inputs, run));
                }
                // The model satisfies Q, so the precondition must accept it.
                self.stats.divergences += 1;
                None
            }
            SolveResult::Unsat { core } if core.is_empty() => {
                self.stats.infeasible_prefixes += 1;
                self.observer.on_refuted(&cur.run, j);
                self.local_refuted(&cur.run, j);
                None
            }
            SolveResult::Unsat { core } => {
                let limit = core.iter().copied().max();
                let unknown_before = self.stats.unknown_prefixes;
                let found = self.find_valid(&base, Some(neg), &cur.inputs, cur.run.pre_entries.clone(), limit);
                // An exhausted precondition search proves nothing when the
                // solver left one of its prefixes undecided.
                let undecided = self.stats.unknown_prefixes > unknown_before;
                if found.is_none() && self.stopped.is_none() && !std::mem::take(&mut self.abandoned) && !undecided {
                    self.stats.infeasible_prefixes += 1;
                    self.observer.on_refuted(&cur.run, j);
                    self.local_refuted(&cur.run, j);
                }
                found
            }
            SolveResult::Unknown(why) => {
                self.note_unknown(why);
                None
            }
        }
    }

    /// Search the precondition's paths under `base` for valid inputs.
    /// `pending` is the one conjunct of `base` the current inputs violate.
    fn find_valid(
        &mut self,
        base: &[ExprId],
        pending: Option<ExprId>,
        inputs: &Model,
        entries: Vec<Entry>,
        limit: Option<usize>,
    ) -> Option<(Model, RunRecord)> {
        let budget = self.config.precondition_budget;
        let budget_end = self.stats.runs + budget;
        let limit = limit.unwrap_or(entries.len().saturating_sub(1));
        // With input heaps, first search from the smallest inputs of the
        // prefix alone: the current precondition path walks another test's
        // heap (often a larger one), whose shape the prefix need not revisit.
        // The precondition's domains (of the references it reads first)
        // hold on every path. Half the budget goes there, the rest to the
        // current path, so that neither start's luck decides alone (avl.c
        // at k = 1: 10 tests, against 9 from the smallest inputs only). Scalars and
        // arrays keep the current path, which the unsatisfiable cores prune
        // well (Merge: a fifth fewer solver calls).
        let heap = self.spec.params.iter().any(|p| matches!(p, crate::run::ParamInput::Heap { .. }));
        if heap {
            let mut restart: Vec<ExprId> = base.to_vec();
            let domains = entries.iter().filter(|e| e.kind == crate::path::EntryKind::Assume && !e.negatable);
            restart.extend(domains.map(|e| e.cond));
            let seeds: Vec<ExprId> = pending.into_iter().collect();
            if let SolveResult::Sat(model) = self.check(&restart, &[], &seeds, inputs) {
                let mut fresh = self.prefer(&restart, merge(&self.pool, &restart, inputs, model), true);
                let run = self.execute(&mut fresh);
                if run.pre_valid() {
                    return Some((fresh, run));
                }
                if run.pre_end.is_some() {
                    let half = self.stats.runs + budget.div_ceil(2);
                    let start = (run.pre_entries, fresh);
                    match self.pre_dfs(base, pending, start, usize::MAX, half) {
                        PreSearch::Found(m, r) => return Some((m, *r)),
                        PreSearch::Exhausted => return None,
                        PreSearch::OutOfBudget => {}
                    }
                }
            }
        }
        match self.pre_dfs(base, pending, (entries, inputs.clone()), limit, budget_end) {
            PreSearch::Found(m, r) => Some((m, *r)),
            PreSearch::Exhausted => None,
            PreSearch::OutOfBudget => {
                self.stats.precondition_abandoned += 1;
                self.abandoned = true;
                None
            }
        }
    }

    /// Depth-first search of the precondition's paths under `base`, from
    /// the path `start` (its entries and inputs), negating entries up to
    /// `limit`, until the run count reaches `budget_end`. Exhausting the
    /// paths (or a stop) proves nothing valid exists under `base`.
    fn pre_dfs(
        &mut self,
        base: &[ExprId],
        pending: Option<ExprId>,
        (mut stack, mut inputs): (Vec<Entry>, Model),
        limit: usize,
        budget_end: u64,
    ) -> PreSearch {
        let mut limit = limit.min(stack.len().saturating_sub(1));
        let mut done = vec![false; stack.len()];
        loop {
            if self.stop_reason().is_some() {
                return PreSearch::Exhausted;
            }
            if self.stats.runs >= budget_end {
                return PreSearch::OutOfBudget;
            }
            let Some(m) = (0..stack.len().min(limit + 1)).rev().find(|&i| !done[i] && stack[i].negatable) else {
                return PreSearch::Exhausted;
            };
            done[m] = true;
            self.stats.prefixes_explored += 1;
            let neg = self.pool.not(stack[m].cond);
            let mut assumptions: Vec<ExprId> = stack[..m].iter().map(|e| e.cond).collect();
            assumptions.push(neg);
            let mut seeds = vec![neg];
            seeds.extend(pending);
            match self.check(base, &assumptions, &seeds, &inputs) {
                SolveResult::Sat(model) => {
                    let all: Vec<ExprId> = base.iter().chain(&assumptions).copied().collect();
                    let mut new_inputs = self.prefer(&all, merge(&self.pool, &all, &inputs, model), true);
                    let run = self.execute(&mut new_inputs);
                    if run.pre_valid() {
                        return PreSearch::Found(new_inputs, Box::new(run));
                    }
                    let mut new_done = match follows_prefix(&stack, m, &run.pre_entries) {
                        Some(aligned) => aligned.counterpart.iter().map(|c| c.is_some_and(|o| done[o])).collect(),
                        // Another path: keep the positions' flags.
                        None => done[..=m].to_vec(),
                    };
                    new_done.resize(run.pre_entries.len(), false);
                    stack = run.pre_entries;
                    done = new_done;
                    limit = stack.len().saturating_sub(1);
                    inputs = new_inputs;
                }
                SolveResult::Unsat { core } => {
                    let Some(&top) = core.iter().max() else { return PreSearch::Exhausted };
                    if m == 0 && core.contains(&m) {
                        return PreSearch::Exhausted;
                    }
                    limit = if core.contains(&m) { m.saturating_sub(1) } else { top };
                }
                SolveResult::Unknown(why) => self.note_unknown(why),
            }
        }
    }

    /// A prefix the solver could not decide: neither a test nor an
    /// infeasible prefix (unless the run's time is up, which the stop
    /// reason reports).
    fn note_unknown(&mut self, why: String) {
        if self.stop_reason().is_some() {
            return;
        }
        self.stats.unknown_prefixes += 1;
        self.stats.first_unknown.get_or_insert(why);
    }

    /// One solver query, sliced to the constraints that share variables with
    /// `seeds` (the rest hold under `inputs`, which the model completes).
    ///
    /// Array dimensions are chosen as low as possible (PathCrawler's
    /// labelling): the query is first tried with every input array at most
    /// one element longer than under `inputs`, as tracked assumptions; only
    /// if those bounds are in the unsatisfiable core is it asked again
    /// without them. A long arbitrary array would make the precondition and
    /// the k bound reject runs for elements no prefix asked for.
    fn check(
        &mut self,
        constraints: &[ExprId],
        assumptions: &[ExprId],
        seeds: &[ExprId],
        inputs: &Model,
    ) -> SolveResult {
        // A floating query's search for a model starts from these inputs,
        // which satisfy the prefix's constraints but the negated last one
        // (copied only for such queries; the copy costs less than slicing).
        if constraints.iter().any(|&c| self.pool.has_float(c)) {
            self.solver.backend_mut().set_hint(inputs);
        }
        let bounds: Vec<ExprId> = self
            .spec
            .params
            .iter()
            .filter_map(|p| match p {
                crate::run::ParamInput::Array { input, .. } => {
                    let now = inputs.bv.get(&input.len).copied().unwrap_or(0);
                    let limit = self.pool.bv_const(64, now + 1);
                    Some(self.pool.cmp(pathwise_expr::BvCmp::Ule, input.len, limit))
                }
                _ => None,
            })
            .collect();
        // Assumptions: the caller's, then the --max-array-len limits, then
        // (first attempt only) the short-array bounds. A run that read an
        // array past the limit (at constant offsets: `Exec::grow_free_input`)
        // fixed that length itself: the path's bounds entries need it.
        let mut tracked = assumptions.to_vec();
        let max = u64::from(self.config.max_array_len);
        let lens = self.spec.params.iter().filter_map(|p| match p {
            crate::run::ParamInput::Array { input, .. } => Some(input.len),
            _ => None,
        });
        let limits: Vec<(ExprId, ExprId)> = lens.zip(self.spec.len_limits.iter().copied()).collect();
        for (len, limit) in limits {
            match inputs.bv.get(&len).copied() {
                Some(now) if now > max => {
                    let c = self.pool.bv_const(64, now);
                    tracked.push(self.pool.cmp(pathwise_expr::BvCmp::Ule, len, c));
                }
                _ => tracked.push(limit),
            }
        }
        let limits_end = tracked.len();
        if !bounds.is_empty() {
            let mut with_bounds = tracked.clone();
            with_bounds.extend(&bounds);
            match self.check_sliced(constraints, &with_bounds, seeds) {
                SolveResult::Unsat { core } if core.iter().any(|&i| i >= limits_end) => {}
                SolveResult::Sat(model) => {
                    return SolveResult::Sat(self.readable(constraints, &with_bounds, seeds, model))
                }
                r => return self.own_core(r, (constraints, assumptions, seeds)),
            }
        }
        match self.check_sliced(constraints, &tracked, seeds) {
            SolveResult::Sat(model) => SolveResult::Sat(self.readable(constraints, &tracked, seeds, model)),
            r => self.own_core(r, (constraints, assumptions, seeds)),
        }
    }

    /// Keep only the caller's assumptions in an unsatisfiable core, noting
    /// when `--max-array-len` cut the prefix.
    ///
    /// Z3's cores are not minimal: a limit can be in the core of a query
    /// that is unsatisfiable without it (an overrun of a length tied to
    /// another input, asked to be in bounds), and the note "a larger
    /// --max-array-len may find more paths" would then be false. So a
    /// limit in the core of a decision prefix is confirmed by asking again
    /// without the limits. The core returned stays the first one, so the
    /// search goes on as it would have; error checks, whose prunes are not
    /// reported, ask nothing more.
    fn own_core(&mut self, r: SolveResult, query: (&[ExprId], &[ExprId], &[ExprId])) -> SolveResult {
        let (constraints, assumptions, seeds) = query;
        let callers = assumptions.len();
        match r {
            SolveResult::Unsat { core } => {
                if core.iter().any(|&i| i >= callers)
                    && self.solving_error_check.is_none()
                    && !matches!(self.check_sliced(constraints, assumptions, seeds), SolveResult::Unsat { .. })
                {
                    self.stats.array_limit_prunes += 1;
                }
                SolveResult::Unsat { core: core.into_iter().filter(|&i| i < callers).collect() }
            }
            r => r,
        }
    }

    fn check_sliced(&mut self, constraints: &[ExprId], assumptions: &[ExprId], seeds: &[ExprId]) -> SolveResult {
        let query = Query { constraints: constraints.to_vec(), assumptions: assumptions.to_vec() };
        let (sliced, map) = self.slicer.slice(&self.pool, &query, seeds);
        self.stats.queries += 1;
        // Most infeasible prefixes contradict a bound on one variable: no
        // need to ask the solver.
        let r = if let Some(core) = pathwise_expr::intervals::refute(&self.pool, &sliced) {
            SolveResult::Unsat { core: core.into_iter().map(|i| map[i]).collect() }
        } else {
            // Long runs ask many distinct queries: bound the cache's memory.
            if self.solver.cache_len() > MAX_CACHED_QUERIES {
                self.solver.clear_cache();
            }
            match self.solver.check(&self.pool, &sliced) {
                SolveResult::Unsat { core } => SolveResult::Unsat { core: core.into_iter().map(|i| map[i]).collect() },
                r => r,
            }
        };
        if self.referee.is_some() {
            self.referee_check(&query, &r);
        }
        r
    }

    /// Check an answer against the referee (see [`generate_refereed`]).
    fn referee_check(&mut self, query: &Query, r: &SolveResult) {
        let Some(referee) = self.referee.as_deref_mut() else { return };
        let (asked, want_sat) = match r {
            SolveResult::Sat(_) => (query.clone(), true),
            SolveResult::Unsat { core } => {
                let assumptions = core.iter().map(|&i| query.assumptions[i]).collect();
                (Query { constraints: query.constraints.clone(), assumptions }, false)
            }
            SolveResult::Unknown(why) => {
                self.disagreements.push(format!("unknown answer: {why}"));
                return;
            }
        };
        let verdict = match referee.check(&self.pool, &asked) {
            SolveResult::Sat(_) => Some(true),
            SolveResult::Unsat { .. } => Some(false),
            SolveResult::Unknown(_) => None,
        };
        if verdict != Some(want_sat) {
            let what = if want_sat { "sat" } else { "unsat (with its core)" };
            self.disagreements.push(format!(
                "answered {what}, the referee says {verdict:?}:\n{}",
                pathwise_expr::smtlib::to_smtlib(&self.pool, &asked)
            ));
        }
    }

    /// Turn a finished run into a test (validated by concrete replay).
    fn consider(&mut self, inputs: &Model, run: &RunRecord) {
        let program = self.config.program_mode.is_some();
        match &run.main_end {
            None => {}
            // A whole program's run cut short is a test of the inputs it
            // read: at the k bound, or at the step limit or an unsupported
            // construct of a program after reading some (see
            // `testcase::to_test`).
            Some(end)
                if run.is_test()
                    || (program && matches!(end, End::BoundExceeded))
                    || (program && end.cut_short() && !run.seen.nondets.is_empty()) =>
            {
                if matches!(end, End::BoundExceeded) {
                    self.stats.bound_exceeded_runs += 1;
                }
                // A whole program's test that stopped where the engine
                // cannot follow still says where (the search is not
                // complete).
                if matches!(end, End::Error(_)) && !run.is_test() {
                    self.note_stopped(run, end);
                }
                let key = (run.seen.path.clone(), if let End::Error(e) = end { Some(e.clone()) } else { None });
                if self.seen.contains(&key) {
                    return;
                }
                let replaced;
                let (inputs, run) = match self.cost_gate(inputs, run) {
                    goals::Gate::Keep => (inputs, run),
                    goals::Gate::Drop => {
                        self.goal.dropped += 1;
                        self.stats.feasible_paths += 1;
                        self.seen.insert(key);
                        return;
                    }
                    goals::Gate::Replace(m, r) => {
                        replaced = (m, r);
                        (&replaced.0, &*replaced.1)
                    }
                };
                let site = match &key.1 {
                    Some(e) if self.config.one_error_test_per_site => {
                        // Covers and targets index the kept tests: the
                        // first test of a site stays there.
                        let may_replace = self.goal.cover.is_none() && self.config.goals.targets.is_empty();
                        match self.error_sites.judge(e, run.seen.path.len(), may_replace) {
                            error_sites::Verdict::Fold => {
                                self.stats.feasible_paths += 1;
                                self.seen.insert(key);
                                return;
                            }
                            verdict => Some((verdict, e.clone())),
                        }
                    }
                    _ => None,
                };
                let setup = self.setup(false);
                match crate::testcase::build(self.m, &mut self.pool, &setup, inputs, run, program) {
                    Some((_, replay)) if self.config.program_mode.is_some() && !self.adds_coverage(&replay) => {
                        self.seen.insert(key);
                    }
                    Some((mut test, replay)) => {
                        if !self.goals_accept(&mut test, run, &replay) {
                            self.stats.feasible_paths += 1;
                            self.seen.insert(key);
                            return;
                        }
                        self.note_error_call(&test);
                        let is_error = key.1.is_some();
                        self.seen.insert(key);
                        if let Some((error_sites::Verdict::Replace(at), ..)) = site {
                            test.id = self.tests[at].id;
                            self.test_coverage[at] = (replay.seen.lines.clone(), replay.seen.sides.clone());
                            self.stats.feasible_paths += 1;
                            self.observer.on_test(&test, &self.test_coverage[at], &self.stats);
                            self.tests[at] = test;
                            return;
                        }
                        if let Some((_, e)) = &site {
                            self.error_sites.kept(e, self.tests.len(), run.seen.path.len());
                        }
                        if is_error {
                            self.stats.error_tests += 1;
                        }
                        self.covered_lines.extend(replay.seen.lines.iter().copied());
                        self.covered_sides.extend(replay.seen.sides.iter().copied());
                        self.test_coverage.push((replay.seen.lines.clone(), replay.seen.sides.clone()));
                        test.id = self.tests.len() + 1;
                        self.stats.feasible_paths += 1;
                        self.tests.push(test);
                        self.stats.tests = self.tests.len() as u64;
                        let last = self.tests.last().expect("just pushed");
                        let coverage = self.test_coverage.last().expect("pushed with its test");
                        self.observer.on_test(last, coverage, &self.stats);
                    }
                    None => self.stats.divergences += 1,
                }
            }
            Some(End::BoundExceeded) if run.cost.was_capped() => self.goal.cut_by_cost += 1,
            Some(End::BoundExceeded) => self.stats.bound_exceeded_runs += 1,
            Some(end @ (End::Error(_) | End::StepLimit)) => self.note_stopped(run, end),
            Some(End::Returned(_)) => {}
            Some(End::AssumeFailed | End::ArrayTooShort { .. }) => {}
        }
    }
}

impl Search<'_, '_> {
    /// Count a run that ended in an error or at the step limit, once per
    /// path; an unsupported construct is noted with its place.
    fn note_stopped(&mut self, run: &RunRecord, end: &End) {
        if !self.error_paths.insert(run.seen.path.clone()) {
            return;
        }
        self.stats.error_runs += 1;
        match end {
            End::Error(e) if e.kind == crate::suite::ErrorKind::Unsupported => {
                match self.stats.unsupported.iter_mut().find(|u| u.0 == e.loc) {
                    Some(u) => u.2 += 1,
                    None => self.stats.unsupported.push((e.loc, e.message.clone(), 1)),
                }
            }
            End::StepLimit => self.stats.step_limit_runs += 1,
            _ => {}
        }
    }
}

/// How a search of the precondition's paths ended.
enum PreSearch {
    /// Valid inputs, and their run.
    Found(Model, Box<RunRecord>),
    /// No path left: nothing valid exists (or the search was stopped).
    Exhausted,
    /// The run budget is spent before either.
    OutOfBudget,
}

/// Whether an entry is a holding check whose violation would be an error.
/// The kind of an error check being solved (see `Search::solving_error_check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ErrorCheck {
    /// A guard: division, overflow, shift, null...
    Guard,
    /// An access out of an input object's bounds.
    Bounds,
}

/// The places of `sites` in source order.
fn sorted(sites: &FxHashSet<pathwise_ir::Loc>) -> Vec<pathwise_ir::Loc> {
    let mut v: Vec<_> = sites.iter().copied().collect();
    v.sort_unstable();
    v
}

fn is_error_check(e: &Entry) -> bool {
    matches!(
        e.kind,
        crate::path::EntryKind::Guard { violated: false } | crate::path::EntryKind::InBounds { violated: false, .. }
    )
}

/// The search's solver: the cache, then the search for models of
/// floating queries by evaluation, then the backend.
type Solver<'a> = CachingSolver<FloatSearch<DynBackend<'a>>>;

/// Lets the caching layer wrap whatever backend the caller provides.
struct DynBackend<'a>(&'a mut dyn SolverBackend);

impl SolverBackend for DynBackend<'_> {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolveResult {
        self.0.check(pool, query)
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.0.set_deadline(deadline);
    }
}

/// The inputs `base` updated with the model's values.
///
/// Array elements the model does not list explicitly keep their previous
/// values unless that breaks a condition of the query the solver's array
/// holds: the solver's default for an array is arbitrary, while known-good
/// elements (of a sorted or range-checked input, say) spare precondition
/// runs that would fail. Conditions neither holds (over variables the
/// run decides itself, such as a heap object's element count, which read
/// as zero here) do not choose: when the solver's model covered only the
/// slice of the query the negated condition depends on, its array lacks
/// the elements the rest of the prefix fixed (`hay[0] == p[0]` when the
/// flip asks `hay[1] != p[1]`), and taking it whole diverged.
fn merge(pool: &ExprPool, query: &[ExprId], base: &Model, model: Model) -> Model {
    let mut plain = base.clone();
    plain.bv.extend(model.bv.iter().map(|(k, v)| (*k, *v)));
    let mut kept = plain.clone();
    plain.arrays.extend(model.arrays.iter().map(|(k, v)| (*k, v.clone())));
    for (var, value) in model.arrays {
        let mut merged = base.arrays.get(&var).cloned().unwrap_or_default();
        merged.entries.extend(value.entries);
        kept.arrays.insert(var, merged);
    }
    let holds = |m: &Model, e: ExprId| pathwise_expr::eval::satisfies(pool, &[e], m);
    // The whole query first: it holds with the kept elements most often.
    if pathwise_expr::eval::satisfies(pool, query, &kept) || query.iter().all(|&e| holds(&kept, e) || !holds(&plain, e))
    {
        kept
    } else {
        plain
    }
}

//! Parallel exploration (`gen --jobs N`): one function's paths on N
//! threads, and the same suite whatever N.
//!
//! **Workers.** Each worker is a whole search of its own: its thread, its
//! expression pool, its solver (Z3 contexts are not shared between
//! threads), its machine. They share the program, its analyses, the heap
//! slot table (a slot's identity is part of the inputs they pass each
//! other) and a frontier of subtrees ([`frontier`]): a worker explores
//! depth-first, and when another waits it gives away its shallowest open
//! prefix with the inputs of its run (see [`crate::search::shared`]).
//!
//! **Determinism.** The paths found do not depend on the schedule when
//! every prefix is decided; the inputs the solvers chose for them do. So
//! when the exploration ends by itself, the tests are sorted by path and
//! each is made again from its path condition alone, by a fresh search on
//! a thread of its own (a fresh Z3 context: Z3's answers depend on the
//! terms its context has seen). The suite is then the same for every N,
//! byte for byte. Figures that depend on the schedule (runs, solver calls,
//! steals, times) are in the [`Report`], not in the suite, whose figures
//! are the paths' (tests, feasible paths, error tests, folded paths).
//! A search that was stopped (time limit, Ctrl-C, `--max-tests`) keeps
//! the workers' own tests, sorted by path: they are written once.
//!
//! **Modes.** The depth-first search at a given k, under k-path or
//! block-k, with or without a precondition, with error search and one
//! error test per site (folded after sorting, so the kept test is the
//! shortest path's, the first in path order among equals). Other modes
//! run on one worker and say so ([`sequential_reason`]).

mod frontier;
pub mod simulate;

use std::sync::atomic::Ordering;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use pathwise_expr::{ExprPool, SolverBackend};
use pathwise_ir::{FuncId, Program};

use crate::analysis::ProgramInfo;
use crate::config::Config;
use crate::exec::Machine;
use crate::run::InputSpec;
use crate::search::shared::Found;
use crate::search::{EngineError, NoObserver, Observer, Parts, Search};
use crate::setup::RunCoverage;
use crate::suite::{BoundSite, Stats, StopReason, TestCase, TestSuite};

/// Makes a worker's solver backend, on the worker's thread.
pub type Backends<'f> = dyn Fn() -> Box<dyn SolverBackend> + Sync + 'f;

/// What a parallel search reports beside its suite: the figures that
/// depend on how the work was shared out.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub jobs: usize,
    /// Why the search ran on one worker, when it did.
    pub sequential: Option<String>,
    /// Every worker's figures and the canonical tests', summed.
    pub stats: Stats,
    pub workers: Vec<WorkerReport>,
    /// Subtrees a worker took from another's gift.
    pub steals: u64,
    /// Tests whose path condition alone did not give a run of the same
    /// path: the worker's inputs stand (the suite may then depend on N).
    pub not_canonical: u64,
    pub explore_ms: u64,
    pub canonical_ms: u64,
}

/// One worker's share.
#[derive(Clone, Debug, Default)]
pub struct WorkerReport {
    pub runs: u64,
    pub solver_calls: u64,
    pub tests: u64,
    /// Time spent exploring subtrees (the rest it waited).
    pub busy_ms: u64,
}

/// Why the options ask for a search that stays on one worker, if they do.
pub fn sequential_reason(config: &Config) -> Option<&'static str> {
    let goals = &config.goals;
    if config.program_mode.is_some() {
        Some("whole-program mode explores one program at a time")
    } else if config.compositional {
        Some("--compositional builds its summaries as the search goes")
    } else if config.deepen {
        Some("deepening the bound (gen without --k) is sequential; give --k")
    } else if goals.cover.is_some() || goals.local_paths || goals.trace.is_some() || goals.driven {
        Some("covers, local paths and trace-driven searches are sequential")
    } else if !goals.targets.is_empty() || goals != &crate::cost::Goals::default() {
        Some("cost models, policies and targets are sequential")
    } else {
        None
    }
}

/// Generate `config.function`'s tests on `config.jobs` workers (see the module
/// doc); a mode that stays sequential runs as [`crate::search::generate`]
/// does, with the reason in the report.
pub fn generate(
    program: &Program,
    config: &Config,
    backends: &Backends<'_>,
    observer: &mut dyn Observer,
) -> Result<(TestSuite, Report), EngineError> {
    let jobs = config.jobs.unwrap_or(1).max(1);
    if let Some(why) = sequential_reason(config) {
        let mut backend = backends();
        let mut suite = crate::search::generate(program, config, &mut *backend, observer)?;
        // As in the parallel search, the suite's figures are its paths'.
        let paths = paths_figures(&suite.stats);
        let stats = std::mem::replace(&mut suite.stats, paths);
        let report = Report { jobs: 1, sequential: Some(why.to_string()), stats, ..Report::default() };
        return Ok((suite, report));
    }
    let start = Instant::now();
    let (main, pre) = crate::setup::check(program, config)?;
    crate::strategy::Strategy::choose(config).map_err(|message| EngineError { message, unmodelled_call: None })?;
    let info = ProgramInfo::compute(program);
    // Workers keep every error path: one test per site is chosen after
    // sorting, the same whatever found which.
    let worker_config = Config { one_error_test_per_site: false, ..config.clone() };
    let ctx = Ctx { program, info: &info, config: &worker_config, main, pre, start, backends, slots: Arc::default() };
    let shared = frontier::Shared::with_root();
    let (outs, stop) = explore(&ctx, &shared, jobs, observer);
    let explore_ms = start.elapsed().as_millis() as u64;
    let mut report = Report { jobs, explore_ms, steals: shared.steals.load(Ordering::SeqCst), ..Report::default() };
    let mut found: Vec<Found> = Vec::new();
    let mut bound_sites = std::collections::BTreeSet::new();
    for out in outs {
        report.stats.absorb(&out.stats);
        report.workers.push(out.report);
        found.extend(out.found);
        bound_sites.extend(out.bound_sites);
    }
    found.sort_by(|a, b| a.key.cmp(&b.key));
    found.dedup_by(|a, b| a.key == b.key);
    let canonical_start = Instant::now();
    let made = match stop {
        None => canonicalise(&ctx, &found, jobs, &mut report),
        Some(_) => found.iter().map(|f| (f.test.clone(), f.coverage.clone())).collect(),
    };
    report.canonical_ms = canonical_start.elapsed().as_millis() as u64;
    let stop =
        stop.unwrap_or(if report.stats.undecided().is_empty() { StopReason::Complete } else { StopReason::Explored });
    let suite = assemble(&ctx, config, made, stop, bound_sites);
    // The paths' figures are the suite's: each path was counted by its
    // worker and again by its canonical search.
    let paths = &suite.stats;
    (report.stats.tests, report.stats.feasible_paths) = (paths.tests, paths.feasible_paths);
    (report.stats.error_tests, report.stats.error_paths_folded) = (paths.error_tests, paths.error_paths_folded);
    report.stats.elapsed_ms = start.elapsed().as_millis() as u64;
    Ok((suite, report))
}

/// The figures of a suite's paths, which do not depend on the schedule.
fn paths_figures(stats: &Stats) -> Stats {
    Stats {
        feasible_paths: stats.feasible_paths,
        tests: stats.tests,
        error_tests: stats.error_tests,
        error_paths_folded: stats.error_paths_folded,
        ..Stats::default()
    }
}

/// What every worker shares.
struct Ctx<'c> {
    program: &'c Program,
    info: &'c ProgramInfo,
    config: &'c Config,
    main: FuncId,
    pre: Option<FuncId>,
    start: Instant,
    backends: &'c Backends<'c>,
    slots: Arc<Mutex<crate::heap::SlotTable>>,
}

impl Ctx<'_> {
    /// A machine for a worker (or a canonical search) of this search.
    fn machine(&self) -> Machine<'_> {
        Machine {
            deadline: self.config.timeout.map(|t| self.start + t),
            slots: Arc::clone(&self.slots),
            ..Machine::new(self.program, self.info, self.config)
        }
    }
}

/// What a worker hands back.
struct WorkerOut {
    found: Vec<Found>,
    stats: Stats,
    bound_sites: std::collections::BTreeSet<BoundSite>,
    report: WorkerReport,
}

/// Run the workers to the end of the exploration; the stop reason when it
/// was cut short. This thread polls `observer` (Ctrl-C, the caller's
/// deadline) and passes it each test as found, renumbered in the order
/// of arrival, so that progress and salvage work as in one search.
fn explore(
    ctx: &Ctx<'_>,
    shared: &frontier::Shared,
    jobs: usize,
    observer: &mut dyn Observer,
) -> (Vec<WorkerOut>, Option<StopReason>) {
    let (tx, rx) = mpsc::channel::<(TestCase, RunCoverage)>();
    let mut stop = None;
    let outs = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs)
            .map(|_| {
                let tx = tx.clone();
                s.spawn(move || work(ctx, shared, tx))
            })
            .collect();
        drop(tx);
        let mut seen = Stats::default();
        loop {
            match rx.recv_timeout(Duration::from_millis(20)) {
                Ok((mut test, coverage)) => {
                    seen.tests += 1;
                    test.id = seen.tests as usize;
                    observer.on_test(&test, &coverage, &seen);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if stop.is_none() {
                stop = stop_now(ctx, shared, observer);
                if stop.is_some() {
                    shared.stop();
                }
            }
        }
        handles.into_iter().map(|h| h.join().expect("a worker panicked")).collect::<Vec<_>>()
    });
    if stop.is_none() && shared.stopped() {
        stop = Some(StopReason::Interrupted);
    }
    (outs, stop)
}

/// Why the whole search must stop now, if it must.
fn stop_now(ctx: &Ctx<'_>, shared: &frontier::Shared, observer: &mut dyn Observer) -> Option<StopReason> {
    let tests = shared.tests.load(Ordering::SeqCst);
    if observer.should_stop() {
        Some(StopReason::Interrupted)
    } else if ctx.config.timeout.is_some_and(|t| ctx.start.elapsed() >= t) {
        Some(StopReason::Timeout)
    } else if ctx.config.max_tests.is_some_and(|n| tests >= n) {
        Some(StopReason::Limit(format!("{tests} tests (--max-tests)")))
    } else {
        None
    }
}

/// A worker: take subtrees and explore them until the frontier is done.
fn work(ctx: &Ctx<'_>, shared: &frontier::Shared, tx: mpsc::Sender<(TestCase, RunCoverage)>) -> WorkerOut {
    let mut backend = (ctx.backends)();
    let mut pool = ExprPool::new();
    let machine = ctx.machine();
    let spec = InputSpec::new(&mut pool, ctx.program, ctx.main, ctx.config);
    let mut observer = WorkerObserver { shared, tx };
    let parts = Parts { main: ctx.main, pre: ctx.pre, start: ctx.start, observer: &mut observer };
    let mut search = Search::new(&machine, &spec, pool, &mut *backend, parts);
    let mut found = Vec::new();
    let mut busy = Duration::ZERO;
    while let Some(item) = shared.take() {
        let began = Instant::now();
        if let Some(mut cur) = search.start_item(&item, &mut found) {
            while search.advance(&mut cur, shared, &mut found) {}
        }
        busy += began.elapsed();
        shared.finished();
        if search.stopped().is_some() {
            // This worker's time is up (or the user said stop): so is
            // everyone's.
            shared.stop();
        }
    }
    let stats = search.figures();
    let report = WorkerReport {
        runs: stats.runs,
        solver_calls: stats.solver_calls,
        tests: found.len() as u64,
        busy_ms: busy.as_millis() as u64,
    };
    WorkerOut { bound_sites: search.bound_sites().clone(), found, stats, report }
}

/// A worker's observer: tests go to the coordinating thread, and the
/// shared stop stops the worker.
struct WorkerObserver<'s> {
    shared: &'s frontier::Shared,
    tx: mpsc::Sender<(TestCase, RunCoverage)>,
}

impl Observer for WorkerObserver<'_> {
    fn on_test(&mut self, test: &TestCase, coverage: &RunCoverage, _stats: &Stats) {
        self.shared.tests.fetch_add(1, Ordering::SeqCst);
        // The coordinator is gone only when the search is over.
        let _ = self.tx.send((test.clone(), coverage.clone()));
    }

    fn should_stop(&mut self) -> bool {
        self.shared.stopped()
    }
}

/// Tests per canonical search (see [`canonicalise`]).
const CANONICAL_CHUNK: usize = 32;

/// Each found path's test made again from its path condition (see the
/// module doc), on `jobs` threads.
///
/// Z3's answers depend on what its context saw before, so each test's
/// must be asked in a history that does not depend on the schedule. A
/// fresh context per test would do, at about 8 ms a test (Merge, k = 4:
/// 1.05 s for 129 tests against 0.1 s of exploration): the context, its
/// solvers and their first checks. So the sorted tests are cut into
/// chunks of [`CANONICAL_CHUNK`], a cut that depends on the paths only,
/// and each chunk is one fresh search (fresh pool, fresh Z3 context on a
/// thread of its own) that makes its tests in order: the same queries in
/// the same history, whatever N.
fn canonicalise(ctx: &Ctx<'_>, found: &[Found], jobs: usize, report: &mut Report) -> Vec<(TestCase, RunCoverage)> {
    let chunks: Vec<&[Found]> = found.chunks(CANONICAL_CHUNK).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    type Made = Vec<Option<(TestCase, RunCoverage)>>;
    let made: Vec<Mutex<Made>> = chunks.iter().map(|_| Mutex::new(Vec::new())).collect();
    let stats = Mutex::new(Stats::default());
    std::thread::scope(|s| {
        for _ in 0..jobs.min(chunks.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(chunk) = chunks.get(i) else { break };
                let (tests, figures) = std::thread::scope(|fresh| {
                    fresh.spawn(|| canonical_tests(ctx, chunk)).join().expect("a canonical search panicked")
                });
                *made[i].lock().unwrap_or_else(std::sync::PoisonError::into_inner) = tests;
                stats.lock().unwrap_or_else(std::sync::PoisonError::into_inner).absorb(&figures);
            });
        }
    });
    report.stats.absorb(&stats.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner));
    let made = made.into_iter().flat_map(|m| m.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner));
    let mut out = Vec::with_capacity(found.len());
    for (f, m) in found.iter().zip(made) {
        match m {
            Some(t) => out.push(t),
            None => {
                report.not_canonical += 1;
                out.push((f.test.clone(), f.coverage.clone()));
            }
        }
    }
    out
}

/// A chunk's canonical tests, by one fresh search (on a fresh thread).
fn canonical_tests(ctx: &Ctx<'_>, chunk: &[Found]) -> (Vec<Option<(TestCase, RunCoverage)>>, Stats) {
    let mut backend = (ctx.backends)();
    let mut pool = ExprPool::new();
    let machine = ctx.machine();
    let spec = InputSpec::new(&mut pool, ctx.program, ctx.main, ctx.config);
    let mut observer = NoObserver;
    let parts = Parts { main: ctx.main, pre: ctx.pre, start: ctx.start, observer: &mut observer };
    let mut search = Search::new(&machine, &spec, pool, &mut *backend, parts);
    let tests = chunk.iter().map(|f| search.canonical(f)).collect();
    let mut figures = search.figures();
    // Wall time is the whole search's, not each canonical search's.
    figures.elapsed_ms = 0;
    (tests, figures)
}

/// The suite of the sorted tests: one error test per site if asked (the
/// shortest path's), numbered in path order, with the paths' figures.
fn assemble(
    ctx: &Ctx<'_>,
    config: &Config,
    made: Vec<(TestCase, RunCoverage)>,
    stop: StopReason,
    bound_sites: std::collections::BTreeSet<BoundSite>,
) -> TestSuite {
    let mut stats = Stats { feasible_paths: made.len() as u64, ..Stats::default() };
    let (mut tests, mut per_test): (Vec<TestCase>, Vec<RunCoverage>) = (Vec::new(), Vec::new());
    let mut sites = crate::search::ErrorSites::default();
    for (test, coverage) in made {
        let error = match &test.outcome {
            crate::suite::Outcome::Error(e) => Some(e.clone()),
            _ => None,
        };
        if let (Some(e), true) = (&error, config.one_error_test_per_site) {
            match sites.judge(e, test.path.len(), true) {
                crate::search::Verdict::New => sites.kept(e, tests.len(), test.path.len()),
                crate::search::Verdict::Replace(at) => {
                    (tests[at], per_test[at]) = (test, coverage);
                    continue;
                }
                crate::search::Verdict::Fold => continue,
            }
        }
        tests.push(test);
        per_test.push(coverage);
    }
    sites.finish(&mut stats, &mut tests);
    for (i, t) in tests.iter_mut().enumerate() {
        t.id = i + 1;
    }
    stats.tests = tests.len() as u64;
    stats.error_tests = tests.iter().filter(|t| matches!(t.outcome, crate::suite::Outcome::Error(_))).count() as u64;
    let lines = per_test.iter().flat_map(|c| c.0.iter().copied()).collect();
    let sides = per_test.iter().flat_map(|c| c.1.iter().copied()).collect();
    let mut suite =
        crate::setup::assemble(ctx.program, ctx.info, config, ctx.main, tests, stats, stop, &(lines, sides), &per_test);
    let report =
        crate::suite::BoundReport { deepened: false, partial_k: None, at_bound: bound_sites.into_iter().collect() };
    (suite.k, suite.bound) = (config.k, report);
    suite
}

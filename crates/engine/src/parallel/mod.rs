//! Parallel exploration (`gen --jobs N`): one function's paths on N
//! threads, and the same suite whatever N.
//!
//! **Subtrees.** The depth-first search is cut into subtrees (see
//! [`crate::search::shared`]): each is explored by a search of its own,
//! which gives away its shallowest open prefix every
//! `Config::subtree_runs` runs (256 by default). Workers take
//! the shallowest subtree of the shared [`frontier`], so a worker that
//! runs dry takes the largest piece left.
//!
//! **Determinism.** Z3's answers depend on everything its context was
//! asked before, and the solver's answers decide the inputs, hence the
//! runs, hence the later prefixes. So each subtree's search has a new
//! solver backend in a new Z3 context (a thread of its own: the `z3`
//! crate's context is per thread), and starts from what its giver had
//! when it gave (the heap slot table, a fork of the expression pool and
//! the query cache: [`crate::search::shared::Warm`]), which the giver's
//! own item and run count decide. A subtree's tests, and the subtrees it
//! gives, then depend on its own inputs only, and the split points on
//! its run count only: the set of subtrees and of tests is the same
//! whatever the number of workers and however they were scheduled. The
//! tests are sorted by path and numbered in that order, so the suite is
//! the same byte for byte. Figures that depend on the schedule (which
//! worker did what, times) are in the [`Report`], not in the suite, whose
//! figures are the paths' (tests, feasible paths, error tests, folded
//! paths). A search that was stopped (time limit, Ctrl-C, `--max-tests`)
//! keeps the tests found, sorted by path: they are written once.
//!
//! **Modes.** The depth-first search under k-path or block-k, at a given
//! k or deepening it (k = 1, 2, ... as `search/deepen.rs` does, each k a
//! parallel search of its own), with or without a precondition, with
//! error search and one error test per site (folded after sorting, so
//! the kept test is the shortest path's, the first in path order among
//! equals). Other modes run on one worker and say so
//! ([`sequential_reason`]).

mod frontier;
pub mod simulate;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use pathwise_expr::{ExprPool, SolverBackend};
use pathwise_ir::{FuncId, Program};

use crate::analysis::ProgramInfo;
use crate::config::Config;
use crate::exec::Machine;
use crate::run::InputSpec;
use crate::search::shared::{Found, PathKey, WorkItem};
use crate::search::{EngineError, Observer, Parts, Search};
use crate::setup::RunCoverage;
use crate::suite::{BoundSite, Stats, StopReason, TestCase, TestSuite};
use rustc_hash::FxHashSet;

/// Makes a worker's solver backend, on the worker's thread.
pub type Backends<'f> = dyn Fn() -> Box<dyn SolverBackend> + Sync + 'f;

/// What a parallel search reports beside its suite: the figures that
/// depend on how the work was shared out.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub jobs: usize,
    /// Why the search ran on one worker, when it did.
    pub sequential: Option<String>,
    /// Every subtree's search's figures, summed.
    pub stats: Stats,
    pub workers: Vec<WorkerReport>,
    /// Subtrees explored (the first run's included).
    pub subtrees: u64,
    pub explore_ms: u64,
}

/// One worker's share (over every k, when deepening).
#[derive(Clone, Debug, Default)]
pub struct WorkerReport {
    pub runs: u64,
    pub solver_calls: u64,
    pub tests: u64,
    pub subtrees: u64,
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
    let mut report = Report { jobs, ..Report::default() };
    let mut forwarded = FxHashSet::default();
    let mut search_at = |k: u32, report: &mut Report| {
        // Workers keep every error path: one test per site is chosen
        // after sorting, the same whatever found which.
        let at_k = Config { k, deepen: false, one_error_test_per_site: false, ..config.clone() };
        let ctx = Ctx { program, info: &info, config: &at_k, main, pre, start, backends };
        let shared = frontier::Shared::with_root();
        let explored = explore(&ctx, &shared, jobs, (observer, &mut forwarded));
        let mut stats = Stats::default();
        for (i, out) in explored.outs.iter().enumerate() {
            stats.absorb(&out.stats);
            report.subtrees += out.report.subtrees;
            if report.workers.len() <= i {
                report.workers.push(WorkerReport::default());
            }
            report.workers[i].add(&out.report);
        }
        report.stats.absorb(&stats);
        let stop = explored.stop.clone().unwrap_or(match stats.undecided().is_empty() {
            true => StopReason::Complete,
            false => StopReason::Explored,
        });
        (explored, stop)
    };
    let (found, stop, k, bound) = if config.deepen {
        deepen(config, &mut |k| search_at(k, &mut report))
    } else {
        let (explored, stop) = search_at(config.k, &mut report);
        let at_bound = explored.bound_sites.into_iter().collect();
        (explored.found, stop, config.k, crate::suite::BoundReport { deepened: false, partial_k: None, at_bound })
    };
    report.explore_ms = start.elapsed().as_millis() as u64;
    let ctx = Ctx { program, info: &info, config, main, pre, start, backends };
    let mut made: Vec<_> = sorted(found).into_iter().map(|f| (f.test, f.coverage)).collect();
    // Workers stop at the next step after the limit: tests found meanwhile
    // go (the single search stops at the limit exactly).
    if let (StopReason::Limit(_), Some(n)) = (&stop, config.max_tests) {
        made.truncate(n as usize);
    }
    let mut suite = assemble(&ctx, made, stop);
    (suite.k, suite.bound) = (k, bound);
    let paths = &suite.stats;
    (report.stats.tests, report.stats.feasible_paths) = (paths.tests, paths.feasible_paths);
    (report.stats.error_tests, report.stats.error_paths_folded) = (paths.error_tests, paths.error_paths_folded);
    report.stats.elapsed_ms = start.elapsed().as_millis() as u64;
    Ok((suite, report))
}

/// Deepening (`gen` without `--k`), as the single search does it (see
/// `search/deepen.rs`): the parallel search at k = 1, 2, ... until one
/// ends by itself without the bound cutting a path, or at `config.k`, or
/// at the stop. The tests: those of the largest complete k, with those
/// the search at the next k found before it was stopped.
fn deepen(
    config: &Config,
    search_at: &mut dyn FnMut(u32) -> (Explored, StopReason),
) -> (Vec<Found>, StopReason, u32, crate::suite::BoundReport) {
    let mut complete: Option<(u32, Explored)> = None;
    for k in 1..=config.k.max(1) {
        let (explored, stop) = search_at(k);
        if explored.stop.is_some() {
            let (found, at_bound, last) = match complete {
                Some((c, done)) => {
                    let mut found = done.found;
                    found.extend(explored.found);
                    (found, done.bound_sites, c)
                }
                None => (explored.found, explored.bound_sites, k),
            };
            let bound = crate::suite::BoundReport {
                deepened: true,
                partial_k: Some(k),
                at_bound: at_bound.into_iter().collect(),
            };
            return (found, stop, last, bound);
        }
        let last = explored.bound_sites.is_empty() || k >= config.k;
        if last {
            let bound = crate::suite::BoundReport {
                deepened: true,
                partial_k: None,
                at_bound: explored.bound_sites.into_iter().collect(),
            };
            return (explored.found, stop, k, bound);
        }
        complete = Some((k, explored));
    }
    unreachable!("the loop returns at k = config.k")
}

/// The tests found, in path order, each path once.
fn sorted(mut found: Vec<Found>) -> Vec<Found> {
    found.sort_by(|a, b| a.key.cmp(&b.key));
    found.dedup_by(|a, b| a.key == b.key);
    found
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
}

impl Ctx<'_> {
    /// `f` on the search of `item`: a fork of its giver's pool and
    /// answers (see the module doc) on `backend`, made on this thread.
    fn with_search<R>(
        &self,
        item: &WorkItem,
        (backend, observer): (&mut dyn SolverBackend, &mut dyn Observer),
        f: impl FnOnce(&mut Search<'_, '_>) -> R,
    ) -> R {
        let mut pool = item.warm.as_ref().map_or_else(ExprPool::new, |w| w.pool.fork());
        let machine = self.machine(item.slots.clone());
        let spec = InputSpec::new(&mut pool, self.program, self.main, self.config);
        let parts = Parts { main: self.main, pre: self.pre, start: self.start, observer };
        let mut search = Search::new(&machine, &spec, pool, backend, parts);
        if let Some(warm) = &item.warm {
            search.adopt(warm);
        }
        f(&mut search)
    }

    /// A machine for a subtree's search, with the slot table it starts from.
    fn machine(&self, slots: crate::heap::SlotTable) -> Machine<'_> {
        Machine {
            deadline: self.config.timeout.map(|t| self.start + t),
            slots: std::cell::RefCell::new(slots),
            ..Machine::new(self.program, self.info, self.config)
        }
    }
}

/// What a worker hands back (its tests went to the coordinating thread
/// as found).
struct WorkerOut {
    stats: Stats,
    bound_sites: std::collections::BTreeSet<BoundSite>,
    report: WorkerReport,
}

/// What one parallel search at a given k did.
struct Explored {
    outs: Vec<WorkerOut>,
    found: Vec<Found>,
    bound_sites: std::collections::BTreeSet<BoundSite>,
    /// Why it was cut short, if it was.
    stop: Option<StopReason>,
}

/// Run the workers to the end of the exploration. This thread polls
/// `observer` (Ctrl-C, the caller's deadline) and passes it each test as
/// found (unless an earlier k of deepening `forwarded` its path),
/// numbered in the order of arrival, so that progress and salvage work as
/// in one search.
fn explore(
    ctx: &Ctx<'_>,
    shared: &frontier::Shared,
    jobs: usize,
    (observer, forwarded): (&mut dyn Observer, &mut FxHashSet<PathKey>),
) -> Explored {
    let (tx, rx) = mpsc::channel::<Vec<Found>>();
    let mut found = Vec::new();
    let mut stop = None;
    let outs = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs)
            .map(|_| {
                let tx = tx.clone();
                std::thread::Builder::new()
                    .name("pathwise-worker".into())
                    .spawn_scoped(s, move || work(ctx, shared, tx))
                    .expect("a worker thread")
            })
            .collect();
        drop(tx);
        let mut seen = Stats::default();
        loop {
            match rx.recv_timeout(Duration::from_millis(20)) {
                Ok(batch) => {
                    for mut f in batch {
                        if forwarded.insert(f.key.clone()) {
                            seen.tests = forwarded.len() as u64;
                            f.test.id = forwarded.len();
                            observer.on_test(&f.test, &f.coverage, &seen);
                        }
                        found.push(f);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if stop.is_none() {
                stop = stop_now(ctx, forwarded.len() as u64, observer);
                if stop.is_some() {
                    shared.stop();
                }
            }
        }
        handles.into_iter().map(|h| h.join().expect("a worker panicked")).collect::<Vec<_>>()
    });
    if stop.is_none() && shared.stopped() {
        stop = Some(shared.why().unwrap_or(StopReason::Interrupted));
    }
    let bound_sites = outs.iter().flat_map(|o| o.bound_sites.iter().copied()).collect();
    Explored { outs, found, bound_sites, stop }
}

/// Why the whole search must stop now, if it must (`tests`: the distinct
/// tests found so far).
fn stop_now(ctx: &Ctx<'_>, tests: u64, observer: &mut dyn Observer) -> Option<StopReason> {
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

impl WorkerReport {
    fn add(&mut self, other: &WorkerReport) {
        let WorkerReport { runs, solver_calls, tests, subtrees, busy_ms } = other;
        self.runs += runs;
        self.solver_calls += solver_calls;
        self.tests += tests;
        self.subtrees += subtrees;
        self.busy_ms += busy_ms;
    }
}

/// A worker: take subtrees and explore each, on a fresh thread, until the
/// frontier is done.
fn work(ctx: &Ctx<'_>, shared: &frontier::Shared, tx: mpsc::Sender<Vec<Found>>) -> WorkerOut {
    let mut out =
        WorkerOut { stats: Stats::default(), bound_sites: Default::default(), report: WorkerReport::default() };
    let mut busy = Duration::ZERO;
    while let Some(item) = shared.take() {
        let began = Instant::now();
        let sub = std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("pathwise-subtree".into())
                .spawn_scoped(s, || explore_subtree(ctx, &item, shared, (WorkerObserver { shared }, &tx)))
                .expect("a subtree's thread")
                .join()
                .expect("a subtree's search panicked")
        });
        busy += began.elapsed();
        shared.finished();
        out.report.subtrees += 1;
        out.stats.absorb(&sub.stats);
        out.report.tests += sub.tests;
        out.bound_sites.extend(sub.bound_sites);
        if let Some(why) = sub.stopped {
            // This subtree's time is up (or the user said stop): so is
            // everyone's.
            shared.stop_because(why);
        }
    }
    out.report.runs = out.stats.runs;
    out.report.solver_calls = out.stats.solver_calls;
    out.report.busy_ms = busy.as_millis() as u64;
    out
}

/// What a subtree's search did.
struct Subtree {
    tests: u64,
    stats: Stats,
    bound_sites: std::collections::BTreeSet<BoundSite>,
    stopped: Option<StopReason>,
}

/// Explore the subtree `item` with a search of its own (see the module doc),
/// giving subtrees to `frontier` and tests to `tx` as it goes.
fn explore_subtree(
    ctx: &Ctx<'_>,
    item: &WorkItem,
    frontier: &dyn crate::search::shared::Frontier,
    (mut observer, tx): (impl Observer, &mpsc::Sender<Vec<Found>>),
) -> Subtree {
    let mut backend = (ctx.backends)();
    ctx.with_search(item, (&mut *backend, &mut observer), |search| explore_with(ctx, search, item, (frontier, tx)))
}

/// [`explore_subtree`]'s search of `item`.
fn explore_with(
    ctx: &Ctx<'_>,
    search: &mut Search<'_, '_>,
    item: &WorkItem,
    (frontier, tx): (&dyn crate::search::shared::Frontier, &mpsc::Sender<Vec<Found>>),
) -> Subtree {
    let mut found = Vec::new();
    let mut tests = 0;
    let mut batch = Batch::default();
    if let Some(mut cur) = search.start_item(item, &mut found) {
        tests += found.len() as u64;
        batch.add(&mut found, tx, false);
        let mut splits = crate::search::shared::Splits::of(item, ctx.config.subtree_runs);
        while search.advance(&mut cur, (frontier, &mut splits), &mut found) {
            tests += found.len() as u64;
            batch.add(&mut found, tx, false);
        }
    }
    tests += found.len() as u64;
    batch.add(&mut found, tx, true);
    let stats = search.figures();
    Subtree { tests, stats, bound_sites: search.bound_sites().clone(), stopped: search.stopped() }
}

/// A subtree's tests on their way to the coordinating thread, sent
/// together: one message per test woke that thread for each (url_decode
/// of the corpus at k = 3: 11,000 context switches with 2 workers in
/// 1 s, against 85 for the single search), taking a core from the
/// workers. A batch goes when it is [`Batch::SIZE`] tests or
/// [`Batch::WAIT`] old, so that progress and salvage still see tests
/// as found, and when the subtree ends.
#[derive(Default)]
struct Batch {
    tests: Vec<Found>,
    since: Option<Instant>,
}

impl Batch {
    const SIZE: usize = 256;
    const WAIT: Duration = Duration::from_millis(20);

    /// Take `found`; send the batch if it is due (or `last`).
    fn add(&mut self, found: &mut Vec<Found>, tx: &mpsc::Sender<Vec<Found>>, last: bool) {
        if !found.is_empty() {
            self.since.get_or_insert_with(Instant::now);
            self.tests.append(found);
        }
        let due = self.tests.len() >= Self::SIZE || self.since.is_some_and(|t| t.elapsed() >= Self::WAIT);
        if !self.tests.is_empty() && (last || due) {
            self.since = None;
            // The coordinator is gone only when the search is over.
            drop(tx.send(std::mem::take(&mut self.tests)));
        }
    }
}

/// A worker's observer: the shared stop stops the worker (the tests go
/// to the coordinating thread, which counts them).
struct WorkerObserver<'s> {
    shared: &'s frontier::Shared,
}

impl Observer for WorkerObserver<'_> {
    fn should_stop(&mut self) -> bool {
        self.shared.stopped()
    }
}

/// The suite of the sorted tests: one error test per site if asked (the
/// shortest path's), numbered in path order, with the paths' figures.
fn assemble(ctx: &Ctx<'_>, made: Vec<(TestCase, RunCoverage)>, stop: StopReason) -> TestSuite {
    let config = ctx.config;
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
    crate::setup::assemble(ctx.program, ctx.info, config, ctx.main, tests, stats, stop, &(lines, sides), &per_test)
}

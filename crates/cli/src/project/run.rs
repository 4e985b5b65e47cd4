//! Running a project's functions on `--jobs` threads.
//!
//! Workers take the next function from a shared counter; each function's
//! search runs on a thread of its own, started for it: the Z3 context of
//! the `z3` crate is thread-local, so a fresh thread gives each search a
//! fresh context and solver (the backend is created by the search, as in
//! `gen`), whatever ran before on the worker. Nothing else is shared but
//! the compiled units (read only) and the stop flag, so a function's suite
//! does not depend on `--jobs` or on the order functions are taken in.
//!
//! A function that fails (an engine error, a panic, a budget spent before
//! it started) becomes a `failed` entry with its reason; the others go on.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Result;
use pathwise_engine::suite::{Outcome, StopReason, TestSuite};

use super::index::{Coverage, Entry, Flags, Status};
use super::units::CompiledUnit;
use crate::frontend::Frontend;
use crate::gen::{self, GenArgs};
use crate::progress::ProgressObserver;

/// The stack of a search thread (the interpreter and the solver's
/// translation recurse; the main thread `gen` runs on has 8 MiB).
const SEARCH_STACK: usize = 64 << 20;

/// The reason of a function whose search the run's `--timeout` cut.
pub const RUN_BUDGET: &str = "the run's --timeout";

/// One function to run.
#[derive(Clone, Debug)]
pub struct Job {
    pub unit: usize,
    pub file: String,
    pub function: String,
    pub line: u32,
    /// Its suite's directory, relative to the output directory.
    pub dir: String,
    /// `gen`'s options for it (`out` is its suite's directory); none when
    /// it fails before any search.
    pub args: Option<GenArgs>,
    /// Why it fails before any search (unsupported C, its file did not
    /// compile).
    pub failure: Option<String>,
    pub hash: String,
    pub flags: Flags,
    /// Its time budget.
    pub timeout: Duration,
    /// No `k` given: the bound deepens within the budget, whose end is
    /// the search's normal end.
    pub deepen: bool,
}

/// What every function's run shares.
pub struct Context<'a> {
    pub units: &'a [CompiledUnit],
    pub out: &'a Path,
    /// Set by Ctrl-C (and SIGTERM, SIGHUP): running searches stop and
    /// write their tests; functions not started fail.
    pub interrupted: Arc<AtomicBool>,
    /// The run's `--timeout`.
    pub deadline: Option<Instant>,
    /// For the progress lines.
    pub total: usize,
    pub done: AtomicUsize,
}

/// `f` applied to every item on `jobs` threads, results in item order.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], jobs: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten().collect()
}

/// Run every job on `jobs` threads; one entry per job, in job order.
pub fn run_all(jobs: &[Job], workers: usize, ctx: &Context<'_>) -> Vec<Entry> {
    parallel_map(jobs, workers, |job| {
        let entry = run_one(job, ctx);
        let n = ctx.done.fetch_add(1, Ordering::SeqCst) + 1;
        eprintln!("[{n}/{}] {}", ctx.total, progress_line(&entry));
        entry
    })
}

/// `src/a.c:f: complete, 3 tests (1 error), 0.4 s`.
pub fn progress_line(e: &Entry) -> String {
    let status = match e.status {
        Status::Complete => "complete".to_string(),
        Status::Limit => format!("limit ({})", e.reason.as_deref().unwrap_or("")),
        Status::Failed => format!("failed: {}", e.reason.as_deref().unwrap_or("")),
    };
    let errors = if e.errors > 0 { format!(" ({} error)", e.errors) } else { String::new() };
    let reused = if e.reused { ", reused" } else { "" };
    let tests = if e.status == Status::Failed { String::new() } else { format!(", {} tests{errors}", e.tests) };
    format!("{}:{}: {status}{tests}{reused}, {:.1} s", e.file, e.function, e.elapsed_ms as f64 / 1000.0)
}

/// A failed entry for `job`.
pub fn failed(job: &Job, reason: String, elapsed: Duration) -> Entry {
    Entry {
        file: job.file.clone(),
        function: job.function.clone(),
        line: job.line,
        status: Status::Failed,
        reason: Some(reason),
        stop: None,
        tests: 0,
        errors: 0,
        coverage: None,
        dir: job.dir.clone(),
        suite: None,
        hash: job.hash.clone(),
        reused: false,
        flags: job.flags.clone(),
        elapsed_ms: elapsed.as_millis() as u64,
    }
}

/// Run one function: its search on a thread of its own, its files written.
fn run_one(job: &Job, ctx: &Context<'_>) -> Entry {
    let start = Instant::now();
    let (Some(args), None) = (&job.args, &job.failure) else {
        let reason = job.failure.clone().unwrap_or_else(|| "no options".into());
        remove_suite(ctx.out, &job.dir);
        return failed(job, reason, Duration::ZERO);
    };
    if ctx.interrupted.load(Ordering::SeqCst) {
        return failed(job, "not started: interrupted".into(), Duration::ZERO);
    }
    let mut timeout = job.timeout;
    let mut cut_by_run = false;
    if let Some(deadline) = ctx.deadline {
        let left = deadline.saturating_duration_since(start);
        if left.is_zero() {
            return failed(job, format!("not started: {RUN_BUDGET} ran out"), Duration::ZERO);
        }
        if left < timeout {
            (timeout, cut_by_run) = (left, true);
        }
    }
    let args = GenArgs { timeout: Some(timeout), ..args.clone() };
    let Ok(fe) = &ctx.units[job.unit].frontend else {
        return failed(job, "the file could not be compiled".into(), Duration::ZERO);
    };
    remove_suite(ctx.out, &job.dir);
    let result = std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name(format!("pathwise {}", job.function))
            .stack_size(SEARCH_STACK)
            .spawn_scoped(s, || search_one(&args, fe, &ctx.interrupted, job.deepen));
        match spawned {
            Ok(h) => {
                h.join().unwrap_or_else(|p| Err(anyhow::anyhow!("internal error in Pathwise: {}", panic_text(&p))))
            }
            Err(e) => Err(anyhow::anyhow!("cannot start a thread: {e}")),
        }
    });
    match result {
        Ok(suite) => entry_of(job, &suite, cut_by_run, start.elapsed()),
        Err(e) => {
            remove_suite(ctx.out, &job.dir);
            // Reasons name the file as the index does (no absolute path).
            let file = ctx.units[job.unit].file.display().to_string();
            failed(job, format!("{e:#}").replace('\n', " ").replace(&file, &job.file), start.elapsed())
        }
    }
}

/// The search of one function and its files, as `gen` does it.
fn search_one(args: &GenArgs, fe: &Frontend, interrupted: &Arc<AtomicBool>, deepen: bool) -> Result<TestSuite> {
    gen::check_runnable(fe, &args.function, args.precondition.as_deref())?;
    let config = gen::concolic_config(args, gen::base_config(args, fe)?);
    let calls = Arc::new(AtomicU64::new(0));
    let mut observer = ProgressObserver::quiet(Arc::clone(interrupted), config.timeout, Arc::clone(&calls));
    let (mut suite, _) = gen::search(fe, &config, &mut observer, calls)?;
    gen::finish_suite(args, &mut suite, deepen);
    gen::write_outputs(&suite, &args.file, args.build_flags(), &args.out)?;
    Ok(suite)
}

/// The entry of a function whose suite is written.
fn entry_of(job: &Job, suite: &TestSuite, cut_by_run: bool, elapsed: Duration) -> Entry {
    let complete = crate::exit::for_stop(&suite.stop, false) == crate::exit::COMPLETE;
    let stop = gen::stop_text(suite);
    let reason = match &suite.stop {
        _ if complete => None,
        StopReason::Timeout if cut_by_run => Some(format!("{RUN_BUDGET}: {stop}")),
        StopReason::Interrupted => Some("interrupted (a signal)".to_string()),
        _ => Some(stop.clone()),
    };
    let coverage = suite.coverage.functions.iter().find(|f| f.name == job.function).map(|f| Coverage {
        lines_covered: f.lines_covered.len(),
        lines: f.lines.len(),
        branches_covered: f.branches_covered,
        branches: f.branches,
    });
    Entry {
        status: if complete { Status::Complete } else { Status::Limit },
        reason,
        stop: Some(stop),
        tests: suite.tests.len(),
        errors: suite.tests.iter().filter(|t| matches!(t.outcome, Outcome::Error(_))).count(),
        coverage,
        suite: Some(format!("{}/{}_tests.json", job.dir, job.function)),
        ..failed(job, String::new(), elapsed)
    }
}

/// Remove a function's suite directory (`OUT/DIR`, which only the run
/// writes), so that no stale file of an earlier run stays beside a new
/// suite or a failure.
pub fn remove_suite(out: &Path, dir: &str) {
    let path = out.join(dir);
    if path.is_dir() {
        let _ = std::fs::remove_dir_all(path);
    }
}

/// The message of a panic's payload.
fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

//! The parallel search simulated with N virtual workers, so that its
//! scaling is measured before it meets a machine with that many cores
//! (this one has 2).
//!
//! The subtrees of a parallel search, their work and the subtrees each
//! gives away, and when, do not depend on the schedule (see [`super`]).
//! So they are computed once, one after the other, and the schedule of N
//! workers is then simulated over them: a worker that is free takes the
//! shallowest subtree given so far (as [`super::frontier`] hands them
//! out), and waits, idle, while none is.
//!
//! Time is counted, not measured: a subtree costs the instructions its
//! runs executed, plus a fixed cost per solver backend call, plus a fixed
//! cost for its own search (a thread, a Z3 context and its solvers),
//! all in instructions, calibrated on the subtrees themselves: the time
//! per solver call and per new search over the time per instruction.
//! Each subtree runs on a thread of its own as in `gen --jobs`, so its
//! Z3 starts cold and asks what a real run's would.
//! A gift is available from the instant of its giver's step that made
//! it; the taker pays its run of the gift's inputs.
//!
//! The speedup over one worker measures how well the subtrees spread;
//! the speedup over the single search (`gen` without `--jobs`, run here at
//! the same costs) also charges the subtrees' own cost (their Z3 contexts,
//! the solver state they build again), which is what a user gains.

use std::cell::{Cell, RefCell};
use std::time::Instant;

use pathwise_ir::Program;

use super::{Backends, Ctx};
use crate::analysis::ProgramInfo;
use crate::config::Config;
use crate::search::shared::{Frontier, WorkItem};
use crate::search::{EngineError, NoObserver, Search};

/// The simulated search with one number of workers.
#[derive(Clone, Debug)]
pub struct Point {
    pub workers: usize,
    /// When the last worker is done, in instructions.
    pub makespan: u64,
    /// One worker's makespan over this one's.
    pub speedup: f64,
    /// `speedup / workers`.
    pub efficiency: f64,
    /// The single search's time (one search, no subtrees) over this
    /// makespan: what a user gains over not asking for `--jobs`.
    pub vs_single: f64,
    /// Share of the workers' time spent waiting for a subtree.
    pub idle: f64,
}

/// The curve over the numbers of workers asked for.
#[derive(Clone, Debug)]
pub struct Curve {
    /// Subtrees, tests and the work of all (in instructions).
    pub subtrees: usize,
    pub tests: usize,
    pub work: u64,
    /// What a solver call and a fresh search cost, in instructions.
    pub call_cost: u64,
    pub search_cost: u64,
    /// The single search's work, at the same costs.
    pub single_work: u64,
    pub points: Vec<Point>,
}

/// Simulate the parallel search of `config.function` with each number of
/// `workers` (see the module doc). Modes that stay sequential are refused.
pub fn simulate(
    program: &Program,
    config: &Config,
    backends: &Backends<'_>,
    workers: &[usize],
) -> Result<Curve, EngineError> {
    if let Some(why) = super::sequential_reason(config) {
        return Err(EngineError { message: format!("cannot simulate: {why}"), unmodelled_call: None });
    }
    let (main, pre) = crate::setup::check(program, config)?;
    let info = ProgramInfo::compute(program);
    let config = Config { one_error_test_per_site: false, timeout: None, ..config.clone() };
    let ctx = Ctx { program, info: &info, config: &config, main, pre, start: Instant::now(), backends };
    let tree = subtrees(&ctx);
    // Calibration: time per instruction, per solver call, per new search
    // (its thread's Z3 context and backend), measured on the subtrees.
    let steps: u64 = tree.iter().map(|s| s.steps).sum();
    let calls: u64 = tree.iter().map(|s| s.calls).sum();
    let solver_secs: f64 = tree.iter().map(|s| s.solver_secs).sum();
    let setup_secs: f64 = tree.iter().map(|s| s.setup_secs).sum();
    let total: f64 = tree.iter().map(|s| s.secs).sum();
    let per_step = (total - solver_secs - setup_secs).max(1e-9) / steps.max(1) as f64;
    let call_cost = ((solver_secs / calls.max(1) as f64) / per_step).round() as u64;
    let search_cost = ((setup_secs / tree.len().max(1) as f64) / per_step).round() as u64;
    let cost = |(steps, calls): (u64, u64)| steps + call_cost * calls;
    let jobs: Vec<Job> = tree
        .iter()
        .map(|s| Job {
            depth: s.depth,
            cost: search_cost + cost((s.steps, s.calls)),
            gifts: s.gifts.iter().map(|&(at, child)| (search_cost + cost(at), child)).collect(),
        })
        .collect();
    let work = jobs.iter().map(|j| j.cost).sum();
    let single = alone(&ctx);
    let single_work = search_cost + cost((single.steps, single.calls));
    let one = schedule(&jobs, 1).0;
    let mut points: Vec<Point> = Vec::new();
    for &n in workers {
        let n = n.max(1);
        let (makespan, idle) = schedule(&jobs, n);
        let speedup = one as f64 / makespan.max(1) as f64;
        points.push(Point {
            workers: n,
            makespan,
            speedup,
            efficiency: speedup / n as f64,
            vs_single: single_work as f64 / makespan.max(1) as f64,
            idle: idle as f64 / (makespan.max(1) * n as u64) as f64,
        });
    }
    let tests = tree.iter().map(|s| s.tests).sum();
    Ok(Curve { subtrees: tree.len(), tests, work, call_cost, search_cost, single_work, points })
}

/// One subtree as the simulation needs it.
struct Sub {
    depth: usize,
    steps: u64,
    calls: u64,
    solver_secs: f64,
    /// Making its backend (and its thread's Z3 context), and all of it.
    setup_secs: f64,
    secs: f64,
    tests: usize,
    /// Each gift: the work done when it was given (instructions, solver
    /// calls), and the index of the subtree it is.
    gifts: Vec<((u64, u64), usize)>,
}

/// A frontier that notes each gift with the giver's work so far.
#[derive(Default)]
struct Recorder {
    gifts: RefCell<Vec<(WorkItem, (u64, u64))>>,
    now: Cell<(u64, u64)>,
}

impl Frontier for Recorder {
    fn give(&self, item: WorkItem) {
        self.gifts.borrow_mut().push((item, self.now.get()));
    }
}

/// Every subtree of the search, explored one after the other, each by a
/// search of its own on a thread of its own, as `gen --jobs` explores
/// them: the same subtrees, the same Z3 contexts started cold, the same
/// queries.
fn subtrees(ctx: &Ctx<'_>) -> Vec<Sub> {
    let mut queue: Vec<WorkItem> = vec![WorkItem::root()];
    let mut out = Vec::new();
    let mut next = 0;
    while next < queue.len() {
        let item = queue[next].clone();
        next += 1;
        let splits = crate::search::shared::Splits::of(&item, ctx.config.subtree_runs);
        let (mut sub, gifts) = on_its_thread(ctx, &item, splits);
        for (gift, at) in gifts {
            sub.gifts.push((at, queue.len()));
            queue.push(gift);
        }
        out.push(sub);
    }
    out
}

/// The whole search in one search that gives nothing away, as `gen`
/// without `--jobs` runs it.
fn alone(ctx: &Ctx<'_>) -> Sub {
    on_its_thread(ctx, &WorkItem::root(), crate::search::shared::Splits::never()).0
}

/// Explore `item` on a new thread (hence a new Z3 context), giving at
/// `splits`; the gifts come back with the work done when each was made.
fn on_its_thread(
    ctx: &Ctx<'_>,
    item: &WorkItem,
    mut splits: crate::search::shared::Splits,
) -> (Sub, Vec<(WorkItem, (u64, u64))>) {
    let explore = || {
        let began = Instant::now();
        let mut backend = (ctx.backends)();
        let setup_secs = began.elapsed().as_secs_f64();
        let mut observer = NoObserver;
        ctx.with_search(item, (&mut *backend, &mut observer), |search| {
            record(search, item, &mut splits, (began, setup_secs))
        })
    };
    std::thread::scope(|s| s.spawn(explore).join().expect("a subtree's search panicked"))
}

/// [`on_its_thread`]'s search of `item`.
fn record(
    search: &mut Search<'_, '_>,
    item: &WorkItem,
    splits: &mut crate::search::shared::Splits,
    (began, setup_secs): (Instant, f64),
) -> (Sub, Vec<(WorkItem, (u64, u64))>) {
    let recorder = Recorder::default();
    let mut found = Vec::new();
    let mut tests = 0;
    if let Some(mut cur) = search.start_item(item, &mut found) {
        loop {
            tests += found.len();
            found.clear();
            recorder.now.set(search.work_done());
            if !search.advance(&mut cur, (&recorder, splits), &mut found) {
                break;
            }
        }
    }
    let (steps, calls) = search.work_done();
    let sub = Sub {
        depth: item.depth,
        steps,
        calls,
        solver_secs: search.solver_time().as_secs_f64(),
        setup_secs,
        secs: began.elapsed().as_secs_f64(),
        tests: tests + found.len(),
        gifts: Vec::new(),
    };
    (sub, recorder.gifts.into_inner())
}

/// A subtree for the scheduler: its depth, its cost, and when (after its
/// start) each gift becomes available.
struct Job {
    depth: usize,
    cost: u64,
    gifts: Vec<(u64, usize)>,
}

/// The makespan and the idle time of `n` workers over `jobs` (job 0 is
/// the root): a free worker takes the shallowest job available (earliest
/// given, then lowest index, among equals).
fn schedule(jobs: &[Job], n: usize) -> (u64, u64) {
    // (available from, job)
    let mut open: Vec<(u64, usize)> = vec![(0, 0)];
    let mut free = vec![0u64; n];
    let mut idle = 0u64;
    while !open.is_empty() {
        // The worker free first takes, at the earliest, the first job
        // available; among those available by then, the shallowest.
        let w = (0..n).min_by_key(|&w| (free[w], w)).unwrap_or(0);
        let earliest = open.iter().map(|o| o.0).min().unwrap_or(0);
        let now = free[w].max(earliest);
        let pick = (0..open.len())
            .filter(|&i| open[i].0 <= now)
            .min_by_key(|&i| (jobs[open[i].1].depth, open[i].0, open[i].1))
            .unwrap_or(0);
        let (_, j) = open.swap_remove(pick);
        idle += now - free[w];
        for &(at, child) in &jobs[j].gifts {
            open.push((now + at, child));
        }
        free[w] = now + jobs[j].cost;
    }
    let makespan = free.iter().copied().max().unwrap_or(0);
    idle += free.iter().map(|&f| makespan - f).sum::<u64>();
    (makespan, idle)
}

#[cfg(test)]
mod tests {
    use super::{schedule, Job};

    fn job(depth: usize, cost: u64, gifts: &[(u64, usize)]) -> Job {
        Job { depth, cost, gifts: gifts.to_vec() }
    }

    #[test]
    fn a_gift_starts_when_it_is_given_and_a_worker_is_free() {
        // The root gives job 1 at 10 and job 2 at 20, and runs to 100.
        let jobs = [job(0, 100, &[(10, 1), (20, 2)]), job(3, 50, &[]), job(5, 50, &[])];
        // One worker: everything in a row.
        assert_eq!(schedule(&jobs, 1), (200, 0));
        // Two: the second takes job 1 at 10 (idle 10), then job 2 at 60.
        assert_eq!(schedule(&jobs, 2), (110, 10 + 0 + (110 - 100)));
        // Three: each gift is taken as it is given.
        let (makespan, _) = schedule(&jobs, 3);
        assert_eq!(makespan, 100);
    }
}

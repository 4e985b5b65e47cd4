//! Compositional generation with function summaries: top-down and on
//! demand (SMART, seed 004, sections 3-4; `gen --compositional`) or
//! bottom-up over the call graph (seed 003, chapter 3; `--compositional
//! bottom-up`), with summaries stored between runs (`--summary-store DIR`).
//!
//! A *summary* of `f` is the disjunction of its explored paths, each a
//! case `pre ∧ post` over `f`'s canonical inputs (see [`summary`]): its
//! integer parameters, the input arrays its pointer parameters point to
//! (elements and length), the scalars it reads in the other objects its
//! pointer parameters point to (and their identities) and in globals;
//! `post` gives the returned value, the scalars written there and how the
//! path ends (a return, an error, the bound). Error cases are SMART's `post = false`: kept, so
//! that a caller's error tests come from them.
//!
//! **Calls.** A call of a summarisable function ([`summarisable`]) with a
//! symbolic argument (or a pointer argument) is summarised ([`hook`]):
//! the callee runs concretely (tests replay exactly) over per-call
//! *formals* `sum:f#n.i`, and its path becomes a case. Memory it reads
//! through a pointer parameter into an unwritten input array is that
//! array, renamed to the canonical one when the case is recorded; a scalar
//! it reads in the object another pointer parameter points to, or in a
//! global, is a formal tied to the value found (a concrete value becomes
//! an equality in the case's precondition). Whether an input pointer is
//! null is decided at the call, before the callee runs (a null one runs
//! it monolithically). Any other memory read or written from the caller's
//! side, a pointer read or written, or a variable the case cannot name
//! makes the function a *fallback*: explored monolithically from then on,
//! and reported.
//!
//! **Top-down order (SMART).** The first call of `f` in a run, while its
//! summary is open, is *explored*: its decisions are the caller's
//! (negatable, formals tied to the arguments), and the caller's entries
//! after its return are *frozen* (not negatable), so the depth-first
//! search enumerates `f`'s paths in that context first, one run each.
//! When the search backtracks above the call, `f` is *closed* and the run
//! is repeated with `f` composed (`Search::resume`): the caller's
//! continuation is then explored against the summary. A composed call's
//! result is a fresh `sum:f#n.ret` (and each global it may write a fresh
//! `sum:f#n.w…`) under the composition entry
//!
//! `∨_i (pre_i ∧ ret == post_i ∧ writes_i)  ∨  ¬∨_i pre_i`
//!
//! whose last disjunct is the input space no case covers yet: a caller's
//! decision that needs a result no known case gives is solved outside the
//! known cases, and the run explores the callee further (SMART's directed
//! search; `Summaries::generation`, `Summaries::refresh`). A composed call
//! also records `∨_i pre_i` as a negatable assumption (its other side asks
//! for a path of `f` no case has in this calling context: SMART's "does
//! the context imply the summary's preconditions"), and for each error
//! case `¬pre_e` as an error check (its other side is the error: the
//! caller's error test comes from the summary).
//!
//! **Bottom-up** ([`bottom_up`]): before the search, each summarisable
//! function the function under test reaches is explored alone, callees
//! first, with its inputs free and the same bound, by a search of its own
//! that composes the summaries below it; the summary is complete when that
//! search was. Calls then compose it; cases whose precondition cannot hold
//! in a calling context are dropped by the solver there (specialisation).
//!
//! **Storage** ([`store`]): summaries as JSON keyed by a hash of the
//! function's IR with its callees' and of the options that change them.
//!
//! **Criterion** (seed 004, Theorems 2-3): every feasible path of each
//! summarised function in the contexts the search reaches, and the
//! caller's paths against the summaries; the same errors and the same
//! branch coverage as the monolithic search (`tests/compositional.rs`).

pub mod bottom_up;
mod hook;
pub mod store;
pub mod summary;

use std::collections::{BTreeMap, BTreeSet};

use pathwise_expr::{Expr, ExprId, ExprPool, Sort};
use pathwise_ir::{FuncId, InstKind, Program, Type};
use rustc_hash::FxHashMap;

pub(crate) use hook::RunHook;
use summary::{all, is_canonical, substitute, CellKey, Origin, Outcome, Summary};

/// The options of summaries (part of the configuration).
pub use crate::config::ComposeOptions as Options;

/// One composed call of a run: what its composition entry is built from.
#[derive(Clone)]
pub(crate) struct Instance {
    pub func: FuncId,
    pub name: String,
    /// Canonical input -> its value in the calling context.
    pub map: FxHashMap<ExprId, ExprId>,
    /// The fresh result variable (non-void functions).
    pub ret: Option<ExprId>,
    /// Cells the summary may write: key, fresh variable, value before.
    pub writes: Vec<(CellKey, ExprId, ExprId)>,
    /// Distinguishes the internal variables of cases per instance.
    pub id: u64,
    /// Block-k: the block counts at the call, against which each case's
    /// trace is replayed (see [`crate::blockk`]).
    pub ctx: Option<std::rc::Rc<crate::blockk::BlockVisits>>,
    /// Block-k: the fresh count of each block the callee may enter, tied
    /// to each returning case's entries.
    pub counts: Vec<((FuncId, pathwise_ir::Block), ExprId)>,
}

/// Block-k: what replaying cases' traces needs (see [`crate::blockk`]).
#[derive(Default)]
pub(crate) struct BlockEnv {
    pub k: u32,
    pub graphs: FxHashMap<FuncId, crate::blockk::FuncGraph>,
    /// The functions with a body each summarised function reaches (itself
    /// first).
    pub regions: FxHashMap<FuncId, Vec<FuncId>>,
}

/// One case of a summary in a calling context (see [`Summaries::cases_in`]).
struct InContext {
    pre: ExprId,
    case: summary::Case,
    internal: bool,
    /// Block-k: where the case's path stays within the bound in this
    /// context (`true` otherwise).
    admit: ExprId,
}

impl InContext {
    /// Whether the case says what happens in this context: a returning or
    /// error case always (it returns, errs or exceeds the bound), a bound
    /// case where its checks fail (else the path goes on, unknown).
    fn known(&self, pool: &mut ExprPool) -> ExprId {
        if self.case.post.outcome == Outcome::Bound && self.case.trace.is_some() {
            let fails = pool.not(self.admit);
            return pool.and(self.pre, fails);
        }
        self.pre
    }

    /// Where the case's outcome (return or error) happens in this context.
    fn happens(&self, pool: &mut ExprPool) -> ExprId {
        pool.and(self.pre, self.admit)
    }
}

/// The summaries of a search (shared by its runs through
/// [`crate::exec::Machine::summaries`]).
#[derive(Default)]
pub struct Summaries {
    pub(crate) funcs: BTreeMap<FuncId, Summary>,
    /// Whether each function may be summarised (static, then dynamic).
    verdicts: FxHashMap<FuncId, Result<(), String>>,
    /// The static verdicts alone: what a run does at a call may depend on
    /// them, not on what other runs found (see `hook::enter`).
    static_ok: FxHashMap<FuncId, bool>,
    /// Calls run without their summary because of their context.
    context_fallbacks: BTreeSet<String>,
    /// Composition entries by condition, so they can be rebuilt.
    instances: FxHashMap<ExprId, Instance>,
    next_instance: u64,
    /// Calls composed from a summary instead of being explored.
    pub reused: u64,
    /// Cases left out of compositions because their precondition is false
    /// in the calling context (counted per composition built).
    dropped: std::cell::Cell<u64>,
    /// Bumped whenever a case is added.
    pub generation: u64,
    /// Bottom-up: the search's own function, whose runs are its cases.
    pub(crate) record_main: Option<FuncId>,
    /// Runs and solver calls of the bottom-up searches.
    pub(crate) bottom_up_runs: u64,
    pub(crate) bottom_up_solver_calls: u64,
    /// Paths of summarised functions some test took (see [`summary::Post::path`]).
    exercised: rustc_hash::FxHashSet<(FuncId, u64)>,
    /// In a bottom-up nested search (whose runs are the cases of its
    /// function), the same per caller context: the signatures of the
    /// explorable entries before the exercise entry, see
    /// [`context_hashes`]. A case is a caller path with the case each
    /// composed call took, so each callee path is asked for along each
    /// caller path; taken once in any context, as for a test suite, it
    /// left the caller paths that reach it otherwise without a case while
    /// the summary said complete (`gcd` in `tests/c/summary_nested.c`
    /// had no case for `b < 0` with `a % b == 0`: `abs_int`'s negative
    /// path was taken at the loop's other exit).
    ctx_exercised: rustc_hash::FxHashSet<(u64, FuncId, u64)>,
    /// Entries asking for a case no test took yet, by condition, with the
    /// paths the run recording it took itself.
    exercise_entries: FxHashMap<ExprId, (Instance, Vec<u64>)>,
    /// Store: functions whose summaries were loaded, and saved.
    pub(crate) loaded: Vec<String>,
    pub(crate) saved: Vec<String>,
    /// Block-k only.
    pub(crate) block_k: Option<BlockEnv>,
}

impl Summaries {
    pub(crate) fn verdict(&mut self, program: &Program, func: FuncId) -> Result<(), String> {
        if let Some(v) = self.verdicts.get(&func) {
            return v.clone();
        }
        let v = summarisable(program, func, &mut Vec::new());
        self.verdicts.insert(func, v.clone());
        v
    }

    /// Whether `func` passes the static checks of [`summarisable`].
    pub(crate) fn statically_ok(&mut self, program: &Program, func: FuncId) -> bool {
        *self.static_ok.entry(func).or_insert_with(|| summarisable(program, func, &mut Vec::new()).is_ok())
    }

    /// `func` cannot be summarised after all (seen in a run): explored
    /// monolithically from now on.
    pub(crate) fn give_up(&mut self, func: FuncId, why: String) {
        self.verdicts.insert(func, Err(why));
        if let Some(s) = self.funcs.get_mut(&func) {
            s.cases.clear();
        }
    }

    /// Block-k: the regions and graphs a call of `func` needs.
    pub(crate) fn prepare_block_k(
        &mut self,
        program: &Program,
        info: &crate::analysis::ProgramInfo,
        func: FuncId,
        k: u32,
    ) {
        let env = self.block_k.get_or_insert_with(|| BlockEnv { k, ..Default::default() });
        if env.regions.contains_key(&func) {
            return;
        }
        let mut region = vec![func];
        let mut i = 0;
        while i < region.len() {
            let f = region[i];
            i += 1;
            env.graphs.entry(f).or_insert_with(|| crate::blockk::FuncGraph::new(program, info, f));
            for cs in &info.func(f).callees {
                for &c in cs {
                    if !region.contains(&c) && !program.func(c).is_declaration() {
                        region.push(c);
                    }
                }
            }
        }
        env.regions.insert(func, region);
    }

    /// Block-k: the functions a call of `func` may enter blocks of.
    pub(crate) fn region(&self, func: FuncId) -> Vec<FuncId> {
        self.block_k.as_ref().and_then(|e| e.regions.get(&func).cloned()).unwrap_or_default()
    }

    pub(crate) fn context_fallback(&mut self, why: String) {
        self.context_fallbacks.insert(why);
    }

    pub(crate) fn summary_mut(&mut self, func: FuncId) -> &mut Summary {
        self.funcs.entry(func).or_insert_with(|| Summary::new(Origin::TopDown))
    }

    /// Whether `func`'s exploration in its first context is over.
    pub fn is_closed(&self, func: FuncId) -> bool {
        self.funcs.get(&func).is_some_and(|s| s.closed)
    }

    /// Close `func` (SMART: its calls are composed from now on).
    pub fn close(&mut self, func: FuncId) {
        self.summary_mut(func).closed = true;
    }

    pub(crate) fn add_case(&mut self, func: FuncId, case: summary::Case) {
        let s = self.summary_mut(func);
        if !s.fixed && s.add(case) {
            self.generation += 1;
        }
    }

    /// A test took this path of `func` (see [`hook::commit`]: a run that
    /// is no test covers nothing, so its paths are not counted).
    pub(crate) fn exercise(&mut self, func: FuncId, path: u64) {
        self.exercised.insert((func, path));
    }

    /// For a call of a settled summary, or of a closed top-down one (whose
    /// cases may have been found in runs that were no tests, past the
    /// bound under block-k): "one of the paths of `own`" (the
    /// path the call took: the entry a run records, which says which case
    /// it took, so that a bottom-up case recorded from that run keeps it in
    /// its precondition) or, with `tests` (the entry's caller context),
    /// "one of the returning paths some test took (in a nested search:
    /// along that caller context), or of `own`" (the entry as it is
    /// solved, see [`Summaries::refresh`]: its other side asks for a path
    /// no test took yet in this context). `None` when the summary is
    /// neither settled nor closed, or has no such paths.
    pub(crate) fn exercised_cond(
        &self,
        pool: &mut ExprPool,
        inst: &Instance,
        own: &[u64],
        tests: Option<u64>,
    ) -> Option<ExprId> {
        if !self.settled(inst.func) && !self.is_closed(inst.func) {
            return None;
        }
        let mut any = pool.bool_const(false);
        let mut some = false;
        for c in self.cases_in(pool, inst, false) {
            let Some(path) = c.case.post.path.filter(|_| c.case.post.outcome == Outcome::Return) else { continue };
            some = true;
            if own.contains(&path) || tests.is_some_and(|ctx| self.taken_in(inst.func, path, ctx)) {
                let here = c.happens(pool);
                any = pool.or(any, here);
            }
        }
        some.then_some(any)
    }

    /// Whether `path` is the path of one of `func`'s returning cases.
    pub(crate) fn took_a_case(&self, func: FuncId, path: Option<u64>) -> bool {
        let cases = self.funcs.get(&func).map_or(&[][..], |s| &s.cases[..]);
        cases.iter().any(|c| c.post.outcome == Outcome::Return && path.is_some() && c.post.path == path)
    }

    pub(crate) fn note_exercise_entry(&mut self, cond: ExprId, inst: Instance, own: Vec<u64>) {
        self.exercise_entries.insert(cond, (inst, own));
    }

    /// How many paths of summarised functions tests have taken.
    pub fn exercised_count(&self) -> usize {
        self.exercised.len() + self.ctx_exercised.len()
    }

    /// Whether a test took `path` of `func`; in a nested search, along the
    /// caller context `ctx` (see [`Summaries::ctx_exercised`]).
    fn taken_in(&self, func: FuncId, path: u64, ctx: u64) -> bool {
        match self.record_main {
            Some(_) => self.ctx_exercised.contains(&(ctx, func, path)),
            None => self.exercised.contains(&(func, path)),
        }
    }

    /// In a nested search, the test `entries` took the paths of its
    /// exercise entries, each in its caller context.
    pub(crate) fn exercise_in_contexts(&mut self, entries: &[crate::path::Entry]) {
        if self.record_main.is_none() {
            return;
        }
        let ctx = context_hashes(entries);
        for (i, e) in entries.iter().enumerate() {
            if let Some((inst, own)) = self.exercise_entries.get(&e.cond) {
                let f = inst.func;
                for &p in own {
                    self.ctx_exercised.insert((ctx[i], f, p));
                }
            }
        }
    }

    /// Whether `cond` is an entry asking for a summary's paths no test took
    /// (see [`Summaries::exercised_cond`]): it stays open after a test took
    /// one, until tests took them all.
    pub fn is_exercise_entry(&self, cond: ExprId) -> bool {
        self.exercise_entries.contains_key(&cond)
    }

    /// Whether negating the entry `cond` asks for the paths of a summary
    /// that tests (or the run recording it) have all taken (nothing left).
    pub fn stale(&self, cond: ExprId, ctx: u64) -> bool {
        let Some((inst, own)) = self.exercise_entries.get(&cond) else { return false };
        self.funcs.get(&inst.func).is_some_and(|s| {
            s.cases.iter().all(|c| {
                c.post.outcome != Outcome::Return
                    || c.post.path.is_none_or(|p| own.contains(&p) || self.taken_in(inst.func, p, ctx))
            })
        })
    }

    pub(crate) fn new_instance_id(&mut self) -> u64 {
        self.next_instance += 1;
        self.next_instance
    }

    pub(crate) fn remember(&mut self, cond: ExprId, inst: Instance) {
        self.instances.insert(cond, inst);
    }

    /// The cases of `inst`'s summary in its calling context, for the cases
    /// whose canonical inputs the context resolves.
    fn cases_in(&self, pool: &mut ExprPool, inst: &Instance, count: bool) -> Vec<InContext> {
        let Some(s) = self.funcs.get(&inst.func) else { return Vec::new() };
        let mut out = Vec::new();
        'cases: for case in &s.cases {
            let mut roots = case.pre.clone();
            roots.extend(case.post.ret);
            roots.extend(case.post.writes.iter().map(|w| w.1));
            let mut map = inst.map.clone();
            let mut internal = false;
            for v in pool.vars_of(&roots) {
                if map.contains_key(&v) {
                    continue;
                }
                let Expr::Var { name, sort } = pool.get(v).clone() else { continue };
                if is_canonical(&name, &inst.name) {
                    continue 'cases;
                }
                // Internal to the case (a callee composed inside it).
                let renamed = pool.var(&format!("{name}@{}", inst.id), sort);
                map.insert(v, renamed);
                internal = true;
            }
            let mut memo = FxHashMap::default();
            let pre: Vec<ExprId> = case.pre.iter().map(|&c| substitute(pool, c, &map, &mut memo)).collect();
            let ret = case.post.ret.map(|r| substitute(pool, r, &map, &mut memo));
            let writes = case.post.writes.iter().map(|&(k, v)| (k, substitute(pool, v, &map, &mut memo))).collect();
            let pre_all = all(pool, &pre);
            if pool.as_bool_const(pre_all) == Some(false) {
                // Specialisation: the case cannot happen in this context.
                self.dropped.set(self.dropped.get() + u64::from(count));
                continue;
            }
            let post = summary::Post { outcome: case.post.outcome.clone(), ret, writes, path: case.post.path };
            let admit = match (&inst.ctx, &case.trace, &self.block_k) {
                (Some(ctx), Some(trace), Some(env)) => ctx.admit(pool, &env.graphs, trace, env.k),
                _ => pool.bool_const(true),
            };
            let case = summary::Case { pre, post, trace: case.trace.clone() };
            out.push(InContext { pre: pre_all, case, internal, admit });
        }
        out
    }

    /// The composition constraint of a call, from the summary as it is now:
    /// a returning case with its result and writes, an error case (the
    /// error checks recorded after this entry exclude those), or inputs
    /// no case covers.
    ///
    /// A settled summary (complete, composed as it is) needs no unknown
    /// part. Cases with internal variables (a bottom-up summary's composed
    /// callees) say nothing about the inputs outside them: the unknown
    /// part of other summaries leaves them out.
    pub(crate) fn compose(&self, pool: &mut ExprPool, inst: &Instance) -> ExprId {
        let settled = self.settled(inst.func);
        let mut some_case = pool.bool_const(false);
        let mut known = pool.bool_const(false);
        for c in self.cases_in(pool, inst, true) {
            if !c.internal {
                let k = c.known(pool);
                known = pool.or(known, k);
            }
            let (case, pre) = (&c.case, c.happens(pool));
            if case.post.outcome.is_error() {
                // The caller's error check of the call follows.
                some_case = pool.or(some_case, pre);
                continue;
            }
            if case.post.outcome != Outcome::Return {
                continue;
            }
            let mut this = pre;
            if !inst.counts.is_empty() {
                // The blocks the case enters: the counts later checks see.
                let entries = case.trace.as_deref().map(crate::blockk::entries_of).unwrap_or_default();
                for &(b, var) in &inst.counts {
                    let n = pool.bv_const(32, entries.get(&b).copied().unwrap_or(0) as u64);
                    let is = pool.eq(var, n);
                    this = pool.and(this, is);
                }
            }
            if let (Some(r), Some(post)) = (inst.ret, case.post.ret) {
                let is = pool.eq(r, post);
                this = pool.and(this, is);
            }
            for &(key, fresh, old) in &inst.writes {
                let v = case.post.writes.iter().find(|w| w.0 == key).map_or(old, |w| w.1);
                let is = pool.eq(fresh, v);
                this = pool.and(this, is);
            }
            some_case = pool.or(some_case, this);
        }
        if settled {
            return some_case;
        }
        let unknown = pool.not(known);
        pool.or(some_case, unknown)
    }

    /// Whether `func`'s summary is complete and composed as it is.
    pub(crate) fn settled(&self, func: FuncId) -> bool {
        self.funcs.get(&func).is_some_and(|s| s.fixed && s.complete == Some(true))
    }

    /// The disjunction of the preconditions of `inst`'s cases (those
    /// without internal variables).
    pub(crate) fn known(&self, pool: &mut ExprPool, inst: &Instance) -> ExprId {
        let mut known = pool.bool_const(false);
        for c in self.cases_in(pool, inst, false) {
            if !c.internal {
                let k = c.known(pool);
                known = pool.or(known, k);
            }
        }
        known
    }

    /// The errors of `inst`'s summary, one per kind and line in the order
    /// of their first case, each with the disjunction of its cases'
    /// preconditions (the caller's error checks of the call).
    pub(crate) fn error_pres(&self, pool: &mut ExprPool, inst: &Instance) -> Vec<(Outcome, ExprId)> {
        let mut out: Vec<(Outcome, ExprId)> = Vec::new();
        for c in self.cases_in(pool, inst, false) {
            if !c.case.post.outcome.is_error() {
                continue;
            }
            let pre = c.happens(pool);
            if pool.as_bool_const(pre) == Some(false) {
                continue;
            }
            match out.iter_mut().find(|(o, _)| *o == c.case.post.outcome) {
                Some((_, any)) => *any = pool.or(*any, pre),
                None => out.push((c.case.post.outcome, pre)),
            }
        }
        out
    }

    /// `cond` rebuilt from the current summary when it is a composition
    /// entry (its summary may have grown since the run recorded it); `ctx`
    /// is the entry's caller context ([`context_hashes`]).
    pub(crate) fn refresh(&self, pool: &mut ExprPool, cond: ExprId, ctx: u64) -> ExprId {
        if let Some((inst, own)) = self.exercise_entries.get(&cond) {
            return self.exercised_cond(pool, inst, own, Some(ctx)).unwrap_or(cond);
        }
        match self.instances.get(&cond) {
            Some(inst) => self.compose(pool, inst),
            None => cond,
        }
    }

    /// Summaries computed, their cases, and whether each is complete
    /// (`complete(pool, uncovered)`: whether the inputs no case covers are
    /// none).
    pub(crate) fn report(
        &self,
        program: &Program,
        pool: &mut ExprPool,
        mut complete: impl FnMut(&mut ExprPool, ExprId) -> bool,
    ) -> SummaryReport {
        let mut r = SummaryReport::default();
        for (&func, s) in &self.funcs {
            if s.cases.is_empty() || self.verdicts.get(&func).is_some_and(|v| v.is_err()) {
                continue;
            }
            let done = match s.complete {
                Some(c) => c,
                None => {
                    let mut any_pre = pool.bool_const(false);
                    for case in &s.cases {
                        let pre = all(pool, &case.pre);
                        any_pre = pool.or(any_pre, pre);
                    }
                    let mut uncovered = pool.not(any_pre);
                    // A summary is over objects: its pointers are not null.
                    let roots: Vec<ExprId> = s.cases.iter().flat_map(|c| c.pre.iter().copied()).collect();
                    let name = &program.func(func).name;
                    for v in pool.vars_of(&roots) {
                        let is_ref = matches!(pool.get(v), Expr::Var { name: n, .. }
                            if n.starts_with(&format!("sum:{name}.p")) && n.ends_with(".ref"));
                        if is_ref {
                            let zero = pool.bv_const(32, 0);
                            let null = pool.eq(v, zero);
                            let not_null = pool.not(null);
                            uncovered = pool.and(uncovered, not_null);
                        }
                    }
                    complete(pool, uncovered)
                }
            };
            let name = program.func(func).name.clone();
            let count = |f: &dyn Fn(&Outcome) -> bool| s.cases.iter().filter(|c| f(&c.post.outcome)).count() as u64;
            r.summaries.push((name.clone(), s.cases.len() as u64, done));
            r.details.push(SummaryDetail {
                function: name,
                cases: s.cases.len() as u64,
                returns: count(&|o| *o == Outcome::Return),
                errors: count(&|o| o.is_error()),
                bounds: count(&|o| *o == Outcome::Bound),
                complete: done,
                origin: match s.origin {
                    Origin::TopDown => "top-down",
                    Origin::BottomUp => "bottom-up",
                    Origin::Stored => "stored",
                }
                .into(),
            });
        }
        let mut fallbacks: Vec<String> = self
            .verdicts
            .iter()
            .filter_map(|(&f, v)| v.as_ref().err().map(|why| format!("{}: {why}", program.func(f).name)))
            .collect();
        fallbacks.extend(self.context_fallbacks.iter().cloned());
        fallbacks.sort();
        fallbacks.dedup();
        r.fallbacks = fallbacks;
        r.reused = self.reused;
        r.specialised_away = self.dropped.get();
        r.bottom_up_runs = self.bottom_up_runs;
        r.bottom_up_solver_calls = self.bottom_up_solver_calls;
        r.loaded = self.loaded.clone();
        r.saved = self.saved.clone();
        r
    }
}

/// Store the summaries this search computed (`--summary-store DIR`), the
/// complete ones and the partial ones alike (a partial summary composed
/// later still explores what it lacks), and note them in `report`.
pub(crate) fn save(
    program: &Program,
    config: &crate::config::Config,
    pool: &ExprPool,
    sums: &mut Summaries,
    report: &mut SummaryReport,
) {
    let Some(dir) = &config.compose.store else { return };
    for (&f, s) in &sums.funcs {
        let bad = sums.verdicts.get(&f).is_some_and(|v| v.is_err());
        if s.origin == Origin::Stored || s.cases.is_empty() || bad {
            continue;
        }
        let name = &program.func(f).name;
        let mut s_export = store::export(pool, program, name, s);
        if s_export.complete.is_none() {
            s_export.complete = report.details.iter().find(|d| &d.function == name).map(|d| d.complete);
        }
        if store::save(dir, &s_export, &store::key(program, f, config)).is_ok() {
            sums.saved.push(name.clone());
        }
    }
    report.saved = sums.saved.clone();
}

pub use pathwise_suite::{SummaryDetail, SummaryReport};

/// Whether `func` may be summarised: a body, integer or pointer parameters,
/// an integer result (or none), no function pointers, and calls only to
/// such functions or to the C library's models, without recursion
/// (`stack`). What it reads and writes is checked as it runs (see
/// [`hook`]): pointer parameters must point to the start of input arrays
/// it does not write or of objects it reads and writes at constant
/// offsets, and the other memory it touches must be its own or globals.
pub fn summarisable(program: &Program, func: FuncId, stack: &mut Vec<FuncId>) -> Result<(), String> {
    let f = program.func(func);
    let int = |t: Type| t != Type::Ptr && !t.is_float();
    if f.is_declaration() {
        return Err("has no body".into());
    }
    if stack.contains(&func) {
        return Err("is recursive".into());
    }
    if f.params.iter().any(|p| p.ty.is_float()) || f.ret.is_some_and(|t| !int(t)) {
        return Err("has a floating parameter or a result that is not an integer".into());
    }
    stack.push(func);
    let mut verdict = Ok(());
    'all: for b in &f.blocks {
        for inst in &b.insts {
            let why = match &inst.kind {
                InstKind::AddrFunc { .. } | InstKind::CallPtr { .. } => {
                    Some(format!("uses a function pointer at line {}", inst.loc.line))
                }
                // The stream's position is state no formula over the
                // parameters carries.
                InstKind::AddrGlobal { global } if crate::run::is_stdin(&program.globals[global.0 as usize]) => {
                    Some(format!("reads the standard input at line {}", inst.loc.line))
                }
                InstKind::Call { func: g, .. }
                    if crate::run::STDIN_READERS.contains(&program.func(*g).name.as_str()) =>
                {
                    Some(format!("reads the standard input at line {}", inst.loc.line))
                }
                InstKind::Call { func: g, .. } if program.func(*g).is_declaration() => {
                    let name = &program.func(*g).name;
                    (!crate::setup::has_model(name) || name.starts_with("__VERIFIER_nondet"))
                        .then(|| format!("calls `{name}`, which has no model, at line {}", inst.loc.line))
                }
                InstKind::Call { func: g, .. } => summarisable(program, *g, stack)
                    .err()
                    .map(|why| format!("calls `{}`, which {why}", program.func(*g).name)),
                _ => None,
            };
            if let Some(why) = why {
                verdict = Err(why);
                break 'all;
            }
        }
    }
    stack.pop();
    verdict
}

/// For each entry of a run, a hash of the signatures of the explorable
/// entries before it (what [`crate::path::follows_prefix`] compares): the
/// caller path an exercise entry there ends, the same in every run taking
/// those decisions whichever cases its composed calls took.
pub(crate) fn context_hashes(entries: &[crate::path::Entry]) -> Vec<u64> {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        out.push(h.finish());
        if e.negatable {
            (e.kind, e.loc).hash(&mut h);
        }
    }
    out
}

/// The canonical variable of parameter `i` of `func` given the sort of
/// its value.
pub(crate) fn canonical_param(pool: &mut ExprPool, func: &str, i: usize, sort: Sort) -> ExprId {
    pool.var(&summary::param_name(func, i), sort)
}

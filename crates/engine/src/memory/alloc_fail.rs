//! Allocations that fail: `malloc`, `calloc`, `realloc`, `strdup` and
//! `strndup` returning null, as they do when memory runs out.
//!
//! C code tests the result (`if (!p) return -1;`), and a generator whose
//! allocations always succeed leaves that side of every such test without
//! a test, as gcov shows (`vec_push` of `tests/c/trust3/alloc_fail.c`:
//! 7 of 8 branch sides, all but `if (!d)`'s true one).
//! Under [`AllocFail::Checked`] (`gen`'s default) and [`AllocFail::All`]:
//! - each allocation call of the function under test (and its callees,
//!   not of a precondition) has a 1-bit input `alloc<n>.fails`, `n` its
//!   ordinal in the run (what the C test counts, as for leaks); a run
//!   whose inputs set it gets null, and its old block stays for `realloc`;
//! - the result compared with null (`p == NULL`, `!p`, `if (p)`) is a
//!   decision on that input, in the run where it succeeded as in the one
//!   where it failed, so the search covers both sides of the test and the
//!   two runs' paths agree. The null of a failed call carries a marker,
//!   `ite(fails, 0, ident)` as its base expression, so that the decision
//!   finds its input wherever the null was copied to;
//! - a use of the null is a null-dereference error: the code goes on
//!   after the test as if it had succeeded (a real crash when memory runs
//!   out), or used the result before testing it.
//!
//! Under `Checked` a result used without any test stays a valid object,
//! with no decision (code that never tests its allocations does not get
//! a second path per call); its first use records that the call succeeded
//! (a guard), so a test after the use cannot take the null side: the use
//! would have faulted first. Under `All` that first use is a check the
//! error search negates: every unchecked allocation gets its
//! null-dereference test.
//!
//! A run's failed calls become its test's
//! [`crate::suite::TestCase::failed_allocations`], and the emitted C test
//! makes exactly those calls of the code return null (see
//! `pathwise-emit`'s allocation wrappers).

use pathwise_expr::ExprId;
use pathwise_ir::{IntTy, Loc, Type};
use rustc_hash::FxHashMap;

use crate::config::AllocFail;
use crate::exec::Exec;
use crate::path::{End, EntryKind, Region};
use crate::suite::{ErrorKind, FailedAllocation};
use crate::value::{ObjId, Pointer, Value};

/// Identities of failed allocations' nulls, past every other kind of
/// identity (they only tell the markers of two calls apart).
const FAILED_IDENT_BASE: u64 = 0xF000_0000;

/// What one run knows of its allocations that may fail.
#[derive(Default)]
pub(crate) struct Fallible {
    /// The objects of calls that succeeded although they may fail: their
    /// condition "the call fails", and whether the path decided it
    /// already (a test of the result, or a use of it).
    objects: FxHashMap<ObjId, (ExprId, bool)>,
    /// The markers of the nulls of failed calls: the condition, the
    /// call's name and place (for the error message), and whether the
    /// path says already that the call failed (a test of it did).
    markers: FxHashMap<ExprId, (ExprId, &'static str, Loc, bool)>,
    /// The condition of the call being made, for the object it allocates
    /// next (set by [`Exec::allocation_fails`]).
    pending: Option<ExprId>,
    /// That object, until the library call that allocated it returns: its
    /// own writes (`calloc`'s zeros, `strdup`'s copy) are no use of it.
    fresh: Option<(ObjId, ExprId)>,
}

impl Exec<'_, '_> {
    /// Whether the allocation call `what` at `loc` fails in this run:
    /// `Some(null)` when it does (counted as a call, with no object), else
    /// `None` and the object the caller allocates next may fail.
    ///
    /// `made`: the object the call already allocated (`realloc`, which
    /// copies first, so that both runs record the copy's checks and their
    /// paths agree up to the test of its result): it is the call's, and a
    /// failing call discards it.
    pub(crate) fn allocation_fails(&mut self, what: &'static str, made: Option<Pointer>, loc: Loc) -> Option<Pointer> {
        if !self.m.config.allocations_may_fail() || self.region != Region::Main {
            return None;
        }
        let made = made.and_then(|p| p.obj);
        let ordinal = match made {
            Some(o) => self.mem.object(o).alloc.map_or(0, |a| a.ordinal),
            None => self.mem.allocations() + 1,
        };
        let ty = IntTy { ty: Type::I1, signed: false };
        let (var, fails) = self.fresh_input(&format!("alloc{ordinal}.fails"), ty, false, loc);
        let one = self.pool.bv_const(1, 1);
        let cond = self.pool.eq(var, one);
        if fails & 1 == 0 {
            match made {
                Some(o) => self.heap.alloc_fail.fresh = Some((o, cond)),
                None => self.heap.alloc_fail.pending = Some(cond),
            }
            return None;
        }
        match made {
            // Gone without a trace: nothing can reach it, and natively the
            // call allocated nothing (it still counts as a call).
            Some(o) => self.mem.object_mut(o).freed = true,
            None => self.mem.failed_alloc(),
        }
        let zero = self.pool.bv_const(32, 0);
        let ident = self.pool.bv_const(32, FAILED_IDENT_BASE + u64::from(ordinal));
        let marker = self.pool.ite(cond, zero, ident);
        self.heap.alloc_fail.markers.insert(marker, (cond, what, loc, false));
        let loc = self.user_loc(loc);
        self.seen.failed_allocations.push(FailedAllocation { ordinal, function: what.to_string(), loc });
        Some(Pointer { base_sym: Some(marker), ..Pointer::NULL })
    }

    /// Note that `o` is the object of the call [`Self::allocation_fails`]
    /// just let succeed, if any.
    pub(crate) fn note_allocated(&mut self, o: ObjId) {
        if let Some(cond) = self.heap.alloc_fail.pending.take() {
            self.heap.alloc_fail.fresh = Some((o, cond));
        }
    }

    /// The library call that allocated an object that may fail returned:
    /// from now on, comparing or using the object is the code's.
    pub(crate) fn allocation_returned(&mut self) {
        if let Some((o, cond)) = self.heap.alloc_fail.fresh.take() {
            self.heap.alloc_fail.objects.insert(o, (cond, false));
        }
    }

    /// The condition "`p`'s allocation failed" when `p` is the result of
    /// an allocation that may fail (its object's start, or its null), and
    /// whether the path decided it already; the path decides it now.
    fn failure_of(&mut self, p: &Pointer) -> Option<(ExprId, bool)> {
        if p.off != 0 || p.off_sym.is_some() {
            return None;
        }
        let fallible = &mut self.heap.alloc_fail;
        let decided = match p.obj {
            Some(o) => fallible.objects.get_mut(&o).map(|(cond, decided)| (*cond, decided)),
            None => fallible.markers.get_mut(&p.base_sym?).map(|(cond, .., decided)| (*cond, decided)),
        };
        decided.map(|(cond, decided)| (cond, std::mem::replace(decided, true)))
    }

    /// `p == NULL` / `p != NULL` where `p` is an allocation's result that
    /// may fail: a decision on its failure.
    pub(crate) fn compare_fallible(&mut self, eq: bool, a: &Pointer, b: &Pointer) -> Option<Value> {
        if self.heap.alloc_fail.objects.is_empty() && self.heap.alloc_fail.markers.is_empty() {
            return None;
        }
        let plain_null = |p: &Pointer| p.obj.is_none() && p.off == 0 && p.off_sym.is_none() && p.base_sym.is_none();
        let p = match (plain_null(a), plain_null(b)) {
            (false, true) => a,
            (true, false) => b,
            _ => return None,
        };
        let (cond, decided) = self.failure_of(p)?;
        let null = p.obj.is_none();
        let conc = (null == eq) as u64;
        if decided {
            // A second test (`height(n)` after `if (!n)`): the path has the
            // answer, and a decision would only cost a solver call.
            return Some(Value::int(conc));
        }
        let e = if eq { cond } else { self.pool.not(cond) };
        Some(Value::Int { conc, sym: Some(e) })
    }

    /// The null check of a use of `p` (a dereference, or a library call
    /// that needs a valid pointer) when it is an allocation's result that
    /// may fail; `None` leaves it to the other checks.
    pub(crate) fn fallible_deref(&mut self, p: &Pointer, loc: Loc) -> Option<Result<(), End>> {
        let fallible = &self.heap.alloc_fail;
        if fallible.objects.is_empty() && fallible.markers.is_empty() {
            return None;
        }
        match p.obj {
            Some(o) => {
                let (cond, decided) = *fallible.objects.get(&o)?;
                if decided {
                    return None;
                }
                // Used before any test: under `Checked` the path keeps the
                // call succeeding (a later test of it cannot fail), under
                // `All` the error search negates this check.
                self.heap.alloc_fail.objects.insert(o, (cond, true));
                let ok = self.pool.not(cond);
                let negatable = self.m.config.alloc_fail == AllocFail::All && self.m.config.seek_errors;
                self.record(ok, EntryKind::Guard { violated: false }, negatable, false, loc);
                None
            }
            None => {
                let &(cond, what, at, _) = fallible.markers.get(&p.base_sym?)?;
                self.record(cond, EntryKind::Guard { violated: true }, true, false, loc);
                let message =
                    format!("null pointer dereference: the `{what}` of line {} returned NULL (out of memory)", at.line);
                Some(Err(self.error(ErrorKind::NullDereference, message, loc)))
            }
        }
    }
}

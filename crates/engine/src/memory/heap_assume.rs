//! Heap assumptions a user states on input structures (seed 003, section
//! 6.3): non-aliasing of two pointers, non-sharing of two structures, and
//! acyclicity. By default input heaps may share and have cycles.
//!
//! `pathwise_noalias(p, q)` is the constraint `p == NULL || p != q`.
//! The other two restrict the initial pointer fields read below an input
//! pointer, where lazy initialisation decides them (see [`crate::heap`]):
//! every input pointer read at an access path below the root is named by
//! that path, so
//! - under `pathwise_acyclic(p)`, a pointer read at path `X` below `p` is
//!   null or differs from the object at every proper prefix of `X` (its
//!   ancestors on the way from `p`): following fields from `p` never comes
//!   back to an object on the way, which is what a cycle reachable from `p`
//!   would need (the thesis's `path(Ref, Path)` rule);
//! - under `pathwise_nonsharing(p, q)`, a pointer read below `p` (or `p`
//!   itself) is null or differs from every object read below `q`, and the
//!   other way round: the structures' objects are disjoint.
//!
//! The constraints bind the initial value of each field (the variable of
//! its first read), not what the program later writes, and they are
//! recorded as assumptions of the run: inputs violating them are not valid.
//! State them in the precondition, before reading through the pointers;
//! the function under test inherits them.

use pathwise_expr::ExprId;
use pathwise_ir::Loc;

use crate::exec::Exec;
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::{Pointer, Value};

/// What the user assumed, by root access path (slot ids).
#[derive(Clone, Debug, Default)]
pub struct Declared {
    acyclic: Vec<u32>,
    nonsharing: Vec<(u32, u32)>,
}

/// Assumptions of a run, with the pointer values read at each path.
#[derive(Default)]
pub struct AssumeState {
    declared: Declared,
    /// Path, symbolic identity and concrete identity of each input pointer
    /// read, latest per path.
    values: Vec<(u32, ExprId, u64)>,
}

impl AssumeState {
    pub(crate) fn note_value(&mut self, path: u32, sym: ExprId, ident: u64) {
        self.values.retain(|(p, _, _)| *p != path);
        self.values.push((path, sym, ident));
    }

    /// The assumptions declared so far (the precondition's, for the
    /// function under test).
    pub fn declared(&self) -> Declared {
        self.declared.clone()
    }

    pub fn inherit(&mut self, declared: Declared) {
        self.declared = declared;
    }
}

/// Whether access path `name` is `root` or below it.
fn is_under(name: &str, root: &str) -> bool {
    name == root || is_below(name, root)
}

/// Whether access path `name` is strictly below `ancestor`.
fn is_below(name: &str, ancestor: &str) -> bool {
    name.len() > ancestor.len() && name.starts_with(ancestor) && name[ancestor.len()..].starts_with("->")
}

impl Exec<'_, '_> {
    /// Record the assumptions' constraints on the pointer read at `name`
    /// (variable `var`, concrete identity `v`); ends the run when the
    /// inputs violate them.
    pub(crate) fn constrain_by_assumptions(&mut self, name: &str, var: ExprId, v: u64, loc: Loc) -> Result<(), End> {
        let others = {
            let slots = self.m.slots.borrow();
            let st = &self.heap.assume;
            let mut others: Vec<(ExprId, u64)> = Vec::new();
            for &r in &st.declared.acyclic {
                let root = slots.name(r);
                if is_below(name, root) {
                    let ancestors = st.values.iter().filter(|(p, _, _)| {
                        let n = slots.name(*p);
                        is_under(n, root) && is_below(name, n)
                    });
                    others.extend(ancestors.map(|&(_, e, i)| (e, i)));
                }
            }
            for &(a, b) in &st.declared.nonsharing {
                for (mine, theirs) in [(a, b), (b, a)] {
                    if is_under(name, slots.name(mine)) {
                        let root = slots.name(theirs);
                        let below = st.values.iter().filter(|(p, _, _)| is_under(slots.name(*p), root));
                        others.extend(below.map(|&(_, e, i)| (e, i)));
                    }
                }
            }
            others
        };
        if others.is_empty() {
            return Ok(());
        }
        let zero = self.pool.bv_const(32, 0);
        let mut cond = self.pool.eq(var, zero);
        let mut distinct = self.pool.bool_const(true);
        for &(e, _) in &others {
            let same = self.pool.eq(var, e);
            let differ = self.pool.not(same);
            distinct = self.pool.and(distinct, differ);
        }
        cond = self.pool.or(cond, distinct);
        let holds = v == 0 || others.iter().all(|&(_, i)| i != v);
        self.assume(cond, holds, loc)
    }

    /// `pathwise_noalias(p, q)`, `pathwise_acyclic(p)`,
    /// `pathwise_nonsharing(p, q)`.
    pub(crate) fn heap_assumption(&mut self, name: &str, args: &[Value], loc: Loc) -> Result<(), End> {
        let ptr = |i: usize| args.get(i).map(|v| v.as_ptr()).unwrap_or(Pointer::NULL);
        let (p, q) = (ptr(0), ptr(1));
        if name == "pathwise_noalias" {
            return self.assume_distinct(&p, &q, false, loc);
        }
        let input = |p: &Pointer| (p.path != 0).then_some(p.path);
        let (Some(a), b) = (input(&p), input(&q)) else {
            let message = format!("{name}: the argument must be an input pointer (a parameter or read from one)");
            return Err(self.error(ErrorKind::Unsupported, message, loc));
        };
        if name == "pathwise_acyclic" {
            self.heap.assume.declared.acyclic.push(a);
            return Ok(());
        }
        let Some(b) = b else {
            let message = format!("{name}: the arguments must be input pointers (parameters or read from them)");
            return Err(self.error(ErrorKind::Unsupported, message, loc));
        };
        self.heap.assume.declared.nonsharing.push((a, b));
        self.assume_distinct(&p, &q, true, loc)
    }

    /// `p` and `q` do not point to the same object (unless `p` is null, or
    /// with `either_null`, either is).
    fn assume_distinct(&mut self, p: &Pointer, q: &Pointer, either_null: bool, loc: Loc) -> Result<(), End> {
        let (rp, rq) = (self.base_expr(p), self.base_expr(q));
        let (ip, iq) = (self.ident_of(p), self.ident_of(q));
        let zero = self.pool.bv_const(32, 0);
        let mut cond = self.pool.eq(rp, zero);
        if either_null {
            let q_null = self.pool.eq(rq, zero);
            cond = self.pool.or(cond, q_null);
        }
        let same = self.pool.eq(rp, rq);
        let differ = self.pool.not(same);
        cond = self.pool.or(cond, differ);
        let holds = ip == 0 || (either_null && iq == 0) || ip != iq;
        self.assume(cond, holds, loc)
    }
}

//! The record of one execution: path-condition entries and outcomes.

use pathwise_expr::ExprId;
use pathwise_ir::{Block, FuncId, Loc};

/// Which execution an entry belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Region {
    /// The precondition's execution: explored only to find valid inputs.
    Pre,
    /// The function under test: every feasible k-path is a test.
    Main,
}

/// What produced a path-condition entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// A `br` on a symbolic condition.
    Decision { func: FuncId, block: Block, taken: bool },
    /// `pathwise_assume` / `pathwise_array_len`.
    Assume,
    /// An access to an input array at an offset checked against its length;
    /// `violated`: the access was beyond it (the run ended there).
    InBounds { param: usize, violated: bool },
    /// A condition that keeps execution defined (divisor nonzero, shift
    /// amount in range, symbolic index inside a local array); `violated`:
    /// it failed (the run ended there in a runtime error).
    Guard { violated: bool },
    /// A byte test inside a modelled library loop (`strlen`, `strcmp`...,
    /// see [`crate::libc`]): a decision of the path at the call's
    /// location, kept apart from the program's own branches (it has no
    /// branch side for coverage).
    Library { taken: bool },
}

/// One conjunct of the path condition, oriented as it held on the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub cond: ExprId,
    pub kind: EntryKind,
    pub region: Region,
    /// Whether the other side is worth exploring at all.
    pub negatable: bool,
    /// The other side would exceed the k bound.
    pub bound_blocked: bool,
    pub loc: Loc,
    /// Path steps ([`crate::run::RunRecord::path`]) recorded before this
    /// entry: a branch decision pushes its step first, so its own step is
    /// `step - 1`; a library decision's is `step`. Lets observers place a
    /// refuted prefix among all the branches of the run (`pathwise paths`).
    pub step: u32,
    /// A decision or check of the function under test itself (its
    /// outermost activation, not a callee's or a modelled library loop's):
    /// what `--criterion all-local-paths` negates (see `search/local.rs`).
    pub local: bool,
}

impl EntryKind {
    /// The same kind with its outcome the other way round. An assumption
    /// has no recorded outcome: only a failed one is explorable, and its
    /// other side is the same assumption holding.
    pub(crate) fn flipped(self) -> EntryKind {
        match self {
            EntryKind::Decision { func, block, taken } => EntryKind::Decision { func, block, taken: !taken },
            EntryKind::InBounds { param, violated } => EntryKind::InBounds { param, violated: !violated },
            EntryKind::Guard { violated } => EntryKind::Guard { violated: !violated },
            EntryKind::Library { taken } => EntryKind::Library { taken: !taken },
            EntryKind::Assume => EntryKind::Assume,
        }
    }
}

impl Entry {
    /// What the entry decides, independent of how its condition is spelt:
    /// two runs taking the same decisions have the same signatures even
    /// when their conditions differ, e.g. because heap inputs were
    /// materialised through other slots (see [`follows_prefix`]).
    fn signature(&self) -> (EntryKind, Loc) {
        (self.kind, self.loc)
    }
}

/// Where `new` takes the other side of `old[j]` after taking the same
/// decisions as `old[..j]`: the index in `new` of that flipped entry, and
/// for each of `new[..=index]` the index of its counterpart in `old`.
///
/// Only explorable entries are compared, by signature: a run's holding
/// assumptions and heap-domain constraints depend on which objects its
/// inputs materialised, so two runs along the same path can differ in them
/// and in the spelling of their conditions (a heap read ranges over the
/// run's earlier accesses, which the precondition's path decides). The
/// decisions are what identifies a path, so they are what must agree.
pub fn follows_prefix(old: &[Entry], j: usize, new: &[Entry]) -> Option<Alignment> {
    let mut counterpart = Vec::with_capacity(new.len());
    let mut wanted = old[..j].iter().enumerate().filter(|(_, e)| e.negatable);
    let mut next = wanted.next();
    let flip = (old[j].kind.flipped(), old[j].loc);
    for (i, e) in new.iter().enumerate() {
        match next {
            Some((oi, o)) if e.negatable => {
                if e.signature() != o.signature() {
                    return None;
                }
                counterpart.push(Some(oi));
                next = wanted.next();
            }
            Some(_) => counterpart.push(None),
            None if e.signature() == flip => {
                counterpart.push(Some(j));
                return Some(Alignment { flipped: i, counterpart });
            }
            // An explorable entry of another kind first: another path.
            None if e.negatable => return None,
            None => counterpart.push(None),
        }
    }
    None
}

/// How a new run's entries line up with the run whose prefix it solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alignment {
    /// Index in the new run of the entry that took the other side.
    pub flipped: usize,
    /// For each new entry up to `flipped`, its counterpart in the old run.
    pub counterpart: Vec<Option<usize>>,
}

/// A runtime error that ends a run.
pub type RuntimeError = crate::suite::ErrorInfo;

/// How one function execution (precondition or main) ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Returned, with the concrete return bits (see [`Value::out_bits`]).
    ///
    /// [`Value::out_bits`]: crate::value::Value::out_bits
    Returned(Option<u128>),
    /// An assumption was false: the inputs are not valid.
    AssumeFailed,
    /// The path took more than k iterations or recursion levels.
    BoundExceeded,
    /// An input array was accessed beyond its current length: the inputs
    /// must provide a longer array. When the array's length is tied to other
    /// inputs (by the precondition or `pathwise_array_len`), the run becomes
    /// an out-of-bounds error instead (see [`crate::run::run_once`]).
    ArrayTooShort { param: usize, offset: u64, size: u64, loc: Loc },
    /// Too many interpreter steps.
    StepLimit,
    /// `abort()`, `exit(n)`, a failed `assert`, or undefined behaviour.
    Error(RuntimeError),
}

impl End {
    /// Whether the run was cut short where a whole program's test keeps
    /// the inputs it read (see `testcase::to_test`): at the k bound, at the
    /// step limit, or at a construct the engine does not model (the
    /// native run goes on past it, and its coverage counts).
    pub fn cut_short(&self) -> bool {
        match self {
            End::BoundExceeded | End::StepLimit => true,
            End::Error(e) => e.kind == crate::suite::ErrorKind::Unsupported,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathwise_expr::{ExprPool, Sort};

    fn entry(pool: &mut ExprPool, name: &str, kind: EntryKind, negatable: bool, line: u32) -> Entry {
        let cond = pool.var(name, Sort::Bool);
        let loc = Loc { file: 0, line, col: 1 };
        Entry { cond, kind, region: Region::Main, negatable, bound_blocked: false, loc, step: 0, local: true }
    }

    fn decision(taken: bool) -> EntryKind {
        EntryKind::Decision { func: FuncId(0), block: Block(1), taken }
    }

    /// Same decisions spelt differently, with an extra heap-domain
    /// assumption in the new run: it follows, and the flags line up.
    #[test]
    fn decisions_align_whatever_their_spelling() {
        let mut pool = ExprPool::new();
        let old = vec![entry(&mut pool, "a", decision(true), true, 3), entry(&mut pool, "b", decision(true), true, 5)];
        let new = vec![
            entry(&mut pool, "a2", decision(true), true, 3),
            entry(&mut pool, "dom", EntryKind::Assume, false, 4),
            entry(&mut pool, "b2", decision(false), true, 5),
        ];
        let al = follows_prefix(&old, 1, &new).unwrap();
        assert_eq!(al, Alignment { flipped: 2, counterpart: vec![Some(0), None, Some(1)] });
        // Another outcome before the flipped entry: another path.
        let other = vec![entry(&mut pool, "a3", decision(false), true, 3)];
        assert_eq!(follows_prefix(&old, 1, &other), None);
        // The flipped entry never reached.
        assert_eq!(follows_prefix(&old, 1, &new[..2]), None);
    }

    /// A failed assumption's other side is the assumption holding.
    #[test]
    fn a_failed_assumption_flips_to_a_holding_one() {
        let mut pool = ExprPool::new();
        let old = vec![entry(&mut pool, "x", EntryKind::Assume, true, 7)];
        let new =
            vec![entry(&mut pool, "y", EntryKind::Assume, false, 7), entry(&mut pool, "z", decision(true), true, 9)];
        assert_eq!(follows_prefix(&old, 0, &new).map(|a| a.flipped), Some(0));
    }
}

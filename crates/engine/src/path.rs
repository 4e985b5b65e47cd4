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
    /// amount in range, symbolic index inside a local array).
    Guard,
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
}

/// A runtime error that ends a run.
pub type RuntimeError = crate::suite::ErrorInfo;

/// How one function execution (precondition or main) ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Returned, with the concrete return bits.
    Returned(Option<u64>),
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

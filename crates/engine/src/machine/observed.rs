//! What an execution observed that outlives it: the interpreter writes it
//! as the run goes, and the run moves it whole into its record
//! ([`crate::run::RunRecord::seen`]), so an output added here needs no
//! copy at the end of the run.

use pathwise_expr::ExprId;
use pathwise_ir::{Block, FuncId, Loc};
use rustc_hash::FxHashSet;

use crate::suite::PathStep;

/// The observations of one execution (see the module doc).
#[derive(Default)]
pub struct Observed {
    /// Decisions of the function under test (Main region only).
    pub path: Vec<PathStep>,
    /// Lines executed (Main region).
    pub lines: FxHashSet<(FuncId, u32)>,
    /// Branch sides taken (Main region).
    pub sides: FxHashSet<(FuncId, Block, bool)>,
    /// Blocks entered (Main region): the goals of a statement cover.
    pub blocks: FxHashSet<(FuncId, Block)>,
    /// The values returned by `__VERIFIER_nondet_*()` calls, in call order
    /// (the inputs of a whole program).
    pub nondets: Vec<Nondet>,
    /// Calls of external functions, in order (see `Exec::external_call`).
    pub calls: Vec<crate::suite::ExternalCall>,
    /// The allocation calls that returned null (see [`crate::alloc_fail`]).
    pub failed_allocations: Vec<crate::suite::FailedAllocation>,
    /// Symbolic values concretised by floating operations (see `fp.rs`).
    pub float_pins: Vec<FloatPin>,
    /// Places where another symbolic value was fixed to this run's value
    /// (see `Exec::concretise`).
    pub pins: Vec<Loc>,
    /// The variables of the floating inputs this run created.
    pub float_inputs: Vec<ExprId>,
    /// Length variables of the input arrays `pathwise_array_len` tied to
    /// other inputs, recorded in concrete replays too: whether an access
    /// beyond such a length is an error or a request for a longer array
    /// must be decided the same way when the test is replayed.
    pub tied_lens: FxHashSet<ExprId>,
    /// What the run's extensions counted, by name (summed into
    /// `Stats::counts`): an extension reports a figure without a field of
    /// its own.
    pub counts: std::collections::BTreeMap<&'static str, u64>,
    /// Where the k bound cut this run or blocked a side of one of its
    /// decisions (Main region; see `Exec::at_bound`).
    pub bound_sites: Vec<crate::suite::BoundSite>,
    /// What the run wrote on the standard output (Main region), as glibc
    /// formats it; `None` until a write to it.
    pub stdout: Option<Vec<u8>>,
}

impl Observed {
    /// What the precondition's execution hands to the function's: its
    /// concretisations (they constrain the same inputs) and its tied
    /// lengths (a length the precondition tied is not grown). Its path,
    /// coverage and calls are its own.
    pub fn carried_from_precondition(pre: Observed) -> Observed {
        Observed { float_pins: pre.float_pins, pins: pre.pins, tied_lens: pre.tied_lens, ..Observed::default() }
    }

    /// The run's observations: the function's execution `main`, started
    /// from what the precondition carried (`self`), whose concretisations
    /// come first.
    pub fn then(mut self, mut main: Observed) -> Observed {
        self.float_pins.append(&mut main.float_pins);
        self.pins.append(&mut main.pins);
        self.tied_lens.extend(main.tied_lens.drain());
        Observed { float_pins: self.float_pins, pins: self.pins, tied_lens: self.tied_lens, ..main }
    }
}

/// One `__VERIFIER_nondet_T()` call: a fresh input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nondet {
    /// Solver variable `nondet<i>_<w>` (the i-th call, `w` bits): the same
    /// call position in another run has the same variable if its width agrees.
    pub var: ExprId,
    pub ty: pathwise_ir::IntTy,
    /// Concrete value returned.
    pub value: u64,
}

/// A symbolic value concretised by a floating operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatPin {
    pub loc: Loc,
    /// The expression pinned (a float input's variable, or a value
    /// computed from inputs).
    pub expr: ExprId,
}

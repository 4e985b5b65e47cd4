//! What a generation run produces: plain data for the emitters.
//!
//! **Architecture invariant:** nothing here refers to engine state; the
//! engine builds these values, and the emitters (C tests, JSON, Test-Comp,
//! reports) and the CLI read them without depending on the engine.

use pathwise_ir::{CType, Loc, SrcVar, StructDef};

/// All tests generated for one function, with statistics.
#[derive(Clone, Debug)]
pub struct TestSuite {
    /// The function under test.
    pub function: String,
    pub precondition: Option<String>,
    /// A function of the unit the emitted tests call after the function
    /// under test, with its arguments and its result: each test fails
    /// natively unless it returns nonzero (set by the CLI).
    pub postcondition: Option<String>,
    /// The bound of the criterion used.
    pub k: u32,
    /// The criterion `k` bounds (k-path or block-k).
    pub criterion: Criterion,
    /// C descriptions of the parameters, in order.
    pub params: Vec<SrcVar>,
    /// C description of the return value (`None` for `void`).
    pub ret: Option<SrcVar>,
    /// The enumeration types among the parameters' and the result's
    /// `c_scalar`s, whose values the tests write by name (set by the CLI
    /// from the front end).
    pub enums: Vec<pathwise_ir::EnumDef>,
    /// Non-const globals of the program with C descriptions: outputs of every
    /// test (and reset to their initial values before each test).
    pub globals: Vec<GlobalInfo>,
    /// Source files, indexed by [`Loc::file`].
    pub files: Vec<String>,
    pub tests: Vec<TestCase>,
    pub stats: Stats,
    pub coverage: Coverage,
    /// Why the search stopped.
    pub stop: StopReason,
    /// Whether signed overflow was an error (else it wrapped).
    pub check_overflow: bool,
    /// Structure and union definitions that [`HeapObject::cty`] refers to.
    pub structs: Vec<StructDef>,
    /// The external functions (declared without a body, described by the
    /// user as not touching memory and returning a fresh input) that the
    /// emitted tests must define, by name.
    pub externals: Vec<ExternalFunction>,
    /// Functions declared without a body (and without a model) that only
    /// code outside the function under test and its precondition calls:
    /// the test file includes that code, so it declares them weak (it then
    /// links without their definitions) and never defines them (a stub
    /// would also intercept the C library's and gcov's own calls).
    pub unreached_functions: Vec<String>,
    /// The contracts on the inputs the tests keep, inferred from the code
    /// (see `pathwise_engine::contracts`), in words: `buf has len elements (...)`.
    pub contracts: Vec<String>,
    /// The C file under test as an absolute path (set by the CLI): the test
    /// file includes it by its name alone, to be found through `-I` its
    /// directory, so that the output directory can move.
    pub source: Option<String>,
    /// The feature-test macros the C file defines before its first
    /// `#include` (`#define _GNU_SOURCE`, set by the CLI): the test file
    /// defines them before its own first header, so that the code sees
    /// the declarations it sees when built alone.
    pub feature_macros: Vec<String>,
    /// Costs, policies and targets (see `pathwise_engine::cost`).
    pub goals: GoalReport,
    /// What the k bound reached: deepening, and where the bound cut paths.
    pub bound: BoundReport,
}

impl HeapValue {
    /// The global a `Global` or `Constant` pointer points into, with the
    /// byte offset.
    pub fn global_src<'a>(&'a self, suite: &'a TestSuite) -> Option<(&'a SrcVar, u64)> {
        match self {
            HeapValue::Global { global, offset } => suite.globals.get(*global).map(|g| (&g.src, *offset)),
            HeapValue::Constant { src, offset } => Some((src, *offset)),
            _ => None,
        }
    }
}

impl TestSuite {
    /// The kinds of the suite's error tests, sorted, each once.
    pub fn error_kinds(&self) -> Vec<&'static str> {
        let mut kinds: Vec<&'static str> = self
            .tests
            .iter()
            .filter_map(|t| match &t.outcome {
                Outcome::Error(e) => Some(e.kind.name()),
                _ => None,
            })
            .collect();
        kinds.sort();
        kinds.dedup();
        kinds
    }
}

/// A function declared without a body whose calls return fresh inputs
/// (see `pathwise_engine::config::Externals`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalFunction {
    pub name: String,
    /// C descriptions of the parameters, in order (names may be empty).
    pub params: Vec<SrcVar>,
    /// C description of the return value (`None` for `void`); an integer.
    pub ret: Option<SrcVar>,
    /// The function's C type, when known (callback stubs: the tests
    /// declare them with it).
    pub cty: Option<pathwise_ir::CType>,
}

/// One call of an external function during a test, in call order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalCall {
    /// The function called (one of [`TestSuite::externals`]).
    pub name: String,
    /// The arguments it received.
    pub args: Vec<CallArg>,
    /// The value it returned (a fresh input chosen by the solver), read with
    /// the declared return type; `None` for `void` and pointers.
    pub ret: Option<i128>,
    /// The pointer it returned, for a function returning one: null or an
    /// object of [`TestCase::heap_in`] (a fresh input object, or an alias of
    /// another input object of its type, initialised lazily like a pointer
    /// parameter's).
    pub ret_pointer: Option<HeapValue>,
}

/// An allocation call that returns null in a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedAllocation {
    /// Which allocation call of the run fails: 1 for the first `malloc`,
    /// `calloc`, `realloc`, `strdup` or `strndup` call of the code under
    /// test, 2 for the second... (what the C test counts, as for leaks).
    pub ordinal: u32,
    /// The function called (`malloc`, `realloc`...).
    pub function: String,
    /// Where the code calls it.
    pub loc: Loc,
}

/// An argument of an external call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallArg {
    /// An integer, read with the parameter's C type.
    Int(i128),
    /// A pointer: only whether it is null is recorded (the function is
    /// declared not to touch memory, so what it points to does not matter).
    Null,
    NonNull,
}

/// A global variable as the emitters see it.
#[derive(Clone, Debug)]
pub struct GlobalInfo {
    pub src: SrcVar,
    /// Initial element values (one per element; scalars have one).
    pub init: Vec<i128>,
}

/// One test: concrete inputs, the path they drive, the outputs observed.
#[derive(Clone, Debug)]
pub struct TestCase {
    /// 1-based, in generation order.
    pub id: usize,
    /// One value per parameter, in parameter order.
    pub inputs: Vec<InputValue>,
    /// The content of the standard input, when the path reads it (the
    /// test passes it as a file; its size is where the input ends).
    pub stdin: Option<Vec<u8>>,
    pub outcome: Outcome,
    /// What a returning run wrote on the standard output, when it wrote
    /// there (the test compares it).
    pub stdout: Option<Vec<u8>>,
    /// Return value (`None` for `void` or when the run did not return).
    pub ret: Option<i128>,
    /// Final contents of every pointer parameter's array, in parameter order
    /// (`None` for scalar parameters).
    pub array_outputs: Vec<Option<Vec<i128>>>,
    /// Final values of [`TestSuite::globals`], same order.
    pub global_outputs: Vec<Vec<i128>>,
    /// The decisions of the function under test (and its callees), in order.
    pub path: Vec<PathStep>,
    /// The values the `__VERIFIER_nondet_*()` calls returned, in call order
    /// (a whole program's inputs), read with each call's C type.
    pub nondets: Vec<i128>,
    /// The C type of each value of `nondets` (how to spell it: a floating
    /// value is its IEEE bits).
    pub nondet_types: Vec<pathwise_ir::IntTy>,
    /// The input heap: objects that pointer parameters ([`InputValue::Pointer`])
    /// and pointer fields reach, with the scalar fields the path reads (the
    /// others may hold anything). Ids are unique within the test.
    pub heap_in: Vec<HeapObject>,
    /// The output heap: every object reachable from the pointer parameters'
    /// input values and from the return value after the call, with its final
    /// contents. Input objects keep their ids; objects allocated by the code
    /// under test get new ones. Empty unless some parameter or the return
    /// value is a pointer into the heap.
    pub heap_out: Vec<HeapObject>,
    /// The return value when it is a pointer, of any pointer type (then
    /// [`TestCase::ret`] is `None`): null, into an input object or array,
    /// into a global, or to an object of [`TestCase::heap_out`] (one the
    /// call allocated, a structure returned by value, a string literal).
    pub ret_pointer: Option<HeapValue>,
    /// The calls of external functions ([`TestSuite::externals`]) the code
    /// under test made, in order: the C test checks them and its stubs
    /// return the recorded values.
    pub calls: Vec<ExternalCall>,
    /// The allocations of the code under test that fail (return null) in
    /// this test, in call order (see `pathwise_engine::config::AllocFail`):
    /// the C test makes exactly these calls fail.
    pub failed_allocations: Vec<FailedAllocation>,
    /// What this test alone covers, per function of [`Coverage`] (only
    /// functions it enters): `replay` predicts the coverage of the tests
    /// whose native runs record any, when others cannot (a run stopped
    /// inside a basic block leaves gcov's counters inconsistent).
    pub coverage: Vec<TestCoverage>,
    /// The test's cost under each model of [`GoalReport::cost_models`], in
    /// that order (empty without `--cost`).
    pub cost: Vec<CostValue>,
    /// For an error test kept as its site's one test: how many other
    /// feasible paths end in the same error at the same place (see
    /// `Config::one_error_test_per_site`).
    pub same_error_paths: u64,
}

/// A test's cost under one model (see `pathwise_engine::cost`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostValue {
    /// The model's name (`memory`, `calls=add`).
    pub model: String,
    /// The cost of this test's inputs.
    pub concrete: u64,
    /// The cost of every input following this test's path, as C-like text
    /// over the inputs (`4*icap + 16`), when it is not the same for all.
    pub symbolic: Option<String>,
}

/// What the k bound reached (`pathwise_engine::search`, `deepen.rs`).
///
/// With deepening (`gen` without `--k`), [`TestSuite::k`] is the largest k
/// whose search ended by itself (the suite has a test for every feasible
/// path within it), or the k being searched when none did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoundReport {
    /// The bound was deepened: k = 1, 2, ... (no `--k` given).
    pub deepened: bool,
    /// With deepening: the k whose search the stop cut short (`k + 1`
    /// after k was complete; `k` itself when no k was), if any.
    pub partial_k: Option<u32>,
    /// Where the bound at [`TestSuite::k`] cut a run or pruned a prefix
    /// (a larger k may add paths there), sorted, each once. Empty with a
    /// search that ended by itself: no loop or recursion reached the bound,
    /// so the suite is the same for every larger k.
    pub at_bound: Vec<BoundSite>,
}

/// A place where the k bound cut a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BoundSite {
    /// The loop's condition (its header's branch), a recursive call, a
    /// library loop's call (`strlen` over a symbolic string), or, under
    /// block-k, the block's branch.
    pub loc: Loc,
    pub kind: BoundKind,
}

/// What a [`BoundSite`] bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BoundKind {
    /// A loop's iterations (of the code, or of a library function's loop
    /// over a symbolic string).
    Loop,
    /// A recursive cycle's depth.
    Recursion,
    /// Block-k: a block's entries.
    Block,
}

impl BoundKind {
    /// `loop`, `recursion` or `block` (the JSON's and the summary's word).
    pub fn name(self) -> &'static str {
        match self {
            BoundKind::Loop => "loop",
            BoundKind::Recursion => "recursion",
            BoundKind::Block => "block",
        }
    }
}

/// What became of the goals of `pathwise_engine::cost::Goals`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoalReport {
    /// The cost models, by name, in `--cost` order.
    pub cost_models: Vec<String>,
    /// The cost policies as written (`memory>48`, `worst`).
    pub policies: Vec<String>,
    /// Tests of feasible paths left out by the policies.
    pub dropped_by_policy: u64,
    /// Runs a maximum threshold ended as soon as the cost their path fixes
    /// passed it (resource-driven pruning, seed 003 ch. 4.4).
    pub cut_by_cost: u64,
    /// Per test whose cost under the first model is symbolic: when it
    /// exceeds the largest constant cost among the tests.
    pub dominance: Vec<Dominance>,
    /// One per `--target`, in order.
    pub targets: Vec<TargetReport>,
    /// A statement or branch cover's outcome (`None` for other criteria).
    pub cover: Option<CoverReport>,
    /// The all-local-paths criterion's outcome (`None` for other criteria).
    pub local: Option<LocalReport>,
    /// The resource-driven search's figures (`None` without it).
    pub driven: Option<DrivenReport>,
    /// The trace-guided target search's figures (its `model` is
    /// `distance`; `None` without it).
    pub guided: Option<DrivenReport>,
    /// A partial trace's outcome (`gen --trace`; `None` without one).
    pub partial: Option<PartialReport>,
}

/// What `gen --trace` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartialReport {
    /// The pattern as given.
    pub pattern: String,
    /// Tests following it.
    pub tests: usize,
    /// Runs of paths that do not follow it (left out).
    pub left_out: u64,
}

/// What the resource-driven search did (seed 003, ch. 4.4).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrivenReport {
    /// The model ordering the traces.
    pub model: String,
    /// Complete bounded abstract traces (what a generator enumerating them
    /// all would hold; saturated), and the abstract states behind them.
    pub abstract_traces: u64,
    pub abstract_states: u64,
    /// Partial traces the best-first generator expanded.
    pub expanded: u64,
    /// Traces followed by trace-guided generation.
    pub tried: u64,
    /// Traces shown infeasible (no input follows them to a return).
    pub infeasible: u64,
    /// Traces neither followed nor refuted.
    pub undecided: u64,
    /// Traces skipped for costing more than a maximum threshold.
    pub over_maximum: u64,
    /// Tests whose measured cost differs from their trace's (0 for an
    /// observable model).
    pub cost_mismatches: u64,
    /// The policy's tests are the most expensive ones: the search met it
    /// or exhausted the traces, with none undecided.
    pub proven: bool,
    /// Why the guided search fell back to the depth-first one (the
    /// abstraction was too large), if it did.
    pub fallback: Option<String>,
}

impl GoalReport {
    /// The criterion's name when the goals define it (a cover,
    /// all-local-paths); `None`: the engine's criterion.
    pub fn criterion_name(&self) -> Option<&str> {
        match (&self.cover, &self.local) {
            (Some(c), _) => Some(&c.criterion),
            (None, Some(_)) => Some("all-local-paths"),
            (None, None) => None,
        }
    }
}

/// What `--criterion all-local-paths` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalReport {
    /// Tests kept: distinct sequences of the function's own decisions.
    pub local_paths: usize,
    /// Tests left out because an earlier test took the same local path.
    pub duplicates: u64,
    /// Local prefixes refuted along the callee paths the runs took and
    /// never reached: infeasible within the bound when the search stopped
    /// complete (it then tried every callee path before them), else open.
    pub refuted_through_callees: u64,
}

/// What a statement or branch cover (`pathwise_engine::cost::Cover`) left.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoverReport {
    /// `statements` or `branches`.
    pub criterion: String,
    /// Goals of the cover (located blocks, or branch sides).
    pub goals: usize,
    /// Goals some kept test covers.
    pub covered: usize,
    /// Every goal is covered, or the bounded search was exhaustive: the
    /// goals left are infeasible within the bound.
    pub complete: bool,
    /// The goals no test covers, when `complete` (in function and block
    /// order).
    pub infeasible: Vec<InfeasibleGoal>,
}

/// A statement or branch side no input reaches within the bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfeasibleGoal {
    pub function: String,
    /// The block's first located instruction, or the branch's condition.
    pub loc: pathwise_ir::Loc,
    /// For a branch side: which (`true`: the condition holds).
    pub side: Option<bool>,
}

/// When a symbolic cost exceeds the largest constant one (seed 003,
/// Example 16: "the parametric case is the most expensive when ICap > 9").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dominance {
    pub test: usize,
    /// Its symbolic cost.
    pub cost: String,
    /// The largest constant cost, and the first test with it.
    pub constant: u64,
    pub constant_test: usize,
    /// The condition on the inputs (`icap > 9`, or `COST > MAX`).
    pub when: String,
}

/// Whether a target line was reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetReport {
    /// As given (`lcm.c:9`).
    pub target: String,
    /// The first test that reached it (its id).
    pub reached_by: Option<usize>,
    pub status: TargetStatus,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetStatus {
    Reached,
    /// No path within the bound reaches it, and the bounded search was
    /// exhaustive (it stopped complete).
    Unreachable,
    /// Not reached, but the search was not exhaustive: why.
    NotReached(String),
}

/// The lines and branch sides one test covers in one function, counted as
/// [`FunctionCoverage`] counts them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TestCoverage {
    pub function: String,
    /// Lines executed (sorted).
    pub lines: Vec<u32>,
    /// Branch sides taken, as `(line, index)`: the index of the side among
    /// the line's branches in [`FunctionCoverage::branch_lines`] (stable
    /// within a suite, so that the sides of several tests can be united).
    pub branches: Vec<(u32, u32)>,
}

/// An object of a test's input or output heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapObject {
    /// Identifier within the test (1-based).
    pub id: u32,
    /// Element type: the object is an array of `count` elements of it
    /// (`count == 1` for a single structure).
    pub cty: CType,
    pub count: u64,
    /// For a structure with a flexible array member (`count == 1`: C has
    /// no arrays of them), the number of elements of its tail: the object
    /// is `sizeof` the structure plus that many elements, and cells past
    /// the fixed fields are tail elements (`.data[2]`).
    pub tail: Option<u64>,
    /// Known scalar contents, in offset order.
    pub cells: Vec<HeapCell>,
    /// Freed by the code under test: nothing to check (an output object),
    /// and the test must not free it again (an input object).
    pub freed: bool,
    /// Allocated by the code under test (`malloc`, `calloc`, `realloc`;
    /// output heaps only): the test frees it after its checks, unlike the
    /// objects it cannot own (a structure returned by value is its own
    /// local copy, a string literal is constant storage).
    pub allocated: bool,
}

/// One scalar of a heap object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapCell {
    /// Byte offset in the object.
    pub offset: u64,
    /// C access path from the object's start, e.g. `[0].next`, `[2].n`
    /// (see [`pathwise_ir::ScalarAt::path`]).
    pub path: String,
    pub value: HeapValue,
}

/// A scalar in a heap: an integer or a pointer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapValue {
    /// An integer, interpreted with the cell's C type.
    Int(i128),
    Null,
    /// A pointer to byte `offset` of heap object `obj`.
    Ref {
        obj: u32,
        offset: u64,
    },
    /// A pointer to byte `offset` of the input array of parameter `param`
    /// (a pointer parameter of [`pathwise_ir::Shape::Pointer`]): a function
    /// returning a pointer into its argument (`strchr`-like).
    Param {
        param: usize,
        offset: u64,
    },
    /// A pointer to byte `offset` of global `global` (an index into
    /// [`TestSuite::globals`]): a function returning its static buffer.
    Global {
        global: usize,
        offset: u64,
    },
    /// A pointer to byte `offset` of a `const` global with this C
    /// description (a lookup table the function returns an entry of),
    /// which [`TestSuite::globals`] does not list: it is never an output.
    Constant {
        src: Box<SrcVar>,
        offset: u64,
    },
    /// A pointer to the function of this name (a function-pointer member).
    Function(String),
    /// A pointer that is neither null nor into an object the test
    /// describes (e.g. into a freed object, or a local of the callee).
    Opaque,
}

/// A concrete input value, interpreted with the parameter's signedness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputValue {
    Scalar(i128),
    /// The elements of an input array; its length is the array's dimension.
    Array(Vec<i128>),
    /// A pointer parameter of [`pathwise_ir::Shape::Heap`]: null or a
    /// reference into [`TestCase::heap_in`]. Also a pointer parameter of
    /// [`pathwise_ir::Shape::Pointer`] that points into another input's
    /// object (see `pathwise_engine::joins`): [`HeapValue::Param`] into another
    /// parameter's array, [`HeapValue::Ref`] into an input heap object.
    Pointer(HeapValue),
    /// A function pointer parameter: the name of the unit's function it
    /// points to, or `None` for null.
    Function(Option<String>),
}

/// How a test's execution ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The function returned normally.
    Returned,
    /// The execution ended in an error (or `exit`): no outputs are checked.
    Error(ErrorInfo),
    /// Whole-program mode: the run stopped at the k bound, at the step
    /// limit (a program that never ends) or at a construct the engine does
    /// not model. Natively the program goes on and
    /// asks for one more input than the test gives (Test-Comp's harness
    /// then exits, and coverage up to there is recorded).
    BoundReached,
}

/// An error a test runs into, with its source location.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ErrorInfo {
    pub kind: ErrorKind,
    pub loc: Loc,
    /// Human-readable details (operand values, offsets).
    pub message: String,
}

/// The kinds of errors a path can end in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    /// Division or remainder by zero.
    DivisionByZero,
    /// `INT_MIN / -1` or `INT_MIN % -1`.
    DivisionOverflow,
    /// Signed `+ - * <<` whose result is not representable.
    SignedOverflow,
    /// Shift by a negative amount or by at least the width.
    InvalidShift,
    /// A zero argument of gcc's `__builtin_clz`/`__builtin_ctz` (and
    /// their `l`/`ll` forms), whose result is undefined.
    InvalidBuiltinArgument,
    /// Read or write outside an array (local, global or input).
    OutOfBounds,
    NullDereference,
    /// `assert(e)` with `e` false (`__assert_fail`).
    AssertionFailure,
    /// `abort()`.
    Abort,
    /// `exit(status)`.
    Exit(i32),
    /// A call of `reach_error()` / `__VERIFIER_error()` (sv-benchmarks).
    ErrorCall,
    /// `__builtin_unreachable()` or falling off a non-void function's end.
    Unreachable,
    /// Subtraction or ordering of pointers into different objects.
    InvalidPointerArithmetic,
    /// A floating value converted to an integer type that cannot hold its
    /// integer part (or NaN, or an infinity): C11 6.3.1.4.
    FloatCastOverflow,
    /// An operation on finite floating values whose rounded result is
    /// infinite (IEEE 754's overflow; `Config::float_checks`).
    FloatOverflow,
    /// A floating division by zero (`Config::float_checks`).
    FloatDivisionByZero,
    /// Access to an object after `free`.
    UseAfterFree,
    /// `free` of a pointer not from `malloc` (or not to its start), or twice.
    InvalidFree,
    /// An allocated object unreachable and not freed when the function
    /// under test returned (`Config::check_leaks`); located at the
    /// allocation. The run itself returned normally.
    MemoryLeak {
        /// Which allocation of the run (1 = the first `malloc`, `calloc` or
        /// `realloc` call): what a native test counting allocations sees.
        allocation: u32,
        /// The object's size.
        bytes: u64,
    },
    /// A load of heap bytes never written (`Config::check_uninit`).
    UninitialisedRead,
    /// Something the engine cannot model (an access through a pointer of
    /// another type, a call to a function without body or model): not
    /// necessarily a bug of the program, so never a test.
    Unsupported,
}

impl ErrorKind {
    /// Stable identifier used in the JSON output and the C tests.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::DivisionByZero => "division-by-zero",
            ErrorKind::DivisionOverflow => "division-overflow",
            ErrorKind::SignedOverflow => "signed-overflow",
            ErrorKind::InvalidShift => "invalid-shift",
            ErrorKind::InvalidBuiltinArgument => "invalid-builtin-argument",
            ErrorKind::OutOfBounds => "out-of-bounds",
            ErrorKind::NullDereference => "null-dereference",
            ErrorKind::AssertionFailure => "assertion-failure",
            ErrorKind::Abort => "abort",
            ErrorKind::Exit(_) => "exit",
            ErrorKind::ErrorCall => "error-call",
            ErrorKind::Unreachable => "unreachable",
            ErrorKind::InvalidPointerArithmetic => "invalid-pointer-arithmetic",
            ErrorKind::FloatCastOverflow => "float-cast-overflow",
            ErrorKind::FloatOverflow => "float-overflow",
            ErrorKind::FloatDivisionByZero => "float-division-by-zero",
            ErrorKind::UseAfterFree => "use-after-free",
            ErrorKind::InvalidFree => "invalid-free",
            ErrorKind::MemoryLeak { .. } => "memory-leak",
            ErrorKind::UninitialisedRead => "uninitialised-read",
            ErrorKind::Unsupported => "unsupported",
        }
    }

    /// Whether a native run necessarily stops here (a signal or `exit`);
    /// the other kinds are undefined behaviour that may go unnoticed.
    pub fn traps_natively(self) -> bool {
        matches!(self, ErrorKind::AssertionFailure | ErrorKind::Abort | ErrorKind::Exit(_))
    }

    /// Whether the native run returns normally from the function under
    /// test (a leak is found after the return): its outputs are checked as
    /// for a returning test.
    pub fn returns_natively(self) -> bool {
        matches!(self, ErrorKind::MemoryLeak { .. })
    }
}

/// One decision on a path. The order (function, location, side, loop
/// iteration) is what sorts the tests of a parallel search, whatever the
/// order the workers found them in.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PathStep {
    /// Function containing the decision. Shared, not a `String`: every
    /// decision of every run records it, and one allocation per decision
    /// was a tenth of a large search's allocations.
    pub func: std::sync::Arc<str>,
    /// Location of the condition.
    pub loc: Loc,
    /// The side taken.
    pub taken: bool,
    /// For a decision inside loops: the innermost loop's header location and
    /// the number of iterations of it started so far in this entry into it
    /// (0 while the loop condition is first evaluated, n in the n-th body).
    pub loop_iter: Option<(Loc, u32)>,
}

/// Run statistics (the figures of seed 002's Merge example).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Feasible k-paths found (= tests for a complete run).
    pub feasible_paths: u64,
    pub tests: u64,
    /// Prefixes proved infeasible (each prunes every path through it).
    pub infeasible_prefixes: u64,
    /// Prefixes not explored because they would exceed the k bound.
    pub bound_pruned_prefixes: u64,
    /// Infeasibility proofs that used `--max-array-len`: paths that longer
    /// input arrays might have allowed.
    pub array_limit_prunes: u64,
    /// Executions that exceeded the k bound after their prefix (not tests).
    pub bound_exceeded_runs: u64,
    /// Executions rejected by the precondition (not tests).
    pub precondition_rejected_runs: u64,
    /// Executions that ended in a runtime error that is not a test: an
    /// unsupported construct or the step limit.
    pub error_runs: u64,
    /// The places where runs stopped at a construct the engine does not
    /// compute (first message, number of runs), in order of first meeting:
    /// the paths past them are not explored.
    pub unsupported: Vec<(Loc, String, u64)>,
    /// Runs stopped by the step limit.
    pub step_limit_runs: u64,
    /// Tests that end in an error (part of `tests`).
    pub error_tests: u64,
    /// Paths ending in an error whose (kind, location) already has a test
    /// (`Config::one_error_test_per_site`): counted on that test
    /// ([`TestCase::same_error_paths`]), not tests themselves.
    pub error_paths_folded: u64,
    /// Checks (division, overflow, bounds...) whose violation was solved
    /// for, and how many of those were proved impossible. Not part of
    /// `prefixes_explored`/`infeasible_prefixes`, which count decisions.
    pub error_checks: u64,
    pub error_checks_infeasible: u64,
    /// Checks whose violation was not solved for: an earlier check of the
    /// same path, same place and operation, can be violated and gives the
    /// site a shorter path (a sum's overflow in each iteration of a loop).
    pub error_checks_repeated: u64,
    /// Concolic executions performed.
    pub runs: u64,
    /// Path prefixes solved (of the function, and of the precondition when
    /// the function's prefix needed another precondition path).
    pub prefixes_explored: u64,
    /// Queries the search asked (one per explored prefix, plus a retry when
    /// the preference for short arrays was too tight).
    pub queries: u64,
    /// Calls to the solver backend (queries not answered by the cache).
    pub solver_calls: u64,
    /// Of `queries`, those asked again for readable values (see
    /// `Config::raw_values`).
    pub preference_queries: u64,
    /// Queries answered from the cache.
    pub solver_cache_hits: u64,
    /// Runs whose path did not follow the solved prefix (should stay 0).
    pub divergences: u64,
    /// Prefixes abandoned when the precondition search for valid inputs
    /// ran out of its budget (their paths may be feasible).
    pub precondition_abandoned: u64,
    /// Wall-clock time of the search, in milliseconds.
    pub elapsed_ms: u64,
    /// Part of `elapsed_ms` spent in the solver backend.
    pub solver_ms: u64,
    /// Backend calls whose query has a floating operator, and their part
    /// of `solver_ms` (floating queries are the expensive ones).
    pub float_solver_calls: u64,
    pub float_solver_ms: u64,
    /// Of `float_solver_calls`, those answered by the search for a model
    /// by evaluation before the solver (`pathwise_expr::float_search`).
    pub float_searched: u64,
    /// Floating inputs (`__VERIFIER_nondet_float()`/`_double()` calls by
    /// position, floating parameters) pinned to their value by an
    /// operation without a symbolic model (`long double` arithmetic, `sin`).
    pub float_inputs_concretised: u64,
    /// Places where a symbolic value (computed from inputs) flowed into a
    /// floating operation and was concretised to its value on that run.
    pub float_values_concretised: u64,
    /// Places where another symbolic value (a variable-length array's
    /// size, a copy length, an offset into an input object) was fixed to
    /// its value on a run, so that other values' paths went unexplored.
    pub values_concretised: u64,
    /// Those places, in source order, for the summary to name.
    pub concretised_at: Vec<Loc>,
    /// Runs that compared (`<`, `<=`, `>`, `>=`) or subtracted pointers
    /// into different input objects that no inputs can make one (two heap
    /// pointers, arrays of different element types): C defines neither, so
    /// they are rejected inputs, left to the precondition, not errors of the
    /// function (see `pathwise_engine::joins`). The first such place.
    pub unrelated_pointer_runs: u64,
    pub unrelated_pointer_site: Option<pathwise_ir::Loc>,
    /// Pointer parameters a null value of which reached a dereference
    /// without a test (`NullArgs::Assume`): the parameter's index and the
    /// first such place. The runs are rejected inputs, reported as the
    /// contract `assumes non-null: p` (see `pathwise_engine::null_params`).
    pub nonnull_assumed: Vec<(usize, Loc)>,
    /// Runs that passed such a parameter null (not tests).
    pub nonnull_assumed_runs: u64,
    /// Prefixes the solver could decide neither way (`unknown`: a timeout,
    /// an internal error): neither explored nor proved infeasible.
    pub unknown_prefixes: u64,
    /// The first reason the solver gave for an `unknown`.
    pub first_unknown: Option<String>,
    /// `--compositional`: summaries computed and reused, fallbacks.
    pub summaries: SummaryReport,
    /// `--compositional`: prefixes solved again after their run grew a
    /// summary without following them (see `pathwise_engine::compose`).
    pub summary_retries: u64,
    /// `gen --summary`: calls whose arguments satisfied no case of their
    /// hand-written summary (see `pathwise_engine::handwritten`).
    pub handwritten: NoCaseReport,
    /// What the runs' extensions counted, by name, summed over the runs
    /// (an extension reports here without a field of its own).
    pub counts: std::collections::BTreeMap<String, u64>,
}

impl Stats {
    /// Add the figures of another search of the same function (a parallel
    /// search's workers): counts add up, first notes stay the first seen,
    /// lists join without repeats. `elapsed_ms` is the longest (the
    /// searches ran side by side); `tests` and `feasible_paths` add up, so
    /// a caller that merges tests sets them from what it kept.
    ///
    /// The destructuring is exhaustive on purpose: a new figure does not
    /// compile until it says how two searches' values combine.
    pub fn absorb(&mut self, other: &Stats) {
        let Stats {
            feasible_paths,
            tests,
            infeasible_prefixes,
            bound_pruned_prefixes,
            array_limit_prunes,
            bound_exceeded_runs,
            precondition_rejected_runs,
            error_runs,
            unsupported,
            step_limit_runs,
            error_tests,
            error_paths_folded,
            error_checks,
            error_checks_infeasible,
            error_checks_repeated,
            runs,
            prefixes_explored,
            queries,
            solver_calls,
            preference_queries,
            solver_cache_hits,
            divergences,
            precondition_abandoned,
            elapsed_ms,
            solver_ms,
            float_solver_calls,
            float_solver_ms,
            float_searched,
            float_inputs_concretised,
            float_values_concretised,
            // The count of the places below, which two searches may share.
            values_concretised: _,
            concretised_at,
            unrelated_pointer_runs,
            unrelated_pointer_site,
            nonnull_assumed,
            nonnull_assumed_runs,
            unknown_prefixes,
            first_unknown,
            summaries,
            summary_retries,
            handwritten,
            counts,
        } = other;
        for (mine, theirs) in [
            (&mut self.feasible_paths, feasible_paths),
            (&mut self.tests, tests),
            (&mut self.infeasible_prefixes, infeasible_prefixes),
            (&mut self.bound_pruned_prefixes, bound_pruned_prefixes),
            (&mut self.array_limit_prunes, array_limit_prunes),
            (&mut self.bound_exceeded_runs, bound_exceeded_runs),
            (&mut self.precondition_rejected_runs, precondition_rejected_runs),
            (&mut self.error_runs, error_runs),
            (&mut self.step_limit_runs, step_limit_runs),
            (&mut self.error_tests, error_tests),
            (&mut self.error_paths_folded, error_paths_folded),
            (&mut self.error_checks, error_checks),
            (&mut self.error_checks_infeasible, error_checks_infeasible),
            (&mut self.error_checks_repeated, error_checks_repeated),
            (&mut self.runs, runs),
            (&mut self.prefixes_explored, prefixes_explored),
            (&mut self.queries, queries),
            (&mut self.solver_calls, solver_calls),
            (&mut self.preference_queries, preference_queries),
            (&mut self.solver_cache_hits, solver_cache_hits),
            (&mut self.divergences, divergences),
            (&mut self.precondition_abandoned, precondition_abandoned),
            (&mut self.solver_ms, solver_ms),
            (&mut self.float_solver_calls, float_solver_calls),
            (&mut self.float_solver_ms, float_solver_ms),
            (&mut self.float_searched, float_searched),
            (&mut self.float_inputs_concretised, float_inputs_concretised),
            (&mut self.float_values_concretised, float_values_concretised),
            (&mut self.unrelated_pointer_runs, unrelated_pointer_runs),
            (&mut self.nonnull_assumed_runs, nonnull_assumed_runs),
            (&mut self.unknown_prefixes, unknown_prefixes),
            (&mut self.summary_retries, summary_retries),
            (&mut self.handwritten.no_case_runs, &handwritten.no_case_runs),
        ] {
            *mine += theirs;
        }
        self.elapsed_ms = self.elapsed_ms.max(*elapsed_ms);
        self.concretised_at.extend(concretised_at);
        self.concretised_at.sort_unstable();
        self.concretised_at.dedup();
        self.values_concretised = self.concretised_at.len() as u64;
        for (loc, message, n) in unsupported {
            match self.unsupported.iter_mut().find(|u| u.0 == *loc) {
                Some(u) => u.2 += n,
                None => self.unsupported.push((*loc, message.clone(), *n)),
            }
        }
        if self.unrelated_pointer_site.is_none() {
            self.unrelated_pointer_site = *unrelated_pointer_site;
        }
        for a in nonnull_assumed {
            if !self.nonnull_assumed.iter().any(|b| b.0 == a.0) {
                self.nonnull_assumed.push(*a);
            }
        }
        if self.first_unknown.is_none() {
            self.first_unknown.clone_from(first_unknown);
        }
        for site in &handwritten.no_case_sites {
            if !self.handwritten.no_case_sites.contains(site) {
                self.handwritten.no_case_sites.push(site.clone());
            }
        }
        // Summaries are computed once, before a parallel search: the
        // report is the first search's.
        if self.summaries == SummaryReport::default() {
            self.summaries.clone_from(summaries);
        }
        for (name, n) in counts {
            *self.counts.entry(name.clone()).or_default() += n;
        }
    }

    /// Why the search, having tried every prefix within the bound, still
    /// cannot claim that every feasible path has a test (empty: it can).
    pub fn undecided(&self) -> Vec<String> {
        let mut why = Vec::new();
        let mut note = |n: u64, what: &str| {
            if n > 0 {
                why.push(format!("{n} {what}"));
            }
        };
        note(self.unknown_prefixes, "prefix(es) the solver could not decide");
        note(self.precondition_abandoned, "prefix(es) abandoned within --precondition-budget");
        note(self.divergences, "run(s) diverged from their solved prefix");
        note(self.values_concretised, "place(s) where a symbolic value was concretised");
        note(self.float_inputs_concretised, "floating input(s) concretised");
        note(self.float_values_concretised, "place(s) where a symbolic value was concretised by floating point");
        note(self.unsupported.iter().map(|u| u.2).sum(), "run(s) stopped at an unsupported construct");
        note(self.step_limit_runs, "run(s) stopped at the step limit");
        note(
            self.handwritten.no_case_runs,
            "run(s) calling a function with arguments no case of its hand-written summary covers",
        );
        why
    }
}

/// Why the search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Every feasible k-path was covered.
    Complete,
    /// Every prefix within the bound was tried, but some were not decided
    /// or some symbolic values were concretised ([`Stats::undecided`]):
    /// paths may be missing.
    Explored,
    Timeout,
    /// The user interrupted the run.
    Interrupted,
    /// A limit on tests or runs was reached.
    Limit(String),
    /// Cover-Error: a test reaches `reach_error()`.
    ErrorCallReached,
    /// Guided generation: every `--target` is reached.
    TargetsReached,
}

/// Coverage of the code under test predicted by the generator.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Per function reachable from the function under test.
    pub functions: Vec<FunctionCoverage>,
}

/// Predicted coverage of one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionCoverage {
    pub name: String,
    /// The function's file, indexed like [`Loc::file`] into
    /// [`TestSuite::files`]: its lines are lines of that file.
    pub file: u32,
    /// Source lines holding code of this function (sorted, file of the function).
    pub lines: Vec<u32>,
    /// Lines executed by at least one test (sorted).
    pub lines_covered: Vec<u32>,
    /// Branch sides: two per decision.
    pub branches: u64,
    /// Branch sides taken by at least one test.
    pub branches_covered: u64,
    /// Per source line with branches: (line, branches, branches covered).
    pub branch_lines: Vec<(u32, u64, u64)>,
}

/// The coverage criterion that makes the set of paths finite; both use
/// the bound `k` of the configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Criterion {
    /// k-path (seed 002, with seed 000's depth for recursion): at most k
    /// iterations of each loop per entry into it, a recursion depth of at
    /// most k (seed 000: hits of a call-graph cycle's entry function, less
    /// one).
    KPath,
    /// block-k (seed 003, section 2.1.4, "each block in the control flow
    /// graph of the program being visited at most k times"): along one
    /// path, each basic block of the function under test and of every
    /// function it calls is entered at most k times, counted over the whole
    /// path (all activations together). The precondition is not bounded.
    /// Loops and recursion get no bound of their own: a `while` loop whose
    /// condition block is entered at most k times iterates at most k - 1
    /// times when it exits through its condition (k when left by `break` or
    /// `return`), a `do`-`while` loop at most k times.
    BlockK,
}

impl Criterion {
    /// The name used on the command line and in outputs: `k-path`,
    /// `block-k`.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::KPath => "k-path",
            Criterion::BlockK => "block-k",
        }
    }

    /// The inverse of [`Criterion::name`].
    pub fn from_name(name: &str) -> Option<Criterion> {
        match name {
            "k-path" => Some(Criterion::KPath),
            "block-k" => Some(Criterion::BlockK),
            _ => None,
        }
    }
}

/// What the compositional search reports (see [`Stats`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SummaryReport {
    /// Per summarised function: name, cases, complete (its cases cover
    /// every input within the bound).
    pub summaries: Vec<(String, u64, bool)>,
    /// The same summaries in more detail.
    pub details: Vec<SummaryDetail>,
    /// Calls composed from a summary.
    pub reused: u64,
    /// Cases dropped from compositions by specialisation: their
    /// precondition was false in the calling context (per composition
    /// built, rebuilt ones included).
    pub specialised_away: u64,
    /// Functions (or calling contexts) that could not be summarised, with
    /// why: they were explored monolithically.
    pub fallbacks: Vec<String>,
    /// Runs and solver calls of the bottom-up searches (not in the main
    /// search's counts).
    pub bottom_up_runs: u64,
    pub bottom_up_solver_calls: u64,
    /// Functions whose summaries came from the store, and were saved to it.
    pub loaded: Vec<String>,
    pub saved: Vec<String>,
}

/// One summary of [`SummaryReport`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SummaryDetail {
    pub function: String,
    pub cases: u64,
    /// Cases ending in a return, an error, the bound.
    pub returns: u64,
    pub errors: u64,
    pub bounds: u64,
    pub complete: bool,
    /// `top-down`, `bottom-up` or `stored`.
    pub origin: String,
}

/// Calls whose arguments satisfied no case of their summary, over a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoCaseReport {
    /// Runs ended that way.
    pub no_case_runs: u64,
    /// The distinct call sites, with the summarised function, in the order
    /// first met.
    pub no_case_sites: Vec<(Loc, String)>,
}

impl NoCaseReport {
    /// Count a run that ended at `site` (a call of `callee`).
    pub fn note(&mut self, site: (Loc, String)) {
        self.no_case_runs += 1;
        if !self.no_case_sites.contains(&site) {
            self.no_case_sites.push(site);
        }
    }
}

//! What a generation run produces: plain data for the emitters.
//!
//! **Architecture invariant:** nothing here refers to engine state; emitters
//! (C tests, JSON) and the CLI see only these types.

use pathwise_ir::{Loc, SrcVar};

/// All tests generated for one function, with statistics.
#[derive(Clone, Debug)]
pub struct TestSuite {
    /// The function under test.
    pub function: String,
    pub precondition: Option<String>,
    /// The k of the k-path criterion used.
    pub k: u32,
    /// C descriptions of the parameters, in order.
    pub params: Vec<SrcVar>,
    /// C description of the return value (`None` for `void`).
    pub ret: Option<SrcVar>,
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
    pub outcome: Outcome,
    /// Return value (`None` for `void` or when the run did not return).
    pub ret: Option<i128>,
    /// Final contents of every pointer parameter's array, in parameter order
    /// (`None` for scalar parameters).
    pub array_outputs: Vec<Option<Vec<i128>>>,
    /// Final values of [`TestSuite::globals`], same order.
    pub global_outputs: Vec<Vec<i128>>,
    /// The decisions of the function under test (and its callees), in order.
    pub path: Vec<PathStep>,
}

/// A concrete input value, interpreted with the parameter's signedness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputValue {
    Scalar(i128),
    /// The elements of an input array; its length is the array's dimension.
    Array(Vec<i128>),
}

/// How a test's execution ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The function returned normally.
    Returned,
}

/// One decision on a path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PathStep {
    /// Function containing the decision.
    pub func: String,
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
    /// Executions that ended in a runtime error (not tests in this version).
    pub error_runs: u64,
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
    /// Queries answered from the cache.
    pub solver_cache_hits: u64,
    /// Runs whose path did not follow the solved prefix (should stay 0).
    pub divergences: u64,
    /// Wall-clock time of the search, in milliseconds.
    pub elapsed_ms: u64,
    /// Part of `elapsed_ms` spent in the solver backend.
    pub solver_ms: u64,
}

/// Why the search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Every feasible k-path was covered.
    Complete,
    Timeout,
    /// The user interrupted the run.
    Interrupted,
    /// A limit on tests or runs was reached.
    Limit(String),
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

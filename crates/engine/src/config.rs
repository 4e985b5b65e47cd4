//! The configuration of one generation run, passed down explicitly.

use std::collections::BTreeSet;
use std::time::Duration;

/// Options of [`crate::search::generate`]. There is deliberately no `Default`:
/// callers state every choice.
#[derive(Clone, Debug)]
pub struct Config {
    /// Name of the function under test.
    pub function: String,
    /// Name of the precondition function (same parameters, nonzero = valid).
    pub precondition: Option<String>,
    /// The bound of [`Config::criterion`]: under k-path at most `k`
    /// iterations of each loop per entry and a recursion depth of at most
    /// `k` (activations of a recursive cycle's entry function nested below
    /// the first, see `Exec::activations`); under
    /// block-k at most `k` entries into each basic block per path.
    pub k: u32,
    /// Deepen the bound (`gen` without `--k`): the depth-first search runs
    /// with k = 1, 2, ... up to `k`, the largest tried, while `timeout`
    /// allows, and stops at the first k whose search ends by itself with
    /// no run or prefix cut by the bound (see `search/deepen.rs`).
    pub deepen: bool,
    /// Which paths are explored: see [`Criterion`].
    pub criterion: Criterion,
    /// Largest length of an input array that the solver chooses.
    pub max_array_len: u32,
    /// Largest length a run lengthens a free input array to when its path
    /// reads further (`Exec::grow_free_input`): far above `max_array_len`
    /// by default (a path reading a 176-byte key schedule at constant
    /// offsets fixes that length itself), `max_array_len` when the user
    /// gave one (`gen --max-array-len`).
    pub max_grown_array_len: u64,
    /// Stop after this much time (tests found so far are kept).
    pub timeout: Option<Duration>,
    /// Stop after this many tests.
    pub max_tests: Option<u64>,
    /// The order in which the plain search explores paths: see
    /// [`SearchOrder`] (`gen --order`).
    pub order: SearchOrder,
    /// Interpreter steps allowed per run (guards against non-terminating code
    /// outside the k bound, e.g. in a precondition).
    pub max_steps_per_run: u64,
    /// Signed `+ - * <<` overflow is an error (C's undefined behaviour);
    /// `false` treats it as two's complement wrap-around.
    pub check_overflow: bool,
    /// Also solve for inputs that violate the checks a path passed
    /// (division by zero, overflow, bounds...): each violation found is an
    /// error test. Without it, errors are reported only where a path runs
    /// into them anyway.
    pub seek_errors: bool,
    /// Keep one error test per (error kind, location), the one with the
    /// shortest path, and count the other paths ending there (`gen`'s
    /// default; `gen --all-error-tests` keeps one per path, as
    /// `Config::new` does: the papers' criterion).
    pub one_error_test_per_site: bool,
    /// Keep the contracts the function's code shows about its inputs (an
    /// input array as long as its length parameter says: see
    /// [`crate::contracts`]).
    pub infer_contracts: bool,
    /// What a null pointer parameter is: see [`NullArgs`].
    pub null_args: NullArgs,
    /// Which allocations of the code under test may fail: see [`AllocFail`].
    pub alloc_fail: AllocFail,
    /// Width of C's `long` (64 under LP64, 32 under ILP32).
    pub long_bits: u32,
    /// Whole-program mode (Test-Comp): see [`ProgramMode`].
    pub program_mode: Option<ProgramMode>,
    /// Largest number of input heap objects one test may have (lazy
    /// initialisation of recursive structures stops making fresh objects
    /// there; null and aliases remain possible).
    pub max_heap_objects: u32,
    /// At most this many runs of the precondition while looking for valid
    /// inputs for one prefix of the function under test (see
    /// `Search::find_valid`); the prefix is then abandoned, not called
    /// infeasible.
    pub precondition_budget: u64,
    /// Functions without a body that the user declared external: see
    /// [`Externals`].
    pub externals: Externals,
    /// A `malloc`'d object that nothing reachable from the parameters,
    /// globals or the return value points to when the function under test
    /// returns is an error test of kind `memory-leak` at the allocation
    /// (`gen --check-leaks`).
    pub check_leaks: bool,
    /// A load by the program of heap bytes never written (`malloc`'d, or
    /// grown by `realloc`) is an error test of kind `uninitialised-read`;
    /// copies (library copies, and loads only stored elsewhere, as in
    /// structure copies) carry the state along instead (`gen
    /// --no-uninit-check` turns it off).
    pub check_uninit: bool,
    /// Which floating-point operations are checked for errors: see
    /// [`FloatChecks`] (`gen --check`, `--no-check`).
    pub float_checks: FloatChecks,
    /// Count every loop iteration towards k, as seed 002 does. By default
    /// (false) only iterations that a symbolic decision committed to
    /// count: a loop whose continuation does not depend on the inputs
    /// (`for (i = 0; i < 256; i++)`) adds no path, so its iterations cost
    /// nothing against k (`gen --strict-loop-count` restores the count).
    pub strict_loop_count: bool,
    /// Keep the solver's first model as it is (`gen --raw-values`). By
    /// default (false) a model with a value outside the readable ranges
    /// (printable characters or NUL for 8-bit inputs, -128..255 for wider
    /// integers) is asked again with those preferences, within the same
    /// path condition (see `search/readable.rs`).
    pub raw_values: bool,
    /// Compose function summaries instead of exploring every call of a
    /// summarisable function (`gen --compositional`; see [`crate::compose`]).
    pub compositional: bool,
    /// With `compositional`: bottom-up or top-down, and where summaries are
    /// stored between runs.
    pub compose: ComposeOptions,
    /// Cost models, cost policies and target lines (`gen --cost`,
    /// `--cost-policy`, `--target`; see [`crate::cost`]).
    pub goals: crate::cost::Goals,
    /// Workers of a parallel search (`gen --jobs N`, see
    /// [`crate::parallel`]); `None`: the single search of
    /// [`crate::search::generate`].
    pub jobs: Option<usize>,
    /// Runs of a parallel search's subtree between two of its gifts
    /// (`gen --subtree-runs R`, see `search/shared.rs`): the grain of the
    /// work shared out. Part of what the suite depends on (as `k` is),
    /// unlike `jobs`.
    pub subtree_runs: u64,
}

impl Config {
    /// The defaults of `pathwise gen` for `function` with bound `k`: callers
    /// change what they need (`Config { precondition, ..Config::new(f, k) }`),
    /// so a new option has its default in one place.
    pub fn new(function: &str, k: u32) -> Config {
        Config {
            function: function.to_string(),
            precondition: None,
            k,
            deepen: false,
            criterion: Criterion::KPath,
            max_array_len: 16,
            max_grown_array_len: MAX_GROWN_LEN,
            timeout: None,
            max_tests: None,
            order: SearchOrder::Auto,
            max_steps_per_run: 10_000_000,
            check_overflow: true,
            seek_errors: true,
            one_error_test_per_site: false,
            infer_contracts: true,
            null_args: NullArgs::References,
            alloc_fail: AllocFail::Never,
            long_bits: 64,
            program_mode: None,
            max_heap_objects: 32,
            precondition_budget: 20,
            externals: Externals::none(),
            check_leaks: false,
            check_uninit: true,
            float_checks: FloatChecks::default(),
            strict_loop_count: false,
            raw_values: false,
            compositional: false,
            compose: Default::default(),
            goals: Default::default(),
            jobs: None,
            subtree_runs: 256,
        }
    }

    /// The configuration of a search for `function`'s own paths nested in
    /// this one (a bottom-up summary): every option of the model inherited,
    /// none of the outer search's own: no precondition, goals, test limit,
    /// whole-program mode or summary store. A summary keeps all its paths
    /// (no folding of error tests) and null dereferences of structure
    /// pointers as error cases (the papers' null model): the calling
    /// context decides whether an argument can be null.
    ///
    /// The destructuring is exhaustive on purpose: a new option does not
    /// compile until it says whether a nested search inherits it.
    pub fn nested(&self, function: &str) -> Config {
        let Config {
            function: _,
            precondition: _,
            k,
            deepen: _,
            criterion,
            max_array_len,
            max_grown_array_len,
            timeout,
            max_tests: _,
            order: _,
            max_steps_per_run,
            check_overflow,
            seek_errors,
            one_error_test_per_site: _,
            infer_contracts,
            null_args: _,
            alloc_fail: _,
            long_bits,
            program_mode: _,
            max_heap_objects,
            precondition_budget,
            externals,
            check_leaks,
            check_uninit,
            float_checks,
            strict_loop_count,
            raw_values,
            compositional: _,
            compose: _,
            goals: _,
            jobs: _,
            subtree_runs,
        } = self.clone();
        Config {
            function: function.to_string(),
            precondition: None,
            k,
            deepen: false,
            criterion,
            max_array_len,
            max_grown_array_len,
            timeout,
            max_tests: None,
            order: SearchOrder::DepthFirst,
            max_steps_per_run,
            check_overflow,
            seek_errors,
            one_error_test_per_site: false,
            infer_contracts,
            null_args: NullArgs::References,
            // Summaries are of the papers' model (compositional searches
            // make no allocation fail, see `Config::allocations_may_fail`).
            alloc_fail: AllocFail::Never,
            long_bits,
            program_mode: None,
            max_heap_objects,
            precondition_budget,
            externals,
            check_leaks,
            check_uninit,
            float_checks,
            strict_loop_count,
            raw_values,
            compositional: true,
            compose: Default::default(),
            goals: Default::default(),
            jobs: None,
            subtree_runs,
        }
    }

    /// Whether this search makes allocations fail: not compositional
    /// searches (a summary's cases are over the callee's own inputs) nor
    /// whole programs (Test-Comp's harness cannot make `malloc` fail).
    pub fn allocations_may_fail(&self) -> bool {
        self.alloc_fail != AllocFail::Never && !self.compositional && self.program_mode.is_none()
    }

    /// The options that can change a summary of a function, as text (the
    /// summary store's key hashes it): every option but those of the outer
    /// search alone (function, precondition, time and test limits,
    /// whole-program mode, goals, the store's directory).
    ///
    /// The destructuring is exhaustive on purpose: a new option does not
    /// compile until it is classified, in the key or not (a stored summary
    /// reused under an option that changes it would be silently wrong).
    pub fn model_options(&self) -> String {
        let Config {
            function: _,
            precondition: _,
            k,
            deepen: _,
            criterion,
            max_array_len,
            max_grown_array_len,
            timeout: _,
            max_tests: _,
            order: _,
            max_steps_per_run,
            check_overflow,
            seek_errors,
            one_error_test_per_site,
            infer_contracts,
            null_args,
            // No summary depends on it: compositional searches make no
            // allocation fail (`allocations_may_fail`).
            alloc_fail: _,
            long_bits,
            program_mode: _,
            max_heap_objects,
            precondition_budget,
            externals,
            check_leaks,
            check_uninit,
            float_checks,
            strict_loop_count,
            raw_values,
            compositional,
            compose: ComposeOptions { bottom_up, store: _ },
            goals: _,
            jobs: _,
            subtree_runs: _,
        } = self;
        format!(
            "k={k} criterion={criterion:?} max_array_len={max_array_len} \
             max_grown_array_len={max_grown_array_len} max_steps_per_run={max_steps_per_run} \
             check_overflow={check_overflow} seek_errors={seek_errors} \
             one_error_test_per_site={one_error_test_per_site} infer_contracts={infer_contracts} \
             null_args={null_args:?} long_bits={long_bits} max_heap_objects={max_heap_objects} \
             precondition_budget={precondition_budget} externals={externals:?} \
             check_leaks={check_leaks} check_uninit={check_uninit} float_checks={float_checks:?} \
             strict_loop_count={strict_loop_count} raw_values={raw_values} compositional={compositional} \
             bottom_up={bottom_up}"
        )
    }
}

/// Functions declared without a body whose calls the user described as
/// having no effect on memory the code under test can see, and returning a
/// fresh input (`pathwise gen --external NAME`, `--external-all`).
///
/// Each call of one of them returns a new solver variable (named after the
/// call's position, so the same call in another run is the same input), and
/// the test records the calls so that the emitted C file can define the
/// functions as stubs replaying them. Built-in and library models take
/// precedence: a modelled function is never external.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Externals {
    /// Functions named by the user (each must be declared without a body).
    pub names: BTreeSet<String>,
    /// Every body-less function without a model that the code under test
    /// (or the precondition) calls.
    pub all: bool,
    /// Functions that have a body in the source which the front end could
    /// not lower: never external (a stub would clash with the real
    /// definition), even with `all`.
    pub excluded: BTreeSet<String>,
}

impl Externals {
    /// No function is external.
    pub fn none() -> Externals {
        Externals::default()
    }

    /// Whether calls of the body-less function `name` are external ones.
    pub fn contains(&self, name: &str) -> bool {
        !self.excluded.contains(name) && (self.all || self.names.contains(name))
    }
}

/// The floating-point checks (`gen --check KIND`, `--no-check KIND`).
///
/// C leaves a conversion to an integer type that cannot hold the value
/// undefined (C11 6.3.1.4), so that one is checked by default; the others
/// are IEEE 754's exceptions, defined behaviour under Annex F (the result
/// is an infinity or a NaN), which code that never expects one asks to
/// find.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatChecks {
    /// A floating value converted to an integer type out of its range, or
    /// NaN: a `float-cast-overflow` error (the default).
    pub to_int: bool,
    /// An operation on finite operands whose rounded result is infinite
    /// (`+ - * /`, a `double` converted to `float`; IEEE's overflow
    /// exception, which a native test traps with `feenableexcept`): a
    /// `float-overflow` error.
    pub overflow: bool,
    /// A floating division by zero (either sign; as UBSan's
    /// `float-divide-by-zero` check, `0.0 / 0.0` included): a
    /// `float-division-by-zero` error.
    pub div_by_zero: bool,
}

impl Default for FloatChecks {
    fn default() -> FloatChecks {
        FloatChecks { to_int: true, overflow: false, div_by_zero: false }
    }
}

/// Which pointer parameters may be null, and what a dereference of a null
/// one is (see [`crate::null_params`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NullArgs {
    /// The papers' input model (`Config::new`): a pointer to a structure
    /// may be null, as seed 003's Java references may, and its
    /// dereference is a null-dereference error; an input array (seed
    /// 002's C arrays) never is.
    References,
    /// Every pointer parameter may be null (`gen`'s default): branches
    /// that test it are covered, and a dereference the function makes
    /// without a test assumes the caller passes a valid pointer (a
    /// contract line, `assumes non-null: p`, instead of error tests).
    Assume,
    /// Every pointer parameter may be null, and every dereference of a
    /// null one is a null-dereference error test (`gen --null-args
    /// errors`).
    Errors,
}

/// Which allocation calls of the code under test (`malloc`, `calloc`,
/// `realloc`, `strdup`, `strndup`) may return null (see
/// [`crate::alloc_fail`]). Each call's failure is a 1-bit input of the
/// test, and the C test makes exactly the failing calls fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AllocFail {
    /// Allocation never fails (the papers' model, `Config::new`).
    Never,
    /// An allocation fails where the code tests its result against null
    /// (`if (!p) return -1;`, `gen`'s default): the test is a decision on
    /// the failure, so both sides are covered; a result used without a
    /// test is a valid object, as it is when memory is plentiful.
    Checked,
    /// Every allocation may fail: also a use of the result without a test
    /// is a null-dereference error test (`gen --alloc-fail all`).
    All,
}

/// The order in which the plain k-path (or block-k) search takes the
/// alternatives its runs leave open. Every order explores the same
/// prefixes, so a search that ends by itself finds the same paths; the
/// order decides which are found first, which is what a run that a time
/// limit cuts short keeps (see `search/generational.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchOrder {
    /// New branches first when the search has a time limit (`--timeout`,
    /// or deepening's budget), depth-first otherwise (`gen`'s default).
    Auto,
    /// PathCrawler's depth-first order (seed 002): the deepest open
    /// decision of the latest run first.
    DepthFirst,
    /// Alternatives whose other side is a branch side no test covers
    /// first, then the deepest (generational search, as SAGE's).
    NewBranchesFirst,
}

/// The longest a run lengthens a free input array to by default
/// (elements; `Config::max_grown_array_len`): far above `--max-array-len`'s
/// default, which bounds the lengths the solver chooses, since a path that
/// reads an array at constant offsets (a 176-byte key schedule, a loop
/// over a 100,000-element buffer) fixes its length itself; bounded by
/// memory.
pub const MAX_GROWN_LEN: u64 = 1 << 20;

/// How summaries are computed and kept (`gen --compositional [MODE]`,
/// `--summary-store DIR`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ComposeOptions {
    /// Compute summaries callee-first before the search (thesis ch. 3)
    /// instead of on demand (SMART).
    pub bottom_up: bool,
    /// Load and save summaries in this directory.
    pub store: Option<std::path::PathBuf>,
}

pub use pathwise_suite::Criterion;

/// Test generation for a whole program whose inputs are the values of its
/// `__VERIFIER_nondet_*()` calls (Test-Comp), rather than for one function's
/// parameters.
///
/// `Config::function` is the entry point (`main`; its parameters get no
/// inputs). There is no fixed k: the search runs with k = 1, 2, ... up to
/// `Config::k` while time remains and some branch is uncovered, choosing
/// first the alternatives that lead to a branch side not yet covered. Only
/// tests that cover something new are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramMode {
    /// Stop at the first test that calls `reach_error()` (Cover-Error).
    pub stop_at_error_call: bool,
    /// Make the return value of a function without body or model a fresh
    /// input (the next nondet value) instead of refusing the program.
    pub concretise_externals: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two options an earlier hand-kept key left out, and the leak
    /// check an earlier nested copy dropped: each changes a summary.
    #[test]
    fn the_summary_key_covers_every_option_of_the_model() {
        let base = Config::new("f", 2);
        let changed = [
            Config { max_heap_objects: 3, ..base.clone() },
            Config { externals: Externals { all: true, ..Externals::none() }, ..base.clone() },
            Config { check_leaks: true, ..base.clone() },
            Config { float_checks: FloatChecks { overflow: true, ..FloatChecks::default() }, ..base.clone() },
            Config { k: 3, ..base.clone() },
            Config { compose: ComposeOptions { bottom_up: true, store: None }, ..base.clone() },
        ];
        for c in &changed {
            assert_ne!(c.model_options(), base.model_options(), "{c:?}");
        }
        let outer_only = [
            Config { function: "g".into(), ..base.clone() },
            Config { precondition: Some("pre".into()), ..base.clone() },
            Config { timeout: Some(Duration::from_secs(1)), ..base.clone() },
            Config { max_tests: Some(4), ..base.clone() },
            Config { deepen: true, ..base.clone() },
            Config { compose: ComposeOptions { bottom_up: false, store: Some("s".into()) }, ..base.clone() },
        ];
        for c in &outer_only {
            assert_eq!(c.model_options(), base.model_options(), "{c:?}");
        }
    }

    #[test]
    fn a_nested_search_inherits_the_model_and_drops_the_outer_search() {
        let outer = Config {
            max_heap_objects: 3,
            externals: Externals { all: true, ..Externals::none() },
            check_leaks: true,
            float_checks: FloatChecks { div_by_zero: true, ..FloatChecks::default() },
            precondition: Some("pre".into()),
            max_tests: Some(4),
            one_error_test_per_site: true,
            null_args: NullArgs::Assume,
            alloc_fail: AllocFail::All,
            compose: ComposeOptions { bottom_up: true, store: Some("s".into()) },
            ..Config::new("f", 2)
        };
        let inner = outer.nested("g");
        assert_eq!(inner.function, "g");
        assert_eq!((inner.max_heap_objects, inner.check_leaks, inner.k), (3, true, 2));
        assert_eq!(inner.float_checks, outer.float_checks);
        assert_eq!(inner.externals, outer.externals);
        assert_eq!((inner.precondition, inner.max_tests), (None, None));
        assert!(!inner.one_error_test_per_site && inner.compositional);
        assert_eq!(inner.null_args, NullArgs::References);
        assert_eq!(inner.alloc_fail, AllocFail::Never);
        assert_eq!(inner.compose, ComposeOptions::default());
    }
}

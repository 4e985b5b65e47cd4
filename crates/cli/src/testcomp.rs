//! `pathwise testcomp`: tests for a whole program in the Test-Comp format.
//!
//! The inputs are the values returned by `__VERIFIER_nondet_*()` calls, in
//! call order. The property file chooses the goal: Cover-Branches
//! (`COVER EDGES(@DECISIONEDGE)`: generate until every branch is covered,
//! the search is complete or time is up) or Cover-Error
//! (`COVER EDGES(@CALL(reach_error))`: stop at the first test that calls
//! `reach_error`). Each test is written to the suite directory as soon as
//! the engine validates it, so a timeout, Ctrl-C or a crash keeps every test
//! already found; the zip is written at the end (and can be rebuilt from the
//! directory with [`pathwise_emit::testcomp::zip_suite`]).

use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use pathwise_emit::testcomp::{Architecture, TestCompMetadata, TestCompWriter};
use pathwise_engine::config::{Config, FloatChecks, ProgramMode};
use pathwise_engine::search::Observer;
use pathwise_engine::suite::{ErrorKind, Outcome, Stats, StopReason, TestCase, TestSuite};
use pathwise_solver_z3::Z3Backend;

use crate::progress::{install_ctrlc, CountingBackend, ProgressObserver};

/// The sv-benchmarks data models.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DataModelArg {
    /// 32-bit `int`, `long` and pointers.
    #[value(name = "ILP32")]
    Ilp32,
    /// 32-bit `int`, 64-bit `long` and pointers.
    #[value(name = "LP64")]
    Lp64,
}

/// What to do with a function that has neither a body nor a model.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExternalArg {
    /// Refuse the program, naming the function and the call.
    Error,
    /// Its return value becomes the next input (it has no other effect).
    Concretise,
}

/// Options of `pathwise testcomp`.
#[derive(Args, Debug, Clone)]
pub struct TestCompArgs {
    /// The program (a `.c` or preprocessed `.i` file with `main`).
    pub program: PathBuf,
    /// The property file: coverage-branches.prp or coverage-error-call.prp.
    #[arg(long, value_name = "FILE.prp")]
    pub property: PathBuf,
    /// Stop after this many seconds (tests found so far are kept).
    #[arg(long, value_name = "SECONDS", value_parser = crate::gen::parse_seconds)]
    pub timeout: Option<Duration>,
    /// The suite directory (metadata.xml, testcase-N.xml, test-suite.zip).
    #[arg(long, short = 'o', value_name = "DIR", default_value = "./test-suite")]
    pub out: PathBuf,
    /// Sizes of `long` and pointers, as the task's data model says.
    #[arg(long, value_enum, default_value_t = DataModelArg::Lp64)]
    pub data_model: DataModelArg,
    /// Functions without a body.
    #[arg(long, value_enum, default_value_t = ExternalArg::Error)]
    pub external: ExternalArg,
    /// Largest loop/recursion bound the deepening search reaches.
    #[arg(long, value_name = "K", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_k: u32,
    /// Treat signed overflow as an error that ends a path (Test-Comp's
    /// coverage tasks are defined by what the compiled program does, which
    /// wraps, so by default it wraps).
    #[arg(long)]
    pub overflow_check: bool,
    /// Add a directory to the include search path.
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
}

/// The two Test-Comp coverage properties.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    Branches,
    ErrorCall,
}

/// Read the goal from a property file's text.
pub fn parse_property(text: &str) -> Result<Goal> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.contains("COVEREDGES(@DECISIONEDGE)") {
        Ok(Goal::Branches)
    } else if compact.contains("@CALL(reach_error)") || compact.contains("@CALL(__VERIFIER_error)") {
        Ok(Goal::ErrorCall)
    } else {
        bail!("unsupported property (expected coverage-branches or coverage-error-call): {}", text.trim())
    }
}

/// Writes each test as the engine finds it.
struct SuiteObserver {
    progress: ProgressObserver,
    writer: TestCompWriter,
    error: Option<std::io::Error>,
    /// Input vectors written so far. A Test-Comp test is nothing but its
    /// inputs and the program is deterministic, so a test with the inputs of
    /// an earlier one runs the same execution: it is not written. (The
    /// engine can keep two such tests: a run cut at the loop bound k, then
    /// the same inputs at k + 1 going further, both adding coverage.)
    written: std::collections::HashSet<Vec<String>>,
    duplicates: usize,
}

impl Observer for SuiteObserver {
    fn on_test(&mut self, test: &TestCase, coverage: &pathwise_engine::setup::RunCoverage, stats: &Stats) {
        self.progress.on_test(test, coverage, stats);
        let inputs: Vec<String> = test
            .nondets
            .iter()
            .zip(&test.nondet_types)
            .map(|(&v, &ty)| pathwise_emit::testcomp::input_value(v, ty))
            .collect();
        let covers_error = matches!(&test.outcome, Outcome::Error(e) if e.kind == ErrorKind::ErrorCall);
        if !self.written.insert(inputs.clone()) {
            self.duplicates += 1;
            return;
        }
        if let Err(e) = self.writer.add_test(&inputs, covers_error) {
            self.error.get_or_insert(e);
        }
    }

    fn should_stop(&mut self) -> bool {
        self.error.is_some() || self.progress.should_stop()
    }
}

/// The watchdog's way out (see [`crate::salvage`]): the search did not stop
/// within the grace period after `--timeout` or a signal (a solver check
/// that ignores the interrupt). Its tests are on disk already, written as
/// they were found: they are zipped, and the process ends with the code a
/// stopped run has.
fn zip_salvaged(out: &std::path::Path, cause: crate::salvage::Cause) {
    match pathwise_emit::testcomp::zip_suite(out) {
        Ok(zip) => {
            eprintln!(
                "\nnote: the search did not stop within {} s (a solver check that ignores the interrupt); \
                 zipped the tests written so far: {}",
                crate::salvage::GRACE.as_secs(),
                zip.display()
            );
            std::process::exit(match cause {
                crate::salvage::Cause::Timeout => crate::exit::COMPLETE,
                crate::salvage::Cause::Interrupted => crate::exit::SIGNAL,
            });
        }
        Err(e) => {
            eprintln!("error: the search did not stop, and its tests could not be zipped: {e}");
            std::process::exit(crate::exit::BAD_INPUT);
        }
    }
}

/// Run `pathwise testcomp`; returns the process exit code.
pub fn run(args: &TestCompArgs) -> Result<i32> {
    let text = std::fs::read_to_string(&args.property)
        .with_context(|| format!("cannot read property file {}", args.property.display()))?;
    let goal = parse_property(&text)?;
    let (model, arch, long_bits) = match args.data_model {
        DataModelArg::Ilp32 => (pathwise_cfront::DataModel::Ilp32, Architecture::Bits32, 32),
        DataModelArg::Lp64 => (pathwise_cfront::DataModel::Lp64, Architecture::Bits64, 64),
    };
    let fe = crate::frontend::compile_with(&args.program, &args.include_dirs, &[], model)?;
    // An unsupported construct leaves main a declaration: name the construct.
    fe.check_supported("main", "entry point")?;
    crate::gen::check_function(&fe.program, "main", "entry point")?;
    // Test-Comp deepens k-path's k (block-k is a `gen` option).
    let config = Config {
        timeout: args.timeout,
        check_overflow: args.overflow_check,
        // An out-of-range conversion to an integer is undefined as signed
        // overflow is, and the compiled program goes on with the value
        // x86-64 gives (which the engine computes) as it does after a wrap.
        float_checks: FloatChecks { to_int: args.overflow_check, ..FloatChecks::default() },
        seek_errors: false,
        // The writer saves each test as it is found (never replaced), and
        // a test is kept only when it adds coverage anyway.
        one_error_test_per_site: false,
        long_bits,
        program_mode: Some(ProgramMode {
            stop_at_error_call: goal == Goal::ErrorCall,
            concretise_externals: args.external == ExternalArg::Concretise,
        }),
        // An error ends a run: Test-Comp wants the coverage beyond.
        check_uninit: false,
        ..Config::new("main", args.max_k)
    };
    let meta = TestCompMetadata::for_program(&args.program, &text, arch)
        .with_context(|| format!("cannot read {}", args.program.display()))?;
    let writer = TestCompWriter::create(&args.out, &meta)
        .with_context(|| format!("cannot write the suite into {}", args.out.display()))?;
    let calls = Arc::new(AtomicU64::new(0));
    let progress = ProgressObserver::new("main", install_ctrlc(), args.timeout, Arc::clone(&calls));
    let mut observer =
        SuiteObserver { progress, writer, error: None, written: std::collections::HashSet::new(), duplicates: 0 };
    let inner = Z3Backend::new(None)
        .with_float_budget(crate::gen::float_budget(args.timeout))
        .interrupt_when(observer.progress.stop_flag());
    let mut backend = CountingBackend { inner, calls };
    let salvage = crate::salvage::Salvage::default();
    let (deadline, flag) = (observer.progress.deadline(), observer.progress.stop_flag());
    let result = std::thread::scope(|scope| {
        scope.spawn(|| salvage.watch(deadline, &flag, |cause, _| zip_salvaged(&args.out, cause)));
        let result = pathwise_engine::search::generate(&fe.program, &config, &mut backend, &mut observer);
        salvage.returned();
        result
    });
    observer.progress.finish();
    let SuiteObserver { progress, writer, error, duplicates, .. } = observer;
    // The tests already written stay valid whatever happens next: zip them.
    let zip = writer.finish().with_context(|| format!("cannot write the zip in {}", args.out.display()))?;
    if let Some(e) = error {
        bail!("cannot write a test file into {}: {e}", args.out.display());
    }
    let mut suite = result.map_err(|e| anyhow::anyhow!("{e}"))?;
    if suite.stop == StopReason::Interrupted && progress.timed_out() && !progress.interrupted() {
        suite.stop = StopReason::Timeout;
    }
    print!("{}", summary(&suite, goal, duplicates));
    println!("wrote {} and {}", args.out.join("metadata.xml").display(), zip.display());
    // A Test-Comp run ends at its time limit as a matter of course: 0 then,
    // as when it completes; a signal is not a finished run.
    Ok(if suite.stop == StopReason::Interrupted { crate::exit::SIGNAL } else { crate::exit::COMPLETE })
}

/// Branch sides covered and in total, over the functions reachable from main.
pub fn branch_totals(suite: &TestSuite) -> (u64, u64) {
    let f = &suite.coverage.functions;
    (f.iter().map(|c| c.branches_covered).sum(), f.iter().map(|c| c.branches).sum())
}

/// The run's summary on stdout.
fn summary(suite: &TestSuite, goal: Goal, duplicates: usize) -> String {
    let s = &suite.stats;
    let (covered, total) = branch_totals(suite);
    let reached = suite.tests.iter().any(|t| matches!(&t.outcome, Outcome::Error(e) if e.kind == ErrorKind::ErrorCall));
    let written = suite.tests.len() - duplicates;
    let mut out = format!("pathwise testcomp: {written} tests, k reached {}\n", suite.k);
    if duplicates > 0 {
        out.push_str(&format!("  not written:        {duplicates} (the inputs of an earlier test)\n"));
    }
    out.push_str(&format!("  branches covered:   {covered}/{total} (predicted; gcc may count differently)\n"));
    if goal == Goal::ErrorCall {
        out.push_str(&format!(
            "  reach_error:        {}\n",
            if reached { "reached (coversError)" } else { "not reached" }
        ));
    }
    out.push_str(&crate::gen::float_line(s, 19));
    out.push_str(&format!("  runs:               {}\n", s.runs));
    out.push_str(&format!("  time:               {:.2} s\n", s.elapsed_ms as f64 / 1000.0));
    out.push_str(&format!("  stop:               {:?}\n", suite.stop));
    out.push_str(&crate::gen::incomplete_lines(suite, 19));
    out
}

//! The `pathwise` command: white-box test generation for C functions.
//!
//! - `pathwise gen FILE.c --function NAME`: one test per feasible k-path
//!   (`pathwise_cli::gen`), written as a C test file and a JSON suite.
//! - `pathwise replay DIR`: build the tests with gcov instrumentation, run
//!   them and compare measured with predicted coverage
//!   (`pathwise_cli::replay`).
//! - `pathwise report DIR`: the HTML report of the suites in DIR, and
//!   with `--sarif FILE` their error tests as SARIF
//!   (`pathwise_cli::report`).
//! - `pathwise testcomp PROGRAM.c --property P.prp`: a Test-Comp test suite
//!   for a whole program (`pathwise_cli::testcomp`).
//! - `pathwise project [compile_commands.json | DIR]`: every function of a
//!   project, with an index (`pathwise_cli::project`); `pathwise merge`
//!   joins CI shards' outputs.
//! - `pathwise paths FILE.c --function NAME`: the static paths up to a
//!   depth, optionally with their feasibility (`pathwise_cli::paths_cmd`).
//!
//! The work lives in the `pathwise_cli` library so that integration tests
//! can drive it; this file only parses arguments and maps results to exit
//! codes.
//!
//! Exit codes: see `pathwise_cli::exit` (and `pathwise --help`): a bug
//! is reported without a Rust panic trace and exits with
//! [`exit::INTERNAL`]; other errors print as `error: ...` on stderr and
//! exit with [`exit::BAD_INPUT`].

use clap::{Parser, Subcommand};
use pathwise_cli::{exit, gen, paths_cmd, project, replay, report, testcomp};

#[derive(Parser, Debug)]
#[command(
    name = "pathwise",
    version,
    // Every help line stays under 100 characters whatever the terminal;
    // long explanations are in the guide (docs/src).
    term_width = 98,
    about = "White-box test generation for C: one test per feasible k-path",
    long_about = "Pathwise generates unit tests for a C function by concolic execution: it \
explores the function's paths (each loop at most k times per entry), solves the path \
conditions with Z3, and writes one test per feasible path with the outputs it observed, \
as a self-contained C file and a JSON suite.",
    after_help = format!("Examples:\n  pathwise gen merge.c --function merge --k 2 --out tests/\n  \
pathwise gen sort.c -f sort --precondition valid --timeout 30 --json > suite.json\n  \
pathwise replay tests/ --lcov coverage.info --junit junit.xml\n  \
pathwise report tests/ --sarif errors.sarif\n  \
pathwise project build/compile_commands.json --jobs 4 --out out; pathwise replay out\n\n\
The user guide: docs/src/SUMMARY.md in the source (mdBook).\n\n{}", exit::HELP)
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per process: the size of `gen`'s options costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Generate tests for one function of a C file.
    Gen(gen::GenArgs),
    /// Test every function of a project (compile_commands.json): in parallel,
    /// incrementally, optionally one CI shard of N.
    Project(project::ProjectArgs),
    /// Join the outputs of `project --shard` runs into one output and index.
    Merge(project::merge::MergeArgs),
    /// Compile and run generated tests with gcov; compare measured and
    /// predicted coverage.
    Replay(replay::ReplayArgs),
    /// Write an HTML report (and with --sarif a SARIF log of the error tests)
    /// of the suites in a directory.
    Report(report::ReportArgs),
    /// Generate a Test-Comp test suite for a whole program whose inputs are
    /// its __VERIFIER_nondet_*() calls.
    Testcomp(testcomp::TestCompArgs),
    /// List the static paths of a function up to a depth (Peña and
    /// Sánchez-Hernández), and optionally their feasibility.
    Paths(paths_cmd::PathsArgs),
}

fn main() {
    exit::die_quietly_on_closed_stdout();
    let cli = Cli::parse();
    // A bug must still end in a clear message and a distinct exit code.
    std::panic::set_hook(Box::new(|info| {
        // The solver layer turns its own panics into an `unknown` query
        // (reported in the summary); the run goes on.
        if pathwise_solver_z3::panic_is_contained() {
            return;
        }
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("error: internal error in Pathwise: {what}{at}; please report it with the input file");
    }));
    let result = std::panic::catch_unwind(|| match &cli.command {
        Command::Gen(args) => gen::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Report(args) => report::run(args),
        Command::Project(args) => project::run(args),
        Command::Merge(args) => project::merge::run(args),
        Command::Testcomp(args) => testcomp::run(args),
        Command::Paths(args) => paths_cmd::run(args),
    });
    match result {
        Ok(Ok(code)) => std::process::exit(code),
        Ok(Err(e)) => {
            eprintln!("error: {e:#}");
            std::process::exit(exit::BAD_INPUT);
        }
        Err(_) => std::process::exit(exit::INTERNAL),
    }
}

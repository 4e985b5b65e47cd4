//! `pathwise project`: every function of a C project, from its
//! `compile_commands.json`, on all cores, incrementally, optionally one
//! CI shard of N; and `pathwise merge`, which joins the shards' outputs.
//!
//! - [`compdb`]: the compilation database and each file's flags.
//! - [`config_file`]: `pathwise.toml`, per-function options.
//! - [`units`]: compiling each file once, its functions, their hashes.
//! - [`plan`]: the functions selected and `gen`'s options for each.
//! - [`shard`]: `--shard I/N` and `--balance-from`.
//! - [`run`]: the parallel run, one fresh solver per function.
//! - [`index`]: the index, `OUT/index.json`.
//! - [`merge`]: `pathwise merge`.
//! - [`replay_index`]: `pathwise replay OUT` over an index.
//!
//! Exit codes (`crate::exit`): 0 when every function's search ended by
//! itself; 5 when a limit stopped some (its time budget, the run's
//! `--timeout`); 7 ([`crate::exit::FUNCTIONS_FAILED`]) when some function
//! has no suite (unsupported C, a file that does not compile, an engine
//! error: the index gives each reason), which wins over 5; 6 with
//! `--fail-on errors` when some suite has an error test, and 130 on a
//! signal, as for `gen`; 2 for bad input (no database, a bad
//! `pathwise.toml`, a bad `--shard`), before anything runs.

pub mod compdb;
pub mod config_file;
pub mod index;
pub mod merge;
pub mod plan;
pub mod replay_index;
pub mod run;
pub mod shard;
pub mod units;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;

use self::index::{Entry, Index, Status};
use self::run::Job;

/// Options of `pathwise project`.
#[derive(Args, Debug, Clone)]
pub struct ProjectArgs {
    /// compile_commands.json, or a directory holding it (or holding
    /// build/compile_commands.json).
    #[arg(default_value = ".", value_name = "DATABASE|DIR")]
    pub database: PathBuf,
    /// Output directory: OUT/FILE/FUNCTION/ per function and OUT/index.json.
    #[arg(long, short = 'o', value_name = "OUT", default_value = "./pathwise-out")]
    pub out: PathBuf,
    /// Only the functions whose name (or FILE:NAME) matches (repeatable).
    #[arg(long = "functions", value_name = "GLOB")]
    pub functions: Vec<String>,
    /// Only the files whose path relative to the root matches (repeatable).
    #[arg(long = "files", value_name = "GLOB")]
    pub files: Vec<String>,
    /// A C file of preconditions read after every file (NAME_pre for NAME).
    #[arg(long, value_name = "FILE.c")]
    pub preconditions: Option<PathBuf>,
    /// The settings file [default: pathwise.toml at the project's root].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The bound where pathwise.toml gives none [default: deepen within the budget, as gen].
    #[arg(long, short = 'k', value_parser = crate::gen::parse_k, allow_negative_numbers = true)]
    pub k: Option<u32>,
    /// Each function's time budget where pathwise.toml gives none.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = crate::gen::parse_seconds)]
    pub timeout_per_function: Duration,
    /// The whole run's budget: functions not started by then fail.
    #[arg(long, value_name = "SECONDS", value_parser = crate::gen::parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,
    /// Functions searched at once [default: the number of cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub jobs: Option<u32>,
    /// Take part I of N of the functions (a CI matrix job).
    #[arg(long, value_name = "I/N", value_parser = shard::parse)]
    pub shard: Option<shard::Shard>,
    /// With --shard: balance the shards by this earlier index's times.
    #[arg(long, value_name = "INDEX")]
    pub balance_from: Option<PathBuf>,
    /// Reuse unchanged functions' suites from this earlier output [default: OUT].
    #[arg(long, value_name = "DIR")]
    pub reuse_from: Option<PathBuf>,
    /// Search every function again.
    #[arg(long)]
    pub no_reuse: bool,
    /// Exit with 6 when some suite has an error test.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub fail_on: Option<crate::exit::FailOn>,
}

/// The project's root: the directory given, else the database's
/// directory, or its parent when the database is in `build/` and the
/// parent holds the `pathwise.toml`.
fn project_root(arg: &Path, db: &Path) -> Result<PathBuf> {
    let root = if arg.is_dir() {
        arg.to_path_buf()
    } else {
        let dir = db.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        match dir.parent() {
            Some(up) if !dir.join("pathwise.toml").is_file() && up.join("pathwise.toml").is_file() => up.to_path_buf(),
            _ => dir.to_path_buf(),
        }
    };
    Ok(std::path::absolute(&root)?)
}

/// Run `pathwise project`; returns the exit code.
pub fn run(args: &ProjectArgs) -> Result<i32> {
    let interrupted = crate::progress::install_ctrlc();
    let start = Instant::now();
    let db = compdb::locate(&args.database)?;
    let root = project_root(&args.database, &db)?;
    let config = match &args.config {
        Some(path) => config_file::ProjectConfig::load(path)?,
        None if root.join("pathwise.toml").is_file() => config_file::ProjectConfig::load(&root.join("pathwise.toml"))?,
        None => config_file::ProjectConfig::default(),
    };
    if let Some(p) = &args.preconditions {
        crate::frontend::check_input(p, "preconditions file ")?;
    }
    if args.balance_from.is_some() && args.shard.is_none() {
        bail!("--balance-from balances shards: give --shard I/N too");
    }
    crate::gen::check_out_dir(&args.out)?;
    let workers = args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |n| n as usize);
    let file_globs = plan::globs(&args.files, "--files")?;
    let selected: Vec<compdb::Unit> = compdb::load(&db)?
        .into_iter()
        .filter(|u| file_globs.as_ref().is_none_or(|g| g.is_match(units::relative_name(&u.file, &root))))
        .collect();
    let compiled = run::parallel_map(&selected, workers, |u| units::compile(u, &root, args.preconditions.as_deref()));
    let mut jobs = plan::jobs(&compiled, &root, &config, args)?;
    if jobs.is_empty() {
        bail!("no function to test: {} lists no selected C file with a function", db.display());
    }
    if let Some(s) = args.shard {
        jobs = shard_of(jobs, s, args.balance_from.as_deref())?;
    }
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let (mut entries, to_run) = reuse(jobs, args, &root)?;
    let ctx = run::Context {
        units: &compiled,
        out: &args.out,
        interrupted: interrupted.clone(),
        deadline: args.timeout.map(|t| start + t),
        total: to_run.len(),
        done: AtomicUsize::new(0),
    };
    eprintln!("pathwise project: {} function(s) to search, {} reused, {workers} job(s)", to_run.len(), entries.len());
    entries.extend(run::run_all(&to_run, workers, &ctx));
    let root_rel = crate::gen::relative_to(&root, &args.out).display().to_string();
    let index = Index::new(root_rel, args.shard.map(|s| s.to_string()), entries, start.elapsed().as_millis() as u64);
    let file = index.save(&args.out)?;
    print!("{}", summary_text(&index, &file, &args.out));
    let signalled = interrupted.load(std::sync::atomic::Ordering::SeqCst);
    Ok(exit_code(&index, signalled, args.fail_on))
}

/// The jobs of shard `s`.
fn shard_of(jobs: Vec<Job>, s: shard::Shard, balance: Option<&Path>) -> Result<Vec<Job>> {
    let times: BTreeMap<(String, String), u64> = match balance {
        Some(path) => {
            let prev = Index::load(path)?;
            prev.functions.into_iter().map(|e| ((e.file, e.function), e.elapsed_ms)).collect()
        }
        None => BTreeMap::new(),
    };
    let keys: Vec<(String, String)> = jobs.iter().map(|j| (j.file.clone(), j.function.clone())).collect();
    let parts = shard::assign(&keys, s.count, &times)?;
    Ok(jobs.into_iter().zip(parts).filter(|(_, p)| *p + 1 == s.index).map(|(j, _)| j).collect())
}

/// Split the jobs into the entries kept from an earlier run (same hash,
/// a suite that a search ended by itself or by its own limit, its files
/// still there, naming its source as a suite written in OUT would;
/// copied into OUT when they come from another directory) and the jobs
/// to run.
fn reuse(jobs: Vec<Job>, args: &ProjectArgs, root: &Path) -> Result<(Vec<Entry>, Vec<Job>)> {
    let from = args.reuse_from.clone().unwrap_or_else(|| args.out.clone());
    let previous = if args.no_reuse || !from.join(index::FILE).is_file() { None } else { Some(Index::load(&from)?) };
    let Some(previous) = previous else { return Ok((Vec::new(), jobs)) };
    let same_dir = from.canonicalize().ok() == args.out.canonicalize().ok();
    let (mut kept, mut to_run) = (Vec::new(), Vec::new());
    for job in jobs {
        let source = crate::gen::relative_to(&root.join(&job.file), &args.out.join(&job.dir));
        let old = previous.get(&job.file, &job.function).filter(|e| reusable(e, &job, &from, &source));
        match old {
            Some(e) if same_dir || copy_dir(&from.join(&e.dir), &args.out.join(&job.dir)).is_ok() => {
                kept.push(Entry { reused: true, dir: job.dir.clone(), flags: job.flags.clone(), ..e.clone() });
            }
            _ => to_run.push(job),
        }
    }
    Ok((kept, to_run))
}

/// Whether an earlier entry can stand for `job`, whose suite's JSON
/// must name `source` (a suite copied from a directory at another depth
/// would name it wrongly: it is searched again instead).
fn reusable(e: &Entry, job: &Job, from: &Path, source: &Path) -> bool {
    let own_end = match e.status {
        Status::Complete => true,
        Status::Limit => {
            !e.reason.as_deref().is_some_and(|r| r.starts_with(run::RUN_BUDGET) || r.starts_with("interrupted"))
        }
        Status::Failed => false,
    };
    own_end
        && e.hash == job.hash
        && job.failure.is_none()
        && e.suite.as_deref().is_some_and(|s| names_source(&from.join(s), source))
}

/// Whether the suite JSON at `path` records `source` as its source.
fn names_source(path: &Path, source: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else { return false };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else { return false };
    json["source"].as_str() == Some(&*source.to_string_lossy())
}

/// Copy directory `from` to `to` (replacing it).
pub fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    if to.exists() {
        std::fs::remove_dir_all(to).with_context(|| format!("cannot replace {}", to.display()))?;
    }
    std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    let mut names: Vec<_> = std::fs::read_dir(from)?.collect::<std::io::Result<_>>()?;
    names.sort_by_key(|e| e.file_name());
    for entry in names {
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target).with_context(|| format!("cannot copy to {}", target.display()))?;
        }
    }
    Ok(())
}

/// The summary printed at the end of a run or a merge.
pub fn summary_text(index: &Index, file: &Path, out: &Path) -> String {
    let s = &index.summary;
    let files: BTreeSet<&str> = index.functions.iter().map(|e| e.file.as_str()).collect();
    let shard = index.shard.as_ref().map(|s| format!(" (shard {s})")).unwrap_or_default();
    let mut text = format!("pathwise project: {} function(s) in {} file(s){shard}\n", s.functions, files.len());
    text.push_str(&format!(
        "  complete {}, limit {}, failed {}; searched {}, reused {}\n  tests {}, error tests {}\n",
        s.complete, s.limit, s.failed, s.searched, s.reused, s.tests, s.errors
    ));
    for e in index.functions.iter().filter(|e| e.status != Status::Complete) {
        let what = if e.status == Status::Failed { "failed" } else { "limit" };
        text.push_str(&format!("  {what}: {}:{}: {}\n", e.file, e.function, e.reason.as_deref().unwrap_or("")));
    }
    text.push_str(&format!("wrote {}\ncheck them: pathwise replay {}\n", file.display(), out.display()));
    text
}

/// The exit code of a run (see the module doc).
pub fn exit_code(index: &Index, signalled: bool, fail_on: Option<crate::exit::FailOn>) -> i32 {
    let s = &index.summary;
    if fail_on == Some(crate::exit::FailOn::Errors) && s.errors > 0 {
        crate::exit::ERROR_TESTS
    } else if signalled {
        crate::exit::SIGNAL
    } else if s.failed > 0 {
        crate::exit::FUNCTIONS_FAILED
    } else if s.limit > 0 {
        crate::exit::LIMIT
    } else {
        crate::exit::COMPLETE
    }
}

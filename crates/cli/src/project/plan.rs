//! From compiled units to jobs: which functions are tested (`--files`,
//! `--functions`, `skip`, preconditions), each with `gen`'s options built
//! from `pathwise.toml` and the command line, its suite's directory and
//! its hash.
//!
//! A function's options go through `gen`'s own parser (clap, from the
//! `GenArgs` of `pathwise gen`), so that defaults, checks and meaning are
//! `gen`'s; the file's database flags are set on the parsed options. A
//! mistake in `pathwise.toml` (an unknown criterion, a bad `args` entry)
//! is an error before anything runs.

use std::path::Path;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Parser;
use globset::{Glob, GlobSet, GlobSetBuilder};

use super::config_file::ProjectConfig;
use super::index::{self, Flags};
use super::run::Job;
use super::units::{self, CompiledUnit};
use super::ProjectArgs;
use crate::gen::GenArgs;

/// `gen`'s options alone, parsed from the argument list a function's
/// settings make.
#[derive(Parser, Debug)]
#[command(no_binary_name = true)]
struct GenOnly {
    #[command(flatten)]
    gen: GenArgs,
}

/// A set of `--files` or `--functions` patterns; `None` when none given.
pub fn globs(patterns: &[String], what: &str) -> Result<Option<GlobSet>> {
    if patterns.is_empty() {
        return Ok(None);
    }
    let mut b = GlobSetBuilder::new();
    for p in patterns {
        b.add(Glob::new(p).with_context(|| format!("{what} `{p}` is not a valid pattern"))?);
    }
    Ok(Some(b.build()?))
}

/// The database flags as the index records them: paths relative to `root`.
pub fn index_flags(flags: &super::compdb::Flags, root: &Path) -> Flags {
    let rel = |p: &Path| units::relative_name(p, root);
    let mut extra = Vec::new();
    let mut it = flags.extra.iter();
    while let Some(a) = it.next() {
        extra.push(a.clone());
        if a == "-include" {
            extra.extend(it.next().map(|f| rel(Path::new(f))));
        }
    }
    Flags { include_dirs: flags.include_dirs.iter().map(|d| rel(d)).collect(), defines: flags.defines.clone(), extra }
}

/// Every job of the selected functions of `units`, by file then line.
pub fn jobs(units: &[CompiledUnit], root: &Path, config: &ProjectConfig, args: &ProjectArgs) -> Result<Vec<Job>> {
    let functions = globs(&args.functions, "--functions")?;
    let named_pre = config.preconditions().map(str::to_string).collect();
    let mut out = Vec::new();
    for (at, unit) in units.iter().enumerate() {
        let flags = index_flags(&unit.flags, root);
        if let Err(why) = &unit.frontend {
            out.push(Job {
                unit: at,
                file: unit.rel.clone(),
                function: "*".into(),
                line: 0,
                dir: index::suite_dir(&unit.rel, "*"),
                args: None,
                failure: Some(why.clone()),
                hash: String::new(),
                flags,
                timeout: Duration::ZERO,
                deepen: false,
            });
            continue;
        }
        for f in units::functions_of(at, unit, &named_pre) {
            let selected = functions
                .as_ref()
                .is_none_or(|g| g.is_match(&f.name) || g.is_match(format!("{}:{}", unit.rel, f.name)));
            let options = config.options_for(&unit.rel, &f.name);
            if !selected || options.skip == Some(true) {
                continue;
            }
            let job = job(unit, at, &f, &options, &flags, args)
                .with_context(|| format!("pathwise.toml: options of {}:{}", unit.rel, f.name))?;
            out.push(job);
        }
    }
    Ok(out)
}

/// The job of function `f` of `unit` with `options`.
fn job(
    unit: &CompiledUnit,
    at: usize,
    f: &units::Function,
    options: &super::config_file::FunctionOptions,
    flags: &Flags,
    args: &ProjectArgs,
) -> Result<Job> {
    let Ok(fe) = &unit.frontend else { bail!("the file could not be compiled") };
    let dir = index::suite_dir(&unit.rel, &f.name);
    let precondition = options.precondition.clone().or_else(|| units::conventional_precondition(fe, &f.name));
    let k = options.k.or(args.k);
    let timeout = options.timeout.map(Duration::from_secs_f64).unwrap_or(args.timeout_per_function);
    let mut argv: Vec<String> = Vec::new();
    if let Some(k) = k {
        argv.extend(["--k".into(), k.to_string()]);
    }
    if let Some(c) = &options.criterion {
        argv.extend(["--criterion".into(), c.clone()]);
    }
    for e in options.externals.iter().flatten() {
        argv.extend(["--external".into(), e.clone()]);
    }
    if let Some(p) = &precondition {
        argv.extend(["--precondition".into(), p.clone()]);
    }
    argv.extend(["--timeout".into(), format!("{}", timeout.as_secs_f64())]);
    argv.extend(options.args.iter().flatten().cloned());
    let mut full: Vec<String> =
        vec![unit.file.display().to_string(), "--function".into(), f.name.clone(), "--out".into()];
    full.push(args.out.join(&dir).display().to_string());
    full.extend(argv.iter().cloned());
    let mut gen = GenOnly::try_parse_from(&full).map_err(|e| anyhow!("{}", first_line(&e.to_string())))?.gen;
    if gen.method != "concolic" || !gen.summaries.is_empty() || gen.json {
        bail!("`pathwise project` runs the concolic search and writes its own files: --method vc, --summary and --json are not options of a function");
    }
    gen.include_dirs = unit.flags.include_dirs.iter().cloned().chain(gen.include_dirs).collect();
    gen.defines = unit.flags.defines.iter().cloned().chain(gen.defines).collect();
    let options_text = format!("{argv:?}\n{flags:?}\n");
    Ok(Job {
        unit: at,
        file: unit.rel.clone(),
        function: f.name.clone(),
        line: f.line,
        hash: units::function_hash(fe, &f.name, precondition.as_deref(), &options_text),
        dir,
        args: Some(gen),
        failure: f.unsupported.clone(),
        flags: flags.clone(),
        timeout,
        deepen: k.is_none(),
    })
}

/// The first line of clap's message, without its `error: `.
fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().trim_start_matches("error: ").to_string()
}

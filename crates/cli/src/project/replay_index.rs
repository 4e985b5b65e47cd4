//! `pathwise replay OUT` where OUT holds a project's `index.json`: every
//! function's suite with tests is built and run, each with its file's own
//! flags from the index (include directories and `-include` files read
//! from the project's root as the index names it), and reported under
//! `FILE:FUNCTION`. Failed functions have no suite and are listed, not
//! replayed. Exit status as for one directory: 1 when a suite fails
//! (or cannot be built), 4 when no suite has a test, else 0.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;

use super::index::{Entry, Index};
use crate::replay::{print_outcome, replay_all, ReplayArgs, ReplayOptions, ReplayOutcome, SuiteFiles};

/// The options to replay `e`'s suite of the index in `out`.
pub fn options_for(out: &Path, index: &Index, e: &Entry, args: &ReplayArgs) -> ReplayOptions {
    let root = out.join(&index.root);
    let from_root = |p: &str| -> PathBuf {
        super::compdb::lexical_join(&std::path::absolute(&root).unwrap_or(root.clone()), Path::new(p))
    };
    let mut extra = Vec::new();
    let mut it = e.flags.extra.iter();
    while let Some(a) = it.next() {
        extra.push(a.clone());
        if a == "-include" {
            extra.extend(it.next().map(|f| from_root(f).display().to_string()));
        }
    }
    ReplayOptions {
        dir: out.join(&e.dir),
        include_dirs: e
            .flags
            .include_dirs
            .iter()
            .map(|d| from_root(d))
            .chain(args.include_dirs.iter().cloned())
            .collect(),
        defines: e.flags.defines.iter().chain(&args.defines).cloned().collect(),
        extra_args: extra,
        run_timeout: Duration::from_secs(args.run_timeout.max(1)),
    }
}

/// Replay every suite of the index in `args.dir`; returns the exit code.
pub fn run(args: &ReplayArgs) -> Result<i32> {
    let index = Index::load(&args.dir)?;
    let (mut failing, mut replayed, mut with_tests) = (Vec::new(), 0, 0);
    let mut reported = Vec::new();
    for e in &index.functions {
        let name = format!("{}:{}", e.file, e.function);
        if e.suite.is_none() {
            println!("== {name} == not replayed: {}\n", e.reason.as_deref().unwrap_or("no suite"));
            continue;
        }
        println!("== {name} ==");
        replayed += 1;
        let opts = options_for(&args.dir, &index, e, args);
        let code = match replay_all(&opts) {
            Ok(outcomes) => {
                let codes: Vec<i32> = outcomes.iter().map(|(_, o)| print_outcome(o)).collect();
                reported.extend(outcomes.into_iter().map(|(f, o)| (name.clone(), f, o)));
                if codes.contains(&crate::exit::FAILED) {
                    crate::exit::FAILED
                } else if codes.iter().all(|&c| c == crate::exit::NOTHING_TO_REPLAY) {
                    crate::exit::NOTHING_TO_REPLAY
                } else {
                    crate::exit::COMPLETE
                }
            }
            Err(err) => {
                println!("error: {err:#}");
                let files = SuiteFiles {
                    c_file: opts.dir.join(format!("{}_tests.c", e.function)),
                    json_file: opts.dir.join(format!("{}_tests.json", e.function)),
                    name: e.function.clone(),
                };
                let broken = ReplayOutcome { broken: Some(format!("{err:#}")), ..Default::default() };
                reported.push((name.clone(), files, broken));
                crate::exit::FAILED
            }
        };
        if code == crate::exit::FAILED {
            failing.push(name);
        } else if code == crate::exit::COMPLETE {
            with_tests += 1;
        }
        println!();
    }
    let verdict =
        if failing.is_empty() { "none failed".to_string() } else { format!("failing: {}", failing.join(", ")) };
    println!("{replayed} suites replayed ({with_tests} with tests); {verdict}");
    let reported: Vec<_> = reported.iter().map(|(name, f, o)| (name.clone(), f, o)).collect();
    crate::replay_reports::write_labelled(args, &reported)?;
    Ok(if !failing.is_empty() {
        crate::exit::FAILED
    } else if with_tests == 0 {
        crate::exit::NOTHING_TO_REPLAY
    } else {
        crate::exit::COMPLETE
    })
}

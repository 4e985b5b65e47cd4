//! `pathwise merge OUT1 OUT2... --out DIR`: the outputs of `pathwise
//! project --shard I/N` joined into one, as one run would have written
//! it: every suite directory copied under DIR and one index of all the
//! functions, in the same order and with the same counts.
//!
//! A function may appear in one output only (shards are disjoint; two
//! runs of the same function are a mistake). The project's root is
//! recorded relative to DIR: `--root` when given, else the root an
//! input's index names when it holds that index's files from where the
//! input now is (an artifact downloaded elsewhere may not), else the
//! current directory when it holds them.
//!
//! Each suite's own JSON names its source relative to where its shard was
//! written (`gen`'s rule): replayed alone, it finds the source when DIR is
//! at the depth the shards' outputs had (as in `docs/ci/`); replayed
//! through the merged index, always (the index gives the root).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use clap::Args;

use super::index::{Entry, Index};

/// Options of `pathwise merge`.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// Output directories of `pathwise project` (each with its index.json).
    #[arg(required = true, value_name = "OUTDIR")]
    pub dirs: Vec<PathBuf>,
    /// Where the merged output goes.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: PathBuf,
    /// The project's root [default: the inputs' root, else the current directory].
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Run `pathwise merge`; returns the exit code.
pub fn run(args: &MergeArgs) -> Result<i32> {
    let mut inputs = Vec::new();
    for dir in &args.dirs {
        inputs.push((dir.clone(), Index::load(dir)?));
    }
    crate::gen::check_out_dir(&args.out)?;
    let root = root_of(&inputs, args.root.as_deref())?;
    let mut seen: BTreeMap<(String, String), PathBuf> = BTreeMap::new();
    let mut entries: Vec<Entry> = Vec::new();
    let mut elapsed = 0;
    std::fs::create_dir_all(&args.out)?;
    let out_real = args.out.canonicalize()?;
    for (dir, index) in &inputs {
        elapsed += index.elapsed_ms;
        for e in &index.functions {
            if let Some(first) = seen.insert((e.file.clone(), e.function.clone()), dir.clone()) {
                bail!(
                    "{}:{} is in both {} and {}: merge the outputs of disjoint shards",
                    e.file,
                    e.function,
                    first.display(),
                    dir.display()
                );
            }
            let from = dir.join(&e.dir);
            if from.is_dir() && dir.canonicalize().ok().as_deref() != Some(out_real.as_path()) {
                super::copy_dir(&from, &args.out.join(&e.dir))?;
            }
            entries.push(e.clone());
        }
    }
    let root_rel = crate::gen::relative_to(&root, &args.out).display().to_string();
    let merged = Index::new(root_rel, None, entries, elapsed);
    let file = merged.save(&args.out)?;
    print!("{}", super::summary_text(&merged, &file, &args.out));
    Ok(crate::exit::COMPLETE)
}

/// The project's root (see the module doc).
fn root_of(inputs: &[(PathBuf, Index)], given: Option<&Path>) -> Result<PathBuf> {
    if let Some(root) = given {
        return Ok(std::path::absolute(root)?);
    }
    let holds = |root: &Path, index: &Index| {
        index.functions.iter().all(|e| e.file.starts_with('/') || root.join(&e.file).is_file())
    };
    for (dir, index) in inputs {
        let named = dir.join(&index.root);
        if holds(&named, index) {
            return Ok(std::path::absolute(named)?);
        }
    }
    let here = std::env::current_dir()?;
    if inputs.iter().all(|(_, index)| holds(&here, index)) {
        return Ok(here);
    }
    bail!("cannot find the project's root (the files the indexes name): give --root DIR")
}

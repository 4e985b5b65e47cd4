//! Static paths of a C function up to a depth: seed 000's algorithm (Peña,
//! Sánchez-Hernández, "White-Box Path Generation in Recursive Programs")
//! over the Pathwise IR, and their feasibility checked by the engine.
//!
//! - [`template`]: per-function CFGs with loops as units of their own (the
//!   seed's tail-recursive loop functions) and their template paths;
//! - [`structure`]: the call graph of units with tail and non-tail edges,
//!   its split into subgraphs with one entry each, its cycles;
//! - [`expand`]: the expansion of template paths up to depth D;
//! - [`feasibility`]: each static path feasible (a test of the engine's
//!   search at the same bound follows it), infeasible (it extends a prefix
//!   the search refuted, or takes the other side of a decision that no
//!   input decides) or unknown.
//!
//! A static path is its sequence of branch decisions: from the entry, the
//! code between two decisions is deterministic, so the sequence names the
//! path. Calls of functions without a body (the engine's library models)
//! and through pointers are straight-line code here: the byte tests inside
//! a modelled `strlen` or the choice of a function pointer's target are
//! decisions of the engine's paths, not of the static ones, so units using
//! them get `unknown` paths under `--feasibility`.
//!
//! Dependency direction: `pathwise-paths` uses `pathwise-ir` for the
//! enumeration and the engine's public search (with its `Observer` hooks
//! `on_run` and `on_refuted`) for feasibility; nothing depends on it but
//! the CLI.

pub mod expand;
pub mod feasibility;
pub mod structure;
pub mod template;

use pathwise_ir::{Block, FuncId, Program};

pub use structure::Structure;

/// One decision of a static path: the branch ending `block` of `func`,
/// side `taken`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Step {
    pub func: FuncId,
    pub block: Block,
    pub taken: bool,
}

/// A static path of the function under test.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StaticPath {
    pub steps: Vec<Step>,
    /// The seed's depth: the most iterations of a loop per entry, and the
    /// deepest recursion (activations of a cycle's function less one).
    pub depth: u32,
    /// The path ends at an `unreachable` (after `abort()`, `exit()`)
    /// rather than by returning from the function under test.
    pub aborts: bool,
}

/// Every static path up to a depth, in depth-first order (then-side
/// first), with the seed's call-graph structure.
#[derive(Clone, Debug)]
pub struct StaticPaths {
    pub paths: Vec<StaticPath>,
    pub structure: Structure,
    pub depth: u32,
}

impl StaticPaths {
    /// Paths per exact depth, index = depth.
    pub fn per_depth(&self) -> Vec<usize> {
        let mut n = vec![0; self.depth as usize + 1];
        for p in &self.paths {
            n[p.depth as usize] += 1;
        }
        n
    }
}

/// Why the paths could not be enumerated.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PathsError {
    /// More paths (of the function or of one of its units) than allowed;
    /// the count reached.
    TooMany(usize),
    /// Control flow that is not a natural loop (a `goto` into a loop).
    Irreducible(String),
    /// A loop that can iterate without passing its iteration start: its
    /// iterations cannot be counted.
    Uncounted(String),
    /// The function is a declaration or not in the program.
    NoBody(String),
}

impl std::fmt::Display for PathsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathsError::TooMany(n) => write!(f, "more than the allowed number of paths ({n} so far)"),
            PathsError::Irreducible(w) => write!(f, "irreducible control flow in {w}: static paths need natural loops"),
            PathsError::Uncounted(w) => write!(f, "a loop iterates without passing its iteration start in {w}"),
            PathsError::NoBody(w) => write!(f, "function `{w}` has no body"),
        }
    }
}

impl std::error::Error for PathsError {}

/// Every static path of `func` of depth at most `depth`; fails with
/// [`PathsError::TooMany`] when a unit or the function has more than
/// `max_paths`.
pub fn enumerate(program: &Program, func: FuncId, depth: u32, max_paths: usize) -> Result<StaticPaths, PathsError> {
    let Some(f) = program.funcs.get(func.0 as usize) else { return Err(PathsError::NoBody(format!("#{}", func.0))) };
    if f.is_declaration() {
        return Err(PathsError::NoBody(f.name.clone()));
    }
    let mut ex = expand::Expander::new(program, depth, max_paths);
    let structure = structure::compute(&mut ex, program, func)?;
    let pieces = ex.top(func)?;
    let mut paths: Vec<StaticPath> = pieces
        .iter()
        .map(|p| StaticPath {
            steps: p.steps.clone(),
            depth: p.depth,
            aborts: p.end.is_none() || matches!(p.end, Some(template::End::Abort(_))),
        })
        .collect();
    // Two paths differ first at one branch (the code before it is the
    // same), so ordering by the sides taken is the depth-first order.
    paths.sort_by(|a, b| {
        let ka = a.steps.iter().map(|s| !s.taken);
        let kb = b.steps.iter().map(|s| !s.taken);
        ka.cmp(kb)
    });
    Ok(StaticPaths { paths, structure, depth })
}

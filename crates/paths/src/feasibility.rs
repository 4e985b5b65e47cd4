//! Feasibility of static paths, by the engine's own search at the same
//! bound (`k` = D, strict loop count).
//!
//! The depth-first search explores the tree of path prefixes once, solving
//! each prefix once however many paths share it, and proves prefixes
//! infeasible. Through the `Observer` hooks we rebuild that tree over *all*
//! branches of each run (`RunRecord::path`, concrete ones included: static
//! paths have them too), keyed like static decisions by (function,
//! condition location, side), and mark on it
//! - the prefixes the search refuted, with the symbolic decisions of the
//!   prefix (those the solver found contradictory; concrete branches
//!   constrain no input);
//! - at each node, whether the runs' next branch was concrete: its
//!   condition does not depend on the inputs after that prefix, so its
//!   other side is infeasible without a query.
//!
//! A static path is then *feasible* when a test returns along exactly its
//! decisions (witness: the test's inputs), *infeasible* when it runs into a
//! refuted prefix or into the other side of a concrete branch, and
//! *unknown* otherwise (a search cut short, or decisions the static paths
//! do not model). Claims are made only when no symbolic value was
//! concretised (a concretised value turns input-dependent branches
//! concrete). Both rules are proofs, so they hold for a search cut short
//! too (a timeout, prefixes abandoned under the precondition budget).

use pathwise_engine::config::Config;
use pathwise_engine::path::{EntryKind, Region};
use pathwise_engine::run::RunRecord;
use pathwise_engine::suite::{Outcome, PathStep, TestSuite};
use pathwise_engine::{EngineError, Observer};
use pathwise_expr::SolverBackend;
use pathwise_ir::{Loc, Program};
use rustc_hash::FxHashMap;

use crate::{StaticPaths, Step};

/// A decision as both sides see it: function name, condition location, side.
type Key = (String, Loc, bool);

/// The verdict on one static path.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// Test `test` (index into the suite's tests) follows the path.
    Feasible { test: usize },
    /// The first `prefix` decisions of the path are contradictory:
    /// `conflict` lists the positions (into the path's steps) of the
    /// symbolic decisions among them that the solver refuted together, or,
    /// when `constant`, the last decision's condition does not depend on
    /// the inputs after the decisions before it.
    Infeasible { prefix: usize, conflict: Vec<usize>, constant: bool },
    /// The search decided neither.
    Unknown,
}

/// The verdicts, in the order of the static paths, and the search's suite.
pub struct Feasibility {
    pub verdicts: Vec<Verdict>,
    pub suite: TestSuite,
}

#[derive(Default)]
struct Node {
    children: Vec<(Key, usize)>,
    /// The next branch of the runs through this node was concrete (all
    /// runs agreeing); `None` when no run went on from here.
    next_concrete: Option<bool>,
    /// This prefix was refuted: the positions of its symbolic decisions.
    refuted: Option<Vec<usize>>,
}

/// The tree of explored prefixes, built from the engine's hooks.
struct Tree<'o> {
    nodes: Vec<Node>,
    inner: &'o mut dyn Observer,
}

impl Tree<'_> {
    fn child(&self, n: usize, k: &Key) -> Option<usize> {
        self.nodes[n].children.iter().find(|(c, _)| c == k).map(|&(_, i)| i)
    }

    fn child_or_new(&mut self, n: usize, k: &Key) -> usize {
        if let Some(c) = self.child(n, k) {
            return c;
        }
        self.nodes.push(Node::default());
        let c = self.nodes.len() - 1;
        self.nodes[n].children.push((k.clone(), c));
        c
    }

    /// Per step of the run: whether a path-condition entry records it.
    fn symbolic_steps(run: &RunRecord) -> Vec<bool> {
        let mut sym = vec![false; run.seen.path.len()];
        for e in run.main_entries.iter().filter(|e| e.region == Region::Main) {
            let i = match e.kind {
                EntryKind::Decision { .. } => e.step as usize - 1,
                EntryKind::Library { .. } => e.step as usize,
                _ => continue,
            };
            if let Some(s) = sym.get_mut(i) {
                *s = true;
            }
        }
        sym
    }
}

fn key(s: &PathStep) -> Key {
    (s.func.to_string(), s.loc, s.taken)
}

impl Observer for Tree<'_> {
    fn on_test(
        &mut self,
        test: &pathwise_engine::suite::TestCase,
        coverage: &pathwise_engine::setup::RunCoverage,
        stats: &pathwise_engine::suite::Stats,
    ) {
        self.inner.on_test(test, coverage, stats);
    }

    fn should_stop(&mut self) -> bool {
        self.inner.should_stop()
    }

    fn on_run(&mut self, run: &RunRecord) {
        let sym = Tree::symbolic_steps(run);
        let mut n = 0;
        for (i, s) in run.seen.path.iter().enumerate() {
            let concrete = !sym[i];
            let slot = &mut self.nodes[n].next_concrete;
            *slot = Some(slot.unwrap_or(concrete) && concrete);
            n = self.child_or_new(n, &key(s));
        }
    }

    fn on_refuted(&mut self, run: &RunRecord, j: usize) {
        let e = &run.main_entries[j];
        if !matches!(e.kind, EntryKind::Decision { .. }) || e.region != Region::Main || e.step == 0 {
            return;
        }
        let last = e.step as usize - 1;
        let sym = Tree::symbolic_steps(run);
        let mut n = 0;
        for s in &run.seen.path[..last] {
            n = self.child_or_new(n, &key(s));
        }
        let mut k = key(&run.seen.path[last]);
        k.2 = !k.2;
        let n = self.child_or_new(n, &k);
        let conflict = (0..=last).filter(|&i| sym[i]).collect();
        self.nodes[n].refuted = Some(conflict);
    }
}

/// Run the engine's search with `config` (its `k` should be the paths'
/// depth, its loop count strict) and classify every static path.
pub fn check(
    program: &Program,
    paths: &StaticPaths,
    config: &Config,
    backend: &mut dyn SolverBackend,
    observer: &mut dyn Observer,
) -> Result<Feasibility, EngineError> {
    let mut tree = Tree { nodes: vec![Node::default()], inner: observer };
    let suite = pathwise_engine::search::generate(program, config, backend, &mut tree)?;
    let sound = suite.stats.values_concretised == 0 && suite.stats.float_values_concretised == 0;
    let mut tests: FxHashMap<(Vec<Key>, bool), usize> = FxHashMap::default();
    for (i, t) in suite.tests.iter().enumerate() {
        let aborts = match &t.outcome {
            Outcome::Returned => false,
            Outcome::Error(e) if e.kind.traps_natively() => true,
            _ => continue,
        };
        tests.entry((t.path.iter().map(key).collect(), aborts)).or_insert(i);
    }
    let verdicts = paths
        .paths
        .iter()
        .map(|p| {
            let keys: Vec<Key> = p.steps.iter().map(|s| static_key(program, s)).collect();
            if let Some(&test) = tests.get(&(keys.clone(), p.aborts)) {
                return Verdict::Feasible { test };
            }
            if !sound {
                return Verdict::Unknown;
            }
            classify(&tree, &keys)
        })
        .collect();
    Ok(Feasibility { verdicts, suite })
}

/// A static decision as the engine's path steps spell it.
pub fn static_key(program: &Program, s: &Step) -> Key {
    let f = program.func(s.func);
    (f.name.clone(), f.block(s.block).term_loc, s.taken)
}

/// Walk the tree along a path that no test follows.
fn classify(tree: &Tree, keys: &[Key]) -> Verdict {
    let mut n = 0;
    for (i, k) in keys.iter().enumerate() {
        match tree.child(n, k) {
            Some(c) => {
                if let Some(conflict) = &tree.nodes[c].refuted {
                    return Verdict::Infeasible { prefix: i + 1, conflict: conflict.clone(), constant: false };
                }
                n = c;
            }
            None if tree.nodes[n].next_concrete == Some(true) => {
                return Verdict::Infeasible { prefix: i + 1, conflict: vec![i], constant: true };
            }
            None => return Verdict::Unknown,
        }
    }
    Verdict::Unknown
}

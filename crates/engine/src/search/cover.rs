//! Statement and branch covers for the concolic search (`gen --criterion
//! statements|branches`, issue 12): the k-path search with guided
//! generation's rule (seed 003, ch. 5) applied to every block or branch
//! side at once. A test is kept only when it covers a goal no kept test
//! covers (or finds a new error), the search stops as soon as every goal is
//! covered, and a last pass drops tests whose goals the others cover.
//!
//! The goals are those of the VC method's covers (`pathwise-vc`): every
//! located block, or both sides of every two-way branch, of the function
//! under test and the functions it can call (library code excluded, as in
//! the predicted coverage). The exploration is the k-path search's own, so
//! when it ends exhaustively every goal left has no feasible path within
//! the bound: it is reported infeasible, as the VC method's complete
//! cover reports it.

use pathwise_ir::{Block, FuncId, Loc, Program, Terminator};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::analysis::ProgramInfo;
use crate::cost::Cover;
use crate::run::RunRecord;
use crate::suite::{CoverReport, InfeasibleGoal, Outcome, StopReason, TestCase};

/// One goal of a cover.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
enum Goal {
    Block(FuncId, Block),
    Side(FuncId, Block, bool),
}

/// A cover's state during the search.
pub(super) struct CoverState {
    kind: Cover,
    /// Every goal in function and block order, with where it is.
    all: Vec<(Goal, String, Loc)>,
    index: FxHashMap<Goal, usize>,
    covered: FxHashSet<usize>,
    /// Per accepted test, in order: its goals and whether it found an error
    /// no earlier test found (such a test is kept for that alone).
    per_test: Vec<(Vec<usize>, bool)>,
    errors: FxHashSet<(&'static str, Loc)>,
}

impl CoverState {
    /// The goals of `kind` for `main` and its callees.
    pub(super) fn new(program: &Program, info: &ProgramInfo, main: FuncId, kind: Cover) -> CoverState {
        let mut funcs: Vec<FuncId> = info
            .callgraph
            .reachable_from(main)
            .into_iter()
            .filter(|&id| !program.func(id).is_declaration() && !program.is_library(id))
            .collect();
        funcs.sort();
        let mut all = Vec::new();
        for f in funcs {
            let fd = program.func(f);
            for (i, b) in fd.blocks.iter().enumerate() {
                let block = Block(i as u32);
                let first = b.insts.iter().map(|i| i.loc).find(|l| !l.is_none()).unwrap_or(b.term_loc);
                match kind {
                    Cover::Statements if !first.is_none() => all.push((Goal::Block(f, block), fd.name.clone(), first)),
                    Cover::Branches if matches!(b.term, Terminator::Branch { .. }) => {
                        for side in [true, false] {
                            all.push((Goal::Side(f, block, side), fd.name.clone(), b.term_loc));
                        }
                    }
                    _ => {}
                }
            }
        }
        let index = all.iter().enumerate().map(|(i, g)| (g.0, i)).collect();
        CoverState {
            kind,
            all,
            index,
            covered: FxHashSet::default(),
            per_test: Vec::new(),
            errors: FxHashSet::default(),
        }
    }

    /// The goals `replay` covers, sorted.
    fn goals_of(&self, replay: &RunRecord) -> Vec<usize> {
        let mut out: Vec<usize> = match self.kind {
            Cover::Statements => {
                replay.seen.blocks.iter().filter_map(|&(f, b)| self.index.get(&Goal::Block(f, b))).copied().collect()
            }
            Cover::Branches => replay
                .seen
                .sides
                .iter()
                .filter_map(|&(f, b, s)| self.index.get(&Goal::Side(f, b, s)))
                .copied()
                .collect(),
        };
        out.sort_unstable();
        out
    }

    /// Whether `test` (whose replay is `replay`) covers a new goal or finds
    /// a new error; if so it is recorded as kept.
    pub(super) fn accept(&mut self, test: &TestCase, replay: &RunRecord) -> bool {
        let goals = self.goals_of(replay);
        let new_error = match &test.outcome {
            Outcome::Error(e) => self.errors.insert((e.kind.name(), e.loc)),
            _ => false,
        };
        if !new_error && goals.iter().all(|g| self.covered.contains(g)) {
            return false;
        }
        self.covered.extend(goals.iter().copied());
        self.per_test.push((goals, new_error));
        true
    }

    /// Every goal is covered: the search can stop.
    pub(super) fn done(&self) -> bool {
        self.covered.len() == self.all.len()
    }

    /// Which accepted tests another test makes redundant: considered from
    /// the fewest goals to the most (ties in test order), a test is dropped
    /// when every goal it covers is covered by another test still kept.
    /// Tests kept for a new error stay.
    pub(super) fn redundant(&self) -> Vec<bool> {
        let mut count = vec![0usize; self.all.len()];
        for (goals, _) in &self.per_test {
            for &g in goals {
                count[g] += 1;
            }
        }
        let mut order: Vec<usize> = (0..self.per_test.len()).collect();
        order.sort_by_key(|&i| (self.per_test[i].0.len(), i));
        let mut out = vec![false; self.per_test.len()];
        for i in order {
            let (goals, error) = &self.per_test[i];
            if !*error && goals.iter().all(|&g| count[g] > 1) {
                out[i] = true;
                for &g in goals {
                    count[g] -= 1;
                }
            }
        }
        out
    }

    /// The report for the tests `kept` (indices into the accepted tests).
    /// `stop`: how the search ended (after the "undecided" check).
    pub(super) fn report(&self, kept: &[usize], stop: &StopReason) -> CoverReport {
        let covered: FxHashSet<usize> = kept.iter().flat_map(|&i| self.per_test[i].0.iter().copied()).collect();
        let complete = covered.len() == self.all.len() || *stop == StopReason::Complete;
        let infeasible = if complete {
            (0..self.all.len())
                .filter(|g| !covered.contains(g))
                .map(|g| {
                    let (goal, function, loc) = &self.all[g];
                    let side = match *goal {
                        Goal::Side(_, _, s) => Some(s),
                        Goal::Block(..) => None,
                    };
                    InfeasibleGoal { function: function.clone(), loc: *loc, side }
                })
                .collect()
        } else {
            Vec::new()
        };
        CoverReport {
            criterion: self.kind.name().to_string(),
            goals: self.all.len(),
            covered: covered.len(),
            complete,
            infeasible,
        }
    }
}

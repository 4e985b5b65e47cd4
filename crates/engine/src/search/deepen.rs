//! Deepening the bound (`gen` without `--k`): the depth-first k-path (or
//! block-k) search runs with k = 1, 2, ... up to `Config::k` while the
//! time budget allows (`Strategy::Deepening`).
//!
//! k-paths nest: a path with at most k iterations of each loop has at most
//! k + 1, so every test found at k is a test at k + 1. In the default
//! order, new branches first (deepening always has a time budget, see
//! [`crate::config::SearchOrder`]), each k goes on from where the bound
//! stopped the previous one: the alternatives it blocked are reopened and
//! the runs it cut continued, and nothing solved at k is solved again
//! (`generational.rs`). In the depth-first order (`--order depth-first`)
//! each k restarts the search from the first run (`Machine::k` is a cell,
//! as in whole-program mode's deepening, `guided.rs`); the solver's query
//! cache answers the prefixes solved at smaller k again, and a path
//! already turned into a test is never emitted twice (`Search::seen`).
//! Either way the suite after k = K is complete is, as a set of paths, the
//! suite of an explicit `--k K` run, followed by the tests found at K + 1
//! before the budget ran out; the order is deterministic (k by k).
//!
//! Deepening stops at the first k whose search ends by itself without the
//! bound cutting any run or blocking any side (no `BoundSite` recorded):
//! its suite is then complete for every k. Otherwise it goes on to
//! `Config::k`, the largest k it tries, or until the stop (the budget).

use std::collections::BTreeSet;

use super::Search;
use crate::suite::{BoundReport, BoundSite, StopReason};

/// How far deepening got.
#[derive(Default)]
pub(crate) struct Progress {
    /// The largest k whose search ended by itself, with where the bound
    /// cut paths in that search.
    complete: Option<(u32, BTreeSet<BoundSite>)>,
    /// The k whose search the stop cut short.
    partial: Option<u32>,
}

impl Search<'_, '_> {
    /// The depth-first search at k = 1, 2, ... (see the module's comment).
    pub(crate) fn explore_deepening(&mut self) -> StopReason {
        let generational = crate::strategy::Strategy::new_branches_first(self.config) == Ok(true);
        let mut frontier = None;
        loop {
            let k = self.m.k.get();
            self.bound_sites.clear();
            let stop = if generational { self.deepen_generational(&mut frontier) } else { self.explore() };
            if !matches!(stop, StopReason::Complete | StopReason::Explored) {
                self.deepening.partial = Some(k);
                return stop;
            }
            let sites = std::mem::take(&mut self.bound_sites);
            let bound_hit = !sites.is_empty();
            self.deepening.complete = Some((k, sites));
            if !bound_hit || k >= self.config.k {
                return stop;
            }
            self.m.k.set(k + 1);
        }
    }
}

/// The suite's k and bound report: for a deepened search the largest
/// complete k (the k searched when none is) and the places where the bound
/// cut paths at that k; otherwise the search's k and places.
pub(crate) fn report(deepened: bool, k: u32, progress: Progress, sites: BTreeSet<BoundSite>) -> (u32, BoundReport) {
    if !deepened {
        return (k, BoundReport { deepened, partial_k: None, at_bound: sites.into_iter().collect() });
    }
    let partial_k = progress.partial;
    match progress.complete {
        Some((complete, at)) => (complete, BoundReport { deepened, partial_k, at_bound: at.into_iter().collect() }),
        None => (k, BoundReport { deepened, partial_k, at_bound: sites.into_iter().collect() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::BoundKind;
    use pathwise_ir::Loc;

    fn site(line: u32) -> BoundSite {
        BoundSite { loc: Loc { file: 0, line, col: 5 }, kind: BoundKind::Loop }
    }

    #[test]
    fn the_report_gives_the_largest_complete_k_and_its_sites() {
        let progress = Progress { complete: Some((9, [site(17)].into())), partial: Some(10) };
        let (k, r) = report(true, 10, progress, [site(17), site(30)].into());
        assert_eq!((k, r.partial_k, r.at_bound), (9, Some(10), vec![site(17)]));
        let (k, r) = report(true, 1, Progress { complete: None, partial: Some(1) }, [site(30)].into());
        assert_eq!((k, r.partial_k, r.at_bound), (1, Some(1), vec![site(30)]));
        let (k, r) = report(false, 2, Progress::default(), [site(30), site(17)].into());
        assert_eq!((k, r.deepened, r.at_bound), (2, false, vec![site(17), site(30)]));
    }
}

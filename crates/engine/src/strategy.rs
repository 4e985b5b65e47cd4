//! How a search chooses its runs: one [`Strategy`] per search, derived from
//! the configuration and validated here (not by each front end), so that a
//! combination the engine cannot honour is an error before any run.
//!
//! The goals the depth-first search keeps tests for (statement and branch
//! covers, all local paths, a partial trace, targets reached, cost
//! policies) are filters over its runs, not strategies: they combine.

use crate::config::{Config, Criterion, SearchOrder};
use crate::cost::CostModel;

/// The order in which a search explores paths.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// PathCrawler's depth-first k-path (or block-k) search (seed 002),
    /// with the goals' filters.
    DepthFirst,
    /// Resource-driven generation (seed 003, ch. 4.4): bounded abstract
    /// traces in decreasing order of their cost (`search/driven.rs`).
    ResourceDriven,
    /// `--target` by trace-guided generation (seed 003, ch. 5:
    /// `search/targeted.rs`); units calling through function pointers
    /// fall back to the depth-first search keeping target-reaching tests.
    GuidedTargets,
    /// A whole program whose inputs are its `__VERIFIER_nondet_*()` calls,
    /// the bound deepened between searches (`testcomp`).
    WholeProgram,
    /// The depth-first search with the bound deepened, k = 1, 2, ...
    /// (`gen` without `--k`; `search/deepen.rs`): for the plain search
    /// only, whose suites nest (every k-path is a (k + 1)-path).
    Deepening,
}

impl Strategy {
    /// The strategy `config` asks for, or why it cannot be honoured.
    pub fn choose(config: &Config) -> Result<Strategy, String> {
        let goals = &config.goals;
        let own_paths = config.criterion == Criterion::KPath && goals.cover.is_none() && !goals.local_paths;
        if config.program_mode.is_some() {
            return Ok(Strategy::WholeProgram);
        }
        Strategy::new_branches_first(config)?;
        if config.deepen {
            return if Strategy::can_deepen(config) {
                Ok(Strategy::Deepening)
            } else {
                Err("deepening (no --k) works with the plain search only: give --k with goals, covers or --compositional".into())
            };
        }
        if goals.driven {
            if !own_paths {
                return Err(
                    "--resource-driven works with the concolic k-path search only (not another --criterion)".into()
                );
            }
            if !goals.targets.is_empty() || goals.trace.is_some() {
                return Err("--resource-driven cannot be combined with --target or --trace".into());
            }
            return match goals.costs.first() {
                None => Err("--resource-driven: give the cost model that orders the traces with --cost".into()),
                Some(CostModel::Memory) => Err("--resource-driven: the memory model is not observable on abstract traces (a size may depend on the inputs); order by instructions or calls".into()),
                Some(_) => Ok(Strategy::ResourceDriven),
            };
        }
        // Targets by trace-guided generation, over loop-k as the thesis
        // (and the abstraction) counts it; a partial trace keeps the
        // depth-first search.
        if !goals.targets.is_empty() && own_paths && goals.trace.is_none() {
            return Ok(Strategy::GuidedTargets);
        }
        Ok(Strategy::DepthFirst)
    }

    /// Whether `config`'s search can deepen its bound: the plain
    /// depth-first search only. Goals keep or order tests by what the whole
    /// bounded search found, and summaries are computed at one k: their
    /// suites do not nest.
    pub fn can_deepen(config: &Config) -> bool {
        let g = &config.goals;
        config.program_mode.is_none()
            && g.cover.is_none()
            && !g.local_paths
            && !g.driven
            && g.targets.is_empty()
            && g.trace.is_none()
            && g.costs.is_empty()
            && g.policies.is_empty()
            && !config.compositional
    }

    /// Whether the plain search takes new branches first (see
    /// [`SearchOrder`]): asked for, or by default when a time limit can
    /// cut the search short. Goals and summaries keep the depth-first
    /// order their filters and summaries are defined by.
    pub fn new_branches_first(config: &Config) -> Result<bool, String> {
        let plain = Strategy::can_deepen(config);
        match config.order {
            SearchOrder::DepthFirst => Ok(false),
            SearchOrder::NewBranchesFirst if plain => Ok(true),
            SearchOrder::NewBranchesFirst => {
                Err("--order new-branches-first works with the plain search only (not with goals, covers, \
                 --compositional or whole-program mode)"
                    .into())
            }
            SearchOrder::Auto => Ok(plain && (config.timeout.is_some() || config.deepen)),
        }
    }

    /// Whether every loop iteration counts towards k: the abstract traces
    /// of the resource-driven and trace-guided searches bound every loop
    /// entry by k (seed 003's loop-k), so their runs must count as they do.
    pub fn counts_every_iteration(self) -> bool {
        matches!(self, Strategy::ResourceDriven | Strategy::GuidedTargets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::{CostModel, Target};

    #[test]
    fn strategies_are_chosen_and_bad_combinations_refused() {
        let plain = Config::new("f", 2);
        assert_eq!(Strategy::choose(&plain), Ok(Strategy::DepthFirst));
        let mut targeted = Config::new("f", 2);
        targeted.goals.targets.push(Target { spec: "f.c:3".into(), points: Vec::new() });
        assert_eq!(Strategy::choose(&targeted), Ok(Strategy::GuidedTargets));
        assert!(Strategy::GuidedTargets.counts_every_iteration());
        // A cover keeps the depth-first search (it keeps target-reaching tests).
        targeted.goals.cover = Some(crate::cost::Cover::Branches);
        assert_eq!(Strategy::choose(&targeted), Ok(Strategy::DepthFirst));
        let mut driven = Config::new("f", 2);
        driven.goals.driven = true;
        assert!(Strategy::choose(&driven).unwrap_err().contains("--cost"));
        driven.goals.costs.push(CostModel::Memory);
        assert!(Strategy::choose(&driven).unwrap_err().contains("memory model"));
        driven.goals.costs[0] = CostModel::Instructions;
        assert_eq!(Strategy::choose(&driven), Ok(Strategy::ResourceDriven));
        driven.criterion = Criterion::BlockK;
        assert!(Strategy::choose(&driven).unwrap_err().contains("k-path search only"));
        driven.criterion = Criterion::KPath;
        driven.goals.targets.push(Target { spec: "f.c:3".into(), points: Vec::new() });
        assert!(Strategy::choose(&driven).unwrap_err().contains("--target or --trace"));
        assert!(!Strategy::DepthFirst.counts_every_iteration());
        let deepen = Config { deepen: true, ..Config::new("f", 20) };
        assert_eq!(Strategy::choose(&deepen), Ok(Strategy::Deepening));
        assert!(!Strategy::Deepening.counts_every_iteration());
        let composed = Config { compositional: true, ..deepen };
        assert!(Strategy::choose(&composed).unwrap_err().contains("--k"));
    }

    #[test]
    fn new_branches_go_first_when_a_time_limit_can_cut_the_plain_search() {
        let plain = Config::new("f", 2);
        assert_eq!(Strategy::new_branches_first(&plain), Ok(false));
        let timed = Config { timeout: Some(std::time::Duration::from_secs(5)), ..plain.clone() };
        assert_eq!(Strategy::new_branches_first(&timed), Ok(true));
        let deepen = Config { deepen: true, ..plain.clone() };
        assert_eq!(Strategy::new_branches_first(&deepen), Ok(true));
        let dfs = Config { order: SearchOrder::DepthFirst, ..timed.clone() };
        assert_eq!(Strategy::new_branches_first(&dfs), Ok(false));
        let asked = Config { order: SearchOrder::NewBranchesFirst, ..plain.clone() };
        assert_eq!(Strategy::new_branches_first(&asked), Ok(true));
        // Goals and summaries keep the depth-first order: by default
        // silently, asked for explicitly an error.
        let composed = Config { compositional: true, ..timed };
        assert_eq!(Strategy::new_branches_first(&composed), Ok(false));
        let composed = Config { order: SearchOrder::NewBranchesFirst, ..composed };
        assert!(Strategy::choose(&composed).unwrap_err().contains("plain search only"));
    }
}

//! `gen --criterion`: the engine's bounds of paths, the statement and branch
//! covers (of either method) and seed 003's all-local-paths. Its own module
//! so that `gen.rs`, `goals.rs` and `vc.rs` share it without importing
//! each other.

use pathwise_engine::config::Criterion;

/// The `--criterion` values of `gen`: the engine's bounds of paths and the
/// VC method's statement and branch covers.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GenCriterion {
    Engine(Criterion),
    Statements,
    Branches,
    /// Seed 003's all-local-paths (the k-path search negating only the
    /// function's own decisions).
    LocalPaths,
}

impl GenCriterion {
    pub fn name(self) -> &'static str {
        match self {
            GenCriterion::Engine(c) => c.name(),
            GenCriterion::Statements => "statements",
            GenCriterion::Branches => "branches",
            GenCriterion::LocalPaths => "all-local-paths",
        }
    }

    /// The engine's criterion (statement and branch covers bound their
    /// paths as k-path does).
    pub fn engine(self) -> Criterion {
        match self {
            GenCriterion::Engine(c) => c,
            _ => Criterion::KPath,
        }
    }
}

/// Parse `k-path`, `block-k`, `statements`, `branches` or `all-local-paths`.
pub fn parse_criterion(s: &str) -> Result<GenCriterion, String> {
    match s {
        "statements" => Ok(GenCriterion::Statements),
        "branches" => Ok(GenCriterion::Branches),
        "all-local-paths" => Ok(GenCriterion::LocalPaths),
        _ => Criterion::from_name(s).map(GenCriterion::Engine).ok_or_else(|| {
            format!(
                "unknown criterion `{s}` (expected `k-path`, `block-k`, `statements`, `branches` or `all-local-paths`)"
            )
        }),
    }
}

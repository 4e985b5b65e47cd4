//! CFG side tables used by the engine: dominators, natural loops,
//! post-dominators and the call graph, and the k-path bound on loops and
//! recursion ([`bound`]) that the engine, the static paths and the VC
//! method share.
//!
//! Each table is computed from a function (or program) on demand and never
//! stored inside it. All analyses accept unverified IR without panicking:
//! branch targets that do not exist are ignored, unreachable blocks belong to
//! no loop, and blocks that cannot reach an exit are post-dominated only by
//! themselves.

pub mod bound;
mod callgraph;
mod cfg;
mod lengths;
mod loops;
mod postdom;

pub use callgraph::CallGraph;
pub use cfg::{predecessors, reverse_postorder, successors, Dominators};
pub use lengths::{length_params, read_only_params, relates_pointer_params, LengthParam};
pub use loops::{Loop, LoopId, LoopInfo};
pub use postdom::PostDominators;

//! The Pathwise intermediate representation (IR).
//!
//! C functions are lowered (by `pathwise-cfront`) into a small, typed,
//! register-based IR that the engine interprets concretely and symbolically.
//! Design points:
//! - Registers (`%n`) are single-assignment and typed by their defining
//!   instruction; C variables live in memory slots (`$n` locals, `@name`
//!   globals) reached through `addr` + `load`/`store`, so the engine needs one
//!   memory model only.
//! - Every conditional `br` is one *decision* of the path criterion: the front
//!   end decomposes `&&`, `||`, `!` and `?:` so that each atomic condition has
//!   its own branch (PathCrawler's decomposition of multiple conditions).
//! - Signedness lives in operations (`sdiv`/`udiv`, `slt`/`ult`, `sext`/`zext`),
//!   not in types, as in LLVM; C-level types needed by the emitters (names,
//!   spelling of types, signedness of inputs) are kept as [`SrcVar`] metadata.
//! - Floating point (`f32`, `f64`) is IEEE bits in the same registers and
//!   cells; its operations (`fadd`, `fcmp`, `sitofp`, ...) have one concrete
//!   definition in [`float`] and no symbolic one.
//! - Analyses (CFG, loops, post-dominators, call graph) are side tables computed
//!   from a function, never cached inside it.
//!
//! Around the data structures: [`printer`] and [`parser`] convert to and from
//! a text form that round-trips exactly, [`verifier`] checks well-formedness,
//! [`analysis`] computes the CFG side tables and [`visit`] answers operand
//! and result-type queries on instructions.

pub mod analysis;
pub mod ctype;
pub mod entities;
pub mod float;
pub mod parser;
pub mod printer;
pub mod program;
pub mod types;
pub mod verifier;
pub mod visit;
pub mod x87;

pub use analysis::{CallGraph, Dominators, Loop, LoopId, LoopInfo, PostDominators};
pub use ctype::{BitFieldAt, BitFieldDef, CType, EnumDef, FieldDef, ScalarAt, StructDef, StructId, BIT_STORAGE};
pub use entities::{Block, Local, Reg};
pub use parser::{parse_program, ParseError};
pub use printer::print_function;
pub use program::*;
pub use types::{IntTy, Type};
pub use verifier::{reg_types, reg_types_in, verify, VerifierError};

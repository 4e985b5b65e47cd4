//! Read-only queries on instructions and terminators: the operands they use
//! and the type of the value they define.
//!
//! These are shared by the verifier, the analyses and the engine so that the
//! "which operands does this instruction read" knowledge lives in one place.

use crate::program::{FuncData, InstKind, Operand, Program, Terminator};
use crate::types::Type;

impl Operand {
    /// The register read by this operand, if any.
    pub fn reg(&self) -> Option<crate::entities::Reg> {
        match self {
            Operand::Reg(r) => Some(*r),
            Operand::Const(..) => None,
        }
    }
}

impl InstKind {
    /// Operands read by the instruction, in textual order.
    pub fn operands(&self) -> Vec<Operand> {
        match self {
            InstKind::Bin { a, b, .. } | InstKind::Cmp { a, b, .. } | InstKind::PtrDiff { a, b } => {
                vec![*a, *b]
            }
            InstKind::FBin { a, b, .. } | InstKind::FCmp { a, b, .. } => vec![*a, *b],
            InstKind::Cast { a, .. } | InstKind::FNeg { a, .. } | InstKind::FCast { a, .. } => vec![*a],
            InstKind::AddrLocal { .. } | InstKind::AddrGlobal { .. } | InstKind::AddrFunc { .. } => vec![],
            InstKind::PtrAdd { base, offset } => vec![*base, *offset],
            InstKind::Load { ptr, .. } => vec![*ptr],
            InstKind::CheckIndex { index, .. } => vec![*index],
            InstKind::Alloca { count, .. } => vec![*count],
            InstKind::Store { ptr, value, .. } => vec![*ptr, *value],
            InstKind::Call { args, .. } => args.clone(),
            InstKind::CallPtr { callee, args, .. } => std::iter::once(*callee).chain(args.iter().copied()).collect(),
        }
    }

    /// Type of the value the instruction produces, `None` when it produces
    /// none (`store`, a call to a `void` function).
    ///
    /// The type of a call result depends on the callee, so `program` is needed
    /// for calls; without it (or with an out-of-range callee) a call is
    /// reported as producing no typed value.
    pub fn result_type(&self, program: Option<&Program>) -> Option<Type> {
        match self {
            InstKind::Bin { ty, .. }
            | InstKind::Load { ty, .. }
            | InstKind::FBin { ty, .. }
            | InstKind::FNeg { ty, .. } => Some(*ty),
            InstKind::Cmp { .. } | InstKind::FCmp { .. } => Some(Type::I1),
            InstKind::Cast { to, .. } | InstKind::FCast { to, .. } => Some(*to),
            InstKind::AddrLocal { .. }
            | InstKind::AddrGlobal { .. }
            | InstKind::AddrFunc { .. }
            | InstKind::PtrAdd { .. }
            | InstKind::Alloca { .. } => Some(Type::Ptr),
            InstKind::PtrDiff { .. } => Some(Type::I64),
            InstKind::Store { .. } | InstKind::CheckIndex { .. } => None,
            InstKind::Call { func, .. } => program.and_then(|p| p.funcs.get(func.0 as usize)).and_then(|f| f.ret),
            InstKind::CallPtr { ret, .. } => *ret,
        }
    }
}

impl Terminator {
    /// Operands read by the terminator.
    pub fn operands(&self) -> Vec<Operand> {
        match self {
            Terminator::Branch { cond, .. } => vec![*cond],
            Terminator::Return(Some(v)) => vec![*v],
            Terminator::Jump(_) | Terminator::Return(None) | Terminator::Unreachable => vec![],
        }
    }
}

/// The smallest `num_regs` that covers every register the function mentions
/// (parameters, results and uses): one more than the largest register number,
/// or 0 when no register appears.
///
/// The text form omits `num_regs` when it equals this value, which keeps
/// hand-written IR short while still round-tripping exactly.
pub fn min_num_regs(f: &FuncData) -> u32 {
    let mut max: Option<u32> = None;
    let mut see = |r: u32| max = Some(max.map_or(r, |m: u32| m.max(r)));
    for p in &f.params {
        see(p.reg.0);
    }
    for b in &f.blocks {
        for i in &b.insts {
            if let Some(r) = i.result {
                see(r.0);
            }
            for op in i.kind.operands() {
                if let Some(r) = op.reg() {
                    see(r.0);
                }
            }
        }
        for op in b.term.operands() {
            if let Some(r) = op.reg() {
                see(r.0);
            }
        }
    }
    // u32::MAX as a register would need num_regs = 2^32; saturate instead of
    // overflowing (such a function is rejected by the verifier anyway).
    max.map_or(0, |m| m.saturating_add(1))
}

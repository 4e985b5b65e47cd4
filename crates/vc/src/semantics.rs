//! Symbolic values of one unwound block: instructions as expressions with
//! C's bit-vector semantics (the IR's operators map to `BvOp`/`BvCmp`; `i1`
//! values are booleans), a memory of local slots and globals at constant
//! offsets, and input arrays as solver arrays indexed by byte offset (as the
//! engine's inputs are, so that a valuation is directly an engine input).
//!
//! Every condition of a block is a [`Cond`], in execution order: an
//! assumption (`pathwise_assume`, an access within a free input array's
//! length, which the engine lengthens instead) or a *check*, the condition
//! under which the concolic search reports no runtime error there (division
//! by zero and overflow, signed overflow, shifts out of range, an access
//! before an input array or past one whose length is tied, a subscript
//! out of its declared array's bounds). The path cover
//! cuts the paths on which a check fails; the error cover (see
//! [`crate::errors`]) solves for them.

use std::collections::BTreeMap;

use pathwise_expr::{BvCmp, BvOp, ExprId, ExprPool, Sort};
use pathwise_ir::{BinOp, CastOp, FuncId, GlobalId, Inst, InstKind, Loc, Local, Operand, Program, Type};
use pathwise_suite::ErrorKind;

use crate::Unsupported;
use pathwise_engine::semantics::{self, bv_op, compare as cmp};

/// What a pointer points into.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Base {
    Null,
    /// A local slot of the frame at this depth of the stack.
    Local(usize, Local),
    /// The input array of parameter `i` of the function under test.
    Param(usize),
    Global(GlobalId),
}

/// A value: a bit-vector or boolean expression, or a pointer (base and
/// 64-bit byte offset).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Val {
    E(ExprId),
    Ptr(Base, ExprId),
}

/// A memory cell: its type and value.
pub type Cell = (Type, Val);

/// One activation.
#[derive(Clone, Debug)]
pub struct Frame {
    pub func: FuncId,
    pub regs: Vec<Option<Val>>,
    /// Per local slot, cells by byte offset (unwritten bytes read as 0, as
    /// the engine's slots do).
    pub slots: Vec<BTreeMap<u64, Cell>>,
}

/// The state at a program point.
#[derive(Clone, Debug)]
pub struct Env {
    pub frames: Vec<Frame>,
    /// Current contents of each input array (by parameter index).
    pub arrays: Vec<Option<ExprId>>,
    /// Written cells of globals (others hold their initial values).
    pub globals: BTreeMap<(GlobalId, u64), Cell>,
}

/// The input variables of an input array.
#[derive(Copy, Clone, Debug)]
pub struct ArrayInput {
    pub len: ExprId,
    pub elem: Type,
}

/// A runtime check: the error the concolic search reports where its
/// condition fails, and the instruction's location.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Check {
    pub kind: ErrorKind,
    pub loc: Loc,
}

/// A condition of a block: an assumption (`check: None`) or a check.
#[derive(Copy, Clone, Debug)]
pub struct Cond {
    pub cond: ExprId,
    pub check: Option<Check>,
}

/// A block's conditions, in execution order.
pub type Conds = Vec<Cond>;

/// An assumption.
pub fn assumed(cond: ExprId) -> Cond {
    Cond { cond, check: None }
}

fn checked(cond: ExprId, kind: ErrorKind, loc: Loc) -> Cond {
    Cond { cond, check: Some(Check { kind, loc }) }
}

/// What instructions need besides the state.
pub struct Ctx<'a> {
    pub program: &'a Program,
    pub arrays: &'a [Option<ArrayInput>],
    pub check_overflow: bool,
    /// Per parameter, whether its input array's length is tied (by a
    /// length contract or `pathwise_array_len`): an access past it is an
    /// out-of-bounds error, as in the engine, not a longer array.
    pub tied: std::cell::RefCell<Vec<bool>>,
    /// Per parameter, whether it is a NUL-terminated string (the engine's
    /// string contract): reading past its NUL is an out-of-bounds error.
    pub strings: Vec<bool>,
    /// Largest input array length (elements).
    pub max_array_len: u32,
    /// The errors the engine may report that this encoding did not model
    /// (see [`string_end`]), in words.
    pub unsought: std::cell::RefCell<std::collections::BTreeSet<String>>,
}

pub fn frame(program: &Program, func: FuncId, args: &[Val]) -> Frame {
    let f = program.func(func);
    let mut regs = vec![None; f.num_regs as usize];
    for (p, a) in f.params.iter().zip(args) {
        regs[p.reg.index()] = Some(*a);
    }
    Frame { func, regs, slots: vec![BTreeMap::new(); f.locals.len()] }
}

fn unsupported<T>(inst: &Inst, what: &str) -> Result<T, Unsupported> {
    Err(Unsupported::new(Some(inst.loc), what))
}

pub fn operand(pool: &mut ExprPool, env: &Env, op: &Operand) -> Option<Val> {
    match *op {
        Operand::Reg(r) => env.frames.last()?.regs.get(r.index()).copied().flatten(),
        Operand::Const(Type::I1, v) => Some(Val::E(pool.bool_const(v & 1 == 1))),
        Operand::Const(Type::Ptr, _) => Some(Val::Ptr(Base::Null, pool.bv_const(64, 0))),
        Operand::Const(ty, v) => Some(Val::E(pool.bv_const(ty.bits(), v & ty.mask()))),
    }
}

/// The expression of a non-pointer operand.
fn expr(pool: &mut ExprPool, env: &Env, op: &Operand, inst: &Inst) -> Result<ExprId, Unsupported> {
    match operand(pool, env, op) {
        Some(Val::E(e)) => Ok(e),
        Some(Val::Ptr(..)) => unsupported(inst, "a pointer used as an integer"),
        None => unsupported(inst, "a value the unwinding did not define"),
    }
}

/// A boolean as a bit-vector of `width` bits (`sext`: all ones for true).
fn bool_to_bv(pool: &mut ExprPool, b: ExprId, width: u32, sext: bool) -> ExprId {
    let one = pool.bv_const(width, if sext { pathwise_expr::ops::mask(width) } else { 1 });
    let zero = pool.bv_const(width, 0);
    pool.ite(b, one, zero)
}

/// `a <s 0`.
fn negative(pool: &mut ExprPool, a: ExprId) -> ExprId {
    let zero = pool.bv_const(pool.width(a), 0);
    pool.cmp(BvCmp::Slt, a, zero)
}

/// The conditions under which `a op b` is defined in C (no signed
/// overflow for `nsw`, no division by zero or `MIN / -1`, shift amounts in
/// range): the engine's table (`pathwise_engine::semantics`), except the
/// overflow of `+`/`-` below 64 bits, stated linearly here (the exact
/// result in 64 bits in the type's range) where the interpreter uses the
/// sign rule: the same condition, in the form each method's queries solve
/// best.
fn defined(
    pool: &mut ExprPool,
    op: BinOp,
    nsw: bool,
    check_overflow: bool,
    a: ExprId,
    b: ExprId,
) -> Vec<(ExprId, ErrorKind)> {
    let w = pool.width(a);
    let r = pool.bin(bv_op(op), a, b);
    let mut out = Vec::new();
    let division = semantics::division_defined(pool, op, w, a, b);
    let kinds = [ErrorKind::DivisionByZero, ErrorKind::DivisionOverflow];
    out.extend(division.into_iter().zip(kinds));
    out.extend(semantics::shift_defined(pool, op, w, b).map(|c| (c, ErrorKind::InvalidShift)));
    if nsw && check_overflow {
        let ok = match op {
            BinOp::Add | BinOp::Sub if w < 64 => {
                // The exact result in 64 bits lies in the type's range: a
                // linear condition (the sign-bit form below is not).
                let (x, y) = (pool.sext(a, 64), pool.sext(b, 64));
                let exact = pool.bin(bv_op(op), x, y);
                let lo = pool.bv_const(64, (-(1i64 << (w - 1))) as u64);
                let hi = pool.bv_const(64, (1u64 << (w - 1)) - 1);
                let c1 = pool.cmp(BvCmp::Sle, lo, exact);
                let c2 = pool.cmp(BvCmp::Sle, exact, hi);
                pool.and(c1, c2)
            }
            BinOp::Add | BinOp::Sub => {
                // Overflow iff the result's sign differs from both operands'
                // (add) or from `a`'s while the operands' signs differ (sub).
                let ra = pool.bin(BvOp::Xor, r, a);
                let other = if op == BinOp::Add { pool.bin(BvOp::Xor, r, b) } else { pool.bin(BvOp::Xor, a, b) };
                let both = pool.bin(BvOp::And, ra, other);
                let n = negative(pool, both);
                pool.not(n)
            }
            BinOp::Mul => pool.smul_no_overflow(a, b),
            BinOp::Shl => {
                let back = pool.bin(BvOp::AShr, r, b);
                let same = pool.eq(back, a);
                let (na, nr) = (negative(pool, a), negative(pool, r));
                let bad = pool.or(na, nr);
                let good = pool.not(bad);
                pool.and(same, good)
            }
            _ => pool.bool_const(true),
        };
        out.push((ok, ErrorKind::SignedOverflow));
    }
    out
}

/// Execute one instruction other than a call of a function with a body:
/// update `env`, push the block's assumptions.
pub fn step(
    pool: &mut ExprPool,
    cx: &Ctx<'_>,
    env: &mut Env,
    inst: &Inst,
    assume: &mut Conds,
) -> Result<(), Unsupported> {
    let value = match &inst.kind {
        InstKind::Bin { op, ty, a, b, nsw } => {
            Some(Val::E(binary(pool, cx, env, inst, (*op, *ty, *nsw), (a, b), assume)?))
        }
        InstKind::Cmp { op, ty: Type::Ptr, a, b } => {
            let (Some(Val::Ptr(ba, oa)), Some(Val::Ptr(bb, ob))) = (operand(pool, env, a), operand(pool, env, b))
            else {
                return unsupported(inst, "a comparison of pointers the unwinding did not define");
            };
            if ba != bb {
                return unsupported(inst, "a comparison of pointers into different objects");
            }
            Some(Val::E(cmp(pool, *op, oa, ob)))
        }
        InstKind::Cmp { op, a, b, .. } => {
            let (x, y) = (expr(pool, env, a, inst)?, expr(pool, env, b, inst)?);
            if pool.sort(x) == Sort::Bool {
                let (x, y) = (bool_to_bv(pool, x, 1, false), bool_to_bv(pool, y, 1, false));
                Some(Val::E(cmp(pool, *op, x, y)))
            } else {
                Some(Val::E(cmp(pool, *op, x, y)))
            }
        }
        InstKind::Cast { op, from, to, a } => {
            let x = expr(pool, env, a, inst)?;
            Some(Val::E(match (op, from) {
                (CastOp::ZExt | CastOp::SExt, Type::I1) => bool_to_bv(pool, x, to.bits(), *op == CastOp::SExt),
                (CastOp::ZExt, _) => pool.zext(x, to.bits()),
                (CastOp::SExt, _) => pool.sext(x, to.bits()),
                (CastOp::Trunc, _) if *to == Type::I1 => {
                    let bit = pool.extract(x, 0, 0);
                    let one = pool.bv_const(1, 1);
                    pool.eq(bit, one)
                }
                (CastOp::Trunc, _) => pool.extract(x, to.bits() - 1, 0),
            }))
        }
        InstKind::AddrLocal { local } => {
            Some(Val::Ptr(Base::Local(env.frames.len() - 1, *local), pool.bv_const(64, 0)))
        }
        InstKind::AddrGlobal { global } => Some(Val::Ptr(Base::Global(*global), pool.bv_const(64, 0))),
        InstKind::PtrAdd { base, offset } => {
            let Some(Val::Ptr(b, o)) = operand(pool, env, base) else {
                return unsupported(inst, "pointer arithmetic on a value that is not a pointer");
            };
            let d = expr(pool, env, offset, inst)?;
            Some(Val::Ptr(b, pool.bin(BvOp::Add, o, d)))
        }
        InstKind::PtrDiff { a, b } => match (operand(pool, env, a), operand(pool, env, b)) {
            (Some(Val::Ptr(ba, oa)), Some(Val::Ptr(bb, ob))) if ba == bb => Some(Val::E(pool.bin(BvOp::Sub, oa, ob))),
            _ => return unsupported(inst, "a difference of pointers into different objects"),
        },
        InstKind::CheckIndex { index, len, end } => {
            let i = expr(pool, env, index, inst)?;
            let limit = pool.bv_const(64, len.saturating_add(*end as u64));
            assume.push(checked(pool.cmp(BvCmp::Ult, i, limit), ErrorKind::OutOfBounds, inst.loc));
            None
        }
        InstKind::Load { ty, ptr } => Some(load(pool, cx, env, inst, *ty, ptr, assume)?),
        InstKind::Store { ty, ptr, value } => {
            store(pool, cx, env, inst, *ty, ptr, value, assume)?;
            None
        }
        InstKind::Call { func, args } => {
            declared_call(pool, cx, env, inst, *func, args, assume)?;
            None
        }
        InstKind::FBin { .. } | InstKind::FNeg { .. } | InstKind::FCmp { .. } | InstKind::FCast { .. } => {
            return unsupported(inst, "floating-point arithmetic")
        }
        InstKind::AddrFunc { .. } | InstKind::CallPtr { .. } => return unsupported(inst, "a function pointer"),
        InstKind::Alloca { .. } => return unsupported(inst, "a variable-length array"),
    };
    if let (Some(r), Some(v)) = (inst.result, value) {
        env.frames.last_mut().expect("a frame").regs[r.index()] = Some(v);
    }
    Ok(())
}

fn binary(
    pool: &mut ExprPool,
    cx: &Ctx<'_>,
    env: &Env,
    inst: &Inst,
    (op, ty, nsw): (BinOp, Type, bool),
    (a, b): (&Operand, &Operand),
    assume: &mut Conds,
) -> Result<ExprId, Unsupported> {
    let (x, y) = (expr(pool, env, a, inst)?, expr(pool, env, b, inst)?);
    if ty == Type::I1 {
        return match op {
            BinOp::And => Ok(pool.and(x, y)),
            BinOp::Or => Ok(pool.or(x, y)),
            BinOp::Xor | BinOp::Add | BinOp::Sub => {
                let e = pool.eq(x, y);
                Ok(pool.not(e))
            }
            _ => unsupported(inst, "arithmetic on a boolean"),
        };
    }
    let checks = defined(pool, op, nsw, cx.check_overflow, x, y);
    assume.extend(checks.into_iter().map(|(c, kind)| checked(c, kind, inst.loc)));
    Ok(pool.bin(bv_op(op), x, y))
}

/// The cell of a global at a constant offset as it was initialised (`None`:
/// not a value the VC method models: pointers, mistyped reads).
pub fn initial_cell(pool: &mut ExprPool, program: &Program, g: GlobalId, off: u64, ty: Type) -> Option<Val> {
    let gd = program.global(g);
    if !gd.relocs.is_empty() || gd.elem != ty || !off.is_multiple_of(ty.bytes()) || ty == Type::Ptr {
        return None;
    }
    let v = gd.init.get((off / ty.bytes()) as usize).copied().unwrap_or(0);
    Some(match ty {
        Type::I1 => Val::E(pool.bool_const(v & 1 == 1)),
        _ => Val::E(pool.bv_const(ty.bits(), v & ty.mask())),
    })
}

fn global_init(
    pool: &mut ExprPool,
    program: &Program,
    g: GlobalId,
    off: u64,
    ty: Type,
    inst: &Inst,
) -> Result<Val, Unsupported> {
    match initial_cell(pool, program, g, off, ty) {
        Some(v) => Ok(v),
        None => {
            let name = &program.global(g).name;
            unsupported(inst, &format!("a read of global `{name}` the VC method does not model"))
        }
    }
}

fn const_offset(pool: &ExprPool, off: ExprId, inst: &Inst) -> Result<u64, Unsupported> {
    match pool.as_bv_const(off) {
        Some(o) => Ok(o),
        None => unsupported(inst, "an access at a symbolic offset into a local or global array"),
    }
}

/// The bounds and alignment of an input-array access at byte offset `off`:
/// before the array's start, or past its end when its length is tied, an
/// out-of-bounds error (checks, as the engine's); past a free length or
/// misaligned, an assumption (the engine lengthens the array; the front
/// end never misaligns).
fn array_access(
    pool: &mut ExprPool,
    cx: &Ctx<'_>,
    i: usize,
    off: ExprId,
    ty: Type,
    inst: &Inst,
    assume: &mut Conds,
) -> Result<(), Unsupported> {
    let Some(input) = cx.arrays.get(i).copied().flatten() else {
        return unsupported(inst, "an access through a pointer parameter that is not an input array");
    };
    if input.elem != ty {
        return unsupported(inst, "an input array accessed with another element type");
    }
    let size = pool.bv_const(64, ty.bytes());
    let bytes = pool.bin(BvOp::Mul, input.len, size);
    let zero = pool.bv_const(64, 0);
    assume.push(checked(pool.cmp(BvCmp::Sle, zero, off), ErrorKind::OutOfBounds, inst.loc));
    let within = pool.cmp(BvCmp::Ult, off, bytes);
    if cx.tied.borrow().get(i).copied().unwrap_or(false) {
        assume.push(checked(within, ErrorKind::OutOfBounds, inst.loc));
    } else {
        assume.push(assumed(within));
    }
    if ty.bytes() > 1 {
        let m = pool.bv_const(64, ty.bytes() - 1);
        let low = pool.bin(BvOp::And, off, m);
        assume.push(assumed(pool.eq(low, zero)));
    }
    Ok(())
}

fn load(
    pool: &mut ExprPool,
    cx: &Ctx<'_>,
    env: &Env,
    inst: &Inst,
    ty: Type,
    ptr: &Operand,
    assume: &mut Conds,
) -> Result<Val, Unsupported> {
    let Some(Val::Ptr(base, off)) = operand(pool, env, ptr) else {
        return unsupported(inst, "a load through a value that is not a pointer");
    };
    let cell = |map: &BTreeMap<u64, Cell>, o: u64| -> Result<Option<Val>, Unsupported> {
        match map.get(&o) {
            Some((t, v)) if *t == ty => Ok(Some(*v)),
            Some(_) => unsupported(inst, "a read of memory with another type than it was written"),
            None if map.range(..o).next_back().is_some_and(|(s, (t, _))| s + t.bytes() > o)
                || map.range(o + 1..o + ty.bytes()).next().is_some() =>
            {
                unsupported(inst, "a partial read of a memory cell")
            }
            None => Ok(None),
        }
    };
    match base {
        Base::Null => unsupported(inst, "a possible null dereference"),
        Base::Local(d, l) => {
            let o = const_offset(pool, off, inst)?;
            match cell(&env.frames[d].slots[l.index()], o)? {
                Some(v) => Ok(v),
                None if ty == Type::Ptr => unsupported(inst, "a read of an uninitialised pointer"),
                None => operand(pool, env, &Operand::Const(ty, 0)).ok_or_else(|| Unsupported::new(None, "")),
            }
        }
        Base::Global(g) => {
            let o = const_offset(pool, off, inst)?;
            let map: BTreeMap<u64, Cell> =
                env.globals.range((g, 0)..=(g, u64::MAX)).map(|((_, o), c)| (*o, *c)).collect();
            match cell(&map, o)? {
                Some(v) => Ok(v),
                None => global_init(pool, cx.program, g, o, ty, inst),
            }
        }
        Base::Param(i) => {
            array_access(pool, cx, i, off, ty, inst, assume)?;
            let arr = env.arrays[i].expect("input array");
            if cx.strings.get(i).copied().unwrap_or(false) {
                string_end(pool, cx, (arr, off), inst, assume);
            }
            let v = pool.select(arr, off);
            Ok(Val::E(if ty == Type::I1 {
                let one = pool.bv_const(pool.width(v), 1);
                pool.eq(v, one)
            } else {
                v
            }))
        }
    }
}

/// A read of string parameter `arr` (read only: its contents are its
/// input) at byte `off` must not come after its first NUL: at a constant
/// offset, a check, as the engine's. The engine does not check a symbolic
/// index. An offset the VC does not know but the engine may (one merged
/// from several paths) is an assumption (the paths past the NUL are cut)
/// and its error is named as not sought.
fn string_end(pool: &mut ExprPool, cx: &Ctx<'_>, (arr, off): (ExprId, ExprId), inst: &Inst, assume: &mut Conds) {
    let zero = pool.bv_const(8, 0);
    let Some(j) = pool.as_bv_const(off) else {
        let merged =
            |&v: &ExprId| matches!(pool.get(v), pathwise_expr::Expr::Var { name, .. } if name.starts_with("vc!"));
        if pool.vars_of(&[off]).iter().any(merged) {
            let at = cx.program.describe_loc(inst.loc);
            cx.unsought.borrow_mut().insert(format!("reads past the NUL of a string parameter at {at}"));
            for k in 0..u64::from(cx.max_array_len) {
                let at = pool.bv_const(64, k);
                let before = pool.cmp(BvCmp::Ult, at, off);
                let elem = pool.select(arr, at);
                let nul = pool.eq(elem, zero);
                let not_nul = pool.not(nul);
                let nb = pool.not(before);
                assume.push(assumed(pool.or(nb, not_nul)));
            }
        }
        return;
    };
    let mut ok = pool.bool_const(true);
    for k in 0..j.min(1 << 16) {
        let at = pool.bv_const(64, k);
        let elem = pool.select(arr, at);
        let nul = pool.eq(elem, zero);
        let not_nul = pool.not(nul);
        ok = pool.and(ok, not_nul);
    }
    assume.push(checked(ok, ErrorKind::OutOfBounds, inst.loc));
}

#[allow(clippy::too_many_arguments)]
fn store(
    pool: &mut ExprPool,
    cx: &Ctx<'_>,
    env: &mut Env,
    inst: &Inst,
    ty: Type,
    ptr: &Operand,
    value: &Operand,
    assume: &mut Conds,
) -> Result<(), Unsupported> {
    let Some(Val::Ptr(base, off)) = operand(pool, env, ptr) else {
        return unsupported(inst, "a store through a value that is not a pointer");
    };
    let Some(v) = operand(pool, env, value) else {
        return unsupported(inst, "a value the unwinding did not define");
    };
    match base {
        Base::Null => unsupported(inst, "a possible null dereference"),
        Base::Local(d, l) => {
            let o = const_offset(pool, off, inst)?;
            let slot = &mut env.frames[d].slots[l.index()];
            if slot.range(o.saturating_sub(7)..o + ty.bytes()).any(|(s, (t, _))| *s != o && s + t.bytes() > o) {
                return unsupported(inst, "a partial write of a memory cell");
            }
            slot.insert(o, (ty, v));
            Ok(())
        }
        Base::Global(g) => {
            let o = const_offset(pool, off, inst)?;
            env.globals.insert((g, o), (ty, v));
            Ok(())
        }
        Base::Param(i) => {
            array_access(pool, cx, i, off, ty, inst, assume)?;
            let Val::E(mut e) = v else { return unsupported(inst, "a pointer stored into an input array") };
            if ty == Type::I1 {
                e = bool_to_bv(pool, e, ty.bits(), false);
            }
            let arr = env.arrays[i].expect("input array");
            env.arrays[i] = Some(pool.store(arr, off, e));
            Ok(())
        }
    }
}

/// Calls of functions without a body: the user header's assumptions are
/// modelled, anything else is unsupported.
fn declared_call(
    pool: &mut ExprPool,
    cx: &Ctx<'_>,
    env: &Env,
    inst: &Inst,
    func: FuncId,
    args: &[Operand],
    assume: &mut Conds,
) -> Result<(), Unsupported> {
    let name = cx.program.func(func).name.as_str();
    match (name, args) {
        ("pathwise_assume" | "assume", [c]) => {
            let c = expr(pool, env, c, inst)?;
            let c = if pool.sort(c) == Sort::Bool {
                c
            } else {
                let zero = pool.bv_const(pool.width(c), 0);
                let z = pool.eq(c, zero);
                pool.not(z)
            };
            assume.push(assumed(c));
            Ok(())
        }
        ("pathwise_array_len", [p, n]) => {
            let Some(Val::Ptr(Base::Param(i), off)) = operand(pool, env, p) else {
                return unsupported(inst, "pathwise_array_len of a pointer that is not an input array");
            };
            let Some(input) = cx.arrays.get(i).copied().flatten() else {
                return unsupported(inst, "pathwise_array_len of a pointer that is not an input array");
            };
            let n = expr(pool, env, n, inst)?;
            let n = if pool.width(n) < 64 { pool.sext(n, 64) } else { n };
            let zero = pool.bv_const(64, 0);
            assume.push(assumed(pool.eq(off, zero)));
            assume.push(assumed(pool.eq(input.len, n)));
            if let Some(t) = cx.tied.borrow_mut().get_mut(i) {
                *t = true;
            }
            Ok(())
        }
        ("malloc" | "calloc" | "realloc" | "free", _) => unsupported(inst, &format!("dynamic memory (`{name}`)")),
        _ if pathwise_engine::setup::is_non_local_jump(name) => Err(Unsupported::by_neither(
            Some(inst.loc),
            &format!("call to `{name}`: {}", pathwise_engine::setup::NON_LOCAL_JUMPS),
        )),
        _ => unsupported(inst, &format!("a call of `{name}` (no body in this file)")),
    }
}

//! Floating-point instructions, symbolic: `fadd`..`fdiv`, `fneg`, `fcmp`
//! and the conversions build the pool's floating operators
//! (`pathwise_expr::float`) over the IEEE bits that registers and memory
//! hold, so float inputs and values computed from inputs stay symbolic, a
//! comparison is a decision whose both sides the search explores, and the
//! solver (Z3's floating-point theory) finds NaNs, infinities, `-0.0` or
//! subnormals where a path needs them.
//!
//! Concrete values are computed with the same definitions the expressions
//! have (`pathwise_expr::float`, x86-64 SSE's results, NaN bits included),
//! so a run's values and its path condition agree bit for bit.
//!
//! A conversion to an integer whose value C leaves undefined (out of the
//! type's range, or NaN) is a `float-cast-overflow` error, checked like
//! division by zero: with a symbolic operand the check is recorded, and its
//! failing side is explored when errors are sought (unless `--no-check
//! float-to-int`). The IEEE exceptions a user asks to check (overflow,
//! division by zero) are `fp_checks.rs`'.
//!
//! **Rounding direction.** `fesetround` (see `libc/math.rs`) keeps the
//! direction in a static object of the run, [`FENV_ROUND`]; arithmetic
//! (`fadd`..`fdiv`) rounds in it, symbolically (the solver's `RTP`,
//! `RTN`, `RTZ`). Conversions that round (from an integer, from `double`
//! to `float`) compute their exact value in it and pin a symbolic operand
//! (reported); `long double` arithmetic in another direction than to
//! nearest is refused as unsupported.
//!
//! `long double` (`f80`) that equals a double is held as the double, and
//! its comparisons, negation and conversions are those of `double`;
//! arithmetic in 80 bits and non-double values are `fp80.rs`'. The
//! library's functions without a symbolic model (`sin`, `exp`...) *pin*
//! their arguments: a symbolic operand gets a non-negatable `Assume` entry
//! equating it to its value (so solutions keep it and tests replay), and
//! the search counts the pin sites (`Stats::float_values_concretised`);
//! see `libc/math.rs`.

use pathwise_expr::float::{eval_fbin_in, eval_fcmp, eval_fconv, eval_fconv_in, int_in_range};
use pathwise_expr::{ExprId, FpCmp, FpConv, FpFmt, FpOp, Rounding};
use pathwise_ir::{FBinOp, FCastOp, FCmpOp, InstKind, Loc, Operand, Type};

use crate::exec::Exec;
use crate::path::{End, EntryKind};
use crate::suite::ErrorKind;
use crate::value::{bv_of, non_const, Value};

pub use crate::observed::FloatPin;

/// The IEEE format of a floating IR type's bits (`f80` is held as a
/// `double`).
pub(crate) fn fmt_of(ty: Type) -> FpFmt {
    if ty == Type::F32 {
        FpFmt::F32
    } else {
        FpFmt::F64
    }
}

/// The name of the static object holding the rounding direction (glibc's
/// `FE_*` value), created by the first `fesetround`.
pub(crate) const FENV_ROUND: &str = "fenv.round";

fn fp_op(op: FBinOp) -> FpOp {
    match op {
        FBinOp::FAdd => FpOp::Add,
        FBinOp::FSub => FpOp::Sub,
        FBinOp::FMul => FpOp::Mul,
        FBinOp::FDiv => FpOp::Div,
    }
}

impl Exec<'_, '_> {
    /// The rounding direction `fesetround` set (to nearest until it is
    /// called).
    pub(crate) fn rounding(&self) -> Rounding {
        let Some(&id) = self.libc_objects.get(FENV_ROUND) else { return Rounding::NearestEven };
        let code = self.mem.read_conc(id, 0, Type::I32).unwrap_or(0);
        Rounding::of_fenv(code).unwrap_or_default()
    }

    /// The direction `fesetround` set, as the x87 unit rounds `long
    /// double` results in it (glibc's `fesetround` sets the x87 control
    /// word with SSE's).
    pub(crate) fn x87_rounding(&self) -> pathwise_ir::x87::Rounding {
        x87_rounding(self.rounding())
    }

    /// Executes a floating instruction (`fadd`, `fneg`, `fcmp`, `sitofp`...).
    pub(crate) fn float_inst(&mut self, kind: &InstKind, loc: Loc) -> Result<Value, End> {
        match kind {
            InstKind::FBin { op, ty: Type::F80, a, b } => Ok(self.f80_bin(*op, a, b, loc)),
            InstKind::FBin { op, ty, a, b } => {
                let (fmt, rnd) = (fmt_of(*ty), self.rounding());
                let (a, b) = (self.operand(a), self.operand(b));
                let (x, y) = (a.conc() & ty.mask(), b.conc() & ty.mask());
                let conc = eval_fbin_in(fp_op(*op), rnd, fmt, x, y);
                let r = self.float_result(conc, &[a, b], *ty, |pool, e| pool.fbin_in(fp_op(*op), rnd, fmt, e[0], e[1]));
                self.check_float_op(*op, *ty, (a, b), r, loc)?;
                Ok(r)
            }
            InstKind::FNeg { ty, a } => {
                let fmt = fmt_of(*ty);
                let a = self.operand(a);
                if let Value::Ext(x) = a {
                    return Ok(Value::Ext(x.neg()));
                }
                let conc = (a.conc() ^ fmt.sign_bit()) & ty.mask();
                Ok(self.float_result(conc, &[a], *ty, |pool, e| pool.fp_neg(fmt, e[0])))
            }
            InstKind::FCmp { op, ty, a, b } => {
                let (a, b) = (self.operand(a), self.operand(b));
                if matches!(a, Value::Ext(_)) || matches!(b, Value::Ext(_)) {
                    return Ok(self.f80_compare(*op, a, b));
                }
                Ok(self.float_compare(*op, *ty, a, b))
            }
            InstKind::FCast { op, from, to, a } => self.float_cast(*op, *from, *to, a, loc),
            _ => unreachable!("not a floating instruction"),
        }
    }

    /// A value computed by a floating operation: `conc`, and the expression
    /// `build` makes of the operands' when one of them is symbolic.
    fn float_result(
        &mut self,
        conc: u64,
        ops: &[Value],
        ty: Type,
        build: impl FnOnce(&mut pathwise_expr::ExprPool, &[ExprId]) -> ExprId,
    ) -> Value {
        if ops.iter().all(|v| v.sym().is_none()) {
            return Value::int(conc);
        }
        let w = ty.bits();
        let es: Vec<ExprId> = ops.iter().map(|v| bv_of(self.pool, v.conc() & ty.mask(), v.sym(), w)).collect();
        let e = build(self.pool, &es);
        Value::Int { conc, sym: non_const(self.pool, e) }
    }

    /// `a op b` as C compares floating values (an `i1` with a boolean
    /// shadow: a branch on it is a decision).
    fn float_compare(&mut self, op: FCmpOp, ty: Type, a: Value, b: Value) -> Value {
        let fmt = fmt_of(ty);
        // `>` and `>=` swap the operands; `!=` is the negation of `==`.
        let (cmp, swap, negate) = match op {
            FCmpOp::Oeq => (FpCmp::Eq, false, false),
            FCmpOp::Une => (FpCmp::Eq, false, true),
            FCmpOp::Olt => (FpCmp::Lt, false, false),
            FCmpOp::Ole => (FpCmp::Le, false, false),
            FCmpOp::Ogt => (FpCmp::Lt, true, false),
            FCmpOp::Oge => (FpCmp::Le, true, false),
        };
        let (a, b) = if swap { (b, a) } else { (a, b) };
        let (x, y) = (a.conc() & ty.mask(), b.conc() & ty.mask());
        let conc = eval_fcmp(cmp, fmt, x, y) != negate;
        if a.sym().is_none() && b.sym().is_none() {
            return Value::int(u64::from(conc));
        }
        let w = ty.bits();
        let (ea, eb) = (bv_of(self.pool, x, a.sym(), w), bv_of(self.pool, y, b.sym(), w));
        let mut e = self.pool.fcmp(cmp, fmt, ea, eb);
        if negate {
            e = self.pool.not(e);
        }
        Value::Int { conc: u64::from(conc), sym: non_const(self.pool, e) }
    }

    /// A conversion involving a floating type.
    fn float_cast(&mut self, op: FCastOp, from: Type, to: Type, a: &Operand, loc: Loc) -> Result<Value, End> {
        let v = self.operand(a);
        // An integer of up to 32 bits is exactly a double: converted as to
        // `double`, symbolically; a 64-bit one may need the 64-bit
        // significand.
        let int_to_f80 = matches!(op, FCastOp::SIToFP | FCastOp::UIToFP) && to == Type::F80 && from.bits() > 32;
        if int_to_f80 || matches!(v, Value::Ext(_)) {
            return self.f80_cast(op, from, to, v, loc);
        }
        let x = v.conc() & from.mask();
        let conv = match op {
            FCastOp::SIToFP => FpConv::FromSigned(fmt_of(to)),
            FCastOp::UIToFP => FpConv::FromUnsigned(fmt_of(to)),
            FCastOp::FPToSI => FpConv::ToSigned { from: fmt_of(from), width: to.bits() },
            FCastOp::FPToUI => FpConv::ToUnsigned { from: fmt_of(from), width: to.bits() },
            FCastOp::FPExt | FCastOp::FPTrunc => FpConv::Fp { from: fmt_of(from), to: fmt_of(to) },
        };
        let checked = self.m.config.float_checks.to_int;
        if let (FpConv::ToSigned { from: fmt, width } | FpConv::ToUnsigned { from: fmt, width }, true) = (conv, checked)
        {
            let signed = op == FCastOp::FPToSI;
            let holds = int_in_range(fmt, width, signed, x);
            let e = bv_of(self.pool, x, v.sym(), from.bits());
            let ok = self.pool.fp_int_in_range(fmt, width, signed, e);
            let message = format!("floating value {:?} out of the range of {} ({})", fmt.to_f64(x), to, op.name());
            self.check_defined(ok, holds, (ErrorKind::FloatCastOverflow, &message), loc)?;
        }
        let rounds = matches!(conv, FpConv::FromSigned(_) | FpConv::FromUnsigned(_))
            || matches!(conv, FpConv::Fp { from: FpFmt::F64, to: FpFmt::F32 });
        let rnd = self.rounding();
        let r = if rounds && rnd != Rounding::NearestEven {
            // Computed exactly in the direction, for this run's value.
            let x = self.pin(v, from, loc);
            Value::int(eval_fconv_in(conv, rnd, from.bits(), x))
        } else {
            let conc = eval_fconv(conv, from.bits(), x);
            self.float_result(conc, &[v], from, |pool, e| pool.fconv(conv, e[0]))
        };
        if op == FCastOp::FPTrunc && to == Type::F32 {
            self.check_float_trunc(from, v, r, loc)?;
        }
        Ok(r)
    }

    /// `v`'s concrete bits; when `v` is symbolic, records `v == bits` and
    /// the concretisation.
    pub(crate) fn pin(&mut self, v: Value, ty: Type, loc: Loc) -> u64 {
        let conc = v.conc() & ty.mask();
        if let (Some(s), true) = (v.sym(), self.symbolic) {
            let w = ty.bits();
            let e = bv_of(self.pool, conc, Some(s), w);
            let k = self.pool.bv_const(w, conc);
            let cond = self.pool.eq(e, k);
            self.record(cond, EntryKind::Assume, false, false, loc);
            self.seen.float_pins.push(FloatPin { loc, expr: s });
        }
        conc
    }
}

/// The x87 unit's name for a rounding direction.
pub(crate) fn x87_rounding(rnd: Rounding) -> pathwise_ir::x87::Rounding {
    use pathwise_ir::x87::Rounding as X;
    match rnd {
        Rounding::NearestEven => X::NearestEven,
        Rounding::Up => X::Up,
        Rounding::Down => X::Down,
        Rounding::TowardZero => X::TowardZero,
    }
}

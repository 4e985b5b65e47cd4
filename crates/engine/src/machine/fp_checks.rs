//! The floating-point checks a user asks for (`gen --check float-overflow`,
//! `--check float-div-by-zero`; see [`crate::config::FloatChecks`]).
//!
//! IEEE 754 arithmetic does not stop on an overflow or a division by zero:
//! it gives an infinity (or a NaN for `0.0 / 0.0`), which is C's defined
//! behaviour under Annex F. Code that never expects one asks for these
//! checks; each is then an error like an integer division by zero: with a
//! symbolic operand the check is a guard entry whose violation the search
//! solves for (when errors are sought), and a run that violates it ends in
//! an error test there.
//!
//! Overflow is what x86-64's `FE_OVERFLOW` flags under round-to-nearest:
//! finite operands and an infinite result (a division by zero, which gives
//! an infinity from finite operands too, is the other exception). The
//! emitted test enables that exception's trap (`feenableexcept`), so a
//! native run stops at the same operation with `SIGFPE`.
//!
//! Not checked: `long double` arithmetic (computed as `double`s, see
//! `fp.rs`) and the library functions computed by the host (`exp`, `pow`:
//! their overflow happens inside glibc).

use pathwise_expr::float::eval_fcmp;
use pathwise_expr::{ExprId, ExprPool, FpCmp, FpFmt};
use pathwise_ir::{FBinOp, Loc, Type};

use crate::exec::Exec;
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::{bv_of, Value};

use super::fp::fmt_of;

impl Exec<'_, '_> {
    /// The checks of `a op b` (of type `ty`, result `r`) before the run
    /// goes on with `r`: a division by zero, then an overflow.
    pub(crate) fn check_float_op(
        &mut self,
        op: FBinOp,
        ty: Type,
        (a, b): (Value, Value),
        r: Value,
        loc: Loc,
    ) -> Result<(), End> {
        let checks = self.m.config.float_checks;
        let fmt = fmt_of(ty);
        if op == FBinOp::FDiv && checks.div_by_zero {
            let y = b.conc() & ty.mask();
            let holds = !eval_fcmp(FpCmp::Eq, fmt, y, 0);
            if b.sym().is_some() || !holds {
                let eb = bv_of(self.pool, y, b.sym(), ty.bits());
                let zero = self.pool.fp_is_zero(fmt, eb);
                let ok = self.pool.not(zero);
                // Only an error needs its message (a check that holds is recorded).
                let message = match holds {
                    true => String::new(),
                    false => format!(
                        "floating division by zero: {:?} / {:?}",
                        fmt.to_f64(a.conc() & ty.mask()),
                        fmt.to_f64(y)
                    ),
                };
                self.check_defined(ok, holds, (ErrorKind::FloatDivisionByZero, &message), loc)?;
            }
        }
        if checks.overflow {
            let what = || {
                let symbol = match op {
                    FBinOp::FAdd => "+",
                    FBinOp::FSub => "-",
                    FBinOp::FMul => "*",
                    FBinOp::FDiv => "/",
                };
                let (x, y) = (fmt.to_f64(a.conc() & ty.mask()), fmt.to_f64(b.conc() & ty.mask()));
                format!("{x:?} {symbol} {y:?}")
            };
            let divisor = (op == FBinOp::FDiv).then_some(b);
            self.check_overflow_to_inf(fmt, (ty, &[a, b], divisor), r, &what, loc)?;
        }
        Ok(())
    }

    /// The overflow check of a `double` converted to `float` (`fptrunc`).
    pub(crate) fn check_float_trunc(&mut self, from: Type, a: Value, r: Value, loc: Loc) -> Result<(), End> {
        if !self.m.config.float_checks.overflow {
            return Ok(());
        }
        let what = || format!("(float){:?}", fmt_of(from).to_f64(a.conc() & from.mask()));
        self.check_overflow_to_inf(FpFmt::F32, (from, &[a], None), r, &what, loc)
    }

    /// `operands` (of type `in_ty`) all finite and the result `r` (of
    /// format `out`) infinite, without a zero `divisor`, is an overflow.
    fn check_overflow_to_inf(
        &mut self,
        out: FpFmt,
        (in_ty, operands, divisor): (Type, &[Value], Option<Value>),
        r: Value,
        what: &dyn Fn() -> String,
        loc: Loc,
    ) -> Result<(), End> {
        let in_fmt = fmt_of(in_ty);
        let finite = |v: &Value| (v.conc() & in_fmt.abs_mask()) < in_fmt.inf_bits();
        let zero_divisor = divisor.is_some_and(|d| eval_fcmp(FpCmp::Eq, in_fmt, d.conc() & in_ty.mask(), 0));
        let out_mask = if out == FpFmt::F32 { 0xFFFF_FFFF } else { u64::MAX };
        let overflowed = (r.conc() & out.abs_mask()) == out.inf_bits() && operands.iter().all(finite) && !zero_divisor;
        let symbolic = operands.iter().any(|v| v.sym().is_some());
        if !symbolic {
            return match overflowed {
                false => Ok(()),
                true => Err(self.error(ErrorKind::FloatOverflow, overflow_message(&what()), loc)),
            };
        }
        let w = in_ty.bits();
        let mut conds = Vec::with_capacity(operands.len() + 2);
        for v in operands {
            let e = bv_of(self.pool, v.conc() & in_ty.mask(), v.sym(), w);
            conds.push(self.pool.fp_is_finite(in_fmt, e));
        }
        if let Some(d) = divisor {
            let e = bv_of(self.pool, d.conc() & in_ty.mask(), d.sym(), w);
            let zero = self.pool.fp_is_zero(in_fmt, e);
            conds.push(self.pool.not(zero));
        }
        let er = bv_of(self.pool, r.conc() & out_mask, r.sym(), out.bits());
        conds.push(self.pool.fp_is_inf(out, er));
        let bad = and_all(self.pool, &conds);
        let ok = self.pool.not(bad);
        // Only an error needs its message (a check that holds is recorded).
        let message = if overflowed { overflow_message(&what()) } else { String::new() };
        self.check_defined(ok, !overflowed, (ErrorKind::FloatOverflow, &message), loc)
    }
}

fn overflow_message(what: &str) -> String {
    format!("floating overflow: {what} is not finite")
}

fn and_all(pool: &mut ExprPool, conds: &[ExprId]) -> ExprId {
    let mut acc = conds[0];
    for &c in &conds[1..] {
        acc = pool.and(acc, c);
    }
    acc
}

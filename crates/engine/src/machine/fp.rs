//! Floating-point instructions: exact concrete IEEE semantics (shared with
//! the front end, `pathwise_ir::float`) and no symbolic counterpart.
//!
//! The solver has no floating theory here, so a symbolic value that flows
//! into a floating operation (a float input, or an integer converted with
//! `sitofp`) is *concretised*: the run records the assumption `x == conc`
//! (an [`EntryKind::Assume`] that is never negated), so that every solution
//! of a later prefix keeps the value this run computed with, and generated
//! tests replay the path they claim. Each concretisation site is reported
//! (run statistics), as is each floating input.
//!
//! Float inputs (`__VERIFIER_nondet_float()`, `double` parameters) are
//! bit-vector variables holding the IEEE bits, so tests store their exact
//! values like any other input; they are pinned where first used.

use pathwise_ir::float::{eval_fbin, eval_fcast, eval_fcmp, eval_fneg, to_f64, FloatFail};
use pathwise_ir::{InstKind, Loc, Operand, Type};

use crate::exec::Exec;
use crate::path::{End, EntryKind};
use crate::suite::ErrorKind;
use crate::value::{bv_of, Value};

pub use crate::observed::FloatPin;

impl Exec<'_, '_> {
    /// Executes a floating instruction (`fadd`, `fneg`, `fcmp`, `sitofp`...).
    pub(crate) fn float_inst(&mut self, kind: &InstKind, loc: Loc) -> Result<Value, End> {
        Ok(Value::int(match kind {
            InstKind::FBin { op, ty, a, b } => {
                let (x, y) = (self.pinned(a, *ty, loc), self.pinned(b, *ty, loc));
                match eval_fbin(*op, *ty, x, y) {
                    Ok(v) => v,
                    Err(_) => {
                        return Err(self.not_double(format!("{} {} {}", to_f64(*ty, x), op.name(), to_f64(*ty, y)), loc))
                    }
                }
            }
            InstKind::FNeg { ty, a } => eval_fneg(*ty, self.pinned(a, *ty, loc)),
            InstKind::FCmp { op, ty, a, b } => {
                let (x, y) = (self.pinned(a, *ty, loc), self.pinned(b, *ty, loc));
                u64::from(eval_fcmp(*op, *ty, x, y))
            }
            InstKind::FCast { op, from, to, a } => {
                let x = self.pinned(a, *from, loc);
                match eval_fcast(*op, *from, *to, x) {
                    Ok(v) => v,
                    Err(FloatFail::NotDouble) => return Err(self.not_double(format!("{} of {x}", op.name()), loc)),
                    Err(FloatFail::Undefined) => {
                        let message =
                            format!("floating value {} out of the range of {} ({})", to_f64(*from, x), to, op.name());
                        return Err(self.error(ErrorKind::FloatCastOverflow, message, loc));
                    }
                }
            }
            _ => unreachable!("not a floating instruction"),
        }))
    }

    /// The end of a path whose `long double` value (`what`) would need x87
    /// precision: not computed, never a test.
    fn not_double(&mut self, what: String, loc: Loc) -> End {
        let message = format!(
            "unsupported: a `long double` result that is not a `double` ({what}); Pathwise computes `long double` only while its values are doubles"
        );
        self.error(ErrorKind::Unsupported, message, loc)
    }

    /// The concrete bits of an operand of type `ty`, pinning a symbolic
    /// one to them.
    fn pinned(&mut self, op: &Operand, ty: Type, loc: Loc) -> u64 {
        let v = self.operand(op);
        self.pin(v, ty, loc)
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

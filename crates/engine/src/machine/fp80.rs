//! `long double` (`f80`) beyond doubles: x87 extended precision computed
//! exactly (`pathwise_ir::x87`).
//!
//! An `f80` value that equals a double is held as the double (a
//! [`Value::Int`] of its bits, symbolic when it depends on an input: the
//! inputs of type `long double` are doubles), and comparisons, negation and
//! conversions to other floating types or integers of such values are the
//! double's, symbolic (`fp.rs`). Arithmetic and conversions from integers
//! are computed here, in 80 bits and in the direction `fesetround` set:
//! their result is concrete (a symbolic
//! operand is pinned to its value, so solutions keep it and tests replay)
//! and a [`Value::Ext`] when it is no double.
//!
//! A comparison of a symbolic double `x` with a concrete value `c` that is
//! no double stays symbolic: `x < c` is `x <= floor(c)` and `x > c` is
//! `x >= ceil(c)` (the doubles around `c`), `x == c` is false, so
//! `if (x < 0.1L)` has its two sides.

use pathwise_expr::{FpCmp, FpFmt};
use pathwise_ir::x87::X87;
use pathwise_ir::{FBinOp, FCastOp, FCmpOp, Loc, Operand, Type};

use crate::exec::Exec;
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::{bv_of, non_const, Value};

impl Exec<'_, '_> {
    /// `a op b` in 80 bits, rounded in the direction `fesetround` set.
    pub(super) fn f80_bin(&mut self, op: FBinOp, a: &Operand, b: &Operand, loc: Loc) -> Value {
        let (a, b) = (self.operand(a), self.operand(b));
        let (x, y) = (self.pinned_x87(a, loc), self.pinned_x87(b, loc));
        Value::of_x87(X87::arith_in(op, x, y, self.x87_rounding()))
    }

    /// `v`'s exact value, pinning a symbolic (double) one.
    fn pinned_x87(&mut self, v: Value, loc: Loc) -> X87 {
        if let Value::Ext(x) = v {
            return x;
        }
        X87::from_f64(f64::from_bits(self.pin(v, Type::F80, loc)))
    }

    /// A comparison where an operand is a non-double `long double` (always
    /// concrete).
    pub(super) fn f80_compare(&mut self, op: FCmpOp, a: Value, b: Value) -> Value {
        let conc = X87::compare(op, a.x87(), b.x87());
        // The symbolic side, if any, with the operation seen from it.
        let (x, c, op) = match (a, b) {
            (Value::Int { sym: Some(_), .. }, Value::Ext(c)) => (a, c, op),
            (Value::Ext(c), Value::Int { sym: Some(_), .. }) => (b, c, swapped(op)),
            _ => return Value::int(u64::from(conc)),
        };
        let e = bv_of(self.pool, x.conc(), x.sym(), 64);
        let fmt = FpFmt::F64;
        let bound = |pool: &mut pathwise_expr::ExprPool, d: f64| pool.bv_const(64, d.to_bits());
        let cond = match op {
            _ if c.is_nan() => self.pool.bool_const(op == FCmpOp::Une),
            FCmpOp::Oeq | FCmpOp::Une => self.pool.bool_const(op == FCmpOp::Une),
            FCmpOp::Olt | FCmpOp::Ole => {
                let k = bound(self.pool, c.floor_double());
                self.pool.fcmp(FpCmp::Le, fmt, e, k)
            }
            FCmpOp::Ogt | FCmpOp::Oge => {
                let k = bound(self.pool, c.ceil_double());
                self.pool.fcmp(FpCmp::Le, fmt, k, e)
            }
        };
        Value::Int { conc: u64::from(conc), sym: non_const(self.pool, cond) }
    }

    /// A conversion from an integer to `f80`, or from a non-double `f80`
    /// (`a` is then concrete).
    pub(super) fn f80_cast(&mut self, op: FCastOp, from: Type, to: Type, a: Value, loc: Loc) -> Result<Value, End> {
        match op {
            FCastOp::SIToFP | FCastOp::UIToFP => {
                let bits = self.pin(a, from, loc);
                let v = if op == FCastOp::SIToFP {
                    pathwise_ir::IntTy { ty: from, signed: true }.to_i128(bits)
                } else {
                    i128::from(bits & from.mask())
                };
                Ok(Value::of_x87(X87::from_int_in(v, self.x87_rounding())))
            }
            FCastOp::FPToSI | FCastOp::FPToUI => {
                let x = a.x87();
                match x.to_int(to.bits(), op == FCastOp::FPToSI) {
                    Ok(v) => Ok(Value::int(v)),
                    Err(_) if self.m.config.float_checks.to_int => {
                        let message = format!("floating value {} out of the range of {to} ({})", x.to_f64(), op.name());
                        Err(self.error(ErrorKind::FloatCastOverflow, message, loc))
                    }
                    // What `fistp` stores for an invalid conversion: the
                    // integer indefinite, the most negative value.
                    Err(_) => Ok(Value::int((1u64 << (to.bits() - 1)) & to.mask())),
                }
            }
            FCastOp::FPTrunc if to == Type::F32 => {
                Ok(Value::int(u64::from(a.x87().to_f32_in(self.x87_rounding()).to_bits())))
            }
            FCastOp::FPTrunc => Ok(Value::int(a.x87().to_f64_in(self.x87_rounding()).to_bits())),
            FCastOp::FPExt => Ok(a),
        }
    }
}

/// `b op' a` for `a op b`.
fn swapped(op: FCmpOp) -> FCmpOp {
    match op {
        FCmpOp::Olt => FCmpOp::Ogt,
        FCmpOp::Ole => FCmpOp::Oge,
        FCmpOp::Ogt => FCmpOp::Olt,
        FCmpOp::Oge => FCmpOp::Ole,
        other => other,
    }
}

//! `<math.h>` functions whose result IEEE arithmetic fixes exactly, so that
//! the engine computes glibc's bits: `fabs`, `sqrt` (correctly rounded),
//! `floor`, `ceil`, `trunc`, `round`, `fmin`, `fmax`, each in its `double`
//! and `float` forms. Functions glibc computes only approximately (`pow`,
//! `exp`, `sin`...) are left out: their last bit is the library's choice.
//!
//! Floating values are never symbolic (see `fp.rs`): a symbolic argument is
//! pinned to its value. `fmin`/`fmax` are glibc's x86-64 code (`minsd`,
//! `maxsd`): of two equal values the second, so `fmin(-0.0, 0.0)` is
//! `0.0`; a quiet NaN loses to a number; two NaNs (or a signaling one) give
//! `x + y`. Native results for zeros of both signs are not reliable anyway:
//! gcc may swap the operands of these calls (seen with `volatile`
//! operands) and folds constant ones to `-0.0` (`fmin`) and `0.0`
//! (`fmax`). `sqrt` of a negative number sets `errno` to `EDOM`, as
//! glibc's wrapper does.

use pathwise_ir::float::{eval_fbin, eval_fcmp, from_f64, to_f64};
use pathwise_ir::{FBinOp, FCmpOp, Type};

use super::{errno, Call, LibcHost, Outcome};
use crate::value::Value;

pub(super) const NAMES: &[&str] = &[
    "fabs", "fabsf", "sqrt", "sqrtf", "floor", "floorf", "ceil", "ceilf", "trunc", "truncf", "round", "roundf", "fmin",
    "fminf", "fmax", "fmaxf",
];

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    let (base, ty) = match c.name.strip_suffix('f') {
        Some(b) if NAMES.contains(&b) => (b, Type::F32),
        _ => (c.name, Type::F64),
    };
    let x = h.float(c.arg(0), ty);
    let bits = match base {
        "fabs" => x & (ty.mask() >> 1),
        "sqrt" => {
            if eval_fcmp(FCmpOp::Olt, ty, x, 0) {
                if let Err(end) = errno::set(h, errno::EDOM) {
                    return Some(Err(end));
                }
            }
            if ty == Type::F32 {
                // Correctly rounded in `f32` itself (no double rounding).
                u64::from(f32::from_bits(x as u32).sqrt().to_bits())
            } else {
                from_f64(ty, to_f64(ty, x).sqrt())
            }
        }
        "floor" | "ceil" | "trunc" | "round" => {
            let f = match base {
                "floor" => f64::floor,
                "ceil" => f64::ceil,
                "trunc" => f64::trunc,
                _ => f64::round,
            };
            // Exact in `f64` for `f32` values too: the result is an integer
            // of the argument's own precision; a NaN comes back quiet.
            let v = to_f64(ty, x);
            if v.is_nan() {
                quiet_sum(ty, x, x)
            } else {
                from_f64(ty, f(v))
            }
        }
        "fmin" | "fmax" => {
            let y = h.float(c.arg(1), ty);
            min_max(ty, x, y, base == "fmin")
        }
        _ => return None,
    };
    Some(Ok(Some(Value::int(bits))))
}

/// glibc's x86-64 `fmin` (`min`) or `fmax` on the bits of two `ty`
/// values: `minsd`/`maxsd` when ordered (so the second argument when
/// they compare equal), the number when one is a quiet NaN, `x + y` when
/// both are NaNs or one is signaling.
fn min_max(ty: Type, x: u64, y: u64, min: bool) -> u64 {
    let nan = |v: u64| to_f64(ty, v).is_nan();
    if !nan(x) && !nan(y) {
        let first = eval_fcmp(if min { FCmpOp::Olt } else { FCmpOp::Ogt }, ty, x, y);
        return if first { x } else { y };
    }
    let signaling = |v: u64| {
        let quiet_bit = if ty == Type::F32 { 1u64 << 22 } else { 1u64 << 51 };
        nan(v) && v & quiet_bit == 0
    };
    match (nan(x), nan(y)) {
        (true, false) if !signaling(x) => y,
        (false, true) if !signaling(y) => x,
        _ => quiet_sum(ty, x, y),
    }
}

/// `x + y` for a NaN operand: the quiet NaN the hardware returns (a NaN
/// operation has a result in every floating format).
fn quiet_sum(ty: Type, x: u64, y: u64) -> u64 {
    eval_fbin(FBinOp::FAdd, ty, x, y).unwrap_or(f64::NAN.to_bits())
}

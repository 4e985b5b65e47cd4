//! Floating-point operations of the IR and their exact concrete semantics.
//!
//! Values of type `f32` and `f64` are IEEE 754 binary32/binary64 numbers
//! held as their bits (in the low 32 or all 64 bits of a `u64`), so that
//! registers, memory cells and constants need no second representation.
//! The semantics here are the one definition shared by the front end
//! (constant folding) and the engine (execution): IEEE arithmetic with
//! round-to-nearest-even, as x86-64's SSE does for C's `float`/`double`
//! (`FLT_EVAL_METHOD == 0`). There is no symbolic counterpart: the engine
//! concretises whatever flows into these operations.
//!
//! `f80` (C's `long double`, x87 extended precision) is computed exactly by
//! [`crate::x87`]; an `f80` constant or register holds the binary64 bits of
//! the double its value equals. An operation whose result is no double is
//! [`FloatFail::NotDouble`] here: the front end then leaves it to run
//! time, where the engine holds such values in their 80 bits.

use crate::types::Type;
use crate::x87::X87;

/// Floating-point binary arithmetic (`%r = fadd f64 a, b`). C has no `%`
/// on floating operands, so there is no remainder.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FBinOp {
    FAdd,
    FSub,
    FMul,
    FDiv,
}

impl FBinOp {
    pub const ALL: [FBinOp; 4] = [FBinOp::FAdd, FBinOp::FSub, FBinOp::FMul, FBinOp::FDiv];

    pub fn name(self) -> &'static str {
        match self {
            FBinOp::FAdd => "fadd",
            FBinOp::FSub => "fsub",
            FBinOp::FMul => "fmul",
            FBinOp::FDiv => "fdiv",
        }
    }

    pub fn from_name(s: &str) -> Option<FBinOp> {
        FBinOp::ALL.into_iter().find(|op| op.name() == s)
    }
}

/// Floating-point comparisons with C's meaning (result `i1`): `==`, `<`,
/// `<=`, `>`, `>=` are *ordered* (false when an operand is NaN) and `!=` is
/// *unordered or not equal* (true when an operand is NaN), as LLVM's
/// `oeq`/`olt`/... and `une`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FCmpOp {
    Oeq,
    Une,
    Olt,
    Ole,
    Ogt,
    Oge,
}

impl FCmpOp {
    pub const ALL: [FCmpOp; 6] = [FCmpOp::Oeq, FCmpOp::Une, FCmpOp::Olt, FCmpOp::Ole, FCmpOp::Ogt, FCmpOp::Oge];

    pub fn name(self) -> &'static str {
        match self {
            FCmpOp::Oeq => "oeq",
            FCmpOp::Une => "une",
            FCmpOp::Olt => "olt",
            FCmpOp::Ole => "ole",
            FCmpOp::Ogt => "ogt",
            FCmpOp::Oge => "oge",
        }
    }

    pub fn from_name(s: &str) -> Option<FCmpOp> {
        FCmpOp::ALL.into_iter().find(|op| op.name() == s)
    }

    /// The comparison on two values (an `f32` widens to `f64` exactly).
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            FCmpOp::Oeq => a == b,
            FCmpOp::Une => a != b,
            FCmpOp::Olt => a < b,
            FCmpOp::Ole => a <= b,
            FCmpOp::Ogt => a > b,
            FCmpOp::Oge => a >= b,
        }
    }
}

/// Conversions involving a floating type (`%r = sitofp i32 a to f64`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FCastOp {
    /// Signed integer to floating, rounded to nearest.
    SIToFP,
    /// Unsigned integer to floating, rounded to nearest.
    UIToFP,
    /// Floating to signed integer, truncated toward zero; undefined (an
    /// error) when the truncated value does not fit (C11 6.3.1.4).
    FPToSI,
    /// Floating to unsigned integer, likewise.
    FPToUI,
    /// `f32` to `f64` (exact).
    FPExt,
    /// `f64` to `f32`, rounded to nearest.
    FPTrunc,
}

impl FCastOp {
    pub const ALL: [FCastOp; 6] =
        [FCastOp::SIToFP, FCastOp::UIToFP, FCastOp::FPToSI, FCastOp::FPToUI, FCastOp::FPExt, FCastOp::FPTrunc];

    pub fn name(self) -> &'static str {
        match self {
            FCastOp::SIToFP => "sitofp",
            FCastOp::UIToFP => "uitofp",
            FCastOp::FPToSI => "fptosi",
            FCastOp::FPToUI => "fptoui",
            FCastOp::FPExt => "fpext",
            FCastOp::FPTrunc => "fptrunc",
        }
    }

    pub fn from_name(s: &str) -> Option<FCastOp> {
        FCastOp::ALL.into_iter().find(|op| op.name() == s)
    }

    /// Whether converting `from` to `to` is well typed: integers are `i8`
    /// to `i64` (C converts to `_Bool` by comparing with zero, not with a
    /// cast), floating types as the name says.
    pub fn types_ok(self, from: Type, to: Type) -> bool {
        let int = |t: Type| t.is_int() && t != Type::I1;
        match self {
            FCastOp::SIToFP | FCastOp::UIToFP => int(from) && to.is_float(),
            FCastOp::FPToSI | FCastOp::FPToUI => from.is_float() && int(to),
            FCastOp::FPExt => from.is_float() && to.is_float() && rank(from) < rank(to),
            FCastOp::FPTrunc => from.is_float() && to.is_float() && rank(from) > rank(to),
        }
    }
}

/// The order of the floating types by range and precision.
fn rank(ty: Type) -> u8 {
    match ty {
        Type::F32 => 0,
        Type::F64 => 1,
        _ => 2,
    }
}

/// Why a floating operation gives no value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum FloatFail {
    /// C leaves the conversion undefined (a floating value whose integer
    /// part does not fit the integer type, or NaN).
    Undefined,
    /// An `f80` result that is not exactly a `double` (see the module doc).
    NotDouble,
}

/// The value of floating bits of type `ty` (`f32` widened exactly).
pub fn to_f64(ty: Type, bits: u64) -> f64 {
    if ty == Type::F32 {
        f32::from_bits(bits as u32) as f64
    } else {
        f64::from_bits(bits)
    }
}

/// The bits of `v` as a value of floating type `ty`, rounded to nearest for
/// `f32` (only exact values are passed where no rounding is wanted).
pub fn from_f64(ty: Type, v: f64) -> u64 {
    if ty == Type::F32 {
        (v as f32).to_bits() as u64
    } else {
        v.to_bits()
    }
}

/// `a op b` on floating bits of type `ty`. `f32` arithmetic is done in
/// `f32`: computing in `f64` and rounding would round twice.
pub fn eval_fbin(op: FBinOp, ty: Type, a: u64, b: u64) -> Result<u64, FloatFail> {
    if ty == Type::F32 {
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        let r = match op {
            FBinOp::FAdd => x + y,
            FBinOp::FSub => x - y,
            FBinOp::FMul => x * y,
            FBinOp::FDiv => x / y,
        };
        return Ok(r.to_bits() as u64);
    }
    if ty == Type::F80 {
        let r = X87::arith(op, X87::from_f64(f64::from_bits(a)), X87::from_f64(f64::from_bits(b)));
        return r.as_double().map(f64::to_bits).ok_or(FloatFail::NotDouble);
    }
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    let r = match op {
        FBinOp::FAdd => x + y,
        FBinOp::FSub => x - y,
        FBinOp::FMul => x * y,
        FBinOp::FDiv => x / y,
    };
    Ok(r.to_bits())
}

/// `-a`: flips the sign bit only (also of NaN and zero), as C's unary minus.
pub fn eval_fneg(ty: Type, a: u64) -> u64 {
    a ^ (1u64 << (ty.bits() - 1))
}

/// `a op b` on floating bits of type `ty`.
pub fn eval_fcmp(op: FCmpOp, ty: Type, a: u64, b: u64) -> bool {
    op.holds(to_f64(ty, a), to_f64(ty, b))
}

/// A conversion `from` -> `to` of bits `a`.
pub fn eval_fcast(op: FCastOp, from: Type, to: Type, a: u64) -> Result<u64, FloatFail> {
    let w = from.bits();
    Ok(match op {
        FCastOp::SIToFP => {
            let v = ((a << (64 - w)) as i64) >> (64 - w);
            if to == Type::F32 {
                (v as f32).to_bits() as u64
            } else if to == Type::F80 && v as f64 as i128 != i128::from(v) {
                // Exact in the 64-bit significand, not in a double's.
                return Err(FloatFail::NotDouble);
            } else {
                (v as f64).to_bits()
            }
        }
        FCastOp::UIToFP => {
            let v = a & from.mask();
            if to == Type::F32 {
                (v as f32).to_bits() as u64
            } else if to == Type::F80 && v as f64 as u128 != u128::from(v) {
                return Err(FloatFail::NotDouble);
            } else {
                (v as f64).to_bits()
            }
        }
        FCastOp::FPToSI | FCastOp::FPToUI => {
            let t = to_f64(from, a).trunc();
            let tw = to.bits() as i32;
            let (lo, hi) =
                if op == FCastOp::FPToSI { (-(2f64.powi(tw - 1)), 2f64.powi(tw - 1)) } else { (0.0, 2f64.powi(tw)) };
            // NaN fails both comparisons; `-0.0 >= 0.0` holds.
            if !(t >= lo && t < hi) {
                return Err(FloatFail::Undefined);
            }
            (if op == FCastOp::FPToSI { t as i64 as u64 } else { t as u64 }) & to.mask()
        }
        // Exact, and a double is an `f80` as it is.
        FCastOp::FPExt => to_f64(from, a).to_bits(),
        FCastOp::FPTrunc if to == Type::F32 => (to_f64(from, a) as f32).to_bits() as u64,
        // `f80` to `f64`: the value is a double already.
        FCastOp::FPTrunc => a,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_follow_c() {
        let d = |v: f64| v.to_bits();
        assert_eq!(eval_fcast(FCastOp::FPToSI, Type::F64, Type::I32, d(-2.9)), Ok((-2i32) as u32 as u64));
        assert_eq!(eval_fcast(FCastOp::FPToSI, Type::F64, Type::I32, d(2147483647.9)), Ok(0x7fff_ffff));
        assert_eq!(eval_fcast(FCastOp::FPToSI, Type::F64, Type::I32, d(2147483648.0)), Err(FloatFail::Undefined));
        assert_eq!(eval_fcast(FCastOp::FPToSI, Type::F64, Type::I8, d(-128.5)), Ok(0x80));
        assert_eq!(eval_fcast(FCastOp::FPToSI, Type::F64, Type::I8, d(f64::NAN)), Err(FloatFail::Undefined));
        assert_eq!(eval_fcast(FCastOp::FPToUI, Type::F64, Type::I32, d(-0.9)), Ok(0));
        assert_eq!(eval_fcast(FCastOp::FPToUI, Type::F64, Type::I32, d(-1.0)), Err(FloatFail::Undefined));
        assert_eq!(
            eval_fcast(FCastOp::FPToUI, Type::F64, Type::I64, d(1.8446744073709552e19)),
            Err(FloatFail::Undefined)
        );
        assert_eq!(eval_fcast(FCastOp::SIToFP, Type::I32, Type::F64, 0xffff_ffff), Ok(d(-1.0)));
        assert_eq!(eval_fcast(FCastOp::UIToFP, Type::I32, Type::F64, 0xffff_ffff), Ok(d(4294967295.0)));
        // 2^24 + 1 is not a float: ties to even.
        assert_eq!(eval_fcast(FCastOp::SIToFP, Type::I32, Type::F32, 16_777_217), Ok(16_777_216f32.to_bits() as u64));
        assert_eq!(eval_fcast(FCastOp::FPTrunc, Type::F64, Type::F32, d(0.1)), Ok(0.1f32.to_bits() as u64));
    }

    #[test]
    fn comparisons_treat_nan_as_c_does() {
        let nan = f64::NAN.to_bits();
        let one = 1f64.to_bits();
        assert!(!eval_fcmp(FCmpOp::Oeq, Type::F64, nan, nan));
        assert!(eval_fcmp(FCmpOp::Une, Type::F64, nan, nan));
        assert!(!eval_fcmp(FCmpOp::Olt, Type::F64, nan, one));
        assert!(!eval_fcmp(FCmpOp::Oge, Type::F64, nan, one));
        assert!(eval_fcmp(FCmpOp::Oeq, Type::F64, 0f64.to_bits(), (-0f64).to_bits()));
        assert_eq!(eval_fneg(Type::F32, 0), 0x8000_0000);
    }

    #[test]
    fn float_arithmetic_rounds_once() {
        let f = |v: f32| v.to_bits() as u64;
        assert_eq!(eval_fbin(FBinOp::FAdd, Type::F32, f(0.1), f(0.2)), Ok(f(0.1f32 + 0.2f32)));
        assert_eq!(eval_fbin(FBinOp::FDiv, Type::F64, 1f64.to_bits(), 0f64.to_bits()), Ok(f64::INFINITY.to_bits()));
    }

    #[test]
    fn long_double_is_computed_while_exactly_a_double() {
        let d = |v: f64| v.to_bits();
        let ld = |op, x: f64, y: f64| eval_fbin(op, Type::F80, d(x), d(y)).map(f64::from_bits);
        assert_eq!(ld(FBinOp::FMul, 7.0, 2.5), Ok(17.5));
        assert_eq!(ld(FBinOp::FMul, -2147483648.0, 2.5), Ok(-5368709120.0));
        assert_eq!(ld(FBinOp::FAdd, 1e308, -1e308), Ok(0.0));
        assert_eq!(ld(FBinOp::FDiv, 1.0, 4.0), Ok(0.25));
        assert_eq!(ld(FBinOp::FDiv, 1.0, 0.0), Ok(f64::INFINITY));
        // x87 keeps these (1/3, 1 + 2^-60, 2 * DBL_MAX) where a double cannot.
        assert_eq!(ld(FBinOp::FDiv, 1.0, 3.0), Err(FloatFail::NotDouble));
        assert_eq!(ld(FBinOp::FAdd, 1.0, 2f64.powi(-60)), Err(FloatFail::NotDouble));
        assert_eq!(ld(FBinOp::FMul, f64::MAX, 2.0), Err(FloatFail::NotDouble));
        assert_eq!(ld(FBinOp::FMul, 1e-300, 1e-300), Err(FloatFail::NotDouble));
        assert_eq!(eval_fcast(FCastOp::SIToFP, Type::I64, Type::F80, i64::MAX as u64), Err(FloatFail::NotDouble));
        assert_eq!(eval_fcast(FCastOp::SIToFP, Type::I64, Type::F80, 1 << 60), Ok(d(2f64.powi(60))));
        assert_eq!(eval_fcast(FCastOp::FPToSI, Type::F80, Type::I32, d(-7.5)), Ok((-7i32) as u32 as u64));
        assert_eq!(eval_fcast(FCastOp::FPExt, Type::F32, Type::F80, 0.5f32.to_bits() as u64), Ok(d(0.5)));
        assert_eq!(eval_fcast(FCastOp::FPTrunc, Type::F80, Type::F32, d(0.1)), Ok(0.1f32.to_bits() as u64));
    }
}

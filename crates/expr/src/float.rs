//! Floating-point operators over IEEE 754 bits, and their concrete
//! semantics.
//!
//! A `float` or `double` value is a 32- or 64-bit bit-vector holding its
//! IEEE bits (binary32 / binary64), as in the engine's registers and
//! memory: the floating operators here take and give bits (comparisons
//! give booleans), so that everything else (memory, `ite`, equality of
//! bits, slicing) needs nothing new. The solver backend reads the operands
//! as floating-point terms and translates trees of these operators natively.
//! `long double` (x87 extended precision) has no format here: the pool's
//! bit-vectors are at most 64 bits, so the engine keeps it concrete.
//!
//! **Semantics** are x86-64 SSE's (C's `float`/`double` with
//! `FLT_EVAL_METHOD == 0`): round-to-nearest-even arithmetic and square
//! root, C's comparisons (ordered `==`, `<`, `<=`: false when an operand is
//! NaN; `!=` is built as `not ==`), conversions with C's truncation toward
//! zero for floating to integer. NaN results are defined bit-exactly, as
//! SSE computes them:
//! - an operation with a NaN operand gives the first NaN operand, quieted
//!   (`addsd`, `sqrtsd`, `roundsd`, `cvtsd2ss`/`cvtss2sd`, which keep the
//!   sign and the high payload bits);
//! - an invalid operation (`inf - inf`, `0 * inf`, `0 / 0`, `inf / inf`,
//!   the square root of a negative number) gives the *default NaN*,
//!   `0xFFC00000` / `0xFFF8000000000000`.
//!
//! What is not exact: a compiler may swap the operands of a commutative
//! operation (`a + b` as `addsd b, a`), so which of two NaN operands
//! natively wins is the compiler's choice; emitted tests compare NaN
//! results with `isnan`. A floating-to-integer conversion out of the
//! integer's range (or of NaN) is undefined in C; the engine reports it,
//! and its value here is defined only to keep the evaluator and the solver
//! in agreement: `1 << (w - 1)` for signed (x86's "integer indefinite"),
//! 0 for unsigned results.

use crate::ops::{mask, to_signed};
use crate::pool::{Expr, ExprId, ExprPool, Sort};
use crate::{BvCmp, BvOp};

/// An IEEE 754 binary format.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum FpFmt {
    /// binary32, C's `float`.
    F32,
    /// binary64, C's `double`.
    F64,
}

impl FpFmt {
    /// The format of a `width`-bit value, if any.
    pub fn of_width(width: u32) -> Option<FpFmt> {
        match width {
            32 => Some(FpFmt::F32),
            64 => Some(FpFmt::F64),
            _ => None,
        }
    }

    /// Width of the bits.
    pub fn bits(self) -> u32 {
        match self {
            FpFmt::F32 => 32,
            FpFmt::F64 => 64,
        }
    }

    /// Exponent bits.
    pub fn ebits(self) -> u32 {
        match self {
            FpFmt::F32 => 8,
            FpFmt::F64 => 11,
        }
    }

    /// Significand bits, the hidden bit included (SMT-LIB's `sb`).
    pub fn sbits(self) -> u32 {
        self.bits() - self.ebits()
    }

    pub fn sign_bit(self) -> u64 {
        1 << (self.bits() - 1)
    }

    /// The bits of the magnitude (all but the sign).
    pub fn abs_mask(self) -> u64 {
        mask(self.bits() - 1)
    }

    /// The bits of positive infinity (all exponent bits set).
    pub fn inf_bits(self) -> u64 {
        mask(self.ebits()) << (self.sbits() - 1)
    }

    /// The smallest positive normal number's bits.
    pub fn min_normal_bits(self) -> u64 {
        1 << (self.sbits() - 1)
    }

    /// The quiet bit of a NaN (the top significand bit).
    pub fn quiet_bit(self) -> u64 {
        1 << (self.sbits() - 2)
    }

    /// x86's default NaN, the result of an invalid operation.
    pub fn default_nan(self) -> u64 {
        self.sign_bit() | self.inf_bits() | self.quiet_bit()
    }

    pub fn is_nan(self, bits: u64) -> bool {
        bits & self.abs_mask() > self.inf_bits()
    }

    /// The value (an `f32` widens exactly).
    pub fn to_f64(self, bits: u64) -> f64 {
        match self {
            FpFmt::F32 => f32::from_bits(bits as u32) as f64,
            FpFmt::F64 => f64::from_bits(bits),
        }
    }

    /// The bits of `2^e` (exact for the exponents used here).
    pub fn pow2(self, e: i32) -> u64 {
        match self {
            FpFmt::F32 => u64::from(2f32.powi(e).to_bits()),
            FpFmt::F64 => 2f64.powi(e).to_bits(),
        }
    }
}

/// Floating arithmetic, rounded to nearest, ties to even.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum FpOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// Ordered comparisons (false when an operand is NaN). `>` and `>=` swap
/// operands; `!=` is `not ==`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum FpCmp {
    Eq,
    Lt,
    Le,
}

/// Rounding directions of [`FpUn::Round`] (IEEE's roundToIntegral).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum RoundMode {
    /// `rint` under the default mode.
    NearestEven,
    /// `round`: halves away from zero.
    NearestAway,
    /// `floor`.
    Down,
    /// `ceil`.
    Up,
    /// `trunc`.
    TowardZero,
}

/// The rounding direction of floating arithmetic, as `fesetround` sets
/// it (x86's MXCSR rounding control, which `addsd`, `mulsd`... obey).
/// To nearest (ties to even) is C's default and every other operator's.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub enum Rounding {
    #[default]
    NearestEven,
    /// `FE_UPWARD`: toward +infinity.
    Up,
    /// `FE_DOWNWARD`: toward -infinity.
    Down,
    /// `FE_TOWARDZERO`.
    TowardZero,
}

impl Rounding {
    pub const ALL: [Rounding; 4] = [Rounding::NearestEven, Rounding::Up, Rounding::Down, Rounding::TowardZero];

    /// The mode of glibc's x86 `FE_*` value, if it is one.
    pub fn of_fenv(code: u64) -> Option<Rounding> {
        match code {
            0 => Some(Rounding::NearestEven),
            0x800 => Some(Rounding::Up),
            0x400 => Some(Rounding::Down),
            0xc00 => Some(Rounding::TowardZero),
            _ => None,
        }
    }

    /// glibc's x86 `FE_*` value (what `fegetround` returns).
    pub fn fenv(self) -> u64 {
        match self {
            Rounding::NearestEven => 0,
            Rounding::Up => 0x800,
            Rounding::Down => 0x400,
            Rounding::TowardZero => 0xc00,
        }
    }

    /// `rint`'s rounding to an integral value in this mode.
    pub fn to_integral(self) -> RoundMode {
        match self {
            Rounding::NearestEven => RoundMode::NearestEven,
            Rounding::Up => RoundMode::Up,
            Rounding::Down => RoundMode::Down,
            Rounding::TowardZero => RoundMode::TowardZero,
        }
    }

    fn apfloat(self) -> rustc_apfloat::Round {
        match self {
            Rounding::NearestEven => rustc_apfloat::Round::NearestTiesToEven,
            Rounding::Up => rustc_apfloat::Round::TowardPositive,
            Rounding::Down => rustc_apfloat::Round::TowardNegative,
            Rounding::TowardZero => rustc_apfloat::Round::TowardZero,
        }
    }
}

/// Unary floating operators.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum FpUn {
    /// Correctly rounded square root.
    Sqrt,
    /// The square root rounded in another direction than to nearest
    /// (after `fesetround`; `SqrtIn(NearestEven)` is built as `Sqrt`).
    SqrtIn(Rounding),
    /// Rounding to an integral value of the same format.
    Round(RoundMode),
}

/// Conversions. The source width of an integer operand is its own width.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum FpConv {
    /// Between formats (exact when widening, to nearest when narrowing).
    Fp { from: FpFmt, to: FpFmt },
    /// A signed integer to the nearest value of `to`.
    FromSigned(FpFmt),
    /// An unsigned integer to the nearest value of `to`.
    FromUnsigned(FpFmt),
    /// Truncation toward zero to a signed integer of `width` bits.
    ToSigned { from: FpFmt, width: u32 },
    /// Truncation toward zero to an unsigned integer of `width` bits.
    ToUnsigned { from: FpFmt, width: u32 },
}

impl FpOp {
    pub const ALL: [FpOp; 4] = [FpOp::Add, FpOp::Sub, FpOp::Mul, FpOp::Div];
}

impl FpCmp {
    pub const ALL: [FpCmp; 3] = [FpCmp::Eq, FpCmp::Lt, FpCmp::Le];
}

impl FpFmt {
    pub const ALL: [FpFmt; 2] = [FpFmt::F32, FpFmt::F64];
}

impl FpUn {
    pub const ALL: [FpUn; 9] = [
        FpUn::Sqrt,
        FpUn::SqrtIn(Rounding::Up),
        FpUn::SqrtIn(Rounding::Down),
        FpUn::SqrtIn(Rounding::TowardZero),
        FpUn::Round(RoundMode::NearestEven),
        FpUn::Round(RoundMode::NearestAway),
        FpUn::Round(RoundMode::Down),
        FpUn::Round(RoundMode::Up),
        FpUn::Round(RoundMode::TowardZero),
    ];
}

impl FpConv {
    /// Every conversion (integers of 8, 16, 32 and 64 bits), for readers
    /// of serialised expressions.
    pub fn all() -> Vec<FpConv> {
        let mut v = Vec::new();
        for from in FpFmt::ALL {
            for to in FpFmt::ALL {
                v.push(FpConv::Fp { from, to });
            }
            v.push(FpConv::FromSigned(from));
            v.push(FpConv::FromUnsigned(from));
            for width in [8, 16, 32, 64] {
                v.push(FpConv::ToSigned { from, width });
                v.push(FpConv::ToUnsigned { from, width });
            }
        }
        v
    }

    /// The width of the result.
    pub fn out_width(self) -> u32 {
        match self {
            FpConv::Fp { to, .. } | FpConv::FromSigned(to) | FpConv::FromUnsigned(to) => to.bits(),
            FpConv::ToSigned { width, .. } | FpConv::ToUnsigned { width, .. } => width,
        }
    }
}

/// A NaN's bits, quieted.
pub fn quiet(fmt: FpFmt, bits: u64) -> u64 {
    bits | fmt.quiet_bit()
}

/// The bits of a result `r` computed natively: an invalid operation's NaN
/// is x86's default NaN whatever the host produced.
fn result32(r: f32) -> u64 {
    if r.is_nan() {
        FpFmt::F32.default_nan()
    } else {
        u64::from(r.to_bits())
    }
}

fn result64(r: f64) -> u64 {
    if r.is_nan() {
        FpFmt::F64.default_nan()
    } else {
        r.to_bits()
    }
}

/// `a op b` on bits of format `fmt`.
pub fn eval_fbin(op: FpOp, fmt: FpFmt, a: u64, b: u64) -> u64 {
    for x in [a, b] {
        if fmt.is_nan(x) {
            return quiet(fmt, x);
        }
    }
    match fmt {
        FpFmt::F32 => {
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            result32(match op {
                FpOp::Add => x + y,
                FpOp::Sub => x - y,
                FpOp::Mul => x * y,
                FpOp::Div => x / y,
            })
        }
        FpFmt::F64 => {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            result64(match op {
                FpOp::Add => x + y,
                FpOp::Sub => x - y,
                FpOp::Mul => x * y,
                FpOp::Div => x / y,
            })
        }
    }
}

/// `a op b` on bits of format `fmt`, rounded in direction `rnd`: the
/// NaN results are the same in every direction (those of [`eval_fbin`]);
/// the others are APFloat's (LLVM's, exact in every direction).
pub fn eval_fbin_in(op: FpOp, rnd: Rounding, fmt: FpFmt, a: u64, b: u64) -> u64 {
    let nearest = eval_fbin(op, fmt, a, b);
    if rnd == Rounding::NearestEven || fmt.is_nan(nearest) {
        return nearest;
    }
    fn apply<F: rustc_apfloat::Float>(op: FpOp, r: rustc_apfloat::Round, x: F, y: F) -> F {
        match op {
            FpOp::Add => x.add_r(y, r).value,
            FpOp::Sub => x.sub_r(y, r).value,
            FpOp::Mul => x.mul_r(y, r).value,
            FpOp::Div => x.div_r(y, r).value,
        }
    }
    use rustc_apfloat::ieee::{Double, Single};
    use rustc_apfloat::Float;
    let r = rnd.apfloat();
    match fmt {
        FpFmt::F32 => apply(op, r, Single::from_bits(u128::from(a)), Single::from_bits(u128::from(b))).to_bits() as u64,
        FpFmt::F64 => apply(op, r, Double::from_bits(u128::from(a)), Double::from_bits(u128::from(b))).to_bits() as u64,
    }
}

/// The correctly rounded square root of `a` in direction `rnd` (NaN
/// results as [`eval_fun`]'s): the residual `a - s*s` of the nearest root
/// `s`, exact by a fused multiply-add, tells on which side of `s` the
/// exact root lies (it is never halfway, nor out of range).
pub fn eval_sqrt_in(rnd: Rounding, fmt: FpFmt, a: u64) -> u64 {
    let nearest = eval_fun(FpUn::Sqrt, fmt, a);
    if rnd == Rounding::NearestEven || fmt.is_nan(nearest) {
        return nearest;
    }
    let (mut x, mut s) = (fmt.to_f64(a), fmt.to_f64(nearest));
    if s == 0.0 || s.is_infinite() {
        return nearest;
    }
    // A tiny double's residual would underflow: scaled by an even power
    // of two (exact both ways), the root scales by half of it, and is
    // normal before and after, so it rounds the same.
    if x < f64::from_bits(0x1ff0_0000_0000_0000) {
        (x, s) = (x * 2f64.powi(600), s * 2f64.powi(300));
    }
    // For a float the root is computed in double, exactly enough: the
    // residual against the float root is exact in double precision.
    let residual = (-s).mul_add(s, x);
    let step = match (rnd, residual.partial_cmp(&0.0)) {
        (Rounding::Up, Some(std::cmp::Ordering::Greater)) => 1i64,
        (Rounding::Down | Rounding::TowardZero, Some(std::cmp::Ordering::Less)) => -1,
        _ => 0,
    };
    (nearest as i64 + step) as u64
}

/// A conversion in direction `rnd` (from an integer, or to a narrower
/// format; the others do not round, or truncate toward zero whatever the
/// mode): APFloat's result, NaN results as [`eval_fconv`]'s.
pub fn eval_fconv_in(op: FpConv, rnd: Rounding, in_width: u32, a: u64) -> u64 {
    use rustc_apfloat::ieee::{Double, Single};
    use rustc_apfloat::{Float, FloatConvert};
    let nearest = eval_fconv(op, in_width, a);
    let a = a & mask(in_width);
    let r = rnd.apfloat();
    match op {
        _ if rnd == Rounding::NearestEven => nearest,
        FpConv::Fp { from: FpFmt::F64, to: FpFmt::F32 } if !FpFmt::F64.is_nan(a) => {
            let mut lost = false;
            let x: Single = Double::from_bits(u128::from(a)).convert_r(r, &mut lost).value;
            x.to_bits() as u64
        }
        FpConv::FromSigned(to) | FpConv::FromUnsigned(to) => {
            let v = i128::from(to_signed(a, in_width));
            let signed = matches!(op, FpConv::FromSigned(_));
            match (to, signed) {
                (FpFmt::F32, true) => Single::from_i128_r(v, r).value.to_bits() as u64,
                (FpFmt::F64, true) => Double::from_i128_r(v, r).value.to_bits() as u64,
                (FpFmt::F32, false) => Single::from_u128_r(u128::from(a), r).value.to_bits() as u64,
                (FpFmt::F64, false) => Double::from_u128_r(u128::from(a), r).value.to_bits() as u64,
            }
        }
        _ => nearest,
    }
}

/// `a op b` (ordered) on bits of format `fmt`.
pub fn eval_fcmp(op: FpCmp, fmt: FpFmt, a: u64, b: u64) -> bool {
    let (x, y) = (fmt.to_f64(a), fmt.to_f64(b));
    match op {
        FpCmp::Eq => x == y,
        FpCmp::Lt => x < y,
        FpCmp::Le => x <= y,
    }
}

/// A unary operator on bits of format `fmt`.
pub fn eval_fun(op: FpUn, fmt: FpFmt, a: u64) -> u64 {
    if fmt.is_nan(a) {
        return quiet(fmt, a);
    }
    match (op, fmt) {
        (FpUn::Sqrt, FpFmt::F32) => result32(f32::from_bits(a as u32).sqrt()),
        (FpUn::Sqrt, FpFmt::F64) => result64(f64::from_bits(a).sqrt()),
        (FpUn::SqrtIn(rnd), _) => eval_sqrt_in(rnd, fmt, a),
        (FpUn::Round(mode), FpFmt::F32) => {
            let x = f32::from_bits(a as u32);
            u64::from(
                match mode {
                    RoundMode::NearestEven => x.round_ties_even(),
                    RoundMode::NearestAway => x.round(),
                    RoundMode::Down => x.floor(),
                    RoundMode::Up => x.ceil(),
                    RoundMode::TowardZero => x.trunc(),
                }
                .to_bits(),
            )
        }
        (FpUn::Round(mode), FpFmt::F64) => {
            let x = f64::from_bits(a);
            match mode {
                RoundMode::NearestEven => x.round_ties_even(),
                RoundMode::NearestAway => x.round(),
                RoundMode::Down => x.floor(),
                RoundMode::Up => x.ceil(),
                RoundMode::TowardZero => x.trunc(),
            }
            .to_bits()
        }
    }
}

/// A conversion of `a`, whose width is `in_width` (an integer source's).
pub fn eval_fconv(op: FpConv, in_width: u32, a: u64) -> u64 {
    let a = a & mask(in_width);
    let from_i64 = |to: FpFmt, v: i64| match to {
        FpFmt::F32 => u64::from((v as f32).to_bits()),
        FpFmt::F64 => (v as f64).to_bits(),
    };
    let from_u64 = |to: FpFmt, v: u64| match to {
        FpFmt::F32 => u64::from((v as f32).to_bits()),
        FpFmt::F64 => (v as f64).to_bits(),
    };
    match op {
        FpConv::Fp { from, to } if from == to => a,
        FpConv::Fp { from, to } => {
            if from.is_nan(a) {
                return convert_nan(from, to, a);
            }
            match to {
                FpFmt::F32 => u64::from((f64::from_bits(a) as f32).to_bits()),
                FpFmt::F64 => (f32::from_bits(a as u32) as f64).to_bits(),
            }
        }
        FpConv::FromSigned(to) => from_i64(to, to_signed(a, in_width)),
        FpConv::FromUnsigned(to) => from_u64(to, a),
        FpConv::ToSigned { from, width } => x86_to_int(from, width, true, a),
        FpConv::ToUnsigned { from, width } => x86_to_int(from, width, false, a),
    }
}

/// A conversion to an integer as gcc's x86-64 code computes it, out of
/// range too (C leaves that undefined; a run that goes on past it, as
/// `testcomp` and `--no-check float-to-int` do, must have the value the
/// compiled program has): a truncation `cvttsd2si`/`cvttss2si` to a 32- or
/// 64-bit register (see [`x86_cvtt_bits`]), whose low `width` bits are the
/// result; out of the register's range or NaN it gives the "integer
/// indefinite" `1 << (bits - 1)`. An unsigned 64-bit result is computed
/// from `a - 2^63` with the top bit flipped when `a >= 2^63`.
fn x86_to_int(from: FpFmt, width: u32, signed: bool, a: u64) -> u64 {
    if !signed && width == 64 {
        let two63 = from.pow2(63);
        if eval_fcmp(FpCmp::Le, from, two63, a) {
            return cvtt(from, 64, eval_fbin(FpOp::Sub, from, a, two63)) ^ (1 << 63);
        }
        return cvtt(from, 64, a);
    }
    cvtt(from, x86_cvtt_bits(width, signed), a) & mask(width)
}

/// The register width of the truncating conversion gcc uses for a
/// `width`-bit result: 32 bits for `char`, `short` (either signedness) and
/// `int`, 64 for `unsigned int` and `long` (`unsigned long` is 64 too, with
/// [`x86_to_int`]'s adjustment).
pub fn x86_cvtt_bits(width: u32, signed: bool) -> u32 {
    if width < 32 || (signed && width == 32) {
        32
    } else {
        64
    }
}

/// `cvtt?2si` to a `bits`-bit register.
fn cvtt(from: FpFmt, bits: u32, a: u64) -> u64 {
    if !int_in_range(from, bits, true, a) {
        return 1 << (bits - 1);
    }
    (from.to_f64(a).trunc() as i64 as u64) & mask(bits)
}

/// A NaN converted between formats as `cvtss2sd`/`cvtsd2ss` do: the sign,
/// quieted, the payload's high bits kept.
fn convert_nan(from: FpFmt, to: FpFmt, a: u64) -> u64 {
    let sign = if a & from.sign_bit() != 0 { to.sign_bit() } else { 0 };
    let payload = a & mask(from.sbits() - 1);
    let moved = if from.sbits() > to.sbits() {
        payload >> (from.sbits() - to.sbits())
    } else {
        payload << (to.sbits() - from.sbits())
    };
    sign | to.inf_bits() | to.quiet_bit() | moved
}

/// Whether C defines the conversion of `a` to an integer of `width` bits:
/// its truncation is within the type's range (NaN is not).
pub fn int_in_range(from: FpFmt, width: u32, signed: bool, a: u64) -> bool {
    let t = from.to_f64(a).trunc();
    let (lo, hi) = int_bounds(width, signed);
    t >= lo && t < hi
}

/// The range `[lo, hi)` of a `width`-bit integer as powers of two.
fn int_bounds(width: u32, signed: bool) -> (f64, f64) {
    if signed {
        (-(2f64.powi(width as i32 - 1)), 2f64.powi(width as i32 - 1))
    } else {
        (0.0, 2f64.powi(width as i32))
    }
}

/// The bits of `1 / c` when `c` and its reciprocal are normal powers of two.
fn reciprocal_of_power_of_two(fmt: FpFmt, c: u64) -> Option<u64> {
    let frac = mask(fmt.sbits() - 1);
    let normal = |v: u64| {
        let e = (v & fmt.abs_mask()) >> (fmt.sbits() - 1);
        e != 0 && e != mask(fmt.ebits()) && v & frac == 0
    };
    let one = match fmt {
        FpFmt::F32 => u64::from(1f32.to_bits()),
        FpFmt::F64 => 1f64.to_bits(),
    };
    let r = eval_fbin(FpOp::Div, fmt, one, c);
    (normal(c) && normal(r)).then_some(r)
}

/// Whether an expression node is a floating operator (see
/// [`ExprPool::has_float`]).
pub fn is_float(e: &Expr) -> bool {
    is_float_node(e)
}

pub(crate) fn is_float_node(e: &Expr) -> bool {
    matches!(e, Expr::FBin { .. } | Expr::FUn { .. } | Expr::FCmp { .. } | Expr::FConv { .. })
}

/// Builders. Operands are bit-vectors of the format's width; all-constant
/// operands fold with the concrete semantics above.
impl ExprPool {
    pub fn fbin(&mut self, op: FpOp, fmt: FpFmt, a: ExprId, b: ExprId) -> ExprId {
        self.fbin_in(op, Rounding::NearestEven, fmt, a, b)
    }

    /// `a op b` rounded in direction `rnd`.
    pub fn fbin_in(&mut self, op: FpOp, rnd: Rounding, fmt: FpFmt, a: ExprId, b: ExprId) -> ExprId {
        debug_assert!(self.width(a) == fmt.bits() && self.width(b) == fmt.bits());
        if let (Some(x), Some(y)) = (self.as_bv_const(a), self.as_bv_const(b)) {
            return self.bv_const(fmt.bits(), eval_fbin_in(op, rnd, fmt, x, y));
        }
        // `x / 2^k` is `x * 2^-k` when both powers are normal numbers: the
        // same real quotient rounded once, NaN and signs included; a
        // multiplier is a much smaller circuit than a divider for the solver.
        if let (FpOp::Div, Some(c)) = (op, self.as_bv_const(b)) {
            if let Some(r) = reciprocal_of_power_of_two(fmt, c) {
                // (In every direction: both are the same real number,
                // rounded once the same way.)
                let r = self.bv_const(fmt.bits(), r);
                return self.fbin_in(FpOp::Mul, rnd, fmt, a, r);
            }
        }
        self.intern(Expr::FBin { op, rnd, fmt, a, b }, Sort::Bv(fmt.bits()))
    }

    pub fn fcmp(&mut self, op: FpCmp, fmt: FpFmt, a: ExprId, b: ExprId) -> ExprId {
        debug_assert!(self.width(a) == fmt.bits() && self.width(b) == fmt.bits());
        if let (Some(x), Some(y)) = (self.as_bv_const(a), self.as_bv_const(b)) {
            return self.bool_const(eval_fcmp(op, fmt, x, y));
        }
        // `ceil(x) < x` and `x < floor(x)` never hold (NaN included): Z3
        // 4.8.12 took its whole budget to refute the first for a double.
        let rounded = |pool: &ExprPool, r: ExprId, mode: RoundMode, x: ExprId| matches!(*pool.get(r), Expr::FUn { op: FpUn::Round(m), a, .. } if m == mode && a == x);
        if op == FpCmp::Lt && (rounded(self, a, RoundMode::Up, b) || rounded(self, b, RoundMode::Down, a)) {
            return self.bool_const(false);
        }
        // Operands of known ranges may decide it (see `float_range`).
        if let Some(known) = crate::float_range::decide_fcmp(self, op, fmt, a, b) {
            return self.bool_const(known);
        }
        // Equality is symmetric: one node for `a == b` and `b == a`.
        let (a, b) = if op == FpCmp::Eq && b < a { (b, a) } else { (a, b) };
        self.intern(Expr::FCmp { op, fmt, a, b }, Sort::Bool)
    }

    pub fn fun(&mut self, op: FpUn, fmt: FpFmt, a: ExprId) -> ExprId {
        debug_assert_eq!(self.width(a), fmt.bits());
        let op = if op == FpUn::SqrtIn(Rounding::NearestEven) { FpUn::Sqrt } else { op };
        if let Some(x) = self.as_bv_const(a) {
            return self.bv_const(fmt.bits(), eval_fun(op, fmt, x));
        }
        // Rounding an integral value again changes nothing.
        if let (FpUn::Round(_), Expr::FUn { op: FpUn::Round(_), .. }) = (op, self.get(a)) {
            return a;
        }
        self.intern(Expr::FUn { op, fmt, a }, Sort::Bv(fmt.bits()))
    }

    pub fn fconv(&mut self, op: FpConv, a: ExprId) -> ExprId {
        let w = self.width(a);
        if let FpConv::Fp { from, to } = op {
            debug_assert_eq!(w, from.bits());
            if from == to {
                return a;
            }
        }
        if let Some(x) = self.as_bv_const(a) {
            return self.bv_const(op.out_width(), eval_fconv(op, w, x));
        }
        self.intern(Expr::FConv { op, a }, Sort::Bv(op.out_width()))
    }

    /// Whether the bits `a` of format `fmt` are a NaN (a bit test).
    pub fn fp_is_nan(&mut self, fmt: FpFmt, a: ExprId) -> ExprId {
        let abs = self.fp_abs(fmt, a);
        let inf = self.bv_const(fmt.bits(), fmt.inf_bits());
        self.cmp(BvCmp::Ult, inf, abs)
    }

    /// Whether `a` is an infinity.
    pub fn fp_is_inf(&mut self, fmt: FpFmt, a: ExprId) -> ExprId {
        let abs = self.fp_abs(fmt, a);
        let inf = self.bv_const(fmt.bits(), fmt.inf_bits());
        self.eq(inf, abs)
    }

    /// Whether `a` is finite (neither infinite nor NaN).
    pub fn fp_is_finite(&mut self, fmt: FpFmt, a: ExprId) -> ExprId {
        let abs = self.fp_abs(fmt, a);
        let inf = self.bv_const(fmt.bits(), fmt.inf_bits());
        self.cmp(BvCmp::Ult, abs, inf)
    }

    /// Whether `a` is a zero of either sign.
    pub fn fp_is_zero(&mut self, fmt: FpFmt, a: ExprId) -> ExprId {
        let abs = self.fp_abs(fmt, a);
        let zero = self.bv_const(fmt.bits(), 0);
        self.eq(zero, abs)
    }

    /// Whether `a` is a normal number.
    pub fn fp_is_normal(&mut self, fmt: FpFmt, a: ExprId) -> ExprId {
        let abs = self.fp_abs(fmt, a);
        let min = self.bv_const(fmt.bits(), fmt.min_normal_bits());
        let inf = self.bv_const(fmt.bits(), fmt.inf_bits());
        let above = self.cmp(BvCmp::Ule, min, abs);
        let finite = self.cmp(BvCmp::Ult, abs, inf);
        self.and(above, finite)
    }

    /// The sign bit of `a` as a boolean (also of NaN and zero).
    pub fn fp_sign(&mut self, fmt: FpFmt, a: ExprId) -> ExprId {
        let zero = self.bv_const(fmt.bits(), 0);
        self.cmp(BvCmp::Slt, a, zero)
    }

    /// `fabs`: the sign bit cleared.
    pub fn fp_abs(&mut self, fmt: FpFmt, a: ExprId) -> ExprId {
        let m = self.bv_const(fmt.bits(), fmt.abs_mask());
        self.bin(BvOp::And, m, a)
    }

    /// `-a`: the sign bit flipped.
    pub fn fp_neg(&mut self, fmt: FpFmt, a: ExprId) -> ExprId {
        let s = self.bv_const(fmt.bits(), fmt.sign_bit());
        self.bin(BvOp::Xor, s, a)
    }

    /// `copysign(a, b)`: the magnitude of `a`, the sign of `b`.
    pub fn fp_copysign(&mut self, fmt: FpFmt, a: ExprId, b: ExprId) -> ExprId {
        let abs = self.fp_abs(fmt, a);
        let s = self.bv_const(fmt.bits(), fmt.sign_bit());
        let sign = self.bin(BvOp::And, s, b);
        self.bin(BvOp::Or, abs, sign)
    }

    /// Whether converting `a` to a `width`-bit integer is defined (see
    /// [`int_in_range`]): its truncation lies in `[lo, hi)`, both powers
    /// of two and so exact in either format.
    pub fn fp_int_in_range(&mut self, fmt: FpFmt, width: u32, signed: bool, a: ExprId) -> ExprId {
        if let Some(x) = self.as_bv_const(a) {
            return self.bool_const(int_in_range(fmt, width, signed, x));
        }
        let (lo, hi) = int_bound_bits(fmt, width, signed);
        // A value of known range may always, or never, convert (see
        // `float_range`): no multiplier circuit for the solver to refute.
        if let Some(known) = crate::float_range::decide_in_range(self, fmt, a, fmt.to_f64(lo), fmt.to_f64(hi)) {
            return self.bool_const(known);
        }
        let t = self.fun(FpUn::Round(RoundMode::TowardZero), fmt, a);
        let (lo, hi) = (self.bv_const(fmt.bits(), lo), self.bv_const(fmt.bits(), hi));
        let above = self.fcmp(FpCmp::Le, fmt, lo, t);
        let below = self.fcmp(FpCmp::Lt, fmt, t, hi);
        self.and(above, below)
    }

    /// Whether `id` contains a floating operator (a property kept per node
    /// as the pool grows, so queries are classified in constant time).
    pub fn has_float(&self, id: ExprId) -> bool {
        self.float_flag(id)
    }
}

#[cfg(test)]
#[path = "float_tests.rs"]
mod tests;

/// Rounding-mode names of SMT-LIB.
fn rm_name(mode: RoundMode) -> &'static str {
    match mode {
        RoundMode::NearestEven => "RNE",
        RoundMode::NearestAway => "RNA",
        RoundMode::Down => "RTN",
        RoundMode::Up => "RTP",
        RoundMode::TowardZero => "RTZ",
    }
}

/// The SMT-LIB text (with Z3's `fp.to_ieee_bv`) of a floating node whose
/// operands' texts are `args`. NaN results get the bits the evaluator
/// gives them (`fp.to_ieee_bv` of NaN is unspecified), as in the Z3
/// backend's translation.
pub(crate) fn smtlib_text(e: &Expr, args: &[&str]) -> String {
    let fp = |fmt: FpFmt, x: &str| format!("((_ to_fp {} {}) {x})", fmt.ebits(), fmt.sbits());
    let bv = |fmt: FpFmt, v: u64| format!("(_ bv{v} {})", fmt.bits());
    // The bits of result `r` (a floating term), NaN operands first.
    let bits = |fmt: FpFmt, r: String, nan_ops: &[&str]| {
        let mut t = format!("(ite (fp.isNaN {r}) {} (fp.to_ieee_bv {r}))", bv(fmt, fmt.default_nan()));
        for x in nan_ops.iter().rev() {
            t = format!("(ite (fp.isNaN {}) (bvor {x} {}) {t})", fp(fmt, x), bv(fmt, fmt.quiet_bit()));
        }
        t
    };
    match *e {
        Expr::FBin { op, rnd, fmt, .. } => {
            let name = match op {
                FpOp::Add => "fp.add",
                FpOp::Sub => "fp.sub",
                FpOp::Mul => "fp.mul",
                FpOp::Div => "fp.div",
            };
            let rm = rm_name(rnd.to_integral());
            bits(fmt, format!("({name} {rm} {} {})", fp(fmt, args[0]), fp(fmt, args[1])), &[args[0], args[1]])
        }
        Expr::FUn { op, fmt, .. } => {
            let r = match op {
                FpUn::Sqrt => format!("(fp.sqrt RNE {})", fp(fmt, args[0])),
                FpUn::SqrtIn(r) => format!("(fp.sqrt {} {})", rm_name(r.to_integral()), fp(fmt, args[0])),
                FpUn::Round(m) => format!("(fp.roundToIntegral {} {})", rm_name(m), fp(fmt, args[0])),
            };
            bits(fmt, r, &[args[0]])
        }
        Expr::FCmp { op, fmt, .. } => {
            let name = match op {
                FpCmp::Eq => "fp.eq",
                FpCmp::Lt => "fp.lt",
                FpCmp::Le => "fp.leq",
            };
            format!("({name} {} {})", fp(fmt, args[0]), fp(fmt, args[1]))
        }
        Expr::FConv { op, .. } => conv_text(op, args[0]),
        _ => unreachable!("not a floating node"),
    }
}

/// See [`smtlib_text`]: conversions.
fn conv_text(op: FpConv, x: &str) -> String {
    let fp = |fmt: FpFmt, x: &str| format!("((_ to_fp {} {}) {x})", fmt.ebits(), fmt.sbits());
    let to_fp = |fmt: FpFmt| format!("(_ to_fp {} {})", fmt.ebits(), fmt.sbits());
    let ieee = |fmt: FpFmt, r: String| {
        format!("(ite (fp.isNaN {r}) (_ bv{} {}) (fp.to_ieee_bv {r}))", fmt.default_nan(), fmt.bits())
    };
    match op {
        FpConv::Fp { from, to } => {
            let (sign, _, payload) = nan_parts(from, to);
            let nan = format!(
                "(concat ((_ extract {sign} {sign}) {x}) (_ bv{} {}) {})",
                mask(to.ebits() + 1),
                to.ebits() + 1,
                match payload {
                    NanPayload::Widen { hi, pad } => format!("(concat ((_ extract {hi} 0) {x}) (_ bv0 {pad}))"),
                    NanPayload::Narrow { hi, lo } => format!("((_ extract {hi} {lo}) {x})"),
                }
            );
            let r = format!("({} RNE {})", to_fp(to), fp(from, x));
            format!("(ite (fp.isNaN {}) {nan} {})", fp(from, x), ieee(to, r))
        }
        FpConv::FromSigned(to) => ieee(to, format!("({} RNE {x})", to_fp(to))),
        FpConv::FromUnsigned(to) => ieee(to, format!("((_ to_fp_unsigned {} {}) RNE {x})", to.ebits(), to.sbits())),
        FpConv::ToSigned { from, width } | FpConv::ToUnsigned { from, width } => {
            // See `x86_to_int`.
            let signed = matches!(op, FpConv::ToSigned { .. });
            let v = fp(from, x);
            let cvtt = |v: &str, bits: u32| {
                let t = format!("(fp.roundToIntegral RTZ {v})");
                let (lo, hi) = int_bound_bits(from, bits, true);
                let lo = fp(from, &format!("(_ bv{lo} {})", from.bits()));
                let hi = fp(from, &format!("(_ bv{hi} {})", from.bits()));
                format!(
                    "(ite (and (fp.leq {lo} {t}) (fp.lt {t} {hi})) ((_ fp.to_sbv {bits}) RTZ {v}) (_ bv{} {bits}))",
                    1u64 << (bits - 1)
                )
            };
            if !signed && width == 64 {
                let two63 = fp(from, &format!("(_ bv{} {})", from.pow2(63), from.bits()));
                let less = cvtt(&format!("(fp.sub RNE {v} {two63})"), 64);
                return format!("(ite (fp.leq {two63} {v}) (bvxor {less} (_ bv{} 64)) {})", 1u64 << 63, cvtt(&v, 64));
            }
            let bits = x86_cvtt_bits(width, signed);
            let c = cvtt(&v, bits);
            if width < bits {
                format!("((_ extract {} 0) {c})", width - 1)
            } else {
                c
            }
        }
    }
}

/// Where a NaN's payload goes in a conversion between formats (see
/// [`convert_nan`]): the operand bits to keep, below the sign, the
/// exponent and the quiet bit of the result.
#[derive(Copy, Clone, Debug)]
pub enum NanPayload {
    /// Bits `hi..=0` of the operand, then `pad` zero bits.
    Widen { hi: u32, pad: u32 },
    /// Bits `hi..=lo` of the operand.
    Narrow { hi: u32, lo: u32 },
}

/// The sign bit's index in the operand, the number of bits set above the
/// payload in the result (exponent and quiet bit), and the payload.
pub fn nan_parts(from: FpFmt, to: FpFmt) -> (u32, u32, NanPayload) {
    let (fp, tp) = (from.sbits() - 2, to.sbits() - 2); // payload bits below the quiet bit
    let payload = if tp >= fp {
        NanPayload::Widen { hi: fp - 1, pad: tp - fp }
    } else {
        NanPayload::Narrow { hi: fp - 1, lo: fp - tp }
    };
    (from.bits() - 1, to.ebits() + 1, payload)
}

/// The bits of the bounds `[lo, hi)` of a conversion to a `width`-bit
/// integer (see [`ExprPool::fp_int_in_range`]).
pub fn int_bound_bits(fmt: FpFmt, width: u32, signed: bool) -> (u64, u64) {
    let w = width as i32;
    if signed {
        (fmt.pow2(w - 1) | fmt.sign_bit(), fmt.pow2(w - 1))
    } else {
        (0, fmt.pow2(w))
    }
}

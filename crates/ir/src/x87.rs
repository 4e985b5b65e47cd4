//! x87 extended precision: C's `long double` on x86-64 and i386, exactly.
//!
//! An [`X87`] is the 80-bit format of the x87 unit (`fstp tbyte`): a sign,
//! a 15-bit exponent and a 64-bit significand with an explicit integer
//! bit, held in the low 80 bits of a `u128` (little-endian in memory, 10
//! bytes of the C object's 12 or 16). Arithmetic rounds to nearest-even at
//! 64 bits of precision, as the x87 control word Linux sets; the operations
//! are `rustc_apfloat`'s (LLVM's APFloat, which rustc and Miri use for the
//! same purpose), with the unit's own NaN rules on top: an invalid
//! operation gives the *real indefinite* (a negative quiet NaN), and a NaN
//! operand is passed on quieted (of two, the one of larger significand).
//!
//! Registers hold an `f80` as the binary64 bits of the double it equals
//! whenever it equals one (see [`crate::types::Type::F80`]); an `X87` is the
//! exact value used where it does not: the engine's concrete non-double
//! `long double`s, the emitters' literals and `strtold`.

use std::cmp::Ordering;

use rustc_apfloat::ieee::{Double, Single, X87DoubleExtended as Ext};
use rustc_apfloat::{Float, FloatConvert, Round, Status};

use crate::float::{FBinOp, FCmpOp, FloatFail};

/// An x87 80-bit value (bits in the low 80 bits).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct X87(pub u128);

const EXP_MASK: u128 = 0x7fff;
const INT_BIT: u64 = 1 << 63;
const QUIET_BIT: u64 = 1 << 62;

impl X87 {
    /// The real indefinite: what an invalid operation returns.
    pub const INDEFINITE: X87 = X87((0xffffu128 << 64) | 0xc000_0000_0000_0000);

    fn ext(self) -> Ext {
        Ext::from_bits(self.0)
    }

    fn of(e: Ext) -> X87 {
        X87(e.to_bits())
    }

    pub fn sign(self) -> bool {
        self.0 >> 79 & 1 == 1
    }

    /// The biased exponent (0..=0x7fff).
    pub fn exponent(self) -> u32 {
        (self.0 >> 64 & EXP_MASK) as u32
    }

    /// The 64-bit significand, integer bit included.
    pub fn significand(self) -> u64 {
        self.0 as u64
    }

    pub fn is_nan(self) -> bool {
        self.exponent() == 0x7fff && self.significand() << 1 != 0
    }

    pub fn is_infinite(self) -> bool {
        self.exponent() == 0x7fff && self.significand() << 1 == 0
    }

    /// The exact value of a double (a NaN keeps its sign and payload and
    /// becomes quiet, as `fld` makes it).
    pub fn from_f64(x: f64) -> X87 {
        let bits = x.to_bits();
        let sign = u128::from(bits >> 63) << 79;
        let exp = (bits >> 52) & 0x7ff;
        let frac = bits & ((1 << 52) - 1);
        if exp == 0x7ff {
            let quiet = if frac == 0 { 0 } else { QUIET_BIT };
            return X87(sign | (EXP_MASK << 64) | u128::from(INT_BIT | quiet | frac << 11));
        }
        let mut lost = false;
        X87(Self::of(Double::from_bits(u128::from(bits)).convert(&mut lost).value).0 | sign)
    }

    /// The exact value of a float.
    pub fn from_f32(x: f32) -> X87 {
        X87::from_f64(f64::from(x))
    }

    /// The double nearest (ties to even); a NaN keeps its sign and the top
    /// of its payload, quiet.
    pub fn to_f64(self) -> f64 {
        self.to_f64_r(Round::NearestTiesToEven)
    }

    /// The double `self` rounds to in `mode`.
    pub fn to_f64_in(self, mode: Rounding) -> f64 {
        self.to_f64_r(mode.round())
    }

    fn to_f64_r(self, round: Round) -> f64 {
        if self.is_nan() {
            let frac = (self.significand() & !INT_BIT) >> 11 | 1 << 51;
            return f64::from_bits(u64::from(self.sign()) << 63 | 0x7ff << 52 | frac);
        }
        let mut lost = false;
        let d: Double = self.ext().convert_r(round, &mut lost).value;
        f64::from_bits(d.to_bits() as u64)
    }

    /// The float nearest (ties to even), rounded once.
    pub fn to_f32(self) -> f32 {
        self.to_f32_in(Rounding::NearestEven)
    }

    /// The float `self` rounds to in `mode`, rounded once.
    pub fn to_f32_in(self, mode: Rounding) -> f32 {
        if self.is_nan() {
            return self.to_f64() as f32;
        }
        let mut lost = false;
        let s: Single = self.ext().convert_r(mode.round(), &mut lost).value;
        f32::from_bits(s.to_bits() as u32)
    }

    /// The double this value equals, if it equals one (NaNs: when the
    /// payload survives the round trip).
    pub fn as_double(self) -> Option<f64> {
        let d = self.to_f64();
        (X87::from_f64(d) == self).then_some(d)
    }

    /// The greatest double not above this value (`-inf` below all), and
    /// the least not below it: a double `x` is `< self` exactly when
    /// `x <= self.floor_double()` (for a value that is not a double).
    pub fn floor_double(self) -> f64 {
        self.to_f64_r(Round::TowardNegative)
    }

    pub fn ceil_double(self) -> f64 {
        self.to_f64_r(Round::TowardPositive)
    }

    /// A signed or unsigned integer of `bits` bits, exactly (64-bit
    /// integers all fit the significand).
    pub fn from_int(v: i128) -> X87 {
        X87::of(Ext::from_i128(v).value)
    }

    /// An integer of up to 128 bits, rounded in `mode` where it does not
    /// fit the 64-bit significand.
    pub fn from_int_in(v: i128, mode: Rounding) -> X87 {
        X87::of(Ext::from_i128_r(v, mode.round()).value)
    }

    /// Truncated toward zero to a `width`-bit integer: undefined when out
    /// of range or NaN (C11 6.3.1.4).
    pub fn to_int(self, width: u32, signed: bool) -> Result<u64, FloatFail> {
        if self.is_nan() {
            return Err(FloatFail::Undefined);
        }
        let mut exact = false;
        let r = if signed {
            self.ext().to_i128_r(width as usize, Round::TowardZero, &mut exact).map(|v| v as u128)
        } else {
            self.ext().to_u128_r(width as usize, Round::TowardZero, &mut exact)
        };
        if r.status.contains(Status::INVALID_OP) {
            return Err(FloatFail::Undefined);
        }
        Ok(r.value as u64 & mask(width))
    }

    /// `self op other`, rounded to nearest-even at 64 bits of precision.
    pub fn arith(op: FBinOp, a: X87, b: X87) -> X87 {
        X87::arith_in(op, a, b, Rounding::NearestEven)
    }

    /// `self op other` at 64 bits of precision, rounded in `mode` (the
    /// x87 control word's rounding field, which `fesetround` sets).
    pub fn arith_in(op: FBinOp, a: X87, b: X87, mode: Rounding) -> X87 {
        if a.is_nan() || b.is_nan() {
            return X87::nan_operand(a, b);
        }
        let (x, y, round) = (a.ext(), b.ext(), mode.round());
        let r = match op {
            FBinOp::FAdd => x.add_r(y, round),
            FBinOp::FSub => x.sub_r(y, round),
            FBinOp::FMul => x.mul_r(y, round),
            FBinOp::FDiv => x.div_r(y, round),
        };
        if r.value.is_nan() {
            return X87::INDEFINITE;
        }
        X87::of(r.value)
    }

    /// The NaN of an operation with a NaN operand: that one, or of two the
    /// one with the larger significand, quieted.
    fn nan_operand(a: X87, b: X87) -> X87 {
        let pick = match (a.is_nan(), b.is_nan()) {
            (true, true) if (b.significand() | QUIET_BIT) > (a.significand() | QUIET_BIT) => b,
            (true, _) => a,
            _ => b,
        };
        X87(pick.0 | u128::from(QUIET_BIT))
    }

    /// Rounded to an integral value: toward `-inf` (`floorl`), `+inf`
    /// (`ceill`), zero (`truncl`), to nearest with ties away (`roundl`) or
    /// to even (`rintl`); a NaN quieted.
    pub fn round_to_integral(self, mode: Rounding) -> X87 {
        if self.is_nan() {
            return X87(self.0 | u128::from(QUIET_BIT));
        }
        X87::of(self.ext().round_to_integral(mode.round()).value)
    }

    /// The square root, correctly rounded (`fsqrt`): the real indefinite
    /// for a negative number, `-0` for `-0`.
    pub fn sqrt(self) -> X87 {
        self.sqrt_in(Rounding::NearestEven)
    }

    /// The square root rounded in `mode` (the result is nonnegative, so
    /// down and toward zero agree).
    pub fn sqrt_in(self, mode: Rounding) -> X87 {
        if self.is_nan() {
            return X87(self.0 | u128::from(QUIET_BIT));
        }
        if self.significand() == 0 || (self.is_infinite() && !self.sign()) {
            return self;
        }
        if self.sign() {
            return X87::INDEFINITE;
        }
        // value = m * 2^e; with s making e - s even and m * 2^s at least
        // 2^130, isqrt(m * 2^s) has at least 65 bits, rounded once to 64.
        let m = self.significand();
        let e = i64::from(self.exponent().max(1)) - 16383 - 63;
        let s = 130 + ((e - 130) & 1);
        let n = num_bigint::BigUint::from(m) << s as u64;
        let r = n.sqrt();
        let exact = &r * &r == n;
        let extra = r.bits() - 64;
        let q: u64 = (&r >> extra).try_into().expect("64 bits");
        let rem = &r - (num_bigint::BigUint::from(q) << extra);
        let half = num_bigint::BigUint::from(1u8) << (extra - 1);
        let inexact = !exact || rem != num_bigint::BigUint::ZERO;
        let up = match mode {
            Rounding::Up => inexact,
            Rounding::Down | Rounding::TowardZero => false,
            Rounding::NearestEven => rem > half || (rem == half && (!exact || q & 1 == 1)),
            Rounding::NearestAway => rem >= half,
        };
        let q = u128::from(q) + u128::from(up);
        X87::from_int(q as i128).scaled((e - s) / 2 + extra as i64)
    }

    /// `self * 2^e`, exact unless it leaves the range (then rounded).
    pub fn scaled(self, e: i64) -> X87 {
        let e = e.clamp(-(1 << 20), 1 << 20) as i32;
        X87::of(self.ext().scalbn(e))
    }

    /// `-self`: the sign bit flipped.
    pub fn neg(self) -> X87 {
        X87(self.0 ^ 1 << 79)
    }

    /// The comparison as C makes it (ordered, but `!=`).
    pub fn compare(op: FCmpOp, a: X87, b: X87) -> bool {
        let ord = a.ext().partial_cmp(&b.ext());
        match op {
            FCmpOp::Oeq => ord == Some(Ordering::Equal),
            FCmpOp::Une => ord != Some(Ordering::Equal),
            FCmpOp::Olt => ord == Some(Ordering::Less),
            FCmpOp::Ole => matches!(ord, Some(Ordering::Less | Ordering::Equal)),
            FCmpOp::Ogt => ord == Some(Ordering::Greater),
            FCmpOp::Oge => matches!(ord, Some(Ordering::Greater | Ordering::Equal)),
        }
    }

    /// The 10 bytes in memory, little-endian.
    pub fn to_le_bytes(self) -> [u8; 10] {
        let b = self.0.to_le_bytes();
        let mut out = [0u8; 10];
        out.copy_from_slice(&b[..10]);
        out
    }

    pub fn from_le_bytes(b: [u8; 10]) -> X87 {
        let mut all = [0u8; 16];
        all[..10].copy_from_slice(&b);
        X87(u128::from_le_bytes(all))
    }

    /// A decimal (`0.1`, `1e-3`) or hexadecimal (`0x1.8p1`) constant
    /// without sign or suffix, correctly rounded; `None` if malformed.
    pub fn parse(text: &str) -> Option<X87> {
        X87::parse_checked(text).map(|(x, _)| x)
    }

    /// [`X87::parse`], and whether the value overflowed to infinity or is
    /// tiny and inexact (where `strtold` sets `ERANGE`).
    pub fn parse_checked(text: &str) -> Option<(X87, bool)> {
        X87::parse_checked_in(text, Rounding::NearestEven)
    }

    /// [`X87::parse_checked`], rounded in `mode` (`strtold` after
    /// `fesetround`).
    pub fn parse_checked_in(text: &str, mode: Rounding) -> Option<(X87, bool)> {
        let r = Ext::from_str_r(text, mode.round()).ok()?;
        let range = r.status.intersects(Status::OVERFLOW | Status::UNDERFLOW);
        Some((X87::of(r.value), range))
    }

    /// An exact C constant of type `long double`: a hexadecimal literal
    /// (`0xa.aaaaaaaaaaaaaabp-5L`, the form of glibc's `%La`) for a finite
    /// value; `None` for an infinity or a NaN.
    pub fn hex_literal(self) -> Option<String> {
        if self.exponent() == 0x7fff {
            return None;
        }
        let sign = if self.sign() { "-" } else { "" };
        let sig = self.significand();
        if sig == 0 {
            return Some(format!("{sign}0x0p+0L"));
        }
        // value = sig * 2^(e - 16383 - 63), the exponent of a denormal
        // being that of the smallest normal.
        let e = i64::from(self.exponent().max(1)) - 16383 - 63;
        let text = format!("{sig:x}");
        let (lead, rest) = text.split_at(1);
        let rest = rest.trim_end_matches('0');
        let e = e + 4 * (text.len() as i64 - 1);
        let dot = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        Some(format!("{sign}0x{lead}{dot}p{e:+}L"))
    }
}

/// A rounding direction: of an arithmetic result or a conversion (the
/// four of `fesetround`), or to an integral value (with `roundl`'s ties
/// away from zero).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Rounding {
    Down,
    Up,
    TowardZero,
    NearestAway,
    NearestEven,
}

impl Rounding {
    fn round(self) -> Round {
        match self {
            Rounding::Down => Round::TowardNegative,
            Rounding::Up => Round::TowardPositive,
            Rounding::TowardZero => Round::TowardZero,
            Rounding::NearestAway => Round::NearestTiesToAway,
            Rounding::NearestEven => Round::NearestTiesToEven,
        }
    }
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn third() -> X87 {
        X87::arith(FBinOp::FDiv, X87::from_f64(1.0), X87::from_f64(3.0))
    }

    #[test]
    fn arithmetic_rounds_at_64_bits() {
        // 1/3 = 0xa.aaaaaaaaaaaaaabp-5 (glibc's `%La`), not a double.
        assert_eq!(third().hex_literal().as_deref(), Some("0xa.aaaaaaaaaaaaaabp-5L"));
        assert_eq!(third().as_double(), None);
        assert_eq!(third().to_f64(), 1.0 / 3.0);
        // 1 + 2^-63 is exact in 64 bits; 1 + 2^-64 ties to even (1).
        let one = X87::from_f64(1.0);
        let tiny = |e: i32| X87::from_f64(2f64.powi(e));
        assert_ne!(X87::arith(FBinOp::FAdd, one, tiny(-63)), one);
        assert_eq!(X87::arith(FBinOp::FAdd, one, tiny(-64)), one);
        // The exponent range is wider: 2^1000 * 2^1000 is finite.
        let big = X87::arith(FBinOp::FMul, tiny(1000), tiny(1000));
        assert!(!big.is_infinite() && big.to_f64().is_infinite());
        assert_eq!(X87::arith(FBinOp::FDiv, big, tiny(1000)), tiny(1000));
    }

    #[test]
    fn arithmetic_rounds_in_the_direction_asked() {
        let (one, three) = (X87::from_f64(1.0), X87::from_f64(3.0));
        let third_in = |mode| X87::arith_in(FBinOp::FDiv, one, three, mode);
        // 1/3 in 64 bits ends ...aaa|aaa...: nearest and up are ...aab,
        // down and toward zero ...aaa.
        let hex = |x: X87| x.hex_literal().unwrap_or_default();
        assert_eq!(hex(third_in(Rounding::Up)), "0xa.aaaaaaaaaaaaaabp-5L");
        assert_eq!(hex(third_in(Rounding::Down)), "0xa.aaaaaaaaaaaaaaap-5L");
        assert_eq!(third_in(Rounding::TowardZero), third_in(Rounding::Down));
        assert_eq!(third_in(Rounding::NearestEven), third());
        // Negative: down is away from zero.
        let minus = |mode| X87::arith_in(FBinOp::FDiv, one.neg(), three, mode);
        assert_eq!(minus(Rounding::Down), third_in(Rounding::Up).neg());
        assert_eq!(minus(Rounding::TowardZero), third_in(Rounding::Down).neg());
        // Conversions to double and float round in the direction as well
        // (the double nearest 1/3 is below it).
        let t = third();
        assert!(t.to_f64_in(Rounding::Up) > 1.0 / 3.0);
        assert_eq!(t.to_f64_in(Rounding::Down), 1.0 / 3.0);
        // The float nearest 1/3 is above it; down is the float below.
        assert_eq!(t.to_f32_in(Rounding::Up), 1.0f32 / 3.0);
        assert_eq!(t.to_f32_in(Rounding::Down), f32::from_bits((1.0f32 / 3.0).to_bits() - 1));
        // A 128-bit integer beyond 64 significant bits.
        let big = (1i128 << 70) + 1;
        assert_ne!(X87::from_int_in(big, Rounding::Up), X87::from_int_in(big, Rounding::Down));
        assert_eq!(X87::from_int_in(big, Rounding::Down), X87::from_int(1i128 << 70));
    }

    #[test]
    fn square_roots_round_in_the_direction_asked() {
        let two = X87::from_f64(2.0);
        let (up, down) = (two.sqrt_in(Rounding::Up), two.sqrt_in(Rounding::Down));
        // One unit in the last place apart, around the root: down^2 <= 2 <= up^2.
        assert_eq!(up.significand(), down.significand() + 1);
        assert!(X87::compare(FCmpOp::Ole, X87::arith_in(FBinOp::FMul, down, down, Rounding::Up), two));
        assert!(X87::compare(FCmpOp::Oge, X87::arith_in(FBinOp::FMul, up, up, Rounding::Down), two));
        assert!(two.sqrt() == up || two.sqrt() == down);
        assert_eq!(two.sqrt_in(Rounding::TowardZero), down);
        // Exact roots are the same in every direction.
        let four = X87::from_f64(4.0);
        assert_eq!(four.sqrt_in(Rounding::Up), X87::from_f64(2.0));
        assert_eq!(four.sqrt_in(Rounding::Down), X87::from_f64(2.0));
    }

    #[test]
    fn nans_follow_the_x87_unit() {
        let inf = X87::from_f64(f64::INFINITY);
        assert_eq!(X87::arith(FBinOp::FSub, inf, inf), X87::INDEFINITE);
        assert!(X87::INDEFINITE.sign() && X87::INDEFINITE.is_nan());
        let nan = X87::from_f64(f64::from_bits(0x7ff8_0000_0000_0001));
        assert_eq!(X87::arith(FBinOp::FAdd, X87::from_f64(1.0), nan), nan);
        assert_eq!(nan.to_f64().to_bits(), 0x7ff8_0000_0000_0001);
        assert!(!X87::compare(FCmpOp::Oeq, nan, nan) && X87::compare(FCmpOp::Une, nan, nan));
    }

    #[test]
    fn conversions_are_c_conversions() {
        assert_eq!(X87::from_int(i128::from(i64::MAX)).to_int(64, true), Ok(i64::MAX as u64));
        assert_eq!(X87::from_int(i128::from(u64::MAX)).to_int(64, false), Ok(u64::MAX));
        assert_eq!(X87::from_int(i128::from(u64::MAX)).to_int(64, true), Err(FloatFail::Undefined));
        assert_eq!(X87::from_f64(-2.9).to_int(32, true), Ok((-2i32) as u32 as u64));
        assert_eq!(X87::from_f64(-0.5).to_int(32, false), Ok(0));
        assert_eq!(third().to_f32(), 1.0f32 / 3.0);
        assert_eq!(X87::from_f64(-0.0).hex_literal().as_deref(), Some("-0x0p+0L"));
        assert_eq!(X87::from_f64(0.5).hex_literal().as_deref(), Some("0x8p-4L"));
        let t = third();
        assert!(t.floor_double() < t.ceil_double() && t.floor_double() == 1.0 / 3.0);
        assert_eq!(X87::from_le_bytes(t.to_le_bytes()), t);
        let r = |x: X87, m| x.round_to_integral(m).to_f64();
        let d = |v: f64| X87::from_f64(v);
        assert_eq!((r(d(-2.5), Rounding::NearestAway), r(d(-2.5), Rounding::NearestEven)), (-3.0, -2.0));
        assert_eq!(
            (r(d(-2.5), Rounding::Down), r(d(-2.5), Rounding::Up), r(d(-2.5), Rounding::TowardZero)),
            (-3.0, -2.0, -2.0)
        );
    }

    #[test]
    fn square_roots_are_rounded_once() {
        let d = |v: f64| X87::from_f64(v);
        assert_eq!(d(4.0).sqrt(), d(2.0));
        // sqrtl(2) = 0xb.504f333f9de6484p-3 (glibc's `%La`).
        assert_eq!(d(2.0).sqrt().hex_literal().as_deref(), Some("0xb.504f333f9de6484p-3L"));
        assert_eq!(d(-1.0).sqrt(), X87::INDEFINITE);
        assert_eq!(d(-0.0).sqrt(), d(-0.0));
        let third = X87::arith(FBinOp::FDiv, d(1.0), d(3.0));
        assert_eq!(third.sqrt().hex_literal().as_deref(), Some("0x9.3cd3a2c8198e269p-4L"));
        // A denormal's root (1e-4940L is below x87's normal range).
        let tiny = X87::parse("1e-4940").unwrap();
        assert_eq!(tiny.exponent(), 0);
        assert_eq!(tiny.sqrt().hex_literal().as_deref(), Some("0xe.4bf1839e031b768p-8209L"));
        assert_eq!(d(1e-310).sqrt().to_f64(), 1e-310f64.sqrt());
    }

    #[test]
    fn constants_parse_correctly_rounded() {
        let tenth = X87::parse("0.1").unwrap();
        assert_eq!(tenth.hex_literal().as_deref(), Some("0xc.ccccccccccccccdp-7L"));
        assert_eq!(X87::parse("0x1.8p1"), Some(X87::from_f64(3.0)));
        assert_eq!(X87::parse("1e4000").map(|x| x.is_infinite()), Some(false));
        assert_eq!(X87::parse("0.5"), Some(X87::from_f64(0.5)));
    }
}

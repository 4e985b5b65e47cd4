//! The decimal text of `long double` values that are no doubles, as
//! glibc's `printf` writes them (`%Lf`, `%Le`, `%Lg`): digits of the exact
//! binary value, rounded to nearest with ties to even (the default
//! rounding mode), computed with big integers. A `long double` that equals
//! a double prints as the double does (`stdio.rs`, Rust's exact
//! formatting), except in another rounding direction: glibc's `printf`
//! rounds the last digit in the direction `fesetround` set, which these
//! functions do for doubles too ([`Digits`]).

use num_bigint::BigUint;
use pathwise_ir::x87::X87;

/// The magnitude of finite `x` as `m * 2^e`.
fn parts(x: X87) -> (u64, i64) {
    (x.significand(), i64::from(x.exponent().max(1)) - 16383 - 63)
}

/// How the magnitude's last digit is rounded: to nearest (ties to even),
/// or down or up (the magnitude's: rounding a negative value upward
/// rounds its magnitude down).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Digits {
    Nearest,
    Down,
    Up,
}

impl Digits {
    /// How the digits of a value of sign `negative` are rounded in the
    /// direction `rnd`.
    pub(super) fn of(rnd: pathwise_expr::float::Rounding, negative: bool) -> Digits {
        use pathwise_expr::float::Rounding;
        match (rnd, negative) {
            (Rounding::NearestEven, _) => Digits::Nearest,
            (Rounding::TowardZero, _) | (Rounding::Up, true) | (Rounding::Down, false) => Digits::Down,
            (Rounding::Up, false) | (Rounding::Down, true) => Digits::Up,
        }
    }
}

/// `m * 2^e * 10^p`, rounded to an integer as `dir` says.
fn scaled(m: u64, e: i64, p: i64, dir: Digits) -> BigUint {
    let mut num = BigUint::from(m);
    let mut den = BigUint::from(1u8);
    if e >= 0 {
        num <<= e as u64;
    } else {
        den <<= (-e) as u64;
    }
    let ten = BigUint::from(10u8);
    if p >= 0 {
        num *= ten.pow(p as u32);
    } else {
        den *= ten.pow((-p) as u32);
    }
    let (q, r) = (&num / &den, &num % &den);
    let up = match dir {
        Digits::Down => false,
        Digits::Up => r != BigUint::ZERO,
        Digits::Nearest => {
            let twice: BigUint = r << 1u8;
            twice > den || (twice == den && q.bit(0))
        }
    };
    if up {
        q + 1u8
    } else {
        q
    }
}

/// `%.pf` of `|x|`: the digits and the point (`#`: the point even
/// without digits after it).
pub(super) fn fixed(x: X87, p: usize, hash: bool, dir: Digits) -> String {
    let (m, e) = parts(x);
    let digits = scaled(m, e, p as i64, dir).to_string();
    let digits = format!("{digits:0>width$}", width = p + 1);
    let (int, frac) = digits.split_at(digits.len() - p);
    match (p, hash) {
        (0, false) => int.to_string(),
        _ => format!("{int}.{frac}"),
    }
}

/// The `p + 1` significant digits of `|x|` and its decimal exponent after
/// rounding (zero: `p + 1` zeros, exponent 0).
fn significant(x: X87, p: usize, dir: Digits) -> (String, i64) {
    let (m, e) = parts(x);
    if m == 0 {
        return ("0".repeat(p + 1), 0);
    }
    let bits = 64 - i64::from(m.leading_zeros()) + e;
    // 10^x <= |x| < 10^(x+1), estimated from the binary exponent, then
    // corrected by the digit count the rounding gives.
    let mut exp = ((bits - 1) as f64 * std::f64::consts::LOG10_2).floor() as i64;
    loop {
        let digits = scaled(m, e, p as i64 - exp, dir).to_string();
        match digits.len().cmp(&(p + 1)) {
            std::cmp::Ordering::Greater => exp += 1,
            std::cmp::Ordering::Less => exp -= 1,
            std::cmp::Ordering::Equal => return (digits, exp),
        }
    }
}

/// `%.pe` of `|x|`: `d.ddde+XX` (at least two exponent digits).
pub(super) fn exponent(x: X87, p: usize, hash: bool, dir: Digits) -> String {
    let (digits, exp) = significant(x, p, dir);
    let (lead, rest) = digits.split_at(1);
    let point = if p > 0 || hash { "." } else { "" };
    format!("{lead}{point}{rest}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs())
}

/// `%.pg` of `|x|` (`p` at least 1): `%e` or `%f` by the exponent of the
/// `%e` form, trailing zeros removed unless `#`.
pub(super) fn general(x: X87, p: usize, hash: bool, dir: Digits) -> String {
    let (_, exp) = significant(x, p - 1, dir);
    let text = if (-4..p as i64).contains(&exp) {
        fixed(x, (p as i64 - 1 - exp) as usize, hash, dir)
    } else {
        exponent(x, p - 1, hash, dir)
    };
    if hash {
        return text;
    }
    super::stdio::strip_zeros(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathwise_ir::FBinOp;

    fn ld(a: f64, op: FBinOp, b: f64) -> X87 {
        X87::arith(op, X87::from_f64(a), X87::from_f64(b))
    }

    /// The texts glibc's printf gives (checked on this machine's glibc).
    #[test]
    fn texts_are_glibc_s() {
        let third = ld(1.0, FBinOp::FDiv, 3.0);
        assert_eq!(fixed(third, 6, false, Digits::Nearest), "0.333333");
        assert_eq!(fixed(third, 25, false, Digits::Nearest), "0.3333333333333333333423684");
        assert_eq!(exponent(third, 20, false, Digits::Nearest), "3.33333333333333333342e-01");
        assert_eq!(general(third, 6, false, Digits::Nearest), "0.333333");
        let tenth = X87::parse("0.1").unwrap();
        assert_eq!(fixed(tenth, 0, false, Digits::Nearest), "0");
        assert_eq!(fixed(tenth, 0, true, Digits::Nearest), "0.");
        assert_eq!(fixed(tenth, 20, false, Digits::Nearest), "0.10000000000000000000");
        assert_eq!(general(tenth, 25, false, Digits::Nearest), "0.1000000000000000000013553");
        let big = ld(1e300, FBinOp::FMul, 1e300);
        assert_eq!(exponent(big, 6, false, Digits::Nearest), "1.000000e+600");
        assert_eq!(general(big, 6, false, Digits::Nearest), "1e+600");
        let small = ld(1e-300, FBinOp::FMul, 1e-300);
        assert_eq!(general(small, 3, true, Digits::Nearest), "1.00e-600");
        let two_thirds = ld(2.0, FBinOp::FDiv, 3.0);
        assert_eq!(general(two_thirds, 1, false, Digits::Nearest), "0.7");
        assert_eq!(general(ld(2e5, FBinOp::FDiv, 3.0), 6, false, Digits::Nearest), "66666.7");
        assert_eq!(general(ld(2e6, FBinOp::FDiv, 3.0), 6, false, Digits::Nearest), "666667");
        assert_eq!(general(ld(2e7, FBinOp::FDiv, 3.0), 6, false, Digits::Nearest), "6.66667e+06");
    }

    /// Directed roundings, as glibc's printf gives them after
    /// `fesetround` (checked on this machine's glibc): 1.005 is
    /// 1.00499999999999989... in binary.
    #[test]
    fn digits_round_in_the_direction_asked() {
        let x = X87::from_f64(1.005);
        assert_eq!(fixed(x, 2, false, Digits::Up), "1.01");
        assert_eq!(fixed(x, 2, false, Digits::Down), "1.00");
        assert_eq!(fixed(x, 2, false, Digits::Nearest), "1.00");
        let tenth = X87::from_f64(0.1);
        assert_eq!(exponent(tenth, 3, false, Digits::Up), "1.001e-01");
        assert_eq!(general(tenth, 6, false, Digits::Up), "0.100001");
        assert_eq!(general(tenth, 6, false, Digits::Down), "0.1");
        // Exact values: ties are no longer ties.
        assert_eq!(fixed(X87::from_f64(0.25), 1, false, Digits::Up), "0.3");
        assert_eq!(fixed(X87::from_f64(0.5), 0, false, Digits::Up), "1");
        assert_eq!(fixed(X87::from_f64(0.5), 0, false, Digits::Down), "0");
        // Rounding up to the next power of ten moves the exponent.
        assert_eq!(exponent(X87::from_f64(9.9999), 2, false, Digits::Up), "1.00e+01");
        use pathwise_expr::float::Rounding;
        assert_eq!(Digits::of(Rounding::Up, true), Digits::Down);
        assert_eq!(Digits::of(Rounding::Down, true), Digits::Up);
        assert_eq!(Digits::of(Rounding::TowardZero, true), Digits::Down);
    }
}

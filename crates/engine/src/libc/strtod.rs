//! `strtod`, `strtof` and `atof`: the syntax of glibc's `strtod_l.c` in the
//! "C" locale, decided byte by byte on symbolic strings; the value is the
//! host C library's own conversion of the accepted text.
//!
//! The accepted prefix, after white space (`isspace`) and an optional sign:
//! `inf` or `infinity` and `nan` or `nan(n-char-sequence)` in any case; a
//! hexadecimal number `0x` with hexadecimal digits, an optional point and a
//! binary exponent `p[+-]digits`; or a decimal number with at least one
//! digit, an optional point and an exponent `e[+-]digits`. An exponent or a
//! `nan(` with nothing valid after it is not part of the number, and a `0x`
//! with no hexadecimal digit after it converts the `0` alone. With no
//! number, the result is 0 and `*endptr` is the string itself.
//!
//! Each test of a symbolic byte is a decision (its class: a digit, the
//! point, the exponent letter); the digit and white-space loops are bounded
//! by k like `strtol`'s, the fixed spellings (`infinity`) by their length.
//! Floating values are never symbolic (see `fp.rs`), so the bytes whose
//! values the number depends on beyond their class (the digits, a NaN's
//! payload) are fixed to this run's values and reported; the text is then
//! converted by the host's `strtod`/`strtof` (glibc's, correctly rounded,
//! in the direction `fesetround` set),
//! which also says whether `errno` becomes `ERANGE` (overflow, or an
//! inexact result in the subnormal range). `strtold` converts the same
//! text to x87's 80 bits, correctly rounded as glibc's does
//! (`pathwise_ir::x87`), in the direction too.

use std::ffi::CString;

use super::{byte, errno, pinned, ByteLoop, Call, Int, LibcHost, Outcome};
use crate::path::End;
use crate::value::{Pointer, Value};
use pathwise_expr::float::Rounding;
use pathwise_ir::x87::{Rounding as X87Rounding, X87};

pub(super) const NAMES: &[&str] = &["strtod", "strtof", "strtold", "atof"];

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    let endptr = (c.name != "atof").then(|| c.ptr(1));
    let text = match strtod(h, c.ptr(0), endptr) {
        Ok(text) => text,
        Err(end) => return Some(Err(end)),
    };
    let Some(text) = text else { return Some(Ok(Some(Value::int(0)))) };
    // glibc rounds in the direction `fesetround` set.
    let rnd = h.rounding();
    let (value, range_error) = match c.name {
        "strtold" => extended(&text, rnd),
        name => {
            let (bits, range_error) = host_strtod(&text, name == "strtof", rnd);
            (Value::int(bits), range_error)
        }
    };
    if range_error {
        if let Err(end) = errno::set(h, errno::ERANGE) {
            return Some(Err(end));
        }
    }
    Some(Ok(Some(value)))
}

/// The scan so far: the string, the index of the next byte and the
/// accepted text (this run's bytes).
struct Scan {
    s: Pointer,
    i: u64,
    text: Vec<u8>,
}

impl Scan {
    /// The next byte.
    fn peek(&self, h: &mut dyn LibcHost) -> Result<Int, End> {
        byte(h, self.s, self.i)
    }

    /// Whether the next byte is `c` in either case (a decision); taken
    /// into the text when it is.
    fn letter(&mut self, h: &mut dyn LibcHost, c: u8) -> Result<bool, End> {
        let b = self.peek(h)?;
        let pool = h.pool();
        let lower = b.eqc(pool, u64::from(c.to_ascii_lowercase()));
        let upper = b.eqc(pool, u64::from(c.to_ascii_uppercase()));
        let either = lower.or(pool, upper);
        if !h.decide(either)? {
            return Ok(false);
        }
        self.take(h, b, false);
        Ok(true)
    }

    /// Whether the next bytes spell `word` (any case), consuming them
    /// only if all do.
    fn word(&mut self, h: &mut dyn LibcHost, word: &[u8]) -> Result<bool, End> {
        let (i, len) = (self.i, self.text.len());
        for &c in word {
            if !self.letter(h, c)? {
                self.i = i;
                self.text.truncate(len);
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Take byte `b` into the text; `fix`: its value matters beyond the
    /// decisions made on it (a digit), so a symbolic one is fixed.
    fn take(&mut self, h: &mut dyn LibcHost, b: Int, fix: bool) {
        let v = if fix { h.concretise(b) } else { b.conc };
        self.text.push(v as u8);
        self.i += 1;
    }

    /// A run of digits (decimal, or hexadecimal with `hex`), a loop
    /// bounded by k: how many were taken.
    fn digits(&mut self, h: &mut dyn LibcHost, hex: bool) -> Result<u64, End> {
        let mut lp = ByteLoop::while_true();
        let mut n = 0;
        loop {
            let b = self.peek(h)?;
            // Whether `b` is a digit of base 10 (16 with `hex`), as
            // `strtol` tests it.
            let (is, _) = super::stdlib::digit(h, b, if hex { 16 } else { 10 }, 8);
            if !h.decide_loop(is, &mut lp)? {
                return Ok(n);
            }
            self.take(h, b, true);
            n += 1;
        }
    }
}

/// The scan of `strtod(s, endptr)` (and `strtof`, `strtold`): the text of
/// the number, if there is one (`*endptr` is set).
fn strtod(h: &mut dyn LibcHost, s: Pointer, endptr: Option<Pointer>) -> Result<Option<Vec<u8>>, End> {
    let s = pinned(h, s);
    let mut scan = Scan { s, i: 0, text: Vec::new() };
    let mut lp = ByteLoop::while_true();
    loop {
        let b = scan.peek(h)?;
        let space = super::stdlib::is_space(h, b);
        if !h.decide_loop(space, &mut lp)? {
            break;
        }
        scan.i += 1;
    }
    let b = scan.peek(h)?;
    let minus = b.eqc(h.pool(), u64::from(b'-'));
    if h.decide(minus)? {
        scan.take(h, b, false);
    } else {
        let plus = b.eqc(h.pool(), u64::from(b'+'));
        if h.decide(plus)? {
            scan.take(h, b, false);
        }
    }
    let accepted = number(h, &mut scan)?;
    let (at, text) = if accepted { (scan.i, scan.text) } else { (0, Vec::new()) };
    if let Some(e) = endptr.filter(|&e| !h.is_null(e)) {
        h.store(e, pathwise_ir::Type::Ptr, Value::Ptr(super::at(s, at)))?;
    }
    Ok(accepted.then_some(text))
}

/// `strtold`'s conversion of `text`, correctly rounded to x87's 64 bits
/// as glibc's is (`pathwise_ir::x87`), and whether `errno` becomes
/// `ERANGE` (an overflow, or a tiny inexact result).
pub(super) fn extended(text: &[u8], rnd: Rounding) -> (Value, bool) {
    let text = String::from_utf8_lossy(text).to_ascii_lowercase();
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(&text)),
    };
    // The magnitude is parsed: rounding a negative value up rounds its
    // magnitude down.
    let mode = match (crate::machine::fp::x87_rounding(rnd), negative) {
        (X87Rounding::Up, true) => X87Rounding::Down,
        (X87Rounding::Down, true) => X87Rounding::Up,
        (mode, _) => mode,
    };
    let (x, range_error) = if body.starts_with("inf") {
        (X87::from_f64(f64::INFINITY), false)
    } else if body.starts_with("nan") {
        // The payload of `nan(...)` is left out (a quiet NaN).
        (X87::from_f64(f64::NAN), false)
    } else {
        // A hexadecimal number may leave out its exponent; APFloat needs one.
        let body = if body.starts_with("0x") && !body.contains('p') { format!("{body}p0") } else { body.to_string() };
        X87::parse_checked_in(&body, mode).unwrap_or((X87::from_f64(0.0), false))
    };
    (Value::of_x87(if negative { x.neg() } else { x }), range_error)
}

/// The number after the sign; whether there is one (else nothing is
/// converted).
fn number(h: &mut dyn LibcHost, scan: &mut Scan) -> Result<bool, End> {
    if scan.word(h, b"inf")? {
        scan.word(h, b"inity")?;
        return Ok(true);
    }
    if scan.word(h, b"nan")? {
        nan_payload(h, scan)?;
        return Ok(true);
    }
    let b = scan.peek(h)?;
    let zero = b.eqc(h.pool(), u64::from(b'0'));
    if h.decide(zero)? {
        let (i, len) = (scan.i, scan.text.len());
        scan.take(h, b, false);
        if scan.letter(h, b'x')? {
            if mantissa(h, scan, true)? {
                exponent(h, scan, b'p')?;
                return Ok(true);
            }
            // `0x` without a digit: the `0` alone.
            scan.i = i + 1;
            scan.text.truncate(len + 1);
            return Ok(true);
        }
        scan.i = i;
        scan.text.truncate(len);
    }
    if !mantissa(h, scan, false)? {
        return Ok(false);
    }
    exponent(h, scan, b'e')?;
    Ok(true)
}

/// Digits, an optional point and digits: whether there was a digit
/// (without one, nothing is taken).
fn mantissa(h: &mut dyn LibcHost, scan: &mut Scan, hex: bool) -> Result<bool, End> {
    let (i, len) = (scan.i, scan.text.len());
    let mut n = scan.digits(h, hex)?;
    let b = scan.peek(h)?;
    let point = b.eqc(h.pool(), u64::from(b'.'));
    if h.decide(point)? {
        scan.take(h, b, false);
        n += scan.digits(h, hex)?;
    }
    if n == 0 {
        scan.i = i;
        scan.text.truncate(len);
    }
    Ok(n > 0)
}

/// An exponent (`e` or `p`, an optional sign, decimal digits), taken only
/// when it has a digit.
fn exponent(h: &mut dyn LibcHost, scan: &mut Scan, letter: u8) -> Result<(), End> {
    let (i, len) = (scan.i, scan.text.len());
    if !scan.letter(h, letter)? {
        return Ok(());
    }
    let b = scan.peek(h)?;
    let pool = h.pool();
    let minus = b.eqc(pool, u64::from(b'-'));
    let plus = b.eqc(pool, u64::from(b'+'));
    let sign = minus.or(pool, plus);
    if h.decide(sign)? {
        scan.take(h, b, false);
    }
    if scan.digits(h, false)? == 0 {
        scan.i = i;
        scan.text.truncate(len);
    }
    Ok(())
}

/// After `nan`: `(` letters, digits and `_` `)` is the payload; without
/// the closing parenthesis nothing after `nan` is taken.
fn nan_payload(h: &mut dyn LibcHost, scan: &mut Scan) -> Result<(), End> {
    let (i, len) = (scan.i, scan.text.len());
    let b = scan.peek(h)?;
    let open = b.eqc(h.pool(), u64::from(b'('));
    if !h.decide(open)? {
        return Ok(());
    }
    scan.take(h, b, false);
    let mut lp = ByteLoop::while_true();
    loop {
        let b = scan.peek(h)?;
        let pool = h.pool();
        let alnum = b.in_range(pool, u64::from(b'0'), u64::from(b'9'));
        let lower = b.in_range(pool, u64::from(b'a'), u64::from(b'z'));
        let upper = b.in_range(pool, u64::from(b'A'), u64::from(b'Z'));
        let under = b.eqc(pool, u64::from(b'_'));
        let is = alnum.or(pool, lower).or(pool, upper).or(pool, under);
        if !h.decide_loop(is, &mut lp)? {
            break;
        }
        scan.take(h, b, true);
    }
    let b = scan.peek(h)?;
    let close = b.eqc(h.pool(), u64::from(b')'));
    if h.decide(close)? {
        scan.take(h, b, false);
    } else {
        scan.i = i;
        scan.text.truncate(len);
    }
    Ok(())
}

/// The host C library's conversion of `text` (a whole number as the scan
/// accepted it): the result's bits and whether `errno` became `ERANGE`.
pub(super) fn host_strtod(text: &[u8], single: bool, rnd: Rounding) -> (u64, bool) {
    extern "C" {
        // glibc's, in libm (which the build links for the math shim).
        fn fegetround() -> libc::c_int;
        fn fesetround(mode: libc::c_int) -> libc::c_int;
    }
    let c = CString::new(text).expect("the scan takes no NUL byte");
    // SAFETY: `c` is a NUL-terminated string that outlives the calls, the
    // end pointer may be null, and `errno` and the rounding direction are
    // the calling thread's own (restored before returning).
    unsafe {
        let saved = fegetround();
        fesetround(rnd.fenv() as libc::c_int);
        *libc::__errno_location() = 0;
        let bits = if single {
            u64::from(libc::strtof(c.as_ptr(), std::ptr::null_mut()).to_bits())
        } else {
            libc::strtod(c.as_ptr(), std::ptr::null_mut()).to_bits()
        };
        let range = *libc::__errno_location() == libc::ERANGE;
        fesetround(saved);
        (bits, range)
    }
}

/// How many bytes of `text` the host's `strtod` converts: `scanf`
/// collects texts with more (`"1e+"`, `"0x8p"`) or nothing to convert (a
/// point alone).
pub(super) fn accepted_len(text: &[u8]) -> usize {
    let Ok(c) = CString::new(text) else { return 0 };
    let mut end: *mut libc::c_char = std::ptr::null_mut();
    // SAFETY: `c` is a NUL-terminated string that outlives the call, and
    // `end` a valid place for the end pointer, which points into `c`.
    unsafe {
        libc::strtod(c.as_ptr(), &mut end);
        usize::try_from(end.offset_from(c.as_ptr())).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::{accepted_len, extended, host_strtod, Rounding, X87};
    use crate::value::Value;

    /// `strtold` as glibc computes it (its `%La` and `errno` on this
    /// machine for the same texts).
    #[test]
    fn strtold_rounds_to_64_bits_as_glibc_does() {
        let text = |t: &str| {
            let (v, range) = extended(t.as_bytes(), Rounding::NearestEven);
            (v.x87().hex_literal(), range)
        };
        assert_eq!(text("0.1"), (Some("0xc.ccccccccccccccdp-7L".into()), false));
        assert_eq!(text("-0x1.8"), (Some("-0xcp-3L".into()), false));
        assert_eq!(text("3"), (Some("0xcp-2L".into()), false));
        assert_eq!(text("1e5000"), (None, true));
        assert_eq!(text("1e-4960"), (Some("0x0p+0L".into()), true));
        let (tiny, range) = extended(b"1e-4940", Rounding::NearestEven);
        assert!(range && tiny.x87().exponent() == 0 && tiny.x87().significand() != 0);
        let (nan, range) = extended(b"-nan", Rounding::NearestEven);
        assert!(!range && matches!(nan, Value::Int { .. }) && nan.x87().is_nan() && nan.x87().sign());
        assert_eq!(extended(b"InF", Rounding::NearestEven).0.x87(), pathwise_ir::x87::X87::from_f64(f64::INFINITY));
    }

    #[test]
    fn scanf_texts_convert_their_prefix() {
        assert_eq!(accepted_len(b"."), 0);
        assert_eq!(accepted_len(b"-."), 0);
        assert_eq!(accepted_len(b"0x."), 1);
        assert_eq!(accepted_len(b"1e+"), 1);
        assert_eq!(accepted_len(b"0x8p"), 3);
        assert_eq!(accepted_len(b"-inf"), 4);
    }

    #[test]
    fn the_host_converts_as_glibc_does() {
        assert_eq!(host_strtod(b"1.5", false, Rounding::NearestEven), (1.5f64.to_bits(), false));
        assert_eq!(host_strtod(b"-0x1.8p1", false, Rounding::NearestEven), ((-3.0f64).to_bits(), false));
        assert_eq!(host_strtod(b"1e999", false, Rounding::NearestEven), (f64::INFINITY.to_bits(), true));
        assert_eq!(host_strtod(b"1e-400", false, Rounding::NearestEven), (0, true));
        assert_eq!(host_strtod(b"0.1", true, Rounding::NearestEven), (u64::from(0.1f32.to_bits()), false));
        assert_eq!(host_strtod(b"InFiNiTy", false, Rounding::NearestEven), (f64::INFINITY.to_bits(), false));
        assert!(f64::from_bits(host_strtod(b"nan(12)", false, Rounding::NearestEven).0).is_nan());
    }

    /// After `fesetround`, glibc's conversions round in the direction
    /// (0.1 is between two doubles, the nearest above it), and the host's
    /// direction is left as it was.
    #[test]
    fn conversions_round_in_the_direction_asked() {
        let tenth = 0.1f64.to_bits();
        assert_eq!(host_strtod(b"0.1", false, Rounding::Up), (tenth, false));
        assert_eq!(host_strtod(b"0.1", false, Rounding::Down), (tenth - 1, false));
        assert_eq!(host_strtod(b"-0.1", false, Rounding::Up), ((-0.1f64).to_bits() - 1, false));
        assert_eq!(host_strtod(b"0.1", false, Rounding::NearestEven), (tenth, false));
        // Toward zero, an overflow is the largest finite value.
        assert_eq!(host_strtod(b"1e999", false, Rounding::TowardZero), (f64::MAX.to_bits(), true));
        let third = |rnd| extended(b"0.3333333333333333333333", rnd).0.x87();
        assert!(X87::compare(pathwise_ir::FCmpOp::Olt, third(Rounding::Down), third(Rounding::Up)));
        let minus = |rnd| extended(b"-0.3333333333333333333333", rnd).0.x87();
        assert_eq!(minus(Rounding::Up), third(Rounding::Down).neg());
    }
}

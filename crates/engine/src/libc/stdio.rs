//! `<stdio.h>` output: `snprintf`/`sprintf` into a buffer, and `printf`,
//! `fprintf`, `puts`, `fputs`, `putchar`, `fputc`, `putc`, `fwrite`,
//! `fflush` as calls without effect on the program's memory that return
//! what glibc returns. What goes to `stdout` is recorded, byte for byte as
//! glibc writes it with the run's values (`LibcHost::write_stdout`), and
//! the tests compare it; `stderr` and other streams are not checked.
//!
//! Conversions: `%d %i %u %x %X %o %c %s %%` with the flags `- + space # 0`,
//! a width and a precision (both may be `*`), the length modifiers `hh h
//! l ll z j t`, and `%f %F %e %E %g %G` on `double`s (exact decimal
//! expansions with ties to even, glibc's in the default rounding mode, and
//! the last digit rounded in the direction `fesetround` set otherwise, as
//! glibc does).
//! `%p`, `%n`, `%a` and wide conversions are unsupported (the run ends
//! without a test). The format must be concrete (a symbolic format byte is
//! fixed and reported). `%s` reads its string through the program's loads,
//! byte by byte like `strlen` (decisions bounded by k; a precision bounds
//! the read instead), so the bytes copied into a buffer stay symbolic, as
//! does `%c`'s. A symbolic integer formatted into a buffer is fixed to its
//! value (reported: its digits are the output); formatted to a stream, only
//! its length matters, which is an expression of the value (digit counts
//! by comparisons with powers of the base), so printing an input neither
//! forks nor fixes it. A null `%s` argument is undefined in C (glibc
//! prints `(null)`, gcc's `puts` rewrite crashes): an error test.

use pathwise_expr::{BvCmp, BvOp};
use pathwise_ir::x87::X87;
use pathwise_ir::Type;

use super::{at, byte, format_byte, pinned, strlen, ByteLoop, Call, Cond, Int, LibcHost, Outcome};
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::{Pointer, Value};

pub(super) const NAMES: &[&str] = &[
    "printf",
    "fprintf",
    "sprintf",
    "snprintf",
    "vprintf",
    "vfprintf",
    "vsprintf",
    "vsnprintf",
    "puts",
    "fputs",
    "perror",
    "fwrite",
    "putchar",
    "fputc",
    "putc",
    "fflush",
];

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    if let Some(plain) = c.name.strip_prefix('v') {
        // `vsnprintf(buf, n, fmt, ap)` is `snprintf(buf, n, fmt, ...)` with
        // the arguments `ap` points to.
        let fixed = c.args.len().saturating_sub(1);
        let mut args = c.args[..fixed].to_vec();
        match h.va_args(c.ptr(fixed)) {
            Ok(more) => args.extend(more),
            Err(end) => return Some(Err(end)),
        }
        return call(h, &Call { name: plain, args: &args, ret: c.ret });
    }
    let int = |v: Int| Some(v.value());
    Some(match c.name {
        "printf" => print(h, c, 0, true).map(int),
        "fprintf" => {
            let out = h.is_stdout(c.ptr(0));
            print(h, c, 1, out).map(int)
        }
        "sprintf" => format_into(h, c, c.ptr(0), None, 1).map(int),
        "snprintf" => {
            let long = h.target().long_bits;
            let n = c.int(h.pool(), 1, long);
            format_into(h, c, c.ptr(0), Some(n), 2).map(int)
        }
        // glibc's `puts` returns the bytes written (the newline included),
        // its `fputs` 1.
        "puts" | "fputs" => {
            let s = pinned(h, c.ptr(0));
            let out = c.name == "puts" || h.is_stdout(c.ptr(1));
            strlen(h, s).and_then(|n| {
                if out {
                    write_bytes(h, s, n)?;
                    if c.name == "puts" {
                        h.write_stdout(b"\n");
                    }
                }
                Ok(int(Int::konst(if c.name == "puts" { n + 1 } else { 1 }, 32)))
            })
        }
        // Prints `s: ` (unless `s` is null or empty), the message of
        // `errno` and a newline on stderr.
        "perror" => {
            if !h.is_null(c.ptr(0)) {
                let s = pinned(h, c.ptr(0));
                if let Err(end) = strlen(h, s) {
                    return Some(Err(end));
                }
            }
            Ok(None)
        }
        // Writes the `size * n` bytes (each read as the program would)
        // and returns `n`: output streams never fail.
        "fwrite" => {
            let long = h.target().long_bits;
            let size = c.int(h.pool(), 1, long);
            let n = c.int(h.pool(), 2, long);
            let (size, n) = (h.concretise(size), h.concretise(n));
            let p = pinned(h, c.ptr(0));
            let mut text = Vec::new();
            for i in 0..size.saturating_mul(n) {
                match byte(h, p, i) {
                    Ok(b) => text.push(b.conc as u8),
                    Err(end) => return Some(Err(end)),
                }
            }
            if h.is_stdout(c.ptr(3)) {
                h.write_stdout(&text);
            }
            Ok(int(Int::konst(n, long)))
        }
        "putchar" | "fputc" | "putc" => {
            let b = c.int(h.pool(), 0, 8);
            if c.name == "putchar" || h.is_stdout(c.ptr(1)) {
                h.write_stdout(&[b.conc as u8]);
            }
            Ok(int(b.zext(h.pool(), 32)))
        }
        "fflush" => Ok(int(Int::konst(0, 32))),
        _ => return None,
    })
}

/// Where formatted output goes: a stream needs only its length, a buffer
/// its bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dest {
    Stream,
    Buffer,
}

/// A piece of output: a byte, or (streams only) the 32-bit length of the
/// text of a symbolic integer with that text for the run's value.
enum Piece {
    Byte(Int),
    Len(Int, Vec<u8>),
}

/// A parsed conversion specification.
#[derive(Default)]
struct Spec {
    minus: bool,
    plus: bool,
    space: bool,
    hash: bool,
    zero: bool,
    width: u64,
    prec: Option<u64>,
    /// Width in bits of the integer argument (after `hh`, `h`, `l`...).
    bits: u32,
    /// `L`: the floating argument is a `long double`.
    long_double: bool,
    conv: u8,
}

/// `printf` (`fmt` argument 0) and `fprintf` (1): the length of the
/// output, which goes to `stdout` when `out`.
fn print(h: &mut dyn LibcHost, c: &Call<'_>, fmt: usize, out: bool) -> Result<Int, End> {
    let pieces = format(h, c, fmt, Dest::Stream)?;
    let mut text = Vec::new();
    let pool = h.pool();
    let mut n = Int::konst(0, 32);
    for p in pieces {
        n = match p {
            Piece::Byte(b) => {
                text.push(b.conc as u8);
                n.binc(pool, BvOp::Add, 1)
            }
            Piece::Len(l, t) => {
                text.extend(t);
                n.bin(pool, BvOp::Add, l)
            }
        };
    }
    if out {
        h.write_stdout(&text);
    }
    Ok(n)
}

/// Record the `n` bytes at `s` on the standard output (as the run has
/// them: they were read already).
fn write_bytes(h: &mut dyn LibcHost, s: Pointer, n: u64) -> Result<(), End> {
    let mut text = Vec::with_capacity(n as usize);
    for i in 0..n {
        text.push(byte(h, s, i)?.conc as u8);
    }
    h.write_stdout(&text);
    Ok(())
}

/// `sprintf(d, ...)` (no limit) and `snprintf(d, n, ...)`: at most `n - 1`
/// bytes and a terminator (nothing when `n` is 0); returns the length of
/// the whole output.
///
/// A symbolic `n` matters only through whether the output fits, which is a
/// decision of the path (`n > length`): the side where it fits keeps `n`
/// symbolic, so that the caller's own test of the result against `n`
/// (`if (r >= n)`) has both sides; the truncated side fixes `n`, whose
/// value is then the length written. Before, `n` was fixed in every run,
/// and a buffer size from the inputs stayed at its first value.
fn format_into(h: &mut dyn LibcHost, c: &Call<'_>, d: Pointer, limit: Option<Int>, fmt: usize) -> Result<Int, End> {
    let pieces = format(h, c, fmt, Dest::Buffer)?;
    let bytes: Vec<Int> = pieces
        .into_iter()
        .filter_map(|p| match p {
            Piece::Byte(b) => Some(b),
            Piece::Len(..) => None,
        })
        .collect();
    let total = bytes.len() as u64;
    let written = match limit {
        None => total,
        Some(n) => {
            let pool = h.pool();
            let fits = Int::konst(total, n.w).cmp(pool, BvCmp::Ult, n);
            if h.decide(fits)? {
                total
            } else {
                match h.concretise(n) {
                    0 => return Ok(Int::konst(total, 32)),
                    n => total.min(n - 1),
                }
            }
        }
    };
    let d = pinned(h, d);
    for (i, b) in bytes.iter().take(written as usize).enumerate() {
        h.store(at(d, i as u64), Type::I8, b.value())?;
    }
    h.store(at(d, written), Type::I8, Value::int(0))?;
    Ok(Int::konst(total, 32))
}

/// The output of the format at argument `fmt` with the arguments after it.
fn format(h: &mut dyn LibcHost, c: &Call<'_>, fmt: usize, dest: Dest) -> Result<Vec<Piece>, End> {
    let f = pinned(h, c.ptr(fmt));
    let mut next = fmt + 1;
    let mut out = Vec::new();
    let mut i = 0u64;
    loop {
        let ch = format_byte(h, f, &mut i)?;
        match ch {
            0 => return Ok(out),
            b'%' => {
                let spec = parse_spec(h, c, f, &mut i, &mut next)?;
                convert(h, c, &spec, &mut next, dest, &mut out)?;
            }
            _ => out.push(Piece::Byte(Int::konst(u64::from(ch), 8))),
        }
    }
}

/// An `int` argument for `*` (fixed if symbolic), as a signed value.
fn star(h: &mut dyn LibcHost, c: &Call<'_>, next: &mut usize) -> i64 {
    let v = c.int(h.pool(), *next, 32);
    *next += 1;
    h.concretise(v);
    v.signed()
}

/// Parse a conversion specification after its `%`.
fn parse_spec(h: &mut dyn LibcHost, c: &Call<'_>, f: Pointer, i: &mut u64, next: &mut usize) -> Result<Spec, End> {
    let mut s = Spec { bits: 32, ..Spec::default() };
    let mut ch = format_byte(h, f, i)?;
    loop {
        match ch {
            b'-' => s.minus = true,
            b'+' => s.plus = true,
            b' ' => s.space = true,
            b'#' => s.hash = true,
            b'0' => s.zero = true,
            _ => break,
        }
        ch = format_byte(h, f, i)?;
    }
    if ch == b'*' {
        let w = star(h, c, next);
        s.minus |= w < 0;
        s.width = w.unsigned_abs();
        ch = format_byte(h, f, i)?;
    } else {
        while ch.is_ascii_digit() {
            s.width = s.width.saturating_mul(10).saturating_add(u64::from(ch - b'0'));
            ch = format_byte(h, f, i)?;
        }
    }
    if ch == b'.' {
        ch = format_byte(h, f, i)?;
        if ch == b'*' {
            let p = star(h, c, next);
            s.prec = u64::try_from(p).ok();
            ch = format_byte(h, f, i)?;
        } else {
            let mut p = 0u64;
            while ch.is_ascii_digit() {
                p = p.saturating_mul(10).saturating_add(u64::from(ch - b'0'));
                ch = format_byte(h, f, i)?;
            }
            s.prec = Some(p);
        }
    }
    let l = super::lengths(h, f, i, ch)?;
    s.bits = l.bits.unwrap_or(s.bits);
    s.long_double = l.long_double;
    let ch = l.conv;
    if l.long && (ch == b'c' || ch == b's') {
        let message = "printf of wide characters (`%lc`, `%ls`) is not modelled".to_string();
        return Err(h.error(ErrorKind::Unsupported, message));
    }
    s.conv = ch;
    Ok(s)
}

/// Append the output of one conversion.
fn convert(
    h: &mut dyn LibcHost,
    c: &Call<'_>,
    s: &Spec,
    next: &mut usize,
    dest: Dest,
    out: &mut Vec<Piece>,
) -> Result<(), End> {
    let arg = c.arg(*next);
    let text: Vec<Int> = match s.conv {
        b'%' => vec![Int::konst(u64::from(b'%'), 8)],
        b'd' | b'i' | b'u' | b'x' | b'X' | b'o' => {
            *next += 1;
            let v = Int::of(h.pool(), arg, s.bits);
            if v.sym.is_some() && dest == Dest::Stream {
                let mut text = int_text(v, s);
                let pad = s.width.saturating_sub(text.len() as u64) as usize;
                let at = if s.minus { text.len() } else { 0 };
                text.splice(at..at, std::iter::repeat_n(b' ', pad));
                out.push(Piece::Len(int_len(h, v, s), text));
                return Ok(());
            }
            h.concretise(v);
            int_text(v, s).into_iter().map(|b| Int::konst(u64::from(b), 8)).collect()
        }
        b'f' | b'F' | b'e' | b'E' | b'g' | b'G' => {
            *next += 1;
            // glibc rounds the last digit in the direction `fesetround` set.
            let rnd = h.rounding();
            let text = match arg {
                Value::Ext(x) if s.long_double => long_double_text(x, s, rnd),
                _ => {
                    float_text(f64::from_bits(h.float(arg, if s.long_double { Type::F80 } else { Type::F64 })), s, rnd)
                }
            };
            text.into_iter().map(|b| Int::konst(u64::from(b), 8)).collect()
        }
        b'a' | b'A' if s.prec.is_some() => {
            let message = "printf's `%a` with a precision (hexadecimal digits rounded) is not modelled".to_string();
            return Err(h.error(ErrorKind::Unsupported, message));
        }
        b'a' | b'A' => {
            *next += 1;
            let x = match arg {
                Value::Ext(x) if s.long_double => x,
                _ => X87::from_f64(f64::from_bits(h.float(arg, if s.long_double { Type::F80 } else { Type::F64 }))),
            };
            hex_text(x, s).into_iter().map(|b| Int::konst(u64::from(b), 8)).collect()
        }
        b'c' => {
            *next += 1;
            vec![Int::of(h.pool(), arg, 8)]
        }
        b's' => {
            *next += 1;
            string_arg(h, arg.as_ptr(), s.prec)?
        }
        0 => return Err(h.error(ErrorKind::Unsupported, "printf format ending inside a conversion".to_string())),
        other => {
            let message = format!("printf conversion `%{}` is not modelled", char::from(other));
            return Err(h.error(ErrorKind::Unsupported, message));
        }
    };
    let pad = s.width.saturating_sub(text.len() as u64);
    let space = Int::konst(u64::from(b' '), 8);
    if !s.minus {
        out.extend((0..pad).map(|_| Piece::Byte(space)));
    }
    out.extend(text.into_iter().map(Piece::Byte));
    if s.minus {
        out.extend((0..pad).map(|_| Piece::Byte(space)));
    }
    Ok(())
}

/// The bytes of a `%s` argument: up to its terminator (a loop bounded by
/// k) or to the precision. A null argument is a null dereference: at the
/// first byte read, as for a load of the program (an input pointer that may
/// be null is then a check whose other side, a string, is explored too),
/// or, with precision 0 (nothing read), tested here.
fn string_arg(h: &mut dyn LibcHost, p: Pointer, prec: Option<u64>) -> Result<Vec<Int>, End> {
    if prec == Some(0) {
        if h.is_null(p) {
            let message = "printf `%s` of a null pointer (undefined behaviour)".to_string();
            return Err(h.error(ErrorKind::NullDereference, message));
        }
        return Ok(Vec::new());
    }
    let p = pinned(h, p);
    let mut bytes = Vec::new();
    let mut lp = ByteLoop::until_true();
    let mut i = 0u64;
    while prec.is_none_or(|n| i < n) {
        let b = byte(h, p, i)?;
        let zero = b.is_zero(h.pool());
        let end = match prec {
            None => h.decide_loop(zero, &mut lp)?,
            Some(_) => h.decide(zero)?,
        };
        if end {
            break;
        }
        bytes.push(b);
        i += 1;
    }
    Ok(bytes)
}

/// Whether a conversion is signed, and its base.
fn radix(conv: u8) -> (bool, u64) {
    match conv {
        b'd' | b'i' => (true, 10),
        b'o' => (false, 8),
        b'x' | b'X' => (false, 16),
        _ => (false, 10),
    }
}

/// The text of an integer conversion of a concrete value, padding
/// included.
fn int_text(v: Int, s: &Spec) -> Vec<u8> {
    let (signed, base) = radix(s.conv);
    let (neg, mag) = if signed { (v.signed() < 0, v.signed().unsigned_abs()) } else { (false, v.conc) };
    let mut digits: Vec<u8> = Vec::new();
    if !(s.prec == Some(0) && mag == 0) {
        let mut m = mag;
        loop {
            let d = (m % base) as u8;
            digits.push(if d < 10 {
                b'0' + d
            } else if s.conv == b'X' {
                b'A' + d - 10
            } else {
                b'a' + d - 10
            });
            m /= base;
            if m == 0 {
                break;
            }
        }
        digits.reverse();
    }
    while (digits.len() as u64) < s.prec.unwrap_or(0) {
        digits.insert(0, b'0');
    }
    if s.hash && s.conv == b'o' && digits.first() != Some(&b'0') {
        digits.insert(0, b'0');
    }
    let mut head: Vec<u8> = match (signed, neg) {
        (true, true) => vec![b'-'],
        (true, false) if s.plus => vec![b'+'],
        (true, false) if s.space => vec![b' '],
        _ => vec![],
    };
    if s.hash && mag != 0 && (s.conv == b'x' || s.conv == b'X') {
        head.extend([b'0', s.conv]);
    }
    let len = (head.len() + digits.len()) as u64;
    if s.zero && !s.minus && s.prec.is_none() && len < s.width {
        head.extend((len..s.width).map(|_| b'0'));
    }
    head.extend(digits);
    head
}

/// The length (32 bits) of the text of an integer conversion of the
/// symbolic value `v`, width included: an expression, no decision.
fn int_len(h: &mut dyn LibcHost, v: Int, s: &Spec) -> Int {
    let (signed, base) = radix(s.conv);
    let pool = h.pool();
    let w = v.w;
    let zero_w = Int::konst(0, w);
    let neg = if signed { v.cmp(pool, BvCmp::Slt, zero_w) } else { Cond::konst(false) };
    let minus = zero_w.bin(pool, BvOp::Sub, v);
    let mag = Int::ite(pool, neg, minus, v);
    let k32 = |n: u64| Int::konst(n, 32);
    // Digits: 1 + the number of powers of the base (beyond 1) at most `mag`.
    let mut nd = k32(1);
    let mut p: u128 = u128::from(base);
    while p <= u128::from(pathwise_expr::ops::mask(w)) {
        let ge = Int::konst(p as u64, w).cmp(pool, BvCmp::Ule, mag);
        let one = Int::from_cond(pool, ge, 32);
        nd = nd.bin(pool, BvOp::Add, one);
        p *= u128::from(base);
    }
    let is_zero = mag.is_zero(pool);
    let digits = match s.prec {
        None => nd,
        Some(0) => Int::ite(pool, is_zero, k32(0), nd),
        Some(p) => nd.umax(pool, k32(p)),
    };
    let digits = if s.hash && s.conv == b'o' {
        // `#` makes the first digit a 0.
        let padded = nd.cmp(pool, BvCmp::Ult, digits);
        let nonempty = digits.is_zero(pool).not(pool);
        let zero_shown = is_zero.and(pool, nonempty);
        let first_zero = padded.or(pool, zero_shown);
        let more = digits.binc(pool, BvOp::Add, 1);
        Int::ite(pool, first_zero, digits, more)
    } else {
        digits
    };
    let prefix = if s.hash && (s.conv == b'x' || s.conv == b'X') {
        let nonzero = is_zero.not(pool);
        Int::ite(pool, nonzero, k32(2), k32(0))
    } else {
        k32(0)
    };
    let sign = match signed {
        true if s.plus || s.space => k32(1),
        true => Int::from_cond(pool, neg, 32),
        false => k32(0),
    };
    let len = digits.bin(pool, BvOp::Add, prefix).bin(pool, BvOp::Add, sign);
    len.umax(pool, k32(s.width))
}

/// The text of a floating conversion of `x`, padding by zeros included
/// (spaces are added by the caller), its last digit rounded in the
/// direction `rnd` (to nearest: Rust's exact formatting, which agrees
/// with glibc's; otherwise `ldformat`'s).
fn float_text(x: f64, s: &Spec, rnd: pathwise_expr::float::Rounding) -> Vec<u8> {
    let sign = sign_of(x.is_sign_negative(), s);
    let a = x.abs();
    if a.is_nan() || a.is_infinite() {
        return special(sign, a.is_nan(), s);
    }
    if rnd != pathwise_expr::float::Rounding::NearestEven {
        return long_double_text(X87::from_f64(x), s, rnd);
    }
    let prec = s.prec.unwrap_or(6) as usize;
    let body = match s.conv.to_ascii_lowercase() {
        b'f' => point(format!("{a:.prec$}"), s.hash),
        b'e' => exponent(a, prec, s.hash),
        _ => general(a, prec.max(1), s.hash),
    };
    zero_padded(sign, &body, s)
}

/// The text of a floating conversion of a `long double` that is no double
/// (finite or NaN), or of a double in a rounding direction other than to
/// nearest, as [`float_text`].
fn long_double_text(x: X87, s: &Spec, rnd: pathwise_expr::float::Rounding) -> Vec<u8> {
    let sign = sign_of(x.sign(), s);
    if x.is_nan() {
        return special(sign, true, s);
    }
    let prec = s.prec.unwrap_or(6) as usize;
    let dir = super::ldformat::Digits::of(rnd, x.sign());
    let body = match s.conv.to_ascii_lowercase() {
        b'f' => super::ldformat::fixed(x, prec, s.hash, dir),
        b'e' => super::ldformat::exponent(x, prec, s.hash, dir),
        _ => super::ldformat::general(x, prec.max(1), s.hash, dir),
    };
    zero_padded(sign, &body, s)
}

/// `%a` (`%La` with `L`) of `x`, exactly, as glibc writes it: a double as
/// `0x1.999999999999ap-4` (`0x0.` and exponent -1022 when subnormal), a
/// `long double` by its top four significand bits then the other sixty,
/// `0xc.ccccccccccccccdp-7`; zeros of padding go after `0x`.
fn hex_text(x: X87, s: &Spec) -> Vec<u8> {
    let sign = sign_of(x.sign(), s);
    if x.is_nan() || x.is_infinite() {
        return special(sign, x.is_nan(), s);
    }
    let (lead, rest, exp) = if x.significand() == 0 {
        ("0".to_string(), String::new(), 0)
    } else if s.long_double {
        let sig = x.significand();
        let rest = format!("{:015x}", sig & ((1 << 60) - 1));
        (format!("{:x}", sig >> 60), rest, i64::from(x.exponent().max(1)) - 16386)
    } else {
        let bits = x.to_f64().to_bits();
        let (e, frac) = ((bits >> 52) & 0x7ff, bits & ((1 << 52) - 1));
        let lead = if e == 0 { "0" } else { "1" };
        (lead.to_string(), format!("{frac:013x}"), e.max(1) as i64 - 1023)
    };
    let rest = rest.trim_end_matches('0');
    let point = if !rest.is_empty() || s.hash { "." } else { "" };
    let sign_and_prefix = format!("{sign}0x");
    zero_padded(&sign_and_prefix, &format!("{lead}{point}{rest}p{exp:+}"), s)
}

/// The sign a floating conversion writes: `-`, or `+` or a space by the
/// flags.
fn sign_of(negative: bool, s: &Spec) -> &'static str {
    if negative {
        "-"
    } else if s.plus {
        "+"
    } else if s.space {
        " "
    } else {
        ""
    }
}

/// `inf` or `nan` after the sign (upper case for `%F`, `%E`...), never
/// padded with zeros.
fn special(sign: &str, nan: bool, s: &Spec) -> Vec<u8> {
    let t = if nan { "nan" } else { "inf" };
    let t = if s.conv.is_ascii_uppercase() { t.to_uppercase() } else { t.to_string() };
    format!("{sign}{t}").into_bytes()
}

/// `head` (the sign, and `0x` for `%a`), the zeros of padding the `0`
/// flag asks for to the width, then `body`; upper case for `%E`, `%A`...
fn zero_padded(head: &str, body: &str, s: &Spec) -> Vec<u8> {
    let text = format!("{head}{body}");
    let text = if s.conv.is_ascii_uppercase() { text.to_uppercase() } else { text };
    let (head, body) = text.split_at(head.len());
    let len = text.len() as u64;
    let zeros = if s.zero && !s.minus && len < s.width { (s.width - len) as usize } else { 0 };
    [head.as_bytes(), &vec![b'0'; zeros], body.as_bytes()].concat()
}

/// `%g` without `#`: the mantissa's trailing zeros, and a point left bare,
/// removed.
pub(super) fn strip_zeros(text: &str) -> String {
    let (num, exp) = match text.find(['e', 'E']) {
        Some(i) => text.split_at(i),
        None => (text, ""),
    };
    let num = if num.contains('.') { num.trim_end_matches('0').trim_end_matches('.') } else { num };
    format!("{num}{exp}")
}

/// `#` keeps a decimal point even without digits after it.
fn point(t: String, hash: bool) -> String {
    if hash && !t.contains('.') {
        t + "."
    } else {
        t
    }
}

/// `%e`: `d.ddde+XX` (at least two exponent digits).
fn exponent(a: f64, prec: usize, hash: bool) -> String {
    let t = format!("{a:.prec$e}");
    let (mantissa, exp) = t.split_once('e').unwrap_or((&t, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    format!("{}e{}{:02}", point(mantissa.to_string(), hash), if e < 0 { '-' } else { '+' }, e.unsigned_abs())
}

/// `%g` with `p` significant digits: `%e` or `%f` by the exponent, then
/// trailing zeros removed unless `#`.
fn general(a: f64, p: usize, hash: bool) -> String {
    let t = format!("{a:.prec$e}", prec = p - 1);
    let x: i64 = t.split_once('e').and_then(|(_, e)| e.parse().ok()).unwrap_or(0);
    // glibc decides by the exponent before rounding: a value whose
    // rounding to p digits carries into a new digit (`%#g` of 999999.5,
    // `%#.2g` of 99.5) is printed `%e` with no digit after the point
    // (`1.e+06`, not `1.00000e+06`); the tests compare with glibc's text.
    // (Without `#` the zeros are removed anyway.) The shortest
    // round-trip form's exponent is the unrounded one.
    let x0: i64 = format!("{a:e}").split_once('e').and_then(|(_, e)| e.parse().ok()).unwrap_or(0);
    if hash && x == p as i64 && x0 == x - 1 {
        return exponent(a, 0, true);
    }
    let text = if (-4..p as i64).contains(&x) {
        let prec = (p as i64 - 1 - x) as usize;
        point(format!("{a:.prec$}"), hash)
    } else {
        exponent(a, p - 1, hash)
    };
    if hash {
        return text;
    }
    strip_zeros(&text)
}

#[cfg(test)]
#[path = "stdio_tests.rs"]
mod tests;

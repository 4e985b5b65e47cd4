//! `sscanf`'s and `fscanf`'s floating conversions (`%e %f %g %a`, any
//! case), as glibc 2.36's `vfscanf` reads them: it collects the
//! characters that may belong to a number, then converts the collected
//! text with `strtof`, `strtod` or `strtold`.
//!
//! glibc's collection is greedier than `strtod`'s syntax, and what it
//! took is consumed whatever the conversion uses of it: `"1.2.3"` reads
//! 1.2 and consumes `1.2` (a second point ends the number), `"1e+"`
//! reads 1 and consumes all three characters, `"0x"` alone and a sign
//! alone are matching failures. After a sign, `nan` or `inf` must be
//! spelt out (`"infin"` is a matching failure, its bytes consumed);
//! `nan(...)` takes `nan` only. Characters collected, after white space:
//! - a sign, then `nan`, `inf` or `infinity` (any case); or
//! - digits, one point before any exponent, an exponent letter (`e`, or
//!   `p` after `0x`) after a digit, a sign right after it, and after
//!   `0x` hexadecimal digits before the exponent;
//! - at most the field width of characters, the sign included.
//!
//! Each test of a symbolic byte is a decision (its class), the loop over
//! the characters bounded by k; the digits' values are fixed to this
//! run's and reported, as `strtod`'s are (see [`super::super::strtod`]),
//! and the value is the host C library's conversion of the text (glibc's,
//! correctly rounded; `long double` in 80 bits). An overflow sets `errno`
//! to `ERANGE`, as glibc's conversion does inside `scanf`.

use pathwise_expr::BvOp;
use pathwise_ir::Type;

use super::{Input, Source, Spec, Stop};
use crate::libc::stdlib::digit;
use crate::libc::{errno, ByteLoop, Cond, Int, LibcHost};
use crate::path::End;
use crate::value::{Pointer, Value};

/// The argument a floating conversion stores to, by its length modifier.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum FloatArg {
    /// No modifier (or `h`, `hh`, which glibc ignores here): `float *`.
    Float,
    /// `l`: `double *`.
    Double,
    /// `L`, `ll` or `q`: `long double *`.
    LongDouble,
}

/// What the collection so far has seen (glibc's flags of the same names).
struct Collect {
    text: Vec<u8>,
    /// Characters left in the field; negative: no width.
    width: i64,
    got_sign: bool,
    got_digit: bool,
    got_dot: bool,
    got_e: bool,
    hex: bool,
}

impl Collect {
    /// One more character read from the input.
    fn count(&mut self) {
        if self.width > 0 {
            self.width -= 1;
        }
    }

    /// The exponent letter: `p` after `0x`, else `e`.
    fn exp_char(&self) -> u8 {
        if self.hex {
            b'p'
        } else {
            b'e'
        }
    }
}

/// The byte `ch` in either case.
fn letter(ch: u8) -> impl Fn(&mut dyn LibcHost, Int) -> Cond {
    move |h: &mut dyn LibcHost, b: Int| {
        let pool = h.pool();
        b.binc(pool, BvOp::Or, 0x20).eqc(pool, u64::from(ch))
    }
}

fn is(ch: u8) -> impl Fn(&mut dyn LibcHost, Int) -> Cond {
    move |h: &mut dyn LibcHost, b: Int| b.eqc(h.pool(), u64::from(ch))
}

/// A matching failure after glibc read a byte that did not match: it is
/// consumed (a stream loses it; a string's scan ends anyway, and its NUL
/// must stay where the final length loop finds it).
fn mismatch(input: &mut Input) -> Result<Stop, End> {
    if let Source::Stream(c) = &mut input.source {
        c.advance();
    }
    Ok(Stop::Matching)
}

/// One floating conversion: whether it assigned, or why the scan stops.
pub(super) fn float(
    h: &mut dyn LibcHost,
    input: &mut Input,
    s: &Spec,
    arg: Option<Pointer>,
    kind: FloatArg,
) -> Result<Result<bool, Stop>, End> {
    input.skip_space(h)?;
    if input.at_end(h)? {
        return Ok(Err(Stop::Input));
    }
    let width = s.width.filter(|&w| w > 0).map_or(-1, |w| i64::try_from(w).unwrap_or(i64::MAX));
    let mut c = Collect {
        text: Vec::new(),
        width,
        got_sign: false,
        got_digit: false,
        got_dot: false,
        got_e: false,
        hex: false,
    };
    // The first character is read.
    c.count();
    for sign in [b'-', b'+'] {
        if input.test(h, &is(sign), None)?.is_some() {
            input.advance();
            c.text.push(sign);
            c.got_sign = true;
            if c.width == 0 || input.peek(h)?.is_none() {
                return Ok(Err(Stop::Matching));
            }
            c.count();
            break;
        }
    }
    let special = special(h, input, &mut c)?;
    match special {
        Some(Err(stop)) => return Ok(Err(stop)),
        Some(Ok(())) => {}
        None => {
            if let Some(stop) = number(h, input, &mut c)? {
                return Ok(Err(stop));
            }
        }
    }
    // glibc's scanf converts with strtod's rounding, in the direction
    // `fesetround` set.
    let rnd = h.rounding();
    let Some((value, range_error)) = convert(&c.text, kind, rnd) else { return Ok(Err(Stop::Matching)) };
    if range_error {
        errno::set(h, errno::ERANGE)?;
    }
    let Some(p) = arg else { return Ok(Ok(false)) };
    let ty = match kind {
        FloatArg::Float => Type::F32,
        FloatArg::Double => Type::F64,
        FloatArg::LongDouble => Type::F80,
    };
    h.store(p, ty, value)?;
    Ok(Ok(true))
}

/// `nan`, `inf` or `infinity` at the current character: `None` when it
/// is neither `n` nor `i`.
fn special(h: &mut dyn LibcHost, input: &mut Input, c: &mut Collect) -> Result<Option<Result<(), Stop>>, End> {
    let word: &[u8] = if input.test(h, &letter(b'n'), None)?.is_some() {
        b"nan"
    } else if input.test(h, &letter(b'i'), None)?.is_some() {
        b"inf"
    } else {
        return Ok(None);
    };
    input.advance();
    c.text.push(word[0]);
    if let Err(stop) = spell(h, input, c, &word[1..])? {
        return Ok(Some(Err(stop)));
    }
    if word == b"inf" && c.width != 0 && input.test(h, &letter(b'i'), None)?.is_some() {
        input.advance();
        c.count();
        c.text.push(b'i');
        if let Err(stop) = spell(h, input, c, b"nity")? {
            return Ok(Some(Err(stop)));
        }
    }
    Ok(Some(Ok(())))
}

/// The letters of `rest`, each read and matched in either case; a
/// missing or different one is a matching failure.
fn spell(h: &mut dyn LibcHost, input: &mut Input, c: &mut Collect, rest: &[u8]) -> Result<Result<(), Stop>, End> {
    for &ch in rest {
        if c.width == 0 {
            return Ok(Err(Stop::Matching));
        }
        if input.test(h, &letter(ch), None)?.is_none() {
            return Ok(Err(mismatch(input)?));
        }
        input.advance();
        c.count();
        c.text.push(ch);
    }
    Ok(Ok(()))
}

/// A number's characters from the current one on (see the module doc):
/// the reason the scan stops, if the collection is no number.
fn number(h: &mut dyn LibcHost, input: &mut Input, c: &mut Collect) -> Result<Option<Stop>, End> {
    if c.width != 0 && input.test(h, &is(b'0'), None)?.is_some() {
        input.advance();
        c.text.push(b'0');
        // The next character is read, whatever the width left.
        c.count();
        if c.width != 0 && input.test(h, &letter(b'x'), None)?.is_some() {
            input.advance();
            c.text.push(b'x');
            c.hex = true;
            c.count();
        } else {
            c.got_digit = true;
        }
    }
    let mut lp = ByteLoop::while_true();
    while let Some(b) = next_char(h, input, c, &mut lp)? {
        input.advance();
        c.text.push(b);
        if c.width == 0 {
            break;
        }
        c.count();
    }
    let sign = usize::from(c.got_sign);
    if c.text.len() == sign || (c.hex && c.text.len() == 2 + sign) {
        return Ok(Some(Stop::Matching));
    }
    Ok(None)
}

/// Whether the current character continues the number (a decision, one
/// iteration of a loop bounded by k), and which character it adds: a
/// digit is fixed to its value, the exponent letter is added in lower
/// case as glibc adds it.
fn next_char(h: &mut dyn LibcHost, input: &mut Input, c: &mut Collect, lp: &mut ByteLoop) -> Result<Option<u8>, End> {
    let (hex_digit, sign, exp, dot) =
        (c.hex && !c.got_e, c.got_e && c.text.last() == Some(&c.exp_char()), c.got_digit && !c.got_e, !c.got_dot);
    let exp_char = c.exp_char();
    let continues = move |h: &mut dyn LibcHost, b: Int| {
        let mut any = vec![digit(h, b, if hex_digit { 16 } else { 10 }, 8).0];
        if sign {
            let pool = h.pool();
            let (minus, plus) = (b.eqc(pool, u64::from(b'-')), b.eqc(pool, u64::from(b'+')));
            any.push(minus.or(pool, plus));
        }
        if exp {
            any.push(letter(exp_char)(h, b));
        }
        if dot {
            any.push(b.eqc(h.pool(), u64::from(b'.')));
        }
        Cond::any(h.pool(), any)
    };
    let Some(b) = input.test(h, &continues, Some(lp))? else { return Ok(None) };
    // Which class: glibc's order (a digit, a hexadecimal digit, a sign,
    // the exponent letter, the point).
    let is_digit = digit(h, b, 10, 8).0;
    if h.decide(is_digit)? {
        c.got_digit = true;
        return Ok(Some(h.concretise(b) as u8));
    }
    if hex_digit {
        let x = digit(h, b, 16, 8).0;
        if h.decide(x)? {
            c.got_digit = true;
            return Ok(Some(h.concretise(b) as u8));
        }
    }
    if sign {
        let minus = b.eqc(h.pool(), u64::from(b'-'));
        if h.decide(minus)? {
            return Ok(Some(b'-'));
        }
        let plus = b.eqc(h.pool(), u64::from(b'+'));
        if h.decide(plus)? {
            return Ok(Some(b'+'));
        }
    }
    if exp {
        let is_exp = letter(exp_char)(h, b);
        if h.decide(is_exp)? {
            (c.got_e, c.got_dot) = (true, true);
            return Ok(Some(exp_char));
        }
    }
    // The only class left.
    c.got_dot = true;
    Ok(Some(b'.'))
}

/// The host C library's conversion of the collected text (of the part
/// `strtod` accepts), as the argument's type asks, and whether it sets
/// `ERANGE`; `None` when the conversion takes no character (a point
/// alone).
fn convert(text: &[u8], kind: FloatArg, rnd: pathwise_expr::float::Rounding) -> Option<(Value, bool)> {
    let text = &text[..crate::libc::strtod::accepted_len(text)];
    if text.is_empty() {
        return None;
    }
    Some(match kind {
        FloatArg::LongDouble => crate::libc::strtod::extended(text, rnd),
        kind => {
            let (bits, range) = crate::libc::strtod::host_strtod(text, kind == FloatArg::Float, rnd);
            (Value::int(bits), range)
        }
    })
}

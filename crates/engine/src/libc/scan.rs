//! `sscanf`, `fscanf` and `scanf`: formatted input from a string, a `FILE *`
//! parameter or `stdin` (see [`super::streams`]), as glibc 2.36's `vfscanf` reads it.
//!
//! The format must be concrete (a symbolic byte is fixed and reported);
//! the input is symbolic, each test on one of its bytes a decision (and,
//! in a stream, each byte's existence, whose other side is end-of-file):
//! - white space in the format skips any white space of the input, a loop
//!   that only the data ends (at most k bytes, as `strlen` reads);
//! - another character must match the input's next byte;
//! - `%d %i %u %o %x %X` skip white space, then read glibc's way: a sign,
//!   a `0` and, in base 16 (or 0, which it then selects), an `x` or `X`
//!   that is consumed but is no digit (`"0xg"` reads 0 and leaves `g`),
//!   then digits, at most the field width of characters; the value is
//!   glibc's `strtol` of those characters, truncated to the argument's
//!   type (`hh h l ll j z t`); no number is a matching failure;
//! - `%c` (a width of characters, no terminator), `%s` (white space
//!   skipped, then non-space bytes and a NUL), `%[set]` and `%[^set]`
//!   store through their pointer argument with the program's checks, so a
//!   field longer than its buffer is an out-of-bounds error test;
//! - `%n` stores the bytes read so far; `*` suppresses an assignment;
//!   `%%` matches a `%`.
//!
//! The result is the number of assignments, or `EOF` when the input ended
//! (a NUL, end-of-file) before the first one. As glibc, the whole string
//! is read up to its NUL, the bytes after the conversions' as a loop
//! bounded by k; a stream keeps the byte that ended the last field pushed
//! back. Floating conversions (`%f %lf %Lf %e %g %a`) collect and
//! convert as glibc's do (see `scan_float.rs`). `%p` and wide ones
//! (`%ls`) are unsupported (the run ends without a test, reported). A
//! number of more digits than a `long` holds without overflow (18, or 9
//! when `long` has 32 bits) is unsupported too: glibc would clamp it.

use pathwise_expr::BvOp;
use pathwise_ir::Type;

use super::stdlib::{digit, is_space};
use super::{at, byte, format_byte, pinned, ByteLoop, Call, Cond, Int, LibcHost, Outcome};
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::{Pointer, Value};

#[path = "scan_float.rs"]
mod float;

pub(super) const NAMES: &[&str] = &[
    "sscanf",
    "__isoc99_sscanf",
    "__isoc23_sscanf",
    "fscanf",
    "__isoc99_fscanf",
    "__isoc23_fscanf",
    "scanf",
    "__isoc99_scanf",
    "__isoc23_scanf",
];

/// `EOF` as the 32-bit `int` result.
const EOF: u64 = 0xFFFF_FFFF;

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    Some(scan(h, c).map(|n| Some(Value::int(n))))
}

/// How the scan of the format ended early.
enum Stop {
    /// The input ended (a NUL, or end-of-file) where a byte was needed.
    Input,
    /// A byte did not match.
    Matching,
}

/// What is read: a string up to its NUL (`sscanf`), or an input stream
/// (`fscanf`, see [`super::streams`]), with the bytes consumed so far.
struct Input {
    source: Source,
    read: u64,
}

enum Source {
    Str(Pointer),
    Stream(super::streams::Cursor),
}

impl Input {
    /// The next byte, not consumed: `None` at the end of a stream (a
    /// decision); a string's NUL is a byte that no test accepts.
    fn peek(&mut self, h: &mut dyn LibcHost) -> Result<Option<Int>, End> {
        match &mut self.source {
            Source::Str(s) => byte(h, *s, self.read).map(Some),
            Source::Stream(c) => c.peek(h),
        }
    }

    fn advance(&mut self) {
        if let Source::Stream(c) = &mut self.source {
            c.advance();
        }
        self.read += 1;
    }

    /// The next byte when `cond` holds of it (a decision; with `lp`, one of
    /// a loop the data ends); the end of the input holds nothing.
    fn test(
        &mut self,
        h: &mut dyn LibcHost,
        cond: &dyn Fn(&mut dyn LibcHost, Int) -> Cond,
        lp: Option<&mut ByteLoop>,
    ) -> Result<Option<Int>, End> {
        let Some(b) = self.peek(h)? else { return Ok(None) };
        let mut c = cond(h, b);
        if matches!(self.source, Source::Str(_)) {
            // A string's NUL ends it.
            let not_nul = b.is_zero(h.pool()).not(h.pool());
            c = c.and(h.pool(), not_nul);
        }
        let holds = match lp {
            Some(lp) => h.decide_loop(c, lp)?,
            None => h.decide(c)?,
        };
        Ok(holds.then_some(b))
    }

    /// Skip white space (a loop the data ends).
    fn skip_space(&mut self, h: &mut dyn LibcHost) -> Result<(), End> {
        let mut lp = ByteLoop::while_true();
        while self.test(h, &is_space, Some(&mut lp))?.is_some() {
            self.advance();
        }
        Ok(())
    }

    /// Whether the input is at its end (a decision).
    fn at_end(&mut self, h: &mut dyn LibcHost) -> Result<bool, End> {
        match self.peek(h)? {
            None => Ok(true),
            Some(b) if matches!(self.source, Source::Str(_)) => {
                let nul = b.is_zero(h.pool());
                h.decide(nul)
            }
            Some(_) => Ok(false),
        }
    }
}

/// One conversion specification.
struct Spec {
    suppress: bool,
    width: Option<u64>,
    /// Bits of the integer argument (`hh h l ll j z t`).
    bits: u32,
    wide: bool,
    /// The floating argument's type, `None` for `j z t` (unsupported).
    float: Option<float::FloatArg>,
    conv: u8,
}

fn scan(h: &mut dyn LibcHost, c: &Call<'_>) -> Result<u64, End> {
    // The format's argument: `scanf` reads `stdin`, the others their first.
    let (source, format) = if c.name.contains("fscanf") {
        (Source::Stream(super::streams::open(h, c.ptr(0), c.name)?), 1)
    } else if c.name.contains("sscanf") {
        (Source::Str(pinned(h, c.ptr(0))), 1)
    } else {
        let stdin = super::streams::stdin(h, c.name)?;
        (Source::Stream(super::streams::open(h, stdin, c.name)?), 0)
    };
    let mut input = Input { source, read: 0 };
    let f = pinned(h, c.ptr(format));
    let (mut i, mut next, mut done) = (0u64, format + 1, 0u64);
    let stop = loop {
        let ch = format_byte(h, f, &mut i)?;
        if ch == 0 {
            break None;
        }
        if ch.is_ascii_whitespace() {
            input.skip_space(h)?;
            continue;
        }
        if ch != b'%' {
            if let Some(stop) = literal(h, &mut input, ch)? {
                break Some(stop);
            }
            continue;
        }
        let spec = parse_spec(h, f, &mut i)?;
        let arg = if spec.suppress || spec.conv == b'%' {
            None
        } else {
            next += 1;
            Some(c.ptr(next - 1))
        };
        match convert(h, &mut input, &spec, arg, f, &mut i)? {
            Ok(assigned) => done += u64::from(assigned),
            Err(stop) => break Some(stop),
        }
    };
    match input.source {
        // glibc reads the whole string first (its length: `rawmemchr`),
        // so the bytes after those the conversions read must lead to a
        // NUL too: a loop the data ends, as `strlen`'s (the test's string
        // is then terminated, never read past its end natively).
        Source::Str(s) => {
            super::strlen(h, at(s, input.read))?;
        }
        // The byte looked at last stays pushed back, as glibc's `ungetc`.
        Source::Stream(c) => super::streams::close(h, c)?,
    }
    Ok(match stop {
        Some(Stop::Input) if done == 0 => EOF,
        _ => done,
    })
}

/// A character of the format other than white space and `%`.
fn literal(h: &mut dyn LibcHost, input: &mut Input, ch: u8) -> Result<Option<Stop>, End> {
    let same = move |h: &mut dyn LibcHost, b: Int| b.eqc(h.pool(), u64::from(ch));
    if input.test(h, &same, None)?.is_some() {
        input.advance();
        return Ok(None);
    }
    Ok(Some(if input.at_end(h)? { Stop::Input } else { Stop::Matching }))
}

fn parse_spec(h: &mut dyn LibcHost, f: Pointer, i: &mut u64) -> Result<Spec, End> {
    let mut s = Spec { suppress: false, width: None, bits: 32, wide: false, float: None, conv: 0 };
    let mut ch = format_byte(h, f, i)?;
    if ch == b'*' {
        s.suppress = true;
        ch = format_byte(h, f, i)?;
    }
    while ch.is_ascii_digit() {
        let w = s.width.unwrap_or(0).saturating_mul(10).saturating_add(u64::from(ch - b'0'));
        s.width = Some(w);
        ch = format_byte(h, f, i)?;
    }
    // glibc's `L` is `ll` for integers.
    let l = super::lengths(h, f, i, ch)?;
    s.bits = if l.long_double { 64 } else { l.bits.unwrap_or(32) };
    s.wide = l.long || l.long_double;
    s.float = match (l.sized, l.long_double, l.long) {
        (true, ..) => None,
        (_, true, _) => Some(float::FloatArg::LongDouble),
        (_, _, true) => Some(float::FloatArg::Double),
        _ => Some(float::FloatArg::Float),
    };
    s.conv = l.conv;
    Ok(s)
}

/// Run one conversion: whether it assigned, or why the scan stops.
fn convert(
    h: &mut dyn LibcHost,
    input: &mut Input,
    s: &Spec,
    arg: Option<Pointer>,
    f: Pointer,
    i: &mut u64,
) -> Result<Result<bool, Stop>, End> {
    let unsupported = |h: &mut dyn LibcHost, what: String| Err(h.error(ErrorKind::Unsupported, what));
    if s.wide && matches!(s.conv, b'c' | b's' | b'[') {
        return unsupported(h, format!("sscanf of wide characters (`%l{}`) is not modelled", s.conv as char));
    }
    match s.conv {
        b'%' => {
            input.skip_space(h)?;
            Ok(literal(h, input, b'%')?.map_or(Ok(false), Err))
        }
        b'd' => integer(h, input, s, arg, 10),
        b'i' => integer(h, input, s, arg, 0),
        b'u' => integer(h, input, s, arg, 10),
        b'o' => integer(h, input, s, arg, 8),
        b'x' | b'X' => integer(h, input, s, arg, 16),
        b'n' => {
            if let Some(p) = arg {
                let v = Int::konst(input.read, s.bits).value();
                h.store(p, int_type(s.bits), v)?;
            }
            Ok(Ok(false))
        }
        b'c' => chars(h, input, s, arg),
        b's' => string(h, input, s, arg, None),
        b'[' => {
            let set = scanset(h, f, i)?;
            string(h, input, s, arg, Some(&set))
        }
        b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A' => match s.float {
            Some(kind) => float::float(h, input, s, arg, kind),
            None => unsupported(h, format!("sscanf of `%{}` with `j`, `z` or `t` is not modelled", s.conv as char)),
        },
        conv => unsupported(h, format!("sscanf conversion `%{}` is not modelled", conv as char)),
    }
}

fn int_type(bits: u32) -> Type {
    match bits {
        8 => Type::I8,
        16 => Type::I16,
        32 => Type::I32,
        _ => Type::I64,
    }
}

/// An integer conversion in `base` (0: from the prefix), as glibc's
/// `vfscanf` collects its characters and `strtol` converts them.
fn integer(
    h: &mut dyn LibcHost,
    input: &mut Input,
    s: &Spec,
    arg: Option<Pointer>,
    mut base: u64,
) -> Result<Result<bool, Stop>, End> {
    input.skip_space(h)?;
    if input.at_end(h)? {
        return Ok(Err(Stop::Input));
    }
    let mut width = s.width.unwrap_or(u64::MAX);
    if width == 0 {
        width = u64::MAX;
    }
    // Characters collected: a sign, then the number's own.
    let mut number = 0u64;
    let is = |ch: u8| move |h: &mut dyn LibcHost, b: Int| b.eqc(h.pool(), u64::from(ch));
    let negative = input.test(h, &is(b'-'), None)?.is_some();
    if negative || input.test(h, &is(b'+'), None)?.is_some() {
        input.advance();
        width -= 1;
    }
    if width != 0 && input.test(h, &is(b'0'), None)?.is_some() {
        input.advance();
        width -= 1;
        number += 1;
        let is_x = |h: &mut dyn LibcHost, b: Int| {
            let pool = h.pool();
            b.binc(pool, BvOp::Or, 0x20).eqc(pool, u64::from(b'x'))
        };
        if width != 0 && input.test(h, &is_x, None)?.is_some() {
            if base == 0 {
                base = 16;
            }
            if base == 16 {
                input.advance();
                width -= 1;
            }
        } else if base == 0 {
            base = 8;
        }
    }
    if base == 0 {
        base = 10;
    }
    let long = h.target().long_bits;
    let max_digits = if long == 64 { 18 } else { 9 };
    let mut acc = Int::konst(0, 64);
    let mut lp = ByteLoop::while_true();
    let is_digit = move |h: &mut dyn LibcHost, b: Int| digit(h, b, base, 64).0;
    while width != 0 {
        let Some(b) = input.test(h, &is_digit, Some(&mut lp))? else { break };
        let (_, d) = digit(h, b, base, 64);
        if number >= max_digits {
            let what = format!("sscanf of a number of more than {max_digits} digits (glibc clamps it) is not modelled");
            return Err(h.error(ErrorKind::Unsupported, what));
        }
        let pool = h.pool();
        acc = acc.binc(pool, BvOp::Mul, base).bin(pool, BvOp::Add, d);
        input.advance();
        width -= 1;
        number += 1;
    }
    if number == 0 {
        return Ok(Err(Stop::Matching));
    }
    let Some(p) = arg else { return Ok(Ok(false)) };
    let pool = h.pool();
    if negative {
        acc = Int::konst(0, 64).bin(pool, BvOp::Sub, acc);
    }
    let v = acc.trunc(pool, s.bits);
    h.store(p, int_type(s.bits), v.value())?;
    Ok(Ok(true))
}

/// `%c`: the width's bytes (1 by default), no terminator.
fn chars(h: &mut dyn LibcHost, input: &mut Input, s: &Spec, arg: Option<Pointer>) -> Result<Result<bool, Stop>, End> {
    let n = s.width.filter(|&w| w > 0).unwrap_or(1);
    for j in 0..n {
        let b = match input.peek(h)? {
            Some(b) if !input.at_end(h)? => b,
            // glibc stores what it read, and counts the conversion only
            // when it read something.
            _ => return Ok(if j == 0 { Err(Stop::Input) } else { Ok(arg.is_some()) }),
        };
        if let Some(p) = arg {
            h.store(at(p, j), Type::I8, b.value())?;
        }
        input.advance();
    }
    Ok(Ok(arg.is_some()))
}

/// `%s` (white space skipped, then non-space bytes) and `%[set]`: at most
/// the width's bytes, then a NUL.
fn string(
    h: &mut dyn LibcHost,
    input: &mut Input,
    s: &Spec,
    arg: Option<Pointer>,
    set: Option<&Scanset>,
) -> Result<Result<bool, Stop>, End> {
    if set.is_none() {
        input.skip_space(h)?;
    }
    if input.at_end(h)? {
        return Ok(Err(Stop::Input));
    }
    let width = s.width.filter(|&w| w > 0).unwrap_or(u64::MAX);
    let mut lp = ByteLoop::while_true();
    let mut n = 0u64;
    let member = |h: &mut dyn LibcHost, b: Int| match set {
        None => is_space(h, b).not(h.pool()),
        Some(set) => set.contains(h, b),
    };
    while n < width {
        let Some(b) = input.test(h, &member, Some(&mut lp))? else { break };
        if let Some(p) = arg {
            h.store(at(p, n), Type::I8, b.value())?;
        }
        input.advance();
        n += 1;
    }
    if n == 0 {
        // Only `%[` can stop at once here: `%s` saw a non-space byte.
        return Ok(Err(Stop::Matching));
    }
    let Some(p) = arg else { return Ok(Ok(false)) };
    h.store(at(p, n), Type::I8, Value::int(0))?;
    Ok(Ok(true))
}

/// A `%[...]` set: its bytes, complemented after `^`.
struct Scanset {
    negated: bool,
    bytes: [bool; 256],
}

impl Scanset {
    fn contains(&self, h: &mut dyn LibcHost, b: Int) -> Cond {
        let pool = h.pool();
        let members: Vec<Cond> = (0..256u64).filter(|&v| self.bytes[v as usize]).map(|v| b.eqc(pool, v)).collect();
        let any = Cond::any(pool, members);
        if self.negated {
            any.not(pool)
        } else {
            any
        }
    }
}

/// Parse a scanset after `%[` as glibc does: `]` or `-` first is a
/// member, `a-z` a range when its ends are in order, up to the closing `]`.
fn scanset(h: &mut dyn LibcHost, f: Pointer, i: &mut u64) -> Result<Scanset, End> {
    let mut set = Scanset { negated: false, bytes: [false; 256] };
    let mut ch = format_byte(h, f, i)?;
    if ch == b'^' {
        set.negated = true;
        ch = format_byte(h, f, i)?;
    }
    let mut prev = 0u8;
    if ch == b']' || ch == b'-' {
        set.bytes[usize::from(ch)] = true;
        prev = ch;
        ch = format_byte(h, f, i)?;
    }
    loop {
        match ch {
            0 => return Err(h.error(ErrorKind::Unsupported, "sscanf: a `%[` without its `]`".to_string())),
            b']' => return Ok(set),
            b'-' => {
                let hi = format_byte(h, f, i)?;
                if hi != 0 && hi != b']' && prev <= hi {
                    for v in prev..hi {
                        set.bytes[usize::from(v)] = true;
                    }
                } else {
                    set.bytes[usize::from(b'-')] = true;
                }
                prev = b'-';
                ch = hi;
            }
            _ => {
                set.bytes[usize::from(ch)] = true;
                prev = ch;
                ch = format_byte(h, f, i)?;
            }
        }
    }
}

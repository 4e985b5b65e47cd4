//! `<stdlib.h>`: allocation (`malloc`, `calloc`, `realloc`, `free`),
//! `abs`/`labs`/`llabs` and the conversions `atoi`, `atol`, `atoll`,
//! `strtol`, `strtoul`, `strtoll`, `strtoull`. (`bsearch` and `qsort` take
//! function pointers, which the front end does not support.)
//!
//! The conversions follow glibc's `strtol_l.c` step by step, in the "C"
//! locale: white space (`isspace`), an optional sign, the `0x`/`0X` prefix
//! for base 16 (and base 0, where a leading `0` alone means octal), then
//! digits of the base; `*endptr` is one past the last digit, or the string
//! itself when there is none (the `x` of a `0x` with no hexadecimal digit
//! after it). An invalid base (1, below 0 or above 36) sets `errno` to
//! `EINVAL` and returns 0 without touching `*endptr`; a value out of range
//! sets `ERANGE` and clamps to `LONG_MAX`/`LONG_MIN` (`ULONG_MAX` for the
//! unsigned ones, which negate a `-` value in their own type). Each test on
//! a symbolic byte is a decision (one per byte: "a digit of this base" is
//! one test), the white-space and digit loops are bounded by k, and the
//! value accumulates as an expression, so a path fixes how many digits
//! there are, not which. An overflow test is a decision only once enough
//! digits were read for the value to exceed the limit at all. `atoi(s)` is
//! glibc's `(int) strtol(s, NULL, 10)` (so `errno` is set as by `strtol`).
//!
//! Allocation fails where the configuration says (see
//! [`crate::alloc_fail`]: a failing `realloc` leaves its block as it was);
//! sizes may stay symbolic (see [`crate::alloc`]).
//! `realloc(p, 0)` with `p` not null frees `p` and returns null, as glibc's
//! does; `realloc(NULL, n)` is `malloc(n)`.

use pathwise_expr::{BvCmp, BvOp};

use super::{byte, errno, pinned, ByteLoop, Call, Cond, Int, LibcHost, Outcome};
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::{Pointer, Value};

pub(super) const NAMES: &[&str] = &[
    "malloc", "calloc", "realloc", "free", "abs", "labs", "llabs", "atoi", "atol", "atoll", "strtol", "strtoul",
    "strtoll", "strtoull",
];

/// The result type of a conversion.
#[derive(Clone, Copy)]
struct Conv {
    w: u32,
    signed: bool,
}

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    let long = h.target().long_bits;
    let size = |h: &mut dyn LibcHost, i: usize| c.int(h.pool(), i, long).zext(h.pool(), 64).value();
    let ptr = |p: Pointer| Some(Value::Ptr(p));
    let int = |v: Int| Some(v.value());
    let (l, ll) = (Conv { w: long, signed: true }, Conv { w: 64, signed: true });
    Some(match c.name {
        "malloc" => {
            let n = size(h, 0);
            match h.allocation_fails("malloc", None) {
                Some(null) => Ok(null),
                None => h.allocate(Value::int(1), n, false),
            }
            .map(ptr)
        }
        "calloc" => {
            let (a, b) = (size(h, 0), size(h, 1));
            match h.allocation_fails("calloc", None) {
                Some(null) => Ok(null),
                None => h.allocate(a, b, true),
            }
            .map(ptr)
        }
        "realloc" => {
            let n = size(h, 1);
            realloc(h, c.ptr(0), n).map(ptr)
        }
        "free" => h.release(c.ptr(0)).map(|_| None),
        "abs" => abs(h, c, 32).map(int),
        "labs" => abs(h, c, long).map(int),
        "llabs" => abs(h, c, 64).map(int),
        "atoi" => strto(h, c.ptr(0), None, 10, l).map(|v| int(v.trunc(h.pool(), 32))),
        "atol" => strto(h, c.ptr(0), None, 10, l).map(int),
        "atoll" => strto(h, c.ptr(0), None, 10, ll).map(int),
        "strtol" | "strtoul" | "strtoll" | "strtoull" => {
            let w = if c.name.ends_with("ll") { 64 } else { long };
            let kind = Conv { w, signed: !c.name.starts_with("strtou") };
            let base = c.int(h.pool(), 2, 32);
            let base = h.concretise(base) as u32 as i32;
            strto(h, c.ptr(0), Some(c.ptr(1)), base, kind).map(int)
        }
        _ => return None,
    })
}

/// `realloc(p, n)`: a new object with the old bytes that fit. The size
/// stays symbolic (the path only keeps whether it is below the old one).
fn realloc(h: &mut dyn LibcHost, p: Pointer, n: Value) -> Result<Pointer, End> {
    if h.is_null(p) {
        return match h.allocation_fails("realloc", None) {
            Some(null) => Ok(null),
            None => h.allocate(Value::int(1), n, false),
        };
    }
    let n = Int::of(h.pool(), n, 64);
    let zero = n.is_zero(h.pool());
    if h.decide(zero)? {
        h.release(p)?;
        // The call still counts as an allocation (one that returned null):
        // the native leak check counts calls.
        let none = h.allocate(Value::int(1), Value::int(0), false)?;
        h.release(none)?;
        return Ok(Pointer::NULL);
    }
    // Which of the old and new sizes is smaller decides how many bytes are
    // copied: the path keeps this run's side, not the size itself (bytes
    // the new size cuts off are out of the new object's bounds anyway).
    let old = h.object_size(p).unwrap_or(0);
    let old_e = Int::konst(old, 64);
    let grows = if n.conc >= old { old_e.cmp(h.pool(), BvCmp::Ule, n) } else { n.cmp(h.pool(), BvCmp::Ult, old_e) };
    h.guard(grows);
    let new = h.allocate(Value::int(1), n.value(), false)?;
    // Growing copies the old object (within the new one by the guard);
    // shrinking fills the new object: its whole size, so the copy keeps it
    // symbolic and checks no byte against it (a byte check could only fail
    // for a length realloc never copies, and negating it diverged).
    let len = if n.conc >= old { Value::int(old) } else { n.value() };
    h.copy(new, p, len)?;
    // Decided after the copy, whose checks both sides then record: a
    // failing call discards the copy and leaves the old object as it is.
    if let Some(null) = h.allocation_fails("realloc", Some(new)) {
        return Ok(null);
    }
    h.release(p)?;
    Ok(new)
}

/// `abs` of a `w`-bit argument: an expression, no decision. The most
/// negative value has no absolute value: a signed-overflow error when
/// overflow is checked, else it wraps to itself (what the machine does).
fn abs(h: &mut dyn LibcHost, c: &Call<'_>, w: u32) -> Result<Int, End> {
    let x = c.int(h.pool(), 0, w);
    if h.target().check_overflow {
        let min = 1u64 << (w - 1);
        let ok = x.eqc(h.pool(), min).not(h.pool());
        let message = format!("abs({}): the result does not fit in {w} bits", x.signed());
        h.check(ok, ErrorKind::SignedOverflow, message)?;
    }
    let pool = h.pool();
    let neg = x.cmp(pool, BvCmp::Slt, Int::konst(0, w));
    let minus = Int::konst(0, w).bin(pool, BvOp::Sub, x);
    Ok(Int::ite(pool, neg, minus, x))
}

/// `isspace` in the "C" locale: space, `\t`, `\n`, `\v`, `\f`, `\r`.
pub(super) fn is_space(h: &mut dyn LibcHost, b: Int) -> Cond {
    let pool = h.pool();
    let sp = b.eqc(pool, u64::from(b' '));
    let ctl = b.in_range(pool, 9, 13);
    sp.or(pool, ctl)
}

/// Whether byte `b` is a digit of `base` (2..=36), and its value as a
/// `w`-bit integer (meaningful when it is one).
pub(super) fn digit(h: &mut dyn LibcHost, b: Int, base: u64, w: u32) -> (Cond, Int) {
    let pool = h.pool();
    let dec = b.in_range(pool, u64::from(b'0'), u64::from(b'0') + base.min(10) - 1);
    if base <= 10 {
        let d = b.binc(pool, BvOp::Sub, u64::from(b'0')).zext(pool, w);
        return (dec, d);
    }
    let last = base - 11;
    let lower = b.in_range(pool, u64::from(b'a'), u64::from(b'a') + last);
    let upper = b.in_range(pool, u64::from(b'A'), u64::from(b'A') + last);
    let letter = lower.or(pool, upper);
    let is = dec.or(pool, letter);
    // `toupper(c) - 'A' + 10` for letters: clearing bit 5 upper-cases them.
    let up = b.binc(pool, BvOp::And, 0xdf).binc(pool, BvOp::Sub, u64::from(b'A') - 10);
    let num = b.binc(pool, BvOp::Sub, u64::from(b'0'));
    let is_dec = b.cmp(pool, BvCmp::Ule, Int::konst(u64::from(b'9'), 8));
    let d = Int::ite(pool, is_dec, num, up).zext(pool, w);
    (is, d)
}

/// `strtol` and its relatives. `endptr`: `None` when the function has
/// none (`atoi`), else the pointer argument (which may be null).
fn strto(h: &mut dyn LibcHost, s: Pointer, endptr: Option<Pointer>, base: i32, k: Conv) -> Result<Int, End> {
    if !(base == 0 || (2..=36).contains(&base)) {
        errno::set(h, errno::EINVAL)?;
        return Ok(Int::konst(0, k.w));
    }
    let mut base = base as u64;
    let s = pinned(h, s);
    let mut i = 0u64;
    let mut lp = ByteLoop::while_true();
    loop {
        let b = byte(h, s, i)?;
        let space = is_space(h, b);
        if !h.decide_loop(space, &mut lp)? {
            break;
        }
        i += 1;
    }
    let b = byte(h, s, i)?;
    let minus = b.eqc(h.pool(), u64::from(b'-'));
    let negative = h.decide(minus)?;
    if negative {
        i += 1;
    } else {
        let plus = b.eqc(h.pool(), u64::from(b'+'));
        if h.decide(plus)? {
            i += 1;
        }
    }
    let mut prefix = false;
    if base == 0 || base == 16 {
        let b = byte(h, s, i)?;
        let zero = b.eqc(h.pool(), u64::from(b'0'));
        if h.decide(zero)? {
            let b1 = byte(h, s, i + 1)?;
            let pool = h.pool();
            let (x, big_x) = (b1.eqc(pool, u64::from(b'x')), b1.eqc(pool, u64::from(b'X')));
            let is_x = x.or(pool, big_x);
            if h.decide(is_x)? {
                i += 2;
                base = 16;
                prefix = true;
            } else if base == 0 {
                base = 8;
            }
        } else if base == 0 {
            base = 10;
        }
    }
    let save = i;
    let (acc, overflow, end) = digits(h, s, save, base, k)?;
    if end == save {
        // No digits: the `x` of a `0x` prefix is where conversion stopped.
        if let Some(e) = endptr {
            let at = if prefix { save - 1 } else { 0 };
            store_end(h, e, s, at)?;
        }
        return Ok(Int::konst(0, k.w));
    }
    if let Some(e) = endptr {
        store_end(h, e, s, end)?;
    }
    let mut overflow = overflow;
    if let (false, Some(max_acc)) = (overflow, acc.1) {
        if k.signed {
            // Within `unsigned long` but not `long`.
            let limit = (1u64 << (k.w - 1)) - u64::from(!negative);
            if max_acc > u128::from(limit) {
                let over = Int::konst(limit, k.w).cmp(h.pool(), BvCmp::Ult, acc.0);
                overflow = h.decide(over)?;
            }
        }
    }
    if overflow {
        errno::set(h, errno::ERANGE)?;
        let max = pathwise_expr::ops::mask(k.w);
        let v = match (k.signed, negative) {
            (false, _) => max,
            (true, false) => max >> 1,
            (true, true) => 1u64 << (k.w - 1),
        };
        return Ok(Int::konst(v, k.w));
    }
    let pool = h.pool();
    Ok(if negative { Int::konst(0, k.w).bin(pool, BvOp::Sub, acc.0) } else { acc.0 })
}

/// The digit loop from byte `i` of `s`: ((the value, an upper bound of it
/// when no overflow was decided), whether it overflowed `k.w` unsigned
/// bits, the index after the last digit).
type Digits = ((Int, Option<u128>), bool, u64);

fn digits(h: &mut dyn LibcHost, s: Pointer, mut i: u64, base: u64, k: Conv) -> Result<Digits, End> {
    let umax = u128::from(pathwise_expr::ops::mask(k.w));
    let (cutoff, cutlim) = (umax / u128::from(base), umax % u128::from(base));
    let mut acc = Int::konst(0, k.w);
    let mut max_acc: u128 = 0;
    let mut overflow = false;
    let mut lp = ByteLoop::while_true();
    loop {
        let b = byte(h, s, i)?;
        let (is_digit, d) = digit(h, b, base, k.w);
        if !h.decide_loop(is_digit, &mut lp)? {
            break;
        }
        i += 1;
        if overflow {
            continue;
        }
        // glibc: `if (i > cutoff || (i == cutoff && c > cutlim))`; only a
        // decision when the digits read so far can reach the cut-off.
        if max_acc > cutoff || (max_acc == cutoff && u128::from(base - 1) > cutlim) {
            let pool = h.pool();
            let (co, cl) = (Int::konst(cutoff as u64, k.w), Int::konst(cutlim as u64, k.w));
            let above = co.cmp(pool, BvCmp::Ult, acc);
            let at = acc.eq(pool, co);
            let big_digit = cl.cmp(pool, BvCmp::Ult, d);
            let at_big = at.and(pool, big_digit);
            let over = above.or(pool, at_big);
            if h.decide(over)? {
                overflow = true;
                continue;
            }
        }
        let pool = h.pool();
        acc = acc.binc(pool, BvOp::Mul, base).bin(pool, BvOp::Add, d);
        max_acc = (max_acc * u128::from(base) + u128::from(base - 1)).min(umax);
    }
    Ok(((acc, (!overflow).then_some(max_acc)), overflow, i))
}

/// `*endptr = s + at`, unless `endptr` is null.
fn store_end(h: &mut dyn LibcHost, endptr: Pointer, s: Pointer, at: u64) -> Result<(), End> {
    if h.is_null(endptr) {
        return Ok(());
    }
    h.store(endptr, pathwise_ir::Type::Ptr, Value::Ptr(super::at(s, at)))
}

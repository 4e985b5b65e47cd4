//! `<string.h>`: `strlen`, `strnlen`, `strcmp`, `strncmp`, `memcmp`,
//! `strcpy`, `strncpy`, `strcat`, `strncat`, `strdup`, `strndup`, `strchr`,
//! `strrchr`, `strstr`, `strspn`, `strcspn`, `strpbrk`, `memchr`, `memset`,
//! `memcpy`, `memmove`; and `<strings.h>`'s `strcasecmp`, `strncasecmp`
//! (which `<string.h>` declares too).
//!
//! Each is the loop a C library would run, byte by byte through the
//! program's own loads and stores: a null argument is a null dereference,
//! reading past an object without finding the terminator is an
//! out-of-bounds error, and reading past an input array whose length the
//! search chooses asks for a longer array, exactly as a load written in C
//! would. A byte test on a symbolic byte is a decision of the path, so
//! `strlen` of an input string forks one path per length. The loops whose
//! length only the data decides (`strlen`, `strcmp`, `strcpy`, `strchr`,
//! `strstr`...) run at most k iterations entered through symbolic tests
//! (a `strlen` of an input gives the lengths 0..=k); iterations on concrete
//! bytes are free, so `strlen("hello")` is never cut short, and neither
//! are `strcmp(s, "GET")` or `strchr("!#$", c)`: an iteration that tests
//! a byte of a concrete string is bounded by that string. The loops
//! bounded by a size argument (`memcmp`, `strncmp`, `strnlen`, `memchr`...)
//! are unrolled up to a concrete size without the k bound: `memcmp(p, q,
//! sizeof *p)` must be able to find its operands equal. A size from the
//! inputs stays symbolic: each iteration's `i < n` is a decision that k
//! bounds, as a loop of the program ([`Limit`]), and `strncpy`'s padding
//! is checked against the room in its destination before it is fixed.
//! Comparisons return the difference of the first differing bytes as
//! `unsigned char`s (glibc's result; C fixes only its sign); the case-insensitive ones compare the bytes as `tolower`
//! leaves them in the "C" locale (`A`..`Z` folded, nothing else), as
//! glibc's do. Results never depend on how glibc is optimised: `strstr` is
//! the first occurrence, whatever the algorithm finding it.

use pathwise_expr::{BvCmp, BvOp};
use pathwise_ir::Type;

use super::{at, byte, pinned, strlen, ByteLoop, Call, Cond, Int, LibcHost, Outcome};
use crate::path::End;
use crate::value::{Pointer, Value};

#[rustfmt::skip] // long names would put every name on a line of its own
pub(super) const NAMES: &[&str] = &[
    "strlen", "strnlen", "strcmp", "strncmp", "memcmp", "strcpy", "strncpy", "strcat", "strncat", "strdup", "strndup",
    "strchr", "strrchr", "strstr", "strspn", "strcspn", "strpbrk", "memchr", "memset", "memcpy", "memmove",
    "strcasecmp", "strncasecmp",
];

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    // `size_t` results in the declaration's width (it differs by data model).
    let bits = c.ret.map_or(h.target().long_bits, |t| t.bits());
    let size = |v: u64| Some(Value::int(v & pathwise_expr::ops::mask(bits)));
    let ptr = |p: Pointer| Some(Value::Ptr(p));
    Some(match c.name {
        "strlen" => {
            let s = pinned(h, c.ptr(0));
            strlen(h, s).map(size)
        }
        "strnlen" => {
            let n = Limit::of(h, c, 1);
            strnlen(h, c.ptr(0), n).map(size)
        }
        "strcmp" | "strcasecmp" => {
            let kind = if c.name == "strcmp" { Compare::Strings } else { Compare::Folded };
            compare(h, c.ptr(0), c.ptr(1), None, kind).map(|v| Some(v.value()))
        }
        "strncmp" | "strncasecmp" | "memcmp" => {
            let n = Limit::of(h, c, 2);
            let kind = match c.name {
                "strncmp" => Compare::Strings,
                "strncasecmp" => Compare::Folded,
                _ => Compare::Bytes,
            };
            compare(h, c.ptr(0), c.ptr(1), Some(n), kind).map(|v| Some(v.value()))
        }
        "strcpy" => copy_string(h, c.ptr(0), c.ptr(1), None).map(|_| Some(c.arg(0))),
        "strncpy" => {
            let n = Limit::of(h, c, 2);
            copy_string(h, c.ptr(0), c.ptr(1), Some(n)).map(|_| Some(c.arg(0)))
        }
        "strcat" | "strncat" => {
            let n = (c.name == "strncat").then(|| Limit::of(h, c, 2));
            concat(h, c.ptr(0), c.ptr(1), n).map(|_| Some(c.arg(0)))
        }
        "strdup" => duplicate(h, c.ptr(0), None).map(ptr),
        "strndup" => {
            let n = Limit::of(h, c, 1);
            duplicate(h, c.ptr(0), Some(n)).map(ptr)
        }
        "strchr" | "strrchr" => {
            let ch = c.int(h.pool(), 1, 8);
            find_char(h, c.ptr(0), ch, c.name == "strrchr").map(ptr)
        }
        "memchr" => {
            let (ch, n) = (c.int(h.pool(), 1, 8), Limit::of(h, c, 2));
            memchr(h, c.ptr(0), ch, n).map(ptr)
        }
        "strstr" => strstr(h, c.ptr(0), c.ptr(1)).map(ptr),
        "strspn" | "strcspn" => span(h, c.ptr(0), c.ptr(1), c.name == "strspn").map(|(n, _)| size(n)),
        "strpbrk" => span(h, c.ptr(0), c.ptr(1), false).map(|(_, p)| ptr(p)),
        "memset" => {
            let n = length(h, c, 2);
            h.fill(c.ptr(0), c.arg(1), n).map(|_| Some(c.arg(0)))
        }
        "memcpy" | "memmove" => {
            let n = length(h, c, 2);
            h.copy(c.ptr(0), c.ptr(1), n).map(|_| Some(c.arg(0)))
        }
        _ => return None,
    })
}

/// A `size_t` argument as a 64-bit value (it is 32 bits under ILP32).
fn length(h: &mut dyn LibcHost, c: &Call<'_>, i: usize) -> Value {
    let long = h.target().long_bits;
    let pool = h.pool();
    c.int(pool, i, long).zext(pool, 64).value()
}

/// A `size_t` argument bounding a byte loop (`strncmp`, `memchr`,
/// `strncpy`...). The loop still ends at the data (a terminator, a
/// difference, the end of an object), so a large bound is no cost. A
/// symbolic bound stays symbolic: each iteration's `i < n` is a decision,
/// bounded by k as a loop of the program is, so that the sizes a caller
/// passes are explored (fixed to their first value, `memchr(buf, ':', n)`
/// and `strncmp(a, b, n)` had one test each).
struct Limit {
    n: Int,
    lp: ByteLoop,
}

impl Limit {
    /// Argument `i` of the call.
    fn of(h: &mut dyn LibcHost, c: &Call<'_>, i: usize) -> Limit {
        let long = h.target().long_bits;
        let pool = h.pool();
        Limit { n: c.int(pool, i, long).zext(pool, 64), lp: ByteLoop::while_true() }
    }

    /// Whether byte `i` is within the bound (`i < n`).
    fn admits(&mut self, h: &mut dyn LibcHost, i: u64) -> Result<bool, End> {
        if self.n.sym.is_none() {
            return Ok(i < self.n.conc);
        }
        let within = Int::konst(i, 64).cmp(h.pool(), BvCmp::Ult, self.n);
        h.decide_loop(within, &mut self.lp)
    }
}

/// `strnlen(s, n)`: the length, at most `n`, reading no byte beyond.
fn strnlen(h: &mut dyn LibcHost, s: Pointer, mut n: Limit) -> Result<u64, End> {
    let s = pinned(h, s);
    let mut i = 0;
    // Past the bound, `i == n` on this path.
    while n.admits(h, i)? {
        let b = byte(h, s, i)?;
        let zero = b.is_zero(h.pool());
        if h.decide(zero)? {
            return Ok(i);
        }
        i += 1;
    }
    Ok(i)
}

/// What a comparison compares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Compare {
    /// Bytes up to a size (`memcmp`).
    Bytes,
    /// Strings, up to their terminators (`strcmp`, `strncmp`).
    Strings,
    /// Strings, each byte as `tolower` leaves it in the "C" locale
    /// (`strcasecmp`, `strncasecmp`).
    Folded,
}

/// `strcmp`, `strncmp`, `strcasecmp`, `strncasecmp` (strings, `limit` for
/// the `n` forms) and `memcmp` (bytes, with a size): the difference of the
/// first differing bytes as `unsigned char`s (lower-cased for the
/// case-insensitive ones), or 0.
fn compare(h: &mut dyn LibcHost, a: Pointer, b: Pointer, mut limit: Option<Limit>, kind: Compare) -> Result<Int, End> {
    let (a, b) = (pinned(h, a), pinned(h, b));
    let mut lp = ByteLoop::while_true();
    let mut i = 0u64;
    while limit.as_mut().map_or(Ok(true), |n| n.admits(h, i))? {
        let (mut x, mut y) = (byte(h, a, i)?, byte(h, b, i)?);
        if kind == Compare::Folded {
            (x, y) = (fold_case(h, x), fold_case(h, y));
        }
        let equal = x.eq(h.pool(), y);
        // `for (; a[i] == b[i]; i++) if (a[i] == 0) return 0;`; with a size
        // argument the loop is bounded by it instead of by k.
        // An iteration on a concrete byte of either string is bounded by
        // that string (a literal: `strcmp(s, "GET")` finds "GET" at any k).
        let same = match limit {
            None if x.sym.is_some() && y.sym.is_some() => h.decide_loop(equal, &mut lp)?,
            _ => h.decide(equal)?,
        };
        if !same {
            if let (Compare::Bytes, Some(n)) = (kind, &limit) {
                // `memcmp` reads both operands whole.
                let n = n.n.value();
                h.read_rest(a, i + 1, n)?;
                h.read_rest(b, i + 1, n)?;
            }
            let pool = h.pool();
            let (wx, wy) = (x.zext(pool, 32), y.zext(pool, 32));
            return Ok(wx.bin(pool, BvOp::Sub, wy));
        }
        if kind != Compare::Bytes {
            // Test the concrete operand when there is one: its value is the
            // other's on this side, and a test on it is no decision (only
            // the terminator folds to zero).
            let z = if x.sym.is_none() { x } else { y };
            let zero = z.is_zero(h.pool());
            if h.decide(zero)? {
                return Ok(Int::konst(0, 32));
            }
        }
        i += 1;
    }
    Ok(Int::konst(0, 32))
}

/// Byte `b` as the "C" locale's `tolower` leaves it: `A`..`Z` lower-cased.
fn fold_case(h: &mut dyn LibcHost, b: Int) -> Int {
    let pool = h.pool();
    let upper = b.in_range(pool, u64::from(b'A'), u64::from(b'Z'));
    let lower = b.binc(pool, BvOp::Add, 32);
    Int::ite(pool, upper, lower, b)
}

/// `strcpy(d, s)` (no limit) and `strncpy(d, s, n)`: copy up to and
/// including the terminator; `strncpy` pads with zeros up to `n` bytes and
/// writes no terminator when `s` is `n` bytes or longer. Returns the
/// number of bytes copied from `s`, the terminator included if copied.
fn copy_string(h: &mut dyn LibcHost, d: Pointer, s: Pointer, mut limit: Option<Limit>) -> Result<u64, End> {
    let (d, s) = (pinned(h, d), pinned(h, s));
    let mut lp = ByteLoop::until_true();
    let mut i = 0u64;
    while limit.as_mut().map_or(Ok(true), |n| n.admits(h, i))? {
        let b = byte(h, s, i)?;
        h.store(at(d, i), Type::I8, b.value())?;
        let zero = b.is_zero(h.pool());
        let end = match limit {
            None => h.decide_loop(zero, &mut lp)?,
            Some(_) => h.decide(zero)?,
        };
        i += 1;
        if end {
            break;
        }
    }
    let copied = i;
    match limit {
        // The `n - i` zeros that pad `d`: a symbolic count is checked
        // against the room in `d` before the fill fixes it, as `memset`'s.
        Some(Limit { n, .. }) if n.sym.is_some() => {
            let rest = n.binc(h.pool(), BvOp::Sub, i);
            h.fill(at(d, i), Value::int(0), rest.value())?;
        }
        Some(Limit { n, .. }) => {
            for j in i..n.conc {
                h.store(at(d, j), Type::I8, Value::int(0))?;
            }
        }
        None => {}
    }
    Ok(copied)
}

/// `strcat(d, s)` and `strncat(d, s, n)` (at most `n` bytes of `s`, then a
/// terminator always).
fn concat(h: &mut dyn LibcHost, d: Pointer, s: Pointer, limit: Option<Limit>) -> Result<(), End> {
    let d = pinned(h, d);
    let end = at(d, strlen(h, d)?);
    match limit {
        None => copy_string(h, end, s, None).map(|_| ()),
        Some(mut n) => {
            let s = pinned(h, s);
            let mut i = 0u64;
            while n.admits(h, i)? {
                let b = byte(h, s, i)?;
                let zero = b.is_zero(h.pool());
                if h.decide(zero)? {
                    break;
                }
                h.store(at(end, i), Type::I8, b.value())?;
                i += 1;
            }
            h.store(at(end, i), Type::I8, Value::int(0))
        }
    }
}

/// `strdup(s)` and `strndup(s, n)`: a new heap object with the (at most
/// `n`) bytes of `s` and a terminator.
fn duplicate(h: &mut dyn LibcHost, s: Pointer, limit: Option<Limit>) -> Result<Pointer, End> {
    let s = pinned(h, s);
    let what = if limit.is_some() { "strndup" } else { "strdup" };
    let n = match limit {
        None => strlen(h, s)?,
        Some(n) => strnlen(h, s, n)?,
    };
    if let Some(null) = h.allocation_fails(what, None) {
        return Ok(null);
    }
    let p = h.allocate(Value::int(1), Value::int(n + 1), false)?;
    h.copy(p, s, Value::int(n))?;
    h.store(at(p, n), Type::I8, Value::int(0))?;
    Ok(p)
}

/// `strchr(s, c)` (the first byte equal to `(char) c`, the terminator
/// included, or null) and `strrchr` (the last).
fn find_char(h: &mut dyn LibcHost, s: Pointer, c: Int, last: bool) -> Result<Pointer, End> {
    let s = pinned(h, s);
    if c.sym.is_none() && c.conc == 0 {
        // The terminator is the only (so the last) zero byte.
        return Ok(at(s, strlen(h, s)?));
    }
    let mut lp = ByteLoop::until_true();
    let mut found = Pointer::NULL;
    let mut i = 0u64;
    loop {
        let b = byte(h, s, i)?;
        let hit = b.eq(h.pool(), c);
        if !last {
            // `while (s[i] != c) { if (s[i] == 0) return NULL; i++; }`; a
            // concrete byte (a literal's: `strchr("!#$", c)`) is bounded by
            // its string, not by k.
            let found = if b.sym.is_none() { h.decide(hit)? } else { h.decide_loop(hit, &mut lp)? };
            if found {
                return Ok(at(s, i));
            }
        } else if h.decide(hit)? {
            found = at(s, i);
        }
        let zero = b.is_zero(h.pool());
        let end = if last { h.decide_loop(zero, &mut lp)? } else { h.decide(zero)? };
        if end {
            return Ok(found);
        }
        i += 1;
    }
}

/// `memchr(s, c, n)`: the first of the `n` bytes equal to `(unsigned char)
/// c`, or null.
fn memchr(h: &mut dyn LibcHost, s: Pointer, c: Int, mut n: Limit) -> Result<Pointer, End> {
    let s = pinned(h, s);
    let mut i = 0;
    while n.admits(h, i)? {
        let b = byte(h, s, i)?;
        let hit = b.eq(h.pool(), c);
        if h.decide(hit)? {
            return Ok(at(s, i));
        }
        i += 1;
    }
    Ok(Pointer::NULL)
}

/// `strstr(hay, needle)`: the first position where `needle` occurs, or
/// null. A mismatch on the haystack's terminator ends the search (the
/// needle cannot fit any later).
fn strstr(h: &mut dyn LibcHost, hay: Pointer, needle: Pointer) -> Result<Pointer, End> {
    let (hay, needle) = (pinned(h, hay), pinned(h, needle));
    let mut outer = ByteLoop::until_true();
    let mut i = 0u64;
    loop {
        let mut inner = ByteLoop::while_true();
        let mut j = 0u64;
        let stop = loop {
            let nb = byte(h, needle, j)?;
            let end = nb.is_zero(h.pool());
            if h.decide(end)? {
                return Ok(at(hay, i));
            }
            let hb = byte(h, hay, i + j)?;
            let same = hb.eq(h.pool(), nb);
            let same = if nb.sym.is_none() { h.decide(same)? } else { h.decide_loop(same, &mut inner)? };
            if !same {
                break hb;
            }
            j += 1;
        };
        let zero = stop.is_zero(h.pool());
        if h.decide_loop(zero, &mut outer)? {
            return Ok(Pointer::NULL);
        }
        i += 1;
    }
}

/// `strspn(s, set)` (`accept`: the length of the prefix of bytes in `set`)
/// and `strcspn`/`strpbrk` (the prefix of bytes not in `set`; the pointer
/// to the byte ending it, null at the terminator). The set is read first
/// (as glibc does); each byte of `s` is then one test of membership.
fn span(h: &mut dyn LibcHost, s: Pointer, set: Pointer, accept: bool) -> Result<(u64, Pointer), End> {
    let (s, set) = (pinned(h, s), pinned(h, set));
    let n = strlen(h, set)?;
    let mut members = Vec::new();
    for j in 0..n {
        members.push(byte(h, set, j)?);
    }
    let mut lp = if accept { ByteLoop::while_true() } else { ByteLoop::until_true() };
    let mut i = 0u64;
    loop {
        let b = byte(h, s, i)?;
        let pool = h.pool();
        let hits: Vec<Cond> = members.iter().map(|&m| b.eq(pool, m)).collect();
        let mut test = Cond::any(pool, hits);
        if !accept {
            // The terminator ends a span of rejected bytes too.
            let zero = b.is_zero(pool);
            test = test.or(pool, zero);
        }
        if h.decide_loop(test, &mut lp)? != accept {
            if accept {
                return Ok((i, Pointer::NULL));
            }
            let zero = b.is_zero(h.pool());
            let p = if h.decide(zero)? { Pointer::NULL } else { at(s, i) };
            return Ok((i, p));
        }
        i += 1;
    }
}

//! `<ctype.h>` in the "C" locale, in both of glibc's forms.
//!
//! With glibc's headers, `isdigit(c)` is a macro:
//! `(*__ctype_b_loc ())[(int) (c)] & (unsigned short int) _ISdigit`, so the
//! program itself indexes a table of class bits (`tolower` becomes a
//! `__ctype_tolower_loc` lookup only when optimising; `_tolower` always).
//! `__ctype_b_loc`, `__ctype_tolower_loc` and `__ctype_toupper_loc` return
//! a pointer to a pointer to the element for 0 of a 384-element table
//! (indices -128..=255: `unsigned char` values, `EOF` and negative `signed
//! char`s), each table a static object of the run with glibc's contents:
//! class bits in glibc's little-endian layout (`_ISbit`, see
//! `/usr/include/ctype.h`; bit `b` is `(1 << b) << 8` below 8, `>> 8` from
//! 8), and case tables that map -128..=-2 to 128..=254 (what glibc stores
//! there) and `EOF` to itself. A symbolic index stays symbolic: the memory
//! model reads a concrete object at a symbolic offset of its element type
//! as a `select` of its whole content (the object becomes an array
//! expression; nothing is concretised), after checking the offset against
//! the object's bounds (an index outside -128..=255 is an out-of-bounds
//! error, as it is undefined in C).
//!
//! Called as functions (`(isalpha)(c)`, `tolower(c)` unoptimised), the
//! result is an expression, never a decision: `isalpha` returns glibc's
//! masked table entry (1024 for a letter), `tolower` its table entry for
//! -128..=255 and the argument elsewhere, as glibc's functions do. Except
//! `isdigit`, `isascii` and `toascii`, which gcc replaces by built-ins even
//! at `-O0`: the emitted tests see `(unsigned) c - '0' <= 9` (0 or 1, for
//! any `int`), `(c & ~0x7f) == 0` and `c & 0x7f`.

use pathwise_expr::{BvCmp, BvOp};
use pathwise_ir::Type;

use super::{at, Call, Cond, Int, LibcHost, Outcome};
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::Value;

pub(super) const NAMES: &[&str] = &[
    "isalnum",
    "isalpha",
    "iscntrl",
    "isdigit",
    "isgraph",
    "islower",
    "isprint",
    "ispunct",
    "isspace",
    "isupper",
    "isxdigit",
    "isblank",
    "isascii",
    "toascii",
    "tolower",
    "toupper",
    "__ctype_b_loc",
    "__ctype_tolower_loc",
    "__ctype_toupper_loc",
];

/// glibc's `_ISbit(bit)` on a little-endian machine.
const fn is_bit(bit: u32) -> u16 {
    if bit < 8 {
        (1 << bit) << 8
    } else {
        (1 << bit) >> 8
    }
}

const UPPER: u16 = is_bit(0);
const LOWER: u16 = is_bit(1);
const ALPHA: u16 = is_bit(2);
const DIGIT: u16 = is_bit(3);
const XDIGIT: u16 = is_bit(4);
const SPACE: u16 = is_bit(5);
const PRINT: u16 = is_bit(6);
const GRAPH: u16 = is_bit(7);
const BLANK: u16 = is_bit(8);
const CNTRL: u16 = is_bit(9);
const PUNCT: u16 = is_bit(10);
const ALNUM: u16 = is_bit(11);

/// The class bits of `c` in the "C" locale (0 outside 0..=127).
fn class_bits(c: i64) -> u16 {
    let Ok(b) = u8::try_from(c) else { return 0 };
    if !b.is_ascii() {
        return 0;
    }
    let classes = [
        (b.is_ascii_uppercase(), UPPER),
        (b.is_ascii_lowercase(), LOWER),
        (b.is_ascii_alphabetic(), ALPHA),
        (b.is_ascii_digit(), DIGIT),
        (b.is_ascii_hexdigit(), XDIGIT),
        (matches!(b, b' ' | 9..=13), SPACE),
        (matches!(b, 32..=126), PRINT),
        (b.is_ascii_graphic(), GRAPH),
        (matches!(b, b' ' | b'\t'), BLANK),
        (b.is_ascii_control(), CNTRL),
        (b.is_ascii_punctuation(), PUNCT),
        (b.is_ascii_alphanumeric(), ALNUM),
    ];
    classes.iter().filter(|(is, _)| *is).fold(0, |acc, (_, bit)| acc | bit)
}

/// glibc's case tables: `to_upper` selects `toupper`'s.
fn case_entry(c: i64, to_upper: bool) -> i64 {
    match c {
        -128..=-2 => c + 256,
        _ if to_upper && (i64::from(b'a')..=i64::from(b'z')).contains(&c) => c - 32,
        _ if !to_upper && (i64::from(b'A')..=i64::from(b'Z')).contains(&c) => c + 32,
        _ => c,
    }
}

/// The class mask a classification function tests.
pub(super) fn class_of(name: &str) -> Option<u16> {
    Some(match name {
        "isalnum" => ALNUM,
        "isalpha" => ALPHA,
        "iscntrl" => CNTRL,
        "isgraph" => GRAPH,
        "islower" => LOWER,
        "isprint" => PRINT,
        "ispunct" => PUNCT,
        "isspace" => SPACE,
        "isupper" => UPPER,
        "isxdigit" => XDIGIT,
        "isblank" => BLANK,
        _ => return None,
    })
}

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    let int = |v: Int| Ok(Some(v.value()));
    Some(match c.name {
        "__ctype_b_loc" => {
            let entry = |i| u64::from(class_bits(i));
            Ok(Some(table(h, ("ctype_b", "ctype_b_loc"), Type::I16, &entry)))
        }
        "__ctype_tolower_loc" => {
            let entry = |i| case_entry(i, false) as u64;
            Ok(Some(table(h, ("ctype_tolower", "ctype_tolower_loc"), Type::I32, &entry)))
        }
        "__ctype_toupper_loc" => {
            let entry = |i| case_entry(i, true) as u64;
            Ok(Some(table(h, ("ctype_toupper", "ctype_toupper_loc"), Type::I32, &entry)))
        }
        "isdigit" => {
            let pool = h.pool();
            let d = c.int(pool, 0, 32).binc(pool, BvOp::Sub, u64::from(b'0'));
            let is = d.cmp(pool, BvCmp::Ule, Int::konst(9, 32));
            int(Int::from_cond(pool, is, 32))
        }
        "isascii" => {
            let pool = h.pool();
            let high = c.int(pool, 0, 32).binc(pool, BvOp::And, !0x7f);
            let is = high.is_zero(pool);
            int(Int::from_cond(pool, is, 32))
        }
        "toascii" => {
            let pool = h.pool();
            int(c.int(pool, 0, 32).binc(pool, BvOp::And, 0x7f))
        }
        "tolower" | "toupper" => int(convert_case(h, c, c.name == "toupper")),
        name => match class_of(name) {
            Some(mask) => classify(h, c, mask).map(|v| Some(v.value())),
            None => return None,
        },
    })
}

/// A pointer to the static pointer `names.1` to element 0 of the
/// 384-element table `names.0` (entries for -128..=255 given by `entry`).
fn table(h: &mut dyn LibcHost, names: (&'static str, &'static str), elem: Type, entry: &dyn Fn(i64) -> u64) -> Value {
    let mask = elem.mask();
    let t = h.static_object(names.0, elem, &|| (-128..256).map(|i| Value::int(entry(i) & mask)).collect());
    let zero = at(t, 128 * elem.bytes());
    Value::Ptr(h.static_object(names.1, Type::Ptr, &|| vec![Value::Ptr(zero)]))
}

/// `c` in -128..=255: glibc's functions index their table with it.
fn in_table(h: &mut dyn LibcHost, x: Int) -> Cond {
    let pool = h.pool();
    let shifted = x.binc(pool, BvOp::Add, 128);
    shifted.cmp(pool, BvCmp::Ule, Int::konst(383, 32))
}

/// A classification function: glibc's `table[c] & mask`, undefined for
/// `c` outside the table.
fn classify(h: &mut dyn LibcHost, c: &Call<'_>, mask: u16) -> Result<Int, End> {
    let x = c.int(h.pool(), 0, 32);
    let ok = in_table(h, x);
    let message = format!("{}({}): argument outside -128..255 (glibc reads outside its table)", c.name, x.signed());
    h.check(ok, ErrorKind::OutOfBounds, message)?;
    // Negative arguments, huge unsigned 32-bit values, are in no range.
    let pool = h.pool();
    let members: Vec<Cond> = class_ranges(mask).iter().map(|&(lo, hi)| x.in_range(pool, lo, hi)).collect();
    let member = Cond::any(pool, members);
    Ok(Int::ite(pool, member, Int::konst(u64::from(mask), 32), Int::konst(0, 32)))
}

/// The members of a class (`mask`) as ranges of 0..=127.
pub(super) fn class_ranges(mask: u16) -> Vec<(u64, u64)> {
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    for b in 0..128u64 {
        if class_bits(b as i64) & mask == 0 {
            continue;
        }
        match ranges.last_mut() {
            Some(r) if r.1 + 1 == b => r.1 = b,
            _ => ranges.push((b, b)),
        }
    }
    ranges
}

/// glibc's `tolower`/`toupper`: the table entry for -128..=255, the
/// argument itself elsewhere.
fn convert_case(h: &mut dyn LibcHost, c: &Call<'_>, to_upper: bool) -> Int {
    let pool = h.pool();
    let x = c.int(pool, 0, 32);
    let (lo, delta) = if to_upper { (b'a', (-32i64) as u64) } else { (b'A', 32) };
    let letter = x.in_range(pool, u64::from(lo), u64::from(lo) + 25);
    let shifted = x.binc(pool, BvOp::Add, delta);
    // -128..=-2 map to 128..=254.
    let negative = x.binc(pool, BvOp::Add, 128).cmp(pool, BvCmp::Ule, Int::konst(126, 32));
    let wrapped = x.binc(pool, BvOp::Add, 256);
    let rest = Int::ite(pool, negative, wrapped, x);
    Int::ite(pool, letter, shifted, rest)
}

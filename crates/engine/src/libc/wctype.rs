//! `<wctype.h>` in the "C" locale, as glibc computes it: the wide
//! classification functions are `<ctype.h>`'s on 0..=127 (the same masked
//! values: `iswalpha` gives 1024 for a letter, `iswdigit` 1) and 0 for
//! every other `wint_t`, `WEOF` included; `towlower`/`towupper` convert
//! ASCII letters and return every other value unchanged (checked against
//! glibc over all of 0..=0x10FFFF; `tests/c/libc_ctype.c`). Defined for
//! every argument: no check. Before, these calls had no model, and the
//! `--external` stubs suggested for them returned values glibc never
//! returns.

use pathwise_expr::{BvCmp, BvOp};

use super::ctype::{class_of, class_ranges};
use super::{Call, Cond, Int, LibcHost, Outcome};

pub(super) const NAMES: &[&str] = &[
    "iswalnum",
    "iswalpha",
    "iswblank",
    "iswcntrl",
    "iswdigit",
    "iswgraph",
    "iswlower",
    "iswprint",
    "iswpunct",
    "iswspace",
    "iswupper",
    "iswxdigit",
    "towlower",
    "towupper",
];

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    let narrow = c.name.strip_prefix("isw").map(|n| format!("is{n}"));
    let pool = h.pool();
    let x = c.int(pool, 0, 32);
    let result = match c.name {
        "iswdigit" => {
            let is = x.binc(pool, BvOp::Sub, u64::from(b'0')).cmp(pool, BvCmp::Ule, Int::konst(9, 32));
            Int::from_cond(pool, is, 32)
        }
        "towlower" | "towupper" => {
            let (lo, delta) = if c.name == "towupper" { (b'a', (-32i64) as u64) } else { (b'A', 32) };
            let letter = x.in_range(pool, u64::from(lo), u64::from(lo) + 25);
            let shifted = x.binc(pool, BvOp::Add, delta);
            Int::ite(pool, letter, shifted, x)
        }
        _ => {
            let mask = class_of(narrow.as_deref()?)?;
            let members: Vec<Cond> = class_ranges(mask).iter().map(|&(lo, hi)| x.in_range(pool, lo, hi)).collect();
            let member = Cond::any(pool, members);
            Int::ite(pool, member, Int::konst(u64::from(mask), 32), Int::konst(0, 32))
        }
    };
    Some(Ok(Some(result.value())))
}

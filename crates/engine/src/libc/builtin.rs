//! The argument check of gcc's `__builtin_clz` and `__builtin_ctz` (and
//! their `l`/`ll` forms), whose result is undefined for 0.
//!
//! The front end lowers those built-ins into branch-free arithmetic
//! (`cfront/src/bitops.rs`) and calls `__pathwise_builtin_nonzero(x)`
//! first, with the argument zero-extended to 64 bits: an
//! `invalid-builtin-argument` check like a division's check of its divisor
//! (with error search its violation is a test; natively UBSan's
//! `-fsanitize=builtin` traps it). The name is reserved to the front end:
//! no C program declares it.

use super::{Call, LibcHost, Outcome};
use crate::suite::ErrorKind;

pub(super) const NAMES: &[&str] = &["__pathwise_builtin_nonzero"];

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    if c.name != NAMES[0] {
        return None;
    }
    let x = c.int(h.pool(), 0, 64);
    let ok = x.is_zero(h.pool()).not(h.pool());
    let message = "zero argument of `__builtin_clz` or `__builtin_ctz` (undefined)".to_string();
    Some(h.check(ok, ErrorKind::InvalidBuiltinArgument, message).map(|_| None))
}

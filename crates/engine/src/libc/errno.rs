//! `<errno.h>`: glibc's `errno` is `(*__errno_location ())`, so the model
//! is that function, returning a pointer to one `int` per run.
//!
//! The object starts at 0 (a test process has not failed a library call
//! before the code under test runs; code that reads `errno` without setting
//! it first cannot expect more), and the models that fail as glibc's do set
//! it (`strtol`'s `ERANGE`, `sqrt`'s `EDOM`). It is a static object of the
//! library, not a global of the program: the tests neither reset nor
//! check it.

use pathwise_ir::Type;

use super::{Call, LibcHost, Outcome};
use crate::path::End;
use crate::value::{Pointer, Value};

pub(super) const NAMES: &[&str] = &["__errno_location"];

/// glibc's (Linux's) values.
pub(super) const EDOM: u64 = 33;
pub(super) const EINVAL: u64 = 22;
pub(super) const ERANGE: u64 = 34;

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    match c.name {
        "__errno_location" => Some(Ok(Some(Value::Ptr(location(h))))),
        _ => None,
    }
}

/// The run's `errno` object.
fn location(h: &mut dyn LibcHost) -> Pointer {
    h.static_object("errno", Type::I32, &|| vec![Value::int(0)])
}

/// `errno = v`.
pub(super) fn set(h: &mut dyn LibcHost, v: u64) -> Result<(), End> {
    let p = location(h);
    h.store(p, Type::I32, Value::int(v))
}

/// `if (c) errno = v;` without a decision: when `c` is symbolic, `errno`
/// becomes `c ? v : errno` (a library result is not a path of its own).
pub(super) fn set_if(h: &mut dyn LibcHost, c: super::Cond, v: u64) -> Result<(), End> {
    if c.sym.is_none() {
        return if c.holds { set(h, v) } else { Ok(()) };
    }
    let p = location(h);
    let old = h.load(p, Type::I32)?;
    let old = super::Int::of(h.pool(), old, 32);
    let new = super::Int::ite(h.pool(), c, super::Int::konst(v, 32), old);
    h.store(p, Type::I32, new.value())
}

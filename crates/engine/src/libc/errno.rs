//! `<errno.h>`: glibc's `errno` is `(*__errno_location ())`, so the model
//! is that function, returning a pointer to one `int` per run; and
//! `strerror`, the host glibc's message of a (fixed) error number in a
//! static string of its own.
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

pub(super) const NAMES: &[&str] = &["__errno_location", "strerror"];

/// glibc's (Linux's) values.
pub(super) const EDOM: u64 = 33;
pub(super) const EINVAL: u64 = 22;
pub(super) const ERANGE: u64 = 34;

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    match c.name {
        "__errno_location" => Some(Ok(Some(Value::Ptr(location(h))))),
        "strerror" => {
            let e = c.int(h.pool(), 0, 32);
            let e = h.concretise(e) as u32 as i32;
            let text = message(e);
            let p = h.static_object(&format!("strerror.{e}"), Type::I8, &|| {
                text.bytes().chain([0]).map(|b| Value::int(u64::from(b))).collect()
            });
            Some(Ok(Some(Value::Ptr(p))))
        }
        _ => None,
    }
}

/// glibc's message for error number `e` (`strerror`'s text), from the
/// host's library through the standard library's `strerror_r`.
fn message(e: i32) -> String {
    let text = std::io::Error::from_raw_os_error(e).to_string();
    match text.strip_suffix(&format!(" (os error {e})")) {
        Some(message) => message.to_string(),
        None => text,
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

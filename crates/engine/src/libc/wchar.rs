//! Multibyte conversions in the "C" locale, as glibc (2.36) computes them:
//! `mbtowc`, `mblen` (`<stdlib.h>`), `mbrtowc`, `mbrlen`, `btowc`, `wctob`,
//! `mbsinit` (`<wchar.h>`) and `MB_CUR_MAX` (`__ctype_get_mb_cur_max`).
//!
//! The "C" locale's character set is ASCII, one byte per character: a byte
//! of 0..=127 is the wide character of that value (the NUL converts to 0
//! and counts 0 bytes), a byte of 128..=255 is an invalid sequence (`-1`,
//! `errno = EILSEQ`, nothing stored), `n == 0` is an incomplete one (`-1`;
//! `(size_t) -2` for the restartable functions) and a null `s` asks
//! whether the encoding has shift states (0: it has none). A null `pwc`
//! stores nothing. Checked against glibc on all 256 bytes
//! (`tests/c/trust2/multibyte.c`). Before, these calls had no model, and a
//! stub could not write `*pwc` (issue 23: a glob matcher's tests failed).

use pathwise_ir::Type;

use super::{byte, errno, Call, Int, LibcHost, Outcome};
use crate::path::End;
use crate::value::{Pointer, Value};

pub(super) const NAMES: &[&str] =
    &["mbtowc", "mblen", "mbrtowc", "mbrlen", "btowc", "wctob", "mbsinit", "__ctype_get_mb_cur_max"];

/// glibc's (Linux's) value.
const EILSEQ: u64 = 84;

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    let long = h.target().long_bits;
    let w = c.ret.map_or(32, |t| t.bits());
    // (pwc, s, n) argument positions, and whether it is restartable.
    let conversion = match c.name {
        "mbtowc" => Some((Some(0), 1, 2, false)),
        "mblen" => Some((None, 0, 1, false)),
        "mbrtowc" => Some((Some(0), 1, 2, true)),
        "mbrlen" => Some((None, 0, 1, true)),
        _ => None,
    };
    if let Some((pwc, s, n, restartable)) = conversion {
        let n = c.int(h.pool(), n, long);
        return Some(one_char(h, pwc.map(|i| c.ptr(i)), c.ptr(s), n, restartable, w));
    }
    Some(match c.name {
        // `btowc(c)`: ASCII or WEOF (0xffffffff); `wctob(wc)`: ASCII or EOF.
        "btowc" | "wctob" => {
            let pool = h.pool();
            let x = c.int(pool, 0, 32);
            let ascii = x.in_range(pool, 0, 127);
            let none = Int::konst(u64::MAX, w);
            let value = if w == 32 { x } else { x.zext(pool, w) };
            Ok(Some(Int::ite(pool, ascii, value, none).value()))
        }
        // Always in the initial state: the encoding has no shift states.
        "mbsinit" => Ok(Some(Value::int(1))),
        "__ctype_get_mb_cur_max" => Ok(Some(Value::int(1))),
        _ => return None,
    })
}

/// One character at `s` of at most `n` bytes, stored at `pwc` when given
/// and not null: the bytes it took (0 for the NUL), or -1 as a `w`-bit
/// integer (`(size_t) -1`, and `(size_t) -2` for `n == 0` when
/// `restartable`).
fn one_char(
    h: &mut dyn LibcHost,
    pwc: Option<Pointer>,
    s: Pointer,
    n: Int,
    restartable: bool,
    w: u32,
) -> Result<Option<Value>, End> {
    let ret = |v: i64| Ok(Some(Value::int(v as u64 & pathwise_expr::ops::mask(w))));
    if h.is_null(s) {
        return ret(0);
    }
    let empty = n.eqc(h.pool(), 0);
    if h.decide(empty)? {
        return ret(if restartable { -2 } else { -1 });
    }
    let b = byte(h, s, 0)?;
    let nul = b.is_zero(h.pool());
    let nul = h.decide(nul)?;
    if !nul {
        let high = b.in_range(h.pool(), 128, 255);
        if h.decide(high)? {
            errno::set(h, EILSEQ)?;
            return ret(-1);
        }
    }
    if let Some(p) = pwc.filter(|&p| !h.is_null(p)) {
        let wide = b.zext(h.pool(), 32);
        h.store(p, Type::I32, wide.value())?;
    }
    ret(if nul { 0 } else { 1 })
}

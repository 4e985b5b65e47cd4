//! The `long double` functions of `<math.h>` that `math.rs` models for
//! `double`: `fabsl`, `copysignl`, `floorl`, `ceill`, `truncl`, `roundl`,
//! `rintl`, `nearbyintl`, `fminl`, `fmaxl`, `sqrtl`, and the classifier
//! behind `fpclassify` and `isnormal` of a `long double`.
//!
//! On arguments that are doubles these functions give the `double`
//! function's result (a double), so they are `math.rs`' symbolic models;
//! `sqrtl` rounds to 64 bits instead and is computed in 80 (its argument
//! pinned), as every function is when an argument is no double
//! (`pathwise_ir::x87`, glibc's x87 results).
//!
//! The functions `math.rs` computes concretely for `double` (`sinl`,
//! `expl`, `powl`...: [`HOST_NAMES`]) are computed by the host's libm in
//! 80 bits, their arguments pinned, through a C shim (`csrc/host_mathl.c`:
//! Rust's FFI has no `long double`), with the `errno` glibc sets. On a
//! host whose `long double` is not x87's (not x86), they have no model.

use pathwise_ir::x87::{Rounding, X87};
use pathwise_ir::{FCmpOp, Type};

use super::{errno, Call, Int, LibcHost, Outcome};
use crate::value::Value;

pub(super) const NAMES: &[&str] = &[
    "fabsl",
    "copysignl",
    "floorl",
    "ceill",
    "truncl",
    "roundl",
    "rintl",
    "nearbyintl",
    "fminl",
    "fmaxl",
    "sqrtl",
    "__pathwise_fpclassifyl",
];

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    if c.name == "__pathwise_fpclassifyl" {
        return Some(Ok(Some(fpclassify(h, c))));
    }
    let all_doubles = c.args.iter().all(|a| !matches!(a, Value::Ext(_)));
    if all_doubles && c.name != "sqrtl" {
        let name = c.name.strip_suffix('l').expect("an `l` function");
        return super::math::call(h, &Call { name, args: c.args, ret: Some(Type::F64) });
    }
    let x: Vec<X87> = c.args.iter().map(|&a| exact(h, a)).collect();
    // `rintl`, `nearbyintl` and `sqrtl` round in the direction
    // `fesetround` set.
    let mode = crate::machine::fp::x87_rounding(h.rounding());
    let r = match c.name {
        "fabsl" => X87(x[0].0 & !(1 << 79)),
        "copysignl" => X87((x[0].0 & !(1 << 79)) | (x[1].0 & 1 << 79)),
        "floorl" => x[0].round_to_integral(Rounding::Down),
        "ceill" => x[0].round_to_integral(Rounding::Up),
        "truncl" => x[0].round_to_integral(Rounding::TowardZero),
        "roundl" => x[0].round_to_integral(Rounding::NearestAway),
        "rintl" | "nearbyintl" => x[0].round_to_integral(mode),
        "fminl" | "fmaxl" => min_max(x[0], x[1], c.name == "fminl"),
        "sqrtl" => {
            if x[0].sign() && !x[0].is_nan() && x[0].significand() != 0 {
                if let Err(end) = errno::set(h, errno::EDOM) {
                    return Some(Err(end));
                }
            }
            x[0].sqrt_in(mode)
        }
        _ => return None,
    };
    Some(Ok(Some(Value::of_x87(r))))
}

/// The functions the host's libm computes (see the module doc): the `l`
/// forms of `math.rs`' concrete ones.
#[cfg(host_mathl)]
pub(super) const HOST_NAMES: &[&str] = &[
    "sinl", "cosl", "tanl", "asinl", "acosl", "atanl", "atan2l", "sinhl", "coshl", "tanhl", "expl", "exp2l", "expm1l",
    "logl", "log2l", "log10l", "log1pl", "powl", "cbrtl", "hypotl", "fmodl",
];
#[cfg(not(host_mathl))]
pub(super) const HOST_NAMES: &[&str] = &[];

/// A function of [`HOST_NAMES`] on this run's arguments (pinned).
pub(super) fn host_call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    let op = super::math::host_op(c.name.strip_suffix('l')?)?;
    let x: Vec<X87> = c.args.iter().map(|&a| exact(h, a)).collect();
    let second = x.get(1).copied().unwrap_or(X87(0));
    // In the direction `fesetround` set, as glibc computes them.
    let mode = h.rounding().fenv() as i32;
    let (r, error) = host(op, mode, (x[0], second));
    if error != 0 {
        if let Err(end) = errno::set(h, error) {
            return Some(Err(end));
        }
    }
    Some(Ok(Some(Value::of_x87(r))))
}

/// The result, and the `errno` the host set (0: none).
#[cfg(host_mathl)]
fn host(op: usize, mode: i32, (x, y): (X87, X87)) -> (X87, u64) {
    extern "C" {
        fn pathwise_host_mathl(op: i32, mode: i32, x: *const u8, y: *const u8, out: *mut u8) -> i32;
    }
    let (x, y) = (x.to_le_bytes(), y.to_le_bytes());
    let mut out = [0u8; 10];
    // SAFETY: the shim reads 10 bytes from each input and writes 10 to
    // `out`, all of them arrays of 10 bytes; `op` indexes its switch.
    let error = unsafe { pathwise_host_mathl(op as i32, mode, x.as_ptr(), y.as_ptr(), out.as_mut_ptr()) };
    (X87::from_le_bytes(out), error as u64)
}

#[cfg(not(host_mathl))]
fn host(_op: usize, _mode: i32, _args: (X87, X87)) -> (X87, u64) {
    unreachable!("no function is modelled by the host without the shim")
}

/// The exact value of an argument, pinning a symbolic (double) one.
fn exact(h: &mut dyn LibcHost, v: Value) -> X87 {
    match v {
        Value::Ext(x) => x,
        _ => X87::from_f64(f64::from_bits(h.float(v, Type::F80))),
    }
}

/// glibc's x87 `fminl`/`fmaxl`: the first argument when they compare
/// equal for `fminl`, the second for `fmaxl` (`fcmov` after `fucomi`); the
/// number when one is a NaN.
fn min_max(x: X87, y: X87, min: bool) -> X87 {
    match (x.is_nan(), y.is_nan()) {
        (true, true) => X87::arith(pathwise_ir::FBinOp::FAdd, x, y),
        (true, false) => y,
        (false, true) => x,
        _ if min => {
            if X87::compare(FCmpOp::Olt, y, x) {
                y
            } else {
                x
            }
        }
        _ => {
            if X87::compare(FCmpOp::Olt, y, x) {
                x
            } else {
                y
            }
        }
    }
}

/// `fpclassify(nan, inf, normal, subnormal, zero, x)` of a `long double`:
/// every finite nonzero double is a normal `long double` (x87's exponent
/// range is wider), so a symbolic (double) `x` is classified by three
/// tests; a value that is no double by its bits.
fn fpclassify(h: &mut dyn LibcHost, c: &Call<'_>) -> Value {
    let classes: Vec<Int> = (0..5).map(|i| c.int(h.pool(), i, 32)).collect();
    let arg = c.arg(5);
    if let Value::Ext(x) = arg {
        let class = match x.exponent() {
            0x7fff if x.is_nan() => 0,
            0x7fff => 1,
            0 if x.significand() == 0 => 4,
            0 => 3,
            _ => 2,
        };
        return classes[class].value();
    }
    let x = c.int(h.pool(), 5, 64);
    let abs = x.binc(h.pool(), pathwise_expr::BvOp::And, !(1u64 << 63));
    let inf = Int::konst(f64::INFINITY.to_bits(), 64);
    let nan = inf.cmp(h.pool(), pathwise_expr::BvCmp::Ult, abs);
    let is_inf = abs.eq(h.pool(), inf);
    let zero = abs.is_zero(h.pool());
    let r = Int::ite(h.pool(), zero, classes[4], classes[2]);
    let r = Int::ite(h.pool(), is_inf, classes[1], r);
    Int::ite(h.pool(), nan, classes[0], r).value()
}

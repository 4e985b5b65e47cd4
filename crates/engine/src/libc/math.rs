//! `<math.h>` functions whose result IEEE arithmetic fixes exactly, so that
//! the engine computes glibc's bits, symbolically: `fabs`, `copysign`,
//! `sqrt` (correctly rounded), `floor`, `ceil`, `trunc`, `round`, `rint`,
//! `fmin`, `fmax`, `modf`, each in its `double` and `float` forms, and the
//! classification the front end lowers `signbit`, `isnormal` and
//! `fpclassify` to (`__pathwise_signbit`, `__pathwise_fpclassify`), and
//! `fegetround`/`fesetround` (the direction `machine/fp.rs` rounds in;
//! `rint`, `nearbyint` and `sqrt` follow it). Their
//! results are expressions of the arguments' bits (the pool's floating
//! operators and bit tests), never decisions: a program's branch on them is
//! the decision.
//!
//! Functions glibc computes only approximately (`sin`, `exp`, `log`,
//! `pow`...) are computed by the host's libm (glibc's, as the native tests
//! use) on this run's values: a symbolic argument is pinned to its value
//! (a concretisation the run statistics report, with its place), so the
//! paths other values would take are not explored. They set `errno` as
//! glibc does (`log(0)`: `ERANGE`), through a C shim
//! (`csrc/host_mathl.c`).
//!
//! `fmin`/`fmax` are glibc's x86-64 code (`minsd`, `maxsd`): of two equal
//! values the second, so `fmin(-0.0, 0.0)` is `0.0`; a quiet NaN loses to
//! a number; two NaNs (or a signaling one) give `x + y`. Native results for
//! zeros of both signs are not reliable anyway: gcc may swap the operands
//! of these calls (seen with `volatile` operands) and folds constant ones
//! to `-0.0` (`fmin`) and `0.0` (`fmax`). `sqrt` of a negative number sets
//! `errno` to `EDOM`, as glibc's wrapper does (symbolically: `errno`
//! becomes `x < 0 ? EDOM : errno`). `signbit` is 0 or 1 here; gcc's value
//! for a `float` is the sign bit in place at -O0 and 1 at -O2, so only its
//! truth is meaningful.

use pathwise_expr::float::{eval_fbin, eval_fcmp, eval_fun};
use pathwise_expr::{BvOp, FpCmp, FpFmt, FpOp, FpUn, RoundMode, Rounding};
use pathwise_ir::Type;

use super::{errno, Call, Cond, Int, LibcHost, Outcome};
use crate::value::Value;

pub(super) const NAMES: &[&str] = &[
    "fabs",
    "fabsf",
    "copysign",
    "copysignf",
    "sqrt",
    "sqrtf",
    "floor",
    "floorf",
    "ceil",
    "ceilf",
    "trunc",
    "truncf",
    "round",
    "roundf",
    "rint",
    "rintf",
    "nearbyint",
    "nearbyintf",
    "fmin",
    "fminf",
    "fmax",
    "fmaxf",
    "modf",
    "modff",
    "__pathwise_signbit",
    "__pathwise_signbitf",
    "__pathwise_fpclassify",
    "__pathwise_fpclassifyf",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "pow",
    "cbrt",
    "hypot",
    "fmod",
    "sinf",
    "cosf",
    "tanf",
    "asinf",
    "acosf",
    "atanf",
    "atan2f",
    "sinhf",
    "coshf",
    "tanhf",
    "expf",
    "exp2f",
    "expm1f",
    "logf",
    "log2f",
    "log10f",
    "log1pf",
    "powf",
    "cbrtf",
    "hypotf",
    "fmodf",
    "fegetround",
    "fesetround",
];

/// The functions computed concretely by the host's libm (see the module
/// doc), named by their `double` forms (the `float` ones end in `f`).
const CONCRETE: &[&str] = &[
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "exp2", "expm1", "log",
    "log2", "log10", "log1p", "pow", "cbrt", "hypot", "fmod",
];

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    let single = c.name.ends_with('f');
    let fmt = if single { FpFmt::F32 } else { FpFmt::F64 };
    match c.name {
        // The direction is a static object of the run (see `machine/fp.rs`),
        // to nearest (`FE_TONEAREST`, 0 on x86) until a program changes it.
        "fegetround" => return Some(Ok(Some(Value::int(h.rounding().fenv())))),
        "fesetround" => {
            let mode = c.int(h.pool(), 0, 32);
            return Some(set_rounding(h, mode));
        }
        "__pathwise_signbit" | "__pathwise_signbitf" => {
            let w = fmt.bits();
            let x = c.int(h.pool(), 0, w);
            let neg = x.cmp(h.pool(), pathwise_expr::BvCmp::Slt, Int::konst(0, w));
            return Some(Ok(Some(Int::from_cond(h.pool(), neg, 32).value())));
        }
        "__pathwise_fpclassify" | "__pathwise_fpclassifyf" => return Some(Ok(Some(fpclassify(h, c, fmt).value()))),
        name if CONCRETE.contains(&name) || name.strip_suffix('f').is_some_and(|b| CONCRETE.contains(&b)) => {
            return Some(concrete(h, c))
        }
        _ => {}
    }
    let (base, fmt) = match c.name.strip_suffix('f') {
        Some(b) if b.starts_with("__pathwise") => return None,
        Some(b) if NAMES.contains(&b) => (b, FpFmt::F32),
        _ => (c.name, FpFmt::F64),
    };
    let w = fmt.bits();
    let x = c.int(h.pool(), 0, w);
    let r = match base {
        "fabs" => x.binc(h.pool(), BvOp::And, fmt.abs_mask()),
        "copysign" => {
            let y = c.int(h.pool(), 1, w);
            let mag = x.binc(h.pool(), BvOp::And, fmt.abs_mask());
            let sign = y.binc(h.pool(), BvOp::And, fmt.sign_bit());
            mag.bin(h.pool(), BvOp::Or, sign)
        }
        "sqrt" => {
            let zero = Int::konst(0, w);
            let negative = fcmp(h, FpCmp::Lt, fmt, x, zero);
            if let Err(end) = errno::set_if(h, negative, errno::EDOM) {
                return Some(Err(end));
            }
            // `sqrtsd` rounds in the current direction.
            let rnd = h.rounding();
            fun(h, FpUn::SqrtIn(rnd), fmt, x)
        }
        "floor" => fun(h, FpUn::Round(RoundMode::Down), fmt, x),
        "ceil" => fun(h, FpUn::Round(RoundMode::Up), fmt, x),
        "trunc" => fun(h, FpUn::Round(RoundMode::TowardZero), fmt, x),
        "round" => fun(h, FpUn::Round(RoundMode::NearestAway), fmt, x),
        // In the current direction.
        "rint" | "nearbyint" => {
            let rnd = h.rounding();
            fun(h, FpUn::Round(rnd.to_integral()), fmt, x)
        }
        "fmin" | "fmax" => {
            let y = c.int(h.pool(), 1, w);
            min_max(h, fmt, x, y, base == "fmin")
        }
        "modf" => {
            let (whole, frac) = modf(h, fmt, x);
            let ty = if fmt == FpFmt::F32 { Type::F32 } else { Type::F64 };
            if let Err(end) = h.store(c.ptr(1), ty, whole.value()) {
                return Some(Err(end));
            }
            frac
        }
        _ => return None,
    };
    Some(Ok(Some(r.value())))
}

/// The static object holding the rounding direction.
fn fenv_round(h: &mut dyn LibcHost) -> crate::value::Pointer {
    h.static_object(crate::machine::fp::FENV_ROUND, Type::I32, &|| vec![Value::int(0)])
}

/// `fesetround(mode)`: a symbolic `mode` is a decision per direction, as a
/// `switch` over them would be, and one for none of them, which glibc
/// refuses (returning 1, the direction unchanged).
fn set_rounding(h: &mut dyn LibcHost, mode: Int) -> Outcome {
    for rnd in Rounding::ALL {
        let is = mode.eq(h.pool(), Int::konst(rnd.fenv(), 32));
        if h.decide(is)? {
            let at = fenv_round(h);
            h.store(at, Type::I32, Value::int(rnd.fenv()))?;
            return Ok(Some(Value::int(0)));
        }
    }
    Ok(Some(Value::int(1)))
}

/// glibc's `modf(x, &whole)`: (`whole`, the result). The integral part is
/// `trunc(x)` (an infinity or a NaN itself, quieted); the fraction
/// `x - trunc(x)` (exact) with the sign of `x`, so `-0.0` for a negative
/// integral value, a zero of its sign for an infinity, the NaN for a NaN.
fn modf(h: &mut dyn LibcHost, fmt: FpFmt, x: Int) -> (Int, Int) {
    let whole = fun(h, FpUn::Round(RoundMode::TowardZero), fmt, x);
    let diff = fbin(h, FpOp::Sub, fmt, x, whole);
    let magnitude = diff.binc(h.pool(), BvOp::And, fmt.abs_mask());
    let sign = x.binc(h.pool(), BvOp::And, fmt.sign_bit());
    let frac = magnitude.bin(h.pool(), BvOp::Or, sign);
    let x_magnitude = x.binc(h.pool(), BvOp::And, fmt.abs_mask());
    let infinite = x_magnitude.eqc(h.pool(), fmt.inf_bits());
    (whole, Int::ite(h.pool(), infinite, sign, frac))
}

/// `op(x)` on the bits of `x`.
fn fun(h: &mut dyn LibcHost, op: FpUn, fmt: FpFmt, x: Int) -> Int {
    let conc = eval_fun(op, fmt, x.conc);
    match x.sym {
        None => Int::konst(conc, x.w),
        Some(e) => {
            let e = h.pool().fun(op, fmt, e);
            Int::of(h.pool(), Value::Int { conc, sym: Some(e) }, x.w)
        }
    }
}

/// `x op y` on bits.
fn fbin(h: &mut dyn LibcHost, op: FpOp, fmt: FpFmt, x: Int, y: Int) -> Int {
    let conc = eval_fbin(op, fmt, x.conc, y.conc);
    if x.sym.is_none() && y.sym.is_none() {
        return Int::konst(conc, x.w);
    }
    let (a, b) = (x.expr(h.pool()), y.expr(h.pool()));
    let e = h.pool().fbin(op, fmt, a, b);
    Int::of(h.pool(), Value::Int { conc, sym: Some(e) }, x.w)
}

/// The ordered comparison `x op y`.
fn fcmp(h: &mut dyn LibcHost, op: FpCmp, fmt: FpFmt, x: Int, y: Int) -> Cond {
    let holds = eval_fcmp(op, fmt, x.conc, y.conc);
    if x.sym.is_none() && y.sym.is_none() {
        return Cond::konst(holds);
    }
    let (a, b) = (x.expr(h.pool()), y.expr(h.pool()));
    let e = h.pool().fcmp(op, fmt, a, b);
    Cond { holds, sym: crate::value::non_const(h.pool(), e) }
}

/// Whether `x` is a NaN (a bit test: its magnitude is above infinity's).
fn is_nan(h: &mut dyn LibcHost, fmt: FpFmt, x: Int) -> Cond {
    let abs = x.binc(h.pool(), BvOp::And, fmt.abs_mask());
    Int::konst(fmt.inf_bits(), x.w).cmp(h.pool(), pathwise_expr::BvCmp::Ult, abs)
}

/// Whether `x` is a signaling NaN (a NaN without the quiet bit).
fn is_signaling(h: &mut dyn LibcHost, fmt: FpFmt, x: Int) -> Cond {
    let nan = is_nan(h, fmt, x);
    let quiet = x.binc(h.pool(), BvOp::And, fmt.quiet_bit()).is_zero(h.pool());
    nan.and(h.pool(), quiet)
}

/// glibc's x86-64 `fmin` (`min`) or `fmax` on the bits of two values:
/// `minsd`/`maxsd` when ordered (so the second argument when they compare
/// equal), the number when one is a quiet NaN, `x + y` when both are NaNs
/// or one is signaling.
fn min_max(h: &mut dyn LibcHost, fmt: FpFmt, x: Int, y: Int, min: bool) -> Int {
    let first = if min { fcmp(h, FpCmp::Lt, fmt, x, y) } else { fcmp(h, FpCmp::Lt, fmt, y, x) };
    let ordered_result = Int::ite(h.pool(), first, x, y);
    let (nx, ny) = (is_nan(h, fmt, x), is_nan(h, fmt, y));
    let (sx, sy) = (is_signaling(h, fmt, x), is_signaling(h, fmt, y));
    let sum = fbin(h, FpOp::Add, fmt, x, y);
    let p = h.pool();
    let (not_nx, not_ny) = (nx.not(p), ny.not(p));
    // Only x a NaN, and quiet: y. Only y a NaN, and quiet: x.
    let (not_sx, not_sy) = (sx.not(p), sy.not(p));
    let x_quiet_only = nx.and(p, not_ny).and(p, not_sx);
    let y_quiet_only = ny.and(p, not_nx).and(p, not_sy);
    let ordered = not_nx.and(p, not_ny);
    let nan_result = Int::ite(p, y_quiet_only, x, sum);
    let nan_result = Int::ite(p, x_quiet_only, y, nan_result);
    Int::ite(p, ordered, ordered_result, nan_result)
}

/// `__pathwise_fpclassify(nan, inf, normal, subnormal, zero, x)`: gcc's
/// `__builtin_fpclassify` of a `double` (or, the `f` form, a `float`).
fn fpclassify(h: &mut dyn LibcHost, c: &Call<'_>, fmt: FpFmt) -> Int {
    let w = fmt.bits();
    let codes: Vec<Int> = (0..5).map(|i| c.int(h.pool(), i, 32)).collect();
    let x = c.int(h.pool(), 5, w);
    let p = h.pool();
    let abs = x.binc(p, BvOp::And, fmt.abs_mask());
    let inf = Int::konst(fmt.inf_bits(), w);
    let nan = inf.cmp(p, pathwise_expr::BvCmp::Ult, abs);
    let infinite = abs.eq(p, inf);
    let normal = Int::konst(fmt.min_normal_bits(), w).cmp(p, pathwise_expr::BvCmp::Ule, abs);
    let zero = abs.is_zero(p);
    let r = Int::ite(p, zero, codes[4], codes[3]);
    let r = Int::ite(p, normal, codes[2], r);
    let r = Int::ite(p, infinite, codes[1], r);
    Int::ite(p, nan, codes[0], r)
}

/// A function of the host's libm on this run's arguments (pinned), its
/// `double` or `float` form (`sin`, `sinf`).
fn concrete(h: &mut dyn LibcHost, c: &Call<'_>) -> Outcome {
    let (base, ty) = match c.name.strip_suffix('f') {
        Some(base) if CONCRETE.contains(&base) => (base, Type::F32),
        _ => (c.name, Type::F64),
    };
    let x = h.float(c.arg(0), ty);
    let two = matches!(base, "atan2" | "pow" | "hypot" | "fmod");
    let y = if two { h.float(c.arg(1), ty) } else { 0 };
    let op = host_op(base).unwrap_or(CONCRETE.len() - 1);
    let (r, error) = host(op, (ty, h.rounding()), (x, y));
    // glibc sets errno on a domain, pole or range error (`log(0)`: ERANGE),
    // and a program may read it: a test that expects it unchanged fails.
    if error != 0 {
        errno::set(h, error)?;
    }
    Ok(Some(Value::int(r)))
}

/// The number `csrc/host_mathl.c` gives the function whose `double` form
/// is `base`.
pub(super) fn host_op(base: &str) -> Option<usize> {
    CONCRETE.iter().position(|&n| n == base)
}

/// The host libm's `CONCRETE[op]` of `x` (and `y`), as bits of `ty`
/// (`F64` or `F32`), and the errno it set (0: none), through
/// `csrc/host_mathl.c`: Rust's `f64::ln` and the like give glibc's value
/// but not its errno.
fn host(op: usize, (ty, rnd): (Type, Rounding), (x, y): (u64, u64)) -> (u64, u64) {
    extern "C" {
        fn pathwise_host_math(op: i32, mode: i32, a: f64, b: f64, out: *mut f64) -> i32;
        fn pathwise_host_mathf(op: i32, mode: i32, a: f32, b: f32, out: *mut f32) -> i32;
    }
    let mode = rnd.fenv() as i32;
    if ty == Type::F32 {
        let (a, b) = (f32::from_bits(x as u32), f32::from_bits(y as u32));
        let mut out = 0.0f32;
        // SAFETY: the shim writes one float to `out`; `op` indexes its switch.
        let error = unsafe { pathwise_host_mathf(op as i32, mode, a, b, &mut out) };
        return (u64::from(out.to_bits()), error as u64);
    }
    let mut out = 0.0;
    // SAFETY: the shim writes one double to `out`; `op` indexes its switch.
    let error = unsafe { pathwise_host_math(op as i32, mode, f64::from_bits(x), f64::from_bits(y), &mut out) };
    (out.to_bits(), error as u64)
}

//! Floating-point operators in Z3's floating-point theory.
//!
//! The pool's floating operators take and give IEEE bits (see
//! `pathwise_expr::float`). Each one is translated to a native Z3 float
//! term, kept per expression id, so that a tree of floating operations
//! (`(a - b) * c < eps`) is one floating term: its comparisons never go
//! through bits. Only where a floating result is used *as bits* (stored,
//! compared bit-wise, returned) is it converted with `fp.to_ieee_bv`; an
//! operand that is not a floating operator (an input's bits, a memory
//! cell) is read as a float with `to_fp` from its bits.
//!
//! SMT-LIB leaves the bits of NaN unspecified (Z3 has one NaN), so the
//! conversion to bits spells out the evaluator's NaN rules: a NaN operand
//! gives its own bits quieted (the first one), an invalid operation x86's
//! default NaN, a conversion between formats the operand's sign and high
//! payload bits. The evaluator and the solver therefore agree on every
//! bit (checked by `tests/floats.rs` on random expressions), and models
//! validate.
//!
//! The `z3` crate lacks `to_fp` from bits and from integers, so those are
//! made with `z3-sys` calls.

use pathwise_expr::{Expr, ExprId, ExprPool, FpCmp, FpConv, FpFmt, FpOp, FpUn, RoundMode};
use z3::ast::{Ast, Bool, Dynamic, Float, RoundingMode, BV};

/// The native float term of each floating node translated so far, and of
/// each leaf read as a float.
#[derive(Default)]
pub(crate) struct FloatTerms {
    cache: Vec<Option<Float>>,
}

impl FloatTerms {
    /// Forget every term (the pool changed).
    pub(crate) fn clear(&mut self) {
        self.cache.clear();
    }

    pub(crate) fn resize(&mut self, len: usize) {
        if self.cache.len() < len {
            self.cache.resize(len, None);
        }
    }

    /// The float of format `fmt` that node `k` denotes (its bits are
    /// `bits(k)` when it is not itself a floating operator).
    fn fp(&mut self, k: ExprId, fmt: FpFmt, bits: &dyn Fn(ExprId) -> BV) -> Float {
        if let Some(f) = &self.cache[k.0 as usize] {
            return f.clone();
        }
        let f = from_bits(&bits(k), fmt);
        self.cache[k.0 as usize] = Some(f.clone());
        f
    }

    /// The Z3 term (bits, or a boolean for a comparison) of floating node
    /// `id`, whose children are translated (`bits`).
    pub(crate) fn build(&mut self, pool: &ExprPool, id: ExprId, bits: &dyn Fn(ExprId) -> BV) -> Dynamic {
        match *pool.get(id) {
            Expr::FBin { op, rnd, fmt, a, b } => {
                let (x, y) = (self.fp(a, fmt, bits), self.fp(b, fmt, bits));
                let rm = rounding(rnd.to_integral());
                let r = match op {
                    FpOp::Add => x.add_with_rounding_mode(&y, &rm),
                    FpOp::Sub => x.sub_with_rounding_mode(&y, &rm),
                    FpOp::Mul => x.mul_with_rounding_mode(&y, &rm),
                    FpOp::Div => x.div_with_rounding_mode(&y, &rm),
                };
                self.cache[id.0 as usize] = Some(r.clone());
                to_bits(fmt, &r, &[(x, bits(a)), (y, bits(b))]).into()
            }
            Expr::FUn { op, fmt, a } => {
                let x = self.fp(a, fmt, bits);
                let r = match op {
                    FpUn::Sqrt => x.sqrt_with_rounding_mode(&RoundingMode::round_nearest_ties_to_even()),
                    FpUn::SqrtIn(r) => x.sqrt_with_rounding_mode(&rounding(r.to_integral())),
                    FpUn::Round(mode) => x.round_to_integral_with_rounding_mode(&rounding(mode)),
                };
                self.cache[id.0 as usize] = Some(r.clone());
                to_bits(fmt, &r, &[(x, bits(a))]).into()
            }
            Expr::FCmp { op, fmt, a, b } => {
                let (x, y) = (self.fp(a, fmt, bits), self.fp(b, fmt, bits));
                match op {
                    FpCmp::Eq => x.eq_fpa(&y),
                    FpCmp::Lt => x.lt(&y),
                    FpCmp::Le => x.le(&y),
                }
                .into()
            }
            Expr::FConv { op, a } => self.conv(op, id, a, bits),
            ref e => unreachable!("not a floating node: {e:?}"),
        }
    }

    /// See [`FloatTerms::build`]: conversions.
    fn conv(&mut self, op: FpConv, id: ExprId, a: ExprId, bits: &dyn Fn(ExprId) -> BV) -> Dynamic {
        let rne = RoundingMode::round_nearest_ties_to_even();
        let (r, to) = match op {
            FpConv::Fp { from, to } => {
                let x = self.fp(a, from, bits);
                let r = x.to_fp_with_rounding_mode(&rne, &sort(to));
                self.cache[id.0 as usize] = Some(r.clone());
                let nan = convert_nan(&bits(a), from, to);
                return x.is_nan().ite(&nan, &to_bits(to, &r, &[])).into();
            }
            FpConv::FromSigned(to) => (from_int(&bits(a), to, true), to),
            FpConv::FromUnsigned(to) => (from_int(&bits(a), to, false), to),
            FpConv::ToSigned { from, width } | FpConv::ToUnsigned { from, width } => {
                // gcc's x86-64 conversions (`pathwise_expr::float::eval_fconv`).
                let signed = matches!(op, FpConv::ToSigned { .. });
                let x = self.fp(a, from, bits);
                if !signed && width == 64 {
                    let two63 = from_bits(&BV::from_u64(from.pow2(63), from.bits()), from);
                    let less = x.sub_with_rounding_mode(&two63, &rne);
                    let flipped = cvtt(&less, from, 64).bvxor(&BV::from_u64(1 << 63, 64));
                    return two63.le(&x).ite(&flipped, &cvtt(&x, from, 64)).into();
                }
                let reg = pathwise_expr::float::x86_cvtt_bits(width, signed);
                let c = cvtt(&x, from, reg);
                return if width < reg { c.extract(width - 1, 0) } else { c }.into();
            }
        };
        self.cache[id.0 as usize] = Some(r.clone());
        to_bits(to, &r, &[]).into()
    }
}

/// `cvtt?2si` of `x` to a `reg`-bit register: the truncation, or the
/// "integer indefinite" `1 << (reg - 1)` out of range or for NaN.
fn cvtt(x: &Float, from: FpFmt, reg: u32) -> BV {
    let rtz = RoundingMode::round_towards_zero();
    let t = x.round_to_integral_with_rounding_mode(&rtz);
    let (lo, hi) = pathwise_expr::float::int_bound_bits(from, reg, true);
    let (lo, hi) = (from_bits(&BV::from_u64(lo, from.bits()), from), from_bits(&BV::from_u64(hi, from.bits()), from));
    let in_range = Bool::and(&[lo.le(&t), t.lt(&hi)]);
    in_range.ite(&x.to_sbv_with_rounding_mode(&rtz, reg), &BV::from_u64(1 << (reg - 1), reg))
}

/// The Z3 sort of a format.
fn sort(fmt: FpFmt) -> z3::Sort {
    z3::Sort::float(fmt.ebits(), fmt.sbits())
}

fn rounding(mode: RoundMode) -> RoundingMode {
    match mode {
        RoundMode::NearestEven => RoundingMode::round_nearest_ties_to_even(),
        RoundMode::NearestAway => RoundingMode::round_nearest_ties_to_away(),
        RoundMode::Down => RoundingMode::round_towards_negative(),
        RoundMode::Up => RoundingMode::round_towards_positive(),
        RoundMode::TowardZero => RoundingMode::round_towards_zero(),
    }
}

/// The float whose IEEE bits are `b` (SMT-LIB's `(_ to_fp e s)` of a
/// bit-vector).
fn from_bits(b: &BV, fmt: FpFmt) -> Float {
    let ctx = b.get_ctx();
    let s = sort(fmt);
    // SAFETY: `b` is a live term of this context and `s` a float sort of
    // the same total width; Z3 returns a new term or null (unwrapped).
    unsafe {
        let raw = z3_sys::Z3_mk_fpa_to_fp_bv(ctx.get_z3_context(), b.get_z3_ast(), s.get_z3_sort())
            .expect("to_fp of IEEE bits");
        Float::wrap(ctx, raw)
    }
}

/// The integer `b` (signed or unsigned) rounded to nearest in `fmt`.
fn from_int(b: &BV, fmt: FpFmt, signed: bool) -> Float {
    let ctx = b.get_ctx();
    let s = sort(fmt);
    let rne = RoundingMode::round_nearest_ties_to_even();
    // SAFETY: as in `from_bits`; the rounding mode is a term of the context.
    unsafe {
        let c = ctx.get_z3_context();
        let raw = if signed {
            z3_sys::Z3_mk_fpa_to_fp_signed(c, rne.get_z3_ast(), b.get_z3_ast(), s.get_z3_sort())
        } else {
            z3_sys::Z3_mk_fpa_to_fp_unsigned(c, rne.get_z3_ast(), b.get_z3_ast(), s.get_z3_sort())
        }
        .expect("to_fp of an integer");
        Float::wrap(ctx, raw)
    }
}

/// The bits of result `r`: a NaN operand's own bits quieted (the first of
/// `nan_ops`), x86's default NaN for an invalid operation.
fn to_bits(fmt: FpFmt, r: &Float, nan_ops: &[(Float, BV)]) -> BV {
    let w = fmt.bits();
    let mut t = r.is_nan().ite(&BV::from_u64(fmt.default_nan(), w), &r.to_ieee_bv());
    for (f, b) in nan_ops.iter().rev() {
        t = f.is_nan().ite(&b.bvor(BV::from_u64(fmt.quiet_bit(), w)), &t);
    }
    t
}

/// The bits of NaN `b` converted from `from` to `to` (see
/// `pathwise_expr::float::nan_parts`).
fn convert_nan(b: &BV, from: FpFmt, to: FpFmt) -> BV {
    use pathwise_expr::float::{nan_parts, NanPayload};
    let (sign, ones, payload) = nan_parts(from, to);
    let high = b.extract(sign, sign).concat(BV::from_u64(pathwise_expr::ops::mask(ones), ones));
    let low = match payload {
        NanPayload::Widen { hi, pad } => b.extract(hi, 0).concat(BV::from_u64(0, pad)),
        NanPayload::Narrow { hi, lo } => b.extract(hi, lo),
    };
    high.concat(low)
}

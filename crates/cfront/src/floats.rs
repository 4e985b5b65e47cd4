//! Floating point in the front end: `float` and `double` constants (decimal
//! and hexadecimal, correctly rounded), conversions to and from integers,
//! arithmetic, comparisons and truth values with the usual arithmetic
//! conversions (C11 6.3.1.8: an integer operand converts to the floating
//! type), constant folding for static initializers, and the gcc built-ins
//! that `<math.h>` macros expand to (`INFINITY`, `NAN`, `HUGE_VAL`,
//! `isnan`, `isinf`, `isfinite`; `signbit`, `isnormal` and `fpclassify`
//! as calls of engine models).
//!
//! Semantics are IEEE with round-to-nearest and no excess precision
//! (`FLT_EVAL_METHOD == 0`, x86-64's SSE): a `float` operation is done in
//! `float`. `long double` is x87 extended precision (`pathwise_ir::x87`):
//! constants and static initializers are exact, and a constant that is no
//! double is computed from doubles at run time ([`FnCtx::x87_operand`]).
//! The TS 18661 types are rejected by `typespec.rs`; imaginary constants
//! here.

use lang_c::ast::{BinaryOperator, Constant, Expression, Float, FloatBase, FloatFormat, UnaryOperator};
use lang_c::span::{Node, Span};
use pathwise_ir::{float, CmpOp, FBinOp, FCastOp, FCmpOp, Operand, Type};

use crate::consteval::{self, CVal};
use crate::ctypes::{CType, FloatKind, IntKind, INT};
use crate::expr::Val;
use crate::func::FnCtx;
use crate::typespec;
use crate::unit::{Ctx, LResult};
use crate::DataModel;
use pathwise_ir::x87::X87;

/// The type and bits of a floating constant (a `long double`'s are its
/// x87 80 bits, see [`Num`]); an error message starting with
/// `unsupported: ` for forms outside the supported subset.
pub(crate) fn float_literal(f: &Float, model: DataModel) -> Result<(FloatKind, u128), String> {
    if f.suffix.imaginary {
        return Err("unsupported: imaginary constants".to_string());
    }
    let kind = match f.suffix.format {
        FloatFormat::Float => FloatKind::Float,
        FloatFormat::Double => FloatKind::Double,
        FloatFormat::LongDouble => model.long_double(),
        FloatFormat::TS18661Format(_) => return Err("unsupported: extended floating constants".to_string()),
    };
    let text = &*f.number;
    let invalid = || format!("invalid floating constant `{text}`");
    let bits = match (f.base.clone(), kind) {
        (FloatBase::Decimal, _) if kind.is_long_double() => X87::parse(text).ok_or_else(invalid)?.0,
        (FloatBase::Hexadecimal, _) if kind.is_long_double() => X87::parse(&format!("0x{text}")).ok_or_else(invalid)?.0,
        // Rust's parser rounds correctly, and straight to `f32` for `f`.
        (FloatBase::Decimal, FloatKind::Float) => u128::from(text.parse::<f32>().map_err(|_| invalid())?.to_bits()),
        (FloatBase::Decimal, _) => u128::from(text.parse::<f64>().map_err(|_| invalid())?.to_bits()),
        (FloatBase::Hexadecimal, k) => {
            let (v, _) = hex_float(text, k).ok_or_else(invalid)?;
            u128::from(float::from_f64(kind.ir(), v))
        }
    };
    Ok((kind, bits))
}

/// The value of a hexadecimal floating constant without its `0x` (e.g.
/// `1.8p+1`), rounded once to nearest-even to the precision of `kind`
/// (`float` or `double`, subnormals included), and whether no rounding
/// was needed; the result is exact in `f64`.
fn hex_float(text: &str, kind: FloatKind) -> Option<(f64, bool)> {
    let (mantissa, exp) = text.split_once(['p', 'P'])?;
    let mut exp: i64 = exp.parse().ok()?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // Up to 64 significant bits; further nonzero digits only make the value
    // sticky for rounding.
    let (mut m, mut sticky, mut started) = (0u64, false, false);
    for (i, c) in int.chars().chain(frac.chars()).enumerate() {
        let d = c.to_digit(16)? as u64;
        let fractional = i >= int.len();
        started |= d != 0;
        if !started {
            exp -= if fractional { 4 } else { 0 };
            continue;
        }
        if m >> 60 == 0 {
            m = (m << 4) | d;
            exp -= if fractional { 4 } else { 0 };
        } else {
            sticky |= d != 0;
            exp += if fractional { 0 } else { 4 };
        }
    }
    if m == 0 {
        return Some((0.0, true));
    }
    // value = m * 2^exp; normalise m to 64 bits: value = 1.f * 2^top.
    let shift = m.leading_zeros();
    m <<= shift;
    exp -= i64::from(shift);
    let top = exp + 63;
    let (precision, emin) = match kind {
        FloatKind::Float => (24i64, -126i64),
        FloatKind::Double | FloatKind::LongDouble | FloatKind::LongDouble32 => (53, -1022),
    };
    // Bits kept: fewer below the normal range; none at all below half the
    // smallest subnormal, which rounds to zero.
    let keep = precision - (emin - top).max(0);
    if keep < 0 {
        return Some((0.0, false));
    }
    let drop = 64 - keep;
    let (mut kept, rest) = if drop == 64 { (0, m) } else { (m >> drop, m << keep) };
    let half = 1u64 << 63;
    let exact = rest == 0 && !sticky;
    if rest > half || (rest == half && (sticky || kept & 1 == 1)) {
        kept += 1;
    }
    // kept * 2^(exp + drop), scaled in steps so that no step underflows.
    let mut v = kept as f64;
    let mut e = exp + drop;
    while e != 0 {
        let step = e.clamp(-1000, 1000);
        v *= 2f64.powi(step as i32);
        e -= step;
    }
    Some((v, exact && v.is_finite()))
}

/// An arithmetic constant: integer or floating. A floating constant's
/// bits are those of its type: IEEE binary32 or binary64 for `float` and
/// `double`, the x87 80 bits for `long double` (computed exactly, see
/// `pathwise_ir::x87`: a static `long double` need not be a double).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    Int(CVal),
    Float(FloatKind, u128),
}

/// The exact value of floating bits of kind `k` (as [`Num::Float`]).
fn x87_of(k: FloatKind, bits: u128) -> X87 {
    if k.is_long_double() {
        X87(bits)
    } else {
        X87::from_f64(float::to_f64(k.ir(), bits as u64))
    }
}

/// `v` as bits of kind `k`, rounded to nearest.
fn bits_of(k: FloatKind, v: X87) -> u128 {
    match k {
        FloatKind::Float => u128::from(v.to_f32().to_bits()),
        FloatKind::Double => u128::from(v.to_f64().to_bits()),
        _ => v.0,
    }
}

impl Num {
    /// Conversion to floating type `k`.
    fn to_float(self, k: FloatKind) -> Option<u128> {
        match self {
            Num::Int(c) if k.is_long_double() => {
                let v = pathwise_ir::IntTy { ty: c.kind.ir(), signed: c.kind.signed() }.to_i128(c.bits);
                Some(X87::from_int(v).0)
            }
            Num::Int(c) => {
                let op = if c.kind.signed() { FCastOp::SIToFP } else { FCastOp::UIToFP };
                // `_Bool` is an `i8` holding 0 or 1.
                float::eval_fcast(op, c.kind.ir(), k.ir(), c.bits).ok().map(u128::from)
            }
            Num::Float(f, bits) if f == k => Some(bits),
            Num::Float(f, bits) if f.is_long_double() || k.is_long_double() => Some(bits_of(k, x87_of(f, bits))),
            Num::Float(f, bits) => {
                let op = if k > f { FCastOp::FPExt } else { FCastOp::FPTrunc };
                float::eval_fcast(op, f.ir(), k.ir(), bits as u64).ok().map(u128::from)
            }
        }
    }

    /// Conversion to integer type `k`; `None` when undefined.
    fn to_int(self, k: IntKind) -> Option<CVal> {
        match self {
            Num::Int(c) => Some(c.convert(k)),
            Num::Float(f, bits) if k == IntKind::Bool => {
                let x = x87_of(f, bits);
                Some(CVal { bits: u64::from(X87::compare(FCmpOp::Une, x, X87::from_f64(0.0))), kind: k })
            }
            Num::Float(f, bits) => {
                let b = x87_of(f, bits).to_int(k.ir().bits(), k.signed()).ok()?;
                Some(CVal { bits: b, kind: k })
            }
        }
    }

    /// Conversion to an arithmetic type.
    pub fn convert(self, to: &CType) -> Option<u128> {
        match to {
            CType::Float(k) => self.to_float(*k),
            CType::Int(k) => self.to_int(*k).map(|c| u128::from(c.bits)),
            _ => None,
        }
    }
}

/// Evaluates an arithmetic constant expression that may involve floating
/// constants (static initializers such as `double d = 1.0 / 3;`); `None`
/// when it is not constant.
pub(crate) fn eval_num<'a>(cx: &mut dyn Ctx<'a>, e: &Node<Expression>) -> LResult<Option<Num>> {
    Ok(match &e.node {
        Expression::Constant(c) => match &c.node {
            Constant::Float(f) => {
                let (k, bits) = float_literal(f, cx.unit_ref().model).map_err(|m| literal_error(cx, c.span, m))?;
                Some(Num::Float(k, bits))
            }
            _ => consteval::eval(cx, e)?.map(Num::Int),
        },
        Expression::UnaryOperator(u) if matches!(u.node.operator.node, UnaryOperator::Minus | UnaryOperator::Plus) => {
            match eval_num(cx, &u.node.operand)? {
                Some(Num::Float(k, bits)) if u.node.operator.node == UnaryOperator::Minus => {
                    // The sign bit flipped, a signalling NaN's too.
                    Some(Num::Float(k, bits ^ (1 << (if k.is_long_double() { 79 } else { k.ir().bits() - 1 }))))
                }
                Some(Num::Float(k, bits)) => Some(Num::Float(k, bits)),
                _ => consteval::eval(cx, e)?.map(Num::Int),
            }
        }
        Expression::BinaryOperator(b) => {
            let op = match b.node.operator.node {
                BinaryOperator::Plus => FBinOp::FAdd,
                BinaryOperator::Minus => FBinOp::FSub,
                BinaryOperator::Multiply => FBinOp::FMul,
                BinaryOperator::Divide => FBinOp::FDiv,
                _ => return Ok(consteval::eval(cx, e)?.map(Num::Int)),
            };
            let (Some(l), Some(r)) = (eval_num(cx, &b.node.lhs)?, eval_num(cx, &b.node.rhs)?) else {
                return Ok(None);
            };
            let k = match (l, r) {
                (Num::Float(a, _), Num::Float(b, _)) => FloatKind::common(a, b),
                (Num::Float(a, _), _) | (_, Num::Float(a, _)) => a,
                _ => return Ok(consteval::eval(cx, e)?.map(Num::Int)),
            };
            match (l.to_float(k), r.to_float(k)) {
                (Some(x), Some(y)) if k.is_long_double() => {
                    Some(Num::Float(k, X87::arith(op, x87_of(k, x), x87_of(k, y)).0))
                }
                (Some(x), Some(y)) => {
                    float::eval_fbin(op, k.ir(), x as u64, y as u64).ok().map(|v| Num::Float(k, u128::from(v)))
                }
                _ => None,
            }
        }
        Expression::Cast(c) => {
            let ty = typespec::type_name(cx, &c.node.type_name)?;
            match (eval_num(cx, &c.node.expression)?, &ty) {
                (Some(v), CType::Float(k)) => v.to_float(*k).map(|b| Num::Float(*k, b)),
                (Some(v), CType::Int(k)) => v.to_int(*k).map(Num::Int),
                _ => None,
            }
        }
        _ => consteval::eval(cx, e)?.map(Num::Int),
    })
}

fn literal_error<'a>(cx: &mut dyn Ctx<'a>, span: Span, m: String) -> crate::unit::LowerError {
    match m.strip_prefix("unsupported: ") {
        Some(rest) => cx.unit_ref().unsupported(span, rest),
        None => cx.unit_ref().invalid(span, m),
    }
}

/// The floating type two arithmetic operands convert to, if either is
/// floating.
fn common_float(a: &CType, b: &CType) -> Option<FloatKind> {
    match (a, b) {
        (CType::Float(x), CType::Float(y)) => Some(FloatKind::common(*x, *y)),
        (CType::Float(x), CType::Int(_)) | (CType::Int(_), CType::Float(x)) => Some(*x),
        _ => None,
    }
}

/// The floating type of `c ? a : b` when an operand is floating.
pub(crate) fn conditional_type(a: &CType, b: &CType) -> Option<CType> {
    common_float(a, b).map(CType::Float)
}

impl<'u, 'a> FnCtx<'u, 'a> {
    pub fn float_constant(&mut self, f: &Float, span: Span) -> LResult<Val> {
        let (k, bits) = float_literal(f, self.u.model).map_err(|m| literal_error(self, span, m))?;
        let op = if k.is_long_double() {
            let loc = self.loc(span);
            self.x87_operand(X87(bits), loc)
        } else {
            Operand::Const(k.ir(), bits as u64)
        };
        Ok(Val { op, ty: CType::Float(k) })
    }

    /// An `f80` operand of value `v`: a constant when `v` is a double (the
    /// form of `f80` constants), else computed exactly from doubles:
    /// `(hi + lo) * 2^s`, `hi + lo` being `v * 2^-s` split into the double
    /// nearest and the rest (a double too, the value having 64 significant
    /// bits), the scaling by powers of two in steps a double holds.
    fn x87_operand(&mut self, v: X87, loc: pathwise_ir::Loc) -> Operand {
        if let Some(d) = v.as_double() {
            return Operand::Const(Type::F80, d.to_bits());
        }
        let e = i64::from(v.exponent()) - 16383;
        let s = if e > 900 {
            e - 900
        } else if e < -900 {
            e + 900
        } else {
            0
        };
        let w = v.scaled(-s);
        let hi = w.to_f64();
        let lo = X87::arith(FBinOp::FSub, w, X87::from_f64(hi)).to_f64();
        let (hi, lo) = (Operand::Const(Type::F80, hi.to_bits()), Operand::Const(Type::F80, lo.to_bits()));
        let mut r = self.b.fbin(FBinOp::FAdd, Type::F80, hi, lo, loc);
        let mut rest = s;
        while rest != 0 {
            let step = rest.clamp(-1000, 1000);
            r = self.b.fbin(
                FBinOp::FMul,
                Type::F80,
                r,
                Operand::Const(Type::F80, 2f64.powi(step as i32).to_bits()),
                loc,
            );
            rest -= step;
        }
        r
    }

    /// The conversion of `v` to `to` when either type is floating (`None`
    /// when neither is).
    pub fn float_convert(&mut self, v: &Val, to: &CType, span: Span) -> LResult<Option<Operand>> {
        let loc = self.loc(span);
        Ok(Some(match (&v.ty, to) {
            (CType::Int(from), CType::Float(k)) => {
                let op = if from.signed() { FCastOp::SIToFP } else { FCastOp::UIToFP };
                self.b.fcast(op, from.ir(), k.ir(), v.op, loc)
            }
            (CType::Float(_), CType::Int(IntKind::Bool)) => {
                let c = self.float_zero_test(v, CmpOp::Ne, span);
                self.b.cast(false, Type::I1, Type::I8, c, loc)
            }
            (CType::Float(f), CType::Int(k)) => {
                let op = if k.signed() { FCastOp::FPToSI } else { FCastOp::FPToUI };
                self.b.fcast(op, f.ir(), k.ir(), v.op, loc)
            }
            (CType::Float(f), CType::Float(k)) if f == k => v.op,
            (CType::Float(f), CType::Float(k)) => {
                let op = if k > f { FCastOp::FPExt } else { FCastOp::FPTrunc };
                self.b.fcast(op, f.ir(), k.ir(), v.op, loc)
            }
            _ => return Ok(None),
        }))
    }

    /// `v != 0.0` (or `==`) as an `i1`: NaN is true, `-0.0` is false.
    pub fn float_zero_test(&mut self, v: &Val, op: CmpOp, span: Span) -> Operand {
        let loc = self.loc(span);
        let ty = v.ty.ir().unwrap_or(Type::F64);
        let fop = if op == CmpOp::Eq { FCmpOp::Oeq } else { FCmpOp::Une };
        self.b.fcmp(fop, ty, v.op, Operand::Const(ty, 0), loc)
    }

    /// Both operands in their common floating type, if either is floating.
    fn float_operands(&mut self, l: Val, r: Val, span: Span) -> LResult<Option<(Operand, Operand, FloatKind)>> {
        let Some(k) = common_float(&l.ty, &r.ty) else { return Ok(None) };
        let t = CType::Float(k);
        let a = self.float_convert(&l, &t, span)?.unwrap_or(l.op);
        let b = self.float_convert(&r, &t, span)?.unwrap_or(r.op);
        Ok(Some((a, b, k)))
    }

    /// `l op r` for `+ - * /` when an operand is floating (`None` when
    /// neither is).
    pub fn float_arith(&mut self, op: &BinaryOperator, l: &Val, r: &Val, span: Span) -> LResult<Option<Val>> {
        let fop = match op {
            BinaryOperator::Plus => FBinOp::FAdd,
            BinaryOperator::Minus => FBinOp::FSub,
            BinaryOperator::Multiply => FBinOp::FMul,
            BinaryOperator::Divide => FBinOp::FDiv,
            _ => return Ok(None),
        };
        let Some((a, b, k)) = self.float_operands(l.clone(), r.clone(), span)? else { return Ok(None) };
        let loc = self.loc(span);
        Ok(Some(Val { op: self.b.fbin(fop, k.ir(), a, b, loc), ty: CType::Float(k) }))
    }

    /// A comparison as an `i1` when an operand is floating.
    pub fn float_compare(&mut self, op: &BinaryOperator, l: &Val, r: &Val, span: Span) -> LResult<Option<Operand>> {
        use BinaryOperator as B;
        let Some((a, b, k)) = self.float_operands(l.clone(), r.clone(), span)? else { return Ok(None) };
        let fop = match op {
            B::Equals => FCmpOp::Oeq,
            B::NotEquals => FCmpOp::Une,
            B::Less => FCmpOp::Olt,
            B::Greater => FCmpOp::Ogt,
            B::LessOrEqual => FCmpOp::Ole,
            _ => FCmpOp::Oge,
        };
        let loc = self.loc(span);
        Ok(Some(self.b.fcmp(fop, k.ir(), a, b, loc)))
    }

    /// `-x` on a floating value.
    pub fn float_negate(&mut self, v: &Val, span: Span) -> Option<Val> {
        let CType::Float(k) = v.ty else { return None };
        let loc = self.loc(span);
        Some(Val { op: self.b.fneg(k.ir(), v.op, loc), ty: v.ty.clone() })
    }

    /// `x + 1` or `x - 1` on a floating value (`++`/`--`).
    pub fn float_step(&mut self, v: &Val, inc: bool, span: Span) -> Option<Val> {
        let CType::Float(k) = v.ty else { return None };
        let loc = self.loc(span);
        let one = Operand::Const(k.ir(), float::from_f64(k.ir(), 1.0));
        let op = if inc { FBinOp::FAdd } else { FBinOp::FSub };
        Some(Val { op: self.b.fbin(op, k.ir(), v.op, one, loc), ty: v.ty.clone() })
    }

    /// gcc built-ins of `<math.h>`'s macros, when not declared by the
    /// program (`None` for other names).
    pub fn float_builtin(&mut self, name: &str, args: &[Node<Expression>], span: Span) -> LResult<Option<Val>> {
        let constant =
            |k: FloatKind, v: f64| Val { op: Operand::Const(k.ir(), float::from_f64(k.ir(), v)), ty: CType::Float(k) };
        let (d, f) = (FloatKind::Double, FloatKind::Float);
        Ok(Some(match (name, args.len()) {
            ("__builtin_inf" | "__builtin_huge_val", 0) => constant(d, f64::INFINITY),
            ("__builtin_inff" | "__builtin_huge_valf", 0) => constant(f, f64::INFINITY),
            ("__builtin_nan" | "__builtin_nanf", 1) => {
                let k = if name.ends_with('f') { f } else { d };
                let empty = matches!(&args[0].node, Expression::StringLiteral(s) if s.node.iter().all(|p| p == "\"\""));
                if !empty {
                    return Err(self.u.unsupported(args[0].span, format!("`{name}` with a NaN payload")));
                }
                // The default quiet NaN (positive), as gcc folds it.
                let bits = if k == f { 0x7fc0_0000 } else { 0x7ff8_0000_0000_0000 };
                Val { op: Operand::Const(k.ir(), bits), ty: CType::Float(k) }
            }
            ("__builtin_isnan" | "__builtin_isinf" | "__builtin_isinf_sign" | "__builtin_isfinite", 1) => {
                let v = self.rvalue(&args[0])?;
                let v = match v.ty {
                    CType::Float(_) => v,
                    CType::Int(_) => self.convert(v, &CType::Float(d), span, crate::ops::Conv::Implicit)?,
                    _ => return Err(self.u.invalid(args[0].span, format!("`{name}` needs a floating argument"))),
                };
                self.classify(name, &v, span)
            }
            ("__builtin_signbit" | "__builtin_signbitf" | "__builtin_signbitl" | "__builtin_isnormal", 1)
            | ("__builtin_fpclassify", 6) => self.classify_by_model(name, args, span)?,
            (
                "__builtin_isgreater"
                | "__builtin_isgreaterequal"
                | "__builtin_isless"
                | "__builtin_islessequal"
                | "__builtin_islessgreater"
                | "__builtin_isunordered",
                2,
            ) => self.compare_quietly(name, args, span)?,
            _ => return Ok(None),
        }))
    }

    /// `isgreater`, `isless`... (C11 7.12.14): the comparisons, false when
    /// an operand is NaN, as an `int`; `islessgreater` is `<` or `>`, and
    /// `isunordered` whether either operand is NaN. Both operands convert
    /// to their common floating type (`float` when both are, else
    /// `double`, which also holds a `long double`'s value exactly).
    fn compare_quietly(&mut self, name: &str, args: &[Node<Expression>], span: Span) -> LResult<Val> {
        let mut vals = Vec::new();
        for a in args {
            let v = self.rvalue(a)?;
            if !matches!(v.ty, CType::Float(_) | CType::Int(_)) {
                return Err(self.u.invalid(a.span, format!("`{name}` needs arithmetic arguments")));
            }
            vals.push(v);
        }
        let single = vals.iter().all(|v| v.ty == CType::Float(FloatKind::Float));
        let common = CType::Float(if single { FloatKind::Float } else { FloatKind::Double });
        let mut ops = Vec::new();
        for v in vals {
            ops.push(self.convert(v, &common, span, crate::ops::Conv::Implicit)?.op);
        }
        let (x, y) = (ops[0], ops[1]);
        let ty = common.ir().unwrap_or(Type::F64);
        let loc = self.loc(span);
        let c = match name {
            "__builtin_isgreater" => self.b.fcmp(FCmpOp::Ogt, ty, x, y, loc),
            "__builtin_isgreaterequal" => self.b.fcmp(FCmpOp::Oge, ty, x, y, loc),
            "__builtin_isless" => self.b.fcmp(FCmpOp::Olt, ty, x, y, loc),
            "__builtin_islessequal" => self.b.fcmp(FCmpOp::Ole, ty, x, y, loc),
            _ => {
                let (p, q) = if name == "__builtin_islessgreater" {
                    (self.b.fcmp(FCmpOp::Olt, ty, x, y, loc), self.b.fcmp(FCmpOp::Ogt, ty, x, y, loc))
                } else {
                    (self.b.fcmp(FCmpOp::Une, ty, x, x, loc), self.b.fcmp(FCmpOp::Une, ty, y, y, loc))
                };
                self.b.bin(pathwise_ir::BinOp::Or, Type::I1, p, q, loc)
            }
        };
        Ok(Val { op: self.b.cast(false, Type::I1, Type::I32, c, loc), ty: INT })
    }

    /// `signbit`, `isnormal` and `fpclassify` as calls of the engine's
    /// models `__pathwise_signbit(double)` and `__pathwise_fpclassify(int
    /// nan, int inf, int normal, int subnormal, int zero, double x)`
    /// (`engine/src/libc/math.rs`: expressions of the bits, no decision).
    /// A `float` argument calls the `f` forms of the models; any other
    /// converts to `double`, which keeps its sign and class (a `long
    /// double` is held as the `double` it equals).
    fn classify_by_model(&mut self, name: &str, args: &[Node<Expression>], span: Span) -> LResult<Val> {
        let x = args.last().expect("an argument");
        let v = self.rvalue(x)?;
        if !matches!(v.ty, CType::Float(_) | CType::Int(_)) {
            return Err(self.u.invalid(x.span, format!("`{name}` needs a floating argument")));
        }
        // A `float` keeps its format (a subnormal `float` is a normal
        // `double`), and a `long double` its own for `fpclassify` (a
        // subnormal `double` is a normal `long double`); other types
        // convert to `double`, which keeps their sign and class.
        let single = v.ty == CType::Float(FloatKind::Float);
        let extended = matches!(v.ty, CType::Float(k) if k.is_long_double()) && !name.starts_with("__builtin_signbit");
        let d = match (single, extended) {
            (true, _) => CType::Float(FloatKind::Float),
            (_, true) => v.ty.clone(),
            _ => CType::Float(FloatKind::Double),
        };
        let v = self.convert(v, &d, span, crate::ops::Conv::Implicit)?;
        let op = if matches!(name, "__builtin_fpclassify" | "__builtin_isnormal" | "__fpclassify") {
            let mut ops = Vec::new();
            if name == "__builtin_isnormal" {
                ops.extend([0, 0, 1, 0, 0].map(|k| Operand::Const(Type::I32, k)));
            } else if name == "__fpclassify" {
                // glibc's FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL,
                // FP_ZERO.
                ops.extend([0, 1, 4, 3, 2].map(|k| Operand::Const(Type::I32, k)));
            } else {
                for a in &args[..5] {
                    let c = self.rvalue(a)?;
                    ops.push(self.convert(c, &INT, span, crate::ops::Conv::Implicit)?.op);
                }
            }
            ops.push(v.op);
            let params = vec![INT, INT, INT, INT, INT, d];
            let model = match (single, extended) {
                (true, _) => "__pathwise_fpclassifyf",
                (_, true) => "__pathwise_fpclassifyl",
                _ => "__pathwise_fpclassify",
            };
            self.call_engine_value(model, (params, INT), ops, span)
        } else {
            let model = if single { "__pathwise_signbitf" } else { "__pathwise_signbit" };
            self.call_engine_value(model, (vec![d], INT), vec![v.op], span)
        };
        Ok(Val { op, ty: INT })
    }

    /// glibc's own classification functions, which older `<math.h>`
    /// headers (and preprocessed sv-benchmarks tasks) call for `isnan`,
    /// `isinf`, `isfinite`, `signbit` and `fpclassify`: `__isnan`,
    /// `__isinff`, `__finitel`, `__signbit`, `__fpclassify`... (`__isinf`
    /// returns -1 for minus infinity, as `isinf_sign`). `None` for other
    /// names.
    pub fn glibc_classifier(
        &mut self,
        name: &str,
        param: &CType,
        arg: &Node<Expression>,
        span: Span,
    ) -> LResult<Option<Val>> {
        let glibc = |b: &&str| matches!(*b, "__isnan" | "__isinf" | "__finite" | "__signbit" | "__fpclassify");
        let base = name.strip_suffix(['f', 'l']).filter(glibc);
        let builtin = match base.unwrap_or(name) {
            "__isnan" => "__builtin_isnan",
            "__isinf" => "__builtin_isinf_sign",
            "__finite" => "__builtin_isfinite",
            "__signbit" => "__builtin_signbit",
            // `fpclassify` with glibc's `FP_*` values.
            "__fpclassify" => "__fpclassify",
            _ => return Ok(None),
        };
        if !matches!(param, CType::Float(_)) {
            return Ok(None);
        }
        if builtin == "__fpclassify" {
            return self.classify_by_model(builtin, std::slice::from_ref(arg), span).map(Some);
        }
        if builtin == "__builtin_signbit" {
            // glibc's x86-64 build returns the sign where its vector
            // instructions put it: 128 for a `double`, 8 for a `float`,
            // 512 for a `long double` (0 for a positive value).
            let set = match name {
                "__signbitf" => 8,
                "__signbitl" => 512,
                _ => 128,
            };
            let v = self.classify_by_model(builtin, std::slice::from_ref(arg), span)?;
            let loc = self.loc(span);
            let op = self.b.bin(pathwise_ir::BinOp::Mul, Type::I32, v.op, Operand::Const(Type::I32, set), loc);
            return Ok(Some(Val { op, ty: INT }));
        }
        let v = self.rvalue(arg)?;
        let v = self.convert(v, param, arg.span, crate::ops::Conv::Implicit)?;
        Ok(Some(self.classify(builtin, &v, span)))
    }

    /// `isnan` (`x != x`), `isfinite` (`x - x == 0`), `isinf` and
    /// `isinf_sign` (comparisons with the infinities) as an `int`.
    fn classify(&mut self, name: &str, v: &Val, span: Span) -> Val {
        let loc = self.loc(span);
        let ty = v.ty.ir().unwrap_or(Type::F64);
        let int = |this: &mut Self, c: Operand| this.b.cast(false, Type::I1, Type::I32, c, loc);
        let op = match name {
            "__builtin_isnan" => {
                let c = self.b.fcmp(FCmpOp::Une, ty, v.op, v.op, loc);
                int(self, c)
            }
            // `x - x == 0`; a `long double`'s subtraction would be computed
            // in 80 bits (pinning an input), so `|x| < inf` in comparisons:
            // `x > -inf && x < inf` (false for NaN).
            "__builtin_isfinite" if ty == Type::F80 => {
                let inf = Operand::Const(ty, float::from_f64(ty, f64::INFINITY));
                let minus_inf = Operand::Const(ty, float::from_f64(ty, f64::NEG_INFINITY));
                let above = self.b.fcmp(FCmpOp::Ogt, ty, v.op, minus_inf, loc);
                let below = self.b.fcmp(FCmpOp::Olt, ty, v.op, inf, loc);
                let (above, below) = (int(self, above), int(self, below));
                self.b.bin(pathwise_ir::BinOp::And, Type::I32, above, below, loc)
            }
            "__builtin_isfinite" => {
                let d = self.b.fbin(FBinOp::FSub, ty, v.op, v.op, loc);
                let c = self.b.fcmp(FCmpOp::Oeq, ty, d, Operand::Const(ty, 0), loc);
                int(self, c)
            }
            _ => {
                let inf = Operand::Const(ty, float::from_f64(ty, f64::INFINITY));
                let minus_inf = Operand::Const(ty, float::from_f64(ty, f64::NEG_INFINITY));
                let p = self.b.fcmp(FCmpOp::Oeq, ty, v.op, inf, loc);
                let n = self.b.fcmp(FCmpOp::Oeq, ty, v.op, minus_inf, loc);
                let (p, n) = (int(self, p), int(self, n));
                let op = if name == "__builtin_isinf" { pathwise_ir::BinOp::Or } else { pathwise_ir::BinOp::Sub };
                self.b.bin(op, Type::I32, p, n, loc)
            }
        };
        Val { op, ty: INT }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lang_c::ast::FloatSuffix;

    fn lit(base: FloatBase, number: &str, format: FloatFormat) -> Result<(FloatKind, u128), String> {
        float_literal(
            &Float { base, number: number.into(), suffix: FloatSuffix { format, imaginary: false } },
            DataModel::Lp64,
        )
    }

    #[test]
    fn decimal_constants_round_once() {
        let d = |s| lit(FloatBase::Decimal, s, FloatFormat::Double).unwrap().1 as u64;
        assert_eq!(d("0.1"), 0.1f64.to_bits());
        assert_eq!(d("1."), 1f64.to_bits());
        assert_eq!(d(".5e1"), 5f64.to_bits());
        assert_eq!(d("1e400"), f64::INFINITY.to_bits());
        let f = lit(FloatBase::Decimal, "0.1", FloatFormat::Float).unwrap();
        assert_eq!(f, (FloatKind::Float, u128::from(0.1f32.to_bits())));
    }

    #[test]
    fn long_double_constants_are_x87_values() {
        let ld = |base, s| lit(base, s, FloatFormat::LongDouble).map(|(k, b)| (k, X87(b)));
        let d = |v: f64| Ok((FloatKind::LongDouble, X87::from_f64(v)));
        assert_eq!(ld(FloatBase::Decimal, "2.5"), d(2.5));
        assert_eq!(ld(FloatBase::Decimal, "0.000"), d(0.0));
        assert_eq!(ld(FloatBase::Hexadecimal, "1.8p+1"), d(3.0));
        // Rounded once, at 64 bits (glibc's `%La` of `0.1L`).
        let tenth = ld(FloatBase::Decimal, "0.1").unwrap().1;
        assert_eq!(tenth.hex_literal().as_deref(), Some("0xc.ccccccccccccccdp-7L"));
        let big = ld(FloatBase::Decimal, "1e400").unwrap().1;
        assert!(!big.is_infinite() && big.as_double().is_none());
        let hex = ld(FloatBase::Hexadecimal, "1.00000000000001p0").unwrap().1;
        assert_eq!(hex.hex_literal().as_deref(), Some("0x8.00000000000008p-3L"));
    }

    #[test]
    fn hexadecimal_constants_are_exact() {
        let d = |s| f64::from_bits(lit(FloatBase::Hexadecimal, s, FloatFormat::Double).unwrap().1 as u64);
        assert_eq!(d("1.8p+1"), 3.0);
        assert_eq!(d("1p-1074"), f64::from_bits(1));
        assert_eq!(d("1p-1075"), 0.0); // a tie, to even
        assert_eq!(d("1.8p-1075"), f64::from_bits(1));
        assert_eq!(d("1.fffffffffffff8p+0"), 2.0); // a tie, to even
        assert_eq!(d("1.fffffffffffff7p+0"), f64::from_bits(0x3fff_ffff_ffff_ffff));
        assert_eq!(d("0.000000000000000000001p0"), 2f64.powi(-84));
        assert_eq!(d("123456789abcdef0123p0"), 0x123456789abcdef0123u128 as f64);
        assert_eq!(d("1p1024"), f64::INFINITY);
        assert_eq!(d("0.0p0"), 0.0);
        let f = |s| f32::from_bits(lit(FloatBase::Hexadecimal, s, FloatFormat::Float).unwrap().1 as u32);
        assert_eq!(f("1.000001p0"), 1.0); // below half an ulp of a float
        assert_eq!(f("1p-149"), f32::from_bits(1));
        assert_eq!(f("1.fffffffp127"), f32::INFINITY);
    }
}

//! Integer constant expressions (C11 6.6): array sizes, case labels,
//! enumerator values, static initializers, and the detection of constant
//! conditions (`while (1)`), which become jumps instead of decisions.
//!
//! Values carry their C type ([`CVal`]) and follow the same promotions and
//! conversions as run-time code, so `(unsigned char)300` is 44 and
//! `-1 < 0u` is 0. [`eval`] answers `Ok(None)` for expressions that are not
//! constant (they mention a variable, call a function, divide by zero...) and
//! an error only for constructs the front end rejects anyway (unsupported
//! types in `sizeof`). A floating constant is not an integer constant
//! unless cast (`(int)2.5`); floating constant expressions are evaluated
//! by `floats.rs`.

use lang_c::ast::{BinaryOperator, Constant, Expression, UnaryOperator};
use lang_c::span::Node;

use crate::ctypes::{CType, IntKind};
use crate::literals;
use crate::typespec;
use crate::unit::{Ctx, LResult, Sym};

/// A typed integer constant; `bits` are masked to the type's width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CVal {
    pub bits: u64,
    pub kind: IntKind,
}

impl CVal {
    pub fn int(v: i64) -> CVal {
        CVal { bits: IntKind::Int.wrap(v as u64), kind: IntKind::Int }
    }

    /// `v` (wrapped) as a value of `kind`.
    pub fn of(kind: IntKind, v: i128) -> CVal {
        CVal { bits: kind.wrap(v as u64), kind }
    }

    /// A `size_t` value of the data model.
    pub fn size_t(model: crate::DataModel, v: u64) -> CVal {
        let kind = model.size_t();
        CVal { bits: kind.wrap(v), kind }
    }

    pub fn value(self) -> i128 {
        self.kind.value(self.bits)
    }

    pub fn is_zero(self) -> bool {
        self.bits == 0
    }

    /// Conversion to another integer type (C11 6.3.1.3, modulo 2^N).
    pub fn convert(self, to: IntKind) -> CVal {
        let bits = if to == IntKind::Bool { u64::from(self.bits != 0) } else { to.wrap(self.value() as u64) };
        CVal { bits, kind: to }
    }
}

/// Evaluates `e` if it is an integer constant expression.
pub(crate) fn eval<'a>(cx: &mut dyn Ctx<'a>, e: &Node<Expression>) -> LResult<Option<CVal>> {
    Ok(match &e.node {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) => {
                let model = cx.unit_ref().model;
                Some(literals::integer_constant(i, model).map_err(|m| cx.unit_ref().invalid(c.span, m))?)
            }
            Constant::Character(s) => Some(literals::char_constant(s).map_err(|m| char_error(cx, c.span, m))?),
            // Not an integer constant (C11 6.6p6 allows one only as the
            // immediate operand of a cast, handled below).
            Constant::Float(_) => None,
        },
        Expression::Identifier(id) => match cx.unit_ref().lookup(&id.node.name) {
            Some(Sym::EnumConst(v)) => Some(*v),
            _ => None,
        },
        Expression::UnaryOperator(u) => {
            let Some(v) = eval(cx, &u.node.operand)? else { return Ok(None) };
            let k = v.kind.promote();
            let p = v.convert(k);
            match u.node.operator.node {
                UnaryOperator::Plus => Some(p),
                UnaryOperator::Minus => Some(CVal { bits: k.wrap(p.bits.wrapping_neg()), kind: k }),
                UnaryOperator::Complement => Some(CVal { bits: k.wrap(!p.bits), kind: k }),
                UnaryOperator::Negate => Some(CVal::int(i64::from(v.is_zero()))),
                _ => None,
            }
        }
        Expression::BinaryOperator(b) => {
            let op = &b.node.operator.node;
            let Some(l) = eval(cx, &b.node.lhs)? else { return Ok(None) };
            match op {
                // Short-circuit: the unevaluated operand may divide by zero.
                BinaryOperator::LogicalAnd if l.is_zero() => return Ok(Some(CVal::int(0))),
                BinaryOperator::LogicalOr if !l.is_zero() => return Ok(Some(CVal::int(1))),
                _ => {}
            }
            let Some(r) = eval(cx, &b.node.rhs)? else { return Ok(None) };
            binary(op, l, r)
        }
        Expression::Conditional(c) => {
            let Some(cond) = eval(cx, &c.node.condition)? else { return Ok(None) };
            let Some(a) = eval(cx, &c.node.then_expression)? else { return Ok(None) };
            let Some(b) = eval(cx, &c.node.else_expression)? else { return Ok(None) };
            let k = IntKind::common(a.kind, b.kind);
            Some(if cond.is_zero() { b } else { a }.convert(k))
        }
        Expression::Cast(c) => {
            let ty = typespec::type_name(cx, &c.node.type_name)?;
            let Some(k) = ty.int_kind() else { return Ok(None) };
            match eval(cx, &c.node.expression)? {
                Some(v) => Some(v.convert(k)),
                None => match crate::floats::eval_num(cx, &c.node.expression)? {
                    Some(n) => n.convert(&ty).map(|bits| CVal { bits: bits as u64, kind: k }),
                    None => None,
                },
            }
        }
        Expression::SizeOfTy(s) => {
            let ty = typespec::type_name(cx, &s.node.0)?;
            size_of(cx, &ty, s.span)?
        }
        Expression::SizeOfVal(s) => {
            let ty = cx.expr_type(&s.node.0)?;
            size_of(cx, &ty, s.span)?
        }
        Expression::AlignOf(a) => {
            let ty = typespec::type_name(cx, &a.node.0)?;
            let mut t = &ty;
            while let CType::Array(e, _) | CType::Vla(e, _) = t {
                t = e;
            }
            let model = cx.unit_ref().model;
            match t {
                CType::Struct(s) => match s.align() {
                    Some(n) => Some(CVal::size_t(model, n)),
                    None => return Err(crate::structs::incomplete(cx, a.span, t)),
                },
                t => t.sizeof(model).map(|n| CVal::size_t(model, model.align(n))),
            }
        }
        Expression::OffsetOf(o) => offset_of(cx, o)?,
        _ => None,
    })
}

/// `offsetof(type, member.designator[3])` (also gcc's `__builtin_offsetof`),
/// in the IR's layout; `None` for a non-constant index.
fn offset_of<'a>(cx: &mut dyn Ctx<'a>, o: &Node<lang_c::ast::OffsetOfExpression>) -> LResult<Option<CVal>> {
    use lang_c::ast::OffsetMember;
    let mut ty = typespec::type_name(cx, &o.node.type_name)?;
    let des = &o.node.designator.node;
    let mut offset = 0u64;
    let step = |cx: &mut dyn Ctx<'a>, ty: &CType, id: &Node<lang_c::ast::Identifier>| -> LResult<(u64, CType)> {
        let CType::Struct(s) = ty else {
            return Err(cx.unit_ref().invalid(id.span, format!("`{}` is not a structure or union", ty.spelling())));
        };
        if s.size().is_none() {
            return Err(crate::structs::incomplete(cx, id.span, ty));
        }
        match s.member(&id.node.name) {
            Some((off, ty, None)) => Ok((off, ty)),
            Some(_) => Err(cx.unit_ref().invalid(id.span, format!("`offsetof` of the bit-field `{}`", id.node.name))),
            None => {
                Err(cx.unit_ref().invalid(id.span, format!("no member named `{}` in `{}`", id.node.name, s.name())))
            }
        }
    };
    let (off, t) = step(cx, &ty, &des.base)?;
    offset += off;
    ty = t;
    for m in &des.members {
        match &m.node {
            OffsetMember::Member(id) => {
                let (off, t) = step(cx, &ty, id)?;
                offset += off;
                ty = t;
            }
            OffsetMember::IndirectMember(_) => {
                return Err(cx.unit_ref().invalid(m.span, "`->` in an offsetof designator"));
            }
            OffsetMember::Index(e) => {
                let CType::Array(elem, _) = &ty else {
                    return Err(cx.unit_ref().invalid(m.span, "subscript of a non-array in offsetof"));
                };
                let Some(i) = eval(cx, e)? else { return Ok(None) };
                let size = elem.mem_size().unwrap_or(0);
                offset = offset.wrapping_add((i.value() as u64).wrapping_mul(size));
                ty = (**elem).clone();
            }
        }
    }
    Ok(Some(CVal::size_t(cx.unit_ref().model, offset)))
}

fn char_error<'a>(cx: &mut dyn Ctx<'a>, span: lang_c::span::Span, m: String) -> crate::unit::LowerError {
    match m.strip_prefix("unsupported: ") {
        Some(rest) => cx.unit_ref().unsupported(span, rest),
        None => cx.unit_ref().invalid(span, m),
    }
}

/// `sizeof` of a type as a `size_t` constant.
pub(crate) fn size_of<'a>(cx: &mut dyn Ctx<'a>, ty: &CType, span: lang_c::span::Span) -> LResult<Option<CVal>> {
    let model = cx.unit_ref().model;
    match ty {
        CType::Func(_) => Err(cx.unit_ref().invalid(span, "invalid application of `sizeof` to a function type")),
        _ => match ty.sizeof(model) {
            Some(n) => Ok(Some(CVal::size_t(model, n))),
            // Known at run time only (`expr.rs` computes it).
            None if ty.has_vla() => Ok(None),
            None if ty.has_struct() => Err(crate::structs::incomplete(cx, span, ty)),
            None => Err(cx.unit_ref().invalid(span, "invalid application of `sizeof` to an incomplete type")),
        },
    }
}

/// A binary operator on constants, with C's conversions.
pub(crate) fn binary(op: &BinaryOperator, l: CVal, r: CVal) -> Option<CVal> {
    use BinaryOperator as B;
    match op {
        B::ShiftLeft | B::ShiftRight => {
            let k = l.kind.promote();
            let x = l.convert(k);
            let n = r.value();
            if n < 0 || n >= i128::from(k.bits()) {
                return None;
            }
            let bits = if *op == B::ShiftLeft {
                x.bits << n
            } else if k.signed() {
                (x.value() >> n) as u64
            } else {
                x.bits >> n
            };
            Some(CVal { bits: k.wrap(bits), kind: k })
        }
        B::LogicalAnd => Some(CVal::int(i64::from(!l.is_zero() && !r.is_zero()))),
        B::LogicalOr => Some(CVal::int(i64::from(!l.is_zero() || !r.is_zero()))),
        B::Less | B::Greater | B::LessOrEqual | B::GreaterOrEqual | B::Equals | B::NotEquals => {
            let k = IntKind::common(l.kind, r.kind);
            let (x, y) = (l.convert(k).value(), r.convert(k).value());
            let t = match op {
                B::Less => x < y,
                B::Greater => x > y,
                B::LessOrEqual => x <= y,
                B::GreaterOrEqual => x >= y,
                B::Equals => x == y,
                _ => x != y,
            };
            Some(CVal::int(i64::from(t)))
        }
        _ => {
            let k = IntKind::common(l.kind, r.kind);
            let (x, y) = (l.convert(k), r.convert(k));
            let (a, b) = (x.value(), y.value());
            let v: i128 = match op {
                B::Plus => a.wrapping_add(b),
                B::Minus => a.wrapping_sub(b),
                B::Multiply => a.wrapping_mul(b),
                B::Divide if b != 0 => a / b,
                B::Modulo if b != 0 => a % b,
                B::BitwiseAnd => a & b,
                B::BitwiseOr => a | b,
                B::BitwiseXor => a ^ b,
                _ => return None,
            };
            Some(CVal { bits: k.wrap(v as u64), kind: k })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use IntKind::*;

    #[test]
    fn conversions_and_operators() {
        let c = |bits, kind| CVal { bits, kind };
        assert_eq!(CVal::int(300).convert(UChar).bits, 44);
        assert_eq!(CVal::int(-1).convert(ULong).bits, u64::MAX);
        // -1 < 0u is false: -1 converts to UINT_MAX.
        assert_eq!(binary(&BinaryOperator::Less, CVal::int(-1), c(0, UInt)), Some(CVal::int(0)));
        assert_eq!(binary(&BinaryOperator::ShiftRight, CVal::int(-8), CVal::int(1)), Some(CVal::int(-4)));
        assert_eq!(binary(&BinaryOperator::Divide, CVal::int(1), CVal::int(0)), None);
        assert_eq!(binary(&BinaryOperator::Divide, CVal::int(-7), CVal::int(2)), Some(CVal::int(-3)));
    }
}

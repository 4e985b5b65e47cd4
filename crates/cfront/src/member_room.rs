//! The room a string function's destination has when it is an array
//! member of a structure, or a row of a two-dimensional array:
//! `strcpy(u->name, s)` may write `sizeof u->name` bytes, not up to the
//! end of `*u`. Writing past the member into the
//! next one stays inside the object, so a byte-accurate memory model sees
//! no error, while C says the array ends there and glibc's
//! `_FORTIFY_SOURCE=2` (the default of several distributions) aborts the
//! call: its string functions check their destination against the
//! enclosing member (`__builtin_object_size(dst, 1)`). The loop form of
//! the same copy (`u->name[i] = s[i]`) is an out-of-bounds index already.
//!
//! The front end says it with a call of the engine model
//! `__pathwise_member_room(bytes)` right before the call: the model of the
//! string function that comes next limits its writes through its
//! destination to those bytes (see `pathwise_engine::libc`). As with
//! `_FORTIFY_SOURCE`, only the string functions are limited: `memcpy` and
//! `memset` may span members (`memset(&s->first, 0, sizeof *s)`).

use lang_c::ast::{BinaryOperator, Expression, MemberOperator, UnaryOperator};
use lang_c::span::{Node, Span};
use pathwise_ir::{Operand, Type};

use crate::ctypes::CType;
use crate::func::FnCtx;
use crate::unit::{Ctx, LResult};

impl FnCtx<'_, '_> {
    /// Before a call of the C library's `name` (no body in the unit) with
    /// `args`: when its destination is an array member, or a constant
    /// index into one, say how many bytes it has from there.
    pub(crate) fn note_member_room(&mut self, name: &str, args: &[Node<Expression>], span: Span) -> LResult<()> {
        if !pathwise_ir::MEMBER_ROOM_LIMITED.contains(&name) {
            return Ok(());
        }
        let Some(dst) = args.first() else { return Ok(()) };
        if let Some(room) = self.member_room(dst)? {
            let size_t = CType::Int(self.u.model.size_t());
            self.call_engine_model(
                pathwise_ir::MEMBER_ROOM_MODEL,
                vec![size_t],
                vec![Operand::Const(Type::I64, room)],
                span,
            );
        }
        Ok(())
    }

    /// The bytes from `e` to the end of the array member it designates
    /// (`s.m`, `p->m`, `&p->m[c]`, `p->m + c`, through casts), if any.
    fn member_room(&mut self, e: &Node<Expression>) -> LResult<Option<u64>> {
        match &e.node {
            Expression::Cast(c) => self.member_room(&c.node.expression),
            Expression::Member(_) => Ok(self.member_array(e)?.map(|(size, _)| size)),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                let Expression::BinaryOperator(b) = &u.node.operand.node else { return Ok(None) };
                if b.node.operator.node != BinaryOperator::Index {
                    return Ok(None);
                }
                self.member_at(&b.node.lhs, &b.node.rhs)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Plus => {
                self.member_at(&b.node.lhs, &b.node.rhs)
            }
            // A row of a two-dimensional array (`char words[4][8]`,
            // `strcpy(words[n], w)`): the row is the array.
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let row = match self.expr_type(&b.node.lhs)? {
                    CType::Array(row, _) | CType::Ptr(row) => *row,
                    _ => return Ok(None),
                };
                let CType::Array(elem, Some(n)) = row else { return Ok(None) };
                Ok(elem.sizeof(self.u.model).map(|b| b.saturating_mul(n)))
            }
            _ => Ok(None),
        }
    }

    /// The room from element `index` (a constant) of array member `array`.
    fn member_at(&mut self, array: &Node<Expression>, index: &Node<Expression>) -> LResult<Option<u64>> {
        let Some((size, elem)) = self.member_array(array)? else { return Ok(None) };
        let Some(i) = crate::consteval::eval(self, index)? else { return Ok(None) };
        let at = u64::try_from(i.value()).ok().and_then(|i| i.checked_mul(elem));
        Ok(at.filter(|&at| at <= size).map(|at| size - at))
    }

    /// The size and element size of the array member `e` designates.
    fn member_array(&mut self, e: &Node<Expression>) -> LResult<Option<(u64, u64)>> {
        let Expression::Member(m) = &e.node else { return Ok(None) };
        let base = self.expr_type(&m.node.expression)?;
        let sty = match (&m.node.operator.node, base) {
            (MemberOperator::Direct, t @ CType::Struct(_)) => t,
            (MemberOperator::Indirect, CType::Ptr(t)) => *t,
            _ => return Ok(None),
        };
        let CType::Struct(s) = &sty else { return Ok(None) };
        let Some((offset, CType::Array(elem, Some(n)), None)) = s.member(&m.node.identifier.node.name) else {
            return Ok(None);
        };
        // A union's members overlap; a trailing array may be a flexible
        // one in disguise (`char name[1]` at the end, allocated longer).
        if s.is_union() || s.may_be_flexible(offset, &CType::Array(elem.clone(), Some(n))) {
            return Ok(None);
        }
        let Some(elem_size) = elem.sizeof(self.u.model).filter(|&b| b > 0) else { return Ok(None) };
        Ok(Some((n.saturating_mul(elem_size), elem_size)))
    }
}

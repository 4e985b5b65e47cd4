//! Structure and union members, and structure copies.
//!
//! `s.f` and `p->f` are the address of the object (`s`'s lvalue, `p`'s
//! value) plus the member's constant offset (`ptradd`, omitted for offset
//! 0); the member is then read or written like any object, by a scalar
//! `load`/`store` of its own IR type. A structure value is the address of
//! an object holding it ([`crate::expr::FnCtx::load`]); assignment and
//! initialisation from one copy it cell by cell (`structs::cells`: each
//! scalar of the layout, a union's largest member), loads before stores.

use lang_c::ast::{MemberExpression, MemberOperator};
use lang_c::span::{Node, Span};
use pathwise_ir::{InstKind, Loc, Operand, Type};

use crate::ctypes::CType;
use crate::expr::{LVal, Val};
use crate::func::FnCtx;
use crate::structs;
use crate::unit::LResult;

/// The most scalar cells a structure copy is lowered to.
const MAX_COPY_CELLS: usize = 4096;

impl<'u, 'a> FnCtx<'u, 'a> {
    /// `s.f` or `p->f` as an lvalue.
    pub fn member(&mut self, m: &Node<MemberExpression>) -> LResult<LVal> {
        self.member_placed(m).map(|(lv, _)| lv)
    }

    /// `s.f` or `p->f` as an lvalue, and whether it may be a flexible
    /// array member (see [`structs::StructRef::may_be_flexible`]).
    pub fn member_placed(&mut self, m: &Node<MemberExpression>) -> LResult<(LVal, bool)> {
        let base = self.rvalue(&m.node.expression)?;
        let (ptr, sty) = match (&m.node.operator.node, base.ty) {
            (MemberOperator::Direct, t @ CType::Struct(_)) => (base.op, t),
            (MemberOperator::Indirect, CType::Ptr(t)) if matches!(*t, CType::Struct(_)) => (base.op, *t),
            (MemberOperator::Direct, t) => {
                let msg = format!("member reference base type `{}` is not a structure or union", t.spelling());
                return Err(self.u.invalid(m.span, msg));
            }
            (MemberOperator::Indirect, t) => {
                let msg = format!("member reference type `{}` is not a pointer to a structure or union", t.spelling());
                return Err(self.u.invalid(m.span, msg));
            }
        };
        let CType::Struct(s) = &sty else { return Err(self.u.invalid(m.span, "structure expected")) };
        if s.size().is_none() {
            return Err(structs::incomplete(self, m.span, &sty));
        }
        let name = &m.node.identifier.node.name;
        let Some((offset, ty, bits)) = s.member(name) else {
            let msg = format!("no member named `{name}` in `{}`", s.name());
            return Err(self.u.invalid(m.node.identifier.span, msg));
        };
        let last = s.may_be_flexible(offset, &ty);
        let loc = self.loc(m.span);
        let Some(b) = bits else { return Ok((LVal::at(self.offset_ptr(ptr, offset, loc), ty), last)) };
        let shift = (b.bit % 8) as u32;
        if shift + b.width > 64 {
            // Only a packed structure can put a 64-bit field across 9 bytes.
            return Err(self.u.unsupported(m.span, "bit-fields spanning more than 8 bytes"));
        }
        Ok((LVal { ptr: self.offset_ptr(ptr, b.bit / 8, loc), ty, bits: Some((shift, b.width)) }, last))
    }

    /// `p + offset` bytes (`p` itself for 0).
    pub fn offset_ptr(&mut self, p: Operand, offset: u64, loc: Loc) -> Operand {
        if offset == 0 {
            return p;
        }
        self.b.value(InstKind::PtrAdd { base: p, offset: Operand::Const(Type::I64, offset) }, loc)
    }

    /// `lv = rhs` for a structure `lv`; the value is `lv`'s.
    pub fn struct_assign(&mut self, lv: LVal, rhs: &Node<lang_c::ast::Expression>) -> LResult<Val> {
        let v = self.rvalue(rhs)?;
        self.copy_struct_value(lv.ptr, &lv.ty, v, rhs.span)?;
        Ok(Val { op: lv.ptr, ty: lv.ty })
    }

    /// Copies the structure value `v` into the object at `dst` of type `ty`.
    pub fn copy_struct_value(&mut self, dst: Operand, ty: &CType, v: Val, span: Span) -> LResult<()> {
        if v.ty != *ty {
            let msg = format!("assigning `{}` from incompatible type `{}`", ty.spelling(), v.ty.spelling());
            return Err(self.u.invalid(span, msg));
        }
        let Some(cells) = structs::cells(ty, MAX_COPY_CELLS) else {
            let msg = format!("copies of structures with more than {MAX_COPY_CELLS} scalars");
            return Err(self.u.unsupported(span, msg));
        };
        let loc = self.loc(span);
        let mut values = Vec::with_capacity(cells.len());
        for &(off, t) in &cells {
            let p = self.offset_ptr(v.op, off, loc);
            values.push(self.b.load(t, p, loc));
        }
        for (&(off, t), value) in cells.iter().zip(values) {
            let p = self.offset_ptr(dst, off, loc);
            self.b.store(t, p, value, loc);
        }
        Ok(())
    }
}

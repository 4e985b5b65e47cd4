//! Storage allocated when a declaration runs: variable-length arrays and
//! large arrays with an initializer.
//!
//! A block-scope array whose size is not a constant (`int a[n];`, also
//! `int a[n][4]`) gets, each time its declaration runs: its element count
//! evaluated once into a slot `a.len` (C11 6.7.6.2p5: later changes of `n`
//! do not resize it, and `sizeof a` reads the slot), storage from an IR
//! `alloca` of `len * inner elements` scalars, and a pointer slot `a` that
//! uses of the variable load ([`Sym::Indirect`]). The storage lives until
//! the function returns, which C allows. Only the outermost dimension may
//! vary.
//!
//! A constant-size array with an initializer is zero-filled by stores, one
//! per element not listed. Above [`MAX_ZERO_STORES`] such elements, the
//! array's storage comes from an `alloca` instead: fresh storage reads as
//! zero, which fills the array at no cost per element, also when the
//! declaration runs again in a loop.

use lang_c::ast::{Expression, InitDeclarator};
use lang_c::span::{Node, Span};
use pathwise_ir::{BinOp, InstKind, Operand, Type};

use crate::ctypes::{CType, IntKind};
use crate::expr::Val;
use crate::func::FnCtx;
use crate::typespec;
use crate::unit::{Ctx, LResult, Sym};

/// The most zero-filling stores an initialized local array gets.
pub(crate) const MAX_ZERO_STORES: u64 = 1024;

impl<'u, 'a> FnCtx<'u, 'a> {
    /// The element count of a variable-length array, as an `i64`.
    fn vla_length(&mut self, e: &Node<Expression>) -> LResult<Operand> {
        let v = self.rvalue(e)?;
        let Some(k) = v.ty.int_kind() else {
            return Err(self.u.invalid(e.span, "size of array has non-integer type"));
        };
        let loc = self.loc(e.span);
        let wide = if k.signed() { IntKind::LongLong } else { IntKind::ULongLong };
        Ok(self.int_conv(v.op, k, wide, loc))
    }

    /// `alloca` of `count` (an `i64`) elements of `elem`, its address kept in
    /// a new slot `name`, which is returned.
    fn alloca_var(&mut self, name: &str, elem: Type, count: Operand, span: Span) -> pathwise_ir::Local {
        let loc = self.loc(span);
        let p = self.b.value(InstKind::Alloca { elem, count }, loc);
        let slot = self.b.local(name.to_string(), Type::Ptr, 1);
        let at = self.b.addr_local(slot, loc);
        self.b.store(Type::Ptr, at, p, loc);
        slot
    }

    /// Declares the variable-length array `name` of type `ty` (a
    /// [`CType::Vla`]), declared by `id`.
    pub fn vla_var(&mut self, name: &str, ty: &CType, id: &Node<InitDeclarator>, span: Span) -> LResult<()> {
        let CType::Vla(elem, len) = ty else {
            return Err(self.u.invalid(span, "variable-length array expected"));
        };
        if id.node.initializer.is_some() {
            return Err(self.u.invalid(span, "variable-sized object may not be initialized"));
        }
        if elem.has_struct() && elem.mem_size().is_none() {
            return Err(crate::structs::incomplete(self, span, elem));
        }
        // Elements containing structures are bytes (`CType::storage`).
        let Some((ir, per)) = elem.storage() else {
            let what = if elem.has_vla() { "with a variable inner dimension" } else { "of an incomplete type" };
            return Err(self.u.unsupported(span, format!("variable-length arrays {what}")));
        };
        let loc = self.loc(span);
        let len = match len {
            // `typeof(a) b;` shares the length of `a`.
            Some(slot) => *slot,
            None => {
                let Some(size) = typespec::vla_size(&id.node.declarator) else {
                    return Err(self.u.unsupported(span, "this variable-length array declarator"));
                };
                let n = self.vla_length(size)?;
                let slot = self.b.local(format!("{name}.len"), Type::I64, 1);
                let at = self.b.addr_local(slot, loc);
                self.b.store(Type::I64, at, n, loc);
                slot
            }
        };
        let at = self.b.addr_local(len, loc);
        let n = self.b.load(Type::I64, at, loc);
        let count = self.b.bin(BinOp::Mul, Type::I64, n, Operand::Const(Type::I64, per), loc);
        let slot = self.alloca_var(name, ir, count, span);
        let ty = CType::Vla(elem.clone(), Some(len));
        self.u.declare(name, Sym::Indirect { slot, ty });
        Ok(())
    }

    /// Storage for `name`, a constant-size array of `count` scalars `ir`,
    /// from an `alloca` (already zero): the slot holding its address, and
    /// the address.
    pub fn zeroed_array(&mut self, name: &str, ir: Type, count: u64, span: Span) -> (pathwise_ir::Local, Operand) {
        let slot = self.alloca_var(name, ir, Operand::Const(Type::I64, count), span);
        let loc = self.loc(span);
        let at = self.b.addr_local(slot, loc);
        (slot, self.b.load(Type::Ptr, at, loc))
    }

    /// `sizeof` of a variable-length array, computed at run time (the
    /// operand `e` is a `sizeof` whose value is not a constant).
    pub fn runtime_sizeof(&mut self, e: &Node<Expression>) -> LResult<Val> {
        let (ty, declarator) = match &e.node {
            Expression::SizeOfVal(s) => (self.expr_type(&s.node.0)?, None),
            Expression::SizeOfTy(s) => (typespec::type_name(self, &s.node.0)?, s.node.0.node.declarator.as_ref()),
            _ => return Err(self.u.invalid(e.span, "invalid sizeof operand")),
        };
        let CType::Vla(elem, len) = &ty else {
            return Err(self.u.invalid(e.span, "invalid sizeof operand"));
        };
        let model = self.u.model;
        let Some(esize) = elem.sizeof(model) else {
            return Err(self
                .u
                .unsupported(e.span, "sizeof of a variable-length array with a variable inner dimension"));
        };
        let loc = self.loc(e.span);
        let n = match (len, declarator.and_then(typespec::vla_size)) {
            (Some(slot), _) => {
                let at = self.b.addr_local(*slot, loc);
                self.b.load(Type::I64, at, loc)
            }
            // `sizeof(int[n])` evaluates `n`.
            (None, Some(size)) => self.vla_length(size)?,
            (None, None) => return Err(self.u.unsupported(e.span, "this operand of sizeof")),
        };
        let bytes = self.b.bin(BinOp::Mul, Type::I64, n, Operand::Const(Type::I64, esize), loc);
        let k = model.size_t();
        Ok(Val { op: self.int_conv(bytes, IntKind::ULongLong, k, loc), ty: CType::Int(k) })
    }
}

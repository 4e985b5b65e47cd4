//! Variadic functions defined in the unit (`void log_msg(const char *fmt,
//! ...)`), lowered to plain IR so that the engine needs nothing of its own.
//!
//! - A variadic definition gets one more parameter after its declared
//!   ones, the *argument area* ([`VA_AREA`], a `char *`, unnameable in C).
//! - A call stores its arguments past the declared ones, after the default
//!   promotions, in a local array of [`SLOT`]-byte slots, one each, and
//!   passes the array's address as that parameter.
//! - `va_list` is a `char *` into the area: `va_start(ap, last)` sets it to
//!   the area, `va_arg(ap, T)` reads a `T` where it points and steps it by
//!   a slot, `va_copy(d, s)` copies it, `va_end` does nothing.
//! - `vprintf`, `vfprintf`, `vsprintf` and `vsnprintf` read the slots from
//!   the `va_list` on (the engine's models).
//!
//! So reading an argument that was not passed reads past the area, an
//! out-of-bounds error, as it is undefined in C. A variadic function is
//! tested through its callers: as the function under test it has no
//! inputs for its `...`, and the engine refuses it. Calls through pointers
//! to variadic functions and `long double` or structure arguments are not
//! supported.

use lang_c::ast::{CallExpression, Expression, VaArgExpression};
use lang_c::span::{Node, Span};
use pathwise_ir::{InstKind, Operand, Type, VA_AREA, VA_SLOT as SLOT};

use crate::ctypes::CType;
use crate::expr::{LVal, Val};
use crate::func::FnCtx;
use crate::ops::Conv;
use crate::unit::{LResult, Sym};

/// The type of `va_list` (`__builtin_va_list`).
pub(crate) fn va_list_type() -> CType {
    CType::Ptr(Box::new(CType::Int(crate::ctypes::IntKind::Char)))
}

impl FnCtx<'_, '_> {
    /// The argument area of call arguments `extra` (past the declared
    /// parameters): a local array holding each after the default
    /// promotions, one slot each; returns its address.
    pub(crate) fn argument_area(&mut self, extra: &[Node<Expression>], span: Span) -> LResult<Operand> {
        let loc = self.loc(span);
        let n = self.b.num_locals();
        let slot = self.b.local(format!("va.{n}"), Type::I64, extra.len() as u64);
        let area = self.b.addr_local(slot, loc);
        for (i, a) in extra.iter().enumerate() {
            let v = self.promoted_arg(a)?;
            let Some(ty) = v.ty.abi_ir().filter(|t| t.bytes() <= SLOT) else {
                return Err(self
                    .u
                    .unsupported(a.span, format!("`{}` arguments of variadic functions", v.ty.spelling())));
            };
            let at =
                self.b.value(InstKind::PtrAdd { base: area, offset: Operand::Const(Type::I64, i as u64 * SLOT) }, loc);
            self.b.store(ty, at, v.op, loc);
        }
        Ok(area)
    }

    /// The argument-area parameter of a variadic definition, register
    /// `index` (after the declared ones), kept in a slot `va_start` reads.
    pub(crate) fn argument_area_param(&mut self, index: usize, span: Span) -> pathwise_ir::Param {
        let loc = self.loc(span);
        let ty = va_list_type();
        let slot = self.b.local(VA_AREA.to_string(), Type::Ptr, 1);
        let addr = self.b.addr_local(slot, loc);
        self.b.store(Type::Ptr, addr, Operand::Reg(pathwise_ir::Reg(index as u32)), loc);
        self.u.declare(VA_AREA, Sym::Local { local: slot, ty: ty.clone() });
        let src = crate::ctypes::param_src(VA_AREA, &ty).expect("a pointer has a description");
        pathwise_ir::Param { reg: pathwise_ir::Reg(index as u32), ty: Type::Ptr, src }
    }

    /// `__builtin_va_start`, `__builtin_va_end` and `__builtin_va_copy`
    /// (what `<stdarg.h>`'s macros expand to); `None` for other names.
    pub(crate) fn va_builtin(&mut self, name: &str, c: &Node<CallExpression>) -> LResult<Option<Val>> {
        let args = &c.node.arguments;
        match (name, args.len()) {
            ("__builtin_va_start", 2) => {
                let Some(Sym::Local { local, ty }) = self.u.lookup(VA_AREA).cloned() else {
                    return Err(self.u.invalid(c.span, "`va_start` used in a function without `...`"));
                };
                let loc = self.loc(c.span);
                let addr = self.b.addr_local(local, loc);
                let area = self.load(LVal::at(addr, ty), c.span)?;
                let ap = self.lvalue(&args[0])?;
                self.store(&ap, area, c.span);
                Ok(Some(Val::void()))
            }
            ("__builtin_va_end", 1) => {
                self.rvalue(&args[0])?;
                Ok(Some(Val::void()))
            }
            ("__builtin_va_copy", 2) => {
                let src = self.rvalue(&args[1])?;
                let dst = self.lvalue(&args[0])?;
                self.store(&dst, src, c.span);
                Ok(Some(Val::void()))
            }
            _ => Ok(None),
        }
    }

    /// `va_arg(ap, T)`: the `T` where `ap` points; `ap` steps by a slot.
    pub(crate) fn va_arg(&mut self, v: &Node<VaArgExpression>, span: Span) -> LResult<Val> {
        let ty = crate::typespec::type_name(self, &v.node.type_name)?;
        if !matches!(ty, CType::Int(_) | CType::Ptr(_) | CType::Float(_))
            || ty.abi_ir().is_none_or(|t| t.bytes() > SLOT)
        {
            return Err(self.u.unsupported(span, format!("`va_arg` of a `{}`", ty.spelling())));
        }
        let loc = self.loc(span);
        let ap = self.lvalue(&v.node.va_list)?;
        let at = self.load(ap.clone(), span)?;
        let value = self.load(LVal::at(at.op, ty), span)?;
        let next = self.b.value(InstKind::PtrAdd { base: at.op, offset: Operand::Const(Type::I64, SLOT) }, loc);
        self.store(&ap, Val { op: next, ty: at.ty }, span);
        Ok(value)
    }

    /// An argument matching a variadic function's `...`: the default
    /// argument promotions (C11 6.5.2.2p6: integers narrower than `int` to
    /// `int`, `float` to `double`); arrays have decayed already.
    pub(crate) fn promoted_arg(&mut self, a: &Node<Expression>) -> LResult<Val> {
        let v = self.rvalue(a)?;
        match &v.ty {
            CType::Int(k) => {
                let to = CType::Int(k.promote());
                self.convert(v, &to, a.span, Conv::Implicit)
            }
            // `float` to `double`; a `long double` goes as it is (`%Lf`).
            CType::Float(k) if !k.is_long_double() => {
                let to = CType::Float(crate::ctypes::FloatKind::Double);
                self.convert(v, &to, a.span, Conv::Implicit)
            }
            CType::Float(_) | CType::Ptr(_) => Ok(v),
            _ => Err(self.u.unsupported(a.span, format!("`{}` arguments of variadic functions", v.ty.spelling()))),
        }
    }
}

//! Function calls.
//!
//! Direct calls of declared functions and calls through function pointers
//! (`call_through_pointer`): arguments are
//! evaluated left to right and converted to the prototype's parameter types.
//! A variadic function without a body (`printf`, `snprintf`: the engine's
//! library models) takes its extra arguments after the default argument
//! promotions, as further IR call arguments; variadic definitions are not
//! supported, so neither are calls to them.
//! A string literal (or `__func__`) passed to `assert`'s failure function
//! (`__assert_fail("x > 0", __FILE__, ...)`, no body in this translation
//! unit) becomes a null pointer: the engine models it and never reads the
//! text, so no string object is created for it. Anywhere else a string
//! literal is a `const` global `char` array (`expr.rs`). A call to a function declared `noreturn` (`abort`, `exit`,
//! `__assert_fail`) ends its block with `unreachable`.
//!
//! Two gcc built-ins that common macros expand to are understood without a
//! declaration: `__builtin_expect(e, c)` is `e`, `__builtin_unreachable()`
//! ends the block. The floating ones of `<math.h>`'s macros are in
//! `floats.rs`, the integer bit built-ins (`__builtin_clz`, `popcount`,
//! `bswap32`...) in `bitops.rs`.

use lang_c::ast::{CallExpression, Expression};
use lang_c::span::Node;
use pathwise_ir::{InstKind, Operand, Terminator, Type};

use crate::ctypes::CType;
use crate::expr::{is_function_name_string, Val};
use crate::func::FnCtx;
use crate::ops::Conv;
use crate::unit::{LResult, Sym};

/// Body-less functions whose string arguments (message, file, function
/// name) nothing looks at: they get a null pointer rather than a string
/// object each. Other body-less functions get the string, so that an
/// external function (`pathwise gen --external`) sees a non-null pointer as
/// the native code does.
const ASSERT_FAILS: &[&str] = &["__assert_fail", "__assert_perror_fail", "__assert", "__assert_rtn"];

/// A string literal, or a predefined function-name string.
fn is_string_like(e: &Node<Expression>) -> bool {
    match &e.node {
        Expression::StringLiteral(_) => true,
        Expression::Identifier(id) => is_function_name_string(&id.node.name),
        _ => false,
    }
}

impl<'u, 'a> FnCtx<'u, 'a> {
    /// A copy of structure value `v` in a slot of its own; returns its address.
    pub(crate) fn struct_temp(&mut self, v: Val, span: lang_c::span::Span) -> LResult<Operand> {
        let Some((elem, count)) = v.ty.storage() else {
            return Err(crate::structs::incomplete(self, span, &v.ty));
        };
        let loc = self.loc(span);
        let slot = self.b.local(format!("copy.{}", self.b.num_locals()), elem, count);
        let addr = self.b.addr_local(slot, loc);
        let ty = v.ty.clone();
        self.copy_struct_value(addr, &ty, v, span)?;
        Ok(addr)
    }

    /// A call of gcc's `__builtin_expect` (not declared by the program).
    pub fn is_builtin_expect(&self, c: &Node<CallExpression>) -> bool {
        matches!(&c.node.callee.node, Expression::Identifier(id)
            if id.node.name == "__builtin_expect" && c.node.arguments.len() == 2 && self.u.lookup(&id.node.name).is_none())
    }

    pub fn call(&mut self, c: &Node<CallExpression>) -> LResult<Val> {
        let Expression::Identifier(id) = &c.node.callee.node else {
            return self.call_through_pointer(c);
        };
        let name = id.node.name.as_str();
        let args = &c.node.arguments;
        let loc = self.loc(c.span);
        if name.starts_with("__builtin_") && self.u.lookup(name).is_none() {
            if let Some(v) = self.va_builtin(name, c)? {
                return Ok(v);
            }
            if let Some(v) = self.float_builtin(name, args, c.span)? {
                return Ok(v);
            }
            if let Some(v) = self.bit_builtin(name, args, c.span)? {
                return Ok(v);
            }
        }
        let idx = match self.u.lookup(name) {
            Some(Sym::Func(i)) => *i,
            Some(Sym::Unsupported(reason)) => {
                let reason = reason.clone();
                return Err(self.u.use_of_unsupported(id.span, name, &reason));
            }
            Some(Sym::Local { .. } | Sym::Indirect { .. } | Sym::Global(_)) => return self.call_through_pointer(c),
            Some(_) => return Err(self.u.invalid(id.span, format!("called object `{name}` is not a function"))),
            None if name == "__builtin_expect" && args.len() == 2 => {
                let v = self.rvalue(&args[0])?;
                let long = CType::Int(self.u.model.long());
                let v = self.convert(v, &long, args[0].span, Conv::Implicit)?;
                self.rvalue(&args[1])?;
                return Ok(v);
            }
            None if name == "__builtin_unreachable" && args.is_empty() => {
                self.b.terminate(Terminator::Unreachable, loc);
                return Ok(Val::void());
            }
            // Other gcc built-ins are valid C for gcc, just not modelled.
            None if name.starts_with("__builtin_") => {
                return Err(self.u.unsupported(id.span, format!("the gcc built-in `{name}`")));
            }
            None => {
                return Err(self.u.invalid(
                    id.span,
                    format!("call to undeclared function `{name}` (C99 has no implicit declarations)"),
                ));
            }
        };
        let entry = &self.u.funcs[idx];
        let (sig, noreturn) = (entry.sig.clone(), entry.noreturn);
        let has_body = entry.def.is_some() || self.u.defined_names.contains(name);
        if !has_body && args.len() == 1 && sig.params.len() == 1 {
            if let Some(v) = self.glibc_classifier(name, &sig.params[0], &args[0], c.span)? {
                return Ok(v);
            }
        }
        if !sig.prototyped && !args.is_empty() {
            return Err(self
                .u
                .unsupported(c.span, format!("calls with arguments to `{name}`, declared without a prototype")));
        }
        if sig.variadic && args.len() < sig.params.len() {
            let n = sig.params.len();
            return Err(self
                .u
                .invalid(c.span, format!("`{name}` expects at least {n} argument(s), {} given", args.len())));
        }
        if !sig.variadic && args.len() != sig.params.len() {
            return Err(self
                .u
                .invalid(c.span, format!("`{name}` expects {} argument(s), {} given", sig.params.len(), args.len())));
        }
        let mut ops = Vec::with_capacity(args.len());
        for (a, pty) in args.iter().zip(&sig.params) {
            if !has_body && ASSERT_FAILS.contains(&name) && matches!(pty, CType::Ptr(_)) && is_string_like(a) {
                ops.push(Operand::Const(Type::Ptr, 0));
                continue;
            }
            let op = self.prototyped_arg(a, pty)?;
            ops.push(op);
        }
        if sig.variadic && has_body {
            // The unit's own: its arguments go in an area (`varargs.rs`).
            ops.push(self.argument_area(&args[sig.params.len()..], c.span)?);
        } else {
            for a in &args[sig.params.len()..] {
                ops.push(self.promoted_arg(a)?.op);
            }
        }
        if !has_body {
            self.note_member_room(name, args, c.span)?;
        }
        let func = self.u.func_id(idx);
        let kind = InstKind::Call { func, args: ops };
        let val = self.call_result(kind, &sig.ret, c.span)?;
        if noreturn {
            self.b.terminate(Terminator::Unreachable, loc);
        }
        Ok(val)
    }

    /// The value of a call instruction `kind` whose C result type is `ret`.
    fn call_result(&mut self, kind: InstKind, ret: &CType, span: lang_c::span::Span) -> LResult<Val> {
        let loc = self.loc(span);
        Ok(match ret.abi_ir() {
            // A structure result points to the callee's object: copy it at
            // once, before anything can change that object.
            Some(_) if matches!(ret, CType::Struct(_)) => {
                let v = Val { op: self.b.value(kind, loc), ty: ret.clone() };
                Val { op: self.struct_temp(v, span)?, ty: ret.clone() }
            }
            Some(_) => Val { op: self.b.value(kind, loc), ty: ret.clone() },
            None => {
                self.b.effect(kind, loc);
                Val::void()
            }
        })
    }

    /// A call through a function pointer (`fp(x)`, `(*fp)(x)`,
    /// `ops->read(p)`, `table[i](x)`): the pointer's function type gives
    /// the parameters the arguments convert to and the result; the engine
    /// checks that the function called has that type.
    fn call_through_pointer(&mut self, c: &Node<CallExpression>) -> LResult<Val> {
        let callee = self.rvalue(&c.node.callee)?;
        let sig = match callee.ty.pointee() {
            Some(CType::Func(sig)) => (**sig).clone(),
            _ => {
                let what = callee.ty.spelling();
                return Err(self.u.invalid(
                    c.node.callee.span,
                    format!("called object of type `{what}` is not a function or function pointer"),
                ));
            }
        };
        let args = &c.node.arguments;
        if sig.variadic {
            return Err(self.u.unsupported(c.span, "calls through pointers to variadic functions"));
        }
        if !sig.prototyped {
            // `int (*f)()`: the arguments after the default promotions; the
            // engine checks them against the function reached.
            let ops = args.iter().map(|a| self.promoted_arg(a).map(|v| v.op)).collect::<LResult<Vec<_>>>()?;
            let kind = InstKind::CallPtr { callee: callee.op, args: ops, ret: sig.ret.abi_ir() };
            return self.call_result(kind, &sig.ret, c.span);
        }
        if args.len() != sig.params.len() {
            let n = sig.params.len();
            return Err(self
                .u
                .invalid(c.span, format!("the function pointer expects {n} argument(s), {} given", args.len())));
        }
        let mut ops = Vec::with_capacity(args.len());
        for (a, pty) in args.iter().zip(&sig.params) {
            ops.push(self.prototyped_arg(a, pty)?);
        }
        let kind = InstKind::CallPtr { callee: callee.op, args: ops, ret: sig.ret.abi_ir() };
        self.call_result(kind, &sig.ret, c.span)
    }

    /// An argument for a parameter of type `pty`, converted as by
    /// assignment; a structure is passed by value, as a copy of its own.
    fn prototyped_arg(&mut self, a: &Node<Expression>, pty: &CType) -> LResult<Operand> {
        let v = self.rvalue(a)?;
        let v = self.convert(v, pty, a.span, Conv::Implicit)?;
        match pty {
            CType::Struct(_) => self.struct_temp(v, a.span),
            _ => Ok(v.op),
        }
    }
}

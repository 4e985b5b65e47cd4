//! Declarations inside function bodies.
//!
//! An automatic variable gets a fresh slot for each declaration (so shadowing
//! in nested blocks and re-declarations in loops work), named after the
//! variable, with arrays flattened to their innermost element type. Its
//! initializer is lowered to stores: listed elements first, then zeros for
//! the rest of an array with an initializer (large ones get zeroed storage
//! instead, see `vla.rs`, as do variable-length arrays). Variables without
//! initializer are left as the engine finds them. A `static` local becomes a global
//! named `func.name` with a constant initializer; `extern` and function
//! declarations refer to file-scope entities; `typedef` and enumerations are
//! block-scoped names.

use lang_c::ast::{Declaration, InitDeclarator, StorageClassSpecifier};
use lang_c::span::{Node, Span};
use pathwise_ir::{InstKind, Local, Operand, Type};

use crate::ctypes::CType;
use crate::func::{check_sig, register_func, FnCtx, FuncDecl};
use crate::globals;
use crate::init::{self, FlatInit, InitItem};
use crate::ops::Conv;
use crate::typespec::{self, DeclSpec};
use crate::unit::{LResult, ObjEntry, Sym};

pub(crate) fn local_decl(cx: &mut FnCtx<'_, '_>, d: &Node<Declaration>) -> LResult<()> {
    let spec = typespec::decl_spec(cx, &d.node.specifiers, d.span)?;
    for id in &d.node.declarators {
        declare_one(cx, &spec, id)?;
    }
    Ok(())
}

fn declare_one(cx: &mut FnCtx<'_, '_>, spec: &DeclSpec, id: &Node<InitDeclarator>) -> LResult<()> {
    let dd = typespec::declarator(cx, spec.ty.clone(), spec.is_const, &id.node.declarator)?;
    let Some(name) = dd.name.clone() else {
        return Err(cx.u.invalid(id.span, "declaration without a name"));
    };
    if spec.storage == Some(StorageClassSpecifier::Typedef) {
        cx.u.declare(&name, Sym::Typedef(dd.ty, dd.is_const));
        return Ok(());
    }
    if let CType::Func(sig) = dd.ty {
        check_sig(cx.u, &sig, &dd.params, dd.name_span)?;
        let is_static = spec.storage == Some(StorageClassSpecifier::Static);
        let noreturn = spec.noreturn || dd.noreturn;
        register_func(
            cx.u,
            FuncDecl { name, sig: *sig, params: dd.params, name_span: dd.name_span, is_static, noreturn, def: None },
        );
        return Ok(());
    }
    match spec.storage {
        Some(StorageClassSpecifier::Extern) => {
            if id.node.initializer.is_some() {
                return Err(cx.u.invalid(id.span, "`extern` variable with an initializer in a block"));
            }
            let idx = globals::object_entry(cx.u, &name, &dd.ty, dd.is_const, dd.name_span)?;
            cx.u.declare(&name, Sym::Global(idx));
            Ok(())
        }
        Some(StorageClassSpecifier::Static) => {
            let mut gname = format!("{}.{}", cx.fname, name);
            let mut n = 1;
            while cx.u.globals.iter().any(|g| g.name == gname) {
                n += 1;
                gname = format!("{}.{}.{}", cx.fname, name, n);
            }
            let (ty, init) = globals::static_init(cx, &dd.ty, id.node.initializer.as_ref(), dd.name_span)?;
            // Static locals are not visible to test harnesses: no SrcVar.
            let gid = cx.u.new_global(&gname, &ty, init, dd.is_const, false);
            cx.u.objects.push(ObjEntry { name: gname, ty, is_const: dd.is_const, gid: Some(gid) });
            let idx = cx.u.objects.len() - 1;
            cx.u.declare(&name, Sym::Global(idx));
            Ok(())
        }
        _ => auto_var(cx, &name, dd.ty, id, dd.name_span),
    }
}

/// An automatic variable: a slot, and stores for its initializer.
fn auto_var(cx: &mut FnCtx<'_, '_>, name: &str, ty: CType, id: &Node<InitDeclarator>, span: Span) -> LResult<()> {
    if matches!(ty, CType::Vla(..)) {
        return cx.vla_var(name, &ty, id, span);
    }
    if ty.has_vla() && !matches!(ty, CType::Ptr(_)) {
        return Err(cx.u.unsupported(span, "arrays of variable-length arrays"));
    }
    let flat = match &id.node.initializer {
        Some(init) => Some(init::flatten(cx, &ty, init)?),
        None => None,
    };
    auto_object(cx, name, ty, flat, span, true).map(|_| ())
}

/// An automatic object: storage for `ty` (completed by the initializer),
/// and stores for the initializer. Named `name`, it is declared (before
/// its initializer, C11 6.2.1p7) when `declare` holds; returns its symbol.
pub(crate) fn auto_object(
    cx: &mut FnCtx<'_, '_>,
    name: &str,
    ty: CType,
    flat: Option<FlatInit<'_>>,
    span: Span,
    declare: bool,
) -> LResult<Sym> {
    let ty = flat.as_ref().map(|f| f.ty.clone()).unwrap_or(ty);
    let Some((elem, count)) = ty.flatten() else {
        return Err(match ty {
            CType::Array(_, None) => cx.u.invalid(span, format!("array `{name}` has no size")),
            _ => cx.u.invalid(span, format!("variable `{name}` has incomplete type `{}`", ty.spelling())),
        });
    };
    let Some(ir) = elem.ir() else {
        return Err(cx.u.invalid(span, format!("variable `{name}` has incomplete type")));
    };
    let elem = elem.clone();
    let Some(flat) = flat else {
        let local = cx.b.local(name.to_string(), ir, count);
        let sym = Sym::Local { local, ty: ty.clone() };
        if declare {
            cx.u.declare(name, sym.clone());
        }
        return Ok(sym);
    };
    let is_array = matches!(ty, CType::Array(..));
    let listed: std::collections::BTreeSet<u64> = flat.items.iter().map(|(i, _)| *i).collect();
    let (base, sym) = if is_array && count - listed.len() as u64 > crate::vla::MAX_ZERO_STORES {
        let (slot, p) = cx.zeroed_array(name, ir, count, span);
        (Base::Ptr(p), Sym::Indirect { slot, ty: ty.clone() })
    } else {
        let local = cx.b.local(name.to_string(), ir, count);
        (Base::Local(local), Sym::Local { local, ty: ty.clone() })
    };
    if declare {
        cx.u.declare(name, sym.clone());
    }
    for (index, item) in flat.items {
        let value = match item {
            InitItem::Expr(e) => {
                let v = cx.rvalue(e)?;
                cx.convert(v, &elem, e.span, Conv::Implicit)?.op
            }
            InitItem::Const(bits) => Operand::Const(ir, bits & ir.mask()),
        };
        // The store is located at the variable, like any store to it.
        store_elem(cx, base, ir, index, value, span);
    }
    if let (true, Base::Local(_)) = (is_array, base) {
        for index in (0..count).filter(|i| !listed.contains(i)) {
            store_elem(cx, base, ir, index, Operand::Const(ir, 0), span);
        }
    }
    Ok(sym)
}

/// Where an initialized variable's storage is.
#[derive(Clone, Copy)]
enum Base {
    /// A slot of the function.
    Local(Local),
    /// Storage from an `alloca`, at this address.
    Ptr(Operand),
}

/// `base[index] = value`.
fn store_elem(cx: &mut FnCtx<'_, '_>, base: Base, ir: Type, index: u64, value: Operand, span: Span) {
    let loc = cx.loc(span);
    let base = match base {
        Base::Local(local) => cx.b.addr_local(local, loc),
        Base::Ptr(p) => p,
    };
    let ptr = if index == 0 {
        base
    } else {
        let offset = Operand::Const(Type::I64, index * ir.bytes());
        cx.b.value(InstKind::PtrAdd { base, offset }, loc)
    };
    cx.b.store(ir, ptr, value, loc);
}

//! Declarations inside function bodies.
//!
//! An automatic variable gets a fresh slot for each declaration (so shadowing
//! in nested blocks and re-declarations in loops work), named after the
//! variable, with arrays flattened to their innermost element type (objects
//! containing structures are bytes). Its initializer is lowered to stores:
//! listed scalars first, then zeros for the rest of an aggregate with an
//! initializer (large ones get zeroed storage
//! instead, see `vla.rs`, as do variable-length arrays). Variables without
//! initializer are left as the engine finds them. A `static` local becomes a global
//! named `func.name` with a constant initializer; `extern` and function
//! declarations refer to file-scope entities; `typedef` and enumerations are
//! block-scoped names.

use lang_c::ast::{Declaration, InitDeclarator, StorageClassSpecifier};
use lang_c::span::{Node, Span};
use pathwise_ir::{Local, Operand, Type};

use crate::ctypes::CType;
use crate::expr::LVal;
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
        crate::structs::name_by_typedef(&dd.ty, &name);
        if let (Some(i), CType::Int(_)) = (spec.enum_def, &dd.ty) {
            cx.u.enums.typedef(i, &name);
        }
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
            let globals::StaticInit { ty, values, relocs } =
                globals::static_init(cx, &dd.ty, id.node.initializer.as_ref(), dd.name_span)?;
            // Static locals are not visible to test harnesses: no SrcVar.
            let gid = cx.u.new_global(&gname, &ty, values, dd.is_const, false);
            cx.u.globals[gid.0 as usize].relocs = relocs;
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
    if ty.has_vla() && !matches!(ty, CType::Ptr(_)) {
        return cx.vla_var(name, &ty, id, span);
    }
    // `int (*row)[n]`: the pointee's lengths are evaluated here.
    let ty = match ty {
        CType::Ptr(t) if t.has_vla() => cx.vla_pointer(name, &t, &id.node.declarator, span)?,
        t => t,
    };
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
    let Some((ir, count)) = ty.storage() else {
        return Err(match ty {
            CType::Array(_, None) => cx.u.invalid(span, format!("array `{name}` has no size")),
            t if t.has_struct() => crate::structs::incomplete(cx, span, &t),
            _ => cx.u.invalid(span, format!("variable `{name}` has incomplete type `{}`", ty.spelling())),
        });
    };
    let Some(flat) = flat else {
        let local = cx.b.local(name.to_string(), ir, count);
        let sym = Sym::Local { local, ty: ty.clone() };
        if declare {
            cx.u.declare(name, sym.clone());
        }
        return Ok(sym);
    };
    // Aggregates with an initializer are zero where it lists nothing.
    let zero_fill = matches!(ty, CType::Array(..) | CType::Struct(_));
    let limit = flat.items.len() + crate::vla::MAX_ZERO_STORES as usize;
    let cells = if zero_fill { crate::structs::cells_choosing(&ty, &flat.unions, limit) } else { Some(Vec::new()) };
    let (base, sym) = match cells {
        None => {
            let (slot, p) = cx.zeroed_array(name, ir, count, span);
            (Base::Ptr(p), Sym::Indirect { slot, ty: ty.clone() })
        }
        Some(_) => {
            let local = cx.b.local(name.to_string(), ir, count);
            (Base::Local(local), Sym::Local { local, ty: ty.clone() })
        }
    };
    if declare {
        cx.u.declare(name, sym.clone());
    }
    for (&offset, (ity, item)) in &flat.items {
        match item {
            InitItem::Expr(e) if matches!(ity, CType::Struct(_)) => {
                let v = cx.rvalue(e)?;
                let dst = base_ptr(cx, base, span);
                let loc = cx.loc(span);
                let dst = cx.offset_ptr(dst, offset, loc);
                cx.copy_struct_value(dst, ity, v, e.span)?;
            }
            InitItem::Expr(e) => {
                let v = cx.rvalue(e)?;
                let v = cx.convert(v, ity, e.span, Conv::Implicit)?.op;
                // The store is located at the variable, like any store to it.
                store_at(cx, base, ity.ir().unwrap_or(Type::I64), offset, v, span);
            }
            InitItem::Const(bits) => {
                let t = ity.ir().unwrap_or(Type::I8);
                store_at(cx, base, t, offset, Operand::Const(t, bits & t.mask()), span);
            }
        }
    }
    for (offset, t) in cells.unwrap_or_default() {
        if !flat.covers(offset) {
            store_at(cx, base, t, offset, Operand::Const(t, 0), span);
        }
    }
    // Bit-fields are merged into their bytes, zero by now.
    for (&bit, (width, ity, e)) in &flat.bitfields {
        let v = cx.rvalue(e)?;
        let v = cx.convert(v, ity, e.span, Conv::Implicit)?;
        let loc = cx.loc(span);
        let p = base_ptr(cx, base, span);
        let ptr = cx.offset_ptr(p, bit / 8, loc);
        let lv = LVal { ptr, ty: ity.clone(), bits: Some(((bit % 8) as u32, *width)) };
        cx.bitfield_store(&lv, v.op, span);
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

fn base_ptr(cx: &mut FnCtx<'_, '_>, base: Base, span: Span) -> Operand {
    let loc = cx.loc(span);
    match base {
        Base::Local(local) => cx.b.addr_local(local, loc),
        Base::Ptr(p) => p,
    }
}

/// Stores `value` of type `ty` at byte `offset` of the object.
fn store_at(cx: &mut FnCtx<'_, '_>, base: Base, ty: Type, offset: u64, value: Operand, span: Span) {
    let loc = cx.loc(span);
    let base = base_ptr(cx, base, span);
    let ptr = cx.offset_ptr(base, offset, loc);
    cx.b.store(ty, ptr, value, loc);
}

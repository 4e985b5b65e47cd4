//! Storage allocated when a declaration runs: variable-length arrays and
//! large arrays with an initializer.
//!
//! A block-scope array whose size is not a constant (`int a[n];`, also
//! `int a[n][4]`) gets, each time its declaration runs: its element count
//! evaluated once into a slot `a.len` (C11 6.7.6.2p5: later changes of `n`
//! do not resize it, and `sizeof a` reads the slot), storage from an IR
//! `alloca` of `len * inner elements` scalars, and a pointer slot `a` that
//! uses of the variable load ([`Sym::Indirect`]). The storage lives until
//! the function returns, which C allows. Any dimension may vary
//! (`int m[rows][cols]`): each varying one gets a slot of its own, which
//! the array's type carries, so that `m[i]` strides by the row size read
//! from it and `sizeof m[i]` is computed from it.
//!
//! A constant-size array with an initializer is zero-filled by stores, one
//! per element not listed. Above [`MAX_ZERO_STORES`] such elements, the
//! array's storage comes from an `alloca` instead: fresh storage reads as
//! zero, which fills the array at no cost per element, also when the
//! declaration runs again in a loop.

use lang_c::ast::{Expression, InitDeclarator};
use lang_c::span::{Node, Span};
use pathwise_ir::{BinOp, CmpOp, InstKind, Operand, Type};

use crate::ctypes::{CType, IntKind};
use crate::expr::Val;
use crate::func::FnCtx;
use crate::typespec;
use crate::unit::{Ctx, LResult, Sym};

/// The engine's assumption (`pathwise.h`'s `pathwise_assume`).
const ASSUME: &str = "pathwise_assume";
/// The engine's length tie (`pathwise.h`'s `pathwise_array_len`).
const ARRAY_LEN: &str = "pathwise_array_len";

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

    /// Declares the array `name` of type `ty`, some of whose dimensions
    /// vary (`int a[n]`, `int m[rows][cols]`, `int b[4][n]`), declared by
    /// `id`. Every varying dimension is evaluated once, outermost first,
    /// into a slot of its own (`name.len`, `name.len1`, ...), which the
    /// type then carries: `m[i]` strides by `cols` read from its slot, and
    /// `sizeof` multiplies the slots.
    pub fn vla_var(&mut self, name: &str, ty: &CType, id: &Node<InitDeclarator>, span: Span) -> LResult<()> {
        if id.node.initializer.is_some() {
            return Err(self.u.invalid(span, "variable-sized object may not be initialized"));
        }
        let mut scalar = ty;
        while let CType::Array(e, _) | CType::Vla(e, _) = scalar {
            scalar = e;
        }
        if scalar.has_struct() && scalar.mem_size().is_none() {
            return Err(crate::structs::incomplete(self, span, scalar));
        }
        // Elements containing structures are bytes (`CType::storage`).
        let Some((ir, per)) = scalar.storage() else {
            return Err(self.u.unsupported(span, "variable-length arrays of an incomplete type"));
        };
        let sizes = typespec::array_sizes(&id.node.declarator);
        let ty = match ty {
            // `typeof(a) b;` shares the lengths of `a`.
            CType::Vla(_, Some(_)) => ty.clone(),
            _ => self.bind_lengths(name, ty, &sizes, 0, span)?,
        };
        let loc = self.loc(span);
        let elems = self.runtime_count(&ty, loc);
        let count = self.b.bin(BinOp::Mul, Type::I64, elems, Operand::Const(Type::I64, per), loc);
        let slot = self.alloca_var(name, ir, count, span);
        self.u.declare(name, Sym::Indirect { slot, ty });
        Ok(())
    }

    /// The type of a pointer `name` to a variable-length array `pointee`
    /// declared by `d` (`int (*row)[n]`), the lengths evaluated into slots.
    pub fn vla_pointer(
        &mut self,
        name: &str,
        pointee: &CType,
        d: &Node<lang_c::ast::Declarator>,
        span: Span,
    ) -> LResult<CType> {
        let sizes = typespec::pointee_array_sizes(d);
        Ok(CType::ptr_to(self.bind_lengths(name, pointee, &sizes, 0, span)?))
    }

    /// The type of parameter `name` declared by `d`, a pointer to `rows`
    /// whose varying lengths are evaluated into slots: `int m[n][k]` (the
    /// first size is the adjusted-away array's) or `int (*m)[k]`.
    pub fn vla_param(
        &mut self,
        name: &str,
        rows: &CType,
        d: &Node<lang_c::ast::Declarator>,
        span: Span,
    ) -> LResult<CType> {
        let all = typespec::array_sizes(d);
        let (outer, sizes) = match all.split_first() {
            Some((outer, rest)) => (*outer, rest.to_vec()),
            None => (None, typespec::pointee_array_sizes(d)),
        };
        let bound = self.bind_lengths(name, rows, &sizes, 0, span)?;
        self.assume_positive_lengths(&bound, span);
        if let Some(outer) = outer {
            self.tie_rows(name, outer, &bound, span)?;
        }
        Ok(CType::ptr_to(bound))
    }

    /// `int a[n][m]` passes an array of `n` rows: its input array has `n *
    /// m` elements, as the caller's declaration says, tied as
    /// `pathwise_array_len` ties it (reading past row `n - 1` is then an
    /// out-of-bounds error, and `n`, `m` cannot be so large that the
    /// offsets wrap). Rows of structures are left free.
    fn tie_rows(&mut self, name: &str, outer: &Node<Expression>, rows: &CType, span: Span) -> LResult<()> {
        let Some(Sym::Local { local, .. }) = self.u.lookup(name).cloned() else { return Ok(()) };
        let loc = self.loc(span);
        let mut total = self.vla_length(outer)?;
        let mut t = rows;
        loop {
            let factor = match t {
                CType::Array(_, Some(n)) => Operand::Const(Type::I64, *n),
                CType::Vla(_, Some(slot)) => {
                    let at = self.b.addr_local(*slot, loc);
                    self.b.load(Type::I64, at, loc)
                }
                CType::Int(_) => break,
                _ => return Ok(()),
            };
            total = self.b.bin(BinOp::Mul, Type::I64, total, factor, loc);
            let (CType::Array(e, _) | CType::Vla(e, _)) = t else { unreachable!("matched above") };
            t = e;
        }
        let at = self.b.addr_local(local, loc);
        let base = self.b.load(Type::Ptr, at, loc);
        let params = vec![CType::ptr_to(CType::Void), CType::Int(IntKind::Long)];
        self.call_engine_model(ARRAY_LEN, params, vec![base, total], span);
        Ok(())
    }

    /// A caller passes a variable-length array parameter's lengths greater
    /// than zero (C11 6.7.6.2p5: the size expressions must be positive when
    /// evaluated, on entry): inputs that are not are the caller's undefined
    /// behaviour, not the function's, so the engine assumes they are (a
    /// `pathwise_assume` the front end adds; natively nothing runs).
    /// Without it, `int a[n][m]` with `m < 0` made `a[1][0]` a read before
    /// the array.
    fn assume_positive_lengths(&mut self, ty: &CType, span: Span) {
        let loc = self.loc(span);
        let mut t = ty;
        while let CType::Array(e, _) | CType::Vla(e, _) = t {
            if let CType::Vla(_, Some(slot)) = t {
                let at = self.b.addr_local(*slot, loc);
                let n = self.b.load(Type::I64, at, loc);
                let positive = self.b.cmp(CmpOp::Sgt, Type::I64, n, Operand::Const(Type::I64, 0), loc);
                let flag = self.b.cast(false, Type::I1, Type::I32, positive, loc);
                self.call_engine_model(ASSUME, vec![CType::Int(IntKind::Int)], vec![flag], span);
            }
            t = e;
        }
    }

    /// `ty` with each varying dimension's length evaluated (from `sizes`,
    /// the declarator's array sizes, outermost first, `level` the index of
    /// `ty`'s own) into a new slot.
    fn bind_lengths(
        &mut self,
        name: &str,
        ty: &CType,
        sizes: &[Option<&Node<Expression>>],
        level: usize,
        span: Span,
    ) -> LResult<CType> {
        match ty {
            CType::Array(e, n) => Ok(CType::Array(Box::new(self.bind_lengths(name, e, sizes, level + 1, span)?), *n)),
            CType::Vla(e, slot) => {
                let slot = match slot {
                    Some(slot) => *slot,
                    None => {
                        let Some(Some(size)) = sizes.get(level) else {
                            return Err(self.u.unsupported(span, "this variable-length array declarator"));
                        };
                        let n = self.vla_length(size)?;
                        let loc = self.loc(span);
                        let suffix = if level == 0 { String::new() } else { level.to_string() };
                        let slot = self.b.local(format!("{name}.len{suffix}"), Type::I64, 1);
                        let at = self.b.addr_local(slot, loc);
                        self.b.store(Type::I64, at, n, loc);
                        slot
                    }
                };
                let inner = self.bind_lengths(name, e, sizes, level + 1, span)?;
                Ok(CType::Vla(Box::new(inner), Some(slot)))
            }
            t => Ok(t.clone()),
        }
    }

    /// The number of innermost elements of an array type whose varying
    /// lengths are in slots, as an `i64` (1 for a non-array).
    fn runtime_count(&mut self, ty: &CType, loc: pathwise_ir::Loc) -> Operand {
        let (n, inner) = match ty {
            CType::Array(e, n) => (Operand::Const(Type::I64, n.unwrap_or(0)), e),
            CType::Vla(e, Some(slot)) => {
                let at = self.b.addr_local(*slot, loc);
                (self.b.load(Type::I64, at, loc), e)
            }
            _ => return Operand::Const(Type::I64, 1),
        };
        let m = self.runtime_count(inner, loc);
        match (n, m) {
            (n, Operand::Const(_, 1)) => n,
            (Operand::Const(_, a), Operand::Const(_, b)) => Operand::Const(Type::I64, a.wrapping_mul(b)),
            (n, m) => self.b.bin(BinOp::Mul, Type::I64, n, m, loc),
        }
    }

    /// The size in bytes of `ty`, some of whose lengths may be in slots, as
    /// an `i64`: C's `sizeof` when `c_sizeof`, else the IR memory layout's
    /// size (what pointer arithmetic strides by; they differ for pointers
    /// under ILP32). `None` when a length is unknown or the type incomplete.
    pub fn runtime_size(&mut self, ty: &CType, c_sizeof: bool, loc: pathwise_ir::Loc) -> Option<Operand> {
        let model = self.u.model;
        if !ty.has_vla() {
            let n = if c_sizeof { ty.sizeof(model) } else { ty.mem_size() }?;
            return Some(Operand::Const(Type::I64, n));
        }
        let (n, inner) = match ty {
            CType::Array(e, Some(n)) => (Operand::Const(Type::I64, *n), e),
            CType::Vla(e, Some(slot)) => {
                let at = self.b.addr_local(*slot, loc);
                (self.b.load(Type::I64, at, loc), e)
            }
            _ => return None,
        };
        let m = self.runtime_size(inner, c_sizeof, loc)?;
        Some(self.b.bin(BinOp::Mul, Type::I64, n, m, loc))
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
        let loc = self.loc(e.span);
        // `sizeof(int[n][m])` evaluates `n` and `m` (into slots of their own).
        let ty = match declarator {
            Some(d) if !matches!(ty, CType::Vla(_, Some(_))) => {
                let sizes = typespec::array_sizes(d);
                let name = format!("sizeof.{}", self.b.locals.len());
                self.bind_lengths(&name, &ty, &sizes, 0, e.span)?
            }
            _ => ty,
        };
        let Some(bytes) = self.runtime_size(&ty, true, loc) else {
            return Err(self.u.unsupported(e.span, "this operand of sizeof"));
        };
        let k = self.u.model.size_t();
        Ok(Val { op: self.int_conv(bytes, IntKind::ULongLong, k, loc), ty: CType::Int(k) })
    }
}

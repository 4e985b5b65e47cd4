//! Models of C library functions on memory: `malloc`, `calloc`, `realloc`,
//! `free`, `memset`, `memcpy`/`memmove` (the string functions are in
//! [`crate::strings`]).
//!
//! Allocation sizes may be symbolic: the object has this run's number of
//! bytes, and keeps the size's expression, against which every access is
//! checked (an out-of-bounds error when it can exceed it), so that
//! `p = malloc(n); if (n > 4) ...` keeps both sides. Lengths of `memset`
//! and `memcpy`/`memmove` are fixed to this run's value by a guard (the
//! bytes they write would otherwise depend on the length), except a length
//! that is the destination's whole symbolic size (`memset(p, 0, n)` after
//! `p = malloc(n)`), which writes every byte whatever it is. `realloc`
//! keeps a growing size symbolic and fixes a shrinking one. Allocation
//! never fails. `malloc`'d bytes read as zero until
//! written (what the emitted test cannot rely on natively, so output checks
//! only cover written cells); they are also marked uninitialised, and
//! `memcpy`/`memmove`/`realloc` copy that state byte by byte, so that
//! copying indeterminate bytes (padding, unset fields) is never an error
//! while the program's own read of them is (see [`crate::memcheck`]).

use pathwise_expr::{BvCmp, ExprId};
use pathwise_ir::{Loc, Type};

use crate::exec::Exec;
use crate::memory::ObjKind;
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::{ObjId, Pointer, Value};

/// Largest single allocation modelled (bytes).
const MAX_ALLOC: u64 = 1 << 28;

/// The library functions modelled here.
pub const LIBC: &[&str] = &[
    "malloc", "calloc", "realloc", "free", "memset", "memcpy", "memmove", "strlen", "strcmp", "strncmp", "memcmp",
    "strcpy", "strncpy", "strchr",
];

impl Exec<'_, '_> {
    /// Call a modelled library function (`None`: not one of [`LIBC`]).
    pub(crate) fn libc_call(
        &mut self,
        name: &str,
        ret: Option<Type>,
        args: &[Value],
        loc: Loc,
    ) -> Option<Result<Option<Value>, End>> {
        if crate::strings::STRINGS.contains(&name) {
            return self.string_call(name, ret, args, loc);
        }
        let arg = |i: usize| args.get(i).copied().unwrap_or(Value::int(0));
        Some(match name {
            "malloc" => self.alloc_size(arg(0), loc).map(|n| Some(self.allocate(n, loc, true))),
            "calloc" => {
                let n = self.alloc_size(arg(0), loc).and_then(|a| {
                    let b = self.alloc_size(arg(1), loc)?;
                    let sym = match (a.1, b.1) {
                        (None, None) => None,
                        _ => {
                            let (ea, eb) = (self.size_expr(a), self.size_expr(b));
                            Some(self.pool.bin(pathwise_expr::BvOp::Mul, ea, eb))
                        }
                    };
                    let n = (a.0.saturating_mul(b.0), sym);
                    self.size_limit(n, loc)?;
                    Ok(n)
                });
                n.map(|n| Some(self.allocate(n, loc, false)))
            }
            "realloc" => self.realloc(arg(0).as_ptr(), arg(1), loc).map(Some),
            "free" => self.free(arg(0).as_ptr(), loc).map(|_| None),
            "memset" => {
                let (d, c) = (arg(0), arg(1));
                let byte = Value::Int { conc: c.conc() & 0xff, sym: None };
                let byte = match c.sym() {
                    Some(e) => {
                        let e = crate::value::bv_of(self.pool, c.conc(), Some(e), 32);
                        let b = self.pool.extract(e, 7, 0);
                        Value::Int { conc: byte.conc(), sym: crate::value::non_const(self.pool, b) }
                    }
                    None => byte,
                };
                self.copy_len(arg(2), d.as_ptr(), loc)
                    .map(|n| n.0)
                    .and_then(|n| {
                        for i in 0..n {
                            self.store_at(d.as_ptr(), i, Type::I8, byte, loc)?;
                        }
                        Ok(())
                    })
                    .map(|_| Some(d))
            }
            "memcpy" | "memmove" => {
                let (d, s) = (arg(0), arg(1));
                let n = self.copy_len(arg(2), d.as_ptr(), loc).and_then(|n| {
                    if let Some(e) = n.1 {
                        self.check_range(s.as_ptr(), e, n.0, loc)?;
                    }
                    Ok(n.0)
                });
                n.and_then(|n| self.copy(d.as_ptr(), s.as_ptr(), n, loc)).map(|_| Some(d))
            }
            _ => return None,
        })
    }

    /// A size argument's value in this run, fixed by a guard when symbolic.
    pub(crate) fn concrete_size(&mut self, v: Value, loc: Loc) -> Result<u64, End> {
        if let Some(e) = v.sym() {
            self.concretise(e, v.conc(), loc);
        }
        if v.conc() > MAX_ALLOC {
            let message = format!("allocation or copy of {} bytes (more than modelled)", v.conc() as i64);
            return Err(self.error(ErrorKind::Unsupported, message, loc));
        }
        Ok(v.conc())
    }

    /// An allocation size: this run's value and, when symbolic, its 64-bit
    /// expression (kept within what is modelled by a guard).
    fn alloc_size(&mut self, v: Value, loc: Loc) -> Result<(u64, Option<ExprId>), End> {
        let sym = v.sym().filter(|_| self.symbolic).map(|_| crate::value::bv_of(self.pool, v.conc(), v.sym(), 64));
        let n = (v.conc(), sym);
        self.size_limit(n, loc)?;
        Ok(n)
    }

    /// A size beyond [`MAX_ALLOC`] is unsupported; a symbolic one is kept
    /// below it.
    fn size_limit(&mut self, (conc, sym): (u64, Option<ExprId>), loc: Loc) -> Result<(), End> {
        if conc > MAX_ALLOC {
            let message = format!("allocation of {} bytes (more than modelled)", conc as i64);
            return Err(self.error(ErrorKind::Unsupported, message, loc));
        }
        if let Some(e) = sym {
            let max = self.pool.bv_const(64, MAX_ALLOC);
            let ok = self.pool.cmp(BvCmp::Ule, e, max);
            self.guard(ok, loc);
        }
        Ok(())
    }

    fn size_expr(&mut self, (conc, sym): (u64, Option<ExprId>)) -> ExprId {
        sym.unwrap_or_else(|| self.pool.bv_const(64, conc))
    }

    fn allocate(&mut self, (n, sym): (u64, Option<ExprId>), loc: Loc, uninit: bool) -> Value {
        let o = self.mem.alloc_heap(n, loc, uninit);
        self.mem.object_mut(o).size_sym = sym.and_then(|e| crate::value::non_const(self.pool, e));
        Value::Ptr(Pointer { obj: Some(o), off: 0, off_sym: None, base_sym: None, path: 0 })
    }

    /// The length of a `memset` or `memcpy` into `d`: fixed by a guard
    /// unless it is `d`'s whole symbolic size (then with its expression, and
    /// the writes need no bounds checks: their number must not change the
    /// path's checks).
    fn copy_len(&mut self, v: Value, d: Pointer, loc: Loc) -> Result<(u64, Option<ExprId>), End> {
        if let (Some(_), Some(o), 0, None, true) = (v.sym(), d.obj, d.off, d.off_sym, self.symbolic) {
            let e = crate::value::bv_of(self.pool, v.conc(), v.sym(), 64);
            if self.mem.object(o).size_sym == Some(e) {
                let m = self.sized_upto.entry(o).or_insert(0);
                *m = (*m).max(v.conc());
                return Ok((v.conc(), Some(e)));
            }
        }
        Ok((self.concrete_size(v, loc)?, None))
    }

    /// One bounds check for the `len` bytes (`n` in this run) from `p`, in
    /// an object of symbolic size, instead of one per byte.
    fn check_range(&mut self, p: Pointer, len: ExprId, n: u64, loc: Loc) -> Result<(), End> {
        let Some(o) = p.obj else { return Ok(()) };
        let Some(size) = self.mem.object(o).size_sym else { return Ok(()) };
        let conc_size = self.mem.object(o).size_bytes();
        let message =
            format!("out-of-bounds access of {n} bytes at byte offset {} of a {conc_size}-byte object", p.off);
        self.within_size(&p, o, size, (len, n), &message, loc)
    }

    /// Bounds of a `ty` access at `p` into `obj`, whose size is the
    /// expression `size`: the access must end within it. Concrete offsets
    /// already checked are not checked again.
    pub(crate) fn sized_bounds(
        &mut self,
        p: &Pointer,
        obj: ObjId,
        size: ExprId,
        ty: Type,
        loc: Loc,
    ) -> Result<(), End> {
        let end = p.off.wrapping_add(ty.bytes());
        if p.off_sym.is_none() && (p.off as i64) >= 0 && self.sized_upto.get(&obj).is_some_and(|&m| end <= m) {
            return Ok(());
        }
        let conc_size = self.mem.object(obj).size_bytes();
        let message = format!("out-of-bounds access at byte offset {} of a {conc_size}-byte object", p.off as i64);
        let w = self.pool.bv_const(64, ty.bytes());
        self.within_size(p, obj, size, (w, ty.bytes()), &message, loc)
    }

    /// The check that the `len` bytes (`n` in this run) from `p` lie within
    /// the `size` bytes of `obj`; an error with `message` when they do not.
    fn within_size(
        &mut self,
        p: &Pointer,
        obj: ObjId,
        size: ExprId,
        (len, n): (ExprId, u64),
        message: &str,
        loc: Loc,
    ) -> Result<(), End> {
        let off = crate::value::bv_of(self.pool, p.off, p.off_sym, 64);
        let end = self.pool.bin(pathwise_expr::BvOp::Add, off, len);
        // `off <= size` rules out offsets below the object (wrapped around).
        let starts = self.pool.cmp(BvCmp::Ule, off, size);
        let ends = self.pool.cmp(BvCmp::Ule, end, size);
        let ok = self.pool.and(starts, ends);
        let holds = (p.off as i64) >= 0 && p.off.saturating_add(n) <= self.mem.object(obj).size_bytes();
        self.check_defined(ok, holds, (ErrorKind::OutOfBounds, message), loc)?;
        if p.off_sym.is_none() {
            let m = self.sized_upto.entry(obj).or_insert(0);
            *m = (*m).max(p.off.saturating_add(n));
        }
        Ok(())
    }

    fn free(&mut self, p: Pointer, loc: Loc) -> Result<(), End> {
        self.check_nonnull_sym(&p, loc)?;
        let Some(o) = p.obj else { return Ok(()) };
        let obj = self.mem.object(o);
        let heap = matches!(obj.kind, ObjKind::Heap | ObjKind::HeapInput { .. });
        if obj.freed {
            return Err(self.error(ErrorKind::InvalidFree, "double free", loc));
        }
        if !heap || p.off != 0 {
            let message =
                if heap { "free of a pointer into the middle of an object" } else { "free of memory not from malloc" };
            return Err(self.error(ErrorKind::InvalidFree, message, loc));
        }
        self.mem.object_mut(o).freed = true;
        Ok(())
    }

    /// `free(p)` with `p` possibly null by the inputs: no null check, but the
    /// choice between null and an object stays the path's.
    fn check_nonnull_sym(&mut self, p: &Pointer, loc: Loc) -> Result<(), End> {
        let Some(r) = p.base_sym else { return Ok(()) };
        let zero = self.pool.bv_const(32, 0);
        let is_null = self.pool.eq(r, zero);
        let cond = if p.obj.is_some() { self.pool.not(is_null) } else { is_null };
        self.guard(cond, loc);
        Ok(())
    }

    /// `realloc(p, size)`: a new object with the old bytes that fit. A size
    /// at least the old one stays symbolic (the path only requires it to
    /// be at least that); a smaller one is fixed, as the bytes copied depend
    /// on it, and so is the old object's symbolic size.
    fn realloc(&mut self, p: Pointer, size: Value, loc: Loc) -> Result<Value, End> {
        let mut n = self.alloc_size(size, loc)?;
        if let Some(o) = p.obj {
            let old = self.mem.object(o).size_bytes();
            if let Some(e) = self.mem.object(o).size_sym {
                self.concretise(e, old, loc);
            }
            if let (Some(e), true) = (n.1, n.0 >= old) {
                let k = self.pool.bv_const(64, old);
                let grows = self.pool.cmp(BvCmp::Ule, k, e);
                self.guard(grows, loc);
            } else if n.1.is_some() {
                n = (self.concrete_size(size, loc)?, None);
            }
        }
        let new = self.allocate(n, loc, true);
        if let Some(o) = p.obj {
            let old = self.mem.object(o).size_bytes();
            self.copy(new.as_ptr(), p, old.min(n.0), loc)?;
        }
        self.free(p, loc)?;
        Ok(new)
    }

    /// Copy `n` bytes, scalar by scalar where the source holds typed cells
    /// (pointers included), byte by byte elsewhere. An uninitialised source
    /// byte (which has no cell) leaves the destination byte uninitialised:
    /// the store still checks the access, then the mark replaces it.
    fn copy(&mut self, d: Pointer, s: Pointer, n: u64, loc: Loc) -> Result<(), End> {
        let mut i = 0;
        while i < n {
            let ty = match s.obj {
                Some(o) => {
                    self.cell_type_at(o, s.off.wrapping_add(i)).filter(|t| i + t.bytes() <= n).unwrap_or(Type::I8)
                }
                None => Type::I8,
            };
            let v = self.load_at(s, i, ty, loc)?;
            self.store_at(d, i, ty, v, loc)?;
            let src_uninit = s.obj.is_some_and(|o| self.mem.object(o).uninit_bytes(s.off.wrapping_add(i), 1) > 0);
            if let (true, Some(o)) = (src_uninit, d.obj) {
                self.mem.mark_uninit(self.pool, o, d.off.wrapping_add(i));
            }
            i += ty.bytes();
        }
        Ok(())
    }

    /// The type of the scalar starting at `off` of object `o`, from its
    /// cells or (input objects) its C type.
    fn cell_type_at(&self, o: crate::value::ObjId, off: u64) -> Option<Type> {
        let obj = self.mem.object(o);
        if let Some(t) = obj.cell_type_at(off) {
            return Some(t);
        }
        if obj.input.is_some() {
            return Some(obj.elem);
        }
        let cty = obj.cty.as_ref()?;
        let es = cty.size(&self.m.program.structs).max(1);
        let at = cty.scalar_at(&self.m.program.structs, off % es)?;
        (at.offset == off % es).then_some(at.ty)
    }

    fn load_at(&mut self, p: Pointer, i: u64, ty: Type, loc: Loc) -> Result<Value, End> {
        let q = Pointer { off: p.off.wrapping_add(i), off_sym: None, ..p };
        self.load(&q, ty, loc)
    }

    fn store_at(&mut self, p: Pointer, i: u64, ty: Type, v: Value, loc: Loc) -> Result<(), End> {
        let q = Pointer { off: p.off.wrapping_add(i), off_sym: None, ..p };
        self.store(&q, ty, v, loc)
    }
}

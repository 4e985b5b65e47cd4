//! Heap storage and bulk memory operations of the interpreter: allocation
//! with possibly symbolic sizes, `free`, and the byte copies and fills
//! behind `memcpy`/`memset`. These are memory-model operations (they see
//! typed cells, uninitialised ranges and symbolic sizes), which the library
//! models in [`crate::libc`] reach only through their host interface.
//!
//! Allocation sizes may be symbolic: the object has this run's number of
//! bytes, and keeps the size's expression, against which every access is
//! checked (an out-of-bounds error when it can exceed it), so that
//! `p = malloc(n); if (n > 4) ...` keeps both sides. Lengths of fills and
//! copies are fixed to this run's value by a guard (the bytes they write
//! would otherwise depend on the length), after a check of the room their
//! objects have (`fits_object`: an error search solves for a length that
//! overflows a fixed buffer; a length no object can hold is an error at
//! once, not a million-byte walk), except a length that is the
//! destination's whole symbolic size (`memset(p, 0, n)` after
//! `p = malloc(n)`), which writes every byte whatever it is. Allocation
//! never fails. `malloc`'d bytes read as zero until written (what the
//! emitted test cannot rely on natively, so output checks only cover
//! written cells); they are also marked uninitialised, and copies carry
//! that state byte by byte, so that copying indeterminate bytes (padding,
//! unset fields) is never an error while the program's own read of them is
//! (see [`crate::memcheck`]).

use pathwise_expr::{BvCmp, BvOp, ExprId};
use pathwise_ir::{Loc, Type};

use crate::exec::Exec;
use crate::memory::ObjKind;
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::{ObjId, Pointer, Value};

/// Largest single allocation modelled (bytes).
pub(crate) const MAX_ALLOC: u64 = 1 << 28;

/// A size: this run's value and, when symbolic, its 64-bit expression.
pub(crate) type Size = (u64, Option<ExprId>);

impl Exec<'_, '_> {
    /// A copy's or fill's length in this run, fixed by a guard when
    /// symbolic.
    fn concrete_len(&mut self, v: Value, loc: Loc) -> Result<u64, End> {
        if let Some(e) = v.sym() {
            self.concretise(e, v.conc(), loc);
        }
        if v.conc() > MAX_ALLOC {
            let message = format!("copy of {} bytes at an unknown offset (more than modelled)", v.conc());
            return Err(self.error(ErrorKind::Unsupported, message, loc));
        }
        Ok(v.conc())
    }

    /// A copy or fill of `n` bytes at `p` (`what`: "from", "into") that
    /// cannot fit its object, however long it may be (an input array
    /// grown as far as it can be), is an out-of-bounds error at once, as
    /// natively: `memcpy(d, s, cap - 1)` with `cap == 0` copies 2^64 - 1
    /// bytes, which byte by byte would read a million bytes of a growing
    /// input first. Null pointers and symbolic offsets are left to the
    /// accesses.
    ///
    /// A symbolic length into (or from) an object of fixed size is checked
    /// against the room there is before it is fixed to this run's value,
    /// so that the error search solves for a length that overflows it
    /// (`memcpy(buf, s, n)` with `n > sizeof buf`, the classic overflow).
    fn fits_object(&mut self, p: Pointer, n: Value, what: &str, loc: Loc) -> Result<(), End> {
        let (Some(o), None) = (p.obj, p.off_sym) else { return Ok(()) };
        let obj = self.mem.object(o);
        let (size, fixed) = (obj.size_bytes(), obj.input.is_none() && obj.size_sym.is_none());
        let longest = match obj.input {
            Some(_) => size.max(self.m.config.max_grown_array_len.saturating_mul(obj.elem.bytes().max(1))),
            None => size,
        };
        let start = (p.off as i64) >= 0 && p.off <= size;
        // Nothing copied touches nothing, wherever the pointer is.
        let holds = n.conc() == 0 || (start && p.off.saturating_add(n.conc()) <= longest);
        let message = || {
            format!(
                "out-of-bounds access: {} bytes {what} byte offset {} of a {size}-byte object",
                n.conc(),
                p.off as i64
            )
        };
        if let (Some(_), true, true) = (n.sym(), fixed && self.symbolic, start) {
            let e = crate::value::bv_of(self.pool, n.conc(), n.sym(), 64);
            let room = self.pool.bv_const(64, size - p.off);
            let ok = self.pool.cmp(BvCmp::Ule, e, room);
            return self.check_defined(ok, holds, (ErrorKind::OutOfBounds, &message()), loc);
        }
        if holds {
            return Ok(());
        }
        Err(self.error(ErrorKind::OutOfBounds, message(), loc))
    }

    /// `count` elements of `size` bytes of fresh heap storage (`zeroed`:
    /// `calloc`'s, else indeterminate). Symbolic operands stay symbolic,
    /// each kept within what is modelled by a guard (so that their 64-bit
    /// product cannot wrap around).
    pub(crate) fn heap_alloc(&mut self, count: Value, size: Value, zeroed: bool, loc: Loc) -> Result<Pointer, End> {
        let a = self.alloc_size(count, loc)?;
        let b = self.alloc_size(size, loc)?;
        let n = match (a, b) {
            ((1, None), b) => b,
            (a, (1, None)) => a,
            (a, b) => {
                let sym = match (a.1, b.1) {
                    (None, None) => None,
                    _ => {
                        let (ea, eb) = (self.size_expr(a), self.size_expr(b));
                        Some(self.pool.bin(BvOp::Mul, ea, eb))
                    }
                };
                let n = (a.0.saturating_mul(b.0), sym);
                self.size_limit(n, loc)?;
                n
            }
        };
        Ok(self.allocate(n, loc, !zeroed))
    }

    /// An allocation size: this run's value and, when symbolic, its 64-bit
    /// expression (kept within what is modelled by a guard).
    fn alloc_size(&mut self, v: Value, loc: Loc) -> Result<Size, End> {
        let sym = v.sym().filter(|_| self.symbolic).map(|_| crate::value::bv_of(self.pool, v.conc(), v.sym(), 64));
        let n = (v.conc(), sym);
        self.size_limit(n, loc)?;
        Ok(n)
    }

    /// A size beyond [`MAX_ALLOC`] is unsupported; a symbolic one is kept
    /// below it.
    fn size_limit(&mut self, (conc, sym): Size, loc: Loc) -> Result<(), End> {
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

    fn size_expr(&mut self, (conc, sym): Size) -> ExprId {
        sym.unwrap_or_else(|| self.pool.bv_const(64, conc))
    }

    fn allocate(&mut self, (n, sym): Size, loc: Loc, uninit: bool) -> Pointer {
        let o = self.mem.alloc_heap(n, loc, uninit);
        self.note_allocated(o);
        let sym = sym.and_then(|e| crate::value::non_const(self.pool, e));
        self.mem.object_mut(o).size_sym = sym;
        self.extensions(|e, _| {
            e.allocation(n, sym);
            None::<()>
        });
        Pointer { obj: Some(o), off: 0, off_sym: None, base_sym: None, path: 0 }
    }

    /// The size in bytes of the heap object `p` points to (this run's: a
    /// symbolic size is fixed by a guard, since the caller's bytes depend
    /// on it); `None` for a null pointer.
    pub(crate) fn heap_object_size(&mut self, p: Pointer, loc: Loc) -> Option<u64> {
        let o = p.obj?;
        let size = self.mem.object(o).size_bytes();
        if let Some(e) = self.mem.object(o).size_sym {
            self.concretise(e, size, loc);
        }
        Some(size)
    }

    /// The length of a fill or copy into `d`: fixed by a guard unless it is
    /// `d`'s whole symbolic size (then with its expression, and the writes
    /// need no bounds checks: their number must not change the path's
    /// checks).
    fn copy_len(&mut self, v: Value, d: Pointer, loc: Loc) -> Result<Size, End> {
        if let (Some(_), Some(o), 0, None, true) = (v.sym(), d.obj, d.off, d.off_sym, self.symbolic) {
            let e = crate::value::bv_of(self.pool, v.conc(), v.sym(), 64);
            if self.mem.object(o).size_sym == Some(e) {
                let m = self.sized_upto.entry(o).or_insert(0);
                *m = (*m).max(v.conc());
                return Ok((v.conc(), Some(e)));
            }
        }
        self.fits_object(d, v, "into", loc)?;
        Ok((self.concrete_len(v, loc)?, None))
    }

    /// `memset(d, byte, n)`: `n` copies of the low byte of `byte`.
    pub(crate) fn fill(&mut self, d: Pointer, byte: Value, n: Value, loc: Loc) -> Result<(), End> {
        let b = match byte.sym() {
            Some(e) => {
                let e = crate::value::bv_of(self.pool, byte.conc(), Some(e), 32);
                let e8 = if self.pool.width(e) > 8 { self.pool.extract(e, 7, 0) } else { e };
                Value::Int { conc: byte.conc() & 0xff, sym: crate::value::non_const(self.pool, e8) }
            }
            None => Value::int(byte.conc() & 0xff),
        };
        let (n, _) = self.copy_len(n, d, loc)?;
        for i in 0..n {
            self.store_at(d, i, Type::I8, b, loc)?;
        }
        Ok(())
    }

    /// `memcpy(d, s, n)` / `memmove`: the source is read whole before
    /// anything is written, so overlapping ranges copy as `memmove` does.
    pub(crate) fn copy_n(&mut self, d: Pointer, s: Pointer, n: Value, loc: Loc) -> Result<(), End> {
        self.fits_object(s, n, "from", loc)?;
        let (n, sym) = self.copy_len(n, d, loc)?;
        if let Some(e) = sym {
            self.check_range(s, e, n, loc)?;
        }
        self.copy(d, s, n, loc)
    }

    /// Bytes `from..n` of `p` read, as `memcmp` reads its operands whole
    /// (C11 7.24.4.1 compares `n` bytes of each; glibc reads them in
    /// words, ASan checks the whole range) although the result depends on
    /// the bytes up to the first difference only. `n` is checked against
    /// the room from `p` (symbolic for an object of fixed size, as
    /// `memcpy`'s source), then each byte is loaded, so that an input
    /// array grows to it or the read past its end is an error.
    pub(crate) fn read_rest(&mut self, p: Pointer, from: u64, n: Value, loc: Loc) -> Result<(), End> {
        self.fits_object(p, n, "from", loc)?;
        for i in from..n.conc() {
            self.load_at(p, i, Type::I8, loc)?;
        }
        Ok(())
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
        let end = self.pool.bin(BvOp::Add, off, len);
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

    /// `free(p)`: a null pointer is nothing to do; anything but the start
    /// of a live heap object is an error.
    pub(crate) fn release(&mut self, p: Pointer, loc: Loc) -> Result<(), End> {
        self.is_null_kept(&p, loc);
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

    /// Whether `p` is null in this run. A pointer the inputs may make null
    /// (read from an input slot) keeps this run's choice by a guard, as a
    /// library call that tests it does not branch in the program.
    pub(crate) fn is_null_kept(&mut self, p: &Pointer, loc: Loc) -> bool {
        let null = p.obj.is_none() && p.off == 0;
        if self.decide_null_param_in_library(p, loc) {
            return null;
        }
        if let Some(r) = p.base_sym.filter(|&r| !self.is_join_ident(r)) {
            let zero = self.pool.bv_const(32, 0);
            let is_null = self.pool.eq(r, zero);
            let cond = if p.obj.is_some() { self.pool.not(is_null) } else { is_null };
            self.guard(cond, loc);
        }
        null
    }

    /// Copy `n` bytes, scalar by scalar where the source holds typed cells
    /// (pointers included), byte by byte elsewhere. An uninitialised source
    /// byte (which has no cell) leaves the destination byte uninitialised:
    /// the store still checks the access, then the mark replaces it. The
    /// source is read whole first, so overlapping ranges behave as
    /// `memmove` says.
    pub(crate) fn copy(&mut self, d: Pointer, s: Pointer, n: u64, loc: Loc) -> Result<(), End> {
        let mut read = Vec::new();
        let mut i = 0;
        while i < n {
            let ty = match s.obj {
                Some(o) => {
                    self.cell_type_at(o, s.off.wrapping_add(i)).filter(|t| i + t.bytes() <= n).unwrap_or(Type::I8)
                }
                None => Type::I8,
            };
            let v = self.load_at(s, i, ty, loc)?;
            let src_uninit = s.obj.is_some_and(|o| self.mem.object(o).uninit_bytes(s.off.wrapping_add(i), 1) > 0);
            read.push((i, ty, v, src_uninit));
            i += ty.bytes();
        }
        for (i, ty, v, src_uninit) in read {
            self.store_at(d, i, ty, v, loc)?;
            if let (true, Some(o)) = (src_uninit, d.obj) {
                self.mem.mark_uninit(self.pool, o, d.off.wrapping_add(i));
            }
        }
        Ok(())
    }

    /// The type of the scalar starting at `off` of object `o`, from its
    /// cells or (input objects) its C type.
    fn cell_type_at(&self, o: ObjId, off: u64) -> Option<Type> {
        let obj = self.mem.object(o);
        if let Some(t) = obj.cell_type_at(off) {
            return Some(t);
        }
        if obj.input.is_some() {
            return Some(obj.elem);
        }
        obj.cty.as_ref()?;
        let at = self.obj_scalar_at(o, off)?;
        (at.offset == off).then_some(at.ty)
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

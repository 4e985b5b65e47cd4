//! Models of C library functions on memory: `malloc`, `calloc`, `realloc`,
//! `free`, `memset`, `memcpy`/`memmove` (the string functions are in
//! [`crate::strings`]).
//!
//! Sizes are concrete: a symbolic size is fixed to this run's value by a
//! guard (so tests still replay), which keeps objects a fixed number of
//! bytes. Allocation never fails. `malloc`'d bytes read as zero until
//! written (what the emitted test cannot rely on natively, so output checks
//! only cover written cells); they are also marked uninitialised, and
//! `memcpy`/`memmove`/`realloc` copy that state byte by byte, so that
//! copying indeterminate bytes (padding, unset fields) is never an error
//! while the program's own read of them is (see [`crate::memcheck`]).

use pathwise_ir::{Loc, Type};

use crate::exec::Exec;
use crate::memory::ObjKind;
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::{Pointer, Value};

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
            "malloc" => self.concrete_size(arg(0), loc).map(|n| Some(self.allocate(n, loc, true))),
            "calloc" => {
                let n = self
                    .concrete_size(arg(0), loc)
                    .and_then(|a| Ok(a.saturating_mul(self.concrete_size(arg(1), loc)?)));
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
                self.concrete_size(arg(2), loc)
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
                self.concrete_size(arg(2), loc).and_then(|n| self.copy(d.as_ptr(), s.as_ptr(), n, loc)).map(|_| Some(d))
            }
            _ => return None,
        })
    }

    /// A size argument's value in this run, fixed by a guard when symbolic.
    pub(crate) fn concrete_size(&mut self, v: Value, loc: Loc) -> Result<u64, End> {
        if let Some(e) = v.sym() {
            let w = self.pool.width(e);
            let k = self.pool.bv_const(w, v.conc());
            let fixed = self.pool.eq(e, k);
            self.guard(fixed, loc);
        }
        if v.conc() > MAX_ALLOC {
            let message = format!("allocation or copy of {} bytes (more than modelled)", v.conc() as i64);
            return Err(self.error(ErrorKind::Unsupported, message, loc));
        }
        Ok(v.conc())
    }

    fn allocate(&mut self, n: u64, loc: Loc, uninit: bool) -> Value {
        let o = self.mem.alloc_heap(n, loc, uninit);
        Value::Ptr(Pointer { obj: Some(o), off: 0, off_sym: None, base_sym: None, path: 0 })
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

    fn realloc(&mut self, p: Pointer, size: Value, loc: Loc) -> Result<Value, End> {
        let n = self.concrete_size(size, loc)?;
        let new = self.allocate(n, loc, true);
        if let Some(o) = p.obj {
            let old = self.mem.object(o).size_bytes();
            self.copy(new.as_ptr(), p, old.min(n), loc)?;
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

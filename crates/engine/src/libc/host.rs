//! The interpreter as a [`LibcHost`]: the one place where library models
//! meet [`Exec`], so that models depend on the narrow interface only.
//!
//! Each call gets an adaptor located at the call: path entries, errors and
//! concretisations the model causes are reported there. A decision is an
//! [`EntryKind::Library`] entry (kept apart from the program's branches:
//! it has no branch side for coverage) and a step of the function's path;
//! the k bound of byte loops is counted here, as the program's loops are
//! counted in `exec.rs`.

use pathwise_expr::ExprPool;
use pathwise_ir::{Loc, Type};

use super::{ByteLoop, Call, Cond, InputStream, Int, LibcHost, Outcome, Target};
use crate::exec::Exec;
use crate::memory::ObjKind;
use crate::path::{End, EntryKind, Region};
use crate::suite::{ErrorKind, PathStep};
use crate::value::{Pointer, Value};

/// [`LibcHost`] for one call executed by `exec` at `loc`.
struct ExecHost<'e, 'm, 'p> {
    exec: &'e mut Exec<'m, 'p>,
    loc: Loc,
    /// The member its destination may write (see [`LibcHost::limit_writes`]).
    limit: Option<WriteLimit>,
}

/// Writes into `obj` from byte `start` must end by byte `end`.
#[derive(Clone, Copy)]
struct WriteLimit {
    obj: crate::value::ObjId,
    start: u64,
    end: u64,
}

impl Exec<'_, '_> {
    /// Run the library model of `name` (`None`: no model): `ret` is the
    /// declaration's return type.
    pub(crate) fn libc_call(&mut self, name: &str, ret: Option<Type>, args: &[Value], loc: Loc) -> Option<Outcome> {
        let mut host = ExecHost { exec: self, loc, limit: None };
        let outcome = super::call(&mut host, &Call { name, args, ret });
        self.allocation_returned();
        outcome
    }
}

/// The message of a write at byte `at` of an array of `room` bytes that
/// a larger object holds.
fn member_overflow(at: u64, room: u64) -> String {
    format!(
        "out-of-bounds write: byte {at} of an array of {room} bytes inside a larger object \
         (a structure member or an array row; the bytes after it are not the array's)"
    )
}

impl ExecHost<'_, '_, '_> {
    /// The check of a write of `n` bytes (`len` symbolically) at `p`
    /// against the limit: the call writes through its destination only,
    /// from the member's start on.
    fn within_limit(&mut self, p: Pointer, n: u64, len: Option<pathwise_expr::ExprId>) -> Result<(), End> {
        let Some(l) = self.limit else { return Ok(()) };
        // (Offsets are this run's: the models pin their pointers.)
        if p.obj != Some(l.obj) || p.off < l.start {
            return Ok(());
        }
        if p.off >= l.end {
            let message = member_overflow(p.off - l.start, l.end - l.start);
            return Err(self.error(ErrorKind::OutOfBounds, message));
        }
        let (room, at) = (l.end - l.start, p.off - l.start);
        let message = member_overflow(at + n.max(1) - 1, room);
        let Some(len) = len else {
            return if p.off + n <= l.end { Ok(()) } else { Err(self.error(ErrorKind::OutOfBounds, message)) };
        };
        let pool = &mut *self.exec.pool;
        let left = pool.bv_const(64, l.end - p.off);
        let ok = pool.cmp(pathwise_expr::BvCmp::Ule, len, left);
        self.exec.check_defined(ok, p.off + n <= l.end, (ErrorKind::OutOfBounds, &message), self.loc)
    }

    /// Record a library decision that took side `holds` of `c`; `exceeds`:
    /// this side starts an iteration beyond k (the run ends after the
    /// record), `alt_blocked`: the other side would.
    fn record_decision(&mut self, c: Cond, exceeds: bool, alt_blocked: bool) -> Result<bool, End> {
        let Some(e) = c.sym else { return Ok(c.holds) };
        let ex = &mut *self.exec;
        let oriented = if c.holds { e } else { ex.pool.not(e) };
        ex.record(oriented, EntryKind::Library { taken: c.holds }, true, alt_blocked, self.loc);
        if ex.region == Region::Main {
            let func = ex.m.step_func(ex.frame().func);
            ex.seen.path.push(PathStep { func, loc: self.loc, taken: c.holds, loop_iter: None });
        }
        if exceeds {
            return Err(End::BoundExceeded);
        }
        Ok(c.holds)
    }
}

impl LibcHost for ExecHost<'_, '_, '_> {
    fn pool(&mut self) -> &mut ExprPool {
        self.exec.pool
    }

    fn target(&self) -> Target {
        Target { long_bits: self.exec.m.config.long_bits, check_overflow: self.exec.m.config.check_overflow }
    }

    fn rounding(&self) -> pathwise_expr::float::Rounding {
        self.exec.rounding()
    }

    fn load(&mut self, p: Pointer, ty: Type) -> Result<Value, End> {
        let v = self.exec.load(&p, ty, self.loc)?;
        self.exec.check_initialised(&p, ty, self.loc)?;
        Ok(v)
    }

    fn store(&mut self, p: Pointer, ty: Type, v: Value) -> Result<(), End> {
        self.within_limit(p, ty.bytes(), None)?;
        self.exec.store(&p, ty, v, self.loc)
    }

    fn limit_writes(&mut self, p: Pointer, room: u64) {
        if let Some(obj) = p.obj {
            self.limit = Some(WriteLimit { obj, start: p.off, end: p.off.saturating_add(room) });
        }
    }

    fn decide(&mut self, c: Cond) -> Result<bool, End> {
        self.record_decision(c, false, false)
    }

    /// Only tests in the function under test are bounded (the
    /// precondition's loops are not bounded by k), and only symbolic ones
    /// count: iterations on concrete bytes add no path.
    fn decide_loop(&mut self, c: Cond, lp: &mut ByteLoop) -> Result<bool, End> {
        if c.sym.is_none() {
            return Ok(c.holds);
        }
        let k = self.exec.m.k.get();
        let bounded = self.exec.region == Region::Main;
        let (mut exceeds, mut alt_blocked) = (false, false);
        if c.holds == lp.continue_when {
            lp.iterations += 1;
            exceeds = bounded && lp.iterations > k;
        } else {
            alt_blocked = bounded && lp.iterations >= k;
        }
        if exceeds || alt_blocked {
            self.exec.at_bound(self.loc, crate::suite::BoundKind::Loop);
        }
        self.record_decision(c, exceeds, alt_blocked)
    }

    fn check(&mut self, ok: Cond, kind: ErrorKind, message: String) -> Result<(), End> {
        let e = match ok.sym {
            Some(e) => e,
            None if ok.holds => return Ok(()),
            None => return Err(self.error(kind, message)),
        };
        self.exec.check_defined(e, ok.holds, (kind, &message), self.loc)
    }

    fn guard(&mut self, c: Cond) {
        if let Some(e) = c.sym {
            let e = if c.holds { e } else { self.exec.pool.not(e) };
            self.exec.guard(e, self.loc);
        }
    }

    fn concretise(&mut self, v: Int) -> u64 {
        if let Some(e) = v.sym {
            self.exec.concretise(e, v.conc, self.loc);
        }
        v.conc
    }

    fn float(&mut self, v: Value, ty: Type) -> u64 {
        self.exec.pin(v, ty, self.loc)
    }

    fn is_null(&mut self, p: Pointer) -> bool {
        self.exec.is_null_kept(&p, self.loc)
    }

    fn allocate(&mut self, count: Value, size: Value, zeroed: bool) -> Result<Pointer, End> {
        self.exec.heap_alloc(count, size, zeroed, self.loc)
    }

    fn allocation_fails(&mut self, what: &'static str, made: Option<Pointer>) -> Option<Pointer> {
        self.exec.allocation_fails(what, made, self.loc)
    }

    fn allocate_internal(&mut self, size: u64) -> Pointer {
        let o = self.exec.mem.alloc_library_heap(size);
        Pointer { obj: Some(o), off: 0, off_sym: None, base_sym: None, path: 0 }
    }

    fn object_size(&mut self, p: Pointer) -> Option<u64> {
        self.exec.heap_object_size(p, self.loc)
    }

    fn release(&mut self, p: Pointer) -> Result<(), End> {
        self.exec.release(p, self.loc)
    }

    fn copy(&mut self, d: Pointer, s: Pointer, n: Value) -> Result<(), End> {
        self.within_limit(d, n.conc(), n.sym())?;
        self.exec.copy_n(d, s, n, self.loc)
    }

    fn fill(&mut self, d: Pointer, byte: Value, n: Value) -> Result<(), End> {
        self.within_limit(d, n.conc(), n.sym())?;
        self.exec.fill(d, byte, n, self.loc)
    }

    fn read_rest(&mut self, p: Pointer, from: u64, n: Value) -> Result<(), End> {
        self.exec.read_rest(p, from, n, self.loc)
    }

    /// Static objects are `Global` objects outside the program's globals:
    /// the emitters neither reset nor check them, and the leak check sees
    /// no heap object in them.
    fn static_object(&mut self, name: &str, elem: Type, init: &dyn Fn() -> Vec<Value>) -> Pointer {
        let ex = &mut *self.exec;
        let id = match ex.libc_objects.get(name) {
            Some(&id) => id,
            None => {
                let cells = init();
                let id = ex.mem.alloc(ObjKind::Global, elem, cells.len() as u64);
                for (i, v) in cells.into_iter().enumerate() {
                    ex.mem.init_cell(id, i as u64, v);
                }
                ex.libc_objects.insert(name.to_string(), id);
                id
            }
        };
        Pointer { obj: Some(id), off: 0, off_sym: None, base_sym: None, path: 0 }
    }

    fn va_args(&mut self, ap: Pointer) -> Result<Vec<Value>, End> {
        let ap = super::pinned(self, ap);
        let Some(obj) = ap.obj else {
            return Err(self.error(ErrorKind::NullDereference, "a null `va_list`".to_string()));
        };
        let mut out = Vec::new();
        let mut off = ap.off;
        loop {
            let o = self.exec.mem.object(obj);
            let Some(ty) = o.cell_type_at(off).filter(|_| off < o.size_bytes()) else { break };
            out.push(self.load(Pointer { off, ..ap }, ty)?);
            off += pathwise_ir::VA_SLOT;
        }
        Ok(out)
    }

    fn input_stream(&mut self, f: Pointer) -> Option<InputStream> {
        let ex = &*self.exec;
        let obj = f.obj.filter(|_| f.off == 0 && f.off_sym.is_none())?;
        let o = ex.mem.object(obj);
        let ObjKind::Input { param } = o.kind else { return None };
        // The parameters of the function under test (or of its
        // precondition, which has the same), the run's first frame; the
        // only input past them is `stdin`'s content.
        let root = ex.frames.first()?.func;
        let shape = ex.m.program.func(root).params.get(param).map(|p| p.src.shape);
        if shape.is_some_and(|s| s != pathwise_ir::Shape::Stream) {
            return None;
        }
        let len = Int { conc: o.size_bytes(), sym: Some(o.input?.len), w: 64 };
        Some(InputStream { param, data: f, len })
    }

    fn stdin(&mut self) -> Option<Pointer> {
        let &obj = self.exec.libc_objects.get(super::streams::STDIN_OBJECT)?;
        Some(Pointer { obj: Some(obj), ..Pointer::NULL })
    }

    fn is_stdout(&mut self, f: Pointer) -> bool {
        let stdout = self.exec.libc_objects.get(super::streams::STDOUT_OBJECT).copied();
        f.off == 0 && f.off_sym.is_none() && f.obj.is_some() && f.obj == stdout
    }

    fn write_stdout(&mut self, bytes: &[u8]) {
        // The precondition's output is not the function's.
        if self.exec.region == Region::Main {
            self.exec.seen.stdout.get_or_insert_with(Vec::new).extend_from_slice(bytes);
        }
    }

    fn error(&self, kind: ErrorKind, message: String) -> End {
        self.exec.error(kind, message, self.loc)
    }
}

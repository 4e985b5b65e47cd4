//! Memory checks beyond the single access: reads of uninitialised heap
//! and local memory ([`crate::config::Config::check_uninit`]) and leaks
//! ([`crate::config::Config::check_leaks`]).
//!
//! Uninitialised reads. `malloc`'d bytes (and those `realloc` adds) are
//! indeterminate until written, and so are a frame's local objects (the
//! front end stores a declaration's initialiser, all of it, so only a
//! declaration without one leaves bytes unwritten); [`crate::memory`]
//! keeps, per object, the byte ranges never written. Only a *use* of such bytes is reported,
//! never a copy, because copying indeterminate bytes is what correct C
//! does all the time (a structure with padding or unset fields assigned or
//! `memcpy`'d): library copies carry the state byte by byte, and a `load`
//! whose value is only ever stored (the front end's structure copies; `*q
//! = *p` on an `int`) is a copy too and is not checked — its destination
//! then counts as written, which can only hide an error, never invent one.
//! The other loads of the program, and the bytes the string functions read,
//! are checked. The check uses the concrete offset of the access: a
//! symbolic index is not steered towards unwritten bytes.
//!
//! Leaks. When the function under test returns, every object of the run
//! reachable from the parameters' values (input arrays and heaps), the
//! globals and the return value is live; an allocated, unfreed object that
//! is not is a leak. The run becomes an error test located at the first
//! leaked object's allocation (in allocation order, so deterministic).

use pathwise_ir::{InstKind, Loc, Operand, Reg, Type};

use crate::exec::Exec;
use crate::memory::{Memory, ObjKind};
use crate::path::{End, RuntimeError};
use crate::suite::ErrorKind;
use crate::value::{ObjId, Pointer, Value};

impl Exec<'_, '_> {
    /// After a load or store of the program (which succeeded, so its
    /// pointer is valid): a load that uses its value is checked; a copy
    /// load remembers which of its bytes were uninitialised, and the store
    /// of its value marks those bytes of the destination uninitialised.
    pub(crate) fn track_initialised(&mut self, kind: &InstKind, result: Option<Reg>, loc: Loc) -> Result<(), End> {
        match (kind, result) {
            (InstKind::Load { ty, ptr }, Some(r)) => {
                let p = self.operand(ptr).as_ptr();
                if !self.m.info.func(self.frame().func).copy_loads.contains(&r) {
                    return self.check_initialised(&p, *ty, loc);
                }
                let key = (self.frames.len(), r);
                let mask = match p.obj {
                    Some(o) => {
                        let obj = self.mem.object(o);
                        (0..ty.bits_type().bytes().min(8))
                            .filter(|&b| obj.uninit_bytes(p.off.wrapping_add(b), 1) > 0)
                            .fold(0u8, |m, b| m | 1 << b)
                    }
                    None => 0,
                };
                if mask == 0 {
                    self.uninit_copies.remove(&key);
                } else {
                    self.uninit_copies.insert(key, mask);
                }
            }
            (InstKind::Store { ptr, value: Operand::Reg(r), .. }, _) => {
                let Some(&mask) = self.uninit_copies.get(&(self.frames.len(), *r)) else { return Ok(()) };
                let p = self.operand(ptr).as_ptr();
                if let Some(o) = p.obj {
                    for b in (0..8).filter(|b| mask & 1 << b != 0) {
                        self.mem.mark_uninit(self.pool, o, p.off.wrapping_add(b));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A load of `ty` through `p` that uses the value: an error when the
    /// bytes read include some never written.
    pub(crate) fn check_initialised(&self, p: &Pointer, ty: Type, loc: Loc) -> Result<(), End> {
        let Some(o) = p.obj.filter(|_| self.m.config.check_uninit) else { return Ok(()) };
        let obj = self.mem.object(o);
        let n = obj.uninit_bytes(p.off, ty.bits_type().bytes());
        if n == 0 {
            return Ok(());
        }
        let what = match (obj.alloc, obj.kind) {
            (Some(a), _) => format!("heap object allocated at {}", self.m.program.describe_loc(a.site)),
            (None, ObjKind::Local) => "local variable never written there".to_string(),
            // A global that a copy filled from unwritten heap bytes.
            (None, _) => "object holding a copy of heap memory never written".to_string(),
        };
        let message =
            format!("read of {n} uninitialised byte(s) at byte offset {} of a {}-byte {what}", p.off, obj.size_bytes());
        Err(self.error(ErrorKind::UninitialisedRead, message, loc))
    }
}

/// The first leaked object of `mem` when `func` returned `returned` after
/// being called with `params`, as the error of its test.
pub fn leak(
    program: &pathwise_ir::Program,
    mem: &Memory,
    func: &str,
    params: &[Value],
    globals: &[ObjId],
    returned: Option<Value>,
) -> Option<RuntimeError> {
    let mut live = vec![false; mem.len()];
    let mut work: Vec<ObjId> = globals.to_vec();
    work.extend(params.iter().chain(returned.as_ref()).filter_map(pointee));
    while let Some(o) = work.pop() {
        if std::mem::replace(&mut live[o.0 as usize], true) {
            continue;
        }
        work.extend(mem.object(o).current_cells().iter().filter_map(|(_, _, v)| pointee(v)));
    }
    let leaked: Vec<ObjId> = (0..mem.len() as u32)
        .map(ObjId)
        .filter(|&o| {
            let obj = mem.object(o);
            // The C library's own allocations (no ordinal) are not the
            // tests' to count.
            obj.kind == ObjKind::Heap && obj.alloc.is_some() && !obj.freed && !live[o.0 as usize]
        })
        .collect();
    let first = mem.object(*leaked.first()?);
    let alloc = first.alloc?;
    let bytes = first.size_bytes();
    let mut message = format!("{bytes} byte(s) allocated here are unreachable when `{func}` returns");
    if leaked.len() > 1 {
        let total: u64 = leaked.iter().map(|&o| mem.object(o).size_bytes()).sum();
        let sites: Vec<String> =
            leaked.iter().skip(1).filter_map(|&o| mem.object(o).alloc).map(|a| program.describe_loc(a.site)).collect();
        message +=
            &format!(" ({} objects, {total} bytes lost in all; also allocated at {})", leaked.len(), sites.join(", "));
    }
    Some(RuntimeError { kind: ErrorKind::MemoryLeak { allocation: alloc.ordinal, bytes }, message, loc: alloc.site })
}

fn pointee(v: &Value) -> Option<ObjId> {
    match v {
        Value::Ptr(p) => p.obj,
        Value::Int { .. } | Value::Ext(_) => None,
    }
}

//! Input heaps: lazy initialisation with aliasing, and heap-solver reads.
//!
//! A *slot* is a place holding an input pointer: a parameter of heap shape,
//! or a pointer field of an input object (named `<slot>->@<offset>`). Each
//! slot has a 32-bit solver variable `ref:<slot>`: 0 is null, `id(s)` (the
//! slot's number in the machine-wide [`SlotTable`]) is a fresh object
//! materialised through that slot, and `id(t)` of an earlier slot `t` is an
//! alias of the object `t` materialised. The first read of a slot records
//! its domain (seed 003, section 2.1.3: null, fresh, or an alias of an
//! object of the same type already materialised); which one a run takes
//! comes from the inputs, so the search branches on aliasing only where a
//! decision depends on it (pointer comparisons, null checks).
//!
//! Reads of input objects follow the heap solver of seed 003, chapter 6: the
//! value of `p->f` is the concrete cell, and its expression is a chain of
//! `ite(R == R_w, v_w, ...)` over the earlier writes to field `f` of any
//! input object, then `ite(R == id(t), f_t, ...)` over the initial fields of
//! the other objects it may be, so that aliasing the path did not decide
//! stays symbolic instead of multiplying paths (on seed 003's Figure 6.1:
//! 2 paths, not 5).

use pathwise_expr::{ExprId, Sort};
use pathwise_ir::{CType, Loc, Type};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::exec::Exec;
use crate::memory::ObjKind;
use crate::path::{End, EntryKind};
use crate::suite::ErrorKind;
use crate::value::{bv_of, ObjId, Pointer, Value};

/// Identity of objects that are not input objects (locals, globals,
/// `malloc`'d storage) in reference expressions: above every slot id.
const NON_INPUT_BASE: u64 = 0x8000_0000;

/// Slot names and their ids, shared by all runs of a search (ids must not
/// depend on the run).
#[derive(Default)]
pub struct SlotTable {
    names: Vec<String>,
    index: FxHashMap<String, u32>,
}

impl SlotTable {
    /// The id of a slot (1-based), allocating it on first use.
    pub fn id(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.names.push(name.to_string());
        let i = self.names.len() as u32;
        self.index.insert(name.to_string(), i);
        i
    }

    pub fn name(&self, id: u32) -> &str {
        &self.names[id as usize - 1]
    }
}

/// A write to an input object, for the reads that may alias it.
#[derive(Clone, Copy, Debug)]
struct HeapWrite {
    base: ExprId,
    off: u64,
    ty: Type,
    val: ExprId,
}

/// Heap-input state of one execution.
#[derive(Default)]
pub struct HeapState {
    /// Materialised input objects with their slot ids, in order.
    objects: Vec<(u32, ObjId)>,
    /// Every slot read so far with its target type, in order, whatever it
    /// held: expressions range over these, so that they do not depend on
    /// which objects this run's inputs happened to make fresh.
    slots_read: Vec<(u32, CType)>,
    writes: Vec<HeapWrite>,
    /// References already proved non-null on this path.
    nonnull: FxHashSet<ExprId>,
}

impl Exec<'_, '_> {
    fn slot_name(&self, id: u32) -> String {
        self.m.slots.borrow().name(id).to_string()
    }

    fn model_bits(&self, var: ExprId) -> u64 {
        (self.input_lens)(var)
    }

    /// The input pointer held by slot `name`, whose target type is
    /// `pointee`: null, a fresh object, or an alias, as the inputs say.
    pub(crate) fn input_pointer(&mut self, name: &str, pointee: &CType, loc: Loc) -> Result<Value, End> {
        let size = match pointee {
            CType::Void => {
                let message = format!("input pointer `{name}` has no known target type (void *)");
                return Err(self.error(ErrorKind::Unsupported, message, loc));
            }
            t => t.size(&self.m.program.structs),
        };
        let sid = self.m.slots.borrow_mut().id(name);
        let var = self.pool.var(&format!("ref:{name}"), Sort::Bv(32));
        let candidates: Vec<(u32, ObjId)> = self
            .heap
            .objects
            .iter()
            .copied()
            .filter(|&(_, o)| self.mem.object(o).cty.as_ref() == Some(pointee))
            .collect();
        let earlier: Vec<u32> = self.heap.slots_read.iter().filter(|(_, t)| t == pointee).map(|&(s, _)| s).collect();
        self.heap.slots_read.push((sid, pointee.clone()));
        let fresh_ok = self.heap.objects.len() < self.m.max_heap_objects as usize;
        // Domain: null, fresh (within --max-heap-objects), or an alias of
        // the object an earlier slot of the same type made fresh.
        let zero = self.pool.bv_const(32, 0);
        let mut domain = self.pool.eq(var, zero);
        if fresh_ok {
            let me = self.pool.bv_const(32, sid as u64);
            let fresh = self.pool.eq(var, me);
            domain = self.pool.or(domain, fresh);
        }
        for t in earlier {
            let tid = self.pool.bv_const(32, t as u64);
            let is_t = self.pool.eq(var, tid);
            let tname = self.slot_name(t);
            let tvar = self.pool.var(&format!("ref:{tname}"), Sort::Bv(32));
            let t_fresh = self.pool.eq(tvar, tid);
            let alias = self.pool.and(is_t, t_fresh);
            domain = self.pool.or(domain, alias);
        }
        self.record(domain, EntryKind::Assume, false, false, loc);
        let v = self.model_bits(var) & 0xffff_ffff;
        let obj = if v == sid as u64 && fresh_ok {
            let elem = pointee.scalar().filter(|t| t.bytes() == size).unwrap_or(Type::I8);
            let o = self.mem.alloc_bytes(ObjKind::HeapInput { slot: sid }, elem, size);
            self.mem.object_mut(o).cty = Some(pointee.clone());
            self.heap.objects.push((sid, o));
            Some(o)
        } else {
            // An alias, or null (also for a value the inputs give for
            // another path, which this run cannot honour).
            candidates.iter().find(|&&(t, _)| t as u64 == v).map(|&(_, o)| o)
        };
        let base_sym = self.symbolic.then_some(var);
        Ok(Value::Ptr(Pointer { obj, off: 0, off_sym: None, base_sym }))
    }

    /// The symbolic identity of the object `p` points to.
    pub(crate) fn base_expr(&mut self, p: &Pointer) -> ExprId {
        if let Some(b) = p.base_sym {
            return b;
        }
        let id = match p.obj {
            None => 0,
            Some(o) => match self.mem.object(o).kind {
                ObjKind::HeapInput { slot } => slot as u64,
                _ => NON_INPUT_BASE + o.0 as u64,
            },
        };
        self.pool.bv_const(32, id)
    }

    /// Null check of a dereference of a pointer read from an input slot.
    pub(crate) fn check_nonnull(&mut self, p: &Pointer, loc: Loc) -> Result<(), End> {
        let Some(r) = p.base_sym else { return Ok(()) };
        if self.heap.nonnull.contains(&r) {
            return Ok(());
        }
        let zero = self.pool.bv_const(32, 0);
        let is_null = self.pool.eq(r, zero);
        let ok = self.pool.not(is_null);
        self.check_defined(ok, p.obj.is_some(), (ErrorKind::NullDereference, "null pointer dereference"), loc)?;
        self.heap.nonnull.insert(r);
        Ok(())
    }

    /// Load a `ty` at byte `off` of input object `obj` through `p`:
    /// materialises the initial value on first read, and gives the result
    /// the heap solver's expression.
    pub(crate) fn heap_load(&mut self, p: &Pointer, obj: ObjId, off: u64, ty: Type, loc: Loc) -> Result<Value, End> {
        let ObjKind::HeapInput { slot } = self.mem.object(obj).kind else { unreachable!("input objects only") };
        let field = format!("{}->@{off}", self.slot_name(slot));
        let o = self.mem.object(obj);
        let known = o.covered(off, ty);
        if !known {
            let init = if ty == Type::Ptr {
                let cty = o.cty.clone().and_then(|c| c.scalar_at(&self.m.program.structs, off));
                let Some(pointee) = cty.filter(|s| s.offset == off).and_then(|s| s.cty.pointee().cloned()) else {
                    let message =
                        format!("pointer read at byte offset {off} of an input object where the type has none");
                    return Err(self.error(ErrorKind::Unsupported, message, loc));
                };
                self.input_pointer(&field, &pointee, loc)?
            } else {
                let var = self.pool.var(&field, Sort::Bv(ty.bits()));
                let conc = self.model_bits(var) & ty.mask();
                Value::Int { conc, sym: self.symbolic.then_some(var) }
            };
            self.mem.set_initial(obj, off, ty, init);
        }
        let v = self.mem.read(self.pool, obj, off, ty, None).map_err(|e| self.access_error(e, loc))?;
        if !self.symbolic {
            return Ok(v);
        }
        let sym = self.aliased_read(p, obj, off, ty, &field);
        Ok(match v {
            Value::Ptr(q) => Value::Ptr(Pointer { base_sym: Some(sym), ..q }),
            Value::Int { conc, .. } => Value::Int { conc, sym: crate::value::non_const(self.pool, sym) },
        })
    }

    /// The heap solver's expression for a read of field `off` through `p`.
    fn aliased_read(&mut self, p: &Pointer, obj: ObjId, off: u64, ty: Type, field: &str) -> ExprId {
        let sort = if ty == Type::Ptr { Sort::Bv(32) } else { Sort::Bv(ty.bits()) };
        let initial = |pool: &mut pathwise_expr::ExprPool, f: &str| {
            if ty == Type::Ptr {
                pool.var(&format!("ref:{f}"), sort)
            } else {
                pool.var(f, sort)
            }
        };
        let r = self.base_expr(p);
        let cty = self.mem.object(obj).cty.clone();
        let mut ts: Vec<u32> =
            self.heap.slots_read.iter().filter(|(_, t)| Some(t) == cty.as_ref()).map(|&(s, _)| s).collect();
        let mut e = match ts.pop() {
            Some(last) => {
                let f = format!("{}->@{off}", self.slot_name(last));
                initial(self.pool, &f)
            }
            None => initial(self.pool, field),
        };
        for &t in ts.iter().rev() {
            let tf = format!("{}->@{off}", self.slot_name(t));
            let tv = initial(self.pool, &tf);
            let tid = self.pool.bv_const(32, t as u64);
            let is_t = self.pool.eq(r, tid);
            e = self.pool.ite(is_t, tv, e);
        }
        let writes: Vec<HeapWrite> = self.heap.writes.iter().copied().filter(|w| w.off == off && w.ty == ty).collect();
        for w in writes {
            let same = self.pool.eq(r, w.base);
            e = self.pool.ite(same, w.val, e);
        }
        e
    }

    /// Log a store to an input object, for later reads that may alias it.
    pub(crate) fn heap_store(&mut self, p: &Pointer, off: u64, ty: Type, v: Value) {
        if self.symbolic {
            let base = self.base_expr(p);
            let val = match v {
                _ if ty == Type::Ptr => self.base_expr(&v.as_ptr()),
                Value::Ptr(q) => self.base_expr(&q),
                Value::Int { conc, sym } => bv_of(self.pool, conc, sym, ty.bits()),
            };
            self.heap.writes.push(HeapWrite { base, off, ty, val });
        }
    }
}

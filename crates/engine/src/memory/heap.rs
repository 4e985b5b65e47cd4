//! Input heaps: lazy initialisation with aliasing, and heap-solver reads.
//!
//! A *slot* is a place holding an input pointer, named by its access path:
//! a parameter of heap shape (`self`), or a pointer field read through a
//! pointer with a path (`self->@0`, `self->@0->@8`). Paths follow the
//! pointers the program dereferences, not the objects they happen to reach,
//! so a run names its inputs the same way whatever aliasing its inputs
//! chose, and whatever other slots the precondition read first.
//!
//! Each slot has a 32-bit solver variable `ref:<path>`, the *identity* of
//! the object it points to: 0 is null, and equal identities are the same
//! object (seed 003, section 2.1.3: null, a fresh object, or an alias of
//! another input object). Its domain only fixes the object's type: an
//! identity is `tag << 20 | n`, with a tag per pointee type, so that only
//! objects of the same type alias and input identities stay below those of
//! the run's own objects. Which objects alias is left to the solver, so the
//! search branches on aliasing only where a decision depends on it (pointer
//! comparisons, null checks).
//!
//! Reads of input objects follow the heap solver of seed 003, chapter 6:
//! the value of `p->f` is the concrete cell, and its expression is
//! `ite(R == R_i, v_i, ...)` over the run's earlier accesses (reads and
//! writes) to field `f` through other references, newest first, ending in
//! the fresh variable of the access path when no earlier access is to the
//! same object; an earlier access through the same reference ends the
//! chain. Aliasing the path does not decide stays symbolic instead of
//! multiplying paths (on seed 003's Figure 6.1: 2 paths, not 5).

use pathwise_expr::{BvCmp, Expr, ExprId, ExprPool, Model, Sort};
use pathwise_ir::{CType, Loc, Type};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::exec::Exec;
use crate::memory::ObjKind;
use crate::path::{End, EntryKind};
use crate::suite::ErrorKind;
use crate::value::{bv_of, ObjId, Pointer, Value};

/// Identity of objects that are not input objects (locals, globals,
/// `malloc`'d storage) in reference expressions: above every input identity.
const NON_INPUT_BASE: u64 = 0x8000_0000;

/// Bits of an identity below its type tag.
pub(crate) const TAG_SHIFT: u32 = 20;

/// Slot names (access paths) and pointee-type tags, shared by all runs of
/// a search: both must not depend on the run.
#[derive(Clone, Debug, Default)]
pub struct SlotTable {
    names: Vec<String>,
    index: FxHashMap<String, u32>,
    tags: Vec<CType>,
    /// The integer type of the slots that are scalar fields of input
    /// objects (their variables have the slot's name): what reads well
    /// for them (see `search/readable.rs`).
    scalars: FxHashMap<u32, pathwise_ir::IntTy>,
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

    /// The id of a slot already allocated.
    pub fn lookup(&self, name: &str) -> Option<u32> {
        self.index.get(name).copied()
    }

    pub fn name(&self, id: u32) -> &str {
        &self.names[id as usize - 1]
    }

    /// Note that slot `id` is an integer field of type `ty`.
    pub(crate) fn note_scalar(&mut self, id: u32, ty: pathwise_ir::IntTy) {
        self.scalars.insert(id, ty);
    }

    /// The integer type of the input field named `name`, if it is one
    /// (not a `_Bool` or a bit-field's storage).
    pub fn scalar(&self, name: &str) -> Option<pathwise_ir::IntTy> {
        self.scalars.get(self.index.get(name)?).copied()
    }

    /// Whether objects of `tag` are structures passed by value (see
    /// [`by_value_key`]).
    pub(crate) fn is_by_value_tag(&self, tag: u64) -> bool {
        let i = tag.wrapping_sub(1) as usize;
        self.tags.get(i).is_some_and(|t| matches!(t, CType::Array(_, 0)))
    }

    /// The tag of a pointee type (1-based; identities of its objects are
    /// `tag << 20 | n`).
    pub(crate) fn tag(&mut self, cty: &CType) -> u64 {
        let i = match self.tags.iter().position(|t| t == cty) {
            Some(i) => i,
            None => {
                self.tags.push(cty.clone());
                self.tags.len() - 1
            }
        };
        i as u64 + 1
    }
}

/// A read or write of an input object's field, for the later reads whose
/// reference may be the same.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeapAccess {
    pub base: ExprId,
    pub off: u64,
    pub ty: Type,
    pub val: ExprId,
}

/// Heap-input state of one execution.
#[derive(Default)]
pub struct HeapState {
    /// Materialised input objects by identity, in order.
    objects: Vec<(u64, ObjId)>,
    /// Reads and writes of input objects' fields, oldest first.
    accesses: Vec<HeapAccess>,
    /// References already proved non-null on this path.
    nonnull: FxHashSet<ExprId>,
    /// The user's heap assumptions, and the values read at each path.
    pub(crate) assume: crate::heap_assume::AssumeState,
    /// First reads of input fields (see [`crate::heap_share`]).
    pub(crate) initial_reads: Vec<crate::heap_share::InitialRead>,
    /// The precondition's, in the function under test.
    pub(crate) inherited: Vec<crate::heap_share::InitialRead>,
    /// Element counts of input objects read so far (see
    /// [`crate::heap_count`]).
    pub(crate) counts: FxHashMap<ObjId, u64>,
    /// Identities of the objects whose count `pathwise_array_len` tied.
    pub(crate) tied_counts: crate::heap_count::TiedCounts,
    /// Reference variables whose domain the path records.
    domains: FxHashSet<ExprId>,
    /// Input function pointers whose target this path has decided (see
    /// [`crate::fnptr`]).
    pub(crate) fn_targets: FxHashSet<ExprId>,
    /// The input function pointers' variables and candidates.
    pub(crate) fn_inputs: Vec<(ExprId, Vec<pathwise_ir::FuncId>)>,
    /// Pointer parameters into one object (see [`crate::joins`]).
    pub(crate) joins: crate::joins::JoinState,
    /// Pointer parameters that may be null (see [`crate::null_params`]).
    pub(crate) null_params: crate::null_params::NullParams,
    /// Allocations that may fail, and those that failed (see
    /// [`crate::alloc_fail`]).
    pub(crate) alloc_fail: crate::alloc_fail::Fallible,
}

/// See [`Exec::field_layout`].
enum FieldAt {
    Exact,
    Within(u64, Type),
    Padding,
}

/// Whether `var` is an input reference variable.
fn is_ref(pool: &ExprPool, var: ExprId) -> bool {
    matches!(pool.get(var), Expr::Var { name, .. } if name.starts_with("ref:"))
}

impl crate::exec::Machine<'_> {
    /// The model with input references made fresh objects wherever the
    /// query allows it: the solver is free to pick any identity, and it
    /// tends to give unrelated references the same one, i.e. inputs whose
    /// objects all alias. Lazy initialisation prefers a fresh object
    /// (seed 003, section 2.1.3), so each non-null reference takes its own
    /// slot's identity unless that breaks the query; tests then alias only
    /// where their path needs it. With `null_first` (looking for inputs a
    /// precondition accepts), a reference the query lets be null is null
    /// before that: the smallest heap the path needs is the likeliest to be
    /// valid, and the cheapest to check.
    pub(crate) fn prefer_fresh(&self, pool: &ExprPool, query: &[ExprId], model: Model, null_first: bool) -> Model {
        // Most programs have no heap inputs: spare them the query walk.
        if !model.bv.iter().any(|(&var, &v)| v != 0 && is_ref(pool, var)) {
            return model;
        }
        let mut model = self.prefer_small_counts(pool, query, model);
        // References the query does not mention keep the previous inputs'
        // values by default; null keeps the input heaps as small as the
        // path needs (a precondition walks every node it is given).
        let in_query: FxHashSet<ExprId> = pool.vars_of(query).into_iter().collect();
        for (var, v) in model.bv.iter_mut() {
            if *v != 0 && !in_query.contains(var) && is_ref(pool, *var) {
                *v = 0;
            }
        }
        let mut refs: Vec<(ExprId, u64)> =
            model.bv.iter().filter(|(&var, &v)| v != 0 && is_ref(pool, var)).map(|(&var, &v)| (var, v)).collect();
        refs.sort();
        for (var, v) in refs {
            let Expr::Var { name, .. } = pool.get(var) else { continue };
            let Some(sid) = self.slots.borrow().lookup(&name["ref:".len()..]) else { continue };
            if sid as u64 >= 1 << TAG_SHIFT {
                continue;
            }
            if null_first {
                model.bv.insert(var, 0);
                if pathwise_expr::eval::satisfies(pool, query, &model) {
                    continue;
                }
            }
            let own = (v & !((1 << TAG_SHIFT) - 1)) | sid as u64;
            model.bv.insert(var, own);
            if !pathwise_expr::eval::satisfies(pool, query, &model) {
                model.bv.insert(var, v);
            }
        }
        model
    }
}

/// The tag key of structures of type `pointee` passed by value: a type no
/// pointer's target is (an array of none of them), so that by-value objects
/// get a tag of their own.
fn by_value_key(pointee: &CType) -> CType {
    CType::Array(Box::new(pointee.clone()), 0)
}

impl Exec<'_, '_> {
    /// Whether `obj` is a structure passed by value to the function under
    /// test: one object of its type, which no count lengthens (see
    /// `heap_count`), as the caller's copy is.
    pub(crate) fn is_by_value(&self, obj: ObjId) -> bool {
        match self.mem.object(obj).kind {
            ObjKind::HeapInput { ident } => self.m.slots.borrow().is_by_value_tag(u64::from(ident) >> TAG_SHIFT),
            _ => false,
        }
    }

    fn slot_name(&self, id: u32) -> String {
        self.m.slots.borrow().name(id).to_string()
    }

    pub(crate) fn model_bits(&self, var: ExprId) -> u64 {
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
        let tag = self.m.slots.borrow_mut().tag(pointee);
        let var = self.pool.var(&format!("ref:{name}"), Sort::Bv(32));
        self.ref_domain(var, tag, loc);
        let v = self.model_bits(var) & 0xffff_ffff;
        self.constrain_by_assumptions(name, var, v, loc)?;
        // A value outside the domain (the inputs of another path) is null.
        let obj = if v >> TAG_SHIFT == tag && v & ((1 << TAG_SHIFT) - 1) != 0 {
            Some(self.input_object(v, pointee, size)?)
        } else {
            None
        };
        let base_sym = self.symbolic.then_some(var);
        self.heap.assume.note_value(sid, var, v);
        Ok(Value::Ptr(Pointer { obj, off: 0, off_sym: None, base_sym, path: sid }))
    }

    /// A structure passed by value to the function under test: a fresh input
    /// object of type `pointee` that no input pointer can alias (its
    /// identity is in a tag range of its own), named `name` like a slot so
    /// that its fields are inputs `name->@off`.
    pub(crate) fn by_value_input(&mut self, name: &str, pointee: &CType) -> Result<Value, End> {
        let size = pointee.size(&self.m.program.structs);
        let sid = self.m.slots.borrow_mut().id(name);
        let tag = self.m.slots.borrow_mut().tag(&by_value_key(pointee));
        let obj = self.input_object((tag << TAG_SHIFT) | sid as u64, pointee, size)?;
        Ok(Value::Ptr(Pointer { obj: Some(obj), off: 0, off_sym: None, base_sym: None, path: sid }))
    }

    /// Record the domain of reference variable `var` (once per run): null,
    /// or an identity of the pointee type `tag`. Also for the variable of a
    /// slot the run never reads but a heap-solver expression mentions (the
    /// field of an object that another reference may be): the solver must
    /// not give it a value the run would read as null.
    fn ref_domain(&mut self, var: ExprId, tag: u64, loc: Loc) {
        if !self.symbolic || !self.heap.domains.insert(var) {
            return;
        }
        let zero = self.pool.bv_const(32, 0);
        let lo = self.pool.bv_const(32, (tag << TAG_SHIFT) + 1);
        let hi = self.pool.bv_const(32, (tag << TAG_SHIFT) | ((1 << TAG_SHIFT) - 1));
        let is_null = self.pool.eq(var, zero);
        let above = self.pool.cmp(BvCmp::Ule, lo, var);
        let below = self.pool.cmp(BvCmp::Ule, var, hi);
        let typed = self.pool.and(above, below);
        let domain = self.pool.or(is_null, typed);
        self.record(domain, EntryKind::Assume, false, false, loc);
    }

    /// The input object of identity `ident`, materialised on first use.
    pub(crate) fn input_object(&mut self, ident: u64, pointee: &CType, size: u64) -> Result<ObjId, End> {
        if let Some(&(_, o)) = self.heap.objects.iter().find(|(i, _)| *i == ident) {
            return Ok(o);
        }
        if self.heap.objects.len() >= self.m.config.max_heap_objects as usize {
            // Like k, --max-heap-objects bounds the inputs explored.
            return Err(End::BoundExceeded);
        }
        let elem = pointee.scalar().filter(|t| t.bytes() == size).unwrap_or(Type::I8);
        // A structure with a flexible array member starts with an empty
        // tail: its fixed part ends at the member (see `heap_tail`).
        let size = crate::heap_tail::tail_of(&self.m.program.structs, pointee).map_or(size, |(off, _)| off);
        let o = self.mem.alloc_bytes(ObjKind::HeapInput { ident: ident as u32 }, elem, size);
        self.mem.object_mut(o).cty = Some(pointee.clone());
        self.heap.objects.push((ident, o));
        if let Some(count) = self.inherited_count(o) {
            self.set_count(o, count);
        }
        Ok(o)
    }

    /// The concrete identity of the object `p` points to (as
    /// [`Self::base_expr`] has it symbolically).
    pub(crate) fn ident_of(&self, p: &Pointer) -> u64 {
        match p.obj {
            None => 0,
            Some(o) => match self.mem.object(o).kind {
                ObjKind::HeapInput { ident } => ident as u64,
                ObjKind::Code { func } => crate::fnptr::ident(func),
                ObjKind::Input { param } => crate::joins::array_ident(param),
                _ => NON_INPUT_BASE + o.0 as u64,
            },
        }
    }

    /// The symbolic identity of the object `p` points to.
    pub(crate) fn base_expr(&mut self, p: &Pointer) -> ExprId {
        if let Some(b) = p.base_sym {
            return b;
        }
        let id = self.ident_of(p);
        self.pool.bv_const(32, id)
    }

    /// Null check of a dereference of a pointer read from an input slot.
    pub(crate) fn check_nonnull(&mut self, p: &Pointer, loc: Loc) -> Result<(), End> {
        if let Some(checked) = self.fallible_deref(p, loc) {
            return checked;
        }
        if let Some(checked) = self.null_param_deref(p, loc) {
            return checked;
        }
        let Some(r) = p.base_sym.filter(|&r| !self.is_join_ident(r)) else { return Ok(()) };
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

    /// Record whether `p` (read from an input slot) is null, as a decision
    /// of the run at `loc`, unless it is known already (the object
    /// arguments of a summarised call, see [`crate::compose`]).
    pub(crate) fn decide_null(&mut self, p: &Pointer, loc: Loc) {
        if self.decide_null_param(p, loc) {
            return;
        }
        let Some(r) = p.base_sym.filter(|&r| !self.is_join_ident(r)) else { return };
        if self.heap.nonnull.contains(&r) {
            return;
        }
        // Not null is `0 <u r`, not `r != 0`: entries are told apart by
        // their conditions (see `compose::Summaries::refresh`), and a case
        // of the callee's (a null check it made) may be `r != 0`.
        let zero = self.pool.bv_const(32, 0);
        let cond = match p.obj {
            Some(_) => self.pool.cmp(BvCmp::Ult, zero, r),
            None => self.pool.eq(r, zero),
        };
        self.record(cond, EntryKind::Assume, true, false, loc);
        if p.obj.is_some() {
            self.heap.nonnull.insert(r);
        }
    }

    /// Load a `ty` at byte `off` of input object `obj` through `p`:
    /// materialises the initial value on first read, and gives the result
    /// the heap solver's expression.
    pub(crate) fn heap_load(&mut self, p: &Pointer, obj: ObjId, off: u64, ty: Type, loc: Loc) -> Result<Value, End> {
        if ty != Type::Ptr {
            match self.field_layout(obj, off, ty) {
                FieldAt::Exact => {}
                // Part of a field (the bytes `memcmp` reads): the field is
                // the input, and the part is read out of it.
                FieldAt::Within(start, whole) => {
                    let q = Pointer { off: p.off.wrapping_sub(off - start), off_sym: None, ..*p };
                    self.heap_load(&q, obj, start, whole, loc)?;
                    return self.mem.read(self.pool, obj, off, ty, None).map_err(|e| self.access_error(e, loc));
                }
                // Padding: no test can set it, so it reads as the zeros the
                // tests' objects start with.
                FieldAt::Padding => {
                    if !self.mem.object(obj).covered(off, ty) {
                        self.mem.set_initial(obj, off, ty, Value::int(0));
                    }
                    return self.mem.read(self.pool, obj, off, ty, None).map_err(|e| self.access_error(e, loc));
                }
            }
        }
        let field = format!("{}->@{off}", self.path_of(p, obj));
        let fsid = self.m.slots.borrow_mut().id(&field);
        if !self.mem.object(obj).covered(off, ty) {
            let init = if let Some(v) = self.inherited_initial(obj, off, ty) {
                v
            } else if ty == Type::Ptr {
                // Input objects are arrays of their type (see `heap_count`)
                // or a structure and its tail (see `heap_tail`).
                let cty = self.obj_scalar_typed(obj, off, Type::Ptr);
                let Some(pointee) = cty.and_then(|s| s.cty.pointee().cloned()) else {
                    let message =
                        format!("pointer read at byte offset {off} of an input object where the type has none");
                    return Err(self.error(ErrorKind::Unsupported, message, loc));
                };
                if let CType::Func { .. } = pointee {
                    self.input_function(&field, &pointee, loc)
                } else {
                    self.input_pointer(&field, &pointee, loc)?
                }
            } else {
                let var = self.pool.var(&field, Sort::Bv(ty.bits()));
                if let Some(int) = self.plain_integer_field(obj, off, ty) {
                    self.m.slots.borrow_mut().note_scalar(fsid, int);
                }
                let conc = self.model_bits(var) & ty.mask();
                // Symbolic in a concrete replay too (see `Exec::nondet`).
                Value::Int { conc, sym: Some(var) }
            };
            self.mem.set_initial(obj, off, ty, init);
            if self.region == crate::path::Region::Pre {
                self.note_initial_read(p, obj, off, ty, init);
            }
        }
        let v = self.mem.read(self.pool, obj, off, ty, None).map_err(|e| self.access_error(e, loc))?;
        let v = match v {
            // Later accesses through the loaded pointer extend this path.
            Value::Ptr(q) => Value::Ptr(Pointer { path: fsid, ..q }),
            v => v,
        };
        if !self.symbolic {
            return Ok(v);
        }
        // A function pointer's target is its own input (see
        // `Exec::input_function`), not a reference of the heap solver's.
        let pointee = |s: pathwise_ir::ScalarAt| s.cty.pointee().cloned();
        if ty == Type::Ptr && matches!(self.obj_scalar_typed(obj, off, ty).and_then(pointee), Some(CType::Func { .. }))
        {
            return Ok(v);
        }
        if ty == Type::Ptr {
            // The chain may end in this path's variable although the run
            // did not read the slot (the object is one read before).
            let var = self.pool.var(&format!("ref:{field}"), Sort::Bv(32));
            if let Some(tag) = self.pointer_field_tag(obj, off) {
                self.ref_domain(var, tag, loc);
            }
        }
        let sym = self.aliased_read(p, off, ty, &field);
        if let Value::Ptr(q) = v {
            let ident = self.ident_of(&q);
            self.heap.assume.note_value(fsid, sym, ident);
        }
        Ok(match v {
            Value::Ptr(q) => Value::Ptr(Pointer { base_sym: Some(sym), ..q }),
            Value::Int { conc, .. } => Value::Int { conc, sym: crate::value::non_const(self.pool, sym) },
            // Written by the code under test: not an input's value.
            v @ Value::Ext(_) => v,
        })
    }

    /// The type of the integer field at `off` of input object `obj` when
    /// it is a plain one: not a `_Bool` or the storage of bit-fields.
    fn plain_integer_field(&self, obj: ObjId, off: u64, ty: Type) -> Option<pathwise_ir::IntTy> {
        let s = self.obj_scalar_typed(obj, off, ty)?;
        let CType::Int { c_name, ty: int } = &s.cty else { return None };
        let plain = c_name != "_Bool" && !s.path.contains(pathwise_ir::BIT_STORAGE);
        plain.then_some(*int)
    }

    /// Where a `ty` read at byte `off` of input object `obj` falls in its
    /// type's layout: exactly on a scalar of that type (or the type is
    /// unknown), inside a wider field, or on no field.
    fn field_layout(&self, obj: ObjId, off: u64, ty: Type) -> FieldAt {
        if self.mem.object(obj).cty.is_none() || self.obj_scalar_typed(obj, off, ty).is_some() {
            return FieldAt::Exact;
        }
        match self.obj_scalar_at(obj, off) {
            Some(at) if at.ty != Type::Ptr && off + ty.bytes() <= at.offset + at.ty.bytes() => {
                FieldAt::Within(at.offset, at.ty.bits_type())
            }
            Some(_) => FieldAt::Exact,
            None => FieldAt::Padding,
        }
    }

    /// The type tag of what the pointer field at byte `off` of input object
    /// `obj` points to.
    fn pointer_field_tag(&mut self, obj: ObjId, off: u64) -> Option<u64> {
        let at = self.obj_scalar_typed(obj, off, Type::Ptr)?;
        let pointee = at.cty.pointee()?.clone();
        (pointee != CType::Void).then(|| self.m.slots.borrow_mut().tag(&pointee))
    }

    /// The access path of the object `p` points to: the pointer's own, or,
    /// for a pointer that did not come from an input slot (an input object
    /// reached by arithmetic the engine did not follow), its identity.
    pub(crate) fn path_of(&self, p: &Pointer, obj: ObjId) -> String {
        if p.path != 0 {
            return self.slot_name(p.path);
        }
        match self.mem.object(obj).kind {
            ObjKind::HeapInput { ident } => format!("#{ident}"),
            _ => unreachable!("input objects only"),
        }
    }

    /// The heap solver's expression for a read of field `off` through `p`
    /// whose access path is `field` (seed 003, section 6.2: the rules of
    /// the earlier accesses to the field, newest first).
    pub(crate) fn aliased_read(&mut self, p: &Pointer, off: u64, ty: Type, field: &str) -> ExprId {
        let r = self.base_expr(p);
        let mut e = if ty == Type::Ptr {
            self.pool.var(&format!("ref:{field}"), Sort::Bv(32))
        } else {
            self.pool.var(field, Sort::Bv(ty.bits()))
        };
        let same_field: Vec<HeapAccess> =
            self.heap.accesses.iter().copied().filter(|a| a.off == off && a.ty == ty).collect();
        for a in same_field {
            if a.base == r {
                e = a.val;
            } else {
                let same = self.pool.eq(r, a.base);
                e = self.pool.ite(same, a.val, e);
            }
        }
        self.note_access(HeapAccess { base: r, off, ty, val: e });
        e
    }

    /// Log an access; it shadows older ones through the same reference,
    /// which no later read can reach any more.
    pub(crate) fn note_access(&mut self, a: HeapAccess) {
        self.heap.accesses.retain(|b| !(b.base == a.base && b.off == a.off && b.ty == a.ty));
        self.heap.accesses.push(a);
    }

    /// Log a store to an input object, for later reads that may alias it.
    pub(crate) fn heap_store(&mut self, p: &Pointer, off: u64, ty: Type, v: Value) {
        if self.symbolic {
            let base = self.base_expr(p);
            let val = match v {
                _ if ty == Type::Ptr => self.base_expr(&v.as_ptr()),
                Value::Ptr(q) => self.base_expr(&q),
                Value::Int { conc, sym } => bv_of(self.pool, conc, sym, ty.bits()),
                // A non-double `long double`, seen by aliased reads as the
                // double nearest (their solver sort).
                Value::Ext(_) => self.pool.bv_const(ty.bits(), v.conc()),
            };
            self.note_access(HeapAccess { base, off, ty, val });
        }
    }
}

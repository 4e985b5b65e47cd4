//! One input heap for the precondition and the function under test.
//!
//! The precondition runs on its own memory before the function under test,
//! and each materialises the input objects it reaches. Both must see the
//! same initial heap: a field the precondition read (a node's height, the
//! key of a child) has the value the precondition accepted, even when the
//! function reaches that object by another access path, whose variable the
//! solver never tied to the precondition's; and the emitted test must build
//! those fields too, or its input is not one the precondition accepts.
//!
//! So the precondition's first reads of input fields (the initial values,
//! by object identity) are handed to the function's run: its heap solver
//! starts from them as earlier accesses (so a read through another
//! reference is `ite(R == R_pre, v_pre, ...)`), its concrete memory takes
//! their values, and at the end the fields and objects only the
//! precondition read are added to the input heap the tests describe.

use pathwise_expr::ExprId;
use pathwise_ir::{CType, Type};

use crate::exec::Exec;
use crate::memory::ObjKind;
use crate::value::{ObjId, Pointer, Value};

/// A first read of an input object's field: its initial value.
#[derive(Clone, Debug)]
pub struct InitialRead {
    /// Identity of the object and its type.
    ident: u64,
    cty: CType,
    off: u64,
    ty: Type,
    /// Reference the read went through, and the value's expression.
    base: Option<ExprId>,
    sym: Option<ExprId>,
    value: InitialValue,
}

#[derive(Clone, Debug)]
enum InitialValue {
    Int(u64),
    Null,
    /// An input object, by identity, with its type.
    Ref(u64, CType),
}

impl Exec<'_, '_> {
    /// Note the first read of field `off` of input object `obj`, whose
    /// initial value `init` came through `p`.
    pub(crate) fn note_initial_read(&mut self, p: &Pointer, obj: ObjId, off: u64, ty: Type, init: Value) {
        let o = self.mem.object(obj);
        let (ObjKind::HeapInput { ident }, Some(cty)) = (o.kind, o.cty.clone()) else { return };
        let value = match init {
            Value::Int { conc, .. } => InitialValue::Int(conc),
            Value::Ext(_) => InitialValue::Int(init.conc()),
            Value::Ptr(q) => match q.obj.map(|t| (self.ident_of(&q), self.mem.object(t).cty.clone())) {
                Some((i, Some(c))) => InitialValue::Ref(i, c),
                _ => InitialValue::Null,
            },
        };
        let sym = match init {
            Value::Int { sym, .. } => sym,
            Value::Ext(_) => None,
            Value::Ptr(q) => q.base_sym,
        };
        let base = self.symbolic.then(|| self.base_expr(p));
        self.heap.initial_reads.push(InitialRead { ident: ident as u64, cty, off, ty, base, sym, value });
    }

    /// Start from the precondition's initial reads, and the identities of
    /// the objects whose counts it tied.
    pub(crate) fn inherit_initial_reads(&mut self, reads: Vec<InitialRead>, tied: crate::heap_count::TiedCounts) {
        self.heap.tied_counts = tied;
        for r in &reads {
            if let (Some(base), Some(val)) = (r.base, r.sym) {
                self.note_access(crate::heap::HeapAccess { base, off: r.off, ty: r.ty, val });
            }
        }
        self.heap.inherited = reads;
    }

    /// The initial value the precondition read for field `off` of `obj`.
    pub(crate) fn inherited_initial(&mut self, obj: ObjId, off: u64, ty: Type) -> Option<Value> {
        let ObjKind::HeapInput { ident } = self.mem.object(obj).kind else { return None };
        let r = self.heap.inherited.iter().find(|r| r.ident == ident as u64 && r.off == off && r.ty == ty)?.clone();
        let sym = r.sym.filter(|_| self.symbolic);
        Some(match r.value {
            // An integer field stays symbolic in a concrete replay too, as
            // one the function under test reads first does (`heap_load`):
            // the library decisions on it (`strlen` of a field) are then
            // the same in the replay as in the run that found the path.
            InitialValue::Int(conc) => Value::Int { conc, sym: r.sym },
            InitialValue::Null => Value::Ptr(Pointer { base_sym: sym, ..Pointer::NULL }),
            InitialValue::Ref(i, cty) => {
                let target = self.shared_object(i, &cty);
                Value::Ptr(Pointer { obj: target, off: 0, off_sym: None, base_sym: sym, path: 0 })
            }
        })
    }

    /// Add the fields and objects only the precondition read to this run's
    /// input heap (for the tests' description; the run is over).
    pub(crate) fn complete_input_heap(&mut self) {
        let reads = std::mem::take(&mut self.heap.inherited);
        for r in &reads {
            if r.off == crate::heap_count::COUNT_OFF {
                // A count, not a field (the object has it already).
                continue;
            }
            let Some(obj) = self.shared_object(r.ident, &r.cty) else { continue };
            if self.mem.object(obj).initial_cells().any(|(o, _, _)| o == r.off) {
                continue;
            }
            // An element only the precondition read (`argv[argc]`): the
            // test builds the object that far, or its input is not one
            // the precondition accepted.
            let end = r.off + r.ty.bytes();
            if end > self.mem.object(obj).size_bytes() {
                let (base, es, _) = crate::heap_tail::count_layout(&self.m.program.structs, Some(&r.cty));
                let es = es.max(1);
                self.mem.grow(obj, base + end.saturating_sub(base).div_ceil(es) * es);
            }
            let v = match &r.value {
                InitialValue::Int(c) => Value::int(*c),
                InitialValue::Null => Value::Ptr(Pointer::NULL),
                InitialValue::Ref(i, cty) => {
                    let target = self.shared_object(*i, cty);
                    Value::Ptr(Pointer { obj: target, ..Pointer::NULL })
                }
            };
            self.mem.set_initial(obj, r.off, r.ty, v);
        }
    }

    /// The element count the precondition read for input object `obj`.
    pub(crate) fn inherited_count(&self, obj: ObjId) -> Option<u64> {
        let ObjKind::HeapInput { ident } = self.mem.object(obj).kind else { return None };
        let off = crate::heap_count::COUNT_OFF;
        let r = self.heap.inherited.iter().find(|r| r.ident == ident as u64 && r.off == off)?;
        match r.value {
            InitialValue::Int(c) => Some(c),
            _ => None,
        }
    }

    /// The input object of identity `ident` in this run's memory.
    fn shared_object(&mut self, ident: u64, cty: &CType) -> Option<ObjId> {
        let size = cty.size(&self.m.program.structs);
        self.input_object(ident, cty, size).ok()
    }
}

//! Semantics of straight-line instructions: arithmetic with guards against
//! undefined behaviour, comparisons, casts, pointers, loads and stores.

use pathwise_expr::ops::{eval_bin, mask, to_signed};
use pathwise_expr::{BvCmp, BvOp, ExprId};
use pathwise_ir::{BinOp, CastOp, CmpOp, InstKind, Loc, Type};

use crate::exec::Exec;
use crate::memory::{AccessError, ObjKind};
use crate::path::{End, EntryKind};
use crate::semantics;
use crate::suite::ErrorKind;
use crate::value::{bool_of, bv_of, non_const, Pointer, Value};

/// The largest element count of a variable-length array that is modelled.
const MAX_VLA_COUNT: u64 = 1 << 28;

/// Whether value ranges alone prove that `a op b` stays in range (so no
/// check needs recording; the solver would have to refute a multiplier).
fn cannot_overflow(pool: &pathwise_expr::ExprPool, op: BinOp, w: u32, a: ExprId, b: ExprId) -> bool {
    use pathwise_expr::range::{exact, fits, signed_range};
    exact(semantics::bv_op(op), signed_range(pool, a), signed_range(pool, b)).is_some_and(|r| fits(r, w))
}

pub use crate::config::MAX_GROWN_LEN;

/// What an out-of-range subscript of a declared array reports (the words
/// of `-fsanitize=bounds`, with the array's length for its type).
fn index_message(i: u64, len: u64, end: bool) -> String {
    let place = if end { "past the end of" } else { "out of bounds of" };
    format!("out-of-bounds access: index {} {place} an array of {len} elements", i as i64)
}

/// Where an access lands: the object, the byte offset this run takes,
/// the symbolic offset kept (whole-array content, or `cases`), and the
/// offsets an array member of an input object may take (see
/// `heap_index`), found once per access.
struct Place {
    obj: crate::value::ObjId,
    off: u64,
    sym_off: Option<ExprId>,
    cases: Option<Vec<u64>>,
}

impl Exec<'_, '_> {
    /// Execute a non-call instruction; `Ok(Some(v))` is its result.
    pub(crate) fn exec_inst(&mut self, kind: &InstKind, loc: Loc) -> Result<Option<Value>, End> {
        Ok(Some(match kind {
            InstKind::Bin { op, ty, a, b, nsw } => {
                let (a, b) = (self.operand(a), self.operand(b));
                let v = self.binary(*op, *ty, a, b, loc)?;
                if *nsw && self.m.config.check_overflow {
                    self.check_overflow(*op, *ty, a, b, v, loc)?;
                }
                v
            }
            InstKind::Cmp { op, ty, a, b } => {
                let (a, b) = (self.operand(a), self.operand(b));
                self.compare(*op, *ty, a, b, loc)?
            }
            InstKind::Cast { op, from, to, a } => {
                let a = self.operand(a);
                self.cast(*op, *from, *to, a)
            }
            InstKind::FBin { .. } | InstKind::FNeg { .. } | InstKind::FCmp { .. } | InstKind::FCast { .. } => {
                self.float_inst(kind, loc)?
            }
            InstKind::AddrLocal { local } => {
                let obj = self.frame().locals[local.index()];
                Value::Ptr(Pointer { obj: Some(obj), off: 0, off_sym: None, base_sym: None, path: 0 })
            }
            InstKind::AddrGlobal { global } => {
                let obj = self.globals[global.0 as usize];
                Value::Ptr(Pointer { obj: Some(obj), off: 0, off_sym: None, base_sym: None, path: 0 })
            }
            InstKind::AddrFunc { func } => {
                let obj = self.mem.code_object(*func);
                Value::Ptr(Pointer { obj: Some(obj), off: 0, off_sym: None, base_sym: None, path: 0 })
            }
            InstKind::PtrAdd { base, offset } => {
                let p = self.operand(base).as_ptr();
                let o = self.operand(offset);
                let off = p.off.wrapping_add(o.conc());
                let off_sym = if p.off_sym.is_some() || o.sym().is_some() {
                    let pe = bv_of(self.pool, p.off, p.off_sym, 64);
                    let oe = bv_of(self.pool, o.conc(), o.sym(), 64);
                    let e = self.pool.bin(BvOp::Add, pe, oe);
                    non_const(self.pool, e)
                } else {
                    None
                };
                Value::Ptr(Pointer { obj: p.obj, off, off_sym, base_sym: p.base_sym, path: p.path })
            }
            InstKind::PtrDiff { a, b } => {
                let (pa, pb) = (self.operand(a).as_ptr(), self.operand(b).as_ptr());
                // Two input pointers must point into one object (see `joins`).
                if let Some((oa, ob)) = self.relate_inputs(&pa, &pb, loc)? {
                    return Ok(Some(self.int_result(BvOp::Sub, 64, (oa.conc(), oa.sym()), (ob.conc(), ob.sym()))));
                }
                if pa.obj != pb.obj {
                    let message = "subtraction of pointers into different objects";
                    return Err(self.error(ErrorKind::InvalidPointerArithmetic, message, loc));
                }
                self.int_result(BvOp::Sub, 64, (pa.off, pa.off_sym), (pb.off, pb.off_sym))
            }
            InstKind::Load { ty, ptr } => {
                let p = self.operand(ptr).as_ptr();
                self.load(&p, *ty, loc)?
            }
            InstKind::Store { ty, ptr, value } => {
                let p = self.operand(ptr).as_ptr();
                let v = self.operand(value);
                self.store(&p, *ty, v, loc)?;
                return Ok(None);
            }
            InstKind::CheckIndex { index, len, end } => {
                let i = self.operand(index);
                self.check_index(i, *len, *end, loc)?;
                return Ok(None);
            }
            InstKind::Alloca { elem, count } => {
                // This run's object has this run's count of cells; a
                // symbolic count stays symbolic, as a `malloc` size does
                // (`Object::size_sym`: every access is checked against
                // it), so the paths of other counts stay open. A guard
                // keeps solutions within what is modelled.
                let n = self.operand(count);
                if n.conc() > MAX_VLA_COUNT {
                    let size = n.conc() as i64;
                    return Err(self.error(
                        ErrorKind::Unsupported,
                        format!("variable-length array of {size} elements"),
                        loc,
                    ));
                }
                let obj = self.mem.alloc(crate::memory::ObjKind::Local, *elem, n.conc());
                if self.m.config.check_uninit {
                    // Indeterminate until written: the front end stores a
                    // declaration's initialiser (all of it) after this.
                    self.mem.mark_unwritten(obj);
                }
                if let (Some(_), true) = (n.sym(), self.symbolic) {
                    let e = bv_of(self.pool, n.conc(), n.sym(), 64);
                    let limit = self.pool.bv_const(64, MAX_VLA_COUNT);
                    let modelled = self.pool.cmp(BvCmp::Ule, e, limit);
                    self.guard(modelled, loc);
                    let bytes = self.pool.bv_const(64, elem.bytes());
                    let size = self.pool.bin(BvOp::Mul, bytes, e);
                    self.mem.object_mut(obj).size_sym = crate::value::non_const(self.pool, size);
                }
                Value::Ptr(Pointer { obj: Some(obj), off: 0, off_sym: None, base_sym: None, path: 0 })
            }
            InstKind::Call { .. } | InstKind::CallPtr { .. } => unreachable!("calls are handled by the machine"),
        }))
    }

    fn int_result(&mut self, op: BvOp, w: u32, a: (u64, Option<ExprId>), b: (u64, Option<ExprId>)) -> Value {
        let conc = eval_bin(op, w, a.0, b.0);
        let sym = if a.1.is_some() || b.1.is_some() {
            let ea = bv_of(self.pool, a.0, a.1, w);
            let eb = bv_of(self.pool, b.0, b.1, w);
            let e = self.pool.bin(op, ea, eb);
            non_const(self.pool, e)
        } else {
            None
        };
        Value::Int { conc, sym }
    }

    fn binary(&mut self, op: BinOp, ty: Type, a: Value, b: Value, loc: Loc) -> Result<Value, End> {
        let w = ty.bits();
        let m = mask(w);
        let (ac, bc) = (a.conc() & m, b.conc() & m);
        match op {
            BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem => {
                let be = bv_of(self.pool, bc, b.sym(), w);
                let nonzero = semantics::nonzero_divisor(self.pool, w, be);
                self.check_defined(nonzero, bc != 0, (ErrorKind::DivisionByZero, "division by zero"), loc)?;
                if matches!(op, BinOp::SDiv | BinOp::SRem) {
                    let ae = bv_of(self.pool, ac, a.sym(), w);
                    let ok = semantics::no_division_overflow(self.pool, w, ae, be);
                    let holds = !(ac == 1u64 << (w - 1) && bc == m);
                    let what = (ErrorKind::DivisionOverflow, "signed division overflow (INT_MIN / -1)");
                    self.check_defined(ok, holds, what, loc)?;
                }
            }
            BinOp::Shl | BinOp::LShr | BinOp::AShr => {
                let be = bv_of(self.pool, bc, b.sym(), w);
                let ok = semantics::shift_defined(self.pool, op, w, be).expect("a shift");
                let message = format!("shift by {} (not in 0..{w})", to_signed(bc, w));
                self.check_defined(ok, bc < w as u64, (ErrorKind::InvalidShift, &message), loc)?;
            }
            _ => {}
        }
        Ok(self.int_result(semantics::bv_op(op), w, (ac, a.sym()), (bc, b.sym())))
    }

    fn compare(&mut self, op: CmpOp, ty: Type, a: Value, b: Value, loc: Loc) -> Result<Value, End> {
        let (a, b) = match (ty, a, b) {
            (Type::Ptr, a, b) => {
                let (pa, pb) = (a.as_ptr(), b.as_ptr());
                let equality = matches!(op, CmpOp::Eq | CmpOp::Ne);
                if let Some(v) = equality.then(|| self.compare_fallible(op == CmpOp::Eq, &pa, &pb)).flatten() {
                    return Ok(v);
                }
                if let Some(v) = equality.then(|| self.compare_null_param(op == CmpOp::Eq, &pa, &pb)).flatten() {
                    return Ok(v);
                }
                if equality && self.compares_identities(&pa, &pb) {
                    return Ok(self.compare_refs(op, pa, pb));
                }
                // An ordering of two input pointers: one object (see `joins`).
                let related = if equality { None } else { self.relate_inputs(&pa, &pb, loc)? };
                if let Some((oa, ob)) = related {
                    (oa, ob)
                } else if pa.obj != pb.obj {
                    // Distinct objects (or null): only identity is meaningful.
                    let key = |p: Pointer| (p.obj.map_or(0, |o| o.0 as u64 + 1), p.off);
                    let r = match op {
                        CmpOp::Eq => false,
                        CmpOp::Ne => true,
                        _ => semantics::eval_compare(op, 64, key(pa).0, key(pb).0),
                    };
                    return Ok(Value::int(r as u64));
                } else {
                    (Value::Int { conc: pa.off, sym: pa.off_sym }, Value::Int { conc: pb.off, sym: pb.off_sym })
                }
            }
            _ => (a, b),
        };
        // Offsets into one object order as its addresses do, also below it
        // (`p - 1 < p`, undefined in C but what the native code computes).
        let op = if ty == Type::Ptr { semantics::signed_cmp(op) } else { op };
        let w = if ty == Type::Ptr { 64 } else { ty.bits() };
        let conc = semantics::eval_compare(op, w, a.conc(), b.conc()) as u64;
        if a.sym().is_none() && b.sym().is_none() {
            return Ok(Value::int(conc));
        }
        let ea = if w == 1 { bv_of(self.pool, a.conc(), a.sym(), 1) } else { bv_of(self.pool, a.conc(), a.sym(), w) };
        let eb = bv_of(self.pool, b.conc(), b.sym(), w);
        let e = semantics::compare(self.pool, op, ea, eb);
        Ok(Value::Int { conc, sym: non_const(self.pool, e) })
    }

    /// `p == q` / `p != q` where a pointer comes from an input slot, or
    /// both point into input objects and one may be joined to another
    /// (see `joins`): the same object (by identity) at the same offset.
    fn compare_refs(&mut self, op: CmpOp, pa: Pointer, pb: Pointer) -> Value {
        let same = pa.obj == pb.obj && pa.off == pb.off;
        let conc = (same != (op == CmpOp::Ne)) as u64;
        let (ba, bb) = (self.base_expr(&pa), self.base_expr(&pb));
        let mut e = self.pool.eq(ba, bb);
        let (oa, ob) = self.compared_offsets(&pa, &pb, ba == bb);
        if oa.sym().is_some() || ob.sym().is_some() || pa.off != pb.off {
            let oa = bv_of(self.pool, oa.conc(), oa.sym(), 64);
            let ob = bv_of(self.pool, ob.conc(), ob.sym(), 64);
            let offs = self.pool.eq(oa, ob);
            e = self.pool.and(e, offs);
        }
        let e = if op == CmpOp::Ne { self.pool.not(e) } else { e };
        Value::Int { conc, sym: non_const(self.pool, e) }
    }

    fn cast(&mut self, op: CastOp, from: Type, to: Type, a: Value) -> Value {
        if from == Type::Ptr || to == Type::Ptr {
            return a;
        }
        let (fw, tw) = (from.bits(), to.bits());
        let conc = match op {
            CastOp::ZExt => a.conc() & mask(fw),
            CastOp::SExt => to_signed(a.conc(), fw) as u64 & mask(tw),
            CastOp::Trunc => a.conc() & mask(tw),
        };
        let Some(s) = a.sym() else { return Value::int(conc) };
        let e = bv_of(self.pool, a.conc(), Some(s), fw);
        let e = semantics::cast(self.pool, op, e, tw);
        let e = if to == Type::I1 { bool_of(self.pool, conc, Some(e)) } else { e };
        Value::Int { conc, sym: non_const(self.pool, e) }
    }

    /// Undefined behaviour guard: when `ok` holds, it is recorded so that
    /// solutions keep it; when it fails, its negation is recorded as an
    /// explorable entry (the defined side is another path) and the run ends
    /// with a runtime error.
    ///
    /// With `seek_errors`, a holding guard is explorable too: its other side
    /// is a path into the error.
    pub(crate) fn check_defined(
        &mut self,
        ok: ExprId,
        holds: bool,
        what: (ErrorKind, &str),
        loc: Loc,
    ) -> Result<(), End> {
        if holds {
            let seek = self.m.config.seek_errors;
            self.record(ok, EntryKind::Guard { violated: false }, seek, false, loc);
            return Ok(());
        }
        let bad = self.pool.not(ok);
        self.record(bad, EntryKind::Guard { violated: true }, true, false, loc);
        Err(self.error(what.0, what.1, loc))
    }

    /// C's bound on the subscript `i` of a declared array of `len` elements
    /// inside a larger object (`checkindex`; `end`: one past the end is an
    /// address, not an access). The object's own bounds, checked at the
    /// access, would let `r->buf[8]` read the member after `buf`.
    fn check_index(&mut self, i: Value, len: u64, end: bool, loc: Loc) -> Result<(), End> {
        let limit = len.saturating_add(end as u64);
        let holds = i.conc() < limit;
        let Some(s) = i.sym() else {
            return if holds {
                Ok(())
            } else {
                Err(self.error(ErrorKind::OutOfBounds, index_message(i.conc(), len, end), loc))
            };
        };
        // An index whose range the bound covers (a zero-extended byte into
        // 256 elements) needs no check.
        let (lo, hi) = pathwise_expr::range::signed_range(self.pool, s);
        if lo >= 0 && hi < limit as i128 {
            return Ok(());
        }
        let bound = self.pool.bv_const(64, limit);
        let ok = self.pool.cmp(BvCmp::Ult, s, bound);
        if holds {
            return self.check_defined(ok, true, (ErrorKind::OutOfBounds, ""), loc);
        }
        let message = index_message(i.conc(), len, end);
        self.check_defined(ok, false, (ErrorKind::OutOfBounds, &message), loc)
    }

    /// C's undefined signed overflow of `a op b` (an `nsw` operation whose
    /// wrapped result is `r`).
    fn check_overflow(&mut self, op: BinOp, ty: Type, a: Value, b: Value, r: Value, loc: Loc) -> Result<(), End> {
        let w = ty.bits();
        let (ac, bc) = (a.conc() & mask(w), b.conc() & mask(w));
        let holds = !op.signed_overflows(w, ac, bc);
        if holds && a.sym().is_none() && b.sym().is_none() {
            return Ok(());
        }
        let ea = bv_of(self.pool, ac, a.sym(), w);
        let eb = bv_of(self.pool, bc, b.sym(), w);
        if holds && cannot_overflow(self.pool, op, w, ea, eb) {
            return Ok(());
        }
        let er = bv_of(self.pool, r.conc(), r.sym(), w);
        let ok = self.no_overflow_expr(op, w, ea, eb, er);
        let message = format!(
            "signed overflow: {} {} {} does not fit in {w} bits",
            to_signed(ac, w),
            match op {
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Mul => "*",
                _ => "<<",
            },
            to_signed(bc, w)
        );
        self.check_defined(ok, holds, (ErrorKind::SignedOverflow, &message), loc)
    }

    /// The condition under which `a op b` does not overflow, given the
    /// wrapped result `r`: sign rules for `+`/`-`, the solver's own
    /// signed-multiplication check for `*` (at 64 bits, a division or a
    /// product in twice the width is too slow to seek overflows with), and
    /// for `<<` a non-negative operand that shifts back unchanged.
    fn no_overflow_expr(&mut self, op: BinOp, w: u32, a: ExprId, b: ExprId, r: ExprId) -> ExprId {
        let p = &mut *self.pool;
        let zero = p.bv_const(w, 0);
        let neg = |p: &mut pathwise_expr::ExprPool, x: ExprId| p.cmp(BvCmp::Slt, x, zero);
        match op {
            BinOp::Add | BinOp::Sub => {
                let op = if op == BinOp::Add { BvOp::Add } else { BvOp::Sub };
                let bad = pathwise_expr::overflow::add_sub_overflow(p, op, a, b, r);
                p.not(bad)
            }
            BinOp::Mul => p.smul_no_overflow(a, b),
            _ => {
                let back = p.bin(BvOp::AShr, r, b);
                let same = p.eq(back, a);
                let nonneg = neg(p, a);
                let nonneg = p.not(nonneg);
                p.and(nonneg, same)
            }
        }
    }

    /// Check an access and return where it lands; records the bounds
    /// constraints of symbolic offsets and of input arrays, and the null
    /// check of pointers read from input slots.
    fn access(&mut self, p: &Pointer, ty: Type, loc: Loc) -> Result<Place, End> {
        self.check_nonnull(p, loc)?;
        let Some(obj) = p.obj else {
            return Err(self.error(ErrorKind::NullDereference, "null pointer dereference", loc));
        };
        let mut p = *p;
        if p.off_sym.is_some() && ty != self.mem.object(obj).elem {
            self.mem.adopt_elem(obj, ty);
        }
        let o = self.mem.object(obj);
        let heap_input = matches!(o.kind, ObjKind::HeapInput { .. });
        // An object of fixed size: not an input array or object, whose
        // length the inputs choose, but a structure passed by value is one.
        let fixed = (o.input.is_none() && !heap_input) || (heap_input && self.is_by_value(obj));
        // Integer storage is indexed by integer accesses of any width, as
        // bytes: `h->items[h->size]` in a local or global `struct heap`
        // (byte storage), `qsort`'s byte copies of an `int` array. Input
        // arrays only by accesses no wider than their elements (their
        // bounds check looks at the access's first byte).
        let narrow = o.input.is_none() || ty.bytes() <= o.elem.bytes();
        let bytewise = o.elem.is_int() && ty.is_int() && narrow && !heap_input;
        if let (Some(s), true) = (p.off_sym, (ty != o.elem && !bytewise) || ty == Type::Ptr || heap_input) {
            // Other accesses are fixed to the offset this run takes (and
            // so are all accesses to input objects, whose fields the heap
            // solver names by offset). Bounds are checked first, with the
            // symbolic offset, so that the fix does not hide the
            // out-of-bounds side.
            if fixed {
                let size = match o.size_sym {
                    Some(e) => e,
                    None => self.pool.bv_const(64, o.size_bytes()),
                };
                self.sized_bounds(&p, obj, size, ty, loc)?;
            }
            // An array member of an input object: split into cases
            // instead (see `heap_index`).
            if let Some(cases) = self.index_cases(obj, &p, ty) {
                self.guard_cases(s, &cases, loc);
                let at = Pointer { off_sym: None, ..p };
                let (obj, off) = self.mem.locate(&at, ty).map_err(|e| self.access_error(e, loc))?;
                return Ok(Place { obj, off, sym_off: Some(s), cases: Some(cases) });
            }
            // A pointer in a table the program owns: one path per entry
            // (see `pointer_index`).
            let table = ty == Type::Ptr && fixed && !heap_input && self.mem.object(obj).input.is_none();
            if !(table && self.split_pointer_index(s, &p, obj, loc)) {
                self.concretise(s, p.off, loc);
            }
            p.off_sym = None;
        }
        let o = self.mem.object(obj);
        if let Some(inp) = o.input {
            let param = match o.kind {
                ObjKind::Input { param } => param,
                _ => 0,
            };
            let elem_bytes = o.elem.bytes();
            self.input_lower_bound(&p, elem_bytes, loc)?;
            // A wider read (a `uint32_t` out of a byte buffer) needs its
            // last element: the bounds and string checks are made there.
            let last = p.off.wrapping_add(ty.bytes() - 1);
            let p = Pointer { off: last - last % elem_bytes.max(1), ..p };
            let o = self.mem.object(obj);
            let already = p.off_sym.is_none() && self.checked_upto.get(&obj).is_some_and(|&m| p.off <= m);
            if !already {
                let bytes = self.pool.bv_const(64, o.elem.bytes());
                let size = self.pool.bin(BvOp::Mul, inp.len, bytes);
                let off = bv_of(self.pool, p.off, p.off_sym, 64);
                let inb = self.pool.cmp(BvCmp::Ult, off, size);
                let in_bounds = p.off < o.size_bytes() || self.grow_free_input(obj, inp.len, p.off + elem_bytes);
                let size = self.mem.object(obj).size_bytes();
                if !in_bounds {
                    let out = self.pool.not(inb);
                    self.record(out, EntryKind::InBounds { param, violated: true }, true, false, loc);
                    return Err(End::ArrayTooShort { param, offset: p.off, size, loc });
                }
                // Explorable when errors are sought: the search only negates it
                // when the array's length is tied (a free length just grows).
                let seek = self.m.config.seek_errors;
                self.record(inb, EntryKind::InBounds { param, violated: false }, seek, false, loc);
                // A symbolic index is not checked: "no NUL before it" has
                // no quantifier-free form (the test then passes what the
                // path read, NULs included).
                if p.off_sym.is_none() && self.strings.is_string(inp.len) {
                    self.string_end(obj, inp.array, p.off, loc)?;
                }
                if p.off_sym.is_none() {
                    self.checked_upto.insert(obj, p.off);
                }
            }
        } else if heap_input && !fixed {
            // (A structure passed by value is bounded as a local is, by
            // `locate` at a concrete offset.)
            self.heap_bounds(&p, obj, ty, loc)?;
        } else if let Some(size) = o.size_sym {
            self.sized_bounds(&p, obj, size, ty, loc)?;
        } else if let Some(s) = p.off_sym {
            // The access's last byte is inside: `s <= size - width` (an
            // object narrower than the access has no valid offset).
            let last = o.size_bytes().checked_sub(ty.bytes().max(1));
            let g = match last {
                Some(last) => {
                    let last = self.pool.bv_const(64, last);
                    self.pool.cmp(BvCmp::Ule, s, last)
                }
                None => self.pool.bool_const(false),
            };
            let message =
                format!("out-of-bounds access at byte offset {} of a {}-byte object", p.off as i64, o.size_bytes());
            let inside = last.is_some_and(|last| p.off <= last);
            self.check_defined(g, inside, (ErrorKind::OutOfBounds, &message), loc)?;
        }
        let (obj, off) = self.mem.locate(&p, ty).map_err(|e| self.access_error(e, loc))?;
        Ok(Place { obj, off, sym_off: p.off_sym, cases: None })
    }

    /// A run that reads past a free input array (one whose length no
    /// `pathwise_array_len` ties) lengthens it in place up to
    /// `Config::max_grown_array_len` elements and goes on: the bounds entry it records holds for
    /// the longer array, and the test gets the length the path touched
    /// (`testcase::shrink`). Before, the run ended and the search solved
    /// for one more element and ran again: a loop over N elements took N
    /// runs of up to N steps, and a 176-byte key schedule no test at all.
    /// Not when parameters may point into each other's arrays
    /// ([`crate::joins`]): a joined pointer's position is assumed within
    /// the length the inputs give, which a failed assumption lengthens.
    fn grow_free_input(&mut self, obj: crate::value::ObjId, len: ExprId, end_byte: u64) -> bool {
        if self.seen.tied_lens.contains(&len) || self.heap.joins.any() {
            return false;
        }
        let elem = self.mem.object(obj).elem.bytes().max(1);
        let count = end_byte.div_ceil(elem);
        if count > self.m.config.max_grown_array_len {
            return false;
        }
        self.mem.object_mut(obj).grow_input(count * elem);
        true
    }

    /// An input array starts where its pointer parameter points (the
    /// caller passes the start of its object), so an access before it
    /// (`s[-1]`, an index that can be negative) is out of bounds, whatever
    /// the array's length: a longer array cannot make it valid. Offsets
    /// are signed here: no input array reaches 2^63 bytes.
    fn input_lower_bound(&mut self, p: &Pointer, elem_bytes: u64, loc: Loc) -> Result<(), End> {
        let below = (p.off as i64) < 0;
        let message = || {
            let elems = (p.off as i64).unsigned_abs().div_ceil(elem_bytes.max(1));
            if elems >= 1 << 40 {
                // An unsigned index near 2^63 wraps the offset: no caller's
                // object is that far on either side.
                return format!("out-of-bounds access at byte offset {} of an input array", p.off);
            }
            format!("out-of-bounds access {elems} element(s) before the start of an input array")
        };
        match p.off_sym {
            Some(s) => {
                let zero = self.pool.bv_const(64, 0);
                let ok = self.pool.cmp(BvCmp::Sle, zero, s);
                let message =
                    if below { message() } else { "out-of-bounds access before the start of an input array".into() };
                self.check_defined(ok, !below, (ErrorKind::OutOfBounds, &message), loc)
            }
            None if below => Err(self.error(ErrorKind::OutOfBounds, message(), loc)),
            None => Ok(()),
        }
    }

    /// Load a `ty` through `p`.
    pub(crate) fn load(&mut self, p: &Pointer, ty: Type, loc: Loc) -> Result<Value, End> {
        // Memory holds floating values as their bits (see `Type::bits_type`).
        let ty = ty.bits_type();
        let Place { obj, off, sym_off, cases } = self.access(p, ty, loc)?;
        self.pin_f80_bytes(obj, off, ty, loc);
        let heap_input = matches!(self.mem.object(obj).kind, ObjKind::HeapInput { .. });
        let v = if let (Some(s), Some(cases)) = (sym_off, &cases) {
            self.load_cases(p, obj, (s, cases), ty, loc)?
        } else if heap_input {
            self.heap_load(p, obj, off, ty, loc)?
        } else {
            self.mem.read(self.pool, obj, off, ty, sym_off).map_err(|e| self.access_error(e, loc))?
        };
        let mut v = v;
        self.extensions(|e, ex| {
            v = e.load(ex, (obj, off, sym_off.is_some()), ty, v, loc);
            None::<()>
        });
        Ok(v)
    }

    /// Before an access of `ty` at `off` of `obj` that sees the bytes of a
    /// symbolic `long double` (a union, a byte copy): pins that value, whose
    /// x87 bytes memory computes concretely.
    fn pin_f80_bytes(&mut self, obj: crate::value::ObjId, off: u64, ty: Type, loc: Loc) {
        for v in self.mem.symbolic_f80_overlapping(obj, off, ty) {
            self.pin(v, Type::F80, loc);
        }
    }

    /// Store `v` as a `ty` through `p`.
    pub(crate) fn store(&mut self, p: &Pointer, ty: Type, v: Value, loc: Loc) -> Result<(), End> {
        let ty = ty.bits_type();
        let Place { obj, off, sym_off, cases } = self.access(p, ty, loc)?;
        self.pin_f80_bytes(obj, off, ty, loc);
        self.extensions(|e, ex| {
            e.store(ex, (obj, off, sym_off.is_some()), ty, loc);
            None::<()>
        });
        if let (Some(s), Some(cases)) = (sym_off, &cases) {
            return self.store_cases(p, obj, (s, cases), ty, v, loc);
        }
        if matches!(self.mem.object(obj).kind, ObjKind::HeapInput { .. }) {
            self.heap_store(p, off, ty, v);
        }
        let v = if ty == Type::Ptr { Value::Ptr(v.as_ptr()) } else { v };
        self.mem.write(self.pool, obj, off, ty, sym_off, v).map_err(|e| self.access_error(e, loc))
    }

    /// The error ending a run whose memory access failed.
    pub(crate) fn access_error(&self, e: AccessError, loc: Loc) -> End {
        match e {
            AccessError::Null => self.error(ErrorKind::NullDereference, "null pointer dereference", loc),
            AccessError::OutOfBounds { offset, size } => {
                let message = format!("out-of-bounds access at byte offset {offset} of a {size}-byte object");
                self.error(ErrorKind::OutOfBounds, message, loc)
            }
            AccessError::Freed => self.error(ErrorKind::UseAfterFree, "access to freed memory", loc),
            AccessError::Unsupported(m) => {
                self.error(ErrorKind::Unsupported, format!("unsupported memory access: {m}"), loc)
            }
        }
    }
}

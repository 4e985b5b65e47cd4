//! Semantics of straight-line instructions: arithmetic with guards against
//! undefined behaviour, comparisons, casts, pointers, loads and stores.

use pathwise_expr::ops::{eval_bin, eval_cmp, mask, to_signed};
use pathwise_expr::{BvCmp, BvOp, ExprId};
use pathwise_ir::{BinOp, CastOp, CmpOp, InstKind, Loc, Type};

use crate::exec::Exec;
use crate::memory::AccessError;
use crate::path::{End, EntryKind};
use crate::value::{bool_of, bv_of, non_const, Pointer, Value};

fn bv_op(op: BinOp) -> BvOp {
    match op {
        BinOp::Add => BvOp::Add,
        BinOp::Sub => BvOp::Sub,
        BinOp::Mul => BvOp::Mul,
        BinOp::UDiv => BvOp::UDiv,
        BinOp::SDiv => BvOp::SDiv,
        BinOp::URem => BvOp::URem,
        BinOp::SRem => BvOp::SRem,
        BinOp::Shl => BvOp::Shl,
        BinOp::LShr => BvOp::LShr,
        BinOp::AShr => BvOp::AShr,
        BinOp::And => BvOp::And,
        BinOp::Or => BvOp::Or,
        BinOp::Xor => BvOp::Xor,
    }
}

/// A comparison as (canonical operator, swap operands, negate result).
fn cmp_parts(op: CmpOp) -> (Option<BvCmp>, bool, bool) {
    match op {
        CmpOp::Eq => (None, false, false),
        CmpOp::Ne => (None, false, true),
        CmpOp::Ult => (Some(BvCmp::Ult), false, false),
        CmpOp::Ule => (Some(BvCmp::Ule), false, false),
        CmpOp::Ugt => (Some(BvCmp::Ult), true, false),
        CmpOp::Uge => (Some(BvCmp::Ule), true, false),
        CmpOp::Slt => (Some(BvCmp::Slt), false, false),
        CmpOp::Sle => (Some(BvCmp::Sle), false, false),
        CmpOp::Sgt => (Some(BvCmp::Slt), true, false),
        CmpOp::Sge => (Some(BvCmp::Sle), true, false),
    }
}

fn eval_cmp_conc(op: CmpOp, width: u32, a: u64, b: u64) -> bool {
    let (c, swap, neg) = cmp_parts(op);
    let (a, b) = if swap { (b, a) } else { (a, b) };
    let r = match c {
        None => a & mask(width) == b & mask(width),
        Some(c) => eval_cmp(c, width, a, b),
    };
    r != neg
}

impl Exec<'_, '_> {
    /// Execute a non-call instruction; `Ok(Some(v))` is its result.
    pub(crate) fn exec_inst(&mut self, kind: &InstKind, loc: Loc) -> Result<Option<Value>, End> {
        Ok(Some(match kind {
            InstKind::Bin { op, ty, a, b, nsw } => {
                let (a, b) = (self.operand(a), self.operand(b));
                self.binary(*op, *ty, a, b, loc)?
            }
            InstKind::Cmp { op, ty, a, b } => {
                let (a, b) = (self.operand(a), self.operand(b));
                self.compare(*op, *ty, a, b)
            }
            InstKind::Cast { op, from, to, a } => {
                let a = self.operand(a);
                self.cast(*op, *from, *to, a)
            }
            InstKind::AddrLocal { local } => {
                let obj = self.frame().locals[local.index()];
                Value::Ptr(Pointer { obj: Some(obj), off: 0, off_sym: None })
            }
            InstKind::AddrGlobal { global } => {
                let obj = self.globals[global.0 as usize];
                Value::Ptr(Pointer { obj: Some(obj), off: 0, off_sym: None })
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
                Value::Ptr(Pointer { obj: p.obj, off, off_sym })
            }
            InstKind::PtrDiff { a, b } => {
                let (pa, pb) = (self.operand(a).as_ptr(), self.operand(b).as_ptr());
                if pa.obj != pb.obj {
                    return Err(self.error("subtraction of pointers into different objects", loc));
                }
                self.int_result(BvOp::Sub, 64, (pa.off, pa.off_sym), (pb.off, pb.off_sym))
            }
            InstKind::Load { ty, ptr } => {
                let p = self.operand(ptr).as_ptr();
                let (obj, index) = self.access(&p, *ty, loc)?;
                self.mem.read(self.pool, obj, index, p.off_sym)
            }
            InstKind::Store { ty, ptr, value } => {
                let p = self.operand(ptr).as_ptr();
                let v = self.operand(value);
                let (obj, index) = self.access(&p, *ty, loc)?;
                self.mem.write(self.pool, obj, index, p.off_sym, v);
                return Ok(None);
            }
            InstKind::Alloca { elem, count } => {
                // The size is concretised (guarded when symbolic): objects
                // have a fixed number of cells.
                let n = self.operand(count);
                if n.conc() > 1 << 28 {
                    let size = n.conc() as i64;
                    return Err(self.error(format!("variable-length array of {size} elements"), loc));
                }
                if let Some(e) = n.sym() {
                    let k = self.pool.bv_const(64, n.conc());
                    let fixed = self.pool.eq(e, k);
                    self.guard(fixed, loc);
                }
                let obj = self.mem.alloc(crate::memory::ObjKind::Local, *elem, n.conc());
                Value::Ptr(Pointer { obj: Some(obj), off: 0, off_sym: None })
            }
            InstKind::Call { .. } => unreachable!("calls are handled by the machine"),
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
                let zero = self.pool.bv_const(w, 0);
                let is_zero = self.pool.eq(be, zero);
                let nonzero = self.pool.not(is_zero);
                self.check_defined(nonzero, bc != 0, "division by zero", loc)?;
                if matches!(op, BinOp::SDiv | BinOp::SRem) {
                    let min = 1u64 << (w - 1);
                    let ae = bv_of(self.pool, ac, a.sym(), w);
                    let minc = self.pool.bv_const(w, min);
                    let neg1 = self.pool.bv_const(w, m);
                    let a_min = self.pool.eq(ae, minc);
                    let b_neg1 = self.pool.eq(be, neg1);
                    let both = self.pool.and(a_min, b_neg1);
                    let ok = self.pool.not(both);
                    let holds = !(ac == min && bc == m);
                    self.check_defined(ok, holds, "signed division overflow (INT_MIN / -1)", loc)?;
                }
            }
            BinOp::Shl | BinOp::LShr | BinOp::AShr => {
                let be = bv_of(self.pool, bc, b.sym(), w);
                let wc = self.pool.bv_const(w, w as u64);
                let ok = self.pool.cmp(BvCmp::Ult, be, wc);
                let message = format!("shift by {} (not in 0..{w})", to_signed(bc, w));
                self.check_defined(ok, bc < w as u64, &message, loc)?;
            }
            _ => {}
        }
        Ok(self.int_result(bv_op(op), w, (ac, a.sym()), (bc, b.sym())))
    }

    fn compare(&mut self, op: CmpOp, ty: Type, a: Value, b: Value) -> Value {
        let (a, b) = match (ty, a, b) {
            (Type::Ptr, a, b) => {
                let (pa, pb) = (a.as_ptr(), b.as_ptr());
                if pa.obj != pb.obj {
                    // Distinct objects (or null): only identity is meaningful.
                    let key = |p: Pointer| (p.obj.map_or(0, |o| o.0 as u64 + 1), p.off);
                    let r = match op {
                        CmpOp::Eq => false,
                        CmpOp::Ne => true,
                        _ => eval_cmp_conc(op, 64, key(pa).0, key(pb).0),
                    };
                    return Value::int(r as u64);
                }
                (Value::Int { conc: pa.off, sym: pa.off_sym }, Value::Int { conc: pb.off, sym: pb.off_sym })
            }
            _ => (a, b),
        };
        let w = if ty == Type::Ptr { 64 } else { ty.bits() };
        let conc = eval_cmp_conc(op, w, a.conc(), b.conc()) as u64;
        if a.sym().is_none() && b.sym().is_none() {
            return Value::int(conc);
        }
        let ea = if w == 1 { bv_of(self.pool, a.conc(), a.sym(), 1) } else { bv_of(self.pool, a.conc(), a.sym(), w) };
        let eb = bv_of(self.pool, b.conc(), b.sym(), w);
        let (c, swap, neg) = cmp_parts(op);
        let (x, y) = if swap { (eb, ea) } else { (ea, eb) };
        let e = match c {
            None => self.pool.eq(x, y),
            Some(c) => self.pool.cmp(c, x, y),
        };
        let e = if neg { self.pool.not(e) } else { e };
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
        let e = match op {
            CastOp::ZExt => self.pool.zext(e, tw),
            CastOp::SExt => self.pool.sext(e, tw),
            CastOp::Trunc => self.pool.extract(e, tw - 1, 0),
        };
        let e = if to == Type::I1 { bool_of(self.pool, conc, Some(e)) } else { e };
        Value::Int { conc, sym: non_const(self.pool, e) }
    }

    /// Undefined behaviour guard: when `ok` holds, it is recorded so that
    /// solutions keep it; when it fails, its negation is recorded as an
    /// explorable entry (the defined side is another path) and the run ends
    /// with a runtime error.
    fn check_defined(&mut self, ok: ExprId, holds: bool, message: &str, loc: Loc) -> Result<(), End> {
        if holds {
            self.guard(ok, loc);
            return Ok(());
        }
        let bad = self.pool.not(ok);
        self.record(bad, EntryKind::Guard, true, false, loc);
        Err(self.error(message, loc))
    }

    /// Check an access and return (object, cell index); records the bounds
    /// constraints of symbolic offsets and of input arrays.
    fn access(&mut self, p: &Pointer, ty: Type, loc: Loc) -> Result<(crate::value::ObjId, u64), End> {
        let Some(obj) = p.obj else {
            return Err(self.error("null pointer dereference", loc));
        };
        let o = self.mem.object(obj);
        if let Some(inp) = o.input {
            let param = match o.kind {
                crate::memory::ObjKind::Input { param } => param,
                _ => 0,
            };
            let already = p.off_sym.is_none() && self.checked_upto.get(&obj).is_some_and(|&m| p.off <= m);
            if !already {
                let bytes = self.pool.bv_const(64, o.elem.bytes());
                let size = self.pool.bin(BvOp::Mul, inp.len, bytes);
                let off = bv_of(self.pool, p.off, p.off_sym, 64);
                let inb = self.pool.cmp(BvCmp::Ult, off, size);
                let in_bounds = p.off < o.size_bytes();
                if !in_bounds {
                    let out = self.pool.not(inb);
                    self.record(out, EntryKind::InBounds { param }, true, false, loc);
                    return Err(End::ArrayTooShort);
                }
                self.record(inb, EntryKind::InBounds { param }, false, false, loc);
                if p.off_sym.is_none() {
                    self.checked_upto.insert(obj, p.off);
                }
            }
        } else if let Some(s) = p.off_sym {
            let size = self.pool.bv_const(64, o.size_bytes());
            let g = self.pool.cmp(BvCmp::Ult, s, size);
            let message = format!("out-of-bounds access at byte offset {} of a {}-byte object", p.off as i64, o.size_bytes());
            self.check_defined(g, p.off < o.size_bytes(), &message, loc)?;
        }
        self.mem.locate(p, ty).map_err(|e| match e {
            AccessError::Null => self.error("null pointer dereference", loc),
            AccessError::OutOfBounds { offset, size } => {
                self.error(format!("out-of-bounds access at byte offset {offset} of a {size}-byte object"), loc)
            }
            AccessError::Unsupported(m) => self.error(format!("unsupported memory access: {m}"), loc),
        })
    }
}

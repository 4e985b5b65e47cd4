//! A symbolic index into an array member of an input object:
//! `h->items[h->size] = v` where `h` is an input `struct heap *`.
//!
//! The heap solver names input fields by byte offset (`h->@8`), and its
//! aliasing chains are per field, so an access at a symbolic offset has no
//! one field to name. Fixing the offset to the run's value (what the
//! executor does for other accesses it cannot index) loses every path
//! another index would take: a min-heap push reached 3 of its 6 branch
//! sides. Here the access is instead a case split in the value, not in
//! the path (seed 002's arrays, seed 003's heap solver: aliasing left to
//! the solver rather than multiplying paths):
//! - the *cases* are the scalars of the same member path with any index
//!   (`.items[*]`, `.pts[*].x`), found from the object's C type, within
//!   the object's fixed part (the first element, or a structure's part
//!   before its flexible array member);
//! - a load is `ite(off == o_1, v_1, ite(off == o_2, v_2, ...))` over the
//!   cases' values, each read through the heap solver;
//! - a store writes every case `ite(off == o_i, v, old_i)`, so reads
//!   through aliases and later symbolic reads see it.
//!
//! The offset is kept among the cases by a guard (the front end's
//! `checkindex` already bounds every member but the last one).

use pathwise_expr::ExprId;
use pathwise_ir::{Loc, Type};

use crate::exec::Exec;
use crate::memory::ObjKind;
use crate::path::End;
use crate::value::{bv_of, ObjId, Pointer, Value};

/// Objects larger than this are not scanned for cases (their offsets are
/// fixed as before).
const MAX_SCANNED_BYTES: u64 = 1 << 16;

/// More cases than this are not split (the offset is fixed as before).
const MAX_CASES: usize = 256;

/// A member path with its indices erased: `.items[3]` and `.items[0]`
/// are the same array's elements.
fn shape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_index = false;
    for c in path.chars() {
        match c {
            '[' => {
                in_index = true;
                out.push('[');
            }
            ']' => {
                in_index = false;
                out.push(']');
            }
            _ if in_index => {}
            _ => out.push(c),
        }
    }
    out
}

impl Exec<'_, '_> {
    /// The byte offsets an integer access of `ty` at `p` (with a symbolic
    /// offset) may take inside heap input object `obj`, `p`'s own first;
    /// `None` when its C type places no integer of `ty` at `p`, or the
    /// member is too large to split.
    pub(crate) fn index_cases(&self, obj: ObjId, p: &Pointer, ty: Type) -> Option<Vec<u64>> {
        let o = self.mem.object(obj);
        if !matches!(o.kind, ObjKind::HeapInput { .. }) || !ty.is_int() {
            return None;
        }
        let (base, es, first) = crate::heap_tail::count_layout(&self.m.program.structs, o.cty.as_ref());
        let fixed_end = (base + first * es).min(o.size_bytes());
        let w = ty.bytes();
        if fixed_end > MAX_SCANNED_BYTES || p.off.saturating_add(w) > fixed_end {
            return None;
        }
        let here = self.obj_scalar_typed(obj, p.off, ty).filter(|s| s.offset == p.off)?;
        let want = shape(&here.path);
        let mut cases = vec![p.off];
        for j in 0..=fixed_end - w {
            if j == p.off {
                continue;
            }
            let same = self.obj_scalar_typed(obj, j, ty).is_some_and(|s| s.offset == j && shape(&s.path) == want);
            if same {
                cases.push(j);
                if cases.len() > MAX_CASES {
                    return None;
                }
            }
        }
        Some(cases)
    }

    /// Keep symbolic offset `s` among `cases`.
    pub(crate) fn guard_cases(&mut self, s: ExprId, cases: &[u64], loc: Loc) {
        let mut any = self.pool.bool_const(false);
        for &j in cases {
            let at = self.is_offset(s, j);
            any = self.pool.or(any, at);
        }
        self.guard(any, loc);
    }

    fn is_offset(&mut self, s: ExprId, j: u64) -> ExprId {
        let k = self.pool.bv_const(64, j);
        self.pool.eq(s, k)
    }

    /// Load a `ty` at symbolic offset `s` of heap input `obj` (`p` holds
    /// the run's offset, the first of `cases`).
    pub(crate) fn load_cases(
        &mut self,
        p: &Pointer,
        obj: ObjId,
        (s, cases): (ExprId, &[u64]),
        ty: Type,
        loc: Loc,
    ) -> Result<Value, End> {
        let mut values = Vec::with_capacity(cases.len());
        for &j in cases {
            let q = Pointer { off: j, off_sym: None, ..*p };
            values.push(self.heap_load(&q, obj, j, ty, loc)?);
        }
        if !self.symbolic {
            return Ok(values[0]);
        }
        let conc = values[0].conc();
        let mut acc = bv_of(self.pool, values[cases.len() - 1].conc(), values[cases.len() - 1].sym(), ty.bits());
        for (&j, v) in cases.iter().zip(&values).rev().skip(1) {
            let e = bv_of(self.pool, v.conc(), v.sym(), ty.bits());
            let at = self.is_offset(s, j);
            acc = self.pool.ite(at, e, acc);
        }
        Ok(Value::Int { conc, sym: crate::value::non_const(self.pool, acc) })
    }

    /// Store `v` as a `ty` at symbolic offset `s` of heap input `obj`:
    /// every case holds `v` where the offset is its own, else its value.
    pub(crate) fn store_cases(
        &mut self,
        p: &Pointer,
        obj: ObjId,
        (s, cases): (ExprId, &[u64]),
        ty: Type,
        v: Value,
        loc: Loc,
    ) -> Result<(), End> {
        let new = bv_of(self.pool, v.conc(), v.sym(), ty.bits());
        for (i, &j) in cases.iter().enumerate() {
            let q = Pointer { off: j, off_sym: None, ..*p };
            // The case's value before the store (read first, so that an
            // input field keeps its initial value for the test).
            let old = self.heap_load(&q, obj, j, ty, loc)?;
            let conc = if i == 0 { v.conc() } else { old.conc() };
            let value = if self.symbolic {
                let at = self.is_offset(s, j);
                let before = bv_of(self.pool, old.conc(), old.sym(), ty.bits());
                let e = self.pool.ite(at, new, before);
                Value::Int { conc, sym: crate::value::non_const(self.pool, e) }
            } else {
                Value::Int { conc, sym: None }
            };
            self.heap_store(&q, j, ty, value);
            self.mem.write(self.pool, obj, j, ty, None, value).map_err(|e| self.access_error(e, loc))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::shape;

    #[test]
    fn shapes_erase_indices_only() {
        assert_eq!(shape(".items[3]"), ".items[]");
        assert_eq!(shape(".pts[12].x"), ".pts[].x");
        assert_eq!(shape(".grid[1][2]"), ".grid[][]");
        assert_ne!(shape(".a[1]"), shape(".b[1]"));
    }
}

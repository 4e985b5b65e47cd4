//! Input objects as arrays: the element count of a heap input object.
//!
//! A pointer read from an input may point to the first of several objects:
//! `struct rational **rs` is an array of pointers, `struct s *v` may be an
//! array of records. As with input arrays, how many elements there are is
//! an input of the test. It is a pseudo-field of the object, `#count`, read
//! through the heap solver like any field (so aliases share it), and only
//! when the path touches an element past the first: a plain pointer to a
//! structure never gets one.
//!
//! A *free* count (nothing constrains it) grows during the run to the
//! elements the path touches, up to `--max-array-len` (beyond, the run is
//! out of bounds like beyond k), and the path keeps `touched <= count` as
//! a guard: the tests get the smallest arrays their paths need, and no
//! access through an input pointer is reported out of bounds because the
//! generator chose the array too short. A count *tied* by
//! `pathwise_array_len(p, n)` (in the precondition or the function) is
//! what the caller promises, so an access beyond it is an out-of-bounds
//! error, sought like any other.
//!
//! A structure with a flexible array member is no array: its count is the
//! length of its tail (see [`crate::heap_tail`]).

use pathwise_expr::{BvCmp, ExprId, ExprPool, Model, Sort};
use pathwise_ir::{Loc, Type};

use crate::exec::Exec;
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::{ObjId, Pointer, Value};

/// The objects whose count `pathwise_array_len` tied, by identity, and the
/// symbolic identities of the pointers it was tied through.
///
/// Whether an access past the first element of an object is checked
/// against a tied count (an out-of-bounds error, sought) or grows a free
/// one (a guard) depends on which object the pointer reaches, which
/// aliasing decides. When the path leaves that aliasing open (`src` and
/// `dst` may be one array, `pathwise_array_len(dst, len)`), a model of the
/// prefix may pick either, and the two runs must record the same
/// explorable entries, or the second is taken for a divergence: the check
/// is recorded as `¬tied(p) ∨ need <= count` in both (see
/// `Exec::unless_untied`), whose other side asks for the alias *and* the
/// overrun together.
#[derive(Clone, Debug, Default)]
pub(crate) struct TiedCounts {
    idents: rustc_hash::FxHashSet<u64>,
    /// In the order they were tied (deterministic conditions), one per
    /// symbolic identity.
    syms: Vec<(u64, ExprId)>,
}

impl TiedCounts {
    pub(crate) fn contains(&self, ident: u64) -> bool {
        self.idents.contains(&ident)
    }

    fn insert(&mut self, ident: u64, sym: ExprId) {
        self.idents.insert(ident);
        if !self.syms.iter().any(|&(_, s)| s == sym) {
            self.syms.push((ident, sym));
        }
    }
}

/// Byte offset of the `#count` pseudo-field in heap-solver accesses and
/// initial reads: no real field is there.
pub(crate) const COUNT_OFF: u64 = u64::MAX;

/// Suffix of count variables' names (`rs->#count`).
const COUNT_SUFFIX: &str = "->#count";

/// Suffix of the count variables of tails (`m->#tail`, see
/// [`crate::heap_tail`]): they may be 0.
const TAIL_SUFFIX: &str = "->#tail";

impl Exec<'_, '_> {
    /// Where the counted elements of heap input object `obj` start, their
    /// size, and how many it always has (see [`crate::heap_tail`]).
    fn count_layout(&self, obj: ObjId) -> (u64, u64, u64) {
        crate::heap_tail::count_layout(&self.m.program.structs, self.mem.object(obj).cty.as_ref())
    }

    /// Bounds of a `ty` access at `p` (concrete offset) into heap input
    /// object `obj`: grows a free count to the element touched, checks a
    /// tied one. An offset below the object is left to [`Memory::locate`].
    ///
    /// [`Memory::locate`]: crate::memory::Memory::locate
    pub(crate) fn heap_bounds(&mut self, p: &Pointer, obj: ObjId, ty: Type, loc: Loc) -> Result<(), End> {
        let (base, es, first) = self.count_layout(obj);
        if (p.off as i64) < 0 {
            // Before the input object: the caller would have passed a
            // member of an enclosing structure (`container_of`) or a
            // pointer into an array, which the lazily built input (an
            // object of the pointee type) cannot be. Not a bug of the code.
            let message = format!(
                "access {} byte(s) before the start of an input object (a pointer to a member of an enclosing \
                 structure, as `container_of` computes, or into an array): input objects are built with the pointer's own type",
                (p.off as i64).unsigned_abs()
            );
            return Err(self.error(ErrorKind::Unsupported, message, loc));
        }
        let end = p.off.saturating_add(ty.bytes());
        if end <= base + first * es {
            // The first element (or a structure's fixed part) is always there.
            return Ok(());
        }
        let need = (end - base).div_ceil(es);
        let (count, sym) = self.heap_count(p, obj, loc)?;
        let cond = sym.map(|s| {
            let n = self.pool.bv_const(64, need);
            self.pool.cmp(BvCmp::Ule, n, s)
        });
        // The check an access past a tied count makes, in every run where
        // `p` may point to a tied object (see `TiedCounts`).
        let check = cond.map(|c| self.unless_untied(p, c));
        if self.heap.tied_counts.contains(self.ident_of(p)) {
            let message = match first {
                0 => format!(
                    "out-of-bounds access at byte offset {} of an input structure whose flexible array member has {count} element(s)",
                    p.off
                ),
                _ => format!("out-of-bounds access at byte offset {} of a {}-byte input object", p.off, count * es),
            };
            match check {
                Some(c) => self.check_defined(c, need <= count, (ErrorKind::OutOfBounds, &message), loc)?,
                None if need > count => return Err(self.error(ErrorKind::OutOfBounds, message, loc)),
                None => {}
            }
            return Ok(());
        }
        if let Some(c) = check.filter(|&c| Some(c) != cond) {
            // Holds, `p`'s object not being tied on this run: explorable as
            // the check of a run where it is.
            let seek = self.m.config.seek_errors;
            self.record(c, crate::path::EntryKind::Guard { violated: false }, seek, false, loc);
        }
        if let Some(c) = cond {
            self.guard(c, loc);
        }
        if need > count {
            if need > u64::from(self.m.config.max_array_len) {
                return Err(End::BoundExceeded);
            }
            self.set_count(obj, need);
        }
        Ok(())
    }

    /// The element count of `obj` reached through `p`: concrete, and the
    /// heap solver's expression for it (when symbolic). The first read
    /// materialises it from the inputs, between 1 and `--max-array-len`.
    pub(crate) fn heap_count(&mut self, p: &Pointer, obj: ObjId, loc: Loc) -> Result<(u64, Option<ExprId>), End> {
        let (_, _, first) = self.count_layout(obj);
        let suffix = if first == 0 { TAIL_SUFFIX } else { COUNT_SUFFIX };
        let field = format!("{}{suffix}", self.path_of(p, obj));
        let known = self.heap.counts.get(&obj).copied();
        let sym = self.symbolic.then(|| self.aliased_read(p, COUNT_OFF, Type::I64, &field));
        if let Some(c) = known {
            return Ok((c, sym));
        }
        let max = u64::from(self.m.config.max_array_len.max(1));
        let var = self.pool.var(&field, Sort::Bv(64));
        if let Some(s) = sym {
            let low = self.pool.bv_const(64, first);
            let top = self.pool.bv_const(64, max);
            let above = self.pool.cmp(BvCmp::Ule, low, s);
            let below = self.pool.cmp(BvCmp::Ule, s, top);
            let domain = self.pool.and(above, below);
            self.record(domain, crate::path::EntryKind::Assume, false, false, loc);
        }
        let count = (self.input_lens)(var).clamp(first, max);
        if self.region == crate::path::Region::Pre {
            self.note_initial_read(p, obj, COUNT_OFF, Type::I64, Value::Int { conc: count, sym });
        }
        self.set_count(obj, count);
        Ok((count, sym))
    }

    /// Make `obj` hold `count` elements (never fewer than it has).
    pub(crate) fn set_count(&mut self, obj: ObjId, count: u64) {
        let (base, es, _) = self.count_layout(obj);
        self.mem.grow(obj, base.saturating_add(count.saturating_mul(es)));
        self.heap.counts.insert(obj, count);
    }

    /// `pathwise_array_len(p, n)` on a heap input pointer: the object `p`
    /// points to has exactly `n` elements, and accesses beyond are errors.
    pub(crate) fn tie_heap_count(&mut self, p: &Pointer, n: Value, loc: Loc) -> Result<(), End> {
        let Some(obj) = p.obj else { return Ok(()) };
        if self.has_tail(obj) && !self.at_tail_start(p) {
            // C has no arrays of such structures: only the tail has a length.
            let message = "pathwise_array_len on a structure with a flexible array member: pass the member (`p->data`)";
            return Err(self.error(ErrorKind::Unsupported, message, loc));
        }
        let (count, sym) = self.heap_count(p, obj, loc)?;
        let ident = self.ident_of(p);
        let ident_sym = self.base_expr(p);
        self.heap.tied_counts.insert(ident, ident_sym);
        let n_e = crate::value::bv_of(self.pool, n.conc(), n.sym(), 64);
        let cond = match sym {
            Some(s) => self.pool.eq(s, n_e),
            None => self.pool.bv_const(1, 1),
        };
        self.assume(cond, count == n.conc(), loc)
    }

    /// `c` as the bounds check of an access through `p`: `c` where `p`'s
    /// object is one whose count is tied, which `p` may be by aliasing
    /// (`¬tied(p) ∨ c`); `c` itself when `p` cannot alias another.
    fn unless_untied(&mut self, p: &Pointer, c: ExprId) -> ExprId {
        let ident = self.ident_of(p);
        let base = self.base_expr(p);
        let mut tied = self.pool.bool_const(false);
        for (i, sym) in self.heap.tied_counts.syms.clone() {
            if i >> crate::heap::TAG_SHIFT == ident >> crate::heap::TAG_SHIFT {
                let same = self.pool.eq(base, sym);
                tied = self.pool.or(tied, same);
            }
        }
        let untied = self.pool.not(tied);
        self.pool.or(untied, c)
    }
}

impl crate::exec::Machine<'_> {
    /// The model with each count variable as small as the query allows: the
    /// solver may pick any count up to the limit, and tests should build
    /// the smallest arrays their paths need (the run grows free counts).
    pub(crate) fn prefer_small_counts(&self, pool: &ExprPool, query: &[ExprId], mut model: Model) -> Model {
        let counts: Vec<(ExprId, u64, u64)> = model
            .bv
            .iter()
            .filter_map(|(&var, &v)| count_floor(pool, var).filter(|&low| v > low).map(|low| (var, v, low)))
            .collect();
        let mut counts = counts;
        counts.sort();
        for (var, v, low) in counts {
            for smaller in low..v {
                model.bv.insert(var, smaller);
                if pathwise_expr::eval::satisfies(pool, query, &model) {
                    break;
                }
                model.bv.insert(var, v);
            }
        }
        model
    }
}

/// The least value of `var` if it is the count variable of an input
/// object: 1 element, or an empty tail.
fn count_floor(pool: &ExprPool, var: ExprId) -> Option<u64> {
    match pool.get(var) {
        pathwise_expr::Expr::Var { name, .. } if name.ends_with(COUNT_SUFFIX) => Some(1),
        pathwise_expr::Expr::Var { name, .. } if name.ends_with(TAIL_SUFFIX) => Some(0),
        _ => None,
    }
}

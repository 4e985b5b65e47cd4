//! A pointer read or written at a symbolic index of a table the program
//! owns: `handlers[op](a, b)` through `static int (*const handlers[3])(int,
//! int)`, `names[i]` of a table of strings.
//!
//! Memory holds pointers as cells (an object and an offset), which no
//! solver array can hold, so such an access takes one element. Fixing the
//! index to the run's value lost every other entry (a dispatch table's
//! handlers past the first were never called). Instead the index is a
//! chain of decisions, one per element in order (`index == 0?`, `index ==
//! 1?`, ... up to the run's), each one a side the search negates, as a
//! `switch` over the entries would be: every entry the path allows gets
//! its own path. The chain is the same on every run that reaches the
//! access, so runs follow each other's prefixes.

use pathwise_expr::ExprId;
use pathwise_ir::{Loc, Type};

use crate::exec::Exec;
use crate::value::{ObjId, Pointer};

/// Tables with more elements than this keep the index fixed (reported).
const MAX_ENTRIES: u64 = 64;

impl Exec<'_, '_> {
    /// Decide symbolic offset `s` of pointer access `p` into fixed-size
    /// object `obj` element by element (see the module). Returns false,
    /// recording nothing, when the object is too large to split.
    pub(crate) fn split_pointer_index(&mut self, s: ExprId, p: &Pointer, obj: ObjId, loc: Loc) -> bool {
        let width = Type::Ptr.bytes();
        let size = self.mem.object(obj).size_bytes();
        let first = p.off % width;
        if size < width || (size - first) / width > MAX_ENTRIES || p.off.saturating_add(width) > size {
            return false;
        }
        let mut at = first;
        while at + width <= size {
            let k = self.pool.bv_const(64, at);
            let here = self.pool.eq(s, k);
            let taken = at == p.off;
            self.choice(here, taken, loc);
            if taken {
                break;
            }
            at += width;
        }
        true
    }
}

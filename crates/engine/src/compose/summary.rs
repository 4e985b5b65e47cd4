//! The representation of a summary: cases over a function's canonical
//! inputs, and the substitutions that move a case between a calling
//! context and that canonical form.
//!
//! Canonical inputs of `f` (variables named `sum:f.…`):
//! - `sum:f.i`: integer parameter `i` (its width), or, for a pointer
//!   parameter into an input array, that array (same array sort) with its
//!   length `sum:f.i.len` (64 bits, in elements, from the pointer);
//! - `sum:f.g<G>@<off>:<bits>`: the scalar of global `G` at byte `off` as
//!   the call found it;
//! - `sum:f.p<i>@<off>:<bits>`: the scalar at byte `off` of the object
//!   pointer parameter `i` points to (a structure, by pointer or by
//!   value), as the call found it, and `sum:f.p<i>.ref` its identity (0:
//!   null; an input object's reference, see `crate::heap`);
//!
//! A case is `pre` (a conjunction over those) and a [`Post`]: how the path
//! ends (a return, an error, the bound), the returned value and the cells
//! written (globals' and the pointed-to objects'), as expressions over the
//! same inputs. Any other
//! variable of a case (`sum:g#n.ret` of a callee composed inside a
//! bottom-up summary) is internal to it: renamed per composed instance.

use std::sync::Arc;

use pathwise_expr::{Expr, ExprId, ExprPool, Sort};
use pathwise_ir::Type;
use rustc_hash::FxHashSet;

use crate::blockk::Check;

/// The memory a cell of a case lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Base {
    /// Global number `g` of the program.
    Global(u32),
    /// The object pointer parameter `i` points to (at its start).
    Param(u32),
}

/// A scalar a case reads or writes: (where, byte offset, type).
pub type CellKey = (Base, u64, Type);

/// How a path through the function ends.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    Return,
    /// A runtime error (its kind's stable name and line): SMART's
    /// `post = false`, kept so that callers' error tests come from it.
    Error(String, u32),
    /// The path exceeded the bound of the criterion (no test).
    Bound,
}

impl Outcome {
    pub fn is_error(&self) -> bool {
        matches!(self, Outcome::Error(..))
    }

    /// `return`, `bound` or `error:KIND@LINE` (the stored form).
    pub fn text(&self) -> String {
        match self {
            Outcome::Return => "return".into(),
            Outcome::Bound => "bound".into(),
            Outcome::Error(k, line) => format!("error:{k}@{line}"),
        }
    }

    pub fn parse(s: &str) -> Option<Outcome> {
        match s {
            "return" => Some(Outcome::Return),
            "bound" => Some(Outcome::Bound),
            _ => {
                let (k, line) = s.strip_prefix("error:")?.rsplit_once('@')?;
                Some(Outcome::Error(k.to_string(), line.parse().ok()?))
            }
        }
    }
}

/// What a path gives its caller.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Post {
    pub outcome: Outcome,
    /// The returned value (returning paths of non-void functions).
    pub ret: Option<ExprId>,
    /// Cells written, with their final values, by key.
    pub writes: Vec<(CellKey, ExprId)>,
    /// The path's decisions (a hash of function, location and side of
    /// each), when known: which cases a run has exercised.
    pub path: Option<u64>,
}

/// One path of a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub pre: Vec<ExprId>,
    pub post: Post,
    /// Block-k: the bound checks of the path, in order (see
    /// [`crate::blockk`]): whether the path stays within the bound
    /// depends on the blocks entered before the call. `None` under k-path
    /// (a callee's loops are bounded per call), and for a bound case known
    /// to exceed the bound in every context.
    pub trace: Option<Arc<[Check]>>,
}

/// Where a summary came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Computed in this run, top-down.
    TopDown,
    /// Computed in this run, bottom-up (the function explored alone).
    BottomUp,
    /// Loaded from the summary store.
    Stored,
}

/// A function's summary: the paths of it known so far.
pub struct Summary {
    pub cases: Vec<Case>,
    seen: FxHashSet<(Vec<ExprId>, Post, Option<Arc<[Check]>>)>,
    /// SMART: the exploration of the function in its first calling context
    /// is over; every call is composed from now on.
    pub closed: bool,
    /// Bottom-up or stored and complete: composed calls add no cases.
    pub fixed: bool,
    /// Whether the cases cover every input within the bound (bottom-up:
    /// the function's own search was complete).
    pub complete: Option<bool>,
    pub origin: Origin,
}

impl Summary {
    pub fn new(origin: Origin) -> Summary {
        Summary { cases: Vec::new(), seen: FxHashSet::default(), closed: false, fixed: false, complete: None, origin }
    }

    /// Adds a case unless the summary has it already; whether it was new.
    pub fn add(&mut self, case: Case) -> bool {
        if self.seen.insert((case.pre.clone(), case.post.clone(), case.trace.clone())) {
            self.cases.push(case);
            true
        } else {
            false
        }
    }

    /// The canonical cell keys any case reads (in its precondition or
    /// values) or writes.
    pub fn cell_keys(&self, pool: &ExprPool, func: &str) -> Vec<CellKey> {
        let mut keys = Vec::new();
        let mut roots: Vec<ExprId> = Vec::new();
        for c in &self.cases {
            roots.extend(&c.pre);
            roots.extend(c.post.ret);
            for &(k, v) in &c.post.writes {
                keys.push(k);
                roots.push(v);
            }
        }
        for v in pool.vars_of(&roots) {
            if let Expr::Var { name, .. } = pool.get(v) {
                if let Some(k) = parse_cell_name(name, func) {
                    keys.push(k);
                }
            }
        }
        keys.sort();
        keys.dedup();
        keys
    }
}

/// The hash of a path's decisions (see [`Post::path`]).
pub fn path_hash(steps: &[crate::suite::PathStep]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for st in steps {
        for b in format!("{}:{}:{}:{};", st.func, st.loc.line, st.loc.col, st.taken).bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

/// `sum:f.i`.
pub fn param_name(func: &str, i: usize) -> String {
    format!("sum:{func}.{i}")
}

/// `sum:f.i.len`.
pub fn len_name(func: &str, i: usize) -> String {
    format!("sum:{func}.{i}.len")
}

/// `sum:f.pI.ref`: the identity of the object pointer parameter `i` points
/// to (0 when it is null).
pub fn ref_name(func: &str, i: usize) -> String {
    format!("sum:{func}.p{i}.ref")
}

/// `sum:f.gG@off:bits` or `sum:f.pI@off:bits` (`tag`: `f` canonical,
/// `f#n` one call's).
pub fn cell_name(tag: &str, (base, off, ty): CellKey) -> String {
    match base {
        Base::Global(g) => format!("sum:{tag}.g{g}@{off}:{}", ty.bits()),
        Base::Param(i) => format!("sum:{tag}.p{i}@{off}:{}", ty.bits()),
    }
}

fn parse_cell_name(name: &str, func: &str) -> Option<CellKey> {
    let rest = name.strip_prefix("sum:")?.strip_prefix(func)?.strip_prefix('.')?;
    let (base, rest): (fn(u32) -> Base, &str) = match rest.split_at_checked(1)? {
        ("g", rest) => (Base::Global, rest),
        ("p", rest) => (Base::Param, rest),
        _ => return None,
    };
    let (g, rest) = rest.split_once('@')?;
    let (off, bits) = rest.split_once(':')?;
    let ty = Type::int_of_bits(bits.parse().ok()?)?;
    Some((base(g.parse().ok()?), off.parse().ok()?, ty))
}

/// Whether `name` is one of `func`'s canonical inputs.
pub fn is_canonical(name: &str, func: &str) -> bool {
    name.strip_prefix("sum:").and_then(|r| r.strip_prefix(func)).is_some_and(|r| r.starts_with('.'))
}

/// The variable of a cell key (`tag` as in [`cell_name`]).
pub fn cell_var(pool: &mut ExprPool, tag: &str, key: CellKey) -> ExprId {
    pool.var(&cell_name(tag, key), Sort::Bv(key.2.bits()))
}

pub use pathwise_expr::subst::substitute;

/// The conjunction of `cs`.
pub fn all(pool: &mut ExprPool, cs: &[ExprId]) -> ExprId {
    let mut acc = pool.bool_const(true);
    for &c in cs {
        acc = pool.and(acc, c);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_and_global_names_round_trip() {
        for o in [Outcome::Return, Outcome::Bound, Outcome::Error("division-by-zero".into(), 41)] {
            assert_eq!(Outcome::parse(&o.text()), Some(o));
        }
        for k in [(Base::Global(3), 8, Type::I32), (Base::Param(1), 4, Type::I16)] {
            assert_eq!(parse_cell_name(&cell_name("f", k), "f"), Some(k));
            assert_eq!(parse_cell_name(&cell_name("f#2", k), "f"), None);
        }
        assert_eq!(parse_cell_name("sum:f.0", "f"), None);
        assert!(is_canonical("sum:f.0", "f") && !is_canonical("sum:f#1.0", "f") && !is_canonical("sum:fg.0", "f"));
    }
}

//! Input pointers into one object: `f(const char *s, const char *end)`.
//!
//! Every pointer parameter of scalar elements is an input array of its own
//! ([`crate::run::InputSpec`]). Two parameters into one buffer, a pointer
//! and its end (`s`, `end`), a cursor and a limit, are then unrelated
//! objects, and C defines neither `end > s` nor `end - s` on those. So a
//! parameter that has a *peer* (another pointer parameter of the same
//! element type) or that the function's input heap may hold objects for
//! (a `const char **pp` next to it) is *joinable*: two more inputs say where
//! it points,
//! - `name.into` (32 bits): 0 for its own array, `i + 1` for the array of
//!   parameter `i` (a *root*: a parameter pointing into its own array), or
//!   the identity of a heap input object of its element type (see
//!   [`crate::heap`]: `tag << 20 | n`);
//! - `name.at` (64 bits): the element it points to there, from 0 to the
//!   target's length (one past the end is a valid pointer); 0 when it
//!   points into its own array.
//!
//! The solver chooses them like any input, under a *domain* each run
//! records. A pointer's identity in reference expressions is
//! `ite(into == 0, j + 1, into)` (`j`: its index; input arrays' identities
//! are their index plus one, below every heap identity), its offset in
//! comparisons `at * size + offset`. So `pathwise_assume(end == s + n)`
//! is an equality of identities and offsets that the solver satisfies by
//! joining them, `pathwise_same_object(end, s)` says `end.into` is `s`'s
//! identity, and a relational comparison or a subtraction of two input
//! pointers assumes that they point into one object: C leaves the other
//! case undefined, so it is the precondition's business, not an error of
//! the function. A run whose comparison is on different objects ends as a
//! rejected input, and the search solves for inputs that join them (as if
//! the precondition had said `pathwise_same_object`). Where no join can
//! relate the two (two heap pointers, or arrays of different element types),
//! the path stays rejected and the run is counted
//! ([`crate::suite::Stats::unrelated_pointer_runs`]).
//!
//! Models prefer each parameter in its own array (`prefer_unjoined`):
//! parameters share an array only where a path needs it. A joined
//! parameter's accesses go to its target at a symbolic offset; its own
//! array is not built. Tests build the root's array and pass `s + 3`
//! (`HeapValue::Param`), or `pathwise_o2 + 3` into a heap object.

use pathwise_expr::{BvCmp, BvOp, ExprId, ExprPool, Model, Sort};
use pathwise_ir::{CType, FuncId, Loc, Program, Shape, Type};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::exec::Exec;
use crate::memory::ObjKind;
use crate::path::{End, EntryKind};
use crate::run::{InputSpec, ParamInput};
use crate::suite::ErrorKind;
use crate::value::{bv_of, non_const, ObjId, Pointer, Value};

/// Suffix of the variable saying which object a joinable parameter points into.
const INTO_SUFFIX: &str = ".into";
/// Suffix of the variable saying which element it points to there.
const AT_SUFFIX: &str = ".at";
/// Smaller offsets tried for a joined parameter (see [`prefer_unjoined`]).
const MAX_AT_TRIES: u64 = 64;
/// Bits of a heap identity below its type tag (see [`crate::heap`]).
const TAG_SHIFT: u32 = 20;

/// The join inputs of a joinable pointer parameter.
#[derive(Clone, Debug)]
pub struct JoinVars {
    /// Which object it points into (32 bits, see the module doc).
    pub into: ExprId,
    /// The element it points to there (64 bits).
    pub at: ExprId,
    /// Its identity: `ite(into == 0, index + 1, into)`.
    pub ident: ExprId,
    /// The other array parameters of its element type.
    pub peers: Vec<usize>,
    /// Whether it may point into a heap input object.
    pub heap: bool,
    /// The element type, as the heap model types objects.
    pub pointee: CType,
    pub elem: Type,
    /// The parameter's name (the access path of a heap object it points into).
    pub name: String,
}

/// What a run's inputs make of a joinable parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Its own array.
    Own,
    /// Element `at` of the array of parameter `root`.
    Array { root: usize, at: u64 },
    /// Element `at` of the heap input object of identity `ident`.
    Heap { ident: u64, at: u64 },
}

/// What an execution knows of the joins.
#[derive(Default)]
pub(crate) struct JoinState {
    /// Identity expression of each joinable parameter: its index, `into`,
    /// `at` and element size.
    idents: FxHashMap<ExprId, (usize, ExprId, ExprId, u64)>,
    /// The run's choice per parameter (`Own` for the others).
    pub(crate) choices: Vec<Choice>,
    /// Same-object conditions already recorded on this run.
    related: FxHashSet<ExprId>,
    /// Where the run compared pointers into input objects that no inputs
    /// can make one (it ended there, as a rejected input).
    pub(crate) unrelated: Option<Loc>,
}

impl JoinState {
    /// Whether some parameter of this run may point into another's array.
    pub(crate) fn any(&self) -> bool {
        !self.idents.is_empty()
    }
}

/// The identity of the input array of parameter `param` (below every heap
/// identity, above null).
pub(crate) fn array_ident(param: usize) -> u64 {
    param as u64 + 1
}

/// Whether some pointer parameter of `func` may point into another input's
/// object: an input array with a peer of its element type, or any input
/// heap (as [`join_vars`] decides).
pub(crate) fn may_join(program: &Program, func: FuncId) -> bool {
    let f = program.func(func);
    let arrays: Vec<Type> =
        f.params.iter().filter(|p| p.src.shape == Shape::Pointer).map(|p| p.src.scalar.ty).collect();
    let heap = f.params.iter().any(|p| p.src.shape == Shape::Heap);
    !arrays.is_empty() && (heap || arrays.iter().enumerate().any(|(i, t)| arrays[i + 1..].contains(t)))
}

/// The join inputs of `func`'s parameters (`None` for those that cannot be
/// joined). `params` are their inputs as [`InputSpec::new`] made them.
pub(crate) fn join_vars(
    pool: &mut ExprPool,
    program: &Program,
    func: FuncId,
    params: &[ParamInput],
) -> Vec<Option<JoinVars>> {
    let f = program.func(func);
    let heap = f.params.iter().any(|p| p.src.shape == Shape::Heap);
    let arrays: Vec<Option<Type>> = params
        .iter()
        .zip(&f.params)
        .map(|(p, fp)| match p {
            ParamInput::Array { elem, .. } if fp.src.shape == Shape::Pointer => Some(*elem),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for (j, p) in f.params.iter().enumerate() {
        let Some(elem) = arrays[j] else {
            out.push(None);
            continue;
        };
        let peers: Vec<usize> = (0..arrays.len()).filter(|&i| i != j && arrays[i] == Some(elem)).collect();
        if peers.is_empty() && !heap {
            out.push(None);
            continue;
        }
        let into = pool.var(&format!("{}{INTO_SUFFIX}", p.src.name), Sort::Bv(32));
        let at = pool.var(&format!("{}{AT_SUFFIX}", p.src.name), Sort::Bv(64));
        let zero = pool.bv_const(32, 0);
        let own = pool.eq(into, zero);
        let me = pool.bv_const(32, array_ident(j));
        let ident = pool.ite(own, me, into);
        let pointee = CType::Int { c_name: p.src.c_scalar.clone(), ty: p.src.scalar };
        out.push(Some(JoinVars { into, at, ident, peers, heap, pointee, elem, name: p.src.name.clone() }));
    }
    out
}

/// The model with each joinable parameter in its own array wherever the
/// query allows it (the solver is free to join any two), and, for two
/// parameters joined at one place, the later one pointing into the earlier
/// one's array (`s` holds the buffer, `end` points into it).
pub(crate) fn prefer_unjoined(
    joins: &[Option<JoinVars>],
    pool: &ExprPool,
    query: &[ExprId],
    mut model: Model,
) -> Model {
    if !joins.iter().flatten().any(|jv| model.bv.get(&jv.into).is_some_and(|&v| v != 0)) {
        return model;
    }
    for jv in joins.iter().flatten() {
        let Some(&v) = model.bv.get(&jv.into).filter(|&&v| v != 0) else { continue };
        let old_at = model.bv.get(&jv.at).copied();
        model.bv.insert(jv.into, 0);
        model.bv.insert(jv.at, 0);
        if pathwise_expr::eval::satisfies(pool, query, &model) {
            continue;
        }
        // Joined, then as near the start of the target as it can be (the
        // tests' arrays are then as short as their paths allow).
        model.bv.insert(jv.into, v);
        let old = old_at.unwrap_or(0);
        let nearer = (0..old.min(MAX_AT_TRIES)).find(|&a| {
            model.bv.insert(jv.at, a);
            pathwise_expr::eval::satisfies(pool, query, &model)
        });
        if nearer.is_none() {
            match old_at {
                Some(a) => model.bv.insert(jv.at, a),
                None => model.bv.remove(&jv.at),
            };
        }
    }
    prefer_later_joined(joins, pool, query, model)
}

/// Two parameters joined at the same element with the earlier one pointing
/// into the later one's array: the other way round if the query allows it.
fn prefer_later_joined(joins: &[Option<JoinVars>], pool: &ExprPool, query: &[ExprId], mut model: Model) -> Model {
    for (j, jv) in joins.iter().enumerate() {
        let Some(jv) = jv else { continue };
        let v = model.bv.get(&jv.into).copied().unwrap_or(0);
        let at = model.bv.get(&jv.at).copied().unwrap_or(0);
        if v == 0 || v <= array_ident(j) || at != 0 {
            continue;
        }
        // `j` points at the start of a later parameter's array: try that
        // one at the start of `j`'s.
        let Some(Some(other)) = joins.get(v as usize - 1) else { continue };
        if joins.iter().flatten().any(|k| k.into != jv.into && model.bv.get(&k.into) == Some(&v)) {
            continue;
        }
        let mut swapped = model.clone();
        swapped.bv.insert(jv.into, 0);
        swapped.bv.insert(other.into, array_ident(j));
        swapped.bv.insert(other.at, 0);
        if pathwise_expr::eval::satisfies(pool, query, &swapped) {
            model = swapped;
        }
    }
    model
}

impl Exec<'_, '_> {
    /// Where each joinable parameter points in this run, given the run's
    /// inputs (a choice the domain does not allow is its own array).
    fn choose(&mut self, spec: &InputSpec, jv: &JoinVars) -> Choice {
        let into = (self.input_lens)(jv.into) & 0xffff_ffff;
        let at = (self.input_lens)(jv.at);
        let max = u64::from(self.m.config.max_array_len);
        if into == 0 || at > max {
            return Choice::Own;
        }
        if let Some(root) = jv.peers.iter().copied().find(|&i| array_ident(i) == into) {
            let root_own = match spec.joins.get(root) {
                Some(Some(rv)) => (self.input_lens)(rv.into) & 0xffff_ffff == 0,
                _ => true,
            };
            return if root_own { Choice::Array { root, at } } else { Choice::Own };
        }
        if !jv.heap {
            return Choice::Own;
        }
        let tag = self.m.slots.borrow_mut().tag(&jv.pointee);
        if into >> TAG_SHIFT == tag && into & ((1 << TAG_SHIFT) - 1) != 0 {
            return Choice::Heap { ident: into, at };
        }
        Choice::Own
    }

    /// The domain of parameter `j`'s join inputs: its own array (at 0), an
    /// element of a root peer's array, or of a heap input object of its
    /// type, up to `--max-array-len`. It leaves the target's length out, so
    /// that queries about lengths alone never meet it: a run that joins
    /// assumes `at <= len` ([`Self::join_args`]).
    fn join_domain(&mut self, spec: &InputSpec, jv: &JoinVars) -> ExprId {
        let p = &mut *self.pool;
        let zero32 = p.bv_const(32, 0);
        let zero64 = p.bv_const(64, 0);
        let own_into = p.eq(jv.into, zero32);
        let at_zero = p.eq(jv.at, zero64);
        let mut joined = p.bool_const(false);
        for &i in &jv.peers {
            let Some(Some(rv)) = spec.joins.get(i) else { continue };
            let id = p.bv_const(32, array_ident(i));
            let into_i = p.eq(jv.into, id);
            let root = p.eq(rv.into, zero32);
            let c = p.and(into_i, root);
            joined = p.or(joined, c);
        }
        if jv.heap {
            let tag = self.m.slots.borrow_mut().tag(&jv.pointee);
            let p = &mut *self.pool;
            let lo = p.bv_const(32, (tag << TAG_SHIFT) + 1);
            let hi = p.bv_const(32, (tag << TAG_SHIFT) | ((1 << TAG_SHIFT) - 1));
            let above = p.cmp(BvCmp::Ule, lo, jv.into);
            let below = p.cmp(BvCmp::Ule, jv.into, hi);
            let c = p.and(above, below);
            joined = p.or(joined, c);
        }
        let p = &mut *self.pool;
        let max = p.bv_const(64, u64::from(self.m.config.max_array_len));
        let within = p.cmp(BvCmp::Ule, jv.at, max);
        let joined = p.and(joined, within);
        let own = p.and(own_into, at_zero);
        p.or(own, joined)
    }

    /// Point each joinable parameter where the inputs say (`args` and
    /// `objs`: the arguments and input arrays [`crate::run`] built, each
    /// parameter in its own array), recording the join domains.
    pub(crate) fn join_args(
        &mut self,
        spec: &InputSpec,
        args: &mut [Value],
        objs: &mut [Option<ObjId>],
        loc: Loc,
    ) -> Result<(), End> {
        self.heap.joins.choices = vec![Choice::Own; spec.params.len()];
        for (j, jv) in spec.joins.iter().enumerate() {
            let Some(jv) = jv else { continue };
            let es = jv.elem.bytes();
            self.heap.joins.idents.insert(jv.ident, (j, jv.into, jv.at, es));
            if self.symbolic {
                let dom = self.join_domain(spec, jv);
                self.record(dom, EntryKind::Assume, false, false, loc);
            }
        }
        for (j, jv) in spec.joins.iter().enumerate() {
            let Some(jv) = jv else { continue };
            if args[j].as_ptr().obj.is_none() {
                // A null parameter (see `null_params`) points nowhere.
                continue;
            }
            let choice = self.choose(spec, jv);
            self.heap.joins.choices[j] = choice;
            let es = jv.elem.bytes();
            let bytes = self.pool.bv_const(64, es);
            let off_e = self.pool.bin(BvOp::Mul, bytes, jv.at);
            let off_sym = non_const(self.pool, off_e);
            let base_sym = Some(jv.ident);
            args[j] = match choice {
                Choice::Own => Value::Ptr(Pointer { base_sym, ..args[j].as_ptr() }),
                Choice::Array { root, at } => {
                    objs[j] = None;
                    // One past the end at most: the root's length is an
                    // input too, which a failed assumption makes longer.
                    let len = match spec.params[root] {
                        ParamInput::Array { input, .. } => input.len,
                        _ => unreachable!("roots are arrays"),
                    };
                    let conc_len = objs[root].map_or(0, |o| self.mem.object(o).count());
                    let within = self.pool.cmp(BvCmp::Ule, jv.at, len);
                    self.assume(within, at <= conc_len, loc)?;
                    Value::Ptr(Pointer { obj: objs[root], off: at * es, off_sym, base_sym, path: 0 })
                }
                Choice::Heap { ident, at } => {
                    objs[j] = None;
                    let obj = self.input_object(ident, &jv.pointee, es)?;
                    let path = self.m.slots.borrow_mut().id(&jv.name);
                    let p = Pointer { obj: Some(obj), off: at * es, off_sym, base_sym, path };
                    self.join_count(&p, obj, (at, jv.at), loc)?;
                    Value::Ptr(p)
                }
            };
        }
        Ok(())
    }

    /// A parameter pointing at element `at` of heap input object `obj`:
    /// the object has at least `at` elements (one past the end is valid).
    /// A free count grows to it, a count `pathwise_array_len` tied must
    /// already hold it.
    fn join_count(&mut self, p: &Pointer, obj: ObjId, (at, at_e): (u64, ExprId), loc: Loc) -> Result<(), End> {
        let (count, sym) = self.heap_count(p, obj, loc)?;
        let cond = sym.map(|s| self.pool.cmp(BvCmp::Ule, at_e, s));
        if self.heap.tied_counts.contains(self.ident_of(p)) {
            let cond = cond.unwrap_or_else(|| self.pool.bool_const(at <= count));
            return self.assume(cond, at <= count, loc);
        }
        if let Some(c) = cond {
            self.guard(c, loc);
        }
        if at > count {
            self.set_count(obj, at);
        }
        Ok(())
    }

    /// Whether `p` is an input parameter's pointer whose identity is a join
    /// identity (not a heap reference).
    pub(crate) fn is_join_ident(&self, e: ExprId) -> bool {
        self.heap.joins.idents.contains_key(&e)
    }

    /// Whether `p` points into an input object (an input array or a heap
    /// input object).
    fn is_input_pointer(&self, p: &Pointer) -> bool {
        p.obj.is_some_and(|o| matches!(self.mem.object(o).kind, ObjKind::Input { .. } | ObjKind::HeapInput { .. }))
    }

    /// Whether `p == q` / `p != q` compares identities symbolically: when a
    /// pointer came from an input heap slot, or both point into input
    /// objects and one may be joined (a joinable parameter's pointer
    /// compared with a local's or with NULL stays concrete: it cannot be
    /// either).
    pub(crate) fn compares_identities(&self, p: &Pointer, q: &Pointer) -> bool {
        let heap_ref = |e: Option<ExprId>| e.is_some_and(|e| !self.is_join_ident(e));
        if heap_ref(p.base_sym) || heap_ref(q.base_sym) {
            return true;
        }
        (p.base_sym.is_some() || q.base_sym.is_some()) && self.is_input_pointer(p) && self.is_input_pointer(q)
    }

    /// The offset of `p` in reference comparisons: its byte offset, plus
    /// where its parameter's own array starts when it points there (`at`,
    /// 0 on this run) so that a comparison that joins it says where.
    pub(crate) fn ident_offset(&mut self, p: &Pointer) -> ExprId {
        let off = bv_of(self.pool, p.off, p.off_sym, 64);
        let Some(&(param, _, at, es)) = p.base_sym.and_then(|b| self.heap.joins.idents.get(&b)) else { return off };
        let own = p.obj.is_some_and(|o| self.mem.object(o).kind == ObjKind::Input { param });
        if !own {
            return off;
        }
        let bytes = self.pool.bv_const(64, es);
        let start = self.pool.bin(BvOp::Mul, bytes, at);
        self.pool.bin(BvOp::Add, start, off)
    }

    /// The offsets to compare of two pointers whose identities are `ba`
    /// and `bb`: plain when they are one expression (derived from one
    /// pointer), else with where each parameter's own array starts.
    pub(crate) fn compared_offsets(&mut self, a: &Pointer, b: &Pointer, same_base: bool) -> (Value, Value) {
        let val = |e: ExprId, conc: u64, pool: &ExprPool| Value::Int { conc, sym: non_const(pool, e) };
        if same_base {
            let (oa, ob) = (bv_of(self.pool, a.off, a.off_sym, 64), bv_of(self.pool, b.off, b.off_sym, 64));
            return (val(oa, a.off, self.pool), val(ob, b.off, self.pool));
        }
        let (oa, ob) = (self.ident_offset(a), self.ident_offset(b));
        (val(oa, a.off, self.pool), val(ob, b.off, self.pool))
    }

    /// `<`, `<=`, `>`, `>=` or `-` on pointers `a` and `b`: when both point
    /// into input objects, they must point into one (C defines nothing
    /// else), which the run assumes; a run on two objects ends as rejected
    /// inputs (the search then looks for inputs that join them). Returns
    /// the offsets to compare, or `None` when either is not an input
    /// pointer.
    pub(crate) fn relate_inputs(&mut self, a: &Pointer, b: &Pointer, loc: Loc) -> Result<Option<(Value, Value)>, End> {
        // Neither is defined on a null pointer: a parameter that may be
        // null is checked as by a dereference (see `null_params`).
        for p in [a, b] {
            if let Some(checked) = self.null_param_use(p, loc, "ordering or subtraction of a null pointer") {
                checked?;
            }
        }
        if !(self.is_input_pointer(a) && self.is_input_pointer(b)) {
            return Ok(None);
        }
        let (ba, bb) = (self.base_expr(a), self.base_expr(b));
        let same = self.pool.eq(ba, bb);
        let holds = a.obj == b.obj;
        if !holds {
            if self.pool.as_bool_const(same) == Some(false) {
                self.heap.joins.unrelated.get_or_insert(loc);
            }
            return self.assume(same, false, loc).map(|()| None);
        }
        if self.heap.joins.related.insert(same) {
            self.assume(same, true, loc)?;
        }
        Ok(Some(self.compared_offsets(a, b, ba == bb)))
    }

    /// `pathwise_same_object(p, q)`: `p` points into the object `q` points
    /// into. When `p` is a joinable parameter, it is the one joined (its
    /// `into` is `q`'s identity); otherwise the identities are equal.
    pub(crate) fn same_object(&mut self, args: &[Value], loc: Loc) -> Result<(), End> {
        let ptr = |i: usize| args.get(i).map(|v| v.as_ptr()).unwrap_or(Pointer::NULL);
        let (p, q) = (ptr(0), ptr(1));
        if !(self.is_input_pointer(&p) && self.is_input_pointer(&q)) && (p.obj.is_some() || q.obj.is_some()) {
            let inputs = |s: &Self, x: &Pointer| x.base_sym.is_some() || s.is_input_pointer(x);
            if !(inputs(self, &p) && inputs(self, &q)) {
                let message =
                    "pathwise_same_object: both arguments must be input pointers (parameters or read from them)";
                return Err(self.error(ErrorKind::Unsupported, message, loc));
            }
        }
        let bq = self.base_expr(&q);
        let joined = p.base_sym.and_then(|b| self.heap.joins.idents.get(&b)).copied();
        let (cond, holds) = match joined {
            Some((param, into, _, _)) => {
                let own = p.obj.is_some_and(|o| self.mem.object(o).kind == ObjKind::Input { param });
                (self.pool.eq(into, bq), p.obj.is_some() && p.obj == q.obj && !own)
            }
            None => {
                let bp = self.base_expr(&p);
                (self.pool.eq(bp, bq), p.obj.is_some() && p.obj == q.obj)
            }
        };
        if !holds && self.pool.as_bool_const(cond) == Some(false) {
            let message = "pathwise_same_object: these pointers can never point into one object (pointer parameters of one element type, or an input object of that type, can)";
            return Err(self.error(ErrorKind::Unsupported, message, loc));
        }
        self.assume(cond, holds, loc)
    }
}

/// A root's array holds at least the elements up to where the parameters
/// joined into it point (one past the end included): the length a test
/// gives it is never shorter than that.
pub(crate) fn note_touched(choices: &[Choice], touched: &mut [u64]) {
    for c in choices {
        if let Choice::Array { root, at } = *c {
            touched[root] = touched[root].max(at);
        }
    }
}

//! Null pointer parameters: NULL is an input of every pointer parameter.
//!
//! C callers pass NULL where a function accepts it (`if (!s) return 0;`)
//! and never where it does not: a function that dereferences a parameter
//! without testing it states a contract, "the caller passes a valid
//! pointer", not a bug (issue 23: the structure pointers of a path library
//! got 22,145 null-dereference tests while its `char *` parameters were
//! never NULL, so the branches that did test them were never covered).
//! Under [`NullArgs::Assume`] (`gen`'s default) and [`NullArgs::Errors`]:
//! - an input array parameter has a 1-bit input `name.null`; a run that sets
//!   it passes NULL (no array), and a comparison of the parameter with NULL
//!   is a decision on that input, so the search covers both sides;
//! - structure pointers and function pointers may be null already (their
//!   reference variable is 0, see [`crate::heap`] and [`crate::fnptr`]);
//! - the first dereference of a parameter on a path checks that it is not
//!   null, a check the error search negates like any other. A run that
//!   dereferences a null parameter ends as a rejected input under `Assume`
//!   (the contract is recorded: [`crate::run::RunRecord::nonnull_assumed`],
//!   reported as `assumes non-null: p`), and in a null-dereference error
//!   under `Errors`.
//!
//! Only the parameters themselves (and pointers derived from them): a null
//! pointer read from an input structure's field stays a null-dereference
//! error, since the structure's own invariant is what the test exercises.
//! [`NullArgs::References`] (the papers' model, `Config::new`) leaves
//! input arrays non-null and structure pointers' dereferences errors; so
//! does a precondition for input arrays (see [`arrays_nullable`]).

use pathwise_expr::{ExprId, ExprPool, Sort};
use pathwise_ir::Loc;
use rustc_hash::FxHashMap;

use crate::config::NullArgs;
use crate::exec::Exec;
use crate::memory::ObjKind;
use crate::path::{End, EntryKind, Region};
use crate::run::{InputSpec, ParamInput};
use crate::suite::ErrorKind;
use crate::value::{Pointer, Value};

/// What a run knows of its parameters' nullness.
#[derive(Default)]
pub(crate) struct NullParams {
    /// Per parameter: the condition "it is null", and whether it is an
    /// input array (the others, references and function pointers, have
    /// their own null checks).
    conds: Vec<Option<(ExprId, bool)>>,
    /// The base expression of a pointer that is a parameter (a reference
    /// or function variable, a joinable array's identity, a null array's
    /// marker) to the parameter.
    bases: FxHashMap<ExprId, usize>,
    /// Array parameters whose non-null check this path recorded.
    checked: Vec<bool>,
    /// The dereference of a null parameter that ended the run (`Assume`).
    pub(crate) assumed: Option<(usize, Loc)>,
}

/// The condition "array parameter input `var` (its 1-bit null input) is
/// null".
fn is_null(pool: &mut ExprPool, var: ExprId) -> ExprId {
    let one = pool.bv_const(1, 1);
    pool.eq(var, one)
}

/// The condition the first dereference of an array parameter records
/// when its input is not null.
pub(crate) fn not_null(pool: &mut ExprPool, var: ExprId) -> ExprId {
    let null = is_null(pool, var);
    pool.not(null)
}

impl Exec<'_, '_> {
    /// Note which arguments are the parameters the inputs may make null
    /// (after the heap parameters are materialised and the joins placed).
    pub(crate) fn null_params_of(&mut self, spec: &InputSpec, args: &mut [Value]) {
        if self.m.config.null_args == NullArgs::References {
            return;
        }
        let n = spec.params.len();
        self.heap.null_params.conds = vec![None; n];
        self.heap.null_params.checked = vec![false; n];
        // (`stdin`'s content, past the parameters, is no argument.)
        for (i, p) in spec.params.iter().enumerate().take(args.len()) {
            let ptr = args[i].as_ptr();
            match *p {
                ParamInput::Array { null: Some(var), .. } => {
                    let cond = is_null(self.pool, var);
                    self.heap.null_params.conds[i] = Some((cond, true));
                    if ptr.obj.is_none() {
                        // A marker that reads as what it is: 0 when null.
                        let zero = self.pool.bv_const(32, 0);
                        let ident = self.pool.bv_const(32, crate::joins::array_ident(i));
                        let marker = self.pool.ite(cond, zero, ident);
                        self.heap.null_params.bases.insert(marker, i);
                        args[i] = Value::Ptr(Pointer { base_sym: Some(marker), ..Pointer::NULL });
                    } else if let Some(b) = ptr.base_sym {
                        self.heap.null_params.bases.insert(b, i);
                    }
                }
                ParamInput::Heap { by_value: false, .. } | ParamInput::Function { .. } => {
                    let Some(r) = ptr.base_sym else { continue };
                    let zero = self.pool.bv_const(32, 0);
                    let cond = self.pool.eq(r, zero);
                    self.heap.null_params.conds[i] = Some((cond, false));
                    self.heap.null_params.bases.insert(r, i);
                }
                _ => {}
            }
        }
    }

    /// The parameter `p` is (or is derived from), with its null condition
    /// and whether it is an array.
    fn null_param(&self, p: &Pointer) -> Option<(usize, ExprId, bool)> {
        let np = &self.heap.null_params;
        let param = match (p.base_sym, p.obj) {
            (Some(b), _) => *np.bases.get(&b)?,
            (None, Some(o)) => match self.mem.object(o).kind {
                ObjKind::Input { param } => param,
                _ => return None,
            },
            (None, None) => return None,
        };
        let (cond, array) = (*np.conds.get(param)?)?;
        Some((param, cond, array))
    }

    /// The null check of a dereference of `p` when it is a parameter that
    /// may be null; `None` leaves the dereference to the general checks.
    pub(crate) fn null_param_deref(&mut self, p: &Pointer, loc: Loc) -> Option<Result<(), End>> {
        self.null_param_use(p, loc, "null pointer dereference")
    }

    /// The null check of a use of `p` that needs a valid pointer (`what`
    /// names it when it is an error), as [`Self::null_param_deref`].
    pub(crate) fn null_param_use(&mut self, p: &Pointer, loc: Loc, what: &str) -> Option<Result<(), End>> {
        let (param, cond, array) = self.null_param(p)?;
        if p.obj.is_some() {
            if !array {
                // References keep their own check (`check_nonnull`).
                return None;
            }
            if std::mem::replace(&mut self.heap.null_params.checked[param], true) {
                return Some(Ok(()));
            }
            let ok = self.pool.not(cond);
            // A precondition is not under test: its dereference of a
            // parameter only makes a null one an invalid input.
            let seek = self.m.config.seek_errors && self.region == Region::Main;
            self.record(ok, EntryKind::Guard { violated: false }, seek, false, loc);
            return Some(Ok(()));
        }
        Some(self.null_dereferenced(param, cond, loc, what))
    }

    /// Record whether `p`, an input array parameter that may be null, is
    /// null, as a decision of the run at `loc` (as `Exec::decide_null`
    /// does for references): `false` when `p` is no such parameter.
    pub(crate) fn decide_null_param(&mut self, p: &Pointer, loc: Loc) -> bool {
        let Some((param, cond, true)) = self.null_param(p) else { return false };
        if p.obj.is_none() {
            self.record(cond, EntryKind::Assume, true, false, loc);
        } else if !std::mem::replace(&mut self.heap.null_params.checked[param], true) {
            let not_null = self.pool.not(cond);
            self.record(not_null, EntryKind::Assume, true, false, loc);
        }
        true
    }

    /// A library function testing whether `p`, an input array parameter
    /// that may be null, is null (`mbtowc(pwc, NULL, n)`, `free(NULL)` are
    /// defined): a decision of the path, so both sides are explored and
    /// agree with the non-null check a dereference would record. `false`
    /// when `p` is no such parameter.
    pub(crate) fn decide_null_param_in_library(&mut self, p: &Pointer, loc: Loc) -> bool {
        let Some((param, cond, true)) = self.null_param(p) else { return false };
        let null = p.obj.is_none();
        if null || !std::mem::replace(&mut self.heap.null_params.checked[param], true) {
            let oriented = if null { cond } else { self.pool.not(cond) };
            self.record(oriented, EntryKind::Library { taken: null }, true, false, loc);
        }
        true
    }

    /// A dereference of parameter `param`, null on this run (`cond`):
    /// the contract under `Assume`, an error under `Errors`.
    fn null_dereferenced(&mut self, param: usize, cond: ExprId, loc: Loc, what: &str) -> Result<(), End> {
        self.record(cond, EntryKind::Guard { violated: true }, true, false, loc);
        if self.m.config.null_args == NullArgs::Errors {
            return Err(self.error(ErrorKind::NullDereference, what, loc));
        }
        if self.region == Region::Main {
            self.heap.null_params.assumed = Some((param, self.user_loc(loc)));
        }
        Err(End::AssumeFailed)
    }

    /// Where the user's code is at `loc`: the call of the library code
    /// (`qsort`'s lowered C) that `loc` is in, if any.
    pub(crate) fn user_loc(&self, loc: Loc) -> Loc {
        let program = self.m.program;
        if !self.frames.last().is_some_and(|f| program.is_library(f.func)) {
            return loc;
        }
        let caller = self.frames.iter().rev().find(|f| !program.is_library(f.func));
        // A caller's instruction index is already past its call.
        caller
            .and_then(|f| program.func(f.func).block(f.block).insts.get(f.inst.checked_sub(1)?))
            .map_or(loc, |i| i.loc)
    }

    /// The library function the user's code called, when the run is in
    /// the C library's lowered code (`strtok` while in `strtok_r`).
    pub(crate) fn library_entry(&self) -> Option<pathwise_ir::FuncId> {
        let program = self.m.program;
        let user = self.frames.iter().rposition(|f| !program.is_library(f.func))?;
        self.frames.get(user + 1).map(|f| f.func)
    }

    /// A call through function pointer `p`, null on this run: the
    /// contract when `p` is a parameter and null is assumed away (`None`
    /// otherwise: a null-dereference error).
    pub(crate) fn null_param_call(&mut self, p: &Pointer, loc: Loc) -> Option<End> {
        if self.m.config.null_args != NullArgs::Assume || p.obj.is_some() {
            return None;
        }
        let (param, cond, _) = self.null_param(p)?;
        self.null_dereferenced(param, cond, loc, "call through a null function pointer").err()
    }

    /// `p == NULL` / `p != NULL` where `p` is an array parameter that may
    /// be null (references compare by their own variables): a decision on
    /// its null input.
    pub(crate) fn compare_null_param(&mut self, eq: bool, a: &Pointer, b: &Pointer) -> Option<Value> {
        let plain_null = |p: &Pointer| p.obj.is_none() && p.off == 0 && p.off_sym.is_none() && p.base_sym.is_none();
        let p = if plain_null(b) {
            a
        } else if plain_null(a) {
            b
        } else {
            return None;
        };
        if p.off != 0 || p.off_sym.is_some() {
            return None;
        }
        let (_, cond, true) = self.null_param(p)? else { return None };
        let is_null = p.obj.is_none();
        let e = if eq { cond } else { self.pool.not(cond) };
        Some(Value::Int { conc: (is_null == eq) as u64, sym: Some(e) })
    }
}

/// Whether input arrays may be null: not in the papers' model, and not
/// by default when a precondition states which inputs are valid (as it
/// states their lengths, see [`crate::contracts`]): a precondition that
/// reads an array rejects a null one, and searching its paths for valid
/// inputs to the function's null side costs the precondition's budget on
/// every prefix. `--null-args errors` asks for them anyway.
pub fn arrays_nullable(config: &crate::config::Config) -> bool {
    match config.null_args {
        NullArgs::References => false,
        NullArgs::Assume => config.precondition.is_none(),
        NullArgs::Errors => true,
    }
}

/// Whether `inputs` pass NULL for the array parameter `p`.
pub(crate) fn passes_null(p: &ParamInput, inputs: &pathwise_expr::Model) -> bool {
    matches!(*p, ParamInput::Array { null: Some(var), .. } if inputs.bv.get(&var).is_some_and(|&v| v & 1 == 1))
}

/// The 1-bit null input of an array parameter named `name`.
pub(crate) fn null_var(pool: &mut pathwise_expr::ExprPool, name: &str) -> ExprId {
    pool.var(&format!("{name}.null"), Sort::Bv(1))
}

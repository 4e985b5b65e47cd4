//! Function pointers at run time.
//!
//! A pointer to a function points to the function's *code object*
//! ([`crate::memory::ObjKind::Code`]): one per function and run, without
//! bytes, so that pointers to one function compare equal, a table of
//! handlers is an array of such pointers, and a load or store through one
//! is an out-of-bounds access.
//!
//! A call through a pointer ([`pathwise_ir::InstKind::CallPtr`]) calls the
//! function whose code the pointer reaches, after checking that it takes
//! the arguments the call passes (calling a function through a pointer of
//! another type is undefined behaviour, reported as unsupported).
//!
//! An input function pointer (a parameter of shape
//! [`pathwise_ir::Shape::Function`]) is null or one of the *candidates*:
//! the unit's functions of exactly the pointer's C type (with a body, or a
//! library function Pathwise models), in id order, then the parameter's
//! callback stub (`pathwise_stub_F_P`, declared by the front end), a
//! callback of the caller's: an external function whose calls return
//! fresh inputs, which the tests define. Its value is a 32-bit
//! variable whose domain is `0` (null) or a candidate's identity
//! ([`FUNC_IDENT_BASE`] plus its id), the identity [`crate::heap`] gives
//! code objects, so `cb == NULL` and `cb == handler` are decisions on it.
//! Calling through it is a decision too: the run's target is recorded as
//! an explorable `var == identity`, so the search tries every candidate
//! (and null, which makes the call a null dereference) on the paths where
//! the call happens, and no others.
//!
//! A function-pointer member of an input structure is an input too
//! ([`Exec::input_function`], when the path first reads it): its variable
//! is named after the member's slot, its domain is a guard of the path,
//! and its candidates are those of its type with the front end's member
//! stub of that type ([`field_candidates`]).

use pathwise_expr::{ExprId, ExprPool};
use pathwise_ir::{CType, FuncId, Loc, Operand, Program, Reg, Type};

use crate::exec::{Exec, Flow};
use crate::path::EntryKind;
use crate::suite::ErrorKind;
use crate::value::Pointer;

/// Identity of function `f`'s code object in reference expressions: above
/// every input heap identity (`tag << 20 | slot`, with few tags), below
/// the identities of other objects (`0x8000_0000 + id`).
pub(crate) const FUNC_IDENT_BASE: u64 = 0x7000_0000;

/// The identity of function `f`'s code.
pub(crate) fn ident(f: FuncId) -> u64 {
    FUNC_IDENT_BASE + u64::from(f.0)
}

/// The function whose identity is `v`, among `candidates`.
pub(crate) fn chosen(candidates: &[FuncId], v: u64) -> Option<FuncId> {
    candidates.iter().copied().find(|&f| ident(f) == v)
}

/// Whether `name` is the front end's callback stub of a function-pointer
/// parameter (`pathwise_stub_F_P`): an external function to the engine.
pub fn is_stub(name: &str) -> bool {
    name.starts_with("pathwise_stub_")
}

/// The functions parameter `param` of `func`, a pointer to a function of
/// type `func_ty`, may point to: the functions of that C type with a body
/// or a model (except `main`), then the parameter's callback stub, whose
/// calls return fresh inputs (a callback the caller provides).
pub fn candidates(program: &Program, func_ty: &CType, func: &str, param: &str) -> Vec<FuncId> {
    let stub = format!("pathwise_stub_{func}_{param}");
    with_stub(program, func_ty, |f| f.name == stub)
}

/// The functions a function-pointer member of an input structure, of
/// type `func_ty`, may point to: as for a parameter (see [`candidates`]),
/// with the front end's stub of that type for members
/// (`pathwise_stub_field_S_m`, one per function type).
pub fn field_candidates(program: &Program, func_ty: &CType) -> Vec<FuncId> {
    with_stub(program, func_ty, |f| f.name.starts_with(FIELD_STUB_PREFIX))
}

/// The unit's functions of type `func_ty` with a body or a model (except
/// `main` and stubs), in id order, then the first stub of that type that
/// `is_the_stub` accepts.
fn with_stub(program: &Program, func_ty: &CType, is_the_stub: impl Fn(&pathwise_ir::FuncData) -> bool) -> Vec<FuncId> {
    let of_type = |f: &pathwise_ir::FuncData| f.cty.as_ref() == Some(func_ty);
    let mut out: Vec<FuncId> = program
        .funcs
        .iter()
        .enumerate()
        .filter(|(_, f)| of_type(f) && f.name != "main" && !is_stub(&f.name))
        .filter(|(_, f)| !f.is_declaration() || crate::setup::has_model(&f.name))
        .map(|(i, _)| FuncId(i as u32))
        .collect();
    let stub = program.funcs.iter().position(|f| of_type(f) && is_stub(&f.name) && is_the_stub(f));
    out.extend(stub.map(|i| FuncId(i as u32)));
    out
}

pub use pathwise_ir::FIELD_STUB_PREFIX;

/// The domain of an input function pointer's variable: null or a candidate.
pub(crate) fn domain(pool: &mut ExprPool, var: ExprId, candidates: &[FuncId]) -> ExprId {
    let zero = pool.bv_const(32, 0);
    let mut d = pool.eq(var, zero);
    for &f in candidates {
        let k = pool.bv_const(32, ident(f));
        let is_f = pool.eq(var, k);
        d = pool.or(d, is_f);
    }
    d
}

/// The IR type of operand `op` in function `f` (registers: a parameter's
/// type or the type of the instruction defining it).
fn operand_type(program: &Program, f: FuncId, op: &Operand) -> Option<Type> {
    let r = match op {
        Operand::Const(t, _) => return Some(*t),
        Operand::Reg(r) => *r,
    };
    let fd = program.func(f);
    if let Some(p) = fd.params.iter().find(|p| p.reg == r) {
        return Some(p.ty);
    }
    fd.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .find(|i| i.result == Some(r))
        .and_then(|i| i.kind.result_type(Some(program)))
}

impl Exec<'_, '_> {
    /// `callptr callee(args) -> ret`: resolves the function and calls it.
    pub(crate) fn call_through_pointer(
        &mut self,
        callee: &Operand,
        args: &[Operand],
        ret: Option<Type>,
        result: Option<Reg>,
        loc: Loc,
    ) -> Flow {
        let p = self.operand(callee).as_ptr();
        match self.resolve_callee(&p, args, ret, loc) {
            Ok(func) => self.call(func, args, result, loc),
            Err(end) => Flow::End(end),
        }
    }

    /// Which function (or null) the input function pointer `var` is
    /// decides the path from here, as a chain of decisions `var == t` over
    /// null and the candidates in order, up to the run's target `value`
    /// (so that each position is the same condition in every run, and
    /// negating one tries the next target).
    fn decide_target(&mut self, var: ExprId, value: u64, loc: Loc) {
        let candidates = self.fn_candidates(var);
        let targets = std::iter::once(0).chain(candidates.iter().map(|&f| ident(f)));
        let n = candidates.len() + 1;
        for (i, t) in targets.enumerate() {
            // The last target needs no decision: the domain implies it.
            if i + 1 == n {
                break;
            }
            let holds = t == value;
            let k = self.pool.bv_const(32, t);
            let is_t = self.pool.eq(var, k);
            self.choice(is_t, holds, loc);
            if holds {
                break;
            }
        }
    }

    /// One link of a chain of choices (`var == t?`, `index == 0?`): the
    /// condition `is_t` as it held on the run, a decision the search
    /// negates to try the next choice, and a step of the path, as a
    /// `switch` case would be, so that tests through different choices are
    /// different paths.
    pub(crate) fn choice(&mut self, is_t: ExprId, holds: bool, loc: Loc) {
        let oriented = if holds { is_t } else { self.pool.not(is_t) };
        self.record(oriented, EntryKind::Library { taken: holds }, true, false, loc);
        if self.region == crate::path::Region::Main {
            let func = self.m.step_func(self.frame().func);
            self.seen.path.push(crate::suite::PathStep { func, loc, taken: holds, loop_iter: None });
        }
    }

    /// The initial value of a function-pointer member of an input object
    /// (read first at `field`): null or one of [`field_candidates`], an
    /// input variable whose target is decided where the path calls or
    /// compares it, as for a parameter. Its domain is a guard of the path.
    pub(crate) fn input_function(&mut self, field: &str, func_ty: &CType, loc: Loc) -> crate::value::Value {
        let var = self.pool.var(&format!("fn:{field}"), pathwise_expr::Sort::Bv(32));
        let candidates = field_candidates(self.m.program, func_ty);
        let d = domain(self.pool, var, &candidates);
        self.guard(d, loc);
        let value = self.model_bits(var) & 0xffff_ffff;
        let obj = chosen(&candidates, value).map(|f| self.mem.code_object(f));
        self.heap.fn_inputs.push((var, candidates));
        crate::value::Value::Ptr(Pointer { obj, base_sym: Some(var), ..Pointer::NULL })
    }

    /// The candidates of input function pointer `var`.
    fn fn_candidates(&self, var: ExprId) -> Vec<FuncId> {
        self.heap.fn_inputs.iter().find(|(v, _)| *v == var).map(|(_, c)| c.clone()).unwrap_or_default()
    }

    fn resolve_callee(
        &mut self,
        p: &Pointer,
        args: &[Operand],
        ret: Option<Type>,
        loc: Loc,
    ) -> Result<FuncId, crate::path::End> {
        if let Some(var) = p.base_sym {
            if self.heap.fn_targets.insert(var) {
                self.decide_target(var, self.ident_of(p), loc);
            }
        }
        let Some(obj) = p.obj else {
            if let Some(end) = self.null_param_call(p, loc) {
                return Err(end);
            }
            return Err(self.error(ErrorKind::NullDereference, "call through a null function pointer", loc));
        };
        let func = match self.mem.code_func(obj) {
            Some(f) if p.off == 0 && p.off_sym.is_none() => f,
            _ => {
                let message = "call through a pointer that does not point to a function";
                return Err(self.error(ErrorKind::Unsupported, message, loc));
            }
        };
        let program = self.m.program;
        let f = program.func(func);
        let caller = self.frame().func;
        let arg_types: Vec<Option<Type>> = args.iter().map(|a| operand_type(program, caller, a)).collect();
        let params_match = arg_types.len() == f.params.len()
            && arg_types.iter().zip(&f.params).all(|(t, p)| *t == Some(p.ty))
            && ret == f.ret;
        if !params_match {
            let message = format!(
                "call through a function pointer to `{}`, whose parameters or result differ from the pointer's type",
                f.name
            );
            return Err(self.error(ErrorKind::Unsupported, message, loc));
        }
        Ok(func)
    }
}

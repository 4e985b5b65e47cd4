//! Inputs as C callers pass them: the contracts the function's own code
//! shows, which the input model then keeps.
//!
//! A pointer parameter with a length parameter (`(buf, len)`, recognised
//! by [`pathwise_ir::analysis::length_params`]: an index compared with
//! `len` indexes `buf`) is an input array of exactly `len` elements (none
//! when `len` is negative): reading `buf[len]` is an out-of-bounds error,
//! and a test never passes a `len` larger than its buffer. Without the
//! contract an input array grows to whatever the path reads, so such
//! over-reads were invisible, and tests passed lengths no caller would.
//!
//! The contract is a constraint every input satisfies (`InputSpec::hard`)
//! and a length the run does not grow (`Exec::tied_lens`), as
//! `pathwise_array_len` ties it. A precondition states the inputs'
//! contract itself (it may read `v[1]` whatever `n` is, and tie lengths
//! with `pathwise_array_len`), so with one nothing is inferred, as with
//! `Config::infer_contracts` off.
//!
//! A `char *` parameter without a length that the function only reads
//! ([`pathwise_ir::analysis::read_only_params`]) is a NUL-terminated
//! string: its object ends at its first NUL, so a read of an element after
//! a NUL is an out-of-bounds error ([`Strings`]; the search solves for
//! such inputs as for any check), and the tests pass it terminated.

use pathwise_expr::{BvCmp, ExprId, ExprPool};
use pathwise_ir::analysis::{length_params, read_only_params, relates_pointer_params, LengthParam};
use pathwise_ir::{FuncId, Loc, Program, Shape, Type};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::config::Config;
use crate::exec::Exec;
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::ObjId;

/// What a pointer parameter's input array is, by the function's contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayContract {
    /// As many elements as this (integer) parameter says.
    Length(usize),
    /// A NUL-terminated string.
    String,
}

/// The contracts of `func`'s pointer parameters, by parameter index.
pub fn array_contracts(program: &Program, func: FuncId, config: &Config) -> Vec<(usize, ArrayContract)> {
    let lengths = inferred(program, func, config);
    let mut out: Vec<(usize, ArrayContract)> =
        lengths.iter().map(|l| (l.array, ArrayContract::Length(l.length))).collect();
    if inferring(program, func, config) {
        let f = program.func(func);
        for p in read_only_params(program, func) {
            let src = &f.params[p].src;
            // An array parameter declared with a length (`const char
            // in[4]`) holds that many characters, which may be any bytes:
            // the caller passes at least them, NUL or not.
            let declared = matches!(src.cty, Some(pathwise_ir::CType::Array(..)));
            let string = src.shape == Shape::Pointer && src.c_scalar == "char" && !declared;
            if string && !lengths.iter().any(|l| l.array == p) {
                out.push((p, ArrayContract::String));
            }
        }
    }
    out.sort_by_key(|c| c.0);
    out
}

/// Whether the search infers contracts for `func`: asked for, no
/// precondition states them, and no pointer parameter may point into
/// another's array where the code can tell (joined pointers compared or
/// subtracted position themselves within lengths a run may still extend:
/// see [`crate::joins`]).
fn inferring(program: &Program, func: FuncId, config: &Config) -> bool {
    config.infer_contracts
        && config.precondition.is_none()
        && !(crate::joins::may_join(program, func) && relates_pointer_params(program, func))
}

/// The length contracts of `func` the search applies: only input arrays
/// (pointers to scalars) with integer length parameters.
pub fn inferred(program: &Program, func: FuncId, config: &Config) -> Vec<LengthParam> {
    if !inferring(program, func, config) {
        return Vec::new();
    }
    let f = program.func(func);
    length_params(program, func)
        .into_iter()
        .filter(|lp| f.params[lp.array].src.shape == Shape::Pointer && f.params[lp.length].src.shape == Shape::Scalar)
        .collect()
}

/// `len == n` for an unsigned length of type `ty`; `len == (n < 0 ? 0 :
/// n)` for a signed one, so that the path of a negative length stays (a
/// function may test for it) with an empty array.
pub fn length_tie(pool: &mut ExprPool, len: ExprId, n: ExprId, ty: Type, signed: bool) -> ExprId {
    let w = ty.bits();
    let wide = if w == 64 {
        n
    } else if signed {
        pool.sext(n, 64)
    } else {
        pool.zext(n, 64)
    };
    let equal = pool.eq(len, wide);
    if !signed {
        return equal;
    }
    let zero = pool.bv_const(w, 0);
    let negative = pool.cmp(BvCmp::Slt, n, zero);
    let zero_len = pool.bv_const(64, 0);
    let empty = pool.eq(len, zero_len);
    pool.ite(negative, empty, equal)
}

/// The summary's words for the contracts of `func`: `buf has len
/// elements (inferred from f.c:5:21)`, `s is a NUL-terminated string`.
/// `nonnull`: the parameters a search found dereferenced without a null
/// test, and where (see [`crate::null_params`]).
pub fn describe(program: &Program, func: FuncId, config: &Config, nonnull: &[(usize, Loc)]) -> Vec<String> {
    let f = program.func(func);
    let lengths = inferred(program, func, config);
    let at = |p: usize| lengths.iter().find(|l| l.array == p).map_or(Loc::default(), |l| l.loc);
    let mut assumed = nonnull.to_vec();
    assumed.sort_by_key(|a| a.0);
    let assumed = assumed.into_iter().map(|(p, loc)| {
        format!(
            "assumes non-null: {} (used without a null test at {}; --null-args errors makes it an error test)",
            f.params[p].src.name,
            program.describe_loc(loc)
        )
    });
    array_contracts(program, func, config)
        .into_iter()
        .map(|(p, c)| match c {
            ArrayContract::Length(n) => format!(
                "{} has {} elements (inferred from {})",
                f.params[p].src.name,
                f.params[n].src.name,
                program.describe_loc(at(p))
            ),
            ArrayContract::String => format!(
                "{} is a NUL-terminated string (read only, no length parameter): reading past its NUL is an error",
                f.params[p].src.name
            ),
        })
        .chain(assumed)
        .collect()
}

/// The string inputs of a run and the reads seen so far: whether a read of
/// element `j` comes before the string's end.
#[derive(Default)]
pub struct Strings {
    /// Length variables of the string input arrays.
    lens: FxHashSet<ExprId>,
    /// Per string object, `prefix[i]`: no NUL among elements `0..i`, as an
    /// expression and concretely (`prefix[0]` is true). Reads mostly go
    /// in order, so each is one conjunction more.
    prefix: FxHashMap<ObjId, Vec<(ExprId, bool)>>,
}

impl Strings {
    pub fn new(lens: impl IntoIterator<Item = ExprId>) -> Strings {
        Strings { lens: lens.into_iter().collect(), prefix: FxHashMap::default() }
    }

    pub fn is_string(&self, len: ExprId) -> bool {
        self.lens.contains(&len)
    }

    /// (no NUL before element `j` of `obj`, whether that holds in this
    /// run); `array` is the input's array variable, `initial(i)` its
    /// element `i`'s value in this run. Elements are bytes.
    pub fn before_end(
        &mut self,
        pool: &mut ExprPool,
        obj: ObjId,
        array: ExprId,
        j: u64,
        initial: impl Fn(u64) -> u64,
    ) -> (ExprId, bool) {
        let prefix = self.prefix.entry(obj).or_insert_with(|| vec![(pool.bool_const(true), true)]);
        while prefix.len() as u64 <= j {
            let i = prefix.len() as u64 - 1;
            let (so_far, conc) = prefix[i as usize];
            let at = pool.bv_const(64, i);
            let elem = pool.select(array, at);
            let zero = pool.bv_const(8, 0);
            let nul = pool.eq(elem, zero);
            let not_nul = pool.not(nul);
            prefix.push((pool.and(so_far, not_nul), conc && initial(i) & 0xff != 0));
        }
        prefix[j as usize]
    }
}

impl Exec<'_, '_> {
    /// A read of byte `j` of string input `obj` must not come after its
    /// first NUL: checked like any defined-behaviour condition, so that the
    /// search also solves for a shorter string.
    pub(crate) fn string_end(&mut self, obj: ObjId, array: ExprId, j: u64, loc: Loc) -> Result<(), End> {
        let o = self.mem.object(obj);
        let initial = |i: u64| o.initial_at(i);
        let (ok, holds) = self.strings.before_end(self.pool, obj, array, j, initial);
        if self.pool.as_bool_const(ok) == Some(true) {
            return Ok(());
        }
        let message = format!("read of element {j} of a string input after its terminating NUL");
        self.check_defined(ok, holds, (ErrorKind::OutOfBounds, &message), loc)
    }
}

//! Readable values: within each path's constraints, inputs a person can
//! read, as Pex and UTBot choose them: printable characters or NUL for
//! 8-bit inputs (`"2147483648"`, not `{50, 49, 52, ...}`; `"a@"`, not
//! `{1, 64}`), small magnitudes (-128..255, or 0..255 unsigned) for wider
//! integers (`7`, not `-1979711485`).
//!
//! The solver's first model is kept when every value of the function's
//! inputs it gives (scalars, the cells of input arrays it lists, and the
//! integer fields of input objects: `o1->name[0]`, `o1->len`) is already
//! readable: most models are, at no cost. Otherwise the same query
//! is asked again with one preference per unreadable value as a tracked
//! assumption; when that is unsatisfiable the preferences of its core are
//! dropped and it is asked once more, and when that fails too the first
//! model stands. Every model answers the same query, so the path solved for
//! does not change, nor do the paths found: only the values do. Floating
//! inputs, `_Bool`s, lengths, references, joins and function pointers are
//! left as they are (other preferences choose them: `prefer_fresh`,
//! `prefer_unjoined`, the short-array bounds of [`Search::check`]).
//! An out-of-bounds error test prefers the opposite for its wider
//! integers, values far from 0 (`Readable::Far`): an access a few elements
//! out is silent in a native run, one megabytes away faults, so the error
//! is observed when the test runs. `Config::raw_values` (`gen
//! --raw-values`) turns this off.

use pathwise_expr::{BvCmp, ExprId, ExprPool, Model, SolveResult};
use pathwise_ir::{Program, Type};

use super::Search;
use crate::path::End;
use crate::run::{InputSpec, ParamInput, RunRecord};
use crate::suite::ErrorKind;
use pathwise_ir::FuncId;

/// Times the query is asked again at most (with the preferences, then
/// without those of the first core).
const MAX_RETRIES: usize = 2;

/// Which values read well for an input of some type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Readable {
    /// 8 bits: a printable ASCII character or NUL.
    Text,
    /// The bytes of a stream (a `FILE *` input): a printable ASCII
    /// character, a newline or a tab, so that the file is text.
    Line,
    /// Wider integers: -128..=255 (signed) or 0..=255 (unsigned).
    Small { signed: bool },
    /// Wider integers of an out-of-bounds error test: at least
    /// [`FAR`] away from 0, so that the access faults natively (a few
    /// elements out reads or writes other memory silently).
    Far { signed: bool },
}

/// The bytes of a stream that [`Search::text_streams`] fills at most.
const MAX_LINE_BYTES: u64 = 4096;

/// How far from 0 [`Readable::Far`] values are: 2^20 elements is beyond
/// any stack frame and guard page.
const FAR: u64 = 1 << 20;

impl Readable {
    /// The preference for an integer of `ty`, if any (`far`: for an
    /// out-of-bounds error test).
    fn of(ty: Type, signed: bool, far: bool) -> Option<Readable> {
        match ty {
            _ if ty.is_float() => None,
            Type::I8 => Some(Readable::Text),
            Type::I32 | Type::I64 if far => Some(Readable::Far { signed }),
            Type::I16 | Type::I32 | Type::I64 => Some(Readable::Small { signed }),
            _ => None,
        }
    }

    /// Whether the value `v` (`width` bits) reads well.
    fn holds(self, v: u64, width: u32) -> bool {
        let mask = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
        let v = v & mask;
        match self {
            Readable::Text => v == 0 || (0x20..=0x7e).contains(&v),
            Readable::Line => v == 9 || v == 10 || (0x20..=0x7e).contains(&v),
            Readable::Small { signed: false } => v <= 255,
            Readable::Small { signed: true } => (v.wrapping_add(128) & mask) <= 383,
            Readable::Far { signed: false } => v >= FAR,
            // Near is -FAR < v < FAR: v + FAR - 1 in 0..2 FAR - 1.
            Readable::Far { signed: true } => (v.wrapping_add(FAR - 1) & mask) >= 2 * FAR - 1,
        }
    }

    /// The preference as a constraint on `x` (`width` bits). Ranges are
    /// comparisons of `x` with constants, not an offset and one unsigned
    /// comparison (`x + 128 <= 383`): a sum that may wrap has no integer
    /// reading, and a query that asks for 256 readable summands of a
    /// checked sum is only fast over the integers (see
    /// [`pathwise_expr::linear`]).
    fn constraint(self, pool: &mut ExprPool, x: ExprId, width: u32) -> ExprId {
        let k = |pool: &mut ExprPool, v: i64| pool.bv_const(width, v as u64);
        let within = |pool: &mut ExprPool, cmp: BvCmp, lo: i64, hi: i64| {
            let (lo, hi) = (k(pool, lo), k(pool, hi));
            let above = pool.cmp(cmp, lo, x);
            let below = pool.cmp(cmp, x, hi);
            pool.and(above, below)
        };
        match self {
            Readable::Text => {
                let zero = k(pool, 0);
                let nul = pool.eq(x, zero);
                let printable = within(pool, BvCmp::Ule, 0x20, 0x7e);
                pool.or(nul, printable)
            }
            Readable::Line => {
                let spacing = within(pool, BvCmp::Ule, 9, 10);
                let printable = within(pool, BvCmp::Ule, 0x20, 0x7e);
                pool.or(spacing, printable)
            }
            Readable::Small { signed: true } => within(pool, BvCmp::Sle, -128, 255),
            Readable::Small { signed: false } => {
                let top = k(pool, 255);
                pool.cmp(BvCmp::Ule, x, top)
            }
            Readable::Far { signed: true } => {
                let (lo, hi) = (k(pool, -(FAR as i64)), k(pool, FAR as i64));
                let below = pool.cmp(BvCmp::Sle, x, lo);
                let above = pool.cmp(BvCmp::Sle, hi, x);
                pool.or(below, above)
            }
            Readable::Far { signed: false } => {
                let low = k(pool, FAR as i64);
                pool.cmp(BvCmp::Ule, low, x)
            }
        }
    }
}

/// The preferences `model` breaks, as constraints: one per parameter value
/// it gives that does not read well (see the module doc).
fn unmet(
    pool: &mut ExprPool,
    (program, slots): (&Program, &crate::heap::SlotTable),
    (main, spec): (FuncId, &InputSpec),
    model: &Model,
    far: bool,
) -> Vec<ExprId> {
    let f = program.func(main);
    let mut out = Vec::new();
    for (p, input) in f.params.iter().zip(&spec.params) {
        match input {
            ParamInput::Scalar { var, ty } => {
                let (Some(want), Some(&v)) = (Readable::of(*ty, p.src.scalar.signed, far), model.bv.get(var)) else {
                    continue;
                };
                if p.src.c_scalar != "_Bool" && !want.holds(v, ty.bits()) {
                    out.push(want.constraint(pool, *var, ty.bits()));
                }
            }
            ParamInput::Array { input, elem, .. } => {
                let want = match p.src.shape {
                    pathwise_ir::Shape::Stream => Some(Readable::Line),
                    _ => Readable::of(*elem, p.src.scalar.signed, false),
                };
                // (A stream's bytes that the model does not list are
                // made readable by `text_streams`.)
                let (Some(want), Some(value)) = (want, model.arrays.get(&input.array)) else {
                    continue;
                };
                for (&at, &v) in &value.entries {
                    if !want.holds(v, elem.bits()) {
                        let index = pool.bv_const(64, at);
                        let cell = pool.select(input.array, index);
                        out.push(want.constraint(pool, cell, elem.bits()));
                    }
                }
            }
            ParamInput::Heap { .. } | ParamInput::Function { .. } => {}
        }
    }
    // The integer fields of input objects (`o1->name[0]`, `o1->len`), in
    // variable order (the model's map has none).
    let mut fields: Vec<(ExprId, u64, pathwise_ir::IntTy)> = model
        .bv
        .iter()
        .filter_map(|(&var, &v)| match pool.get(var) {
            pathwise_expr::Expr::Var { name, .. } => Some((var, v, slots.scalar(name)?)),
            _ => None,
        })
        .collect();
    fields.sort_by_key(|f| f.0);
    for (var, v, ty) in fields {
        if let Some(want) = Readable::of(ty.ty, ty.signed, far).filter(|w| !w.holds(v, ty.ty.bits())) {
            out.push(want.constraint(pool, var, ty.ty.bits()));
        }
    }
    out
}

impl Search<'_, '_> {
    /// `model`, an answer to the query (`constraints`, `assumptions`,
    /// sliced by `seeds`), or a model of the same query whose values read
    /// better (see the module doc).
    pub(super) fn readable(
        &mut self,
        constraints: &[ExprId],
        assumptions: &[ExprId],
        seeds: &[ExprId],
        model: Model,
    ) -> Model {
        // Inputs with heaps under a precondition keep the solver's values:
        // the precondition search over their shapes runs on a budget, and
        // preferred values changed which prefixes it reached (insertAVL at
        // k = 2: 79 prefixes abandoned instead of 56, one rotation case
        // lost).
        let heap = self.spec.params.iter().any(|p| matches!(p, ParamInput::Heap { .. }));
        if self.config.raw_values || self.config.program_mode.is_some() || (heap && self.config.precondition.is_some())
        {
            return model;
        }
        // An access a small distance out of bounds reads or writes other
        // memory silently in a native run: the integers of an out-of-bounds
        // error test are preferred far from 0 instead, so that the test's
        // access faults and its error is observed natively.
        let far = self.solving_error_check == Some(super::ErrorCheck::Bounds);
        let slots = self.m.slots.borrow();
        let mut prefs = unmet(&mut self.pool, (self.m.program, &slots), (self.main, self.spec), &model, far);
        drop(slots);
        if far {
            return self.one_by_one(constraints, assumptions, seeds, (model, prefs));
        }
        for _ in 0..MAX_RETRIES {
            if prefs.is_empty() {
                break;
            }
            let asked: Vec<ExprId> = assumptions.iter().chain(&prefs).copied().collect();
            self.stats.preference_queries += 1;
            match self.check_sliced(constraints, &asked, seeds) {
                SolveResult::Sat(better) => return better,
                SolveResult::Unsat { core } => {
                    let first = assumptions.len();
                    // A core of the caller's assumptions alone cannot be
                    // (the query is satisfiable): nothing to drop, give up.
                    if !core.iter().any(|&i| i >= first) {
                        break;
                    }
                    prefs = prefs
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| !core.contains(&(first + i)))
                        .map(|(_, &p)| p)
                        .collect();
                }
                SolveResult::Unknown(_) => break,
            }
        }
        model
    }
}

impl Search<'_, '_> {
    /// `model` (the inputs of the next run) with the bytes of each stream
    /// that no constraint of `query` reads, and that the solver left at
    /// its array's default (often NUL), set to a letter: the file of
    /// `"#\0\0"` is `"#aa"`. Kept only when `query` still holds.
    pub(super) fn text_streams(&self, query: &[ExprId], mut model: Model) -> Model {
        // (Every solved model passes here: most functions read no stream.)
        if self.config.raw_values || self.spec.stream_lens.is_empty() {
            return model;
        }
        let before = model.clone();
        let mut changed = false;
        for input in &self.spec.params {
            let ParamInput::Array { input, .. } = input else { continue };
            if !self.spec.stream_lens.contains(&input.len) {
                continue;
            }
            let len = model.bv.get(&input.len).copied().unwrap_or(0).min(MAX_LINE_BYTES);
            let value = model.arrays.entry(input.array).or_default();
            if Readable::Line.holds(value.default, 8) {
                continue;
            }
            for at in 0..len {
                if let std::collections::btree_map::Entry::Vacant(e) = value.entries.entry(at) {
                    e.insert(u64::from(b'a'));
                    changed = true;
                }
            }
        }
        if changed && !pathwise_expr::eval::satisfies(&self.pool, query, &model) {
            return before;
        }
        model
    }

    /// The model of the query with as many of `prefs` as hold together,
    /// taken one at a time in parameter order (a solver's core need not be
    /// minimal: dropping it whole could drop the one preference that
    /// matters). For the few integers of an out-of-bounds error test.
    fn one_by_one(
        &mut self,
        constraints: &[ExprId],
        assumptions: &[ExprId],
        seeds: &[ExprId],
        (mut model, prefs): (Model, Vec<ExprId>),
    ) -> Model {
        let mut asked = assumptions.to_vec();
        for p in prefs {
            asked.push(p);
            self.stats.preference_queries += 1;
            match self.check_sliced(constraints, &asked, seeds) {
                SolveResult::Sat(better) => model = better,
                _ => {
                    asked.pop();
                }
            }
        }
        model
    }

    /// A run that ran into an out-of-bounds access on readable inputs (an
    /// index of -128 reads other memory silently in a native run): the
    /// same path solved again with its wider integers far from 0, kept
    /// when it ends in the same error on the same path (else the run as
    /// it was), so that the test's access faults natively.
    pub(super) fn observable_out_of_bounds(&mut self, inputs: Model, run: RunRecord) -> (Model, RunRecord) {
        let Some(End::Error(e)) = &run.main_end else { return (inputs, run) };
        let solving = self.solving_error_check;
        if e.kind != ErrorKind::OutOfBounds || self.config.raw_values || solving == Some(super::ErrorCheck::Bounds) {
            return (inputs, run);
        }
        let mut query: Vec<ExprId> = self.spec.hard.clone();
        query.extend(run.main_entries.iter().map(|e| e.cond));
        let assumptions: Vec<ExprId> = run.pre_entries.iter().map(|e| e.cond).collect();
        let Some(&last) = query.last() else { return (inputs, run) };
        self.solving_error_check = Some(super::ErrorCheck::Bounds);
        let answer = self.check(&query, &assumptions, &[last], &inputs);
        self.solving_error_check = solving;
        let SolveResult::Sat(model) = answer else { return (inputs, run) };
        let all: Vec<ExprId> = query.iter().chain(&assumptions).copied().collect();
        let mut far = super::merge(&self.pool, &all, &inputs, model);
        if far == inputs {
            return (inputs, run);
        }
        let again = self.execute(&mut far);
        let same = again.seen.path == run.seen.path
            && matches!(&again.main_end, Some(End::Error(f)) if f.kind == e.kind && f.loc == e.loc);
        if same {
            (far, again)
        } else {
            (inputs, run)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_readable_values() {
        let text = Readable::Text;
        assert!(text.holds(0, 8) && text.holds(b'a' as u64, 8) && text.holds(b'~' as u64, 8));
        assert!(!text.holds(1, 8) && !text.holds(0x7f, 8) && !text.holds(0xc2, 8));
        let signed = Readable::Small { signed: true };
        assert!(signed.holds((-128i64) as u64, 32) && signed.holds(255, 32) && signed.holds(u32::MAX as u64, 32));
        assert!(!signed.holds((-129i64) as u64 & 0xffff_ffff, 32) && !signed.holds(256, 32));
        assert!(!signed.holds(2_147_483_648, 32));
        let unsigned = Readable::Small { signed: false };
        assert!(unsigned.holds(255, 32) && !unsigned.holds(u32::MAX as u64, 32));
        let far = Readable::Far { signed: true };
        assert!(
            far.holds(2_147_483_648, 32)
                && far.holds(1 << 20, 32)
                && far.holds((-(1i64 << 20)) as u64 & 0xffff_ffff, 32)
        );
        assert!(!far.holds((1 << 20) - 1, 32) && !far.holds((-128i64) as u64 & 0xffff_ffff, 32) && !far.holds(0, 32));
    }

    #[test]
    fn constraints_agree_with_the_test() {
        let mut pool = ExprPool::new();
        for (want, width) in [
            (Readable::Text, 8),
            (Readable::Small { signed: true }, 32),
            (Readable::Small { signed: false }, 16),
            (Readable::Far { signed: true }, 32),
            (Readable::Far { signed: false }, 64),
        ] {
            let x = pool.var(&format!("x{width}"), pathwise_expr::Sort::Bv(width));
            let c = want.constraint(&mut pool, x, width);
            let samples = [0u64, 1, 0x1f, 0x20, 0x7e, 0x7f, 0xff, 0x100, 0xff80, 0xffff_ff80, 0xffff_ff7f, 0x8000_0000];
            for v in samples.into_iter().chain([0xf_ffff, 0x10_0000, 0xfff0_0000, 0xfff0_0001, u64::MAX]) {
                let v = v & if width == 64 { u64::MAX } else { (1 << width) - 1 };
                let mut m = Model::default();
                m.bv.insert(x, v);
                assert_eq!(pathwise_expr::eval::satisfies(&pool, &[c], &m), want.holds(v, width), "{want:?} {v:#x}");
            }
        }
    }
}

//! Reading a Pathwise [`Model`] out of a Z3 model.
//!
//! Bit-vector and boolean variables are evaluated with model completion (a
//! variable Z3 left unconstrained gets a value rather than none).
//!
//! Array values come in several shapes depending on the Z3 version and on
//! which part of Z3 built the model; Z3 4.8.12 mostly produces the first:
//! - `(store (store ((as const (Array ..)) d) i1 v1) i2 v2)`: decoded
//!   exactly (the outermost store of an index wins);
//! - `(_ as-array k!0)` with a function interpretation (entries + else):
//!   decoded exactly when the entries and the else value are numerals;
//! - a `lambda`, or an else value that is not a numeral: not decodable. For
//!   those arrays the model is completed *on demand*: the query is evaluated
//!   under the current model with [`Evaluator`] recording which cells of
//!   which array variables are read, each read cell is set to Z3's value of
//!   `select(A, i)`, and this repeats until no new cell is read (the reads
//!   follow Z3's own evaluation once the cells agree with it, so this
//!   terminates; a round limit guards against surprises).
//!
//! Finally the model is *validated*: every constraint and assumption must
//! evaluate to true under it with the concrete evaluator (the reference
//! semantics shared with the engine). A model that does not validate is not
//! returned; the caller reports `Unknown` instead of handing out a wrong
//! input. The one known case is an equality between array terms whose value
//! Z3 gives as a `lambda`, since completing cells cannot make the defaults
//! agree.

use std::collections::BTreeMap;

use pathwise_expr::eval::{satisfies, Evaluator};
use pathwise_expr::{ArrayValue, ExprId, ExprPool, Model, Sort};
use z3::ast::{Array, Ast, Dynamic, BV};
use z3::DeclKind;

use crate::ackermann::Scan;
use crate::translate::Translator;

/// Upper bound on completion rounds for undecodable arrays.
const MAX_COMPLETION_ROUNDS: usize = 64;

/// The model of the query with boolean `roots` (constraints and assumptions)
/// and analysis `scan`, read from Z3's model `m`, completed and validated
/// (see the module doc).
pub(crate) fn extract(
    tr: &mut Translator,
    pool: &ExprPool,
    roots: &[ExprId],
    scan: &Scan,
    m: &z3::Model,
) -> Result<Model, String> {
    let mut model = Model::default();
    let mut partial = Vec::new();
    for &v in &scan.vars {
        let t = tr.term(pool, v);
        match pool.sort(v) {
            Sort::Bool => {
                let b = m.eval(&t.as_bool().expect("bool"), true).and_then(|b| b.as_bool());
                model.bv.insert(v, b.ok_or("Z3 model has no boolean value")? as u64);
            }
            Sort::Bv(_) => {
                let x = m.eval(&t.as_bv().expect("bv"), true).and_then(|x| x.as_u64());
                model.bv.insert(v, x.ok_or("Z3 model has no bit-vector value")?);
            }
            Sort::Array { .. } if !scan.is_linked(v) => {
                // Only read at constant indices: Z3 never saw the array,
                // its cells are the `A@c` values set below.
                model.arrays.insert(v, ArrayValue::default());
            }
            Sort::Array { .. } => {
                let a = t.as_array().expect("array");
                match m.eval(&a, true).and_then(|val| decode_array(m, val.into())) {
                    Some(av) => {
                        model.arrays.insert(v, av);
                    }
                    None => {
                        model.arrays.insert(v, ArrayValue::default());
                        partial.push(v);
                    }
                }
            }
        }
    }
    for read in &scan.reads {
        let ack = tr.term(pool, read.select).as_bv().expect("bit-vector read");
        let x = m.eval(&ack, true).and_then(|x| x.as_u64()).ok_or("Z3 model has no value for an array read")?;
        // Kept even when equal to the default: every read cell is listed.
        model.arrays.get_mut(&read.array).expect("array variables are in `vars`").entries.insert(read.index, x);
    }
    if !partial.is_empty() {
        complete_arrays(tr, pool, roots, m, &partial, &mut model)?;
    }
    if !satisfies(pool, roots, &model) {
        return Err("the model read from Z3 does not satisfy the query".to_string());
    }
    Ok(model)
}

/// The value of a numeral, if `d` is a bit-vector numeral.
fn numeral(d: &Dynamic) -> Option<u64> {
    d.as_bv()?.as_u64()
}

/// Decode an array value term (store chain over a constant array, or
/// `as-array`); `None` for other shapes (e.g. `lambda`).
fn decode_array(m: &z3::Model, value: Dynamic) -> Option<ArrayValue> {
    let mut entries = BTreeMap::new();
    let mut cur = value;
    let default = loop {
        if !cur.is_app() {
            return None; // a quantifier: Z3's `lambda`
        }
        if let Some(fd) = cur.as_array()?.as_array_func_decl() {
            let fi = m.get_func_interp(&fd)?;
            for e in fi.get_entries() {
                let args = e.get_args();
                if args.len() != 1 {
                    return None;
                }
                entries.entry(numeral(&args[0])?).or_insert(numeral(&e.get_value())?);
            }
            break numeral(&fi.get_else()?)?;
        }
        let kids = cur.children();
        match cur.decl().kind() {
            DeclKind::Store if kids.len() == 3 => {
                // The outermost store is the latest write: it wins.
                entries.entry(numeral(&kids[1])?).or_insert(numeral(&kids[2])?);
                cur = kids[0].clone();
            }
            DeclKind::ConstArray if kids.len() == 1 => break numeral(&kids[0])?,
            _ => return None,
        }
    };
    entries.retain(|_, v| *v != default);
    Some(ArrayValue { default, entries })
}

/// Complete the `partial` arrays of `model` with Z3's values at the cells
/// that evaluating `roots` reads (see the module doc).
fn complete_arrays(
    tr: &mut Translator,
    pool: &ExprPool,
    roots: &[ExprId],
    m: &z3::Model,
    partial: &[ExprId],
    model: &mut Model,
) -> Result<(), String> {
    for _ in 0..MAX_COMPLETION_ROUNDS {
        let mut missing: Vec<(ExprId, u64)> = {
            let mut ev = Evaluator::new(pool, model).recording_reads();
            for &r in roots {
                ev.eval(r);
            }
            ev.reads()
                .iter()
                .copied()
                .filter(|(a, i)| partial.contains(a) && !model.arrays[a].entries.contains_key(i))
                .collect()
        };
        if missing.is_empty() {
            return Ok(());
        }
        missing.sort_unstable();
        missing.dedup();
        for (a, i) in missing {
            let Sort::Array { index, .. } = pool.sort(a) else { unreachable!("array variable") };
            let arr: Array = tr.term(pool, a).as_array().expect("array");
            let cell = arr.select(&BV::from_u64(i, index)).as_bv().expect("bit-vector element");
            let v = m.eval(&cell, true).and_then(|v| v.as_u64()).ok_or("Z3 model has no array element value")?;
            // Entries equal to the default are kept: they mark the cell as read.
            model.arrays.get_mut(&a).expect("inserted").entries.insert(i, v);
        }
    }
    Err("array model completion did not converge".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathwise_expr::BvCmp;
    use z3::ast::{lambda_const, Ast, Bool};

    /// Z3 4.8.12 gives store chains for the models of our queries, so the
    /// completion path is exercised with a hand-made model in which the
    /// array is a `lambda`: `A = λx. ite(x = 3, 9, x + 1)`.
    #[test]
    fn lambda_arrays_are_completed_on_demand() {
        let mut p = ExprPool::new();
        let a = p.var("A", Sort::Array { index: 8, elem: 8 });
        let i = p.var("i", Sort::Bv(8));
        let j = p.var("j", Sort::Bv(8));
        let ai = p.select(a, i);
        let nine = p.bv_const(8, 9);
        let c1 = p.eq(nine, ai);
        // The index of the second read depends on the value of the first.
        let aai = p.select(a, ai);
        let aj = p.select(a, j);
        let c2 = p.cmp(BvCmp::Ult, aai, aj);
        let roots = [c1, c2];

        let mut tr = Translator::default();
        tr.sync(&p);
        let za = tr.term(&p, a).as_array().unwrap();
        let x = BV::fresh_const("x", 8);
        let body = x.eq(BV::from_u64(3, 8)).ite(&BV::from_u64(9, 8), &x.bvadd(BV::from_u64(1, 8)));
        let lambda = lambda_const(&[&x], &Dynamic::from_ast(&body));
        let m = z3::Model::new();
        m.add_const_interp(&za.decl(), &lambda);
        m.add_const_interp(&tr.term(&p, i).as_bv().unwrap().decl(), &BV::from_u64(3, 8));
        m.add_const_interp(&tr.term(&p, j).as_bv().unwrap().decl(), &BV::from_u64(20, 8));
        // The hand-made model satisfies the query: A[3] = 9, A[9] = 10 < A[20] = 21.
        let holds = m.eval(&Bool::and(&[tr.bool_term(&p, c1), tr.bool_term(&p, c2)]), true).unwrap();
        assert_eq!(holds.as_bool(), Some(true));
        assert!(m.eval(&za, true).is_some_and(|v| !v.is_app()), "expected a lambda value");

        let scan = crate::ackermann::Scanner::default().scan(&p, &roots);
        let model = extract(&mut tr, &p, &roots, &scan, &m).expect("completed model validates");
        let av = &model.arrays[&a];
        assert_eq!((av.get(3), av.get(9), av.get(20)), (9, 10, 21));
    }
}

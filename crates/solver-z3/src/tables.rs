//! Reads of constant tables at symbolic indices as piecewise terms.
//!
//! A concrete object read at a symbolic offset (a lookup table of the
//! program, the C library's `<ctype.h>` tables) reaches the solver as
//! `select(store(...store(const(d), i1, v1)..., in, vn), j)` with constant
//! indices and values. Z3's array theory answers such queries slowly and
//! worse than linearly in the entries (measured on one function testing
//! two bits of a random `unsigned short` table at an input index, 5
//! queries: 0.2 s with 64 entries, 0.84 s with 128, 10.7 s with 256;
//! `isdigit(c) ... isalpha(c)` through glibc's table: 2.6 s for 4 queries).
//! The same function as a few comparisons is immediate (0.04 s, 0.10 s,
//! 0.12 s; 0.04 s):
//! the entries are cut into runs `lo, lo + g, ..., hi` (`g` a power of two)
//! whose values step by a constant `d`, and the read is
//! `ite(j in run1, v1 + ((j - lo1) >> log2 g1) * d1, ite(j in run2, ...,
//! d))`, exact for every index (membership also checks the index's
//! alignment within the run). The class table of `<ctype.h>` is 16 runs
//! of constants, its case tables 5 runs with `d = 1`.

use std::collections::BTreeMap;

use pathwise_expr::{Expr, ExprId, ExprPool, Sort};
use z3::ast::{Bool, BV};

/// Tables with fewer entries stay arrays: Z3 is fast enough on them.
const MIN_ENTRIES: usize = 16;

/// One run of entries: indices `lo, lo + gap, ..., hi` with values
/// `value, value + step, ...` (wrapping in the element width).
struct Run {
    lo: u64,
    hi: u64,
    gap: u64,
    value: u64,
    step: u64,
}

/// The entries of a constant table (index to value, the latest store of an
/// index winning) and its default value; `None` when `array` is not one.
fn entries(pool: &ExprPool, array: ExprId) -> Option<(BTreeMap<u64, u64>, u64)> {
    let mut entries = BTreeMap::new();
    let mut a = array;
    loop {
        match *pool.get(a) {
            Expr::Store { array, index, value } => {
                let (i, v) = (pool.as_bv_const(index)?, pool.as_bv_const(value)?);
                entries.entry(i).or_insert(v);
                a = array;
            }
            Expr::ConstArray { value, .. } => return Some((entries, pool.as_bv_const(value)?)),
            _ => return None,
        }
    }
}

/// Cut sorted entries into runs of evenly spaced indices with evenly
/// stepping values (greedily, left to right).
fn runs(entries: &BTreeMap<u64, u64>, mask: u64) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    let mut count = 0u64;
    for (&i, &v) in entries {
        if let Some(r) = out.last_mut() {
            let gap = i.wrapping_sub(r.hi);
            let last = r.value.wrapping_add(r.step.wrapping_mul(count - 1)) & mask;
            let step = v.wrapping_sub(last) & mask;
            let extends = if count == 1 { gap.is_power_of_two() } else { gap == r.gap && step == r.step };
            if extends {
                if count == 1 {
                    (r.gap, r.step) = (gap, step);
                }
                r.hi = i;
                count += 1;
                continue;
            }
        }
        out.push(Run { lo: i, hi: i, gap: 1, value: v, step: 0 });
        count = 1;
    }
    out
}

/// The piecewise term of `select(array, index)` when `array` is a constant
/// table of at least [`MIN_ENTRIES`] entries (`index` is the index's term).
pub(crate) fn table_read(pool: &ExprPool, array: ExprId, index: &BV) -> Option<BV> {
    let Sort::Array { index: iw, elem: ew } = pool.sort(array) else { return None };
    let (mut entries, default) = entries(pool, array)?;
    if entries.len() < MIN_ENTRIES {
        return None;
    }
    entries.retain(|_, v| *v != default);
    let mask = if ew >= 64 { u64::MAX } else { (1u64 << ew) - 1 };
    let mut term = BV::from_u64(default, ew);
    for r in runs(&entries, mask).iter().rev() {
        let off = index.bvsub(BV::from_u64(r.lo, iw));
        let mut inside = off.bvule(BV::from_u64(r.hi - r.lo, iw));
        let shift = r.gap.trailing_zeros();
        if shift > 0 {
            let aligned = off.extract(shift - 1, 0).eq(BV::from_u64(0, shift));
            inside = Bool::and(&[inside, aligned]);
        }
        let value = if r.step == 0 {
            BV::from_u64(r.value, ew)
        } else {
            let n = off.bvlshr(BV::from_u64(u64::from(shift), iw));
            let n = match ew.cmp(&iw) {
                std::cmp::Ordering::Less => n.extract(ew - 1, 0),
                std::cmp::Ordering::Greater => n.zero_ext(ew - iw),
                std::cmp::Ordering::Equal => n,
            };
            BV::from_u64(r.value, ew).bvadd(n.bvmul(BV::from_u64(r.step, ew)))
        };
        term = inside.ite(&value, &term);
    }
    Some(term)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_follow_gaps_and_steps() {
        // A class-table shape (constant runs, stride 2) and a case-table
        // shape (values stepping by 1, stride 4).
        let t: BTreeMap<u64, u64> = [(0, 5), (2, 5), (4, 5), (6, 7), (10, 7)].into_iter().collect();
        let r = runs(&t, 0xffff);
        let shape: Vec<(u64, u64, u64, u64, u64)> = r.iter().map(|r| (r.lo, r.hi, r.gap, r.value, r.step)).collect();
        assert_eq!(shape, vec![(0, 4, 2, 5, 0), (6, 10, 4, 7, 0)]);
        let t: BTreeMap<u64, u64> = (0..10u64).map(|i| (4 * i, 100 + i)).chain([(40, 7)]).collect();
        let r = runs(&t, u64::from(u32::MAX));
        let shape: Vec<(u64, u64, u64, u64, u64)> = r.iter().map(|r| (r.lo, r.hi, r.gap, r.value, r.step)).collect();
        assert_eq!(shape, vec![(0, 36, 4, 100, 1), (40, 40, 1, 7, 0)]);
    }
}

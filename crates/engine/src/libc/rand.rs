//! `rand`, `srand`, `random`, `srandom`: glibc's additive feedback
//! generator (`random_r`'s `TYPE_3`: degree 31, separation 3), so that a
//! test replays the numbers the real library draws. The seed and the
//! numbers drawn since are a static object of the run; the seed starts at
//! 1, as in a process that has not called `srand` (each test runs in a
//! process of its own). A symbolic seed is fixed (reported).

use pathwise_ir::Type;

use super::{Call, LibcHost, Outcome};
use crate::value::{Pointer, Value};

pub(super) const NAMES: &[&str] = &["rand", "srand", "random", "srandom"];

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    let state = h.static_object("rand.state", Type::I64, &|| vec![Value::int(1), Value::int(0)]);
    let seed_at = state;
    let drawn_at = Pointer { off: 8, ..state };
    Some((|| match c.name {
        "srand" | "srandom" => {
            let seed = c.int(h.pool(), 0, 32);
            let seed = h.concretise(seed);
            h.store(seed_at, Type::I64, Value::int(seed))?;
            h.store(drawn_at, Type::I64, Value::int(0))?;
            Ok(None)
        }
        _ => {
            let seed = h.load(seed_at, Type::I64)?.conc() as u32;
            let drawn = h.load(drawn_at, Type::I64)?.conc();
            h.store(drawn_at, Type::I64, Value::int(drawn + 1))?;
            Ok(Some(Value::int(u64::from(nth(seed, drawn)))))
        }
    })())
}

/// The `n`-th number (from 0) glibc's `rand` draws after `srand(seed)`.
fn nth(seed: u32, n: u64) -> u32 {
    // `srandom_r`: r[0] is the seed (0 is 1), then a Lehmer generator by
    // Schrage's method on 32-bit signed words; 310 numbers are discarded.
    let mut r: Vec<u32> = Vec::with_capacity(344 + n as usize + 1);
    let mut word = if seed == 0 { 1 } else { seed as i32 };
    r.push(word as u32);
    for _ in 1..31 {
        let (hi, lo) = (word / 127_773, word % 127_773);
        word = 16_807 * lo - 2_836 * hi;
        if word < 0 {
            word += 2_147_483_647;
        }
        r.push(word as u32);
    }
    for i in 31..34 {
        r.push(r[i - 31]);
    }
    while r.len() < 344 + n as usize + 1 {
        let i = r.len();
        r.push(r[i - 31].wrapping_add(r[i - 3]));
    }
    r[344 + n as usize] >> 1
}

#[cfg(test)]
mod tests {
    use super::nth;

    #[test]
    fn glibc_draws_these_numbers() {
        // A process that never called srand (seed 1), and srand(42).
        assert_eq!([nth(1, 0), nth(1, 1), nth(1, 2)], [1_804_289_383, 846_930_886, 1_681_692_777]);
        assert_eq!(nth(0, 0), nth(1, 0));
        assert_eq!(nth(42, 0), 71_876_166);
    }
}

//! Shared helpers of the integration tests: a deterministic PRNG.
// Each test binary uses its own subset of the helpers.
#![allow(dead_code)]

/// splitmix64: deterministic, dependency-free pseudo-random numbers.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A `width`-bit value, biased towards the edge cases of the operators:
    /// 0, 1, all ones, the signed extremes, and values around the width
    /// (shift amounts).
    pub fn interesting(&mut self, width: u32) -> u64 {
        let m = pathwise_expr::ops::mask(width);
        let v = match self.below(10) {
            0 => 0,
            1 => 1,
            2 => m,
            3 => 1u64 << (width - 1),
            4 => (1u64 << (width - 1)).wrapping_sub(1),
            5 => width as u64 + self.below(3) - 1,
            6 => self.below(8),
            _ => self.next(),
        };
        v & m
    }
}

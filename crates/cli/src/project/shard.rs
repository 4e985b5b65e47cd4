//! `--shard I/N`: which functions one of N CI jobs takes.
//!
//! Every shard sees the same list of functions and decides alone, so the
//! N parts are disjoint and together the whole list whatever the order of
//! the jobs. Without a previous index a function goes to shard `h mod N`,
//! `h` a stable hash of its file and name (SHA-256: the same on every
//! machine and in every run, unlike std's randomised hasher). With
//! `--balance-from INDEX` the functions are dealt longest first (by the
//! earlier run's `elapsed_ms`; functions it does not know count as the
//! mean of those it does) to the shard with the least time so far, ties
//! broken by file and name, then by the lowest shard: the shards' wall
//! times come out even.

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use sha2::{Digest, Sha256};

/// Shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Parse `I/N` with 1 <= I <= N.
pub fn parse(s: &str) -> Result<Shard, String> {
    let bad = || format!("`{s}` is not a shard: give I/N with 1 <= I <= N (e.g. 2/4)");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (index, count): (u32, u32) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if count == 0 || index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// A stable 64-bit hash of a function's identity.
pub fn stable_hash(file: &str, function: &str) -> u64 {
    let digest =
        Sha256::new().chain_update(file.as_bytes()).chain_update([0u8]).chain_update(function.as_bytes()).finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// For each of `functions` (file, name), the 0-based shard of `count`
/// it belongs to; `times` are an earlier run's milliseconds by (file,
/// name), or empty for the hash rule.
pub fn assign(functions: &[(String, String)], count: u32, times: &BTreeMap<(String, String), u64>) -> Result<Vec<u32>> {
    if count == 0 {
        bail!("no shards");
    }
    if times.is_empty() {
        return Ok(functions.iter().map(|(f, n)| (stable_hash(f, n) % u64::from(count)) as u32).collect());
    }
    let known: Vec<u64> = functions.iter().filter_map(|k| times.get(k).copied()).collect();
    let mean = if known.is_empty() { 1 } else { known.iter().sum::<u64>() / known.len() as u64 };
    let mut order: Vec<usize> = (0..functions.len()).collect();
    let time = |i: usize| times.get(&functions[i]).copied().unwrap_or(mean).max(1);
    order.sort_by(|&a, &b| time(b).cmp(&time(a)).then_with(|| functions[a].cmp(&functions[b])));
    let mut load = vec![0u64; count as usize];
    let mut out = vec![0u32; functions.len()];
    for i in order {
        let (shard, _) = load.iter().enumerate().min_by_key(|&(s, l)| (*l, s)).unwrap_or((0, &0));
        load[shard] += time(i);
        out[i] = shard as u32;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_checked() {
        assert_eq!(parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "3", "-1/2", "1/2/3"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_hash_is_stable() {
        // Fixed: a change would move functions between CI shards.
        assert_eq!(stable_hash("src/a.c", "f"), stable_hash("src/a.c", "f"));
        assert_ne!(stable_hash("src/a.c", "f"), stable_hash("src/a.cf", ""));
    }

    #[test]
    fn balancing_deals_longest_first() {
        let f = |n: &str| ("a.c".to_string(), n.to_string());
        let functions = vec![f("a"), f("b"), f("c"), f("d"), f("new")];
        let times: BTreeMap<_, _> = [(f("a"), 100), (f("b"), 60), (f("c"), 50), (f("d"), 10)].into_iter().collect();
        let shards = assign(&functions, 2, &times).unwrap();
        // a (100) -> 0; b (60) -> 1; new (the mean, 55) -> 1 (115); c (50) -> 0 (150); d (10) -> 1.
        assert_eq!(shards, vec![0, 1, 0, 1, 1]);
        let plain = assign(&functions, 3, &BTreeMap::new()).unwrap();
        assert!(plain.iter().all(|&s| s < 3));
    }
}

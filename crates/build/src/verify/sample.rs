//! The deterministic row sample of `gametab verify`: for a table of `rows`
//! rows, `n` distinct row numbers drawn by Floyd's algorithm from a
//! SplitMix64 stream seeded by the user's seed and the table's name, so the
//! same seed always checks the same rows of the same table (and different
//! tables get independent samples).

use std::collections::BTreeSet;

/// SplitMix64: a tiny, well-mixed generator; reproducibility is all that
/// matters here.
#[derive(Debug, Clone)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..=bound` (the tiny modulo bias is irrelevant here).
    fn up_to(&mut self, bound: usize) -> usize {
        (self.next() % (bound as u64 + 1)) as usize
    }
}

/// FNV-1a of the table name, to give every table its own stream.
fn name_hash(table: &str) -> u64 {
    table.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The rows of `table` to check: every row when `n >= rows`, otherwise `n`
/// distinct rows, ascending, the same for the same `(table, rows, n, seed)`.
pub fn sample_rows(table: &str, rows: usize, n: usize, seed: u64) -> Vec<usize> {
    if n >= rows {
        return (0..rows).collect();
    }
    let mut rng = SplitMix64(seed ^ name_hash(table));
    let mut chosen = BTreeSet::new();
    // Floyd: for j in rows-n..rows pick t in 0..=j; take t, or j if t is taken.
    for j in rows - n..rows {
        let t = rng.up_to(j);
        if !chosen.insert(t) {
            chosen.insert(j);
        }
    }
    chosen.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_distinct_sorted_reproducible_and_spread() {
        let a = sample_rows("dice_decisions", 1_000_000, 500, 7);
        assert_eq!(a.len(), 500);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert!(*a.last().unwrap() < 1_000_000);
        assert_eq!(a, sample_rows("dice_decisions", 1_000_000, 500, 7));
        assert_ne!(a, sample_rows("dice_decisions", 1_000_000, 500, 8));
        assert_ne!(a, sample_rows("werewolf_early", 1_000_000, 500, 7));
        // Both halves of the table are visited.
        assert!(a.iter().any(|&r| r < 500_000) && a.iter().any(|&r| r >= 500_000));
        assert_eq!(sample_rows("t", 5, 10, 1), vec![0, 1, 2, 3, 4]);
        assert!(sample_rows("t", 0, 10, 1).is_empty());
    }
}

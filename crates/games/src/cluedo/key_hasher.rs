//! The hasher of the Cluedo counting and optimum memos: fast and
//! deterministic (no random seed, so a run's tables and times repeat),
//! for keys that are 64-bit states or slices of them.

use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-rotate hasher over 64-bit words; bytes are folded eight at a
/// time (little-endian, the last word zero-padded).
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

/// The `BuildHasher` of maps keyed with [`KeyHasher`].
pub(crate) type BuildKeyHasher = BuildHasherDefault<KeyHasher>;

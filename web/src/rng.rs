//! [`Rng`]: the seeded uniform numbers a game draws the opponent's moves
//! with (SplitMix64, Steele, Lea and Flood 2014: a 64-bit counter through
//! a fixed mixing function; small, fast, and the same sequence on every
//! platform), so that a game replays exactly from its seed.

use wasm_bindgen::prelude::*;

/// A seeded generator of uniform numbers in [0, 1).
#[wasm_bindgen]
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

#[wasm_bindgen]
impl Rng {
    /// The generator of `seed` (a 32-bit integer, so JavaScript passes a
    /// plain number).
    #[wasm_bindgen(constructor)]
    pub fn new(seed: u32) -> Rng {
        Rng {
            state: u64::from(seed),
        }
    }

    /// The next number: the top 53 bits of the next output, over 2^53,
    /// so every double it returns is exact and below 1.
    #[wasm_bindgen(js_name = nextUnit)]
    pub fn next_unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

impl Rng {
    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_splitmix64() {
        // The reference implementation's first outputs from seed 0.
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut rng = Rng::new(42);
        for _ in 0..1000 {
            let u = rng.next_unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}

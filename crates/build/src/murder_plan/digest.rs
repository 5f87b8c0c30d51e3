//! What identifies a Murder Plan matrix game: the [`GameDigest`], a
//! BLAKE2b-256 of the state's shape (its inventory and the map from turn
//! outcomes to distinct post-card states, [`StateSuccessors::shape`]) and
//! the bits of the continuation value of each of those states. That
//! determines the payoff matrix exactly, and hashing it costs ~260 floats
//! instead of the ~15 thousand of the expanded matrix.
//!
//! Its own module because two others key on it: the solver dedupes the
//! games of a day by digest, and the on-disk cache stores solved games by
//! digest; both import it from here, neither from the other.

use blake2::digest::consts::U32;
use blake2::{Blake2b, Digest};

use super::successors::StateSuccessors;

/// 256-bit digest of what determines a payoff matrix.
pub type GameDigest = [u8; 32];

/// BLAKE2b-256 of the state's shape digest (inventory and outcome-to-slot
/// map) and the bits of every slot value: the payoff of cell `(a, b)` is
/// `slot_values[slot_of[outcome_of[a, b]]]`, so equal digests mean equal
/// matrices. Hashing the ~260 slot values instead of the ~700 outcome values
/// makes the digests about 2.7 times cheaper, and finds exactly the same
/// duplicates on this game.
pub fn game_digest(successors: &StateSuccessors, slot_values: &[f64]) -> GameDigest {
    let mut hasher = Blake2b::<U32>::new();
    hasher.update(successors.shape);
    for v in slot_values {
        hasher.update(v.to_bits().to_le_bytes());
    }
    hasher.finalize().into()
}

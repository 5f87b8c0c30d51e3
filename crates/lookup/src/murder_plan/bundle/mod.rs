//! The Murder Plan browser bundle: the part of the Murder Plan tables a
//! game from the 16 starts can reach, in one compact file a static web app
//! hosts as it is (`murder_plan_browser.bin.gz`, written by `gametab build`
//! beside the Parquet tables, listed in `manifest.json`, checked by
//! `gametab verify`). The WebAssembly module (`web/`) decodes it into the
//! same [`MurderPlanTables`] the Parquet loader fills, with
//! [`Coverage::Reachable`], so its answers come from the same query code.
//!
//! # What it holds
//! For every days_left d in 1..=8 and every state S that some game of
//! horizon <= 8 from the 16 starts reaches with d days left and that the
//! mastermind has not won (a *position*; the values table's `reachable`
//! column): V_d(S), the certificate gap, and both optimal supports in the
//! stored order. For every d in 1..=8 and every post-card state P that a
//! turn of a position can lead to (the states reachable with d - 1 days
//! left from which every legal ability leads to a state reachable with
//! d - 1, or won: every post-card state of a turn from a position is
//! one): the brain's stored target; its value is not stored, it is what
//! the brain table holds by construction, 1 if the state after the ability
//! is won and V_{d-1} of it otherwise, taken from the values above (and 0
//! or 1 by the rules at d - 1 = 0). The reachability of every (d, S),
//! d in 0..=8, and the win-rate table. Values that the rules fix (d = 0,
//! won states) are not stored either. Nothing is rounded: every float is
//! stored as its 64 bits.
//!
//! # Layout (version [`VERSION`])
//! The file is one gzip member (RFC 1952; mtime 0, no name, OS 255,
//! deflate level 9, so the same tables give the same bytes). Its content,
//! little-endian, where an *array* of n multi-byte numbers is stored as
//! byte planes (the most significant byte of every number, then the next,
//! ...: the sign-and-exponent bytes of the floats, and the high bytes of
//! the small integers, sit together and compress to almost nothing):
//!
//! | field | encoding |
//! |---|---|
//! | magic | the 8 bytes `GTMPWEB\0` |
//! | version | u32, [`VERSION`] |
//! | max_days | u8, 8 |
//! | state_count | u16, 3840 (`STATE_COUNT`) |
//! | generator | u8 length, then that many bytes of UTF-8 (`gametab 0.1.0`) |
//! | reachable | 9 × 3840 bits, key order (`days_left * 3840 + State::index()`), least significant bit first |
//! | positions | u32 n: the positions, in key order (the reachable, non-won keys of days_left >= 1) |
//! | values | array of n f64 |
//! | gaps | array of n f64 |
//! | mastermind refs | array of n u32: `2 · index + mirrored` into the mastermind supports |
//! | protagonist refs | array of n u32, into the protagonist supports |
//! | brain targets | for d = 1..=8, every held post-card state (above) in index order: 2 bits (0 killer, 1 key person, 2 nobody), four to a byte, least significant first; the last byte padded with zeros |
//! | mastermind supports | u32 count m; m u8 lengths; then every support's action codes (u8, `CardKind` codes) in stored order; then an array of their probabilities (f64) |
//! | protagonist supports | the same |
//! | win rates | array of 8 × 17 f64: horizon 1..=8, start index 0..=16 (16: the average) |
//!
//! and nothing after. Identical supports are stored once: a position's
//! reference names one, or (`mirrored`) the mirror image of one under the
//! axis swap (every card mapped by the swap, then sorted into the stored
//! order, by the three card labels as strings), which is how the tables
//! store a state's swapped twin. `encode` (feature `write`) decodes what it wrote and
//! compares it with the tables it came from before it returns, so a bundle
//! that would answer differently is never written.
//!
//! A reader refuses a file whose magic, version, sizes or counts differ,
//! a reference or code out of range, an action that is illegal in its
//! state, a probability outside (0, 1] or a support not summing to 1
//! (within 1e-9), a brain target that is illegal in its post-card state,
//! a value outside [0, 1], trailing bytes, and a content over 64 MiB: each
//! an [`Error::CorruptBundle`](crate::Error::CorruptBundle), never a
//! panic.

mod compare;
mod decode;
#[cfg(any(test, feature = "write"))]
mod encode;
mod planes;

pub use compare::{compare, Comparison, Difference};
pub use decode::{decode, decode_content, Decoded};
#[cfg(any(test, feature = "write"))]
pub use encode::{encode, Encoded};
pub use planes::gunzip;

#[cfg(test)]
mod tests;

#[allow(unused_imports)] // For the links of the documentation above.
use super::tables::{Coverage, MurderPlanTables};

/// File name of the bundle inside a table directory.
pub const FILE: &str = "murder_plan_browser.bin.gz";
/// Its name in `manifest.json` (the `table` of its entry) and in errors.
pub const NAME: &str = "murder_plan_browser";
/// Version of the layout; bumped whenever it changes.
pub const VERSION: u32 = 1;
/// The first 8 bytes of the content.
pub const MAGIC: [u8; 8] = *b"GTMPWEB\0";
/// Largest content a reader inflates (the real one is about 2 MB).
pub const MAX_CONTENT: usize = 64 << 20;

/// The brain target codes of the layout.
const BRAIN_CODES: [gametab_games::murder_plan::BrainTarget; 3] =
    gametab_games::murder_plan::BrainTarget::PREFERENCE;

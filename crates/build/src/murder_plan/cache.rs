//! On-disk cache of solved matrix games, keyed by the [`GameDigest`] the
//! solver computes for every game, so an unchanged rerun skips the LPs and an
//! interrupted build resumes where its last save left off.
//!
//! The cache is an optimisation, never a source of truth: [`GameCache::load`]
//! checks everything it reads and answers a missing file with an empty cache,
//! and a file that is unreadable, truncated, corrupt, of another format
//! version or built for other rules with an empty cache and a warning. No
//! entry of a rejected file is ever returned.
//!
//! # File format (version 1)
//!
//! All integers in the header are little-endian.
//!
//! | bytes          | field                                                  |
//! |----------------|--------------------------------------------------------|
//! | 8              | magic `b"GAMETABC"`                                    |
//! | 4              | format version, `u32` ([`FORMAT_VERSION`])             |
//! | 4              | fingerprint length `F` in bytes, `u32`                 |
//! | `F`            | fingerprint, UTF-8 (generator version, rule parameters)|
//! | 8              | entry count `N`, `u64`                                 |
//! | 8              | payload length `P` in bytes, `u64`                     |
//! | `P`            | payload: `N` entries, bincode 2                        |
//! | 32             | BLAKE2b-256 of every byte before it                    |
//!
//! The payload is the concatenation of `N` entries in strictly increasing
//! digest order (so the bytes do not depend on insertion order), each encoded
//! with bincode 2's standard configuration (little-endian, variable-length
//! integers) as the fields, in order:
//!
//! 1. `digest`: the 32 bytes of the [`GameDigest`];
//! 2. `rows`, `cols`: the full game's size, `u32` each;
//! 3. `row`: the row player's support, a length then `(index u32, f64)`
//!    pairs in increasing index order (every other action has probability
//!    0);
//! 4. `col`: the column player's support, likewise;
//! 5. `lower`, `upper`: the certificate, `f64` each;
//! 6. `reduced_rows`, `reduced_cols`: `u64` each;
//! 7. `used_lp`: `bool`.
//!
//! bincode writes an `f64` as its 8 IEEE-754 bytes, so every float round-trips
//! bit for bit (signed zeros and subnormals included). Optimal strategies are
//! sparse, so an entry stores only the supports: a 136 x 112 game with
//! supports of 6 and 5 actions takes about 160 bytes.
//!
//! Loading checks, in order: the magic, the version, the checksum, the other
//! header fields (every length against the file length, the fingerprint
//! byte for byte), and then every entry
//! (bincode decoding under a byte limit, so a length field cannot make it
//! allocate more than [`MAX_ENTRY_BYTES`], strictly increasing digests,
//! plausible shapes, finite floats) and that the payload holds exactly `N`
//! entries and nothing after them. Nothing is allocated from a length read
//! out of the file before the checksum has matched.

use crate::error::{Context, Result};
use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read};
use std::path::Path;

use bincode::config::{Configuration, LittleEndian, Varint};
use bincode::{Decode, Encode};
use blake2::digest::consts::U32;
use blake2::{Blake2b, Digest};

use super::digest::GameDigest;
use crate::output::write_atomically;
use gametab_solve::matrix_game::{Certificate, SolvedGame, StrategyPair};

/// The first bytes of every cache file.
pub const MAGIC: &[u8; 8] = b"GAMETABC";

/// Version of the file layout and of the entry encoding. Bump it on any
/// change to either: files of another version are ignored.
pub const FORMAT_VERSION: u32 = 2;

/// Most bytes one entry may claim while decoding (a 2^21-float game is far
/// beyond any game the solver builds).
pub const MAX_ENTRY_BYTES: usize = 1 << 24;

/// Largest file [`GameCache::load`] reads; anything longer is not a cache.
const MAX_FILE_BYTES: u64 = 1 << 34;

const CHECKSUM_LEN: usize = 32;

/// Bytes of a foreign fingerprint quoted in a warning.
const MAX_SHOWN_FINGERPRINT: usize = 200;

/// Magic, version, fingerprint length, entry count, payload length, checksum.
const MIN_FILE_LEN: usize = MAGIC.len() + 4 + 4 + 8 + 8 + CHECKSUM_LEN;

type EntryConfig = Configuration<LittleEndian, Varint, bincode::config::Limit<MAX_ENTRY_BYTES>>;

const ENTRY_CONFIG: EntryConfig = bincode::config::standard().with_limit::<MAX_ENTRY_BYTES>();

/// Solved matrix games by the digest of what determines them.
///
/// Entries are kept sorted by digest, which is the order they are saved in.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameCache {
    games: BTreeMap<GameDigest, SolvedGame>,
}

impl GameCache {
    /// An empty cache.
    pub fn new() -> GameCache {
        GameCache::default()
    }

    /// Load the cache saved at `path` for the rules described by
    /// `fingerprint`.
    ///
    /// A missing file gives an empty cache and no warning. A file that cannot
    /// be read, is truncated or corrupt, has the wrong magic bytes, another
    /// format version or another fingerprint gives an empty cache and a
    /// warning naming the path and the problem: the caller reports it and
    /// solves everything afresh. Never panics.
    pub fn load(path: &Path, fingerprint: &str) -> (GameCache, Option<String>) {
        let bytes = match read_limited(path, MAX_FILE_BYTES) {
            Ok(bytes) => bytes,
            Err(CacheError::Read(error)) if error.kind() == io::ErrorKind::NotFound => {
                return (GameCache::new(), None)
            }
            Err(error) => return (GameCache::new(), Some(warning(path, &error))),
        };
        match decode_file(&bytes, fingerprint) {
            Ok(cache) => (cache, None),
            Err(error) => (GameCache::new(), Some(warning(path, &error))),
        }
    }

    /// The solved game of `digest`, if cached.
    pub fn get(&self, digest: &GameDigest) -> Option<&SolvedGame> {
        self.games.get(digest)
    }

    /// Every cached digest with its game, in digest order.
    pub fn iter(&self) -> impl Iterator<Item = (&GameDigest, &SolvedGame)> {
        self.games.iter()
    }

    /// Cache `game` under `digest`, replacing any previous entry.
    pub fn insert(&mut self, digest: GameDigest, game: SolvedGame) {
        self.games.insert(digest, game);
    }

    /// Number of cached games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game is cached.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Save the cache to `path` for the rules described by `fingerprint`,
    /// atomically (temporary file, fsync, rename): an interrupted save leaves
    /// the previous file intact. The bytes depend only on the contents and
    /// the fingerprint, not on the insertion order.
    ///
    /// # Errors
    /// The fingerprint is longer than 4 GiB, an entry cannot be encoded, or
    /// the file cannot be written (the parent directory must exist).
    pub fn save(&self, path: &Path, fingerprint: &str) -> Result<()> {
        let bytes = self
            .encode_file(fingerprint)
            .with_context(|| format!("cannot encode the game cache {}", path.display()))?;
        write_atomically(path, &bytes)
    }

    fn encode_file(&self, fingerprint: &str) -> Result<Vec<u8>> {
        let fingerprint_len =
            u32::try_from(fingerprint.len()).context("fingerprint longer than 4 GiB")?;
        let mut payload = Vec::new();
        for (digest, game) in &self.games {
            bincode::encode_into_std_write(EntryRef::new(digest, game), &mut payload, ENTRY_CONFIG)
                .context("cannot encode a cache entry")?;
        }
        let mut bytes = Vec::with_capacity(MIN_FILE_LEN + fingerprint.len() + payload.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&fingerprint_len.to_le_bytes());
        bytes.extend_from_slice(fingerprint.as_bytes());
        bytes.extend_from_slice(&(self.games.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&payload);
        let checksum = checksum(&bytes);
        bytes.extend_from_slice(&checksum);
        Ok(bytes)
    }
}

/// Why a cache file was rejected.
#[derive(Debug, thiserror::Error)]
enum CacheError {
    #[error("cannot read it: {0}")]
    Read(io::Error),
    #[error("larger than {limit} bytes, not a game cache")]
    TooLarge { limit: u64 },
    #[error("not a game cache (wrong magic bytes)")]
    Magic,
    #[error("truncated ({len} bytes, a game cache has at least {MIN_FILE_LEN})")]
    Truncated { len: usize },
    #[error("format version {found}, this build reads version {FORMAT_VERSION}")]
    Version { found: u32 },
    #[error("checksum mismatch (corrupt or truncated file)")]
    Checksum,
    #[error("malformed header: {0}")]
    Header(&'static str),
    #[error("built for other rules (fingerprint {found:?}, expected {expected:?})")]
    Fingerprint { found: String, expected: String },
    #[error("malformed entry {index}: {reason}")]
    Entry { index: u64, reason: String },
    #[error("{extra} bytes after the {count} entries the header announces")]
    TrailingBytes { count: u64, extra: usize },
}

fn warning(path: &Path, error: &CacheError) -> String {
    format!(
        "ignoring the game cache {}: {error}; solving every game afresh",
        path.display()
    )
}

/// The whole file, refusing anything longer than `limit` bytes without
/// reading it all.
fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, CacheError> {
    let file = fs::File::open(path).map_err(CacheError::Read)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(CacheError::Read)?;
    if bytes.len() as u64 > limit {
        return Err(CacheError::TooLarge { limit });
    }
    Ok(bytes)
}

fn checksum(bytes: &[u8]) -> [u8; CHECKSUM_LEN] {
    Blake2b::<U32>::digest(bytes).into()
}

/// Validate and decode a whole cache file (see the module doc for the order
/// of the checks).
fn decode_file(bytes: &[u8], fingerprint: &str) -> Result<GameCache, CacheError> {
    if bytes.len() >= MAGIC.len() && !bytes.starts_with(MAGIC) {
        return Err(CacheError::Magic);
    }
    if bytes.len() < MIN_FILE_LEN {
        return Err(CacheError::Truncated { len: bytes.len() });
    }
    let (body, stored) = bytes.split_at(bytes.len() - CHECKSUM_LEN);
    let mut header = Cursor::new(body);
    header.take(MAGIC.len())?;
    let version = header.u32()?;
    if version != FORMAT_VERSION {
        return Err(CacheError::Version { found: version });
    }
    if checksum(body) != stored {
        return Err(CacheError::Checksum);
    }

    let fingerprint_len = usize::try_from(header.u32()?)
        .map_err(|_| CacheError::Header("fingerprint length exceeds memory"))?;
    let found = header.take(fingerprint_len)?;
    if found != fingerprint.as_bytes() {
        return Err(CacheError::Fingerprint {
            found: String::from_utf8_lossy(&found[..found.len().min(MAX_SHOWN_FINGERPRINT)])
                .into_owned(),
            expected: fingerprint.to_owned(),
        });
    }
    let count = header.u64()?;
    let payload_len = usize::try_from(header.u64()?)
        .map_err(|_| CacheError::Header("payload length exceeds memory"))?;
    let payload = header.take(payload_len)?;
    if header.remaining() != 0 {
        return Err(CacheError::Header(
            "payload length does not match the file length",
        ));
    }
    decode_entries(payload, count)
}

/// Decode exactly `count` entries filling `payload`. The count is never used
/// to size an allocation: the loop stops at the first entry that fails.
fn decode_entries(payload: &[u8], count: u64) -> Result<GameCache, CacheError> {
    let mut games = BTreeMap::new();
    let mut offset = 0;
    let mut previous: Option<GameDigest> = None;
    for index in 0..count {
        let entry_error = |reason: String| CacheError::Entry { index, reason };
        let (entry, read): (Entry, usize) =
            bincode::decode_from_slice(&payload[offset..], ENTRY_CONFIG)
                .map_err(|error| entry_error(describe(error)))?;
        offset += read;
        if previous.is_some_and(|previous| previous >= entry.digest) {
            return Err(entry_error(
                "digests not in strictly increasing order".into(),
            ));
        }
        previous = Some(entry.digest);
        let (digest, game) = entry
            .into_game()
            .map_err(|reason| entry_error(reason.into()))?;
        games.insert(digest, game);
    }
    if offset != payload.len() {
        return Err(CacheError::TrailingBytes {
            count,
            extra: payload.len() - offset,
        });
    }
    Ok(GameCache { games })
}

/// The reason bincode gives, in words for the two a damaged or forged file
/// triggers most.
fn describe(error: bincode::error::DecodeError) -> String {
    use bincode::error::DecodeError;
    match error {
        DecodeError::UnexpectedEnd { .. } => "ends early".to_owned(),
        DecodeError::LimitExceeded => format!("claims more than {MAX_ENTRY_BYTES} bytes"),
        other => other.to_string(),
    }
}

/// Reads the header fields, checking every length against what is left of
/// the file before its checksum.
struct Cursor<'a> {
    rest: &'a [u8],
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor { rest: bytes }
    }

    fn take(&mut self, len: usize) -> Result<&'a [u8], CacheError> {
        if len > self.rest.len() {
            return Err(CacheError::Header("a length runs past the end of the file"));
        }
        let (taken, rest) = self.rest.split_at(len);
        self.rest = rest;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], CacheError> {
        let mut array = [0; N];
        array.copy_from_slice(self.take(N)?);
        Ok(array)
    }

    fn u32(&mut self) -> Result<u32, CacheError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, CacheError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn remaining(&self) -> usize {
        self.rest.len()
    }
}

/// One entry as written: borrows the cached game. Its fields and their order
/// must stay those of [`Entry`] (the round-trip tests check it).
#[derive(Encode)]
struct EntryRef<'a> {
    digest: &'a GameDigest,
    rows: u32,
    cols: u32,
    row: Vec<(u32, f64)>,
    col: Vec<(u32, f64)>,
    lower: f64,
    upper: f64,
    reduced_rows: u64,
    reduced_cols: u64,
    used_lp: bool,
}

/// The non-zero entries of a strategy with their indices.
fn sparse(probabilities: &[f64]) -> Vec<(u32, f64)> {
    (0..probabilities.len())
        .filter(|&i| probabilities[i] != 0.0 || probabilities[i].is_sign_negative())
        .map(|i| (i as u32, probabilities[i]))
        .collect()
}

impl<'a> EntryRef<'a> {
    fn new(digest: &'a GameDigest, game: &'a SolvedGame) -> EntryRef<'a> {
        EntryRef {
            digest,
            rows: game.strategies.row.len() as u32,
            cols: game.strategies.col.len() as u32,
            row: sparse(&game.strategies.row),
            col: sparse(&game.strategies.col),
            lower: game.certificate.lower,
            upper: game.certificate.upper,
            reduced_rows: game.reduced_rows as u64,
            reduced_cols: game.reduced_cols as u64,
            used_lp: game.used_lp,
        }
    }
}

/// Most actions a cached game may have per side (Murder Plan has at most
/// 136): a bound on what a decoded entry may allocate.
const MAX_ACTIONS: u32 = 1 << 16;

/// A dense strategy of `len` actions from its support, which must be in
/// strictly increasing index order inside `0..len`.
fn dense(len: u32, support: &[(u32, f64)]) -> Result<Vec<f64>, &'static str> {
    if len > MAX_ACTIONS {
        return Err("more actions than any game has");
    }
    if support.windows(2).any(|w| w[0].0 >= w[1].0) || support.iter().any(|&(i, _)| i >= len) {
        return Err("support indices out of order or out of range");
    }
    let mut out = vec![0.0; len as usize];
    for &(i, p) in support {
        out[i as usize] = p;
    }
    Ok(out)
}

/// One entry as read, the owned twin of [`EntryRef`].
#[derive(Decode)]
struct Entry {
    digest: GameDigest,
    rows: u32,
    cols: u32,
    row: Vec<(u32, f64)>,
    col: Vec<(u32, f64)>,
    lower: f64,
    upper: f64,
    reduced_rows: u64,
    reduced_cols: u64,
    used_lp: bool,
}

impl Entry {
    /// The cached game, if the entry is one the solver could have produced:
    /// non-empty strategies, a reduced game no larger than the full one, and
    /// finite numbers.
    fn into_game(self) -> Result<(GameDigest, SolvedGame), &'static str> {
        let reduced_rows =
            usize::try_from(self.reduced_rows).map_err(|_| "reduced rows overflow")?;
        let reduced_cols =
            usize::try_from(self.reduced_cols).map_err(|_| "reduced cols overflow")?;
        let row = dense(self.rows, &self.row)?;
        let col = dense(self.cols, &self.col)?;
        if !(1..=row.len()).contains(&reduced_rows) || !(1..=col.len()).contains(&reduced_cols) {
            return Err("reduced game size outside 1..=full size");
        }
        let all_finite = (row.iter().chain(&col))
            .chain([&self.lower, &self.upper])
            .all(|x| x.is_finite());
        if !all_finite {
            return Err("non-finite number");
        }
        Ok((
            self.digest,
            SolvedGame {
                strategies: StrategyPair { row, col },
                certificate: Certificate {
                    lower: self.lower,
                    upper: self.upper,
                },
                reduced_rows,
                reduced_cols,
                used_lp: self.used_lp,
            },
        ))
    }
}

#[cfg(test)]
#[path = "cache_tests.rs"]
mod tests;

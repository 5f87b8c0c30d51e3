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

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read};
use std::path::Path;

use anyhow::{Context, Result};
use bincode::config::{Configuration, LittleEndian, Varint};
use bincode::{Decode, Encode};
use blake2::digest::consts::U32;
use blake2::{Blake2b, Digest};

use super::solver::GameDigest;
use crate::matrix_game::{Certificate, SolvedGame, StrategyPair};
use crate::output::write_atomically;

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
mod tests {
    use super::*;

    const RULES: &str = "gametab 0.1.0; diagonal=true; intrigue2=true";

    /// Floats that must survive bit for bit, signed zero and subnormals included.
    const AWKWARD: [f64; 9] = [
        0.0,
        -0.0,
        5e-324,
        f64::MIN_POSITIVE,
        f64::MIN_POSITIVE / 3.0,
        1.0 / 3.0,
        1.0 - f64::EPSILON,
        0.1 + 0.2,
        f64::MAX,
    ];

    /// A deterministic game with `rows x cols` actions whose probabilities
    /// depend on `seed`.
    fn game(rows: usize, cols: usize, seed: u64) -> SolvedGame {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        SolvedGame {
            strategies: StrategyPair {
                row: (0..rows).map(|_| next()).collect(),
                col: (0..cols).map(|_| next()).collect(),
            },
            certificate: Certificate {
                lower: next(),
                upper: next(),
            },
            reduced_rows: rows.min(3),
            reduced_cols: cols.min(2),
            used_lp: seed.is_multiple_of(2),
        }
    }

    fn key(n: u8) -> GameDigest {
        let mut digest = [n; 32];
        digest[31] = n.wrapping_mul(7);
        digest
    }

    fn sample() -> GameCache {
        let mut cache = GameCache::new();
        cache.insert(key(9), game(4, 3, 1));
        cache.insert(key(2), game(1, 1, 2));
        let mut awkward = game(AWKWARD.len(), 2, 3);
        awkward.strategies.row = AWKWARD.to_vec();
        awkward.certificate = Certificate {
            lower: -0.0,
            upper: 5e-324,
        };
        cache.insert(key(5), awkward);
        cache
    }

    fn bits(game: &SolvedGame) -> Vec<u64> {
        let strategies = &game.strategies;
        let certificate = [game.certificate.lower, game.certificate.upper];
        (strategies
            .row
            .iter()
            .chain(&strategies.col)
            .chain(&certificate))
        .map(|x| x.to_bits())
        .collect()
    }

    fn assert_same_bits(a: &GameCache, b: &GameCache) {
        assert_eq!(a.len(), b.len());
        for (digest, game) in &a.games {
            let other = b.get(digest).expect("entry present");
            assert_eq!(bits(game), bits(other));
            assert_eq!(game, other);
        }
    }

    /// Writes `bytes` as a cache file in `dir` and loads it with [`RULES`],
    /// asserting the result is empty with a warning naming the path; returns
    /// the warning.
    fn rejected(dir: &Path, bytes: &[u8]) -> String {
        let path = dir.join("games.cache");
        fs::write(&path, bytes).unwrap();
        let (cache, warning) = GameCache::load(&path, RULES);
        assert!(cache.is_empty(), "entries returned from a bad file");
        let warning = warning.expect("a bad file must give a warning");
        assert!(warning.contains(&path.display().to_string()), "{warning}");
        warning
    }

    /// Header fields and payload, sealed with a correct checksum: a file
    /// that passes the checksum but may lie in its fields.
    fn forge(
        fingerprint_len: u32,
        fingerprint: &str,
        count: u64,
        payload_len: u64,
        payload: &[u8],
    ) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&fingerprint_len.to_le_bytes());
        bytes.extend_from_slice(fingerprint.as_bytes());
        bytes.extend_from_slice(&count.to_le_bytes());
        bytes.extend_from_slice(&payload_len.to_le_bytes());
        bytes.extend_from_slice(payload);
        reseal(&mut bytes);
        bytes
    }

    fn reseal(bytes: &mut Vec<u8>) {
        let sum = checksum(bytes);
        bytes.extend_from_slice(&sum);
    }

    fn encode_entry(digest: &GameDigest, game: &SolvedGame) -> Vec<u8> {
        bincode::encode_to_vec(EntryRef::new(digest, game), ENTRY_CONFIG).unwrap()
    }

    fn saved_bytes(cache: &GameCache) -> Vec<u8> {
        cache.encode_file(RULES).unwrap()
    }

    #[test]
    fn round_trip_is_bit_exact() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.cache");
        let cache = sample();
        cache.save(&path, RULES).unwrap();
        let (loaded, warning) = GameCache::load(&path, RULES);
        assert_eq!(warning, None);
        assert_eq!(loaded.len(), 3);
        assert_same_bits(&cache, &loaded);
        let awkward = loaded.get(&key(5)).unwrap();
        let awkward_bits: Vec<u64> = AWKWARD.iter().map(|x| x.to_bits()).collect();
        assert_eq!(&bits(awkward)[..AWKWARD.len()], &awkward_bits[..]);
        assert_eq!(awkward.certificate.lower.to_bits(), (-0.0f64).to_bits());
        assert_eq!(loaded.get(&key(1)), None);
    }

    #[test]
    fn empty_cache_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.cache");
        GameCache::new().save(&path, RULES).unwrap();
        assert_eq!(
            fs::metadata(&path).unwrap().len() as usize,
            MIN_FILE_LEN + RULES.len()
        );
        let (loaded, warning) = GameCache::load(&path, RULES);
        assert_eq!(warning, None);
        assert!(loaded.is_empty());
    }

    #[test]
    fn bytes_do_not_depend_on_insertion_order() {
        let games: Vec<(GameDigest, SolvedGame)> = (0..20u8)
            .map(|n| (key(n * 11), game(5, 4, u64::from(n))))
            .collect();
        let mut forward = GameCache::new();
        games
            .iter()
            .cloned()
            .for_each(|(d, g)| forward.insert(d, g));
        let mut backward = GameCache::new();
        backward.insert(key(0), game(1, 1, 99)); // replaced below
        games
            .iter()
            .rev()
            .cloned()
            .for_each(|(d, g)| backward.insert(d, g));
        assert_eq!(saved_bytes(&forward), saved_bytes(&backward));

        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        forward.save(&a, RULES).unwrap();
        backward.save(&b, RULES).unwrap();
        assert_eq!(fs::read(a).unwrap(), fs::read(b).unwrap());
    }

    #[test]
    fn missing_file_is_empty_without_warning() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, warning) = GameCache::load(&dir.path().join("absent.cache"), RULES);
        assert!(cache.is_empty());
        assert_eq!(warning, None);
    }

    #[test]
    fn unreadable_file_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let (cache, warning) = GameCache::load(dir.path(), RULES);
        assert!(cache.is_empty());
        assert!(warning.unwrap().contains("cannot read"));
    }

    #[test]
    fn oversized_file_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.cache");
        fs::write(&path, saved_bytes(&sample())).unwrap();
        let len = fs::metadata(&path).unwrap().len();
        assert_eq!(read_limited(&path, len).unwrap().len() as u64, len);
        let error = read_limited(&path, len - 1).unwrap_err();
        assert!(matches!(error, CacheError::TooLarge { .. }), "{error}");
    }

    #[test]
    fn truncated_file_is_rejected_at_every_length() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = saved_bytes(&sample());
        for len in 0..bytes.len() {
            let warning = rejected(dir.path(), &bytes[..len]);
            let expected = if len < MIN_FILE_LEN {
                "truncated"
            } else {
                "checksum"
            };
            assert!(warning.contains(expected), "length {len}: {warning}");
        }
    }

    #[test]
    fn flipped_byte_is_rejected_at_every_position() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = saved_bytes(&sample());
        for position in 0..bytes.len() {
            for mask in [0x01, 0x80, 0xFF] {
                let mut corrupt = bytes.clone();
                corrupt[position] ^= mask;
                let warning = rejected(dir.path(), &corrupt);
                let expected = match position {
                    0..8 => "magic",
                    8..12 => "format version",
                    _ => "checksum",
                };
                assert!(warning.contains(expected), "byte {position}: {warning}");
            }
        }
    }

    #[test]
    fn random_bytes_are_rejected() {
        let dir = tempfile::tempdir().unwrap();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..64 {
            let len = (round * 37) % 700;
            let mut bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            rejected(dir.path(), &bytes);
            // Past the magic and version checks, only the checksum stops them.
            let mut prefixed = MAGIC.to_vec();
            prefixed.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
            prefixed.append(&mut bytes);
            let warning = rejected(dir.path(), &prefixed);
            assert!(
                warning.contains("truncated") || warning.contains("checksum"),
                "{warning}"
            );
        }
    }

    #[test]
    fn foreign_magic_is_rejected() {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = saved_bytes(&sample());
        bytes.truncate(bytes.len() - CHECKSUM_LEN);
        bytes[..8].copy_from_slice(b"PAR1\0\0\0\0");
        reseal(&mut bytes);
        assert!(rejected(dir.path(), &bytes).contains("wrong magic"));
    }

    #[test]
    fn other_version_is_rejected() {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = saved_bytes(&sample());
        bytes.truncate(bytes.len() - CHECKSUM_LEN);
        bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
        reseal(&mut bytes);
        let warning = rejected(dir.path(), &bytes);
        assert!(
            warning.contains(&format!("format version {}", FORMAT_VERSION + 1)),
            "{warning}"
        );
    }

    #[test]
    fn other_rules_are_rejected() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.cache");
        sample()
            .save(&path, "gametab 0.1.0; diagonal=false")
            .unwrap();
        let (cache, warning) = GameCache::load(&path, RULES);
        assert!(cache.is_empty());
        let warning = warning.unwrap();
        assert!(warning.contains("other rules"), "{warning}");
        assert!(warning.contains("diagonal=false"), "{warning}");
        assert!(warning.contains(&path.display().to_string()), "{warning}");
    }

    #[test]
    fn lying_fields_behind_a_valid_checksum_are_rejected() {
        let dir = tempfile::tempdir().unwrap();
        let fp = RULES.len() as u32;
        let (a, b) = (key(1), key(2));
        let entry_a = encode_entry(&a, &game(3, 2, 1));
        let entry_b = encode_entry(&b, &game(2, 3, 2));
        let both = [entry_a.clone(), entry_b.clone()].concat();
        let swapped = [entry_b, entry_a.clone()].concat();
        let doubled = [entry_a.clone(), entry_a].concat();
        let len = both.len() as u64;
        let honest = forge(fp, RULES, 2, len, &both);
        assert_eq!(decode_file(&honest, RULES).unwrap().len(), 2);

        // A support length of 2^60 pairs must fail on the limit, not allocate.
        let mut huge = a.to_vec();
        huge.extend_from_slice(&[3, 2]); // rows, cols
        huge.push(253); // bincode's varint marker: a u64 follows
        huge.extend_from_slice(&(1u64 << 60).to_le_bytes());
        let huge_len = huge.len() as u64;
        let cases = [
            (forge(fp, RULES, 3, len, &both), "entry 2: ends early"),
            (
                forge(fp, RULES, u64::MAX, len, &both),
                "entry 2: ends early",
            ),
            (forge(fp, RULES, 1, len, &both), "bytes after the 1 entries"),
            (
                forge(fp, RULES, 2, len, &swapped),
                "entry 1: digests not in",
            ),
            (
                forge(fp, RULES, 2, len, &doubled),
                "entry 1: digests not in",
            ),
            (forge(fp, RULES, 2, len + 1, &both), "past the end"),
            (forge(fp, RULES, 2, u64::MAX, &both), "malformed header"),
            (
                forge(fp, RULES, 2, len - 1, &both),
                "does not match the file",
            ),
            (forge(u32::MAX, RULES, 2, len, &both), "past the end"),
            (
                forge(fp, RULES, 1, huge_len, &huge),
                "more than 16777216 bytes",
            ),
        ];
        for (bytes, expected) in cases {
            let warning = rejected(dir.path(), &bytes);
            assert!(warning.contains(expected), "{expected}: {warning}");
        }
    }

    #[test]
    fn implausible_entries_are_rejected() {
        let dir = tempfile::tempdir().unwrap();
        let mut no_reduced_rows = game(3, 2, 1);
        no_reduced_rows.reduced_rows = 0;
        let mut reduced_too_large = game(3, 2, 1);
        reduced_too_large.reduced_cols = 3;
        let mut not_finite = game(3, 2, 1);
        not_finite.strategies.col[1] = f64::NAN;
        let mut empty = game(3, 2, 1);
        empty.strategies.row.clear();
        for bad in [no_reduced_rows, reduced_too_large, not_finite, empty] {
            let entry = encode_entry(&key(1), &bad);
            let bytes = forge(RULES.len() as u32, RULES, 1, entry.len() as u64, &entry);
            let warning = rejected(dir.path(), &bytes);
            assert!(warning.contains("malformed entry 0"), "{warning}");
        }
    }

    #[test]
    fn save_is_atomic_and_replaces_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.cache");
        let mut cache = sample();
        cache.save(&path, RULES).unwrap();
        cache.insert(key(200), game(7, 6, 4));
        cache.save(&path, RULES).unwrap();
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names, ["games.cache"]);
        let (loaded, warning) = GameCache::load(&path, RULES);
        assert_eq!(warning, None);
        assert_same_bits(&cache, &loaded);

        let nowhere = dir.path().join("missing-dir").join("games.cache");
        assert!(cache.save(&nowhere, RULES).is_err());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// The size stated in the module doc: a 136 x 112 game with supports of
    /// 6 and 5 actions.
    #[test]
    fn typical_entry_size() {
        let mut cache = GameCache::new();
        for n in 0..10 {
            let mut sparse_game = game(136, 112, u64::from(n));
            for (i, p) in sparse_game.strategies.row.iter_mut().enumerate() {
                if i % 23 != 0 {
                    *p = 0.0;
                }
            }
            for (i, p) in sparse_game.strategies.col.iter_mut().enumerate() {
                if i % 23 != 0 {
                    *p = 0.0;
                }
            }
            cache.insert(key(n), sparse_game);
        }
        let bytes = saved_bytes(&cache);
        let per_entry = (bytes.len() - MIN_FILE_LEN - RULES.len()) / 10;
        // digest, sizes, 6 and 5 (index, f64) pairs, certificate, the rest.
        assert_eq!(per_entry, 32 + 2 + (1 + 6 * 9) + (1 + 5 * 9) + 16 + 3);
    }
}

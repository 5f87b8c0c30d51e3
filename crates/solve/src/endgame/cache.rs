//! On-disk cache of solved endgames, so a rerun of `gametab build` skips the
//! solves. Like the Murder Plan cache it is never trusted: every cached game
//! is certified again by the best-response walk before use, and a file that
//! is unreadable, corrupt, of another version or for another solver is
//! ignored with a warning.
//!
//! # File format (version 3; version 2 is still read)
//!
//! | bytes | field                                                       |
//! |-------|-------------------------------------------------------------|
//! | 8     | magic `b"GAMETABE"`                                         |
//! | 4     | format version, `u32` little-endian ([`FORMAT_VERSION`])    |
//! | 8     | payload length `P`, `u64` little-endian                     |
//! | `P`   | payload: one [`CacheFile`], bincode 2 standard configuration |
//! | 32    | BLAKE2b-256 of every byte before it                         |
//!
//! The payload holds the fingerprint (generator version and LP options) and
//! the games in key order, each with its value, method, sizes, its sparse
//! certificate ([`super::sparse`]: player 1's two best-response values,
//! recomputed on restore, never trusted; version 3 added it) and both
//! strategies as the solver gave them, before the best-response fill: the
//! `(hand, history bits, action, probability)` entries of positive
//! probability (action 0 is the call, `b + 1` the bid `b`) at the
//! information sets the LP (or the restricted LP) reaches. Everywhere else
//! a player plays the default ([`super::restricted::default_action`]);
//! restoring a game rebuilds that, fills the information sets each
//! player's own play never reaches with a best response exactly as the
//! solve did, and certifies the result. So the file holds the equilibrium's
//! support, not the millions of filled information sets of the larger
//! games, and a restored game is bit for bit the solved one. Floats are
//! their 8 IEEE-754 bytes.
//!
//! The same framing (magic, version, length, payload, checksum:
//! [`frame`], [`unframe`]) holds one game's job file
//! ([`super::job`]).

use std::fs;
use std::path::Path;

use super::error::{check, Error, Result};
use bincode::{Decode, Encode};
use blake2::digest::consts::U32;
use blake2::{Blake2b, Digest};

use gametab_games::dice::endgame::{
    Action, Endgame, History, Player, Strategy, MAX_STRATEGY_SLOTS,
};

use super::certificate::{self, Certificate};
use super::{exact_value, Fraction, LpSize, Method, SolvedEndgame};

/// The first bytes of the file.
pub const MAGIC: &[u8; 8] = b"GAMETABE";

/// Version of the layout; files of another version are ignored.
pub const FORMAT_VERSION: u32 = 3;

/// Largest file read (a cache of every game is a few MB).
const MAX_FILE_BYTES: u64 = 1 << 32;

const CHECKSUM_LEN: usize = 32;
const HEADER_LEN: usize = 8 + 4 + 8;

/// One strategy entry: hand, history bits, action (0 = call, `b + 1` = bid
/// `b`), probability.
pub type CachedEntry = (u8, u32, u8, f64);

/// One cached game.
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub struct CachedGame {
    /// Dice of player 1 and 2, sides, wild ones.
    pub key: (u8, u8, u8, bool),
    /// The solver's value.
    pub value: f64,
    /// [`Method::name`].
    pub method: String,
    /// Rows, columns, nonzeros of the LP solved (the last restricted LP).
    pub size: (u64, u64, u64),
    /// Rows, columns, nonzeros of the full game's LP.
    pub full_size: (u64, u64, u64),
    /// LPs solved.
    pub lps: u32,
    /// Each player's entries of positive probability, before the fill.
    pub strategies: [Vec<CachedEntry>; 2],
    /// The sparse certificate when it was stored: player 1's best-response
    /// value against player 2's strategy, and player 1's payoff against
    /// player 2's best response (recomputed on restore).
    pub certificate: (f64, f64),
}

/// A cached game of version 2 (no certificate).
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
struct CachedGameV2 {
    key: (u8, u8, u8, bool),
    value: f64,
    method: String,
    size: (u64, u64, u64),
    full_size: (u64, u64, u64),
    lps: u32,
    strategies: [Vec<CachedEntry>; 2],
}

/// The payload of version 2.
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
struct CacheFileV2 {
    fingerprint: String,
    games: Vec<CachedGameV2>,
}

/// The payload.
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub struct CacheFile {
    /// What produced the games (generator version, LP options).
    pub fingerprint: String,
    /// The games, in key order.
    pub games: Vec<CachedGame>,
}

fn checksum(bytes: &[u8]) -> [u8; CHECKSUM_LEN] {
    Blake2b::<U32>::digest(bytes).into()
}

fn key_of(game: Endgame) -> (u8, u8, u8, bool) {
    (
        game.dice(Player::One),
        game.dice(Player::Two),
        game.sides(),
        game.wild(),
    )
}

fn triple(size: LpSize) -> (u64, u64, u64) {
    (size.rows, size.columns, size.nonzeros)
}

fn size_of(t: (u64, u64, u64)) -> LpSize {
    LpSize {
        rows: t.0,
        columns: t.1,
        nonzeros: t.2,
    }
}

/// The entry of `(hand, history, action, probability)`.
pub fn entry_of(hand: usize, history: History, action: Action, p: f64) -> CachedEntry {
    let action = match action {
        Action::Call => 0,
        Action::Bid(b) => b + 1,
    };
    (hand as u8, history.0, action, p)
}

/// The `(hand, history, action, probability)` of an entry
/// ([`entry_of`]'s inverse).
pub fn play_entry(entry: CachedEntry) -> (usize, History, Action, f64) {
    let (hand, history, action, p) = entry;
    let action = match action {
        0 => Action::Call,
        b => Action::Bid(b - 1),
    };
    (usize::from(hand), History(history), action, p)
}

/// Both strategies of `game` from the solver's entries: the default
/// everywhere, the entries where given, then the best-response fill of
/// each player's unreached information sets (player 1's against player 2's
/// strategy first, then player 2's against the filled player 1's), as
/// [`super::solve_with`] does; and their certificate.
///
/// The certificate is the two best responses of the fill, which are those
/// of [`certificate::certify`] on the returned pair, to the bit: player 1's
/// is walked against player 2's strategy before player 2's fill, but that
/// fill changes only information sets player 2 reaches with probability 0,
/// which a walk skips (their reach, and their descendants', is 0 either
/// way); player 2's is walked against the filled player 1 that is
/// returned. A test checks the two against `certify` on every small game.
///
/// # Errors
/// An entry outside the game, or a strategy that does not sum to 1.
pub fn strategies_from_entries(
    game: Endgame,
    entries: &[Vec<CachedEntry>; 2],
) -> Result<([Strategy; 2], Certificate)> {
    let [mut one, mut two] = strategies_before_fill(game, entries)?;
    let upper = certificate::best_response(&two, Some(&mut one));
    let lower = -certificate::best_response(&one, Some(&mut two));
    one.check(1e-9)?;
    two.check(1e-9)?;
    Ok(([one, two], Certificate { upper, lower }))
}

/// The strategies of [`strategies_from_entries`] before the fill: the
/// default everywhere, the entries where given.
///
/// # Errors
/// An entry outside the game.
pub fn strategies_before_fill(
    game: Endgame,
    entries: &[Vec<CachedEntry>; 2],
) -> Result<[Strategy; 2]> {
    check!(
        BadEntries,
        Player::BOTH
            .iter()
            .all(|&p| Strategy::slots(game, p) <= MAX_STRATEGY_SLOTS),
        "{game} is larger than any cached endgame can be"
    );
    let mut strategies = Player::BOTH.map(|p| super::oracle::default_strategy(game, p));
    for (p, entries) in entries.iter().enumerate() {
        let strategy = &mut strategies[p];
        let hands = game.hands(strategy.player()).len();
        let mut cleared: Option<(u8, u32)> = None;
        for &(hand, h, action, prob) in entries {
            let history = History(h);
            check!(
                BadEntries,
                usize::from(hand) < hands
                    && (h as usize) < game.history_count()
                    && game.to_move(history) == strategy.player(),
                "{game}: entry ({hand}, {h}) is not an information set of player {}",
                p + 1
            );
            let action = match action {
                0 => Action::Call,
                b => Action::Bid(b - 1),
            };
            check!(
                BadEntries,
                game.is_legal(history, action),
                "{game}: action {action:?} is not legal after history {h}"
            );
            if cleared != Some((hand, h)) {
                // The default gives way to the entries of this set.
                let default = super::restricted::default_action(history);
                strategy.set(usize::from(hand), history, default, 0.0);
                cleared = Some((hand, h));
            }
            strategy.set(usize::from(hand), history, action, prob);
        }
    }
    Ok(strategies)
}

/// A stored game certified by the sparse certificate alone: what a game
/// too large for the dense strategies ([`fits`]) is restored to.
#[derive(Debug, Clone)]
pub struct SparseSolved {
    /// The game.
    pub game: Endgame,
    /// The solver's value.
    pub value: f64,
    /// The value as a fraction, when one lies inside the sparse
    /// certificate's bracket ([`exact_value`]).
    pub exact: Option<Fraction>,
    /// The sparse certificate, recomputed.
    pub certificate: Certificate,
    /// How it was solved.
    pub method: Method,
    /// The last LP's size.
    pub size: LpSize,
    /// The full LP's size.
    pub full_size: LpSize,
    /// LPs solved.
    pub lps: u32,
    /// Entries stored of each player.
    pub entries: [usize; 2],
}

/// Whether both strategies of `game` fit the dense layout
/// ([`MAX_STRATEGY_SLOTS`]) that the filled strategies, the every-history
/// certificate and the tables use.
pub fn fits(game: Endgame) -> bool {
    Player::BOTH
        .iter()
        .all(|&p| Strategy::slots(game, p) <= MAX_STRATEGY_SLOTS)
}

impl CachedGame {
    /// The cache entry of a solved game.
    pub fn of(solved: &SolvedEndgame) -> CachedGame {
        CachedGame {
            key: key_of(solved.game),
            value: solved.value,
            method: solved.method.name().to_owned(),
            size: triple(solved.size),
            full_size: triple(solved.full_size),
            lps: solved.lps,
            strategies: solved.entries.clone(),
            certificate: (solved.sparse.upper, solved.sparse.lower),
        }
    }

    /// The game of the key.
    ///
    /// # Errors
    /// A key that is no game.
    pub fn game(&self) -> Result<Endgame> {
        let (a, b, sides, wild) = self.key;
        Ok(Endgame::new(a, b, sides, wild)?)
    }

    /// The game certified afresh by the sparse certificate alone (any
    /// size; no dense strategy is made).
    ///
    /// # Errors
    /// A malformed entry, an unknown method, or a certificate above
    /// [`super::MAX_EXPLOITABILITY`].
    pub fn restore_sparse(&self) -> Result<SparseSolved> {
        let game = self.game()?;
        let method = Method::from_name(&self.method)
            .ok_or_else(|| Error::BadFile(format!("{game}: unknown method {:?}", self.method)))?;
        let certificate = super::sparse_certificate(game, &self.strategies)?;
        Ok(SparseSolved {
            game,
            value: self.value,
            exact: exact_value(&certificate),
            certificate,
            method,
            size: size_of(self.size),
            full_size: size_of(self.full_size),
            lps: self.lps,
            entries: [self.strategies[0].len(), self.strategies[1].len()],
        })
    }

    /// The game, certified afresh.
    ///
    /// # Errors
    /// An entry outside the game, a strategy that does not sum to 1, an
    /// unknown method, or a certificate above
    /// [`super::MAX_EXPLOITABILITY`].
    pub fn restore(&self) -> Result<SolvedEndgame> {
        let (a, b, sides, wild) = self.key;
        let game = Endgame::new(a, b, sides, wild)?;
        let method = Method::from_name(&self.method)
            .ok_or_else(|| Error::BadFile(format!("{game}: unknown method {:?}", self.method)))?;
        let mut entries = self.strategies.clone();
        for list in &mut entries {
            // Sorted by (hand, history, action), so one set's entries are
            // together (the fill's default clearing relies on it).
            list.sort_by_key(|&(hand, h, action, _)| (hand, h, action));
        }
        let (strategies, cert) = strategies_from_entries(game, &entries)?;
        if !cert.is_certified() {
            return Err(Error::Uncertified {
                game,
                what: "the cached strategies do not certify",
                exploitability: cert.exploitability(),
            });
        }
        let sparse = super::sparse_certificate(game, &entries)?;
        Ok(SolvedEndgame {
            game,
            strategies,
            entries,
            value: self.value,
            exact: exact_value(&cert),
            certificate: cert,
            sparse,
            method,
            size: size_of(self.size),
            full_size: size_of(self.full_size),
            lps: self.lps,
            built_in: Default::default(),
            solved_in: Default::default(),
        })
    }
}

/// The payload of a file framed as the module doc says, with `magic` and
/// one of `versions`: its format version and its bytes.
///
/// # Errors
/// A file too large, truncated, of other magic bytes or another version,
/// with a checksum or length that does not match.
pub fn unframe<'a>(bytes: &'a [u8], magic: &[u8; 8], versions: &[u32]) -> Result<(u32, &'a [u8])> {
    check!(
        BadFile,
        bytes.len() as u64 <= MAX_FILE_BYTES,
        "larger than {MAX_FILE_BYTES} bytes"
    );
    check!(
        BadFile,
        bytes.len() >= HEADER_LEN + CHECKSUM_LEN,
        "truncated ({} bytes)",
        bytes.len()
    );
    check!(
        BadFile,
        bytes.starts_with(magic),
        "not an endgame cache (wrong magic bytes)"
    );
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    check!(
        BadFile,
        versions.contains(&version),
        "format version {version}, this build reads version(s) {versions:?}"
    );
    let (body, stored) = bytes.split_at(bytes.len() - CHECKSUM_LEN);
    check!(
        BadFile,
        checksum(body) == stored,
        "checksum mismatch (corrupt or truncated file)"
    );
    let mut length = [0u8; 8];
    length.copy_from_slice(&body[12..20]);
    let payload_len = u64::from_le_bytes(length);
    check!(
        BadFile,
        payload_len == (body.len() - HEADER_LEN) as u64,
        "payload length does not match the file length"
    );
    Ok((version, &body[HEADER_LEN..]))
}

/// `payload` framed with `magic` and `version` (the module doc's layout).
pub fn frame(magic: &[u8; 8], version: u32, payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(HEADER_LEN + payload.len() + CHECKSUM_LEN);
    bytes.extend_from_slice(magic);
    bytes.extend_from_slice(&version.to_le_bytes());
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(payload);
    let sum = checksum(&bytes);
    bytes.extend_from_slice(&sum);
    bytes
}

/// Decode a whole bincode payload.
///
/// # Errors
/// A malformed payload or bytes after it.
pub fn decode_all<T: Decode<()>>(payload: &[u8]) -> Result<T> {
    let (value, read): (T, usize) =
        bincode::decode_from_slice(payload, bincode::config::standard())
            .map_err(Error::Malformed)?;
    check!(BadFile, read == payload.len(), "bytes after the payload");
    Ok(value)
}

/// Load the cached games of `path` made with `fingerprint`: `Ok(None)` for a
/// missing file. A file of version 2 is read too (its games have no stored
/// certificate: restoring computes it).
///
/// # Errors
/// A file that cannot be read, is too large, truncated, corrupt, of another
/// version or of another fingerprint (the caller warns and solves afresh).
pub fn load(path: &Path, fingerprint: &str) -> Result<Option<Vec<CachedGame>>> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(Error::Read(error)),
    };
    let (version, payload) = unframe(&bytes, MAGIC, &[2, FORMAT_VERSION])?;
    let file = match version {
        FORMAT_VERSION => decode_all::<CacheFile>(payload)?,
        2 => {
            let old: CacheFileV2 = decode_all(payload)?;
            CacheFile {
                fingerprint: old.fingerprint,
                games: old
                    .games
                    .into_iter()
                    .map(|g| CachedGame {
                        key: g.key,
                        value: g.value,
                        method: g.method,
                        size: g.size,
                        full_size: g.full_size,
                        lps: g.lps,
                        strategies: g.strategies,
                        certificate: (f64::NAN, f64::NAN),
                    })
                    .collect(),
            }
        }
        other => return Err(Error::BadFile(format!("format version {other}"))),
    };
    check!(
        BadFile,
        file.fingerprint == fingerprint,
        "built by another solver ({:?}, expected {fingerprint:?})",
        file.fingerprint
    );
    Ok(Some(file.games))
}

/// The bytes of the cache file of `games` (the layout of the module doc),
/// for the build to write atomically.
///
/// # Errors
/// The payload cannot be encoded.
pub fn encode(fingerprint: &str, games: &[SolvedEndgame]) -> Result<Vec<u8>> {
    let mut cached: Vec<CachedGame> = games.iter().map(CachedGame::of).collect();
    cached.sort_by_key(|g| g.key);
    let file = CacheFile {
        fingerprint: fingerprint.to_owned(),
        games: cached,
    };
    let payload = bincode::encode_to_vec(&file, bincode::config::standard()).map_err(|source| {
        Error::Encode {
            what: "endgame cache",
            source,
        }
    })?;
    Ok(frame(MAGIC, FORMAT_VERSION, &payload))
}

//! One endgame as a job of its own: solved (or resumed) within a budget
//! into a job file of its own, which a later job resumes and a build
//! merges. A job file holds either the solved game ([`CachedGame`], as in
//! the build's cache, with its sparse certificate) or, for a game the
//! budget cut off, the double oracle's restricted game (every included
//! sequence), its rounds, time and tightest bracket, so that the next job
//! resumes from it instead of from nothing. Nothing in it is trusted: a
//! solved game is certified again when read, a restricted game is only a
//! starting point (any set of sequences is one: the oracle's bounds and
//! certificate do not depend on it).
//!
//! The file is framed as the build's cache ([`super::cache::frame`]) with
//! the magic [`MAGIC`], its payload a [`JobFile`].

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use super::error::{check, Error, Result};
use bincode::{Decode, Encode};

use gametab_games::dice::endgame::{Endgame, Player};

use super::cache::{self, fits, CachedEntry, CachedGame};
use super::oracle::{self, OracleOutcome};
use super::restricted::RestrictedGame;
use super::{lp, LpOptions, Method};

/// The first bytes of a job file.
pub const MAGIC: &[u8; 8] = b"GAMETABJ";

/// Version of the job file's payload: 2 keeps each player's best
/// strategy ([`PartialGame::kept`]); version 1 files are read as keeping
/// none.
pub const FORMAT_VERSION: u32 = 2;

/// A player's best strategy over a game's jobs (the oracle's
/// [`oracle::KeptPlay`]), kept so that a later job can pair it with the
/// other player's ([`LpOptions::pair_width`]).
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub struct KeptStrategy {
    /// The bound his opponent's best response left when it was kept
    /// (player 1's: lower, player 2's: upper). Not trusted: a resumed job
    /// walks the best response again ([`run_watched`]).
    pub bound: f64,
    /// The restricted value of the round it came from.
    pub value: f64,
    /// Its behaviour, as the cache stores a strategy.
    pub entries: Vec<CachedEntry>,
}

/// A game the budget cut off: where the double oracle stood.
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub struct PartialGame {
    /// Dice of player 1 and 2, sides, wild ones.
    pub key: (u8, u8, u8, bool),
    /// Rounds so far, over every job of this game.
    pub rounds: u32,
    /// Seconds so far, over every job of this game.
    pub seconds: f64,
    /// The last restricted LP's value.
    pub value: f64,
    /// The tightest bracket of any round: (lower, upper) on the value.
    pub bracket: (f64, f64),
    /// Rows, columns, nonzeros of the last restricted LP.
    pub size: (u64, u64, u64),
    /// The restricted game: (history bits, action code, hands bits)
    /// ([`RestrictedGame::included`]).
    pub included: Vec<(u32, u8, u128)>,
    /// Each player's best strategy so far (player 1's first), where the
    /// oracle keeps them (restricted LPs of at least
    /// [`LpOptions::ipm_finish_rows`] rows).
    pub kept: [Option<KeptStrategy>; 2],
}

/// A version 1 job file's [`PartialGame`]: nothing kept.
#[derive(Decode)]
#[cfg_attr(test, derive(Encode))]
struct PartialGameV1 {
    key: (u8, u8, u8, bool),
    rounds: u32,
    seconds: f64,
    value: f64,
    bracket: (f64, f64),
    size: (u64, u64, u64),
    included: Vec<(u32, u8, u128)>,
}

/// A version 1 job file's [`JobState`].
#[derive(Decode)]
#[cfg_attr(test, derive(Encode))]
enum JobStateV1 {
    Solved(CachedGame),
    Partial(PartialGameV1),
}

/// A version 1 job file's [`JobFile`].
#[derive(Decode)]
#[cfg_attr(test, derive(Encode))]
struct JobFileV1 {
    fingerprint: String,
    state: JobStateV1,
}

impl From<JobFileV1> for JobFile {
    fn from(old: JobFileV1) -> JobFile {
        JobFile {
            fingerprint: old.fingerprint,
            state: match old.state {
                JobStateV1::Solved(game) => JobState::Solved(game),
                JobStateV1::Partial(p) => JobState::Partial(PartialGame {
                    key: p.key,
                    rounds: p.rounds,
                    seconds: p.seconds,
                    value: p.value,
                    bracket: p.bracket,
                    size: p.size,
                    included: p.included,
                    kept: [None, None],
                }),
            },
        }
    }
}

/// What a job file holds.
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub enum JobState {
    /// The solved game.
    Solved(CachedGame),
    /// A game the budget cut off.
    Partial(PartialGame),
}

/// The payload of a job file.
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub struct JobFile {
    /// What produced it (as the build's cache fingerprint).
    pub fingerprint: String,
    /// The state.
    pub state: JobState,
}

/// The file name of `game`'s job: `2v2-5-wild.bin`.
pub fn file_name(game: Endgame) -> String {
    format!(
        "{}v{}-{}-{}.bin",
        game.dice(Player::One),
        game.dice(Player::Two),
        game.sides(),
        game.rules_name()
    )
}

/// The game a job file name names, if it is one ([`file_name`]).
pub fn game_of_file_name(name: &str) -> Option<Endgame> {
    let stem = name.strip_suffix(".bin")?;
    let mut parts = stem.split('-');
    let (dice, sides, rules) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let (a, b) = dice.split_once('v')?;
    let wild = match rules {
        "wild" => true,
        "normal" => false,
        _ => return None,
    };
    let game = Endgame::new(a.parse().ok()?, b.parse().ok()?, sides.parse().ok()?, wild).ok()?;
    (file_name(game) == name).then_some(game)
}

/// The job file at `path`: `Ok(None)` when there is none.
///
/// # Errors
/// A file that cannot be read, is damaged, of another version, or for
/// another game than its name says.
pub fn load(path: &Path) -> Result<Option<JobFile>> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(Error::Read(error)),
    };
    decode(&bytes).map(Some)
}

/// The job file of `bytes` ([`encode`]'s inverse).
///
/// # Errors
/// The bytes are damaged or of another version.
pub fn decode(bytes: &[u8]) -> Result<JobFile> {
    let (version, payload) = cache::unframe(bytes, MAGIC, &[1, FORMAT_VERSION])?;
    if version == 1 {
        return cache::decode_all::<JobFileV1>(payload).map(JobFile::from);
    }
    cache::decode_all(payload)
}

/// The bytes of a job file.
///
/// # Errors
/// The payload cannot be encoded.
pub fn encode(file: &JobFile) -> Result<Vec<u8>> {
    let payload = bincode::encode_to_vec(file, bincode::config::standard()).map_err(|source| {
        Error::Encode {
            what: "job file",
            source,
        }
    })?;
    Ok(cache::frame(MAGIC, FORMAT_VERSION, &payload))
}

fn key_of(game: Endgame) -> (u8, u8, u8, bool) {
    (
        game.dice(Player::One),
        game.dice(Player::Two),
        game.sides(),
        game.wild(),
    )
}

impl JobState {
    /// The key of the game it holds.
    pub fn key(&self) -> (u8, u8, u8, bool) {
        match self {
            JobState::Solved(g) => g.key,
            JobState::Partial(p) => p.key,
        }
    }
}

/// Where a job stands at the end of a double-oracle round, over every job
/// of its game (a resumed job counts the rounds, time and bracket of
/// those before it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JobRound {
    /// Rounds so far.
    pub rounds: u32,
    /// Seconds so far.
    pub seconds: f64,
    /// The tightest bracket of the value so far: (lower, upper).
    pub bracket: (f64, f64),
    /// The last restricted LP's rows, columns and nonzeros.
    pub size: (u64, u64, u64),
}

/// The end of a double-oracle round: where the job stands, and the
/// restricted game the next round starts from, to save as a checkpoint
/// ([`RoundEnd::resume_point`]) so that a job killed later (a batch
/// engine's time limit, a reboot) resumes from it and not from its last
/// job file.
pub struct RoundEnd<'a> {
    /// Where the job stands.
    pub round: JobRound,
    key: (u8, u8, u8, bool),
    value: f64,
    restricted: &'a RestrictedGame,
    kept: &'a oracle::Kept,
}

impl RoundEnd<'_> {
    /// The round's end as a game cut off there, the state a job file
    /// holds to resume from.
    pub fn resume_point(&self) -> PartialGame {
        PartialGame {
            key: self.key,
            rounds: self.round.rounds,
            seconds: self.round.seconds,
            value: self.value,
            bracket: self.round.bracket,
            size: self.round.size,
            included: self.restricted.included(),
            kept: kept_strategies(self.kept),
        }
    }
}

/// The oracle's best strategies as a job file keeps them.
fn kept_strategies(kept: &oracle::Kept) -> [Option<KeptStrategy>; 2] {
    kept.each_ref().map(|k| {
        k.as_ref().map(|k| KeptStrategy {
            bound: k.bound,
            value: k.value,
            entries: k
                .entries
                .iter()
                .map(|&(i, h, a, p)| cache::entry_of(i, h, a, p))
                .collect(),
        })
    })
}

/// A job file's kept strategies, each bound walked again on the full game
/// (the sparse certificate's best responses, against the kept strategy
/// alone) and put in place of the one read: what a job resumes from and
/// what `gametab dice endgame gather` compares, since nothing read is
/// trusted.
///
/// # Errors
/// A kept strategy that is no strategy of its player in `game`.
pub fn walk_kept(
    game: Endgame,
    kept: &[Option<KeptStrategy>; 2],
) -> Result<[Option<KeptStrategy>; 2]> {
    if kept.iter().all(Option::is_none) {
        return Ok([None, None]);
    }
    let entries = kept
        .each_ref()
        .map(|k| k.as_ref().map_or_else(Vec::new, |k| k.entries.clone()));
    let cert = super::sparse::certify(game, &entries)?.certificate;
    let bounds = [cert.lower, cert.upper];
    let mut out = kept.clone();
    for (k, bound) in out.iter_mut().zip(bounds) {
        if let Some(k) = k {
            k.bound = bound;
        }
    }
    Ok(out)
}

/// [`walk_kept`], as the oracle's kept strategies.
///
/// # Errors
/// As [`walk_kept`].
fn checked_kept(game: Endgame, kept: &[Option<KeptStrategy>; 2]) -> Result<oracle::Kept> {
    Ok(walk_kept(game, kept)?.map(|k| {
        k.map(|k| oracle::KeptPlay {
            bound: k.bound,
            value: k.value,
            entries: k.entries.iter().map(|&e| cache::play_entry(e)).collect(),
        })
    }))
}

/// Solve `game` by `method` within `budget` (the double oracle stops after
/// the first round that ends after it; the full LP is never stopped),
/// from `previous` when it is a restricted game the budget cut off before.
/// A solved game is certified (the sparse certificate always, the dense
/// one too when the game fits the tables, [`fits`]) before it is returned.
///
/// # Errors
/// HiGHS fails, a previous restricted game is not one of `game`, or the
/// solution does not certify.
pub fn run(
    game: Endgame,
    method: Method,
    options: LpOptions,
    budget: Option<Duration>,
    previous: Option<&PartialGame>,
) -> Result<JobState> {
    run_watched(game, method, options, budget, previous, &mut |_| {})
}

/// [`run`], calling `on_round` at the end of every double-oracle round
/// with where the job stands and what to resume from (never for the full
/// LP, one solve).
///
/// # Errors
/// As [`run`].
pub fn run_watched(
    game: Endgame,
    method: Method,
    options: LpOptions,
    budget: Option<Duration>,
    previous: Option<&PartialGame>,
    on_round: &mut dyn FnMut(&RoundEnd<'_>),
) -> Result<JobState> {
    if let Some(p) = previous {
        check!(
            BadEntries,
            p.key == key_of(game),
            "the restricted game is of another game"
        );
    }
    let began = Instant::now();
    if method == Method::FullLp {
        let solved = super::solve_with(game, options, Method::FullLp)?;
        return Ok(JobState::Solved(CachedGame::of(&solved)));
    }
    let start = previous
        .map(|p| RestrictedGame::from_included(game, &p.included))
        .transpose()?;
    let deadline = budget.map(|b| began + b);
    let (rounds, seconds, bracket) = previous
        .map_or((0, 0.0, (f64::NEG_INFINITY, f64::INFINITY)), |p| {
            (p.rounds, p.seconds, p.bracket)
        });
    let kept = previous.map_or(Ok([None, None]), |p| checked_kept(game, &p.kept))?;
    let mut last_kept = kept.clone();
    let mut report =
        |state: &oracle::OracleState, restricted: &RestrictedGame, kept: &oracle::Kept| {
            last_kept.clone_from(kept);
            let [upper, lower] = state.best_bounds;
            on_round(&RoundEnd {
                round: JobRound {
                    rounds: rounds + state.rounds,
                    seconds: seconds + began.elapsed().as_secs_f64(),
                    bracket: (bracket.0.max(lower), bracket.1.min(upper)),
                    size: (state.size.rows, state.size.columns, state.size.nonzeros),
                },
                key: key_of(game),
                value: state.value,
                restricted,
                kept,
            });
        };
    let (outcome, restricted) = oracle::solve_double_oracle_watched(
        game,
        options,
        deadline,
        start,
        [bracket.1, bracket.0],
        kept,
        &mut report,
    )?;
    match outcome {
        OracleOutcome::OutOfTime(state) => {
            let [upper, lower] = state.best_bounds;
            Ok(JobState::Partial(PartialGame {
                key: key_of(game),
                rounds: rounds + state.rounds,
                seconds: seconds + began.elapsed().as_secs_f64(),
                value: state.value,
                bracket: (bracket.0.max(lower), bracket.1.min(upper)),
                size: (state.size.rows, state.size.columns, state.size.nonzeros),
                included: restricted.included(),
                kept: kept_strategies(&last_kept),
            }))
        }
        OracleOutcome::Converged(mut found) => {
            found.state.rounds += rounds;
            if fits(game) {
                let solved = super::certify_oracle(game, found)?;
                return Ok(JobState::Solved(CachedGame::of(&solved)));
            }
            let entries = found.entries.map(|list| {
                list.into_iter()
                    .map(|(i, h, a, p)| cache::entry_of(i, h, a, p))
                    .collect()
            });
            let cert = super::sparse_certificate(game, &entries)?;
            let state = found.state;
            let full = lp::full_size(game);
            Ok(JobState::Solved(CachedGame {
                key: key_of(game),
                value: state.value,
                method: Method::DoubleOracle.name().to_owned(),
                size: (state.size.rows, state.size.columns, state.size.nonzeros),
                full_size: (full.rows, full.columns, full.nonzeros),
                lps: state.rounds,
                strategies: entries,
                certificate: (cert.upper, cert.lower),
            }))
        }
    }
}

/// Check that a job file's state is for `game`.
///
/// # Errors
/// It is another game's.
pub fn check_game(state: &JobState, game: Endgame) -> Result<()> {
    if state.key() != key_of(game) {
        return Err(Error::BadFile(format!(
            "it holds {:?}, not {game}",
            state.key()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A version 1 job file (before [`PartialGame::kept`]) is read as one
    /// that keeps nothing, every other field as it was.
    #[test]
    fn a_version_1_job_file_is_read_as_keeping_nothing() {
        let included = vec![(0, 1, 0b11), (1, 0, 0b1)];
        let old = JobFileV1 {
            fingerprint: "fingerprint".to_owned(),
            state: JobStateV1::Partial(PartialGameV1 {
                key: (3, 1, 6, true),
                rounds: 338,
                seconds: 23_219.5,
                value: 0.345,
                bracket: (0.3451, 0.3452),
                size: (376_135, 418_152, 1_677_755),
                included: included.clone(),
            }),
        };
        let payload = bincode::encode_to_vec(&old, bincode::config::standard()).unwrap();
        let read = decode(&cache::frame(MAGIC, 1, &payload)).unwrap();
        assert_eq!(
            read,
            JobFile {
                fingerprint: "fingerprint".to_owned(),
                state: JobState::Partial(PartialGame {
                    key: (3, 1, 6, true),
                    rounds: 338,
                    seconds: 23_219.5,
                    value: 0.345,
                    bracket: (0.3451, 0.3452),
                    size: (376_135, 418_152, 1_677_755),
                    included,
                    kept: [None, None],
                }),
            }
        );
        // Written again, it is a version 2 file that reads back the same.
        assert_eq!(decode(&encode(&read).unwrap()).unwrap(), read);
    }

    /// A job cut off at a large restricted LP keeps both players' best
    /// strategies with the bounds their opponents' best responses leave
    /// (the sparse walk's, to rounding); the next job walks them again
    /// instead of trusting the file, so a forged bound (player 1's kept
    /// strategy claimed to guarantee him 1, which would pair with any
    /// player 2's) does not end it, and it solves the game exactly.
    #[test]
    fn kept_strategies_are_walked_again_when_a_job_resumes() {
        let game = Endgame::new(2, 1, 4, false).unwrap();
        let options = LpOptions {
            method: "ipm",
            crossover: false,
            ipm_finish_rows: 0,
            ..LpOptions::default()
        };
        let method = Method::DoubleOracle;
        let first = run(game, method, options, Some(Duration::ZERO), None).unwrap();
        let JobState::Partial(mut cut) = first else {
            panic!("not cut off")
        };
        let [Some(x), Some(y)] = &cut.kept else {
            panic!("nothing kept: {:?}", cut.kept)
        };
        let cert = super::super::sparse::certify(game, &[x.entries.clone(), y.entries.clone()])
            .unwrap()
            .certificate;
        assert!((cert.lower - x.bound).abs() < 1e-12, "{cert:?} {}", x.bound);
        assert!((cert.upper - y.bound).abs() < 1e-12, "{cert:?} {}", y.bound);
        assert!(y.bound - x.bound > 1e-3);
        cut.kept[0].as_mut().unwrap().bound = 1.0;
        let second = run(game, method, options, None, Some(&cut)).unwrap();
        let JobState::Solved(solved) = second else {
            panic!("not solved")
        };
        let solved = solved.restore_sparse().unwrap();
        assert_eq!(
            solved.exact.map(|f| f.to_string()),
            Some("345/1696".to_owned())
        );
    }
}

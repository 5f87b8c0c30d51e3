//! [`Tables`]: a whole table set, loaded and checked; the one way to load
//! tables.
//!
//! Opening a directory reads its `manifest.json`, which must be there: a set
//! without one cannot be checked, so it is refused. Every game then loads on
//! first use ([`Tables::murder_plan`], [`Tables::dice`], [`Tables::cluedo`],
//! [`Tables::werewolf`]) so a client that needs one game does not pay for
//! the others; [`Tables::load_all`] loads every game of the registry
//! ([`crate::registry::GAMES`]) side by side. Every file, whenever it is read, is
//! checked against the manifest's BLAKE2b-256 digest before it is decoded
//! (the Murder Plan browser bundle, too, which is also compared with the
//! Parquet tables when loaded: [`Tables::murder_plan_bundle`]):
//! the per-game types only decode bytes handed to them and read no files
//! themselves, so no path around the check exists. The raw bytes of a file
//! read from a directory live only until it is decoded.
//!
//! A long-running reader that needs a few games (the server) opens the set
//! from manifest bytes it read itself ([`Tables::open_with_manifest`]),
//! loads those games, and checks the rest of the set by digest alone
//! ([`Tables::check_digests`]: each file read in pieces, nothing kept), so
//! its memory holds only the decoded tables it answers from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use bytes::Bytes;

use crate::cluedo::schema::FEW_CANDIDATES;
use crate::cluedo::FewCandidatesTable;
use crate::dice::schema as dice_schema;
use crate::dice::{DiceTables, EndgameTables};
use crate::error::{Error, Result};
use crate::io::blake2_hex;
use crate::manifest::{Manifest, MANIFEST_FILE};
use crate::murder_plan::{bundle, schema as mp_schema, MurderPlanTables};
use crate::registry::{GameId, GAMES};
use crate::schema::TableSchema;
use crate::werewolf::schema::WEREWOLF_EARLY;
use crate::werewolf::EarlyGameTable;

/// Where the files of a table set come from.
#[derive(Debug, Clone)]
enum Source {
    /// A directory on disk.
    Dir(PathBuf),
    /// In-memory files keyed by file name.
    Files(BTreeMap<String, Bytes>),
}

impl Source {
    /// The raw bytes of `file`.
    fn read(&self, file: &str) -> Result<Bytes> {
        match self {
            Source::Dir(dir) => read_file(dir, file),
            Source::Files(files) => files
                .get(file)
                .cloned()
                .ok_or_else(|| Error::MissingFile { path: file.into() }),
        }
    }

    /// Where the manifest is (or would be), for error messages.
    fn manifest_path(&self) -> PathBuf {
        match self {
            Source::Dir(dir) => dir.join(MANIFEST_FILE),
            Source::Files(_) => MANIFEST_FILE.into(),
        }
    }
}

/// Every game's tables from one directory (or one in-memory file set).
///
/// [`Tables::open`] and [`Tables::from_files`] read the manifest only; each
/// game is loaded, checked and kept the first time its accessor is called.
#[derive(Debug, Clone)]
pub struct Tables {
    source: Source,
    manifest: Manifest,
    murder_plan: OnceLock<MurderPlanTables>,
    murder_plan_bundle: OnceLock<Bytes>,
    dice: OnceLock<DiceTables>,
    dice_endgame: OnceLock<EndgameTables>,
    cluedo: OnceLock<FewCandidatesTable>,
    werewolf: OnceLock<EarlyGameTable>,
}

/// Read one file of a table directory.
///
/// # Errors
/// [`Error::MissingFile`] when it does not exist, [`Error::Io`] otherwise.
pub(crate) fn read_file(dir: &Path, file: &str) -> Result<Bytes> {
    let path = dir.join(file);
    match std::fs::read(&path) {
        Ok(bytes) => Ok(Bytes::from(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Error::MissingFile { path }),
        Err(source) => Err(Error::Io { path, source }),
    }
}

/// BLAKE2b-256 (hex) of the file at `path`, read in pieces.
fn digest_of_file(path: &Path) -> Result<String> {
    use blake2::digest::consts::U32;
    use blake2::{Blake2b, Digest};
    use std::io::Read;
    let io = |source: std::io::Error| {
        if source.kind() == std::io::ErrorKind::NotFound {
            Error::MissingFile {
                path: path.to_path_buf(),
            }
        } else {
            Error::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let mut hasher = Blake2b::<U32>::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io(e)),
        };
        hasher.update(&buffer[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The value in `cell`, loading it with `load` the first time. A failed load
/// is returned and not kept, so a later call tries again.
fn get_or_load<T>(cell: &OnceLock<T>, load: impl FnOnce() -> Result<T>) -> Result<&T> {
    if let Some(value) = cell.get() {
        return Ok(value);
    }
    let value = load()?;
    // Another thread may have won the race; either value is the same data.
    let _ = cell.set(value);
    cell.get()
        .ok_or_else(|| Error::Inconsistent("a loaded table vanished from its cell".to_string()))
}

impl Tables {
    /// Open the table set in `dir`: read and parse `dir/manifest.json`.
    /// Every file read from `dir` later, by any accessor, must match its
    /// BLAKE2b-256 digest there.
    ///
    /// # Errors
    /// [`Error::MissingFile`] when the manifest is missing, [`Error::Io`],
    /// [`Error::BadManifest`].
    pub fn open(dir: impl AsRef<Path>) -> Result<Tables> {
        Tables::load(Source::Dir(dir.as_ref().to_path_buf()))
    }

    /// The table set of in-memory files keyed by file name (for tests,
    /// fuzzing, or tables fetched from elsewhere), with its `manifest.json`
    /// entry checked as in [`Tables::open`].
    ///
    /// # Errors
    /// As [`Tables::open`].
    pub fn from_files(files: &BTreeMap<String, Bytes>) -> Result<Tables> {
        Tables::load(Source::Files(files.clone()))
    }

    /// The table set in `dir` described by `manifest`, the bytes of its
    /// `manifest.json` as the caller read them (so that the caller's copy,
    /// e.g. the one it serves or names the set by, is the one every file
    /// is checked against). Nothing else is read yet.
    ///
    /// # Errors
    /// [`Error::BadManifest`].
    pub fn open_with_manifest(dir: impl AsRef<Path>, manifest: &[u8]) -> Result<Tables> {
        let source = Source::Dir(dir.as_ref().to_path_buf());
        Tables::with_manifest(source, manifest)
    }

    /// Check every file the manifest lists, except those named in
    /// `except`, against its digest: each is read in pieces of 1 MiB and
    /// nothing is kept (for the games a reader does not load).
    ///
    /// # Errors
    /// [`Error::MissingFile`] or [`Error::Io`] for a listed file that
    /// cannot be read, [`Error::DigestMismatch`].
    pub fn check_digests(&self, except: &[&str]) -> Result<()> {
        for entry in &self.manifest.files {
            if except.contains(&entry.file.as_str()) {
                continue;
            }
            let found = match &self.source {
                Source::Dir(dir) => digest_of_file(&dir.join(&entry.file))?,
                Source::Files(_) => blake2_hex(&self.source.read(&entry.file)?),
            };
            if found != entry.blake2b_256 {
                return Err(Error::DigestMismatch {
                    file: entry.file.clone(),
                    expected: entry.blake2b_256.clone(),
                    found,
                });
            }
        }
        Ok(())
    }

    fn load(source: Source) -> Result<Tables> {
        let bytes = source.read(MANIFEST_FILE)?;
        Tables::with_manifest(source, &bytes)
    }

    fn with_manifest(source: Source, bytes: &[u8]) -> Result<Tables> {
        let manifest =
            serde_json::from_slice::<Manifest>(bytes).map_err(|e| Error::BadManifest {
                path: source.manifest_path(),
                detail: e.to_string(),
            })?;
        Ok(Tables {
            source,
            manifest,
            murder_plan: OnceLock::new(),
            murder_plan_bundle: OnceLock::new(),
            dice: OnceLock::new(),
            dice_endgame: OnceLock::new(),
            cluedo: OnceLock::new(),
            werewolf: OnceLock::new(),
        })
    }

    /// The build manifest of the set.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The bytes of one file of the set, checked against the manifest.
    fn file(&self, file: &str) -> Result<Bytes> {
        let bytes = self.source.read(file)?;
        check_digest(&self.manifest, &self.source, file, &bytes)?;
        Ok(bytes)
    }

    /// The bytes of every table of `game`, in schema order, each checked
    /// against the manifest.
    fn files<const N: usize>(&self, schemas: &[TableSchema; N]) -> Result<[Bytes; N]> {
        let mut files = Vec::with_capacity(N);
        for schema in schemas {
            files.push(self.file(schema.file)?);
        }
        files
            .try_into()
            .map_err(|_| Error::Inconsistent("a table file went missing".to_string()))
    }

    /// The Murder Plan tables: values, strategies, brain choices, win rates
    /// (loaded on first use).
    ///
    /// # Errors
    /// As [`Tables::open`] for the five files, and
    /// [`MurderPlanTables::from_bytes`].
    pub fn murder_plan(&self) -> Result<&MurderPlanTables> {
        get_or_load(&self.murder_plan, || {
            MurderPlanTables::from_bytes(self.files(&mp_schema::ALL)?)
        })
    }

    /// The bytes of the Murder Plan browser bundle (what a web app
    /// fetches), checked against the manifest, decoded and compared with
    /// the Parquet tables ([`bundle::compare`]: every answer it holds must
    /// be theirs, to the bit) on first use.
    ///
    /// # Errors
    /// As [`Tables::murder_plan`], those of [`bundle::decode`], and
    /// [`Error::CorruptBundle`] naming the first answer that differs.
    pub fn murder_plan_bundle(&self) -> Result<&Bytes> {
        get_or_load(&self.murder_plan_bundle, || {
            let bytes = self.file(bundle::FILE)?;
            let decoded = bundle::decode(&bytes)?;
            let comparison = bundle::compare(self.murder_plan()?, &decoded.tables, 1);
            if let Some(first) = comparison.differences.first() {
                return Err(Error::CorruptBundle {
                    file: bundle::NAME,
                    detail: format!(
                        "{} of {} answers differ from the Parquet tables, first: {first}",
                        comparison.differing, comparison.compared
                    ),
                });
            }
            Ok(bytes)
        })
    }

    /// The Liar's Dice tables (loaded on first use).
    ///
    /// # Errors
    /// As [`Tables::open`] for the three files, and
    /// [`DiceTables::from_bytes`].
    pub fn dice(&self) -> Result<&DiceTables> {
        get_or_load(&self.dice, || {
            let [bids, posteriors, decisions] = self.files(&dice_schema::ALL)?;
            DiceTables::from_bytes(bids, posteriors, decisions)
        })
    }

    /// The Liar's Dice endgame tables: values and strategies (loaded on
    /// first use; the posterior table is recomputed from the strategies).
    ///
    /// # Errors
    /// As [`Tables::open`] for the two files, and
    /// [`EndgameTables::from_bytes`].
    pub fn dice_endgame(&self) -> Result<&EndgameTables> {
        get_or_load(&self.dice_endgame, || {
            EndgameTables::from_bytes(
                self.file(dice_schema::ENDGAME_VALUES.file)?,
                self.file(dice_schema::ENDGAME_STRATEGY.file)?,
            )
        })
    }

    /// The Cluedo few-candidates table (loaded on first use).
    ///
    /// # Errors
    /// As [`Tables::open`] for the file, and
    /// [`FewCandidatesTable::from_bytes`].
    pub fn cluedo(&self) -> Result<&FewCandidatesTable> {
        get_or_load(&self.cluedo, || {
            FewCandidatesTable::from_bytes(self.file(FEW_CANDIDATES.file)?)
        })
    }

    /// The Werewolf early-game table (loaded on first use).
    ///
    /// # Errors
    /// As [`Tables::open`] for the file, and [`EarlyGameTable::from_bytes`].
    pub fn werewolf(&self) -> Result<&EarlyGameTable> {
        get_or_load(&self.werewolf, || {
            EarlyGameTable::from_bytes(self.file(WEREWOLF_EARLY.file)?)
        })
    }

    /// Load the tables of `game` now (for the Murder Plan, its browser
    /// bundle too: [`Tables::murder_plan_bundle`]).
    ///
    /// # Errors
    /// As the game's accessor.
    pub fn load_game(&self, game: GameId) -> Result<()> {
        match game {
            GameId::MurderPlan => self.murder_plan_bundle().map(drop),
            GameId::Cluedo => self.cluedo().map(drop),
            GameId::Werewolf => self.werewolf().map(drop),
            GameId::LiarsDice => self.dice().and_then(|_| self.dice_endgame()).map(drop),
        }
    }

    /// Load every game of the registry now, so that any problem in the set
    /// surfaces at once. The games load side by side, each on a thread of
    /// its own.
    ///
    /// # Errors
    /// The first error in registry ([`crate::registry::GAMES`]) order.
    pub fn load_all(&self) -> Result<()> {
        let results: Vec<Result<()>> = std::thread::scope(|scope| {
            let loads: Vec<_> = GAMES
                .iter()
                .map(|game| scope.spawn(move || self.load_game(game.id)))
                .collect();
            loads
                .into_iter()
                .map(|load| {
                    load.join().unwrap_or_else(|_| {
                        Err(Error::Inconsistent("a table loader panicked".to_string()))
                    })
                })
                .collect()
        });
        results.into_iter().collect()
    }
}

/// Check `bytes` of `file` against the manifest, when there is one.
fn check_digest(manifest: &Manifest, source: &Source, file: &str, bytes: &[u8]) -> Result<()> {
    let entry = manifest.entry(file).ok_or_else(|| Error::BadManifest {
        path: source.manifest_path(),
        detail: format!("{file} is not listed"),
    })?;
    let found = blake2_hex(bytes);
    if found != entry.blake2b_256 {
        return Err(Error::DigestMismatch {
            file: file.to_string(),
            expected: entry.blake2b_256.clone(),
            found,
        });
    }
    Ok(())
}

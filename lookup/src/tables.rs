//! [`Tables`]: a whole table directory, loaded and checked.
//!
//! Opening a directory reads its `manifest.json` (when present) and loads the
//! Murder Plan tables at once. The other games load on first use
//! ([`Tables::dice`], [`Tables::cluedo`], [`Tables::werewolf`]) so a client
//! that needs one game does not pay for the others; [`Tables::load_all`]
//! loads and checks everything. Every file, whenever it is read, is checked
//! against the manifest's BLAKE2b-256 digest.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use bytes::Bytes;

use crate::cluedo::schema::FEW_CANDIDATES;
use crate::cluedo::FewCandidatesTable;
use crate::dice::schema::{BIDDER_POSTERIORS, BID_PROBABILITIES, DECISIONS};
use crate::dice::DiceTables;
use crate::error::{Error, Result};
use crate::io::blake2_hex;
use crate::manifest::{Manifest, MANIFEST_FILE};
use crate::murder_plan::{schema as mp_schema, MurderPlanTables};
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
/// The Murder Plan tables are loaded by [`Tables::open`] and
/// [`Tables::from_files`]; each other game is loaded, checked and kept the
/// first time its accessor is called.
#[derive(Debug, Clone)]
pub struct Tables {
    source: Source,
    manifest: Option<Manifest>,
    /// Murder Plan: values, strategies, brain choices, win rates.
    pub murder_plan: MurderPlanTables,
    dice: OnceLock<DiceTables>,
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
    /// Load the tables in `dir`. When `dir/manifest.json` exists, every file
    /// read from `dir`, now or by a later accessor, must match its BLAKE2b-256
    /// digest.
    ///
    /// # Errors
    /// [`Error::MissingFile`], [`Error::Io`], [`Error::BadManifest`],
    /// [`Error::DigestMismatch`], and every decoding or validation error of
    /// the tables ([`Error::CorruptTable`], [`Error::ForeignTable`],
    /// [`Error::SchemaVersion`], [`Error::BadRow`]).
    pub fn open(dir: impl AsRef<Path>) -> Result<Tables> {
        Tables::load(Source::Dir(dir.as_ref().to_path_buf()))
    }

    /// Load the tables from in-memory files keyed by file name (for tests,
    /// fuzzing, or tables fetched from elsewhere). A `manifest.json` entry,
    /// when present, is checked as in [`Tables::open`].
    ///
    /// # Errors
    /// As [`Tables::open`].
    pub fn from_files(files: &BTreeMap<String, Bytes>) -> Result<Tables> {
        Tables::load(Source::Files(files.clone()))
    }

    fn load(source: Source) -> Result<Tables> {
        let manifest = match source.read(MANIFEST_FILE) {
            Ok(bytes) => Some(serde_json::from_slice::<Manifest>(&bytes).map_err(|e| {
                Error::BadManifest {
                    path: source.manifest_path(),
                    detail: e.to_string(),
                }
            })?),
            Err(Error::MissingFile { .. }) => None,
            Err(e) => return Err(e),
        };
        let [a, b, c, d, e] = mp_schema::ALL.map(|schema| source.read(schema.file));
        let files = [a?, b?, c?, d?, e?];
        // Digests on a second thread while the tables decode; a digest
        // mismatch is the more telling error and wins.
        let (digests, murder_plan) = std::thread::scope(|scope| {
            let digests = scope.spawn(|| {
                mp_schema::ALL
                    .iter()
                    .zip(&files)
                    .try_for_each(|(schema, bytes)| {
                        check_digest(manifest.as_ref(), &source, schema.file, bytes)
                    })
            });
            let murder_plan = MurderPlanTables::from_bytes(files.clone());
            let digests = digests.join().unwrap_or_else(|_| {
                Err(Error::Inconsistent(
                    "the digest thread panicked".to_string(),
                ))
            });
            (digests, murder_plan)
        });
        digests?;
        Ok(Tables {
            source,
            manifest,
            murder_plan: murder_plan?,
            dice: OnceLock::new(),
            cluedo: OnceLock::new(),
            werewolf: OnceLock::new(),
        })
    }

    /// The build manifest, when the table set has one.
    pub fn manifest(&self) -> Option<&Manifest> {
        self.manifest.as_ref()
    }

    /// The bytes of one file of the set, checked against the manifest.
    fn file(&self, file: &str) -> Result<Bytes> {
        let bytes = self.source.read(file)?;
        check_digest(self.manifest.as_ref(), &self.source, file, &bytes)?;
        Ok(bytes)
    }

    /// The Liar's Dice tables (loaded on first use).
    ///
    /// # Errors
    /// As [`Tables::open`] for the three files, and
    /// [`DiceTables::from_bytes`].
    pub fn dice(&self) -> Result<&DiceTables> {
        get_or_load(&self.dice, || {
            DiceTables::from_bytes(
                self.file(BID_PROBABILITIES.file)?,
                self.file(BIDDER_POSTERIORS.file)?,
                self.file(DECISIONS.file)?,
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

    /// Load every game's tables now (Murder Plan is already loaded), so that
    /// any problem in the set surfaces at once. The games load side by side,
    /// each on a thread of its own.
    ///
    /// # Errors
    /// The first error of [`Tables::dice`], [`Tables::cluedo`] or
    /// [`Tables::werewolf`], in that order.
    pub fn load_all(&self) -> Result<()> {
        let panicked = || Err(Error::Inconsistent("a table loader panicked".to_string()));
        let [dice, cluedo, werewolf] = std::thread::scope(|scope| {
            let dice = scope.spawn(|| self.dice().map(drop));
            let cluedo = scope.spawn(|| self.cluedo().map(drop));
            let werewolf = self.werewolf().map(drop);
            [
                dice.join().unwrap_or_else(|_| panicked()),
                cluedo.join().unwrap_or_else(|_| panicked()),
                werewolf,
            ]
        });
        dice.and(cluedo).and(werewolf)
    }
}

/// Check `bytes` of `file` against the manifest, when there is one.
fn check_digest(
    manifest: Option<&Manifest>,
    source: &Source,
    file: &str,
    bytes: &[u8],
) -> Result<()> {
    let Some(manifest) = manifest else {
        return Ok(());
    };
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

//! The table set a server answers from, and its reload.
//!
//! A set is read whole into memory (every file of the directory, one
//! snapshot) and loaded through the lookup crate's [`Tables`], which checks
//! every file against the manifest's digest, then every game is loaded, so a
//! broken set is refused before it serves a single answer. Its identity is
//! the BLAKE2b-256 of `manifest.json`: the manifest lists every file's own
//! digest, so that one hash names the whole set.
//!
//! Reload: a watcher polls `manifest.json` (default every second) and also
//! wakes on SIGHUP. When the manifest's bytes change, the new set is loaded
//! on a blocking thread beside the old one and swapped in with one pointer
//! store; a request holds the [`Arc`] of the set it started on, so requests
//! in flight finish on it. A set that fails to load is refused with a log
//! line and the old one keeps serving; the same manifest is not tried again
//! until it changes (or a SIGHUP asks).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use anyhow::{Context, Result};
use bytes::Bytes;
use gametab_lookup::io::blake2_hex;
use gametab_lookup::manifest::MANIFEST_FILE;
use gametab_lookup::Tables;

/// One loaded, checked table set.
#[derive(Debug)]
pub struct LoadedSet {
    /// Every game's tables, all loaded.
    pub tables: Tables,
    /// The raw `manifest.json` (served as is by `/v1/manifest`).
    pub manifest: Bytes,
    /// BLAKE2b-256 of `manifest.json`, hex: the set's identity.
    pub digest: String,
    /// The manifest's generator version.
    pub version: String,
    /// The ETag of every table answer from this set (strong, quoted).
    pub etag: String,
    /// Serialised table answers of this set, by canonical query.
    pub answers: AnswerCache,
}

/// Serialised answers of one set, keyed by endpoint and canonical query (the
/// parsed query's debug form, so parameter order and spelling do not
/// matter). Bounded: when an insert would pass the limit the cache is
/// emptied first, so memory stays flat whatever the queries. It lives and
/// dies with its set, so a reload never serves an old answer.
#[derive(Debug, Default)]
pub struct AnswerCache {
    entries: Mutex<(HashMap<String, Bytes>, usize)>,
    limit: usize,
}

impl AnswerCache {
    /// An empty cache holding at most `limit` bytes of answers (0: off).
    pub fn new(limit: usize) -> AnswerCache {
        AnswerCache {
            entries: Mutex::default(),
            limit,
        }
    }

    /// The answer of `key`, computed by `compute` (and kept) on a miss.
    ///
    /// # Errors
    /// Whatever `compute` returns; errors are not kept.
    pub fn get_or_compute<E>(
        &self,
        key: String,
        compute: impl FnOnce() -> Result<Bytes, E>,
    ) -> Result<Bytes, E> {
        if self.limit == 0 {
            return compute();
        }
        if let Some(hit) = self.lock().0.get(&key) {
            return Ok(hit.clone());
        }
        let answer = compute()?;
        let size = answer.len() + key.len();
        if size <= self.limit {
            let mut entries = self.lock();
            if entries.1 + size > self.limit {
                entries.0.clear();
                entries.1 = 0;
            }
            if entries.0.insert(key, answer.clone()).is_none() {
                entries.1 += size;
            }
        }
        Ok(answer)
    }

    /// Bytes held now (answers and keys).
    pub fn bytes(&self) -> usize {
        self.lock().1
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (HashMap<String, Bytes>, usize)> {
        // The map is valid after any panic: inserts are single calls.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl LoadedSet {
    /// Read every file of `dir` (one snapshot) and load it.
    ///
    /// # Errors
    /// An unreadable directory or file, a missing or malformed manifest, a
    /// file whose digest differs from the manifest's, or a table any game's
    /// loader refuses.
    pub fn load(dir: &Path, cache_limit: usize) -> Result<LoadedSet> {
        let mut files = BTreeMap::new();
        let entries =
            std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
        for entry in entries {
            let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
            if !entry.file_type()?.is_file() {
                continue;
            }
            let bytes = std::fs::read(entry.path())
                .with_context(|| format!("cannot read {}", entry.path().display()))?;
            files.insert(
                entry.file_name().to_string_lossy().into_owned(),
                Bytes::from(bytes),
            );
        }
        let manifest = files
            .get(MANIFEST_FILE)
            .cloned()
            .with_context(|| format!("{} has no {MANIFEST_FILE}", dir.display()))?;
        let tables = Tables::from_files(&files)
            .with_context(|| format!("loading the table set in {}", dir.display()))?;
        tables
            .load_all()
            .with_context(|| format!("loading the table set in {}", dir.display()))?;
        let digest = blake2_hex(&manifest);
        Ok(LoadedSet {
            version: tables.manifest().generator_version.clone(),
            etag: format!("\"{}\"", &digest[..32]),
            tables,
            manifest,
            digest,
            answers: AnswerCache::new(cache_limit),
        })
    }
}

/// The set being served, swapped whole on reload.
#[derive(Debug)]
pub struct Current {
    dir: PathBuf,
    cache_limit: usize,
    set: RwLock<Arc<LoadedSet>>,
}

impl Current {
    /// Load the set in `dir` to start serving; each set keeps at most
    /// `cache_limit` bytes of answers.
    ///
    /// # Errors
    /// As [`LoadedSet::load`].
    pub fn open(dir: PathBuf, cache_limit: usize) -> Result<Current> {
        let set = LoadedSet::load(&dir, cache_limit)?;
        Ok(Current {
            dir,
            cache_limit,
            set: RwLock::new(Arc::new(set)),
        })
    }

    /// The set answering now; a request keeps it until it is done.
    pub fn get(&self) -> Arc<LoadedSet> {
        // A poisoned lock still holds a whole set: only a pointer is stored.
        Arc::clone(&self.set.read().unwrap_or_else(|e| e.into_inner()))
    }

    fn swap(&self, set: LoadedSet) {
        *self.set.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(set);
    }

    /// The digest of the manifest now on disk (`None` while it cannot be
    /// read, e.g. in the middle of a non-atomic publish).
    fn manifest_on_disk(&self) -> Option<String> {
        std::fs::read(self.dir.join(MANIFEST_FILE))
            .ok()
            .map(|bytes| blake2_hex(&bytes))
    }
}

/// Watch `current`'s directory: poll the manifest every `every`, and check
/// at once on SIGHUP (which also retries a refused set). Runs until the
/// runtime stops.
pub async fn watch(current: Arc<Current>, every: Duration) {
    let mut refused: Option<String> = None;
    let mut hangup = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()) {
        Ok(signal) => Some(signal),
        Err(e) => {
            eprintln!("gametab serve: no SIGHUP reload ({e}); polling only");
            None
        }
    };
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let forced = tokio::select! {
            _ = ticks.tick() => false,
            Some(()) = async { match hangup.as_mut() { Some(h) => h.recv().await, None => std::future::pending().await } } => true,
        };
        if forced {
            refused = None;
        }
        let current = Arc::clone(&current);
        let previous = refused.clone();
        let outcome = tokio::task::spawn_blocking(move || reload_if_changed(&current, previous))
            .await
            .unwrap_or(Reload::Unchanged);
        match outcome {
            Reload::Unchanged | Reload::Swapped => {}
            Reload::Refused(digest) => refused = Some(digest),
        }
    }
}

/// What one look at the directory did.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Reload {
    Unchanged,
    Swapped,
    /// The set with this manifest digest failed to load.
    Refused(String),
}

/// Load and swap in the set on disk if its manifest differs from the one
/// serving and from the last refused one. A set that fails while the
/// manifest changed under the load (a publish racing the read) is tried
/// again at once.
fn reload_if_changed(current: &Current, refused: Option<String>) -> Reload {
    let serving = current.get().digest.clone();
    let mut attempts = 0;
    loop {
        let Some(on_disk) = current.manifest_on_disk() else {
            return Reload::Unchanged;
        };
        if on_disk == serving || Some(&on_disk) == refused.as_ref() {
            return Reload::Unchanged;
        }
        attempts += 1;
        match LoadedSet::load(&current.dir, current.cache_limit) {
            Ok(set) => {
                eprintln!(
                    "gametab serve: reloaded {}: set {} (generator {}), was {}",
                    current.dir.display(),
                    &set.digest[..16],
                    set.version,
                    &serving[..16]
                );
                current.swap(set);
                return Reload::Swapped;
            }
            Err(e) if attempts < 3 && current.manifest_on_disk().as_ref() != Some(&on_disk) => {
                eprintln!("gametab serve: the set changed while loading ({e:#}); trying again");
            }
            Err(e) => {
                eprintln!(
                    "gametab serve: refused the new set in {} (manifest {}): {e:#}; still serving {}",
                    current.dir.display(),
                    &on_disk[..16],
                    &serving[..16]
                );
                return Reload::Refused(on_disk);
            }
        }
    }
}

//! The table set a server answers from, and its reload.
//!
//! A set is loaded through the lookup crate's [`Tables`] from the bytes of
//! its `manifest.json`, read once (they are also what `/v1/manifest`
//! serves and what names the set). Only what the endpoints read is decoded:
//! the Murder Plan tables and the Liar's Dice endgame tables
//! ([`SERVED_TABLES`]; the dice bid, Cluedo and Werewolf endpoints compute
//! exactly and read no table). Every other file the manifest lists is
//! checked against its digest, read in pieces and not kept, so a damaged
//! set is still refused before it serves a single answer; no file outside
//! the manifest is read, and no raw bytes are kept once decoded. Its
//! identity is the BLAKE2b-256 of `manifest.json`: the manifest lists
//! every file's own digest, so that one hash names the whole set.
//!
//! Reload: a watcher polls `manifest.json` (default every second) and also
//! wakes on SIGHUP. When the manifest's bytes change, the new set is loaded
//! on a blocking thread beside the old one and swapped in with one pointer
//! store; a request holds the [`Arc`] of the set it started on, so requests
//! in flight finish on it. The old set is dropped by the watcher once the
//! last such request is done, and the freed memory is handed back to the
//! system at once ([`super::memory::release`]), so the process does not
//! grow over reloads.
//!
//! A set that fails to load is refused with a log line and the old one
//! keeps serving. It is tried again while the files it lists keep changing
//! (a copy still in progress): with a backoff from one second doubling to
//! a minute, each retry logged; a set whose files stay as they were is not
//! retried until its manifest changes (or a SIGHUP asks).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use crate::error::LoadError;
use bytes::Bytes;
use gametab_lookup::dice::schema as dice_schema;
use gametab_lookup::io::blake2_hex;
use gametab_lookup::manifest::{Manifest, MANIFEST_FILE};
use gametab_lookup::murder_plan::schema as mp_schema;
use gametab_lookup::schema::TableSchema;
use gametab_lookup::Tables;

/// One loaded, checked table set.
#[derive(Debug)]
pub struct LoadedSet {
    /// The set's tables: those of [`SERVED_TABLES`] decoded, the others
    /// checked against their digests only.
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

/// The tables the endpoints read, the only ones decoded: the Murder Plan's
/// five and the Liar's Dice endgame values and strategies (the endgame
/// posteriors are recomputed from the strategies). The dice bid, Cluedo and
/// Werewolf endpoints compute exactly and read no table.
pub const SERVED_TABLES: [&TableSchema; 7] = [
    &mp_schema::ALL[0],
    &mp_schema::ALL[1],
    &mp_schema::ALL[2],
    &mp_schema::ALL[3],
    &mp_schema::ALL[4],
    &dice_schema::ENDGAME_VALUES,
    &dice_schema::ENDGAME_STRATEGY,
];

impl LoadedSet {
    /// Load the set in `dir`: its manifest, the tables of
    /// [`SERVED_TABLES`] decoded, every other listed file's digest checked.
    ///
    /// # Errors
    /// An unreadable or malformed manifest, a listed file missing or
    /// unreadable, a file whose digest differs from the manifest's, or a
    /// served table its game's loader refuses.
    pub fn load(dir: &Path, cache_limit: usize) -> Result<LoadedSet, LoadError> {
        let path = dir.join(MANIFEST_FILE);
        let manifest = Bytes::from(
            std::fs::read(&path).map_err(|source| LoadError::Manifest { path, source })?,
        );
        let refused = |source| LoadError::Tables {
            dir: dir.to_path_buf(),
            source,
        };
        let tables = Tables::open_with_manifest(dir, &manifest).map_err(refused)?;
        tables.murder_plan().map_err(refused)?;
        tables.dice_endgame().map_err(refused)?;
        let decoded: Vec<&str> = SERVED_TABLES.iter().map(|s| s.file).collect();
        tables.check_digests(&decoded).map_err(refused)?;
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
    pub fn open(dir: PathBuf, cache_limit: usize) -> Result<Current, LoadError> {
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

    /// Serve `set` from now on; returns the set it replaces.
    fn swap(&self, set: LoadedSet) -> Arc<LoadedSet> {
        std::mem::replace(
            &mut *self.set.write().unwrap_or_else(|e| e.into_inner()),
            Arc::new(set),
        )
    }

    /// The digest of the manifest now on disk (`None` while it cannot be
    /// read, e.g. in the middle of a non-atomic publish).
    fn manifest_on_disk(&self) -> Option<String> {
        std::fs::read(self.dir.join(MANIFEST_FILE))
            .ok()
            .map(|bytes| blake2_hex(&bytes))
    }
}

/// How long after a refusal a set whose files change is tried again
/// first; each failure doubles it, up to [`MAX_RETRY_DELAY`].
pub const FIRST_RETRY_DELAY: Duration = Duration::from_secs(1);

/// The longest wait between two tries of a refused set.
pub const MAX_RETRY_DELAY: Duration = Duration::from_secs(60);

/// What the files of a set look like on disk (manifest included): name,
/// length and modification time of each, to notice a copy in progress
/// without reading a byte.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Fingerprint(Vec<(String, Option<(u64, std::time::SystemTime)>)>);

impl Fingerprint {
    fn of(dir: &Path) -> Fingerprint {
        let stat = |name: &str| {
            std::fs::metadata(dir.join(name))
                .ok()
                .map(|m| (m.len(), m.modified().unwrap_or(std::time::UNIX_EPOCH)))
        };
        let mut files = vec![(MANIFEST_FILE.to_string(), stat(MANIFEST_FILE))];
        let listed = std::fs::read(dir.join(MANIFEST_FILE))
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Manifest>(&bytes).ok());
        for entry in listed.iter().flat_map(|m| &m.files) {
            files.push((entry.file.clone(), stat(&entry.file)));
        }
        Fingerprint(files)
    }
}

/// A set that failed to load, and when to try it again.
#[derive(Debug, Clone)]
struct Refusal {
    /// Its manifest's digest.
    manifest: String,
    /// Its files when it was last tried.
    files: Fingerprint,
    /// How many times it was tried.
    attempts: u32,
    /// Not before this.
    next_try: Instant,
    /// The wait after the next failure.
    delay: Duration,
}

/// Watch `current`'s directory: poll the manifest every `every`, and check
/// at once on SIGHUP (which also retries a refused set). Drops the sets
/// it replaced once no request holds them, and gives their memory back.
/// Runs until the runtime stops.
pub async fn watch(current: Arc<Current>, every: Duration) {
    let mut refused: Option<Refusal> = None;
    let mut retired: Vec<Arc<LoadedSet>> = Vec::new();
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
        // A retired set no request holds any more: drop it here, off the
        // request path, and return its memory.
        let (done, held): (Vec<_>, Vec<_>) = retired
            .drain(..)
            .partition(|set| Arc::strong_count(set) == 1);
        retired = held;
        let current = Arc::clone(&current);
        let previous = refused.clone();
        let outcome = tokio::task::spawn_blocking(move || {
            if !done.is_empty() {
                let sets = done.len();
                drop(done);
                super::memory::release();
                eprintln!(
                    "gametab serve: dropped {sets} replaced set(s); resident memory now {} MiB",
                    super::memory::resident_bytes().map_or(0, |b| b >> 20)
                );
            }
            reload_if_changed(&current, previous.as_ref())
        })
        .await
        .unwrap_or(Reload::Unchanged);
        match outcome {
            Reload::Unchanged => {}
            Reload::Swapped(old) => {
                refused = None;
                retired.push(old);
            }
            Reload::Refused(refusal) => refused = Some(refusal),
        }
    }
}

/// What one look at the directory did.
#[derive(Debug)]
enum Reload {
    Unchanged,
    /// A new set serves; this one did.
    Swapped(Arc<LoadedSet>),
    /// The set on disk failed to load.
    Refused(Refusal),
}

/// Load and swap in the set on disk if its manifest differs from the one
/// serving and it is not a refused set waiting for its files to change
/// (and its backoff to pass). A set that fails while the manifest changed
/// under the load (a publish racing the read) is tried again at once.
fn reload_if_changed(current: &Current, refused: Option<&Refusal>) -> Reload {
    let serving = current.get().digest.clone();
    let mut attempts = 0;
    loop {
        let Some(on_disk) = current.manifest_on_disk() else {
            return Reload::Unchanged;
        };
        if on_disk == serving {
            return Reload::Unchanged;
        }
        let files = Fingerprint::of(&current.dir);
        let retry = refused.filter(|r| r.manifest == on_disk);
        if let Some(refusal) = retry {
            if refusal.files == files || Instant::now() < refusal.next_try {
                return Reload::Unchanged;
            }
            if attempts == 0 {
                eprintln!(
                    "gametab serve: the files of the refused set in {} (manifest {}) changed; \
                     trying it again (attempt {})",
                    current.dir.display(),
                    &on_disk[..16],
                    refusal.attempts + 1
                );
            }
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
                return Reload::Swapped(current.swap(set));
            }
            Err(e) if attempts < 3 && current.manifest_on_disk().as_ref() != Some(&on_disk) => {
                eprintln!(
                    "gametab serve: the set changed while loading ({}); trying again",
                    crate::error::chain(&e)
                );
            }
            Err(e) => {
                let (tries, delay) = match retry {
                    Some(r) => (r.attempts + 1, r.delay),
                    None => (1, FIRST_RETRY_DELAY),
                };
                eprintln!(
                    "gametab serve: refused the new set in {} (manifest {}, attempt {tries}): \
                     {}; still serving {}; tried again in {} s if its files change",
                    current.dir.display(),
                    &on_disk[..16],
                    crate::error::chain(&e),
                    &serving[..16],
                    delay.as_secs()
                );
                return Reload::Refused(Refusal {
                    manifest: on_disk,
                    files,
                    attempts: tries,
                    next_try: Instant::now() + delay,
                    delay: (delay * 2).min(MAX_RETRY_DELAY),
                });
            }
        }
    }
}

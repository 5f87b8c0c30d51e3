//! The one table set that every integration test of a `cargo test` run
//! reads, built once by the real `gametab build`.
//!
//! Several test areas need a whole built set (verify, plots, notebook,
//! the command line, the server), in two test binaries
//! (`tests/integration.rs`, `tests/serve/`); each used to build its own, so a
//! run built the same set four or five times. Now the first test that asks
//! builds it with the very `gametab` binary under test into
//! `<target>/tmp/shared-tables/<key>/`, and every later binary (and every
//! later run, until the code changes) reads it from there:
//!
//! - The key is the BLAKE2 digest of that `gametab` binary and of the build
//!   arguments. The binary links every line of code that builds tables, so
//!   any change to that code gives a new key and a fresh set; a relink of
//!   unchanged code at worst builds the same set once more.
//! - Builders and readers agree through a file lock (`<key>.lock`, flock),
//!   which every binary holds shared for as long as it runs. A binary first
//!   takes it shared and, if the set is there, reads it at once, beside any
//!   others. Only if the set is missing does it take the lock exclusively,
//!   to check again and build, so concurrent test binaries (nextest, two
//!   `cargo test`s, the API fuzz beside the rest) wait for one builder
//!   instead of racing. (Taking it exclusively every time, as before, made
//!   each binary wait until every earlier reader had exited: beside the API
//!   fuzz, for minutes.) A set is deleted (when its key is stale) only by a
//!   process that gets that set's lock exclusively, i.e. that nobody still
//!   reads.
//! - The set is built in `<key>.building/` and renamed to `<key>/` when the
//!   build has succeeded and its summary is saved, so a killed builder leaves
//!   nothing a reader would take for a set; the next one starts again.
//! - The build starts from the newest solver caches at hand ([`seed_caches`]):
//!   the repository's `.gametab-cache/` that `scripts/build-tables` filled,
//!   or those of the set an older binary built. The pipeline is still run
//!   whole; a cached game is used only when it certifies again on the game
//!   this build rebuilds (`src/murder_plan/cache.rs`,
//!   `src/dice/endgame/cache.rs`), and a game the cache lacks is solved.
//!   So the README's two commands solve the largest LPs once, not twice,
//!   and a change to the code does not re-solve every endgame; a clean
//!   clone (CI) starts cold and tests the solving path end to end.
//!
//! The set is read-only: a test that changes files works on
//! [`copy_of_tables`]. Beside the set lie the build's standard output
//! (`build-summary.txt`) and the caches it filled (`games.bin` and
//! `dice_endgame_games.bin`), which let end-to-end tests run further
//! `gametab build`s without solving the Murder Plan or the endgames again (cached games are certified again, never trusted).

#![allow(dead_code)] // Each test binary uses its own part of this module.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use gametab_lookup::io::blake2_hex;

/// Arguments of the shared build after `--out DIR --cache FILE`.
const BUILD_ARGS: &[&str] = &["build", "--quiet", "--threads", "2"];

/// File name of the shared build's standard output, beside `tables/`.
pub const SUMMARY_FILE: &str = "build-summary.txt";

/// File name of the game cache the shared build filled, beside `tables/`.
pub const CACHE_FILE: &str = "games.bin";

/// File name of the endgame cache the shared build filled, beside the game
/// cache (`gametab build` derives it from `--cache`).
pub const ENDGAME_CACHE_FILE: &str = "dice_endgame_games.bin";

/// A built set and what its build left beside it.
pub struct SharedSet {
    /// The directory holding `tables/`, the summary and the cache.
    root: PathBuf,
    /// Kept open, and locked shared, while this process runs.
    _lock: File,
}

impl SharedSet {
    /// The table directory (as `gametab build --out` wrote it).
    pub fn tables(&self) -> PathBuf {
        self.root.join("tables")
    }

    /// What `gametab build` printed on standard output.
    pub fn summary(&self) -> String {
        fs::read_to_string(self.root.join(SUMMARY_FILE)).expect("the build summary")
    }

    /// The game cache the build filled.
    pub fn cache(&self) -> PathBuf {
        self.root.join(CACHE_FILE)
    }

    /// The Liar's Dice endgame cache the build filled (beside the game
    /// cache, as `gametab build` places it).
    pub fn endgame_cache(&self) -> PathBuf {
        self.root.join(ENDGAME_CACHE_FILE)
    }

    /// Copy both caches into `dir` (as `games.bin` and its endgame
    /// sibling), so that a further build there solves neither the Murder
    /// Plan nor the endgames again; returns the `--cache` path.
    pub fn copy_caches_to(&self, dir: &Path) -> PathBuf {
        let cache = dir.join(CACHE_FILE);
        fs::copy(self.cache(), &cache).expect("copy the game cache");
        fs::copy(self.endgame_cache(), dir.join(ENDGAME_CACHE_FILE))
            .expect("copy the endgame cache");
        cache
    }

    /// The directory holding `tables/` (nothing else of the build's lies
    /// in it but the summary and the two caches).
    pub fn root(&self) -> &Path {
        &self.root
    }
}

/// The shared set, built on first use (see the module documentation).
pub fn shared_set() -> &'static SharedSet {
    static SET: OnceLock<SharedSet> = OnceLock::new();
    SET.get_or_init(open_or_build)
}

/// The shared set's table directory.
pub fn built_tables() -> &'static Path {
    static TABLES: OnceLock<PathBuf> = OnceLock::new();
    TABLES.get_or_init(|| shared_set().tables())
}

/// A private copy of the shared set for a test that changes files: its
/// temporary parent and the copied table directory (`<parent>/tables`).
pub fn copy_of_tables() -> (tempfile::TempDir, PathBuf) {
    let parent = tempfile::tempdir().expect("a temporary directory");
    let tables = parent.path().join("tables");
    copy_dir(built_tables(), &tables);
    (parent, tables)
}

/// Copy `from` into a new directory `to`, subdirectories (the plots) too.
pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The key of the set the binary under test builds.
fn key() -> String {
    let binary = fs::read(env!("CARGO_BIN_EXE_gametab")).expect("the gametab binary");
    let mut keyed = binary;
    keyed.extend_from_slice(BUILD_ARGS.join(" ").as_bytes());
    blake2_hex(&keyed)[..24].to_string()
}

fn open_or_build() -> SharedSet {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shared-tables");
    fs::create_dir_all(&base).unwrap();
    let key = key();
    let root = base.join(&key);
    let complete = || root.join("tables").join("manifest.json").exists();
    loop {
        let lock = File::create(base.join(format!("{key}.lock"))).unwrap();
        // Held shared whenever the set is read: no other process deletes
        // it while this one may still read it.
        lock.lock_shared().unwrap();
        if !complete() {
            // Missing: build it, or wait for the one building it.
            lock.unlock().unwrap();
            lock.lock().unwrap();
            if !complete() {
                build(&base.join(format!("{key}.building")), &root);
            }
            lock.unlock().unwrap();
            lock.lock_shared().unwrap();
        }
        remove_stale_sets(&base, &key);
        // While this process held no lock, a process with another key could
        // have taken it exclusively and deleted the set; then build it again.
        if complete() {
            return SharedSet { root, _lock: lock };
        }
    }
}

/// Build the set in `building` with `gametab build` and move it to `root`
/// once it is complete.
fn build(building: &Path, root: &Path) {
    if building.exists() {
        // A builder that was killed: nothing in it is trusted.
        fs::remove_dir_all(building).unwrap();
    }
    fs::create_dir(building).unwrap();
    seed_caches(building);
    let out = Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(BUILD_ARGS)
        .arg("--out")
        .arg(building.join("tables"))
        .arg("--cache")
        .arg(building.join(CACHE_FILE))
        .output()
        .expect("gametab build starts");
    assert!(
        out.status.success(),
        "the shared table set does not build: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    fs::write(building.join(SUMMARY_FILE), &out.stdout).unwrap();
    if root.exists() {
        // A set without its manifest: left by hand, never by a builder.
        fs::remove_dir_all(root).unwrap();
    }
    fs::rename(building, root).unwrap();
}

/// Copy the newest pair of solver caches at hand into `building` (as
/// `games.bin` and its endgame sibling): the repository's own (`gametab
/// build`'s default `--cache`, filled by `scripts/build-tables`) or those of
/// a complete set an older binary built. Nothing to copy is not an error:
/// the build then solves everything.
fn seed_caches(building: &Path) {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join(".gametab-cache");
    let mut candidates = vec![(
        repository.join("murder_plan_games.bin"),
        repository.join(ENDGAME_CACHE_FILE),
    )];
    let base = building.parent().expect("the shared-tables directory");
    for entry in fs::read_dir(base).unwrap() {
        let dir = entry.unwrap().path();
        if dir.join("tables").join("manifest.json").exists() {
            candidates.push((dir.join(CACHE_FILE), dir.join(ENDGAME_CACHE_FILE)));
        }
    }
    let modified = |path: &Path| fs::metadata(path).and_then(|m| m.modified()).ok();
    let newest = candidates
        .into_iter()
        .filter_map(|(games, endgame)| {
            let time = modified(&games)?.max(modified(&endgame)?);
            Some((time, games, endgame))
        })
        .max_by_key(|(time, ..)| *time);
    if let Some((_, games, endgame)) = newest {
        // A set may be deleted by its owner at any moment: a copy that
        // fails only means a colder start.
        let copied = fs::copy(&games, building.join(CACHE_FILE))
            .and_then(|_| fs::copy(&endgame, building.join(ENDGAME_CACHE_FILE)));
        if copied.is_err() {
            let _ = fs::remove_file(building.join(CACHE_FILE));
            let _ = fs::remove_file(building.join(ENDGAME_CACHE_FILE));
        }
    }
}

/// Delete the sets of other keys (built by older binaries) that no running
/// process holds; their lock files stay, empty, so a lock is never taken on
/// a file that another process is about to replace.
fn remove_stale_sets(base: &Path, key: &str) {
    for entry in fs::read_dir(base).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(other) = name.strip_suffix(".lock") else {
            continue;
        };
        if other == key {
            continue;
        }
        let Ok(lock) = File::open(base.join(&name)) else {
            continue;
        };
        if lock.try_lock().is_ok() {
            for dir in [other.to_string(), format!("{other}.building")] {
                let path = base.join(dir);
                if path.exists() {
                    fs::remove_dir_all(&path).unwrap();
                }
            }
        }
    }
}

/// Run the `gametab` binary under test: (success, standard output,
/// standard error).
pub fn gametab(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The WebAssembly module's directory (`web/dist`, written by
/// `scripts/build-web`), checked to be there and no older than any source
/// it is built from (the web crate, the Murder Plan lookup and rules, the
/// typed wrapper): a test of a stale module would test other code.
pub fn web_module() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dist = root.join("web/dist");
    let built = |file: &str| {
        fs::metadata(dist.join(file))
            .and_then(|m| m.modified())
            .unwrap_or_else(|_| {
                panic!(
                    "{} is missing: build the module with scripts/build-web (scripts/test does)",
                    dist.join(file).display()
                )
            })
    };
    let oldest = built("gametab_web_bg.wasm").min(built("index.js"));
    let sources = [
        "web/src",
        "web/ts",
        "crates/lookup/src/murder_plan",
        "crates/lookup/src/error.rs",
        "crates/games/src/murder_plan",
    ];
    let mut stack: Vec<PathBuf> = sources.iter().map(|s| root.join(s)).collect();
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if fs::metadata(&path).unwrap().modified().unwrap() > oldest {
            panic!(
                "the module in {} is older than {}: rebuild it with scripts/build-web",
                dist.display(),
                path.display()
            );
        }
    }
    dist
}

/// The example Cluedo log in the old format: `me` instead of `viewer`,
/// every seat numbered from 0 (`scripts/examples/cluedo-game.json` before
/// players were numbered from 1 in every game).
pub const OLD_CLUEDO_LOG: &str = r#"{
  "players": 4,
  "me": 0,
  "names": ["me", "Ann", "Bob", "Cat"],
  "hand": ["Miss Scarlett", "Rope", "Kitchen", "Hall", "Study"],
  "suggestions": [
    {"by": 0, "cards": ["Mrs White", "Spanner", "Library"], "shown_by": 1, "card": "Spanner"},
    {"by": 1, "cards": ["Mrs Peacock", "Dagger", "Lounge"], "shown_by": 3},
    {"by": 2, "cards": ["Professor Plum", "Candlestick", "Ballroom"], "shown_by": null},
    {"by": 3, "cards": ["Colonel Mustard", "Rope", "Study"], "shown_by": 0, "card": "Rope"},
    {"by": 0, "cards": ["Reverend Green", "Revolver", "Conservatory"], "shown_by": 2, "card": "Conservatory"},
    {"by": 1, "cards": ["Mrs White", "Lead Piping", "Dining Room"], "shown_by": 2}
  ],
  "accusations": [{"by": 3, "cards": ["Colonel Mustard", "Revolver", "Billiard Room"]}],
  "facts": [{"kind": "holds", "player": 3, "card": "Lead Piping"}]
}"#;

/// The directory of a virtualenv holding the pinned `requirements`, under
/// the target's `tmp/` as `<prefix>-<hash of the requirements>`: created
/// on first use (python3 -m venv, pip install -r) and reused while the
/// requirements do not change. The notebook test, the Python package's
/// tests and the API fuzz each keep one; `purpose` names the test in the
/// failures, which say what to install.
pub fn virtualenv(prefix: &str, requirements: &Path, purpose: &str) -> PathBuf {
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let pinned = fs::read(requirements)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", requirements.display()));
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{prefix}-{}", &blake2_hex(&pinned)[..16]));
    // Written last, naming the venv's own path: a venv without it was
    // interrupted, and one under another path was moved or copied (its
    // scripts name the old path in their `#!` lines); both are rebuilt.
    let complete = venv.join("gametab-requirements-installed");
    if fs::read_to_string(&complete).is_ok_and(|at| at == venv.display().to_string()) {
        return venv;
    }
    if venv.exists() {
        fs::remove_dir_all(&venv).expect("remove an incomplete virtualenv");
    }
    let created = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "python3 is not installed, but {purpose} needs it with its venv module: run \
                 scripts/setup or apt-get install python3 python3-venv ({e})"
            )
        });
    assert!(
        created.status.success(),
        "python3 -m venv failed for {purpose} (run scripts/setup, or apt-get install \
         python3-venv):\n{}",
        text(&created.stderr)
    );
    let installed = Command::new(venv.join("bin").join("python"))
        .args(["-m", "pip", "install", "--disable-pip-version-check"])
        .args(["--no-input", "--quiet", "-r"])
        .arg(requirements)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the virtualenv's pip: {e}"));
    assert!(
        installed.status.success(),
        "pip install -r {} failed:\n{}{}",
        requirements.display(),
        text(&installed.stdout),
        text(&installed.stderr)
    );
    fs::write(&complete, venv.display().to_string()).expect("mark the virtualenv complete");
    venv
}

/// The job file of 1v3 with five sides (solved in 7 s by `gametab dice
/// endgame solve --dice 1,3 --sides 5`): a game whose dense strategy
/// would have 36.7 M slots per player, so the tables store it by its
/// support.
pub const LARGE_JOB: &str = "tests/fixtures/1v3-5-normal.bin";

/// The frontier build of the large game from its job file: the endgame
/// tables it writes by its support (in `<cache>/tables`), the game and the
/// build's lines.
pub fn large_game_tables() -> (
    tempfile::TempDir,
    gametab_games::dice::endgame::Endgame,
    Vec<String>,
) {
    let game = gametab_games::dice::endgame::Endgame::new(1, 3, 5, false).unwrap();
    assert!(!gametab_lookup::dice::fits(game));
    let cache = tempfile::tempdir().unwrap();
    let jobs = cache.path().join("dice_endgame");
    fs::create_dir_all(&jobs).unwrap();
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(LARGE_JOB),
        jobs.join("1v3-5-normal.bin"),
    )
    .unwrap();
    let out = cache.path().join("tables");
    let options = gametab_build::options::BuildOptions {
        out: out.clone(),
        threads: 1,
        progress: gametab_build::progress::Progress::hidden(),
        lp: Default::default(),
        cache: Some(cache.path().join("games.bin")),
        endgame_frontier: true,
        endgame_budget: None,
        endgame_merge_only: false,
    };
    fs::create_dir_all(&out).unwrap();
    let mut writer = gametab_build::output::TableWriter::new(&out).unwrap();
    let lines = gametab_build::dice::endgame::build::build(&[game], &options, &mut writer).unwrap();
    (cache, game, lines)
}

/// Put `bytes` in place of the table `file` of the set `dir` and record
/// them (digest, size, `rows`) in its manifest, so that the set loads.
pub fn replace_table(dir: &Path, file: &str, bytes: &[u8], rows: u64) {
    use gametab_lookup::manifest::{Manifest, MANIFEST_FILE};
    fs::write(dir.join(file), bytes).unwrap();
    let path = dir.join(MANIFEST_FILE);
    let mut manifest: Manifest = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    let entry = manifest.files.iter_mut().find(|e| e.file == file).unwrap();
    entry.blake2b_256 = blake2_hex(bytes);
    entry.bytes = bytes.len() as u64;
    entry.rows = rows;
    fs::write(&path, serde_json::to_vec_pretty(&manifest).unwrap()).unwrap();
}

/// A private copy of the shared set whose endgame tables hold only the
/// large game of [`large_game_tables`], stored by its support: its
/// temporary parent and the table directory.
pub fn set_with_large_game() -> (tempfile::TempDir, PathBuf) {
    use gametab_lookup::dice::schema::{ENDGAME_POSTERIORS, ENDGAME_STRATEGY, ENDGAME_VALUES};
    let (cache, _, _) = large_game_tables();
    let (keep, dir) = copy_of_tables();
    for schema in [ENDGAME_VALUES, ENDGAME_STRATEGY, ENDGAME_POSTERIORS] {
        let bytes = fs::read(cache.path().join("tables").join(schema.file)).unwrap();
        let rows = gametab_lookup::io::read_parquet(bytes::Bytes::from(bytes.clone()), &schema)
            .unwrap()
            .rows();
        replace_table(&dir, schema.file, &bytes, rows as u64);
    }
    (keep, dir)
}

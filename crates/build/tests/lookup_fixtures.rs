//! The lookup crate's test fixtures (`crates/lookup/tests/fixtures/`) are
//! what this crate's builders write: a small table set of real rows, which
//! the lookup crate's documentation example and tests open without a full
//! build. This test builds them again, with the builders and the Parquet
//! writer of `gametab build`, and checks the committed files byte for byte.
//!
//! The set: `werewolf_early.parquet` with the situations of 6 players (the
//! first `players` of the family, every wolf count and vote), and
//! `cluedo_few_candidates.parquet` with the configurations of at most one
//! opponent holding unknown cards, at most three of them; the readers
//! answer everything else with their engines, as they do for anything
//! outside a full table. `manifest.json` lists the two with their digests
//! (`build_seconds` 0, so the same rows give the same bytes).
//!
//! After a change that rightly changes them (a schema, the writer, the
//! generator version), write them again with
//!
//! ```text
//! GAMETAB_WRITE_FIXTURES=1 cargo test --release -p gametab-build --test lookup_fixtures
//! ```

use std::path::{Path, PathBuf};

use gametab_build::output::TableWriter;
use gametab_games::werewolf::{EarlyAnswer, EARLY_FAMILY};

/// Where the lookup crate keeps the fixtures.
fn committed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../lookup/tests/fixtures")
}

/// Build the fixture set into `dir`; returns the files written.
fn write_fixtures(dir: &Path) -> Vec<String> {
    let mut writer = TableWriter::new(dir).unwrap();

    let family: Vec<_> = gametab_build::cluedo::family()
        .into_iter()
        .filter(|config| config.active_opponents() <= 1 && config.unknown_total() <= 3)
        .collect();
    writer
        .write(&gametab_build::cluedo::table(&family).unwrap())
        .unwrap();

    let answers: Vec<EarlyAnswer> = EARLY_FAMILY
        .situations()
        .into_iter()
        .filter(|situation| situation.players == EARLY_FAMILY.min_players)
        .map(|situation| situation.solve().unwrap())
        .collect();
    writer
        .write(&gametab_build::werewolf::rows::early_table_data(&answers).unwrap())
        .unwrap();

    writer.write_manifest(0.0).unwrap();
    let mut files: Vec<String> = writer
        .written()
        .iter()
        .map(|w| w.file.to_string())
        .collect();
    files.push(gametab_lookup::manifest::MANIFEST_FILE.to_string());
    files.sort();
    files
}

#[test]
fn lookup_fixtures_are_what_the_builders_write() {
    let fresh = tempfile::tempdir().unwrap();
    let files = write_fixtures(fresh.path());
    let committed = committed();
    if std::env::var_os("GAMETAB_WRITE_FIXTURES").is_some() {
        std::fs::create_dir_all(&committed).unwrap();
        for file in &files {
            std::fs::copy(fresh.path().join(file), committed.join(file)).unwrap();
        }
    }
    let mut listed: Vec<String> = std::fs::read_dir(&committed)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    listed.sort();
    assert_eq!(listed, files, "the fixture directory holds other files");
    for file in &files {
        let want = std::fs::read(fresh.path().join(file)).unwrap();
        let have = std::fs::read(committed.join(file)).unwrap();
        assert!(
            want == have,
            "{file} differs from what the builders write now (see this file's \
             documentation to write it again)"
        );
    }
    let total: usize = files
        .iter()
        .map(|file| std::fs::metadata(committed.join(file)).unwrap().len() as usize)
        .sum();
    assert!(total < 300_000, "the fixtures grew to {total} bytes");
}

//! The crate's test fixtures (`tests/fixtures/`): a small table set of real
//! rows (`gametab-build`'s `tests/lookup_fixtures.rs` builds them again and
//! checks them byte for byte), loaded the way every table set is.

use std::collections::BTreeMap;
use std::path::Path;

use bytes::Bytes;
use gametab_lookup::cluedo::Source;
use gametab_lookup::games::cluedo::FewCandidates;
use gametab_lookup::games::werewolf::{EarlySituation, EarlyVote, EARLY_FAMILY};
use gametab_lookup::manifest::MANIFEST_FILE;
use gametab_lookup::{Error, Tables};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

#[test]
fn every_werewolf_situation_held_is_what_the_engine_computes() {
    let tables = Tables::open(FIXTURES).unwrap();
    let werewolf = tables.werewolf().unwrap();
    let held: Vec<EarlySituation> = EARLY_FAMILY
        .situations()
        .into_iter()
        .filter(|s| s.players == 6)
        .collect();
    assert_eq!(werewolf.len(), held.len());
    for situation in &held {
        assert_eq!(
            werewolf.lookup(situation).unwrap(),
            &situation.solve().unwrap()
        );
    }
    // Outside the fixture (7 players): not in the table, so `lookup`
    // refuses and `answer` asks the engine.
    let outside = EarlySituation {
        players: 7,
        wolves: 2,
        checked_is_wolf: true,
        votes_for_seer: 1,
        votes_for_checked: 2,
        votes_for_suspect: 1,
        checked_votes: EarlyVote::Seer,
        suspect_votes: EarlyVote::Checked,
    };
    assert!(matches!(
        werewolf.lookup(&outside),
        Err(Error::NotInTable { .. })
    ));
    assert_eq!(werewolf.answer(&outside).unwrap(), outside.solve().unwrap());
}

#[test]
fn cluedo_answers_from_the_table_what_the_engine_counts() {
    let tables = Tables::open(FIXTURES).unwrap();
    let cluedo = tables.cluedo().unwrap();
    assert!(cluedo.configurations() > 0);
    // One opponent with two unknown cards, who may hold the second suspect
    // and the second weapon; the room is known.
    let held = FewCandidates::from_text("2", "-,A|-,A|-").unwrap();
    let (answer, source) = cluedo.answer(&held).unwrap();
    assert_eq!(source, Source::Table);
    assert_eq!(answer, held.solve().unwrap());
    // Two opponents with unknown cards: outside the fixture, counted.
    let outside = FewCandidates::from_text("2,1", "-,A,B|-,A|-").unwrap();
    let (answer, source) = cluedo.answer(&outside).unwrap();
    assert_eq!(source, Source::Engine);
    assert_eq!(answer, outside.solve().unwrap());
}

#[test]
fn a_game_the_set_lacks_or_a_changed_byte_is_an_error() {
    let tables = Tables::open(FIXTURES).unwrap();
    assert!(matches!(
        tables.murder_plan(),
        Err(Error::MissingFile { .. })
    ));

    let dir = Path::new(FIXTURES);
    let mut files: BTreeMap<String, Bytes> = ["cluedo_few_candidates.parquet", MANIFEST_FILE]
        .iter()
        .map(|f| {
            (
                f.to_string(),
                Bytes::from(std::fs::read(dir.join(f)).unwrap()),
            )
        })
        .collect();
    let table = files["cluedo_few_candidates.parquet"].to_vec();
    let mut changed = table.clone();
    let middle = changed.len() / 2;
    changed[middle] ^= 1;
    files.insert("cluedo_few_candidates.parquet".into(), changed.into());
    let tables = Tables::from_files(&files).unwrap();
    assert!(matches!(tables.cluedo(), Err(Error::DigestMismatch { .. })));
}

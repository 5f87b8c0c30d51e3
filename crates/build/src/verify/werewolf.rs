//! Werewolf checks of `gametab verify`: the early-game table is loaded by
//! its lookup-crate loader (situation rows complete and consistent, the
//! evidence model of the metadata), must hold every situation of
//! [`EARLY_FAMILY`], and a deterministic sample of rows (or every row) is
//! solved again with the lookup crate's engine (`EarlySituation::solve`) and
//! compared: counts and flags exactly, probabilities and bits within
//! [`FLOAT_TOLERANCE`].

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use gametab_games::werewolf::{EarlyAnswer, EarlyRole, EarlySituation, EarlyVote, EARLY_FAMILY};
use gametab_lookup::io::TableData;
use gametab_lookup::werewolf::schema::WEREWOLF_EARLY;
use gametab_lookup::werewolf::EarlyGameTable;

use super::files::LoadedFiles;
use super::report::{key_text, TableCheck};
use super::sample::sample_rows;
use super::Sampling;

/// Largest accepted difference between a stored float and the engine's.
pub const FLOAT_TOLERANCE: f64 = 1e-12;

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The situation of a row.
fn situation(data: &TableData, row: usize) -> Result<EarlySituation, String> {
    let int = |name: &str| -> Result<u32, String> {
        let value = data.i32s(name).map_err(err)?[row];
        u32::try_from(value).map_err(|_| format!("{name} = {value} is negative"))
    };
    let vote = |name: &str| -> Result<EarlyVote, String> {
        let text = &data.strings(name).map_err(err)?[row];
        EarlyVote::from_name(text).ok_or_else(|| format!("{name} = {text:?} is no vote"))
    };
    let situation = EarlySituation {
        players: int("players")?,
        wolves: int("wolves")?,
        checked_is_wolf: data.bools("checked_is_wolf").map_err(err)?[row],
        votes_for_seer: int("votes_for_seer")?,
        votes_for_checked: int("votes_for_checked")?,
        votes_for_suspect: int("votes_for_suspect")?,
        checked_votes: vote("checked_votes")?,
        suspect_votes: vote("suspect_votes")?,
    };
    situation.validate().map_err(err)?;
    Ok(situation)
}

fn check_row(
    data: &TableData,
    row: usize,
    answers: &mut HashMap<EarlySituation, EarlyAnswer>,
    check: &mut TableCheck,
) -> Result<(), String> {
    let situation = situation(data, row)?;
    let answer = match answers.entry(situation) {
        Entry::Occupied(known) => known.into_mut(),
        Entry::Vacant(slot) => slot.insert(situation.solve().map_err(err)?),
    };
    let role_text = &data.strings("role").map_err(err)?[row];
    let role = EarlyRole::from_name(role_text)
        .and_then(|role| answer.role(role))
        .ok_or_else(|| format!("role {role_text:?} has no member in this situation"))?;
    let key = || key_text(data, row);
    let int = |name: &str| data.i32s(name).map_err(err).map(|c| c[row]);
    let real = |name: &str| data.f64s(name).map_err(err).map(|c| c[row]);
    let flag = |name: &str| data.bools(name).map_err(err).map(|c| c[row]);
    let as_i32 = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
    check.exact(
        row,
        key,
        "first_player",
        as_i32(role.first_player),
        int("first_player")?,
    );
    check.exact(row, key, "members", as_i32(role.members), int("members")?);
    let wolf_sets = i64::try_from(answer.wolf_sets).unwrap_or(i64::MAX);
    check.exact(
        row,
        key,
        "wolf_sets",
        wolf_sets,
        data.i64s("wolf_sets").map_err(err)?[row],
    );
    for (column, expected) in [
        ("joint_entropy_bits", answer.joint_entropy),
        ("p_wolf", role.p_wolf),
        ("information_gain_bits", role.information_gain),
        ("published_score", role.published_score),
        ("baseline_p_wolf", role.baseline_p_wolf),
    ] {
        check.float(row, key, column, expected, real(column)?, FLOAT_TOLERANCE);
    }
    for (column, recommended) in [
        ("recommended_published", answer.recommended[0]),
        ("recommended_probability", answer.recommended[1]),
        ("recommended_information", answer.recommended[2]),
        ("baseline_recommended", answer.baseline_recommended),
    ] {
        check.exact(row, key, column, recommended == role.role, flag(column)?);
    }
    Ok(())
}

/// Check the early-game table.
pub fn check(loaded: &LoadedFiles, sampling: &Sampling) -> Vec<TableCheck> {
    let schema = &WEREWOLF_EARLY;
    let mut check = TableCheck::new(schema.file);
    let Some(data) = loaded.table(schema) else {
        return vec![check];
    };
    check.rows_total = data.rows();
    match EarlyGameTable::from_data(data) {
        Ok(table) => {
            let family = EARLY_FAMILY.situations();
            let missing = family.iter().filter(|s| table.lookup(s).is_err()).count();
            if missing > 0 || table.len() != family.len() {
                check.file_mismatch(
                    "rows",
                    format!("the {} situations of the family", family.len()),
                    format!(
                        "{} situations, {missing} of the family missing",
                        table.len()
                    ),
                );
            }
        }
        Err(e) => check.file_mismatch("file", "a table the lookup loader accepts", e),
    }
    let mut answers = HashMap::new();
    for row in sample_rows(
        schema.name,
        data.rows(),
        sampling.rows(data.rows()),
        sampling.seed,
    ) {
        match check_row(data, row, &mut answers, &mut check) {
            Ok(()) => check.rows_checked += 1,
            Err(e) => check.mismatch(Some(row), key_text(data, row), "key", "a valid key", e),
        }
    }
    check.notes.push(format!(
        "{} situations solved again by the lookup engine; counts and flags exact, floats within \
         {FLOAT_TOLERANCE:e}",
        answers.len()
    ));
    vec![check]
}

//! The `werewolf_early` table's rows: the solved early-game answers
//! encoded one row per (situation, role), sorted by key whatever the order
//! of the answers, each column handed to the writer by its schema name.

use gametab_games::werewolf::{EarlyAnswer, EarlyRoleAnswer, EarlySituation};
use gametab_lookup::io::{Column, TableData};
use gametab_lookup::werewolf::early_params;
use gametab_lookup::werewolf::schema::WEREWOLF_EARLY;
use gametab_lookup::{Error, Result};

/// The sort key of a row.
type RowKey = (
    i32,
    i32,
    bool,
    i32,
    i32,
    i32,
    &'static str,
    &'static str,
    i32,
);

fn row_key(s: &EarlySituation, role: &EarlyRoleAnswer) -> RowKey {
    (
        s.players as i32,
        s.wolves as i32,
        s.checked_is_wolf,
        s.votes_for_seer as i32,
        s.votes_for_checked as i32,
        s.votes_for_suspect as i32,
        s.checked_votes.name(),
        s.suspect_votes.name(),
        role.first_player as i32,
    )
}

/// The `werewolf_early` table of `answers`, rows sorted by key whatever the
/// order of `answers`.
///
/// # Errors
/// [`Error::Write`] when a number does not fit its column.
pub fn early_table_data(answers: &[EarlyAnswer]) -> Result<TableData> {
    let mut rows: Vec<(RowKey, &EarlyAnswer, &EarlyRoleAnswer)> = answers
        .iter()
        .flat_map(|a| {
            a.roles
                .iter()
                .map(move |r| (row_key(&a.situation, r), a, r))
        })
        .collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let too_big = |what: &str| Error::Write {
        table: WEREWOLF_EARLY.name,
        detail: format!("{what} does not fit its column"),
    };
    let mut columns: Vec<(&str, Column)> = Vec::new();
    let i32_col = |f: &dyn Fn(&RowKey, &EarlyRoleAnswer) -> i32| {
        Column::Int32(rows.iter().map(|(k, _, r)| f(k, r)).collect())
    };
    let str_col = |f: &dyn Fn(&RowKey) -> &'static str| {
        Column::Utf8(rows.iter().map(|(k, _, _)| f(k).to_string()).collect())
    };
    let f64_col = |f: &dyn Fn(&EarlyAnswer, &EarlyRoleAnswer) -> f64| {
        Column::Float64(rows.iter().map(|(_, a, r)| f(a, r)).collect())
    };
    let bool_col = |f: &dyn Fn(&EarlyAnswer, &EarlyRoleAnswer) -> bool| {
        Column::Bool(rows.iter().map(|(_, a, r)| f(a, r)).collect())
    };
    columns.push(("players", i32_col(&|k, _| k.0)));
    columns.push(("wolves", i32_col(&|k, _| k.1)));
    columns.push((
        "checked_is_wolf",
        Column::Bool(rows.iter().map(|(k, _, _)| k.2).collect()),
    ));
    columns.push(("votes_for_seer", i32_col(&|k, _| k.3)));
    columns.push(("votes_for_checked", i32_col(&|k, _| k.4)));
    columns.push(("votes_for_suspect", i32_col(&|k, _| k.5)));
    columns.push(("checked_votes", str_col(&|k| k.6)));
    columns.push(("suspect_votes", str_col(&|k| k.7)));
    columns.push(("first_player", i32_col(&|k, _| k.8)));
    columns.push((
        "role",
        Column::Utf8(
            rows.iter()
                .map(|(_, _, r)| r.role.name().to_string())
                .collect(),
        ),
    ));
    columns.push(("members", i32_col(&|_, r| r.members as i32)));
    let wolf_sets = rows
        .iter()
        .map(|(_, a, _)| i64::try_from(a.wolf_sets).map_err(|_| too_big("wolf_sets")))
        .collect::<Result<Vec<_>>>()?;
    columns.push(("wolf_sets", Column::Int64(wolf_sets)));
    columns.push(("joint_entropy_bits", f64_col(&|a, _| a.joint_entropy)));
    columns.push(("p_wolf", f64_col(&|_, r| r.p_wolf)));
    columns.push(("information_gain_bits", f64_col(&|_, r| r.information_gain)));
    columns.push(("published_score", f64_col(&|_, r| r.published_score)));
    columns.push((
        "recommended_published",
        bool_col(&|a, r| a.recommended[0] == r.role),
    ));
    columns.push((
        "recommended_probability",
        bool_col(&|a, r| a.recommended[1] == r.role),
    ));
    columns.push((
        "recommended_information",
        bool_col(&|a, r| a.recommended[2] == r.role),
    ));
    columns.push(("baseline_p_wolf", f64_col(&|_, r| r.baseline_p_wolf)));
    columns.push((
        "baseline_recommended",
        bool_col(&|a, r| a.baseline_recommended == r.role),
    ));
    TableData::from_named(WEREWOLF_EARLY, columns, early_params())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parquet_write::write_parquet;
    use bytes::Bytes;
    use gametab_games::werewolf::EARLY_FAMILY;
    use gametab_lookup::werewolf::EarlyGameTable;

    fn small_family() -> Vec<EarlyAnswer> {
        EARLY_FAMILY
            .situations()
            .into_iter()
            .filter(|s| s.players <= 7)
            .map(|s| s.solve().unwrap())
            .collect()
    }

    #[test]
    fn write_then_read_round_trips() {
        let answers = small_family();
        let mut reversed = answers.clone();
        reversed.reverse();
        let data = early_table_data(&reversed).unwrap();
        assert_eq!(data, early_table_data(&answers).unwrap());
        let bytes = Bytes::from(write_parquet(&data).unwrap());
        let table = EarlyGameTable::from_bytes(bytes).unwrap();
        assert_eq!(table.len(), answers.len());
        for answer in &answers {
            assert_eq!(table.lookup(&answer.situation).unwrap(), answer);
        }
        // Outside the table: solved by the engine, not found by lookup.
        let outside = EarlySituation {
            players: 8,
            votes_for_suspect: 5,
            ..answers[0].situation
        };
        assert!(matches!(
            table.lookup(&outside),
            Err(Error::NotInTable { .. })
        ));
        assert_eq!(table.answer(&outside).unwrap(), outside.solve().unwrap());
        let invalid = EarlySituation {
            votes_for_seer: 9,
            ..answers[0].situation
        };
        assert!(matches!(
            table.answer(&invalid),
            Err(Error::OutOfRange { .. })
        ));
    }

    #[test]
    fn contradicting_rows_are_refused() {
        let answers = small_family();
        let mut data = early_table_data(&answers).unwrap();
        let p_wolf = WEREWOLF_EARLY.column_index("p_wolf").unwrap();
        if let Column::Float64(values) = &mut data.columns[p_wolf] {
            values[5] = 1.5;
        }
        assert!(matches!(
            EarlyGameTable::from_data(&data),
            Err(Error::BadRow { row: 5, .. })
        ));
        let mut data = early_table_data(&answers).unwrap();
        let flag = WEREWOLF_EARLY
            .column_index("recommended_published")
            .unwrap();
        if let Column::Bool(values) = &mut data.columns[flag] {
            values.iter_mut().for_each(|v| *v = true);
        }
        assert!(matches!(
            EarlyGameTable::from_data(&data),
            Err(Error::BadRow { .. })
        ));
        let mut data = early_table_data(&answers).unwrap();
        data.params.insert("seer_accuracy".into(), "0.9".into());
        assert!(matches!(
            EarlyGameTable::from_data(&data),
            Err(Error::ForeignTable { .. })
        ));
    }
}

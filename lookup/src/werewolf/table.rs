//! Encoding the early-game answers as the `werewolf_early` table and serving
//! them back: [`early_table_data`] is what the pipeline writes,
//! [`EarlyGameTable`] loads the file (from a directory or from bytes),
//! indexes it by situation and answers queries, solving situations outside
//! the table with the engine.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use bytes::Bytes;

use crate::error::{Error, Result};
use crate::io::{read_parquet, Column, Strings, TableData};

use super::early::{
    EarlyAnswer, EarlyRole, EarlyRoleAnswer, EarlySituation, EarlyVote, EARLY_FAMILY,
};
use super::model::EvidenceModel;
use super::schema::WEREWOLF_EARLY;
use super::scoring::{PUBLISHED_INFORMATION_WEIGHT, PUBLISHED_PROBABILITY_WEIGHT};

/// The parameters written into the table's metadata.
fn params() -> BTreeMap<String, String> {
    let model = EvidenceModel::default();
    let v = model.votes;
    [
        (
            "players",
            format!(
                "{}..={}",
                EARLY_FAMILY.min_players, EARLY_FAMILY.max_players
            ),
        ),
        (
            "wolves",
            format!("1..={} with 2*wolves < players", EARLY_FAMILY.max_wolves),
        ),
        ("viewer", "the seer, seat 1, trusted".to_string()),
        (
            "vote_weights",
            format!(
                "wolf->village {} wolf->wolf {} village->village {} village->wolf {}",
                v.wolf_votes_village,
                v.wolf_votes_wolf,
                v.village_votes_village,
                v.village_votes_wolf
            ),
        ),
        ("seer_accuracy", model.seer_accuracy.to_string()),
        (
            "published_rule",
            format!(
                "{PUBLISHED_PROBABILITY_WEIGHT} * p_wolf + {PUBLISHED_INFORMATION_WEIGHT} * ig / h"
            ),
        ),
        ("entropy_unit", "bits".to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

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
    let mut columns: Vec<Column> = Vec::new();
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
    columns.push(i32_col(&|k, _| k.0));
    columns.push(i32_col(&|k, _| k.1));
    columns.push(Column::Bool(rows.iter().map(|(k, _, _)| k.2).collect()));
    columns.push(i32_col(&|k, _| k.3));
    columns.push(i32_col(&|k, _| k.4));
    columns.push(i32_col(&|k, _| k.5));
    columns.push(str_col(&|k| k.6));
    columns.push(str_col(&|k| k.7));
    columns.push(i32_col(&|k, _| k.8));
    columns.push(Column::Utf8(
        rows.iter()
            .map(|(_, _, r)| r.role.name().to_string())
            .collect(),
    ));
    columns.push(i32_col(&|_, r| r.members as i32));
    let wolf_sets = rows
        .iter()
        .map(|(_, a, _)| i64::try_from(a.wolf_sets).map_err(|_| too_big("wolf_sets")))
        .collect::<Result<Vec<_>>>()?;
    columns.push(Column::Int64(wolf_sets));
    columns.push(f64_col(&|a, _| a.joint_entropy));
    columns.push(f64_col(&|_, r| r.p_wolf));
    columns.push(f64_col(&|_, r| r.information_gain));
    columns.push(f64_col(&|_, r| r.published_score));
    columns.push(bool_col(&|a, r| a.recommended[0] == r.role));
    columns.push(bool_col(&|a, r| a.recommended[1] == r.role));
    columns.push(bool_col(&|a, r| a.recommended[2] == r.role));
    columns.push(f64_col(&|_, r| r.baseline_p_wolf));
    columns.push(bool_col(&|a, r| a.baseline_recommended == r.role));
    Ok(TableData {
        schema: WEREWOLF_EARLY,
        columns,
        params: params(),
    })
}

/// The `werewolf_early` table in memory, indexed by situation.
#[derive(Debug, Clone)]
pub struct EarlyGameTable {
    answers: Vec<EarlyAnswer>,
    index: HashMap<EarlySituation, usize>,
}

impl EarlyGameTable {
    /// Load `werewolf_early.parquet` from the table directory `dir`.
    ///
    /// # Errors
    /// [`Error::MissingFile`] or [`Error::Io`] when the file cannot be read;
    /// otherwise as [`EarlyGameTable::from_bytes`].
    pub fn load(dir: &Path) -> Result<EarlyGameTable> {
        EarlyGameTable::from_bytes(crate::tables::read_file(dir, WEREWOLF_EARLY.file)?)
    }

    /// Decode the table from the bytes of its file.
    ///
    /// # Errors
    /// As [`read_parquet`]; [`Error::ForeignTable`] for a table built with
    /// another evidence model; [`Error::BadRow`] for rows that contradict
    /// each other or the situation they belong to.
    pub fn from_bytes(bytes: Bytes) -> Result<EarlyGameTable> {
        EarlyGameTable::from_data(&read_parquet(bytes, &WEREWOLF_EARLY)?)
    }

    /// Index decoded table data.
    ///
    /// # Errors
    /// As [`EarlyGameTable::from_bytes`].
    pub fn from_data(data: &TableData) -> Result<EarlyGameTable> {
        let expected = params();
        for key in ["vote_weights", "seer_accuracy", "viewer"] {
            if data.params.get(key) != expected.get(key) {
                return Err(Error::ForeignTable {
                    table: WEREWOLF_EARLY.name.to_string(),
                    detail: format!(
                        "built with {key} = {:?}, this reader's model has {:?}",
                        data.params.get(key),
                        expected.get(key)
                    ),
                });
            }
        }
        let rows = RowReader::new(data)?;
        let mut answers: Vec<EarlyAnswer> = Vec::new();
        let mut index = HashMap::new();
        let mut row = 0;
        while row < data.rows() {
            let situation = rows.situation(row)?;
            let seats = situation.role_seats();
            let end = row + seats.len();
            let answer = rows.answer(situation, &seats, row, end)?;
            if index.insert(situation, answers.len()).is_some() {
                return Err(rows.bad(row, "the situation appears twice"));
            }
            answers.push(answer);
            row = end;
        }
        Ok(EarlyGameTable { answers, index })
    }

    /// Number of situations held.
    pub fn len(&self) -> usize {
        self.answers.len()
    }

    /// Whether the table holds no situation.
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }

    /// The tabulated answer for `situation`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for an invalid situation; [`Error::NotInTable`]
    /// for a valid one the table does not hold.
    pub fn lookup(&self, situation: &EarlySituation) -> Result<&EarlyAnswer> {
        situation.validate()?;
        self.index
            .get(situation)
            .map(|&i| &self.answers[i])
            .ok_or_else(|| Error::NotInTable {
                table: WEREWOLF_EARLY.name,
                key: format!("{situation:?}"),
            })
    }

    /// The answer for `situation`: from the table when it holds it,
    /// otherwise solved by the engine.
    ///
    /// # Errors
    /// As [`EarlySituation::solve`] for situations outside the table.
    pub fn answer(&self, situation: &EarlySituation) -> Result<EarlyAnswer> {
        match self.lookup(situation) {
            Ok(answer) => Ok(answer.clone()),
            Err(Error::NotInTable { .. }) => situation.solve(),
            Err(other) => Err(other),
        }
    }
}

/// Typed access to the columns while decoding.
struct RowReader<'a> {
    ints: [&'a [i32]; 7],
    flags: [&'a [bool]; 5],
    names: [&'a Strings; 3],
    wolf_sets: &'a [i64],
    reals: [&'a [f64]; 5],
}

impl<'a> RowReader<'a> {
    fn new(data: &'a TableData) -> Result<RowReader<'a>> {
        let ints = [
            "players",
            "wolves",
            "votes_for_seer",
            "votes_for_checked",
            "votes_for_suspect",
            "members",
            "first_player",
        ]
        .map(|c| data.i32s(c));
        let flags = [
            "checked_is_wolf",
            "recommended_published",
            "recommended_probability",
            "recommended_information",
            "baseline_recommended",
        ]
        .map(|c| data.bools(c));
        let names = ["checked_votes", "suspect_votes", "role"].map(|c| data.strings(c));
        let reals = [
            "joint_entropy_bits",
            "p_wolf",
            "information_gain_bits",
            "published_score",
            "baseline_p_wolf",
        ]
        .map(|c| data.f64s(c));
        Ok(RowReader {
            ints: transpose(ints)?,
            flags: transpose(flags)?,
            names: transpose(names)?,
            wolf_sets: data.i64s("wolf_sets")?,
            reals: transpose(reals)?,
        })
    }

    fn bad(&self, row: usize, detail: impl Into<String>) -> Error {
        Error::BadRow {
            table: WEREWOLF_EARLY.name.to_string(),
            row,
            detail: detail.into(),
        }
    }

    fn count(&self, column: usize, row: usize) -> Result<u32> {
        u32::try_from(self.ints[column][row])
            .map_err(|_| self.bad(row, format!("negative count {}", self.ints[column][row])))
    }

    fn situation(&self, row: usize) -> Result<EarlySituation> {
        let vote = |column: usize| {
            EarlyVote::from_name(&self.names[column][row]).ok_or_else(|| {
                self.bad(row, format!("unknown vote {:?}", &self.names[column][row]))
            })
        };
        let situation = EarlySituation {
            players: self.count(0, row)?,
            wolves: self.count(1, row)?,
            checked_is_wolf: self.flags[0][row],
            votes_for_seer: self.count(2, row)?,
            votes_for_checked: self.count(3, row)?,
            votes_for_suspect: self.count(4, row)?,
            checked_votes: vote(0)?,
            suspect_votes: vote(1)?,
        };
        situation
            .validate()
            .map_err(|e| self.bad(row, e.to_string()))?;
        Ok(situation)
    }

    fn answer(
        &self,
        situation: EarlySituation,
        seats: &[(EarlyRole, u32, u32)],
        start: usize,
        end: usize,
    ) -> Result<EarlyAnswer> {
        if end > self.wolf_sets.len() {
            return Err(self.bad(start, "the situation's rows are incomplete"));
        }
        let mut roles = Vec::with_capacity(seats.len());
        let mut recommended: [Option<EarlyRole>; 4] = [None; 4];
        for (row, &(role, first, members)) in (start..end).zip(seats) {
            if self.situation(row)? != situation || &self.names[2][row] != role.name() {
                return Err(self.bad(row, format!("expected the {role} row of {situation:?}")));
            }
            if self.count(5, row)? != members || self.count(6, row)? != first {
                return Err(self.bad(row, "members or first_player disagree with the situation"));
            }
            if self.wolf_sets[row] != self.wolf_sets[start]
                || self.reals[0][row] != self.reals[0][start]
            {
                return Err(self.bad(
                    row,
                    "wolf_sets or joint_entropy_bits differ within a situation",
                ));
            }
            for (column, p) in [(1, self.reals[1][row]), (4, self.reals[4][row])] {
                if !(0.0..=1.0).contains(&p) {
                    return Err(self.bad(row, format!("probability {p} in column {column}")));
                }
            }
            for (slot, flag) in recommended.iter_mut().zip(&self.flags[1..]) {
                if flag[row] {
                    if slot.is_some() {
                        return Err(self.bad(row, "two recommended roles under one rule"));
                    }
                    *slot = Some(role);
                }
            }
            roles.push(EarlyRoleAnswer {
                role,
                members,
                first_player: first,
                p_wolf: self.reals[1][row],
                information_gain: self.reals[2][row],
                published_score: self.reals[3][row],
                baseline_p_wolf: self.reals[4][row],
            });
        }
        let missing = || self.bad(start, "a rule without a recommended role");
        Ok(EarlyAnswer {
            situation,
            wolf_sets: u64::try_from(self.wolf_sets[start])
                .map_err(|_| self.bad(start, "negative wolf_sets"))?,
            joint_entropy: self.reals[0][start],
            roles,
            recommended: [
                recommended[0].ok_or_else(missing)?,
                recommended[1].ok_or_else(missing)?,
                recommended[2].ok_or_else(missing)?,
            ],
            baseline_recommended: recommended[3].ok_or_else(missing)?,
        })
    }
}

fn transpose<T, const N: usize>(results: [Result<T>; N]) -> Result<[T; N]> {
    let collected: Vec<T> = results.into_iter().collect::<Result<_>>()?;
    collected
        .try_into()
        .map_err(|_| Error::Inconsistent("column count".to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::write_parquet;

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

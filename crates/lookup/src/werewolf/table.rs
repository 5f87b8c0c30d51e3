//! Serving the `werewolf_early` table: [`EarlyGameTable`] decodes the file
//! (its bytes, as [`crate::Tables`] hands them over), indexes it by
//! situation and answers queries, solving situations outside the table
//! with the engine. [`early_params`] is the metadata the table must carry.

use std::collections::{BTreeMap, HashMap};

use bytes::Bytes;

use crate::error::{Error, Result};
use crate::io::{read_parquet, Strings, TableData};

use super::schema::WEREWOLF_EARLY;
use gametab_games::werewolf::EvidenceModel;
use gametab_games::werewolf::{
    EarlyAnswer, EarlyRole, EarlyRoleAnswer, EarlySituation, EarlyVote, EARLY_FAMILY,
};
use gametab_games::werewolf::{PUBLISHED_INFORMATION_WEIGHT, PUBLISHED_PROBABILITY_WEIGHT};

/// The parameters of the table's metadata: the family and the model its
/// answers are for. The writer records them, the loader insists on them.
pub fn early_params() -> BTreeMap<String, String> {
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

/// The `werewolf_early` table in memory, indexed by situation.
#[derive(Debug, Clone)]
pub struct EarlyGameTable {
    answers: Vec<EarlyAnswer>,
    index: HashMap<EarlySituation, usize>,
}

impl EarlyGameTable {
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
        let expected = early_params();
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
            Err(Error::NotInTable { .. }) => Ok(situation.solve()?),
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

//! The equilibrium posterior table's rows ([`ENDGAME_POSTERIORS`]): for
//! each viewer and each history equilibrium play reaches, the opponent's
//! hand distribution, every hand of his. A dense game's come from its
//! strategies over all its histories ([`posterior_rows`]); a sparse game's
//! from its stored support, walking only the histories it reaches
//! ([`sparse_posterior_rows`]).

use super::rows::GameKeys;
use super::sparse_game::SparseGame;
use crate::error::Result;
use gametab_games::dice::endgame::{History, Player, Posterior, Strategy};
use gametab_lookup::dice::schema::ENDGAME_POSTERIORS;
use gametab_lookup::io::{Column, TableData};
use std::collections::BTreeMap;

/// The posterior table's columns after the game keys.
#[derive(Debug, Default)]
pub(super) struct PosteriorColumns {
    viewer: Vec<i32>,
    history: Vec<i32>,
    opponent_hand: Vec<i32>,
    probability: Vec<f64>,
}

impl PosteriorColumns {
    /// Its rows.
    pub(super) fn rows(&self) -> usize {
        self.viewer.len()
    }

    /// Append a copy of `other`'s rows.
    pub(super) fn extend_from(&mut self, other: &PosteriorColumns) {
        self.viewer.extend_from_slice(&other.viewer);
        self.history.extend_from_slice(&other.history);
        self.opponent_hand.extend_from_slice(&other.opponent_hand);
        self.probability.extend_from_slice(&other.probability);
    }

    pub(super) fn append(&mut self, mut other: PosteriorColumns) {
        self.viewer.append(&mut other.viewer);
        self.history.append(&mut other.history);
        self.opponent_hand.append(&mut other.opponent_hand);
        self.probability.append(&mut other.probability);
    }

    pub(super) fn into_table(self, keys: GameKeys) -> Result<TableData> {
        let mut named: Vec<(&str, Column)> = keys.columns().into();
        named.extend([
            ("viewer", Column::Int32(self.viewer)),
            ("history", Column::Int32(self.history)),
            ("opponent_hand", Column::Int32(self.opponent_hand)),
            ("probability", Column::Float64(self.probability)),
        ]);
        Ok(TableData::from_named(
            ENDGAME_POSTERIORS,
            named,
            BTreeMap::new(),
        )?)
    }
}

/// A sparse game's posterior rows, as [`posterior_rows`] gives a dense
/// game's: for each viewer and each history equilibrium play reaches
/// ([`SparseGame::reached`]), the opponent's hand distribution from his own
/// reaches ([`Posterior::from_reaches`]), every hand of his.
pub(super) fn sparse_posterior_rows(sparse: &SparseGame) -> PosteriorColumns {
    let reached = sparse.reached();
    let mut out = PosteriorColumns::default();
    for v in Player::BOTH {
        let opponent = v.opponent();
        let hands = &sparse.hands[opponent.index()];
        let codes: Vec<i32> = hands.iter().map(|h| h.code()).collect();
        for &h in &reached {
            let history = History(h);
            let reaches: Vec<f64> = (0..hands.len())
                .map(|j| sparse.own_reach(opponent, j, history))
                .collect();
            let Some(posterior) = Posterior::from_reaches(hands, &reaches) else {
                continue;
            };
            for (w, p) in posterior.probabilities.iter().enumerate() {
                out.viewer.push(i32::from(v.number()));
                out.history.push(h as i32);
                out.opponent_hand.push(codes[w]);
                out.probability.push(*p);
            }
        }
    }
    out
}

/// One game's posterior rows: for each viewer and each history that
/// equilibrium play reaches (both players' weighted reach positive), the
/// opponent's hand distribution ([`Posterior::of`]), every hand of his
/// (zeros included).
pub(super) fn posterior_rows(
    strategies: &[Strategy; 2],
    reach: &[Vec<f64>; 2],
) -> PosteriorColumns {
    let game = strategies[0].game();
    let mut out = PosteriorColumns::default();
    for v in Player::BOTH {
        let opponent = v.opponent();
        let codes: Vec<i32> = game.hands(opponent).iter().map(|h| h.code()).collect();
        for h in (0..game.history_count() as u32).map(History) {
            if reach[0][h.0 as usize] * reach[1][h.0 as usize] <= 0.0 {
                continue;
            }
            let Some(posterior) = Posterior::of(&strategies[opponent.index()], h) else {
                continue;
            };
            for (w, p) in posterior.probabilities.iter().enumerate() {
                out.viewer.push(i32::from(v.number()));
                out.history.push(h.0 as i32);
                out.opponent_hand.push(codes[w]);
                out.probability.push(*p);
            }
        }
    }
    out
}

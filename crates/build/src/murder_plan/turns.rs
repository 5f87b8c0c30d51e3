//! Per-inventory turn tables: both sides' legal full actions and, for every
//! action pair, which of the distinct [`TurnOutcome`]s it produces.
//!
//! An outcome does not depend on the state it is played in, so the table is
//! built once per inventory of limited cards (16 of them). A state's payoff
//! matrix is then `M[a][b] = w[outcome_of(a, b)]`, where `w` holds one
//! continuation value per distinct outcome: `w` and the inventory determine
//! the matrix completely, which is what the game digest hashes.

use std::collections::HashMap;

use rayon::prelude::*;

use gametab_games::murder_plan::model::{
    mastermind_actions, protagonist_actions, resolve, LimitedCards, MastermindAction,
    ProtagonistAction, TurnOutcome,
};

/// The turn table of one inventory.
#[derive(Debug, Clone)]
pub struct TurnTable {
    /// The inventory.
    pub limited: LimitedCards,
    /// The mastermind's legal full actions (matrix rows), canonical order.
    pub mastermind: Vec<MastermindAction>,
    /// The protagonists' legal full actions (matrix columns), canonical order.
    pub protagonists: Vec<ProtagonistAction>,
    /// The distinct outcomes, in order of first appearance (row-major).
    pub outcomes: Vec<TurnOutcome>,
    /// Row-major: `outcome_of[a * cols + b]` indexes `outcomes`.
    pub outcome_of: Vec<u16>,
    /// The same indices column-major: `outcome_by_col[b * rows + a]`, so a
    /// column's outcomes are contiguous too.
    pub outcome_by_col: Vec<u16>,
    /// For each mastermind action, the index of its axis-swapped image.
    pub mastermind_swap: Vec<usize>,
    /// For each protagonists' action, the index of its axis-swapped image.
    pub protagonists_swap: Vec<usize>,
}

fn swap_indices<A: Ord + Copy>(actions: &[A], swapped: impl Fn(A) -> A) -> Vec<usize> {
    actions
        .iter()
        .map(|&a| {
            actions
                .binary_search(&swapped(a))
                .expect("the action sets are closed under the axis swap")
        })
        .collect()
}

impl TurnTable {
    /// Build the table of one inventory.
    pub fn new(limited: LimitedCards) -> TurnTable {
        let mastermind = mastermind_actions(limited);
        let protagonists = protagonist_actions(limited);
        let mut outcomes = Vec::new();
        let mut index_of: HashMap<TurnOutcome, u16> = HashMap::new();
        let mut outcome_of = Vec::with_capacity(mastermind.len() * protagonists.len());
        for &a in &mastermind {
            for &b in &protagonists {
                let outcome = resolve(a, b);
                let index = *index_of.entry(outcome).or_insert_with(|| {
                    outcomes.push(outcome);
                    (outcomes.len() - 1) as u16
                });
                outcome_of.push(index);
            }
        }
        let (rows, cols) = (mastermind.len(), protagonists.len());
        let outcome_by_col = (0..cols * rows)
            .map(|i| outcome_of[(i % rows) * cols + i / rows])
            .collect();
        TurnTable {
            limited,
            outcome_by_col,
            mastermind_swap: swap_indices(&mastermind, MastermindAction::swapped),
            protagonists_swap: swap_indices(&protagonists, ProtagonistAction::swapped),
            mastermind,
            protagonists,
            outcomes,
            outcome_of,
        }
    }

    /// Number of matrix rows.
    pub fn rows(&self) -> usize {
        self.mastermind.len()
    }

    /// Number of matrix columns.
    pub fn cols(&self) -> usize {
        self.protagonists.len()
    }
}

/// The turn tables of all 16 inventories, indexed by [`LimitedCards::index`].
#[derive(Debug, Clone)]
pub struct TurnTables(Vec<TurnTable>);

impl TurnTables {
    /// Build all 16 tables, side by side on the rayon pool (in index order).
    pub fn new() -> TurnTables {
        TurnTables(
            (0..16)
                .into_par_iter()
                .map(|i| TurnTable::new(LimitedCards::from_index(i).expect("index < 16")))
                .collect(),
        )
    }

    /// The table of an inventory.
    pub fn get(&self, limited: LimitedCards) -> &TurnTable {
        &self.0[limited.index()]
    }
}

impl Default for TurnTables {
    fn default() -> TurnTables {
        TurnTables::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_cover_every_pair() {
        let tables = TurnTables::new();
        let full = tables.get(LimitedCards::ALL);
        // `data/published.csv`: both sides' legal actions with every card.
        let published = |side: &str| {
            let parameters = format!(
                "side={side};diagonal_left=true;intrigue2_left=true;forbid_movement_left=3"
            );
            let row = crate::known_answers::find("murder_plan", "legal_actions", &parameters);
            row.unwrap().value as usize
        };
        let (rows, cols) = (published("mastermind"), published("protagonists"));
        assert_eq!((full.rows(), full.cols()), (rows, cols));
        assert_eq!(full.outcome_of.len(), rows * cols);
        for a in 0..full.rows() {
            for b in 0..full.cols() {
                assert_eq!(
                    full.outcome_by_col[b * full.rows() + a],
                    full.outcome_of[a * full.cols() + b]
                );
            }
        }
        for (a, &m) in full.mastermind.iter().enumerate() {
            for (b, &p) in full.protagonists.iter().enumerate() {
                let o = full.outcomes[full.outcome_of[a * full.cols() + b] as usize];
                assert_eq!(o, resolve(m, p));
            }
        }
        // Many pairs share an outcome: far fewer outcomes than pairs.
        assert!(full.outcomes.len() < 2000);
        for (i, &j) in full.mastermind_swap.iter().enumerate() {
            assert_eq!(full.mastermind[j], full.mastermind[i].swapped());
        }
    }
}

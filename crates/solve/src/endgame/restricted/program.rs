//! The restricted LP ([`RestrictedLp`]): the sequence-form LP of the
//! restricted game, kept in HiGHS between rounds and grown by the rows and
//! columns each round adds, and the reading of both players' behaviour
//! from its primal and dual solution. The restricted game itself, its tree
//! and the extended strategies are in the parent module.

use std::collections::HashMap;
use std::time::Instant;

use super::super::error::{Error, Expect, Result};

use gametab_games::dice::endgame::{Action, History, Player};

use super::super::growing_lp::{GrowingLp, NewColumn, NewRow};
use super::super::lp::LpSize;
use super::{CallPayoffs, ExtendedPlay, RestrictedGame, RestrictedSolution, TreeNode};

/// What a row or column of the restricted LP stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Part {
    /// Row: player 1's information set (hand, history).
    Infoset,
    /// Row: player 2's bid sequence, by the history right after the bid.
    BidRow,
    /// Row: player 2's call, by the history called.
    CallRow,
    /// Column: player 1's bid sequence, by the history right after it.
    BidColumn,
    /// Column: player 1's call, by the history called.
    CallColumn,
    /// Column: player 2's information-set value (hand, history), free.
    Value,
}

/// What one round adds to the LP: the rows new this round (numbered from
/// `first_new_row`) and the new columns.
struct Growth {
    first_new_row: usize,
    rows: Vec<NewRow>,
    columns: Vec<NewColumn>,
}

/// The key of a row or column: its part, hand and history.
fn key(part: Part, hand: usize, history: History) -> u64 {
    (part as u64) << 40 | (hand as u64) << 32 | u64::from(history.0)
}

/// The restricted LP of the double oracle, kept between rounds: the
/// restricted game only grows, so every row and column of one round's LP
/// is in the next one's with the same coefficients (a coefficient stands
/// between a row and a column exactly when both exist), and a round adds
/// the new rows (with their coefficients on the old columns) and the new
/// columns. Re-solving starts from the last optimal basis
/// ([`GrowingLp`]).
///
/// The LP is that of [`super::super::lp`] on the restricted tree: player 1
/// maximises over his realisation plan, player 2's information-set values
/// are free, one row per information set of player 1 and per sequence of
/// player 2; player 2's plan is the duals of his sequence rows.
#[derive(Debug)]
pub struct RestrictedLp {
    lp: GrowingLp,
    rows: HashMap<u64, usize>,
    columns: HashMap<u64, usize>,
    options: super::super::LpOptions,
}

impl RestrictedLp {
    /// An empty LP.
    ///
    /// # Errors
    /// HiGHS cannot be set up.
    pub fn new(options: super::super::LpOptions) -> Result<RestrictedLp> {
        Ok(RestrictedLp {
            lp: GrowingLp::new(options)?,
            rows: HashMap::new(),
            columns: HashMap::new(),
            options,
        })
    }

    /// Start again from an empty LP (the cold solve each round that a warm
    /// start is measured against).
    ///
    /// # Errors
    /// As [`RestrictedLp::new`].
    pub fn reset(&mut self) -> Result<()> {
        *self = RestrictedLp::new(self.options)?;
        Ok(())
    }

    /// Go on by the dual simplex (`options`, the simplex's) from a basis
    /// a crossover finds from the last interior point solution, the LP
    /// unchanged since ([`GrowingLp::continue_by_simplex`]); where the
    /// crossover ends without a basis, from a fresh LP, as before. Returns
    /// whether the basis was found.
    ///
    /// # Errors
    /// As [`RestrictedLp::new`], or HiGHS fails in the crossover.
    pub fn continue_by_simplex(&mut self, options: super::super::LpOptions) -> Result<bool> {
        self.options = options;
        if self.lp.continue_by_simplex()? {
            return Ok(true);
        }
        self.reset()?;
        Ok(false)
    }

    /// Finish by the interior point method with crossover
    /// ([`GrowingLp::finish_by_interior_point`]; `options`, with crossover).
    ///
    /// # Errors
    /// HiGHS refuses the options.
    pub fn finish_by_interior_point(&mut self, options: super::super::LpOptions) -> Result<()> {
        self.options = options;
        self.lp.finish_by_interior_point()
    }

    fn row(
        &mut self,
        part: Part,
        hand: usize,
        history: History,
        rhs: (f64, f64),
        new: &mut Vec<NewRow>,
    ) {
        let next = self.rows.len();
        self.rows
            .entry(key(part, hand, history))
            .or_insert_with(|| {
                new.push(NewRow {
                    bounds: rhs,
                    entries: Vec::new(),
                });
                next
            });
    }

    fn row_of(&self, part: Part, hand: usize, history: History) -> Result<usize> {
        self.rows
            .get(&key(part, hand, history))
            .copied()
            .ok_or_else(|| {
                Error::Internal(format!("no {part:?} row for hand {hand} after {history:?}"))
            })
    }

    /// Add `entries` as the column (`part`, `hand`, `history`): a new
    /// column whole, an old one's coefficients on the rows new this round.
    fn column(
        &mut self,
        (part, hand, history): (Part, usize, History),
        cost: f64,
        bounds: (f64, f64),
        entries: &[(usize, f64)],
        growth: &mut Growth,
    ) {
        let next = self.columns.len();
        match self.columns.get(&key(part, hand, history)) {
            Some(&column) => {
                let first = growth.first_new_row;
                for &(row, value) in entries.iter().filter(|e| e.0 >= first) {
                    growth.rows[row - first].entries.push((column, value));
                }
            }
            None => {
                self.columns.insert(key(part, hand, history), next);
                growth.columns.push(NewColumn {
                    cost,
                    bounds,
                    entries: entries.to_vec(),
                });
            }
        }
    }

    /// Bring the LP up to `tree`, solve it, and read both players'
    /// behaviour from its primal and dual solution.
    ///
    /// # Errors
    /// HiGHS refuses the model or ends with any status but optimal.
    pub fn solve(
        &mut self,
        restricted: &RestrictedGame,
        tree: &[TreeNode],
        payoffs: &CallPayoffs,
    ) -> Result<RestrictedSolution> {
        let game = restricted.game;
        let (one, two) = (Player::One, Player::Two);
        let weight = |i: usize, j: usize| {
            f64::from(payoffs.weight(one, i)) * f64::from(payoffs.weight(two, j))
        };
        let first_new_row = self.rows.len();
        let mut new_rows = Vec::new();
        // Rows: player 1's information sets, player 2's sequences.
        for node in tree {
            let h = node.history;
            if game.to_move(h) == one {
                let rhs = if h.is_empty() { 1.0 } else { 0.0 };
                for i in node.reach[0].iter() {
                    self.row(Part::Infoset, i, h, (rhs, rhs), &mut new_rows);
                }
            } else {
                for &(action, hands) in restricted.actions(h) {
                    for j in node.reach[1].and(hands).iter() {
                        let (part, at) = match action {
                            Action::Call => (Part::CallRow, h),
                            Action::Bid(b) => (Part::BidRow, h.then(b)),
                        };
                        self.row(part, j, at, (f64::NEG_INFINITY, 0.0), &mut new_rows);
                    }
                }
            }
        }
        let mut growth = Growth {
            first_new_row,
            rows: new_rows,
            columns: Vec::new(),
        };
        let mut entries: Vec<(usize, f64)> = Vec::new();
        let free = (f64::NEG_INFINITY, f64::INFINITY);
        // Columns of player 1's sequences.
        for node in tree {
            let h = node.history;
            if game.to_move(h) != one {
                continue;
            }
            for &(action, hands) in restricted.actions(h) {
                for i in node.reach[0].and(hands).iter() {
                    entries.clear();
                    entries.push((self.row_of(Part::Infoset, i, h)?, 1.0));
                    let (part, at) = match action {
                        Action::Call => {
                            // Against player 2's bid sequences ending here.
                            for j in node.reach[1].iter() {
                                let pay = f64::from(payoffs.payoff(game, h, i, j)) * weight(i, j);
                                entries.push((self.row_of(Part::BidRow, j, h)?, -pay));
                            }
                            (Part::CallColumn, h)
                        }
                        Action::Bid(b) => {
                            let g = h.then(b);
                            // Player 1's information sets after player 2's
                            // raises, and player 2's calls of this bid.
                            for &(reply, replying) in restricted.actions(g) {
                                match reply {
                                    Action::Bid(c) if !node.reach[1].and(replying).is_empty() => {
                                        entries.push((
                                            self.row_of(Part::Infoset, i, g.then(c))?,
                                            -1.0,
                                        ));
                                    }
                                    _ => {}
                                }
                            }
                            for j in node.reach[1].iter() {
                                if let Some(&row) = self.rows.get(&key(Part::CallRow, j, g)) {
                                    let pay =
                                        f64::from(payoffs.payoff(game, g, i, j)) * weight(i, j);
                                    entries.push((row, -pay));
                                }
                            }
                            (Part::BidColumn, g)
                        }
                    };
                    self.column(
                        (part, i, at),
                        0.0,
                        (0.0, f64::INFINITY),
                        &entries,
                        &mut growth,
                    );
                }
            }
        }
        // Columns of player 2's information-set values, free.
        for node in tree {
            let h = node.history;
            if game.to_move(h) != two {
                continue;
            }
            for j in node.reach[1].iter() {
                entries.clear();
                for &(action, hands) in restricted.actions(h) {
                    if hands.contains(j) {
                        let own = match action {
                            Action::Call => self.row_of(Part::CallRow, j, h)?,
                            Action::Bid(b) => self.row_of(Part::BidRow, j, h.then(b))?,
                        };
                        entries.push((own, 1.0));
                    }
                }
                let root = h.len() < 2;
                if !root {
                    entries.push((self.row_of(Part::BidRow, j, h.parent())?, -1.0));
                }
                let cost = if root { 1.0 } else { 0.0 };
                self.column((Part::Value, j, h), cost, free, &entries, &mut growth);
            }
        }
        self.lp.add_rows(&growth.rows)?;
        self.lp.add_columns(&growth.columns)?;
        let solving = Instant::now();
        let (objective, primal, duals) = self.lp.solve()?;
        let highs_time = solving.elapsed();
        let rolls =
            f64::from(game.hands(one).total_weight()) * f64::from(game.hands(two).total_weight());
        let value = objective / rolls;

        let mut play = [
            ExtendedPlay::default_everywhere(game, one),
            ExtendedPlay::default_everywhere(game, two),
        ];
        let mut weights = Vec::new();
        let mut all_weights = Vec::new();
        for node in tree {
            let h = node.history;
            let mover = game.to_move(h);
            for i in node.reach[mover.index()].iter() {
                weights.clear();
                for &(action, hands) in restricted.actions(h) {
                    if !hands.contains(i) {
                        continue;
                    }
                    let (part, at) = match (mover, action) {
                        (Player::One, Action::Call) => (Part::CallColumn, h),
                        (Player::One, Action::Bid(b)) => (Part::BidColumn, h.then(b)),
                        (Player::Two, Action::Call) => (Part::CallRow, h),
                        (Player::Two, Action::Bid(b)) => (Part::BidRow, h.then(b)),
                    };
                    let w = match mover {
                        Player::One => self.columns.get(&key(part, i, at)).map(|&c| primal[c]),
                        Player::Two => self.rows.get(&key(part, i, at)).map(|&r| duals[r].abs()),
                    };
                    let w = w.expect_internal("sequence of an included action")?;
                    weights.push((action, w));
                    all_weights.push((h, action, i as u8, w.abs()));
                }
                play[mover.index()].set_from_weights(h, i, &weights);
            }
        }
        Ok(RestrictedSolution {
            value,
            play,
            size: LpSize {
                rows: self.lp.rows() as u64,
                columns: self.lp.columns() as u64,
                nonzeros: self.lp.nonzeros(),
            },
            nodes: tree.len(),
            iterations: self.lp.iterations(),
            ipm_iterations: self.lp.ipm_iterations(),
            highs_time,
            weights: all_weights,
        })
    }
}

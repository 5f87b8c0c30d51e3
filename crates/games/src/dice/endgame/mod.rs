//! The two-player Liar's Dice endgame (`docs/liars-dice.md`):
//! player 1 holds `a` dice, player 2 holds `b`, each die has `s` sides; one
//! round of strictly rising bids ends when a player calls "liar".
//!
//! This module is the game as a query needs it: the rules ([`Endgame`]),
//! the bids in their order ([`EndgameBid`]), the public bid histories
//! ([`History`], a set of bid indices, since bids only rise), the hands as
//! sorted multisets with their chance weights ([`Hands`]), the payoff of a
//! call, and behaviour strategies ([`Strategy`]) with the equilibrium
//! posterior over the opponent's hand that they imply. The solver that finds
//! the equilibrium (a sequence-form LP) and the best-response certificate
//! live in the root crate; the lookup crate loads their tables.
//!
//! ```
//! use gametab_games::dice::endgame::{Action, Endgame, History, Player};
//!
//! // 1 die against 1 die, two sides: bids 1x1 < 1x2 < 2x1 < 2x2.
//! let game = Endgame::new(1, 1, 2, false)?;
//! assert_eq!(game.bid_count(), 4);
//! let opening = History::EMPTY;
//! assert_eq!(game.to_move(opening), Player::One);
//! assert_eq!(game.actions(opening).count(), 4); // no call before a bid
//! let after = game.history_of("1x2")?;
//! assert_eq!(game.to_move(after), Player::Two);
//! assert_eq!(game.actions(after).next(), Some(Action::Call));
//! # Ok::<(), gametab_games::Error>(())
//! ```

mod hands;
mod strategy;

pub use hands::{Hand, Hands};
pub use strategy::{Posterior, Strategy, MAX_STRATEGY_SLOTS};

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Most sides a die may have.
pub const MAX_SIDES: u8 = 6;

/// Most dice one player may hold.
pub const MAX_DICE: u8 = 4;

/// Most distinct bids a game may have: histories are subsets of the bids,
/// held in a `u32`, and strategies are dense over them.
pub const MAX_BIDS: u32 = 24;

/// One of the two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    /// The player who opens (holds `a` dice).
    One,
    /// The player who answers the opening (holds `b` dice).
    Two,
}

impl Player {
    /// Both players, player 1 first.
    pub const BOTH: [Player; 2] = [Player::One, Player::Two];

    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 1 or 2.
    pub fn number(self) -> u8 {
        match self {
            Player::One => 1,
            Player::Two => 2,
        }
    }

    /// The player numbered `n` (1 or 2).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for any other number.
    pub fn from_number(n: u32) -> Result<Player> {
        match n {
            1 => Ok(Player::One),
            2 => Ok(Player::Two),
            _ => Err(Error::OutOfRange {
                what: crate::Argument::Player,
                detail: format!("{n} (the endgame has players 1 and 2)"),
            }),
        }
    }

    /// 0 for player 1, 1 for player 2 (an index into per-player arrays).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A bid "at least `count` dice show `face`".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct EndgameBid {
    /// How many dice, at least 1.
    pub count: u8,
    /// Which face.
    pub face: u8,
}

impl fmt::Display for EndgameBid {
    /// `COUNTxFACE`, e.g. `2x5` for "two fives".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.count, self.face)
    }
}

impl EndgameBid {
    /// Parse `COUNTxFACE` (`2x5`) or the two-digit form `25` (count, then
    /// face).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] naming the text when it is neither form.
    pub fn parse(text: &str) -> Result<EndgameBid> {
        let text = text.trim();
        let bad = || Error::OutOfRange {
            what: crate::Argument::Bid,
            detail: format!("'{text}' (write a bid as COUNTxFACE, e.g. 2x5, or as two digits, 25)"),
        };
        let (count, face) = match text.split_once(['x', 'X']) {
            Some((count, face)) => (count.trim(), face.trim()),
            None if text.len() == 2 && text.is_ascii() => (&text[..1], &text[1..]),
            None => return Err(bad()),
        };
        let count: u8 = count.parse().map_err(|_| bad())?;
        let face: u8 = face.parse().map_err(|_| bad())?;
        Ok(EndgameBid { count, face })
    }
}

/// A move: call "liar" on the last bid, or bid the bid of this index (see
/// [`Endgame::bid`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Call "liar": the dice are revealed and the game ends.
    Call,
    /// Raise to the bid of this index.
    Bid(u8),
}

/// The public bids so far. Bids strictly rise, so the history is the set of
/// the indices of the bids made, a bit set over [`Endgame::bid`] indices;
/// the empty set is the opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct History(pub u32);

impl History {
    /// No bid yet: player 1 must open.
    pub const EMPTY: History = History(0);

    /// Bids made so far.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether no bid was made yet.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Index of the last (highest) bid, if any.
    pub fn last(self) -> Option<u8> {
        (self.0 != 0).then(|| (31 - self.0.leading_zeros()) as u8)
    }

    /// The history after bidding `bid` (which must exceed the last bid).
    pub fn then(self, bid: u8) -> History {
        History(self.0 | 1 << bid)
    }

    /// The history without its last bid (the empty history stays empty).
    pub fn parent(self) -> History {
        match self.last() {
            Some(last) => History(self.0 & !(1 << last)),
            None => self,
        }
    }

    /// The bid indices in the order they were made.
    pub fn bids(self) -> impl Iterator<Item = u8> {
        (0..32u8).filter(move |&i| self.0 >> i & 1 == 1)
    }
}

/// The rules of one endgame: dice of each player, sides, wild ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Endgame {
    dice: [u8; 2],
    sides: u8,
    wild: bool,
}

impl Endgame {
    /// `a` dice for player 1 against `b` for player 2, `sides` sides, ones
    /// wild or not.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a player without dice or with more than
    /// [`MAX_DICE`], sides outside 1..=[`MAX_SIDES`] (2..= with wild ones,
    /// which bid on faces 2 and up), or more than [`MAX_BIDS`] bids.
    pub fn new(a: u8, b: u8, sides: u8, wild: bool) -> Result<Endgame> {
        for (what, dice) in [
            (crate::Argument::PlayerOnesDice, a),
            (crate::Argument::PlayerTwosDice, b),
        ] {
            if !(1..=MAX_DICE).contains(&dice) {
                return Err(Error::OutOfRange {
                    what,
                    detail: format!("{dice} (1 to {MAX_DICE})"),
                });
            }
        }
        let lowest = if wild { 2 } else { 1 };
        if !(lowest..=MAX_SIDES).contains(&sides) {
            return Err(Error::OutOfRange {
                what: crate::Argument::Sides,
                detail: format!(
                    "{sides} ({lowest} to {MAX_SIDES}{})",
                    if wild { " with wild ones" } else { "" }
                ),
            });
        }
        let game = Endgame {
            dice: [a, b],
            sides,
            wild,
        };
        if game.bid_count() > MAX_BIDS {
            return Err(Error::OutOfRange {
                what: crate::Argument::Endgame,
                detail: format!(
                    "{game} has {} bids; at most {MAX_BIDS} are supported",
                    game.bid_count()
                ),
            });
        }
        Ok(game)
    }

    /// Dice of `player`.
    pub fn dice(self, player: Player) -> u8 {
        self.dice[player.index()]
    }

    /// All dice on the table.
    pub fn total_dice(self) -> u8 {
        self.dice[0] + self.dice[1]
    }

    /// Sides of every die.
    pub fn sides(self) -> u8 {
        self.sides
    }

    /// Whether ones are wild.
    pub fn wild(self) -> bool {
        self.wild
    }

    /// `normal` or `wild`, as in the tables.
    pub fn rules_name(self) -> &'static str {
        if self.wild {
            "wild"
        } else {
            "normal"
        }
    }

    /// The lowest face one may bid on (2 with wild ones, else 1).
    pub fn lowest_bid_face(self) -> u8 {
        if self.wild {
            2
        } else {
            1
        }
    }

    /// Faces one may bid on.
    pub fn bid_faces(self) -> u32 {
        u32::from(self.sides - self.lowest_bid_face() + 1)
    }

    /// Number of distinct bids: counts 1..=a+b times the bid faces.
    pub fn bid_count(self) -> u32 {
        u32::from(self.total_dice()) * self.bid_faces()
    }

    /// Number of histories (every subset of the bids).
    pub fn history_count(self) -> usize {
        1 << self.bid_count()
    }

    /// The bid of `index`; indices follow the bid order (count, then face).
    pub fn bid(self, index: u8) -> EndgameBid {
        let faces = self.bid_faces() as u8;
        EndgameBid {
            count: index / faces + 1,
            face: index % faces + self.lowest_bid_face(),
        }
    }

    /// The index of `bid`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a count outside 1..=a+b or a face one may
    /// not bid on.
    pub fn bid_index(self, bid: EndgameBid) -> Result<u8> {
        if !(1..=self.total_dice()).contains(&bid.count) {
            return Err(Error::OutOfRange {
                what: crate::Argument::Bid,
                detail: format!("{bid}: the count must be 1 to {}", self.total_dice()),
            });
        }
        if !(self.lowest_bid_face()..=self.sides).contains(&bid.face) {
            return Err(Error::OutOfRange {
                what: crate::Argument::Bid,
                detail: format!(
                    "{bid}: the face must be {} to {}{}",
                    self.lowest_bid_face(),
                    self.sides,
                    if self.wild { " (ones are wild)" } else { "" }
                ),
            });
        }
        Ok((bid.count - 1) * self.bid_faces() as u8 + bid.face - self.lowest_bid_face())
    }

    /// The player to move after `history`: player 1 moves after an even
    /// number of bids.
    pub fn to_move(self, history: History) -> Player {
        if history.len().is_multiple_of(2) {
            Player::One
        } else {
            Player::Two
        }
    }

    /// The legal moves after `history`, call first, then the bids upwards.
    /// There is no call before the first bid; after the highest bid the call
    /// is the only move.
    pub fn actions(self, history: History) -> impl Iterator<Item = Action> {
        let first_bid = history.last().map_or(0, |last| last + 1);
        let call = (!history.is_empty()).then_some(Action::Call);
        call.into_iter()
            .chain((first_bid..self.bid_count() as u8).map(Action::Bid))
    }

    /// Whether `action` is one of [`Endgame::actions`] after `history`,
    /// without walking them: the call after any bid, a bid above the last.
    pub fn is_legal(self, history: History, action: Action) -> bool {
        match action {
            Action::Call => !history.is_empty(),
            Action::Bid(bid) => {
                history.last().is_none_or(|last| bid > last) && u32::from(bid) < self.bid_count()
            }
        }
    }

    /// Whether the last bid of `history` holds with these hands; `None` for
    /// the empty history.
    pub fn last_bid_true(self, history: History, hands: [&Hand; 2]) -> Option<bool> {
        let bid = self.bid(history.last()?);
        let shown: u32 = hands
            .iter()
            .map(|hand| hand.matching(bid.face, self.wild))
            .sum();
        Some(shown >= u32::from(bid.count))
    }

    /// Player 1's payoff when the player to move calls after `history`
    /// (`+1` if player 1 wins, `-1` if he loses): a true bid makes the caller
    /// lose, a false one the bidder. `None` for the empty history (no call).
    pub fn call_payoff(self, history: History, hands: [&Hand; 2]) -> Option<i8> {
        let caller = self.to_move(history);
        let caller_loses = self.last_bid_true(history, hands)?;
        let player_one_wins = caller_loses == (caller == Player::Two);
        Some(if player_one_wins { 1 } else { -1 })
    }

    /// Parse a bid history written as bids separated by commas (`1x5,1x6`
    /// or `15,16`); the empty text is the opening.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bid that does not parse or is not a bid
    /// of this game, and for bids that do not strictly rise.
    pub fn history_of(self, text: &str) -> Result<History> {
        let mut history = History::EMPTY;
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let bid = EndgameBid::parse(part)?;
            let index = self.bid_index(bid)?;
            if history.last().is_some_and(|last| index <= last) {
                return Err(Error::OutOfRange {
                    what: crate::Argument::History,
                    detail: format!(
                        "'{text}': {bid} does not raise {} (bids must strictly rise)",
                        self.bid(history.last().unwrap_or(0))
                    ),
                });
            }
            history = history.then(index);
        }
        Ok(history)
    }

    /// The history as text, bids `COUNTxFACE` separated by commas (empty for
    /// the opening); [`Endgame::history_of`] reads it back.
    pub fn history_text(self, history: History) -> String {
        let bids: Vec<String> = history.bids().map(|b| self.bid(b).to_string()).collect();
        bids.join(",")
    }

    /// The integer code of `action` in the tables: 0 for the call,
    /// `10 * count + face` for a bid (`25` is `2x5`). Codes rise as the
    /// actions do in table order: the call, then the bids upwards.
    pub fn action_code(self, action: Action) -> i32 {
        match action {
            Action::Call => 0,
            Action::Bid(b) => {
                let bid = self.bid(b);
                10 * i32::from(bid.count) + i32::from(bid.face)
            }
        }
    }

    /// The action of the table code `code` ([`Endgame::action_code`]).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a code that is neither 0 nor a bid of this
    /// game.
    pub fn action_of_code(self, code: i32) -> Result<Action> {
        if code == 0 {
            return Ok(Action::Call);
        }
        let bad = || Error::OutOfRange {
            what: crate::Argument::Action,
            detail: format!("code {code} (0 for the call, 10 * count + face for a bid)"),
        };
        let (count, face) = (u8::try_from(code / 10), u8::try_from(code % 10));
        match (count, face) {
            (Ok(count), Ok(face)) if code > 0 => self
                .bid_index(EndgameBid { count, face })
                .map(Action::Bid)
                .map_err(|_| bad()),
            _ => Err(bad()),
        }
    }

    /// The hands `player` may hold, with their chance weights.
    pub fn hands(self, player: Player) -> Hands {
        Hands::new(self.dice(player), self.sides)
    }
}

impl fmt::Display for Endgame {
    /// `2v1 6-sided normal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}v{} {}-sided {}",
            self.dice[0],
            self.dice[1],
            self.sides,
            self.rules_name()
        )
    }
}

#[cfg(test)]
mod tests;

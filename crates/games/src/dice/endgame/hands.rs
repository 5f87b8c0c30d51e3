//! A player's hand in the endgame as a sorted multiset of faces, and every
//! hand of `k` dice with its chance weight (the multinomial count of the
//! ordered rolls that sort to it, out of `s^k`).

use std::fmt;

use crate::error::{Error, Result};

/// Faces of one player's dice, sorted ascending.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hand(Vec<u8>);

impl Hand {
    /// The faces, ascending.
    pub fn faces(&self) -> &[u8] {
        &self.0
    }

    /// Dice that count for a bid on `face`: those showing it, and with wild
    /// ones also the ones (a bid on ones is never made then).
    pub fn matching(&self, face: u8, wild: bool) -> u32 {
        self.0
            .iter()
            .filter(|&&die| die == face || (wild && die == 1))
            .count() as u32
    }
}

impl Hand {
    /// The hand as one integer, its faces ascending as decimal digits
    /// (`35` for a three and a five), as the tables store it. Hands of the
    /// same number of dice order as their codes do.
    pub fn code(&self) -> i32 {
        self.0
            .iter()
            .fold(0, |code, &face| code * 10 + i32::from(face))
    }
}

impl fmt::Display for Hand {
    /// Faces joined by commas, e.g. `3,5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let faces: Vec<String> = self.0.iter().map(u8::to_string).collect();
        f.write_str(&faces.join(","))
    }
}

/// Every hand of `dice` dice with `sides` sides, in lexicographic order,
/// with its weight: the number of ordered rolls that sort to it. The weights
/// sum to `sides^dice` ([`Hands::total_weight`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hands {
    hands: Vec<Hand>,
    weights: Vec<u32>,
    sides: u8,
}

impl Hands {
    /// All hands of `dice` dice with `sides` sides.
    pub fn new(dice: u8, sides: u8) -> Hands {
        let mut hands = Vec::new();
        let mut current = Vec::with_capacity(dice as usize);
        push_hands(dice, 1, sides, &mut current, &mut hands);
        let weights = hands.iter().map(|hand| multinomial(&hand.0)).collect();
        Hands {
            hands,
            weights,
            sides,
        }
    }

    /// Number of distinct hands.
    pub fn len(&self) -> usize {
        self.hands.len()
    }

    /// Whether there is no hand (never: a player holds at least one die).
    pub fn is_empty(&self) -> bool {
        self.hands.is_empty()
    }

    /// The hand of `index`.
    pub fn hand(&self, index: usize) -> &Hand {
        &self.hands[index]
    }

    /// Every hand, in index order.
    pub fn iter(&self) -> impl Iterator<Item = &Hand> {
        self.hands.iter()
    }

    /// The number of ordered rolls giving hand `index`.
    pub fn weight(&self, index: usize) -> u32 {
        self.weights[index]
    }

    /// The chance of hand `index`: its weight over `sides^dice`.
    pub fn probability(&self, index: usize) -> f64 {
        f64::from(self.weights[index]) / f64::from(self.total_weight())
    }

    /// `sides^dice`, the sum of the weights.
    pub fn total_weight(&self) -> u32 {
        self.weights.iter().sum()
    }

    /// The index of the hand with these faces (in any order).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when the number of dice or a face does not fit
    /// these hands.
    pub fn index_of(&self, faces: &[u8]) -> Result<usize> {
        let mut sorted = faces.to_vec();
        sorted.sort_unstable();
        let dice = self.hands.first().map_or(0, |h| h.0.len());
        if sorted.len() != dice {
            return Err(Error::OutOfRange {
                what: crate::Argument::Hand,
                detail: format!("{} dice given, this player holds {dice}", sorted.len()),
            });
        }
        if let Some(&bad) = sorted.iter().find(|&&f| f == 0 || f > self.sides) {
            return Err(Error::OutOfRange {
                what: crate::Argument::Hand,
                detail: format!("face {bad} (the dice have sides 1 to {})", self.sides),
            });
        }
        let hand = Hand(sorted);
        self.hands
            .binary_search(&hand)
            .map_err(|_| Error::Inconsistent(format!("hand {hand} is not enumerated")))
    }
}

impl Hands {
    /// The index of the hand whose [`Hand::code`] is `code`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when no hand of these has that code.
    pub fn index_of_code(&self, code: i32) -> Result<usize> {
        self.hands
            .binary_search_by_key(&code, Hand::code)
            .map_err(|_| Error::OutOfRange {
                what: crate::Argument::Hand,
                detail: format!("code {code} is no hand of these dice"),
            })
    }
}

fn push_hands(left: u8, from: u8, sides: u8, current: &mut Vec<u8>, out: &mut Vec<Hand>) {
    if left == 0 {
        out.push(Hand(current.clone()));
        return;
    }
    for face in from..=sides {
        current.push(face);
        push_hands(left - 1, face, sides, current, out);
        current.pop();
    }
}

/// `k! / prod(c_f!)` for the face counts `c_f` of a sorted hand.
fn multinomial(sorted: &[u8]) -> u32 {
    let factorial = |n: usize| (1..=n as u32).product::<u32>();
    let mut weight = factorial(sorted.len());
    for run in sorted.chunk_by(|a, b| a == b) {
        weight /= factorial(run.len());
    }
    weight
}

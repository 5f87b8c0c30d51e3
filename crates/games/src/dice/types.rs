//! The domain types of Liar's Dice: faces, bids, the dice in play, my hand,
//! the ones-wild variant and the bidder's reliability.
//!
//! Every constructor validates its input against the rules and returns a
//! typed [`Error`] for anything out of range, so the engine downstream can
//! rely on the invariants (a face is 1..=6, my dice and the bidder's fit on
//! the table, a reliability is a finite non-negative number).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::error::{Error, Result};

/// Faces on a die.
pub const FACES: u8 = 6;

/// The most dice the engine accepts on the whole table. The exact outcome
/// counts of the dice I cannot see (at most `MAX_TOTAL_DICE - 1` of them) are
/// `u128` integers over `6^(N - m)`, and `6^49` is the largest power of six
/// that fits in a `u128`.
pub const MAX_TOTAL_DICE: u32 = 50;

/// One face of a die, 1 to 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(into = "u8")]
pub struct Face(u8);

impl Face {
    /// The face showing one pip: the wild face of the ones-wild variant.
    pub const ONE: Face = Face(1);

    /// The face `pips`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] unless `1 <= pips <= 6`.
    pub fn new(pips: u32) -> Result<Face> {
        match u8::try_from(pips) {
            Ok(p) if (1..=FACES).contains(&p) => Ok(Face(p)),
            _ => Err(Error::OutOfRange {
                what: crate::Argument::Face,
                detail: format!("{pips} (a die shows 1 to 6)"),
            }),
        }
    }

    /// Every face, 1 to 6.
    pub fn all() -> impl Iterator<Item = Face> {
        (1..=FACES).map(Face)
    }

    /// The number of pips, 1 to 6.
    pub fn pips(self) -> u8 {
        self.0
    }

    /// Which class of bid this face makes: on ones or on another face.
    pub fn class(self) -> FaceClass {
        if self == Face::ONE {
            FaceClass::Ones
        } else {
            FaceClass::Other
        }
    }
}

impl From<Face> for u8 {
    fn from(face: Face) -> u8 {
        face.0
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Bids on ones and bids on the other faces differ only in the wild-ones
/// variant, where a 1 also counts for every other face.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FaceClass {
    /// A bid on ones.
    Ones,
    /// A bid on a face from 2 to 6.
    Other,
}

impl FaceClass {
    /// Both classes, in table order.
    pub const ALL: [FaceClass; 2] = [FaceClass::Ones, FaceClass::Other];

    /// The name stored in the tables: `ones` or `other`.
    pub fn name(self) -> &'static str {
        match self {
            FaceClass::Ones => "ones",
            FaceClass::Other => "other",
        }
    }

    /// The class called `name` (`ones` or `other`).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for any other name.
    pub fn from_name(name: &str) -> Result<FaceClass> {
        match name {
            "ones" => Ok(FaceClass::Ones),
            "other" => Ok(FaceClass::Other),
            _ => Err(Error::OutOfRange {
                what: crate::Argument::FaceClass,
                detail: format!("{name:?} (expected \"ones\" or \"other\")"),
            }),
        }
    }
}

/// Which rules count a die as matching a bid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// A die matches only its own face.
    Plain,
    /// Ones are wild: a 1 also matches every face 2..6 (until somebody bids
    /// on ones; see [`Variant::after_bid`]).
    WildOnes,
}

impl Variant {
    /// The variant with or without wild ones.
    pub fn from_wild_ones(wild_ones: bool) -> Variant {
        if wild_ones {
            Variant::WildOnes
        } else {
            Variant::Plain
        }
    }

    /// Whether ones are wild.
    pub fn wild_ones(self) -> bool {
        self == Variant::WildOnes
    }

    /// The rules that hold once `face` has been bid: a bid on ones ends the
    /// wildness of ones for the rest of the round.
    pub fn after_bid(self, face: Face) -> Variant {
        if face == Face::ONE {
            Variant::Plain
        } else {
            self
        }
    }

    /// How many of the six faces of a hidden die count for a bid of class
    /// `class`: 2 for faces 2..6 while ones are wild (the face and the 1),
    /// otherwise 1.
    pub fn matching_faces(self, class: FaceClass) -> MatchingFaces {
        match (self, class) {
            (Variant::WildOnes, FaceClass::Other) => MatchingFaces(2),
            _ => MatchingFaces(1),
        }
    }

    /// Whether one die showing `die` counts for a bid on `bid_face`.
    pub fn counts_for(self, die: Face, bid_face: Face) -> bool {
        die == bid_face || (self.wild_ones() && die == Face::ONE)
    }
}

/// How many of the six equally likely faces of a hidden die count for the bid
/// (1 or 2): the chance a hidden die matches is `faces / 6`, kept as an
/// integer so that outcome counts stay exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct MatchingFaces(u8);

impl MatchingFaces {
    /// Faces of a die that count for the bid.
    pub fn count(self) -> u8 {
        self.0
    }

    /// The chance that one hidden die matches: `count / 6`.
    pub fn probability(self) -> f64 {
        f64::from(self.0) / f64::from(FACES)
    }
}

/// A bid: "at least `count` dice on the whole table show `face`".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Bid {
    /// How many dice the bid claims (at least 1).
    pub count: u32,
    /// The face the bid is on.
    pub face: Face,
}

impl Bid {
    /// The bid "at least `count` × `face`".
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a count of 0.
    pub fn new(count: u32, face: Face) -> Result<Bid> {
        if count == 0 {
            return Err(Error::OutOfRange {
                what: crate::Argument::BidCount,
                detail: "0 (a bid claims at least one die)".to_string(),
            });
        }
        Ok(Bid { count, face })
    }

    /// Whether `self` is a legal raise over `current`: more dice, or as many
    /// dice on a higher face.
    pub fn raises(self, current: Bid) -> bool {
        self.count > current.count || (self.count == current.count && self.face > current.face)
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.count, self.face)
    }
}

impl FromStr for Bid {
    type Err = Error;

    /// Parse `COUNTxFACE`, e.g. `5x5` for "five fives".
    fn from_str(text: &str) -> Result<Bid> {
        let bad = || Error::OutOfRange {
            what: crate::Argument::Bid,
            detail: format!("{text:?} (write COUNTxFACE, e.g. 5x5 for five fives)"),
        };
        let (count, face) = text.split_once(['x', 'X']).ok_or_else(bad)?;
        let count: u32 = count.trim().parse().map_err(|_| bad())?;
        let face: u32 = face.trim().parse().map_err(|_| bad())?;
        Bid::new(count, Face::new(face)?)
    }
}

/// The dice in play, seen from my seat: all dice `N`, mine `m`, and the
/// bidder's `n_b`. The other players hold the remaining `N - m - n_b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct DiceInPlay {
    total: u32,
    mine: u32,
    bidder: u32,
}

impl DiceInPlay {
    /// `total` dice on the table, `mine` of them mine and `bidder` of them
    /// the bidder's.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when I or the bidder hold no die or `total`
    /// exceeds [`MAX_TOTAL_DICE`]; [`Error::Inconsistent`] when my dice and
    /// the bidder's are more than the dice that exist.
    pub fn new(total: u32, mine: u32, bidder: u32) -> Result<DiceInPlay> {
        if mine == 0 {
            return Err(Error::OutOfRange {
                what: crate::Argument::MyDice,
                detail: "0 (a player without dice is out of the game)".to_string(),
            });
        }
        if bidder == 0 {
            return Err(Error::OutOfRange {
                what: crate::Argument::BiddersDice,
                detail: "0 (a player without dice is out of the game)".to_string(),
            });
        }
        if total > MAX_TOTAL_DICE {
            return Err(Error::OutOfRange {
                what: crate::Argument::TotalDice,
                detail: format!("{total} (at most {MAX_TOTAL_DICE})"),
            });
        }
        if u64::from(mine) + u64::from(bidder) > u64::from(total) {
            return Err(Error::Inconsistent(format!(
                "my {mine} dice and the bidder's {bidder} are more than the {total} dice that exist"
            )));
        }
        Ok(DiceInPlay {
            total,
            mine,
            bidder,
        })
    }

    /// All dice on the table, `N`.
    pub fn total(self) -> u32 {
        self.total
    }

    /// My dice, `m`.
    pub fn mine(self) -> u32 {
        self.mine
    }

    /// The bidder's dice, `n_b`.
    pub fn bidder(self) -> u32 {
        self.bidder
    }

    /// The dice I cannot see, `N - m`.
    pub fn hidden_from_me(self) -> u32 {
        self.total - self.mine
    }

    /// The dice held by neither me nor the bidder, `N - m - n_b`.
    pub fn others(self) -> u32 {
        self.total - self.mine - self.bidder
    }

    /// Check that `bid` can be made with these dice (1 to `N` dice).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bid on more dice than exist.
    pub fn check_bid(self, bid: Bid) -> Result<()> {
        check_bid_count(bid.count, self.total)
    }
}

/// Check that a bid on `count` dice fits on a table of `total` dice.
pub(crate) fn check_bid_count(count: u32, total: u32) -> Result<()> {
    if count == 0 || count > total {
        return Err(Error::OutOfRange {
            what: crate::Argument::BidCount,
            detail: format!("{count} (a bid claims 1 to {total} dice, the dice that exist)"),
        });
    }
    Ok(())
}

/// The bidder's reliability `rel >= 0`: large means he bids only what he
/// holds, small that he bluffs; 0 ignores his bid (the posterior is the
/// prior).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize)]
#[serde(into = "f64")]
pub struct Reliability(f64);

impl Reliability {
    /// A reliability of `rel`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a negative, infinite or NaN value.
    pub fn new(rel: f64) -> Result<Reliability> {
        if rel.is_finite() && rel >= 0.0 {
            // -0.0 and 0.0 are the same reliability; keep one bit pattern so
            // that table keys compare equal.
            Ok(Reliability(rel + 0.0))
        } else {
            Err(Error::OutOfRange {
                what: crate::Argument::Reliability,
                detail: format!("{rel} (a finite number >= 0)"),
            })
        }
    }

    /// The value.
    pub fn value(self) -> f64 {
        self.0
    }
}

impl From<Reliability> for f64 {
    fn from(rel: Reliability) -> f64 {
        rel.0
    }
}

/// My own dice, sorted, as I see them. It reads and serialises as its
/// faces joined by commas (`1,2,3,5,5`), the one spelling of a hand in
/// every command, endpoint and document.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Hand(Vec<Face>);

impl Serialize for Hand {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Hand {
    /// A hand of `faces` (any order; kept sorted).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for an empty hand or one of more than
    /// [`MAX_TOTAL_DICE`] dice.
    pub fn new(mut faces: Vec<Face>) -> Result<Hand> {
        if faces.is_empty() || faces.len() > MAX_TOTAL_DICE as usize {
            return Err(Error::OutOfRange {
                what: crate::Argument::MyDice,
                detail: format!("{} dice (1 to {MAX_TOTAL_DICE})", faces.len()),
            });
        }
        faces.sort_unstable();
        Ok(Hand(faces))
    }

    /// The dice, sorted ascending.
    pub fn faces(&self) -> &[Face] {
        &self.0
    }

    /// How many dice I hold, `m`.
    pub fn len(&self) -> u32 {
        self.0.len() as u32
    }

    /// Always false: a hand holds at least one die.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many of my dice count for a bid on `face` under `variant`: `k`.
    pub fn matching(&self, face: Face, variant: Variant) -> u32 {
        self.0
            .iter()
            .filter(|&&die| variant.counts_for(die, face))
            .count() as u32
    }

    /// The decimal code of the sorted dice, e.g. `12355`: the hand column
    /// of the decisions table (digits ascending, so codes sort like hands).
    /// `None` for a hand of more than nine dice.
    pub fn code(&self) -> Option<u32> {
        self.0.iter().try_fold(0u32, |code, face| {
            code.checked_mul(10)?.checked_add(u32::from(face.pips()))
        })
    }
}

impl FromStr for Hand {
    type Err = Error;

    /// Parse comma-separated faces, e.g. `1,5,5,2,3`.
    fn from_str(text: &str) -> Result<Hand> {
        let faces = text
            .split(',')
            .map(|part| {
                let pips: u32 = part.trim().parse().map_err(|_| Error::OutOfRange {
                    what: crate::Argument::MyDice,
                    detail: format!("{part:?} in {text:?} is not a face (write e.g. 1,5,5,2,3)"),
                })?;
                Face::new(pips)
            })
            .collect::<Result<Vec<_>>>()?;
        Hand::new(faces)
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, face) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{face}")?;
        }
        Ok(())
    }
}

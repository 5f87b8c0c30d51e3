//! Batch evaluation for the table builders: the rows of one block of a
//! table share most of their work (the exact tails of the hidden dice, the
//! bidder's prior, the posterior after each bid count), so it is done once
//! per block here instead of once per row.
//!
//! Every value equals the single-query engine's ([`bid_odds`],
//! [`bidder_posterior`], [`published_rule`]) bit for bit: both paths run the
//! same functions on the same inputs in the same order, only the shared
//! parts are kept instead of recomputed. The tests below check this over a
//! grid of tables.
//!
//! [`bid_odds`]: super::bid_odds
//! [`bidder_posterior`]: super::bidder_posterior
//! [`published_rule`]: super::published_rule

use super::decision::{choose_published, published_raise_value, published_raises};
use super::exact::{normal_approximation, TailProbabilities};
use super::model::{
    corrected_from_tails, ev_open, BidderPosterior, PosteriorPrior, PosteriorQuestion,
};
use super::tables::{BidRow, DecisionRow};
use super::types::{
    check_bid_count, Bid, DiceInPlay, Face, FaceClass, Hand, MatchingFaces, Reliability, Variant,
};
use crate::error::{Error, Result};

/// The bidder's posterior after every bid count `1..=N` on one table under
/// one rule set and reliability: [`bidder_posterior`](super::bidder_posterior)
/// of each, computed from one shared prior.
#[derive(Debug, Clone, PartialEq)]
pub struct BidderPosteriors {
    total_dice: u32,
    bidder_dice: u32,
    matching: MatchingFaces,
    /// `posteriors[q - 1]` for `q = 1..=N`.
    posteriors: Vec<BidderPosterior>,
}

impl BidderPosteriors {
    /// The posteriors of a bidder holding `bidder_dice` of `total_dice`.
    ///
    /// # Errors
    /// As [`PosteriorQuestion::new`].
    pub fn new(
        total_dice: u32,
        bidder_dice: u32,
        variant: Variant,
        class: FaceClass,
        reliability: Reliability,
    ) -> Result<BidderPosteriors> {
        let question =
            PosteriorQuestion::new(total_dice, bidder_dice, variant, class, 1, reliability)?;
        let matching = question.matching_faces();
        let prior = PosteriorPrior::new(total_dice, bidder_dice, matching, reliability);
        Ok(BidderPosteriors {
            total_dice,
            bidder_dice,
            matching,
            posteriors: (1..=total_dice).map(|q| prior.posterior(q)).collect(),
        })
    }

    /// The posterior after a bid on `bid_count` dice, `None` outside `1..=N`.
    pub fn get(&self, bid_count: u32) -> Option<&BidderPosterior> {
        let index = usize::try_from(bid_count.checked_sub(1)?).ok()?;
        self.posteriors.get(index)
    }

    /// Every bid count with its posterior, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &BidderPosterior)> + '_ {
        (1..).zip(&self.posteriors)
    }
}

/// The parts of the bid-probability rows of one table seen from my seat
/// that do not depend on the bidder's reliability: the exact tails of the
/// dice I cannot see and of the others' dice, and the normal approximation,
/// for bids on which `matching` faces of a die count.
#[derive(Debug, Clone, PartialEq)]
pub struct BidTails {
    dice: DiceInPlay,
    matching: MatchingFaces,
    /// Tails of the `N - m` dice I cannot see.
    hidden: TailProbabilities,
    /// Tails of the `N - m - n_b` dice of neither me nor the bidder.
    others: TailProbabilities,
    /// The normal approximation for `needed = 0..=N-m+1`.
    normal: Vec<f64>,
}

impl BidTails {
    /// The tails of `dice` for bids matching on `matching` faces.
    pub fn new(dice: DiceInPlay, matching: MatchingFaces) -> BidTails {
        let hidden = dice.hidden_from_me();
        BidTails {
            dice,
            matching,
            hidden: TailProbabilities::of(hidden, matching),
            others: TailProbabilities::of(dice.others(), matching),
            normal: (0..=i64::from(hidden) + 1)
                .map(|needed| normal_approximation(hidden, matching, needed))
                .collect(),
        }
    }

    /// The raw probability `P(X >= needed)` of the dice I cannot see.
    pub fn raw_probability(&self, needed: i64) -> f64 {
        self.hidden.at_least(needed)
    }

    /// The row of the bid on `bid_count` dice when `my_matching` of mine
    /// count, read with the bidder's `posteriors`: equal bit for bit to
    /// [`BidRow::compute`] of the same question.
    ///
    /// # Errors
    /// [`Error::Inconsistent`] when `posteriors` belong to another table or
    /// rule set, or `my_matching` exceeds my dice; [`Error::OutOfRange`] for
    /// a bid count outside `1..=N`.
    pub fn row(
        &self,
        posteriors: &BidderPosteriors,
        bid_count: u32,
        my_matching: u32,
    ) -> Result<BidRow> {
        if (
            posteriors.total_dice,
            posteriors.bidder_dice,
            posteriors.matching,
        ) != (self.dice.total(), self.dice.bidder(), self.matching)
        {
            return Err(Error::Inconsistent(format!(
                "posteriors of {} bidder dice of {} matching on {} faces do not fit \
                 tails of {} bidder dice of {} matching on {} faces",
                posteriors.bidder_dice,
                posteriors.total_dice,
                posteriors.matching.count(),
                self.dice.bidder(),
                self.dice.total(),
                self.matching.count()
            )));
        }
        check_bid_count(bid_count, self.dice.total())?;
        if my_matching > self.dice.mine() {
            return Err(Error::Inconsistent(format!(
                "{my_matching} of my dice match the bid, but I hold only {}",
                self.dice.mine()
            )));
        }
        let needed = i64::from(bid_count) - i64::from(my_matching);
        let posterior = &posteriors.posteriors[bid_count as usize - 1];
        let corrected = corrected_from_tails(needed, posterior, &self.others);
        let normal_index = needed.clamp(0, i64::from(self.dice.hidden_from_me()) + 1);
        Ok(BidRow {
            raw_probability: self.hidden.at_least(needed),
            corrected_probability: corrected,
            ev_open: ev_open(corrected),
            normal_approximation: self.normal[normal_index as usize],
        })
    }
}

/// The published rule for every hand and standing bid on one table, under
/// one variant and reliability: the standing bid's odds and the raises' raw
/// probabilities are prepared once, and [`PublishedRuleBlock::advise`]
/// equals [`DecisionRow::compute`] bit for bit.
#[derive(Debug, Clone, PartialEq)]
pub struct PublishedRuleBlock {
    dice: DiceInPlay,
    variant: Variant,
    /// The value of opening the standing bid, `ev_open[c][(q - 1) * (m + 1) + k]`
    /// for a bid on `q` dice of which `k` are mine, `c = 0` for a bid on
    /// ones (which ends the wildness of ones), `c = 1` for the other faces.
    ev_open: [Vec<f64>; 2],
    /// The published value of a raise that still needs `needed` matching
    /// dice among those I cannot see, `values[c - 1][needed]` for a raise on
    /// which `c` faces of a die count (`needed` clamped to `0..=N-m+1`, as
    /// the tails are).
    raise_values: [Vec<f64>; 2],
}

impl PublishedRuleBlock {
    /// The block of `dice` under `variant` with the bidder's `reliability`.
    ///
    /// # Errors
    /// As [`BidderPosteriors::new`].
    pub fn new(
        dice: DiceInPlay,
        variant: Variant,
        reliability: Reliability,
    ) -> Result<PublishedRuleBlock> {
        let open_values = |class: FaceClass| -> Result<Vec<f64>> {
            // The standing bid's rules, as `Situation::standing_question`.
            let rules = match class {
                FaceClass::Ones => variant.after_bid(Face::ONE),
                FaceClass::Other => variant,
            };
            let tails = BidTails::new(dice, rules.matching_faces(class));
            let posteriors =
                BidderPosteriors::new(dice.total(), dice.bidder(), rules, class, reliability)?;
            let mut values = Vec::new();
            for q in 1..=dice.total() {
                for k in 0..=dice.mine() {
                    values.push(tails.row(&posteriors, q, k)?.ev_open);
                }
            }
            Ok(values)
        };
        let hidden = dice.hidden_from_me();
        let raise_values = |matching: MatchingFaces| {
            let tails = TailProbabilities::of(hidden, matching);
            (0..=i64::from(hidden) + 1)
                .map(|needed| published_raise_value(tails.at_least(needed)))
                .collect()
        };
        Ok(PublishedRuleBlock {
            dice,
            variant,
            ev_open: [
                open_values(FaceClass::Ones)?,
                open_values(FaceClass::Other)?,
            ],
            raise_values: [
                raise_values(Variant::Plain.matching_faces(FaceClass::Other)),
                raise_values(Variant::WildOnes.matching_faces(FaceClass::Other)),
            ],
        })
    }

    /// The published rule's advice for `hand` facing `standing`.
    ///
    /// # Errors
    /// [`Error::Inconsistent`] for a hand of another size than the block's;
    /// [`Error::OutOfRange`] for a bid on more dice than exist.
    pub fn advise(&self, hand: &Hand, standing: Bid) -> Result<DecisionRow> {
        if hand.len() != self.dice.mine() {
            return Err(Error::Inconsistent(format!(
                "a hand of {} dice in a block of hands of {}",
                hand.len(),
                self.dice.mine()
            )));
        }
        self.dice.check_bid(standing)?;
        let rules = self.variant.after_bid(standing.face);
        let open = self.ev_open[usize::from(standing.face != Face::ONE)][(standing.count - 1)
            as usize
            * (self.dice.mine() as usize + 1)
            + hand.matching(standing.face, rules) as usize];
        // My matching dice for a raise on each face, under the rules that
        // hold after the standing bid.
        let mut mine = [0u32; 6];
        for (count, face) in mine.iter_mut().zip(Face::all()) {
            *count = hand.matching(face, rules);
        }
        let last = i64::from(self.dice.hidden_from_me()) + 1;
        let raises = published_raises(standing, self.dice.total()).map(|bid| {
            let face = usize::from(bid.face.pips() - 1);
            let matching = rules.matching_faces(bid.face.class());
            let values = &self.raise_values[usize::from(matching.count() - 1)];
            let needed = (i64::from(bid.count) - i64::from(mine[face])).clamp(0, last);
            (bid, values[needed as usize])
        });
        let (action, expected_value) = choose_published(open, raises);
        Ok(DecisionRow {
            action,
            expected_value,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{bidder_posterior, BidQuestion, DecisionKey, DiceGrid};

    fn reliabilities() -> Vec<Reliability> {
        [0.0, 0.25, 1.0, 4.0, 50.0]
            .map(|r| Reliability::new(r).unwrap())
            .to_vec()
    }

    fn same_bits(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits()
    }

    #[test]
    fn posteriors_equal_the_single_query_bit_for_bit() {
        let mut checked = 0;
        for total in 2..=30 {
            for bidder in (1..=6).filter(|&b| b < total) {
                for variant in [Variant::Plain, Variant::WildOnes] {
                    for class in FaceClass::ALL {
                        for &rel in &reliabilities() {
                            let batch =
                                BidderPosteriors::new(total, bidder, variant, class, rel).unwrap();
                            assert_eq!(batch.iter().count(), total as usize);
                            for (q, posterior) in batch.iter() {
                                let question =
                                    PosteriorQuestion::new(total, bidder, variant, class, q, rel)
                                        .unwrap();
                                let single = bidder_posterior(&question);
                                assert_eq!(posterior.probabilities.len(), bidder as usize + 1);
                                for (a, b) in
                                    posterior.probabilities.iter().zip(&single.probabilities)
                                {
                                    assert!(same_bits(*a, *b), "{question:?}: {a} vs {b}");
                                }
                                checked += 1;
                            }
                            assert!(batch.get(0).is_none() && batch.get(total + 1).is_none());
                        }
                    }
                }
            }
        }
        assert!(checked > 40_000, "{checked}");
    }

    #[test]
    fn bid_rows_equal_the_single_query_bit_for_bit() {
        let mut checked = 0;
        for total in 2..=30 {
            for mine in 1..=6 {
                for bidder in (1..=6).filter(|&b| mine + b <= total) {
                    let dice = DiceInPlay::new(total, mine, bidder).unwrap();
                    for variant in [Variant::Plain, Variant::WildOnes] {
                        for class in FaceClass::ALL {
                            let tails = BidTails::new(dice, variant.matching_faces(class));
                            for &rel in &reliabilities() {
                                let posteriors =
                                    BidderPosteriors::new(total, bidder, variant, class, rel)
                                        .unwrap();
                                for q in 1..=total {
                                    for k in 0..=mine {
                                        let question =
                                            BidQuestion::new(dice, variant, class, q, k, rel)
                                                .unwrap();
                                        let single = BidRow::compute(&question);
                                        let batch = tails.row(&posteriors, q, k).unwrap();
                                        for (a, b) in [
                                            (batch.raw_probability, single.raw_probability),
                                            (
                                                batch.corrected_probability,
                                                single.corrected_probability,
                                            ),
                                            (batch.ev_open, single.ev_open),
                                            (
                                                batch.normal_approximation,
                                                single.normal_approximation,
                                            ),
                                        ] {
                                            assert!(same_bits(a, b), "{question:?}: {a} vs {b}");
                                        }
                                        checked += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 500_000, "{checked}");
    }

    #[test]
    fn bid_rows_refuse_mismatched_posteriors_and_bids() {
        let rel = Reliability::new(2.0).unwrap();
        let dice = DiceInPlay::new(20, 5, 5).unwrap();
        let tails = BidTails::new(dice, Variant::WildOnes.matching_faces(FaceClass::Other));
        let wild = BidderPosteriors::new(20, 5, Variant::WildOnes, FaceClass::Other, rel).unwrap();
        let plain = BidderPosteriors::new(20, 5, Variant::Plain, FaceClass::Other, rel).unwrap();
        let smaller =
            BidderPosteriors::new(19, 5, Variant::WildOnes, FaceClass::Other, rel).unwrap();
        assert!(tails.row(&wild, 5, 1).is_ok());
        assert!(matches!(
            tails.row(&plain, 5, 1),
            Err(Error::Inconsistent(_))
        ));
        assert!(matches!(
            tails.row(&smaller, 5, 1),
            Err(Error::Inconsistent(_))
        ));
        assert!(matches!(
            tails.row(&wild, 21, 1),
            Err(Error::OutOfRange { .. })
        ));
        assert!(matches!(
            tails.row(&wild, 0, 1),
            Err(Error::OutOfRange { .. })
        ));
        assert!(matches!(
            tails.row(&wild, 5, 6),
            Err(Error::Inconsistent(_))
        ));
    }

    #[test]
    fn decisions_equal_the_single_query_bit_for_bit() {
        let mut checked = 0;
        let mut raises = 0;
        for dice_per_player in [1, 3, 5] {
            let grid = DiceGrid {
                dice_per_player,
                ..DiceGrid::default()
            };
            for players in 2..=6 {
                let total = players * dice_per_player;
                let dice = DiceInPlay::new(total, dice_per_player, dice_per_player).unwrap();
                for variant in [Variant::Plain, Variant::WildOnes] {
                    for &reliability in &reliabilities() {
                        let block = PublishedRuleBlock::new(dice, variant, reliability).unwrap();
                        for hand in grid.hands() {
                            for q in 1..=total {
                                for face in Face::all() {
                                    let key = DecisionKey {
                                        players,
                                        variant,
                                        reliability,
                                        hand: hand.clone(),
                                        standing: Bid::new(q, face).unwrap(),
                                    };
                                    let single = DecisionRow::compute(&key).unwrap();
                                    let batch = block.advise(&hand, key.standing).unwrap();
                                    assert_eq!(batch.action, single.action, "{key:?}");
                                    assert!(
                                        same_bits(batch.expected_value, single.expected_value),
                                        "{key:?}: {} vs {}",
                                        batch.expected_value,
                                        single.expected_value
                                    );
                                    raises +=
                                        usize::from(batch.action != crate::dice::Action::Open);
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        // Both actions occur often, so both branches of the rule are compared.
        assert!(checked > 1_000_000, "{checked}");
        assert!(
            raises > checked / 10 && raises < checked * 9 / 10,
            "{raises} of {checked}"
        );
    }

    #[test]
    fn decisions_refuse_other_hands_and_bids() {
        let rel = Reliability::new(2.0).unwrap();
        let block =
            PublishedRuleBlock::new(DiceInPlay::new(20, 5, 5).unwrap(), Variant::Plain, rel)
                .unwrap();
        let five: Hand = "1,2,3,4,5".parse().unwrap();
        let four: Hand = "1,2,3,4".parse().unwrap();
        assert!(block.advise(&five, "5x5".parse().unwrap()).is_ok());
        assert!(matches!(
            block.advise(&four, "5x5".parse().unwrap()),
            Err(Error::Inconsistent(_))
        ));
        assert!(matches!(
            block.advise(&five, "21x5".parse().unwrap()),
            Err(Error::OutOfRange { .. })
        ));
    }
}

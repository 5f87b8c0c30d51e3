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

use super::decision::{choose_published, published_raise_value, PUBLISHED_RAISE_REACH};
use super::exact::{normal_approximation, TailProbabilities};
use super::model::{
    corrected_from_tails, ev_open, BidderPosterior, PosteriorPrior, PosteriorQuestion,
};
use super::rows::{BidRow, DecisionRow};
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
    /// As [`PublishedRuleBlock::hand`] and [`HandRule::advise`].
    pub fn advise(&self, hand: &Hand, standing: Bid) -> Result<DecisionRow> {
        self.hand(hand)?.advise(standing)
    }

    /// The rule for `hand`, prepared for every standing bid it may face.
    ///
    /// # Errors
    /// [`Error::Inconsistent`] for a hand of another size than the block's.
    pub fn hand(&self, hand: &Hand) -> Result<HandRule<'_>> {
        if hand.len() != self.dice.mine() {
            return Err(Error::Inconsistent(format!(
                "a hand of {} dice in a block of hands of {}",
                hand.len(),
                self.dice.mine()
            )));
        }
        let rules = [Variant::Plain, Variant::WildOnes];
        let matching = rules.map(|rules| {
            let mut counts = [0; 6];
            for (count, face) in counts.iter_mut().zip(Face::all()) {
                *count = hand.matching(face, rules);
            }
            counts
        });
        let best_raises = [0, 1].map(|w| self.best_raises(&matching[w], rules[w]));
        Ok(HandRule {
            block: self,
            matching,
            best_raises,
        })
    }

    /// For a hand with `mine[f - 1]` dice counting for face `f` under
    /// `rules`: entry `c * 7 + i` is the best raise to `c` dice on a face
    /// above the `i` lowest, with its value, `None` for `i = 6`. "Best" is
    /// the published rule's: the highest value, the lowest face among
    /// equals.
    fn best_raises(&self, mine: &[u32; 6], rules: Variant) -> Vec<Option<(Face, f64)>> {
        let last = i64::from(self.dice.hidden_from_me()) + 1;
        let values_for = |face: Face| {
            let matching = rules.matching_faces(face.class());
            &self.raise_values[usize::from(matching.count() - 1)]
        };
        let faces: Vec<Face> = Face::all().collect();
        let total = self.dice.total() as usize;
        let mut best = vec![None; (total + 1) * 7];
        for count in 1..=total {
            let row = &mut best[count * 7..count * 7 + 7];
            for (index, &face) in faces.iter().enumerate().rev() {
                let needed = (count as i64 - i64::from(mine[index])).clamp(0, last);
                let value = values_for(face)[needed as usize];
                row[index] = match row[index + 1] {
                    Some((_, kept)) if kept > value => row[index + 1],
                    _ => Some((face, value)),
                };
            }
        }
        best
    }
}

/// The published rule for one hand of a [`PublishedRuleBlock`]: the hand's
/// matching dice and its best raises are counted once for all the standing
/// bids it faces.
#[derive(Debug, Clone, PartialEq)]
pub struct HandRule<'a> {
    block: &'a PublishedRuleBlock,
    /// `matching[w][f - 1]`: my dice counting for a bid on face `f`, with
    /// ones wild when `w = 1`.
    matching: [[u32; 6]; 2],
    /// [`PublishedRuleBlock::best_raises`] without and with wild ones.
    best_raises: [Vec<Option<(Face, f64)>>; 2],
}

impl HandRule<'_> {
    /// The published rule's advice facing `standing`: equal bit for bit to
    /// [`DecisionRow::compute`] (and [`published_rule`](super::published_rule)).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bid on more dice than exist.
    pub fn advise(&self, standing: Bid) -> Result<DecisionRow> {
        let block = self.block;
        block.dice.check_bid(standing)?;
        let rules = block.variant.after_bid(standing.face);
        let wild = usize::from(rules.wild_ones());
        // My matching dice under the rules that hold after the standing bid.
        let mine = &self.matching[wild];
        let pips = usize::from(standing.face.pips());
        let open = block.ev_open[usize::from(standing.face != Face::ONE)][(standing.count - 1)
            as usize
            * (block.dice.mine() as usize + 1)
            + mine[pips - 1] as usize];
        // The raises of `published_raises` come in three runs: to the
        // standing count on a higher face, then to one and two dice more
        // on any face. The first best raise of all is the first best of the
        // runs' first best raises, compared as `choose_published` does (the
        // values are finite, so "first best" is well defined).
        let top = standing
            .count
            .saturating_add(PUBLISHED_RAISE_REACH)
            .min(block.dice.total());
        let best_raises = &self.best_raises[wild];
        let mut best: Option<(Bid, f64)> = None;
        for count in standing.count..=top {
            let above = if count == standing.count { pips } else { 0 };
            if let Some((face, value)) = best_raises[count as usize * 7 + above] {
                match best {
                    Some((_, kept)) if kept >= value => {}
                    _ => best = Some((Bid { count, face }, value)),
                }
            }
        }
        let (action, expected_value) = choose_published(open, best);
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
                            let rule = block.hand(&hand).unwrap();
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
                                    let batch = rule.advise(key.standing).unwrap();
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

//! Liar's Dice engine against the published numbers of the spec, against
//! brute-force enumeration of every dice outcome on small tables (with and
//! without wild ones), and against the model's invariants; bad input must
//! give typed errors.

use gametab_games::dice::{
    bid_odds, bidder_posterior, published_rule, Action, Bid, BidQuestion, DiceInPlay, Face,
    FaceClass, Hand, PosteriorQuestion, Reliability, Situation, Variant,
};
use gametab_games::Error;

fn rel(value: f64) -> Reliability {
    Reliability::new(value).unwrap()
}

/// The spec's table: 4 players with 5 dice each, "5 fives", no wilds.
fn five_fives(my_fives: u32, reliability: f64) -> BidQuestion {
    let dice = DiceInPlay::new(20, 5, 5).unwrap();
    BidQuestion::new(
        dice,
        Variant::Plain,
        FaceClass::Other,
        5,
        my_fives,
        rel(reliability),
    )
    .unwrap()
}

fn four_decimals(x: f64) -> String {
    format!("{x:.4}")
}

#[test]
fn published_bid_probabilities() {
    let one = bid_odds(&five_fives(1, 2.0));
    assert_eq!(four_decimals(one.raw_probability), "0.2315");
    assert_eq!(four_decimals(one.corrected_probability), "0.4785");
    let two = bid_odds(&five_fives(2, 2.0));
    assert_eq!(four_decimals(two.raw_probability), "0.4678");
    assert_eq!(four_decimals(two.corrected_probability), "0.7421");
    let two_bluffer = bid_odds(&five_fives(2, 0.5));
    assert_eq!(four_decimals(two_bluffer.corrected_probability), "0.5201");
}

#[test]
fn published_posterior_means() {
    let mean = |r: f64| {
        let question = PosteriorQuestion::new(20, 5, Variant::Plain, FaceClass::Other, 5, rel(r));
        bidder_posterior(&question.unwrap()).mean()
    };
    assert_eq!(format!("{:.2}", mean(2.0)), "1.83");
    assert_eq!(format!("{:.2}", mean(0.5)), "1.02");
}

#[test]
fn published_tails_and_normal_approximation() {
    // 15 unknown dice: a bid needing 6 (or 7) more fives. With 16 dice on the
    // table, one of them mine and not a five, 15 are hidden from me.
    let dice = DiceInPlay::new(16, 1, 1).unwrap();
    for (needed, exact, normal) in [(6, "0.0274", "0.0188"), (7, "0.0066", "0.0028")] {
        let question =
            BidQuestion::new(dice, Variant::Plain, FaceClass::Other, needed, 0, rel(0.0));
        let odds = bid_odds(&question.unwrap());
        assert_eq!(four_decimals(odds.raw_probability), exact);
        assert_eq!(four_decimals(odds.normal_approximation), normal);
    }
}

#[test]
fn published_decision_flip_at_one_five() {
    let raw = bid_odds(&five_fives(1, 0.0));
    let corrected = bid_odds(&five_fives(1, 2.0));
    assert_eq!(format!("{:.3}", raw.ev_open_raw), "0.537");
    assert_eq!(format!("{:.3}", corrected.ev_open), "0.043");
    // rel = 0 is the raw probability (the posterior is the prior).
    assert!((raw.ev_open - raw.ev_open_raw).abs() < 1e-12);
    // A hand with one five and three sixes: on the raw probability opening
    // (0.537) beats every raise (the published raise value never exceeds
    // 0.2013); on the corrected one raising to five sixes is better.
    let hand: Hand = "2,5,6,6,6".parse().unwrap();
    let standing: Bid = "5x5".parse().unwrap();
    let advise = |r: f64| {
        let situation = Situation::new(20, hand.clone(), 5, Variant::Plain, standing, rel(r));
        published_rule(&situation.unwrap())
    };
    let naive = advise(0.0);
    assert_eq!(naive.action, Action::Open);
    assert_eq!(format!("{:.3}", naive.expected_value), "0.537");
    let careful = advise(2.0);
    assert_eq!(careful.action, Action::Raise("5x6".parse().unwrap()));
    assert!(careful.expected_value > careful.standing.ev_open);
    assert_eq!(format!("{:.3}", careful.standing.ev_open), "0.043");
}

/// Outcomes of the hidden dice counted by hand: `joint[y][z]` outcomes in
/// which the bidder shows `y` matching dice and the others `z`.
fn enumerate(bidder: u32, others: u32, bid_face: Face, variant: Variant) -> Vec<Vec<u128>> {
    let hidden = bidder + others;
    let mut joint = vec![vec![0u128; others as usize + 1]; bidder as usize + 1];
    for outcome in 0..6u32.pow(hidden) {
        let (mut code, mut y, mut z) = (outcome, 0, 0);
        for die in 0..hidden {
            let face = Face::new(code % 6 + 1).unwrap();
            code /= 6;
            if variant.counts_for(face, bid_face) {
                if die < bidder {
                    y += 1;
                } else {
                    z += 1;
                }
            }
        }
        joint[y][z] += 1;
    }
    joint
}

fn likelihood(y: usize, total: u32, bidder: u32, p: f64, q: u32, r: f64) -> f64 {
    let confidence = (y as f64 + f64::from(total - bidder) * p) / f64::from(q);
    1.0 / (1.0 + (-4.0 * r * (confidence - 1.0)).exp())
}

#[test]
fn enumeration_of_every_outcome_agrees_with_the_formulas() {
    let mut checked = 0;
    for variant in [Variant::Plain, Variant::WildOnes] {
        for bid_face in [Face::ONE, Face::new(4).unwrap()] {
            for total in 2..=7u32 {
                for mine in 1..=3u32.min(total - 1) {
                    for bidder in 1..=(total - mine).min(3) {
                        let dice = DiceInPlay::new(total, mine, bidder).unwrap();
                        let joint = enumerate(bidder, dice.others(), bid_face, variant);
                        let p = variant.matching_faces(bid_face.class()).probability();
                        for q in 1..=total {
                            for k in 0..=mine {
                                let needed = i64::from(q) - i64::from(k);
                                let holds = |y: usize, z: usize| (y + z) as i64 >= needed;
                                let favourable: u128 = (0..joint.len())
                                    .flat_map(|y| (0..joint[y].len()).map(move |z| (y, z)))
                                    .filter(|&(y, z)| holds(y, z))
                                    .map(|(y, z)| joint[y][z])
                                    .sum();
                                for r in [0.0, 0.5, 4.0] {
                                    let question = BidQuestion::new(
                                        dice,
                                        variant,
                                        bid_face.class(),
                                        q,
                                        k,
                                        rel(r),
                                    )
                                    .unwrap();
                                    let odds = bid_odds(&question);
                                    assert_eq!(odds.raw.favourable, favourable);
                                    assert_eq!(odds.raw.outcomes, 6u128.pow(total - mine));
                                    // Weight every outcome by the likelihood of its y.
                                    let mut weight_by_y = vec![0.0; joint.len()];
                                    let mut weight_holding = 0.0;
                                    for (y, row) in joint.iter().enumerate() {
                                        let l = likelihood(y, total, bidder, p, q, r);
                                        for (z, &n) in row.iter().enumerate() {
                                            weight_by_y[y] += n as f64 * l;
                                            if holds(y, z) {
                                                weight_holding += n as f64 * l;
                                            }
                                        }
                                    }
                                    let all: f64 = weight_by_y.iter().sum();
                                    for (y, w) in weight_by_y.iter().enumerate() {
                                        let got = odds.posterior.probability(y as u32);
                                        assert!((got - w / all).abs() < 1e-13, "posterior y = {y}");
                                    }
                                    let corrected = weight_holding / all;
                                    assert!(
                                        (odds.corrected_probability - corrected).abs() < 1e-13,
                                        "N {total} m {mine} n_b {bidder} q {q} k {k} rel {r}: {} vs {corrected}",
                                        odds.corrected_probability
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} cases");
}

#[test]
fn probabilities_are_monotone_and_posteriors_sum_to_one() {
    for total in (2..=24).chain([30, 40, 50]) {
        for mine in 1..=5u32 {
            for bidder in (1..=5u32).filter(|b| mine + b <= total) {
                let dice = DiceInPlay::new(total, mine, bidder).unwrap();
                for variant in [Variant::Plain, Variant::WildOnes] {
                    for class in FaceClass::ALL {
                        for r in [0.0, 0.25, 1.0, 4.0, 1e6] {
                            let odds = |q: u32, k: u32| {
                                bid_odds(
                                    &BidQuestion::new(dice, variant, class, q, k, rel(r)).unwrap(),
                                )
                            };
                            let mut above: Option<Vec<(f64, f64)>> = None;
                            for q in 1..=total {
                                let row: Vec<(f64, f64)> = (0..=mine)
                                    .map(|k| {
                                        let o = odds(q, k);
                                        let sum: f64 = o.posterior.probabilities.iter().sum();
                                        assert!((sum - 1.0).abs() < 1e-12);
                                        for p in [
                                            o.raw_probability,
                                            o.corrected_probability,
                                            o.normal_approximation,
                                        ] {
                                            assert!((0.0..=1.0).contains(&p), "{p}");
                                        }
                                        if r == 0.0 {
                                            assert!(
                                                (o.corrected_probability - o.raw_probability).abs()
                                                    < 1e-12
                                            );
                                        }
                                        (o.raw_probability, o.corrected_probability)
                                    })
                                    .collect();
                                // Non-decreasing in k ...
                                for w in row.windows(2) {
                                    assert!(w[1].0 >= w[0].0 && w[1].1 >= w[0].1 - 1e-15);
                                }
                                // ... and non-increasing in q.
                                if let Some(previous) = &above {
                                    for (now, before) in row.iter().zip(previous) {
                                        assert!(now.0 <= before.0);
                                        assert!(
                                            now.1 <= before.1 + 1e-15,
                                            "N {total} m {mine} q {q}"
                                        );
                                    }
                                }
                                above = Some(row);
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn covered_and_impossible_bids_are_certain_and_impossible() {
    let dice = DiceInPlay::new(20, 5, 5).unwrap();
    let ask = |q, k| {
        bid_odds(
            &BidQuestion::new(dice, Variant::WildOnes, FaceClass::Other, q, k, rel(2.0)).unwrap(),
        )
    };
    // My three fives already cover "3 fives".
    let covered = ask(3, 3);
    assert_eq!(
        (covered.raw_probability, covered.corrected_probability),
        (1.0, 1.0)
    );
    assert_eq!(covered.ev_open, -1.0);
    // "20 fives" with none of mine: impossible, 15 hidden dice only.
    let impossible = ask(20, 0);
    assert_eq!(
        (impossible.raw_probability, impossible.corrected_probability),
        (0.0, 0.0)
    );
    assert_eq!(impossible.normal_approximation, 0.0);
    assert_eq!(impossible.ev_open, 1.0);
}

#[test]
fn wild_ones_count_for_other_faces_only() {
    let hand: Hand = "1,5,5,2,3".parse().unwrap();
    let five = Face::new(5).unwrap();
    assert_eq!(hand.matching(five, Variant::Plain), 2);
    assert_eq!(hand.matching(five, Variant::WildOnes), 3);
    assert_eq!(hand.matching(Face::ONE, Variant::WildOnes), 1);
    assert_eq!(
        Variant::WildOnes.matching_faces(FaceClass::Other).count(),
        2
    );
    assert_eq!(Variant::WildOnes.matching_faces(FaceClass::Ones).count(), 1);
    // After a bid on ones, raises are valued without wilds.
    let situation = Situation::new(
        20,
        hand,
        5,
        Variant::WildOnes,
        "6x1".parse().unwrap(),
        rel(1.0),
    )
    .unwrap();
    let advice = published_rule(&situation);
    let seven_fives = advice
        .raises
        .iter()
        .find(|r| r.bid == "7x5".parse().unwrap())
        .unwrap();
    assert_eq!(seven_fives.my_matching, 2);
}

#[test]
fn bad_input_is_a_typed_error() {
    assert!(matches!(
        DiceInPlay::new(10, 6, 5),
        Err(Error::Inconsistent(_))
    ));
    assert!(matches!(
        DiceInPlay::new(60, 5, 5),
        Err(Error::OutOfRange { .. })
    ));
    assert!(matches!(
        DiceInPlay::new(10, 0, 5),
        Err(Error::OutOfRange { .. })
    ));
    assert!(matches!(
        Face::new(0),
        Err(Error::OutOfRange {
            what: gametab_games::Argument::Face,
            ..
        })
    ));
    assert!(matches!(
        Face::new(7),
        Err(Error::OutOfRange {
            what: gametab_games::Argument::Face,
            ..
        })
    ));
    assert!(matches!(
        "5x7".parse::<Bid>(),
        Err(Error::OutOfRange {
            what: gametab_games::Argument::Face,
            ..
        })
    ));
    assert!(matches!(
        "0x5".parse::<Bid>(),
        Err(Error::OutOfRange { .. })
    ));
    assert!(matches!(
        "five fives".parse::<Bid>(),
        Err(Error::OutOfRange {
            what: gametab_games::Argument::Bid,
            ..
        })
    ));
    assert!(matches!(
        "1,5,9".parse::<Hand>(),
        Err(Error::OutOfRange {
            what: gametab_games::Argument::Face,
            ..
        })
    ));
    assert!(matches!(
        Reliability::new(-0.5),
        Err(Error::OutOfRange {
            what: gametab_games::Argument::Reliability,
            ..
        })
    ));
    assert!(Reliability::new(f64::NAN).is_err());
    let dice = DiceInPlay::new(20, 5, 5).unwrap();
    let question = |q, k| BidQuestion::new(dice, Variant::Plain, FaceClass::Other, q, k, rel(1.0));
    assert!(matches!(
        question(21, 0),
        Err(Error::OutOfRange {
            what: gametab_games::Argument::BidCount,
            ..
        })
    ));
    assert!(matches!(question(5, 6), Err(Error::Inconsistent(_))));
    let hand: Hand = "1,2,3".parse().unwrap();
    assert!(Situation::new(8, hand, 6, Variant::Plain, "2x2".parse().unwrap(), rel(1.0)).is_err());
}

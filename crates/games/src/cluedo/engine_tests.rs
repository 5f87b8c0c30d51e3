//! Tests of the engine against brute-force enumeration of every deal on
//! reduced decks, the published unconditioned counts, relabelling
//! invariance and contradiction reports.

use super::cards::{Card, CardSet, Category, Deck, Rules, Seat};
use super::engine::{analyse, count_deals};
use super::facts::{Fact, Knowledge, Observer};
use super::notebook::{Model, Place};
use crate::error::Error;

/// A tiny deterministic generator (xorshift64*).
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
    pub(crate) fn pick(&mut self, set: CardSet) -> Card {
        let cards: Vec<Card> = set.cards().collect();
        cards[self.below(cards.len())]
    }
}

/// A deal: where every card is (`None` = envelope).
pub(crate) type Deal = Vec<Option<Seat>>;

/// Every deal of `rules`, in a fixed order.
pub(crate) fn every_deal(rules: &Rules) -> Vec<Deal> {
    let deck = rules.deck();
    let mut deals = Vec::new();
    let suspects: Vec<Card> = deck.category_cards(Category::Suspect).cards().collect();
    let weapons: Vec<Card> = deck.category_cards(Category::Weapon).cards().collect();
    let rooms: Vec<Card> = deck.category_cards(Category::Room).cards().collect();
    for &s in &suspects {
        for &w in &weapons {
            for &r in &rooms {
                let envelope = CardSet::of(&[s, w, r]);
                let rest: Vec<Card> = deck.all_cards().minus(envelope).cards().collect();
                let mut left: Vec<usize> = rules.seats().map(|p| rules.hand_size(p)).collect();
                let mut deal = vec![None; deck.len()];
                assign(&rest, 0, &mut left, &mut deal, &mut deals);
            }
        }
    }
    deals
}

fn assign(rest: &[Card], i: usize, left: &mut [usize], deal: &mut Deal, out: &mut Vec<Deal>) {
    if i == rest.len() {
        out.push(deal.clone());
        return;
    }
    for p in 0..left.len() {
        if left[p] > 0 {
            left[p] -= 1;
            deal[rest[i].index()] = Some(Seat(p as u8));
            assign(rest, i + 1, left, deal, out);
            left[p] += 1;
        }
    }
    deal[rest[i].index()] = None;
}

fn hand_of(deal: &Deal, seat: Seat) -> CardSet {
    deal.iter()
        .enumerate()
        .filter(|(_, p)| **p == Some(seat))
        .fold(CardSet::EMPTY, |set, (c, _)| set.with(Card(c as u8)))
}

/// The brute-force weight of `deal` (0 if inconsistent): 1 under
/// equal-deals; under uniform-responder, `6^k / prod |hand ∩ suggestion|`.
fn weight(knowledge: &Knowledge, deal: &Deal, model: Model) -> u128 {
    if let Observer::Player { seat, hand } = knowledge.observer() {
        if hand_of(deal, *seat) != *hand {
            return 0;
        }
    }
    let envelope = deal
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_none())
        .fold(CardSet::EMPTY, |set, (c, _)| set.with(Card(c as u8)));
    let mut weight = 1u128;
    for fact in knowledge.facts() {
        let ok = match *fact {
            Fact::Holds { player, card } => deal[card.index()] == Some(player),
            Fact::ShowedMe {
                player,
                card,
                suggestion,
            } => {
                let held = hand_of(deal, player).and(suggestion).len() as u128;
                if model == Model::UniformResponder && held > 0 {
                    weight *= 6 / held;
                }
                deal[card.index()] == Some(player)
            }
            Fact::HoldsNone { player, cards } => hand_of(deal, player).and(cards).is_empty(),
            Fact::HoldsAtLeastOne { player, cards } => !hand_of(deal, player).and(cards).is_empty(),
            Fact::FailedAccusation { cards } => cards != envelope,
        };
        if !ok {
            return 0;
        }
    }
    weight
}

/// Brute-force totals: (total weight, per card and place weight).
fn brute(knowledge: &Knowledge, deals: &[Deal], model: Model) -> (u128, Vec<Vec<u128>>) {
    let rules = knowledge.rules();
    let mut places = vec![vec![0u128; rules.players() + 1]; rules.deck().len()];
    let mut total = 0;
    for deal in deals {
        let w = weight(knowledge, deal, model);
        if w == 0 {
            continue;
        }
        total += w;
        for (c, place) in deal.iter().enumerate() {
            places[c][place.map_or(0, |s| 1 + s.index())] += w;
        }
    }
    (total, places)
}

/// Random facts that hold in `truth`, as seen from `observer`: simulated
/// suggestions (with passes and shows), known cards and failed accusations.
fn random_knowledge(rules: Rules, truth: &Deal, observer: Observer, rng: &mut Rng) -> Knowledge {
    let deck = *rules.deck();
    let mut knowledge = Knowledge::new(rules, observer).unwrap();
    let me = observer.seat();
    let suggestions = rng.below(6);
    for _ in 0..suggestions {
        let by = Seat(rng.below(rules.players()) as u8);
        let triple = Category::ALL.iter().fold(CardSet::EMPTY, |set, &c| {
            set.with(rng.pick(deck.category_cards(c)))
        });
        for step in 1..rules.players() {
            let responder = Seat(((by.index() + step) % rules.players()) as u8);
            let held = hand_of(truth, responder).and(triple);
            if held.is_empty() {
                knowledge
                    .add(Fact::HoldsNone {
                        player: responder,
                        cards: triple,
                    })
                    .unwrap();
                continue;
            }
            if Some(by) == me {
                let card = rng.pick(held);
                knowledge
                    .add(Fact::ShowedMe {
                        player: responder,
                        card,
                        suggestion: triple,
                    })
                    .unwrap();
            } else if Some(responder) != me {
                knowledge
                    .add(Fact::HoldsAtLeastOne {
                        player: responder,
                        cards: triple,
                    })
                    .unwrap();
            }
            break;
        }
    }
    if rng.below(3) == 0 {
        let card = Card(rng.below(deck.len()) as u8);
        if let Some(player) = truth[card.index()] {
            knowledge.add(Fact::Holds { player, card }).unwrap();
        }
    }
    if rng.below(2) == 0 {
        let triple = Category::ALL.iter().fold(CardSet::EMPTY, |set, &c| {
            set.with(rng.pick(deck.category_cards(c)))
        });
        let envelope = (0..deck.len())
            .filter(|&c| truth[c].is_none())
            .fold(CardSet::EMPTY, |set, c| set.with(Card(c as u8)));
        if triple != envelope {
            knowledge
                .add(Fact::FailedAccusation { cards: triple })
                .unwrap();
        }
    }
    knowledge
}

fn assert_matches_brute(knowledge: &Knowledge, deals: &[Deal]) {
    let rules = knowledge.rules();
    for model in Model::ALL {
        let (total, places) = brute(knowledge, deals, model);
        let notebook = analyse(knowledge, model).unwrap_or_else(|e| panic!("{e}\n{knowledge}"));
        if model == Model::EqualDeals {
            assert_eq!(notebook.deals(), total, "{knowledge}");
            assert_eq!(count_deals(knowledge), total, "{knowledge}");
        }
        for (c, expected) in places.iter().enumerate() {
            let card = Card(c as u8);
            let engine = std::iter::once(Place::Envelope)
                .chain(rules.seats().map(Place::Hand))
                .map(|p| notebook.deals_with(card, p));
            for (slot, value) in engine.enumerate() {
                // Exact equality of the ratios value / deals.
                assert_eq!(
                    value * total,
                    expected[slot] * notebook.deals(),
                    "{} card {c} slot {slot}\n{knowledge}",
                    model.name()
                );
            }
        }
    }
}

#[test]
fn engine_equals_brute_force_on_reduced_decks() {
    let mut rng = Rng::new(7);
    for (s, w, r, players) in [
        (2, 2, 3, 2),
        (2, 2, 3, 3),
        (3, 2, 3, 3),
        (3, 3, 3, 3),
        (2, 3, 4, 2),
    ] {
        let rules = Rules::new(Deck::new(s, w, r).unwrap(), players).unwrap();
        let deals = every_deal(&rules);
        for _ in 0..60 {
            let truth = &deals[rng.below(deals.len())];
            let observer = if rng.below(4) == 0 {
                Observer::Spectator
            } else {
                let seat = Seat(rng.below(players) as u8);
                Observer::Player {
                    seat,
                    hand: hand_of(truth, seat),
                }
            };
            let knowledge = random_knowledge(rules, truth, observer, &mut rng);
            assert_matches_brute(&knowledge, &deals);
        }
    }
}

#[test]
fn unconditioned_counts_are_the_published_numbers() {
    // 324 * 18! / (6!)^3 for three players.
    let factorial = |n: u128| (1..=n).product::<u128>();
    let expected = 324 * factorial(18) / factorial(6).pow(3);
    assert_eq!(expected, 5_557_616_064);
    let spectator = |n| Knowledge::new(Rules::standard(n).unwrap(), Observer::Spectator).unwrap();
    assert_eq!(count_deals(&spectator(3)), expected);
    let notebook = analyse(&spectator(3), Model::EqualDeals).unwrap();
    assert_eq!(notebook.deals(), expected);
    // A suspect is in the envelope in 1/6 of the deals.
    assert_eq!(notebook.deals_with(Card(0), Place::Envelope) * 6, expected);
    assert_eq!(notebook.deals_with(Card(20), Place::Envelope) * 9, expected);
    // Four players: 324 * 18! / (5! 5! 4! 4!); six: 324 * 18! / (3!)^6.
    assert_eq!(
        count_deals(&spectator(4)),
        324 * factorial(18) / (factorial(5).pow(2) * factorial(4).pow(2))
    );
    assert_eq!(
        count_deals(&spectator(6)),
        324 * factorial(18) / factorial(3).pow(6)
    );
    // Seated with a known hand of three suspects, three weapons: the
    // envelope takes one of 3 * 3 * 9 triples and 12 cards fill two hands.
    let rules = Rules::standard(3).unwrap();
    let hand = CardSet::of(&[Card(0), Card(1), Card(2), Card(6), Card(7), Card(8)]);
    let seated = Knowledge::new(
        rules,
        Observer::Player {
            seat: Seat(1),
            hand,
        },
    )
    .unwrap();
    assert_eq!(
        count_deals(&seated),
        81 * factorial(12) / factorial(6).pow(2)
    );
}

#[test]
fn relabelling_opponents_leaves_answers_unchanged() {
    let mut rng = Rng::new(11);
    let rules = Rules::standard(5).unwrap();
    let deals_truth = |rng: &mut Rng| -> Deal {
        let mut deal: Deal = vec![None; 21];
        let mut cards: Vec<usize> = (0..21).collect();
        for i in (1..cards.len()).rev() {
            cards.swap(i, rng.below(i + 1));
        }
        let envelope: Vec<usize> = Category::ALL
            .iter()
            .map(|&c| {
                rules
                    .deck()
                    .category_cards(c)
                    .cards()
                    .nth(rng.below(rules.deck().category_size(c)))
                    .unwrap()
                    .index()
            })
            .collect();
        let mut seat = 0;
        let mut dealt = [0; 5];
        for c in cards.into_iter().filter(|c| !envelope.contains(c)) {
            while dealt[seat] == rules.hand_size(Seat(seat as u8)) {
                seat += 1;
            }
            deal[c] = Some(Seat(seat as u8));
            dealt[seat] += 1;
        }
        deal
    };
    for _ in 0..5 {
        let truth = deals_truth(&mut rng);
        let me = Seat(0);
        let knowledge = random_knowledge(
            rules,
            &truth,
            Observer::Player {
                seat: me,
                hand: hand_of(&truth, me),
            },
            &mut rng,
        );
        // Seats 1 and 2 have equal hand sizes (4 each): swap them.
        let swap = |s: Seat| match s.0 {
            1 => Seat(2),
            2 => Seat(1),
            _ => s,
        };
        let mut swapped = Knowledge::new(rules, *knowledge.observer()).unwrap();
        for fact in knowledge.facts() {
            let fact = match fact.clone() {
                Fact::Holds { player, card } => Fact::Holds {
                    player: swap(player),
                    card,
                },
                Fact::ShowedMe {
                    player,
                    card,
                    suggestion,
                } => Fact::ShowedMe {
                    player: swap(player),
                    card,
                    suggestion,
                },
                Fact::HoldsNone { player, cards } => Fact::HoldsNone {
                    player: swap(player),
                    cards,
                },
                Fact::HoldsAtLeastOne { player, cards } => Fact::HoldsAtLeastOne {
                    player: swap(player),
                    cards,
                },
                other => other,
            };
            swapped.add(fact).unwrap();
        }
        for model in Model::ALL {
            let a = analyse(&knowledge, model).unwrap();
            let b = analyse(&swapped, model).unwrap();
            assert_eq!(a.deals(), b.deals());
            for c in 0..21u8 {
                assert_eq!(
                    a.deals_with(Card(c), Place::Envelope),
                    b.deals_with(Card(c), Place::Envelope)
                );
                for s in rules.seats() {
                    assert_eq!(
                        a.deals_with(Card(c), Place::Hand(s)),
                        b.deals_with(Card(c), Place::Hand(swap(s)))
                    );
                }
            }
        }
    }
}

#[test]
fn contradictions_name_the_facts() {
    let rules = Rules::standard(3).unwrap();
    let deck = *rules.deck();
    let card = |n: &str| deck.parse_card(n).unwrap();
    let hand = CardSet::of(&[
        card("Miss Scarlett"),
        card("Rope"),
        card("Kitchen"),
        card("Hall"),
        card("Study"),
        card("Lounge"),
    ]);
    let mut knowledge = Knowledge::new(
        rules,
        Observer::Player {
            seat: Seat(0),
            hand,
        },
    )
    .unwrap();
    knowledge
        .add(Fact::Holds {
            player: Seat(1),
            card: card("Dagger"),
        })
        .unwrap();
    knowledge
        .add(Fact::HoldsNone {
            player: Seat(2),
            cards: CardSet::of(&[card("Library")]),
        })
        .unwrap();
    knowledge
        .add(Fact::HoldsNone {
            player: Seat(1),
            cards: CardSet::of(&[card("Mrs White"), card("Dagger"), card("Hall")]),
        })
        .unwrap();
    let error = analyse(&knowledge, Model::EqualDeals).unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, Error::Inconsistent(_)));
    assert!(
        message.contains("fact 1 (player 2 holds Dagger)"),
        "{message}"
    );
    assert!(message.contains("fact 3"), "{message}");
    assert!(!message.contains("fact 2"), "{message}");
    // A player showing a card from my own hand contradicts my hand only.
    let mut knowledge = Knowledge::new(
        rules,
        Observer::Player {
            seat: Seat(0),
            hand,
        },
    )
    .unwrap();
    knowledge
        .add(Fact::HoldsAtLeastOne {
            player: Seat(2),
            cards: CardSet::of(&[card("Rope")]),
        })
        .unwrap();
    let message = analyse(&knowledge, Model::EqualDeals)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("fact 1") && message.contains("my hand"),
        "{message}"
    );
}

#[test]
fn hand_sizes_make_the_exact_answer_differ_from_uniform_triples() {
    // Deck 2+2+4 with 3 players: 5 cards dealt, hands of 2, 2 and 1. I am
    // seat 0 holding S1 and W1, so the envelope is (S2, W2, room) and the
    // heuristic gives each of the four rooms 1/4. Player 2 (one card) passed
    // on R1 and R2, so that card is R3 or R4. Envelope R1 or R2: the other
    // three rooms fill player 1 (2 cards) and player 2 (R3 or R4), 2 ways
    // each; envelope R3: player 2 must hold R4, 1 way; R4 likewise. Exact:
    // 2/6, 2/6, 1/6, 1/6.
    let rules = Rules::new(Deck::new(2, 2, 4).unwrap(), 3).unwrap();
    let hand = CardSet::of(&[Card(0), Card(2)]);
    let mut knowledge = Knowledge::new(
        rules,
        Observer::Player {
            seat: Seat(0),
            hand,
        },
    )
    .unwrap();
    assert_eq!(count_deals(&knowledge), 4 * 3);
    knowledge
        .add(Fact::HoldsNone {
            player: Seat(2),
            cards: CardSet::of(&[Card(4), Card(5)]),
        })
        .unwrap();
    let notebook = analyse(&knowledge, Model::EqualDeals).unwrap();
    assert_eq!(notebook.deals(), 6);
    let rooms: Vec<u128> = (4..8)
        .map(|c| notebook.deals_with(Card(c), Place::Envelope))
        .collect();
    assert_eq!(rooms, [2, 2, 1, 1]);
    assert_eq!(notebook.p_envelope(Card(4)), 1.0 / 3.0);
    assert_eq!(notebook.p_holds(Seat(2), Card(6)), 0.5);
}

/// Logs of simulated races (`gametab::cluedo::simulate::race`) for 3 to 6
/// players, as the advised seat saw them before one of its suggestions:
/// every player's suggestions, so many "holds at least one" facts.
const RACE_LOGS: &str = include_str!("../../tests/data/cluedo-race-logs.json");

#[test]
fn the_envelope_joint_equals_forced_counts_on_race_logs() {
    // The joint comes from one top-down count per problem (memoised,
    // the last hand filled without enumeration); the check counts every
    // triple apart, forced into the envelope, by the forward pass alone.
    use super::engine::{envelope_joint, envelope_joint_by_forcing};
    use super::log::GameLog;
    let logs: Vec<GameLog> = serde_json::from_str(RACE_LOGS).unwrap();
    assert_eq!(logs.len(), 4);
    for log in &logs {
        let mut knowledge = log.knowledge().unwrap();
        for model in Model::ALL {
            let joint = envelope_joint(&knowledge, model).unwrap().unwrap();
            assert_eq!(joint.counts, envelope_joint_by_forcing(&knowledge, model));
        }
        // And after one more answer: the next player holds at least one of
        // the first suspect, weapon and room he may hold.
        let next = Seat(((usize::from(log.viewer) + 1) % log.players) as u8);
        let notebook = analyse(&knowledge, Model::EqualDeals).unwrap();
        let deck = *knowledge.rules().deck();
        let open: Vec<Card> = Category::ALL
            .iter()
            .filter_map(|&c| {
                deck.category_cards(c)
                    .cards()
                    .find(|&card| notebook.p_holds(next, card) > 0.0)
            })
            .collect();
        knowledge
            .add(Fact::HoldsAtLeastOne {
                player: next,
                cards: CardSet::of(&open),
            })
            .unwrap();
        for model in Model::ALL {
            let joint = envelope_joint(&knowledge, model).unwrap().unwrap();
            assert_eq!(joint.counts, envelope_joint_by_forcing(&knowledge, model));
        }
    }
}

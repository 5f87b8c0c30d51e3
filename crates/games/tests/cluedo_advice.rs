//! Cluedo advice against brute force: on reduced decks every deal is
//! enumerated, every responder choice weighed, and each suggestion's
//! outcome probabilities and envelope distributions after them must equal
//! the engine's exactly (integer cross-multiplication), and so must what
//! the ranking reads from them (P(certain after), P(nobody), dead cards);
//! relabelling cards leaves every gain unchanged; symmetric suggestions tie
//! exactly; and a hand-checked case where the best suggestion by gain is
//! not the most likely triple while the default objective's is; and on
//! logs of simulated races, the ranking (which counts each distinct
//! counting problem once) scores every suggestion as scoring it alone does.

use gametab_games::cluedo::{
    advise, advise_by, score, Card, CardSet, Category, Deck, Fact, GameLog, Knowledge, Model,
    Objective, Observer, Response, Rules, Scored, Seat,
};

/// Every deal of `rules` consistent with `knowledge`, with its weight under
/// `model` (responder weights as multiples of 1/6 per shown card): the
/// envelope triple and each card's holder (`None`: envelope).
fn deals(knowledge: &Knowledge, model: Model) -> Vec<([Card; 3], Vec<Option<Seat>>, u128)> {
    let rules = knowledge.rules();
    let deck = rules.deck();
    let n = deck.len();
    let cat = |c: Category| deck.category_cards(c).cards().collect::<Vec<_>>();
    let mut out = Vec::new();
    for s in cat(Category::Suspect) {
        for w in cat(Category::Weapon) {
            for r in cat(Category::Room) {
                let rest: Vec<Card> = (0..n as u8)
                    .map(Card)
                    .filter(|c| ![s, w, r].contains(c))
                    .collect();
                let mut holder = vec![None; n];
                assign(
                    rules,
                    &rest,
                    0,
                    &mut vec![0; rules.players()],
                    &mut holder,
                    &mut |holder| {
                        if let Some(weight) = consistent(knowledge, model, [s, w, r], holder) {
                            out.push(([s, w, r], holder.to_vec(), weight));
                        }
                    },
                );
            }
        }
    }
    out
}

fn assign(
    rules: &Rules,
    rest: &[Card],
    at: usize,
    sizes: &mut Vec<usize>,
    holder: &mut Vec<Option<Seat>>,
    visit: &mut impl FnMut(&[Option<Seat>]),
) {
    if at == rest.len() {
        visit(holder);
        return;
    }
    for seat in rules.seats() {
        if sizes[seat.index()] < rules.hand_size(seat) {
            sizes[seat.index()] += 1;
            holder[rest[at].index()] = Some(seat);
            assign(rules, rest, at + 1, sizes, holder, visit);
            holder[rest[at].index()] = None;
            sizes[seat.index()] -= 1;
        }
    }
}

/// The deal's weight (in sixths per shown card) if it agrees with every
/// fact, else `None`.
fn consistent(
    knowledge: &Knowledge,
    model: Model,
    envelope: [Card; 3],
    holder: &[Option<Seat>],
) -> Option<u128> {
    let holds = |seat: Seat, card: Card| holder[card.index()] == Some(seat);
    if let Observer::Player { seat, hand } = knowledge.observer() {
        for c in 0..holder.len() as u8 {
            if hand.contains(Card(c)) != holds(*seat, Card(c)) {
                return None;
            }
        }
    }
    let mut weight = 1u128;
    for fact in knowledge.facts() {
        let ok = match *fact {
            Fact::Holds { player, card } => holds(player, card),
            Fact::HoldsNone { player, cards } => cards.cards().all(|c| !holds(player, c)),
            Fact::HoldsAtLeastOne { player, cards } => cards.cards().any(|c| holds(player, c)),
            Fact::ShowedMe {
                player,
                card,
                suggestion,
            } => {
                let held = suggestion.cards().filter(|&c| holds(player, c)).count() as u128;
                if model == Model::UniformResponder && held > 0 {
                    weight *= 6 / held;
                } else {
                    weight *= 6;
                }
                holds(player, card)
            }
            Fact::FailedAccusation { cards } => CardSet::of(&envelope) != cards,
        };
        if !ok {
            return None;
        }
    }
    Some(weight)
}

/// A response, its weight, and the envelope triples' weights after it.
type BruteOutcome = (Response, u128, Vec<([Card; 3], u128)>);

/// Brute-force outcome weights (in sixths) of `me` suggesting `cards`, and
/// the envelope weights after each, keyed by response.
fn brute_outcomes(
    knowledge: &Knowledge,
    model: Model,
    me: Seat,
    cards: [Card; 3],
) -> (Vec<BruteOutcome>, u128) {
    let rules = knowledge.rules();
    let n = rules.players();
    let mut outcomes: Vec<BruteOutcome> = Vec::new();
    let mut total = 0u128;
    let mut add = |response: Response, envelope: [Card; 3], w: u128| {
        let at = match outcomes.iter().position(|o| o.0 == response) {
            Some(at) => at,
            None => {
                outcomes.push((response, 0, Vec::new()));
                outcomes.len() - 1
            }
        };
        outcomes[at].1 += w;
        match outcomes[at].2.iter().position(|e| e.0 == envelope) {
            Some(e) => outcomes[at].2[e].1 += w,
            None => outcomes[at].2.push((envelope, w)),
        }
    };
    for (envelope, holder, weight) in deals(knowledge, model) {
        total += weight * 6;
        let mut answered = false;
        for k in 1..n {
            let seat = Seat(((me.index() + k) % n) as u8);
            let held: Vec<Card> = cards
                .iter()
                .copied()
                .filter(|c| holder[c.index()] == Some(seat))
                .collect();
            if !held.is_empty() {
                for &card in &held {
                    add(
                        Response::Shows { seat, card },
                        envelope,
                        weight * 6 / held.len() as u128,
                    );
                }
                answered = true;
                break;
            }
        }
        if !answered {
            add(Response::Nobody, envelope, weight * 6);
        }
    }
    (outcomes, total)
}

fn entropy(weights: &[u128]) -> f64 {
    let total: u128 = weights.iter().sum();
    -weights
        .iter()
        .filter(|&&w| w > 0)
        .map(|&w| {
            let p = w as f64 / total as f64;
            p * p.log2()
        })
        .sum::<f64>()
}

/// Every suggestion of `me`: the engine's exact outcomes equal brute force.
fn check_against_brute_force(knowledge: &Knowledge, model: Model, me: Seat) -> usize {
    let rules = knowledge.rules();
    let deck = rules.deck();
    let cat = |c: Category| deck.category_cards(c).cards().collect::<Vec<_>>();
    let base: Vec<u128> = {
        let all = deals(knowledge, model);
        let mut by_triple: Vec<([Card; 3], u128)> = Vec::new();
        for (e, _, w) in all {
            match by_triple.iter().position(|t| t.0 == e) {
                Some(i) => by_triple[i].1 += w,
                None => by_triple.push((e, w)),
            }
        }
        by_triple.into_iter().map(|t| t.1).collect()
    };
    let mut checked = 0;
    for s in cat(Category::Suspect) {
        for w in cat(Category::Weapon) {
            for r in cat(Category::Room) {
                let cards = [s, w, r];
                let scored = score(knowledge, model, me, cards).unwrap();
                let (brute, total) = brute_outcomes(knowledge, model, me, cards);
                assert_eq!(scored.outcomes.len(), brute.len(), "{cards:?}");
                let mut expected_after = 0.0;
                for (response, weight, envelope) in &brute {
                    let o = scored
                        .outcomes
                        .iter()
                        .find(|o| o.response == *response)
                        .unwrap_or_else(|| panic!("{cards:?}: no outcome {response:?}"));
                    // P(o) exactly: weight / denominator == brute / total.
                    assert_eq!(
                        o.weight * total,
                        weight * scored.denominator,
                        "{cards:?} {response:?}"
                    );
                    // The envelope after o, exactly proportional.
                    for &(triple, count) in envelope {
                        let index = position(deck, triple);
                        assert_eq!(
                            o.envelope[index] * weight,
                            count * o.weight,
                            "{cards:?} {response:?}"
                        );
                    }
                    let nonzero = o.envelope.iter().filter(|&&c| c > 0).count();
                    assert_eq!(nonzero, envelope.len());
                    let after: Vec<u128> = envelope.iter().map(|e| e.1).collect();
                    expected_after += *weight as f64 / total as f64 * entropy(&after);
                }
                let gain = entropy(&base) - expected_after;
                assert!(
                    (scored.expected_gain - gain).abs() < 1e-12,
                    "{cards:?}: {} vs {gain}",
                    scored.expected_gain
                );
                // What the ranking reads: P(certain after) (one triple
                // left), P(nobody), the chance the most likely triple after
                // the answer is right, and the expected log2 live triples.
                let share = |w: u128| w as f64 / total as f64;
                let certain: u128 = brute.iter().filter(|o| o.2.len() == 1).map(|o| o.1).sum();
                assert!((scored.p_certain_after - share(certain)).abs() < 1e-15);
                let nobody: u128 = brute
                    .iter()
                    .filter(|o| o.0 == Response::Nobody)
                    .map(|o| o.1)
                    .sum();
                assert!((scored.p_nobody - share(nobody)).abs() < 1e-15);
                let right: u128 = brute
                    .iter()
                    .map(|o| o.2.iter().map(|e| e.1).max().unwrap())
                    .sum();
                assert!((scored.p_right_after - share(right)).abs() < 1e-15);
                let bits: f64 = brute
                    .iter()
                    .map(|o| share(o.1) * (o.2.len() as f64).log2())
                    .sum();
                assert!((scored.live_bits_after - bits).abs() < 1e-12);
                // Dead cards: those of no possible envelope triple.
                let possible = |c: Card| deals(knowledge, model).iter().any(|d| d.0.contains(&c));
                for c in cards {
                    assert_eq!(scored.dead.contains(c), !possible(c), "{cards:?} {c:?}");
                }
                checked += 1;
            }
        }
    }
    checked
}

fn position(deck: &Deck, triple: [Card; 3]) -> usize {
    let pos = |c: Card| {
        deck.category_cards(deck.category(c))
            .cards()
            .position(|x| x == c)
            .unwrap()
    };
    let weapons = deck.category_size(Category::Weapon);
    let rooms = deck.category_size(Category::Room);
    (pos(triple[0]) * weapons + pos(triple[1])) * rooms + pos(triple[2])
}

/// A small game: deck (3, 3, 3), three players, me at seat 0 holding the
/// second suspect and the second room, a few answered suggestions.
fn small_game(facts: &[Fact]) -> Knowledge {
    let rules = Rules::new(Deck::new(3, 3, 3).unwrap(), 3).unwrap();
    let hand = CardSet::of(&[Card(1), Card(7)]);
    let mut k = Knowledge::new(
        rules,
        Observer::Player {
            seat: Seat(0),
            hand,
        },
    )
    .unwrap();
    for fact in facts {
        k.add(fact.clone()).unwrap();
    }
    k
}

#[test]
fn outcomes_and_gains_equal_brute_force_on_small_decks() {
    // Cards: suspects 0..3, weapons 3..6, rooms 6..9.
    let named = CardSet::of(&[Card(0), Card(3), Card(6)]);
    let cases = [
        small_game(&[]),
        small_game(&[Fact::HoldsNone {
            player: Seat(1),
            cards: named,
        }]),
        small_game(&[
            Fact::ShowedMe {
                player: Seat(2),
                card: Card(3),
                suggestion: named,
            },
            Fact::HoldsAtLeastOne {
                player: Seat(1),
                cards: CardSet::of(&[Card(2), Card(5), Card(8)]),
            },
        ]),
        small_game(&[Fact::FailedAccusation {
            cards: CardSet::of(&[Card(0), Card(4), Card(8)]),
        }]),
    ];
    let mut checked = 0;
    for knowledge in &cases {
        for model in Model::ALL {
            checked += check_against_brute_force(knowledge, model, Seat(0));
        }
    }
    assert_eq!(checked, cases.len() * 2 * 27);

    // Four players, uneven hands (2, 2, 2, 1 of 7 dealt), me at seat 2.
    let rules = Rules::new(Deck::new(3, 3, 4).unwrap(), 4).unwrap();
    let hand = CardSet::of(&[Card(0), Card(9)]);
    let mut k = Knowledge::new(
        rules,
        Observer::Player {
            seat: Seat(2),
            hand,
        },
    )
    .unwrap();
    k.add(Fact::ShowedMe {
        player: Seat(3),
        card: Card(4),
        suggestion: CardSet::of(&[Card(1), Card(4), Card(7)]),
    })
    .unwrap();
    k.add(Fact::HoldsNone {
        player: Seat(0),
        cards: CardSet::of(&[Card(1), Card(4), Card(7)]),
    })
    .unwrap();
    for model in Model::ALL {
        assert_eq!(check_against_brute_force(&k, model, Seat(2)), 36);
    }
}

#[test]
fn relabelling_cards_leaves_every_gain_unchanged() {
    // Swap suspects 0 <-> 2 and rooms 6 <-> 8 everywhere.
    let swap = |c: Card| match c.0 {
        0 => Card(2),
        2 => Card(0),
        6 => Card(8),
        8 => Card(6),
        _ => c,
    };
    let named = [Card(0), Card(3), Card(6)];
    let original = small_game(&[Fact::ShowedMe {
        player: Seat(2),
        card: Card(3),
        suggestion: CardSet::of(&named),
    }]);
    let relabelled = small_game(&[Fact::ShowedMe {
        player: Seat(2),
        card: swap(Card(3)),
        suggestion: CardSet::of(&named.map(swap)),
    }]);
    let a = advise(&original, Model::UniformResponder, Seat(0), None).unwrap();
    let b = advise(&relabelled, Model::UniformResponder, Seat(0), None).unwrap();
    assert_eq!(a.ranking.len(), 27);
    for scored in &a.ranking {
        let image = scored.cards.map(swap);
        let twin = b.ranking.iter().find(|s| s.cards == image).unwrap();
        assert!((scored.expected_gain - twin.expected_gain).abs() < 1e-12);
        assert!((scored.p_shown - twin.p_shown).abs() < 1e-12);
    }
    assert!((a.ranking[0].expected_gain - b.ranking[0].expected_gain).abs() < 1e-12);
    assert!((a.p_most_likely - b.p_most_likely).abs() < 1e-12);
}

#[test]
fn the_best_suggestion_by_gain_is_not_always_the_most_likely_triple() {
    // Me (seat 0) with suspect 1 and room 7; seat 1 answers first, then
    // seat 2. Seat 1 holds neither suspect 0 nor weapon 4; seat 2 does not
    // hold weapon 3. Suspect 0, weapon 3 and room 6 make the most likely
    // envelope (1 in 8). But suggesting it wastes seat 1's answer: seat 1
    // may hold weapon 3 or room 6 and shows one of them, which splits the
    // question. Suggesting weapon 4 instead (which seat 1 lacks) makes seat
    // 1's answer a clean test of room 6, and leaves suspect 0 and weapon 4
    // to seat 2, who may hold either: about 0.31 bits more on average.
    let k = small_game(&[
        Fact::HoldsNone {
            player: Seat(1),
            cards: CardSet::of(&[Card(0), Card(4)]),
        },
        Fact::HoldsNone {
            player: Seat(2),
            cards: CardSet::of(&[Card(3)]),
        },
    ]);
    let advice = advise_by(
        &k,
        Model::EqualDeals,
        Seat(0),
        None,
        Objective::InformationGain,
    )
    .unwrap();
    assert_eq!(advice.objective, Objective::InformationGain);
    assert_eq!(advice.most_likely, [Card(0), Card(3), Card(6)]);
    assert!((advice.p_most_likely - 0.125).abs() < 1e-15);
    let best = &advice.ranking[0];
    assert_eq!(best.cards, [Card(0), Card(4), Card(6)]);
    let rule = advice
        .ranking
        .iter()
        .find(|s| s.cards == advice.most_likely)
        .unwrap();
    assert!(
        best.expected_gain > rule.expected_gain + 0.3,
        "{} vs {}",
        best.expected_gain,
        rule.expected_gain
    );
    // The default objective, P(certain after), ranks the most likely
    // triple first instead: its "nobody" (1 in 8) solves the game, and no
    // suggestion is more likely to leave a single triple.
    let default = advise(&k, Model::EqualDeals, Seat(0), None).unwrap();
    assert_eq!(default.objective, Objective::DEFAULT);
    assert_eq!(default.ranking[0].cards, advice.most_likely);
    assert!(default.ranking[0].p_certain_after > best.p_certain_after);
    assert!(default
        .ranking
        .windows(2)
        .all(|w| w[0].p_certain_after >= w[1].p_certain_after));
    // And both rankings' numbers are the brute force's.
    assert_eq!(
        check_against_brute_force(&k, Model::EqualDeals, Seat(0)),
        27
    );
}

#[test]
fn symmetric_suggestions_tie_exactly_and_keep_the_canonical_order() {
    // With no facts, relabelling the suspects or weapons I do not hold
    // (and the rooms) is a symmetry: every suggestion of live cards has an
    // image with the same outcome weights. Their keys tie to the last bit,
    // so the ranking keeps canonical order among them.
    let k = small_game(&[]);
    for objective in Objective::ALL {
        let advice = advise_by(&k, Model::UniformResponder, Seat(0), None, objective).unwrap();
        let live: Vec<&Scored> = advice
            .ranking
            .iter()
            .filter(|s| s.dead.is_empty())
            .collect();
        // Suspects 0, 2; weapons 3, 4, 5; rooms 6, 8: 2 * 3 * 2 live triples.
        assert_eq!(live.len(), 12, "{objective:?}");
        for s in &live {
            assert_eq!(
                s.p_certain_after.to_bits(),
                live[0].p_certain_after.to_bits()
            );
            assert_eq!(s.expected_gain.to_bits(), live[0].expected_gain.to_bits());
            assert_eq!(
                s.live_bits_after.to_bits(),
                live[0].live_bits_after.to_bits()
            );
        }
        let positions: Vec<usize> = live
            .iter()
            .map(|s| {
                advice
                    .ranking
                    .iter()
                    .position(|r| r.cards == s.cards)
                    .unwrap()
            })
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{objective:?}");
        let canonical: Vec<[Card; 3]> = live.iter().map(|s| s.cards).collect();
        let mut sorted = canonical.clone();
        sorted.sort();
        assert_eq!(canonical, sorted, "{objective:?}");
    }
}

#[test]
fn the_ranking_scores_every_suggestion_as_scoring_it_alone_does_on_race_logs() {
    // The ranking shares its counts between suggestions (the same counting
    // problem is counted once); `score` counts a suggestion from scratch.
    let logs: Vec<GameLog> =
        serde_json::from_str(include_str!("data/cluedo-race-logs.json")).unwrap();
    for log in &logs {
        let knowledge = log.knowledge().unwrap();
        let me = Seat(log.viewer);
        let deck = *knowledge.rules().deck();
        let room = deck
            .category_cards(Category::Room)
            .cards()
            .nth(usize::from(log.viewer));
        for model in Model::ALL {
            let advice = advise(&knowledge, model, me, room).unwrap();
            assert_eq!(advice.ranking.len(), 36);
            for scored in &advice.ranking {
                assert_eq!(scored, &score(&knowledge, model, me, scored.cards).unwrap());
            }
        }
    }
}

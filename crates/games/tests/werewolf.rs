//! Werewolf engine checks against independent computations: a brute-force
//! likelihood product over every wolf set, frequencies from simulating the
//! generative model, relabelled players, conditioning by an extra event, and
//! the published demo log.

use gametab_games::werewolf::{
    binary_entropy_bits, rank, Baseline, Event, EvidenceModel, Game, GameLog, Player, Posterior,
    ScoringRule, Setup, Side, VoteWeights,
};
use gametab_games::Error;

/// A small deterministic generator (xorshift64*), so that every test is
/// reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn seat(number: u32, setup: Setup) -> Player {
    Player::from_number(number, setup).unwrap()
}

fn skewed_model(seer_accuracy: f64) -> EvidenceModel {
    EvidenceModel {
        votes: VoteWeights {
            wolf_votes_village: 0.75,
            wolf_votes_wolf: 0.10,
            village_votes_village: 0.5,
            village_votes_wolf: 0.9,
        },
        seer_accuracy,
    }
}

/// A random valid game: night kills, seer checks, votes, behaviour scores,
/// eliminations with and without reveals, consistent with a hidden wolf set.
fn random_game(rng: &mut Rng, setup: Setup, model: EvidenceModel, events: usize) -> Game {
    let mut wolves = Vec::new();
    while wolves.len() < setup.wolves() as usize {
        let candidate = seat(rng.below(u64::from(setup.players())) as u32 + 1, setup);
        if !wolves.contains(&candidate) {
            wolves.push(candidate);
        }
    }
    let side = |p: Player| {
        if wolves.contains(&p) {
            Side::Wolf
        } else {
            Side::Village
        }
    };
    let mut game = Game::new(setup, model, None).unwrap();
    for _ in 0..events {
        let living: Vec<Player> = game.living().players().collect();
        let living_wolves = living.iter().filter(|&&p| side(p) == Side::Wolf).count();
        if living_wolves == 0 || living.len() <= living_wolves + 1 {
            break;
        }
        let pick = |rng: &mut Rng| living[rng.below(living.len() as u64) as usize];
        let event = match rng.below(10) {
            0 => {
                let village: Vec<Player> = living
                    .iter()
                    .copied()
                    .filter(|&p| side(p) == Side::Village)
                    .collect();
                Event::NightKill {
                    victim: village[rng.below(village.len() as u64) as usize],
                }
            }
            1 => {
                let target = pick(rng);
                let truthful = model.seer_trusted() || rng.unit() < model.seer_accuracy;
                let truth = side(target);
                let result = match (truthful, truth) {
                    (true, s) => s,
                    (false, Side::Wolf) => Side::Village,
                    (false, Side::Village) => Side::Wolf,
                };
                Event::SeerCheck { target, result }
            }
            2 => Event::Behaviour {
                player: pick(rng),
                score: rng.unit() * 3.0 - 1.5,
            },
            3 => {
                let player = pick(rng);
                let revealed = (rng.below(2) == 0).then(|| side(player));
                Event::Eliminated { player, revealed }
            }
            _ => {
                let voter = pick(rng);
                let mut target = pick(rng);
                while target == voter {
                    target = pick(rng);
                }
                Event::Vote { voter, target }
            }
        };
        game.push(event).unwrap();
    }
    game
}

/// The posterior by the definition: every W-subset of the players, the
/// product of the event likelihoods written out directly, normalised.
fn brute_force_marginals(game: &Game) -> Vec<f64> {
    let setup = game.setup();
    let n = setup.players();
    let model = game.model();
    let mut marginals = vec![0.0; n as usize];
    let mut total = 0.0;
    for mask in 0u64..(1 << n) {
        if mask.count_ones() != setup.wolves() {
            continue;
        }
        let is_wolf = |p: Player| mask >> p.index() & 1 == 1;
        let side = |p: Player| {
            if is_wolf(p) {
                Side::Wolf
            } else {
                Side::Village
            }
        };
        let mut living: Vec<Player> = setup.all_players().collect();
        let mut weight = 1.0;
        for event in game.events() {
            match *event {
                Event::NightKill { victim } => {
                    let village = living.iter().filter(|&&p| !is_wolf(p)).count();
                    weight *= if is_wolf(victim) {
                        0.0
                    } else {
                        1.0 / village as f64
                    };
                    living.retain(|&p| p != victim);
                }
                Event::SeerCheck { target, result } => {
                    let a = model.seer_accuracy;
                    weight *= if side(target) == result { a } else { 1.0 - a };
                }
                Event::Vote { voter, target } => {
                    let w = |k: Player| model.votes.weight(side(voter), side(k));
                    let total: f64 = living.iter().filter(|&&k| k != voter).map(|&k| w(k)).sum();
                    weight *= w(target) / total;
                }
                Event::Eliminated { player, revealed } => {
                    if revealed.is_some_and(|s| s != side(player)) {
                        weight = 0.0;
                    }
                    living.retain(|&p| p != player);
                }
                Event::Revealed { player, side: s } => {
                    if side(player) != s {
                        weight = 0.0;
                    }
                }
                Event::Behaviour { player, score } => {
                    if is_wolf(player) {
                        weight *= score.exp();
                    }
                }
            }
        }
        total += weight;
        for p in setup.all_players().filter(|&p| is_wolf(p)) {
            marginals[p.index()] += weight;
        }
    }
    marginals.iter().map(|m| m / total).collect()
}

#[test]
fn posterior_matches_the_brute_force_product() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for case in 0..60 {
        let players = 5 + (case % 6) as u32;
        let wolves = 1 + (case % 3) as u32;
        let accuracy = [1.0, 0.8, 0.65][case % 3];
        let setup = Setup::new(players, wolves).unwrap();
        let game = random_game(&mut rng, setup, skewed_model(accuracy), 14);
        let exact = Posterior::compute(&game).unwrap();
        let brute = brute_force_marginals(&game);
        for (a, b) in exact.marginals().iter().zip(&brute) {
            assert!((a - b).abs() < 1e-12, "case {case}: {a} vs {b}");
        }
    }
}

#[test]
fn living_marginals_sum_to_the_living_wolves() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for case in 0..80 {
        let setup = Setup::new(6 + (case % 7) as u32, 1 + (case % 4) as u32).unwrap();
        let game = random_game(&mut rng, setup, EvidenceModel::default(), 20);
        let posterior = Posterior::compute(&game).unwrap();
        let all: f64 = posterior.marginals().iter().sum();
        assert!(
            (all - f64::from(setup.wolves())).abs() < 1e-9,
            "case {case}: {all}"
        );
        // Every dead player's role known: the living marginals sum to the
        // wolves not yet revealed dead, exactly.
        let dead = setup.everyone().0 & !game.living().0;
        let known = game.known_wolves().0 | game.known_village().0;
        if dead & !known == 0 {
            let dead_wolves = (dead & game.known_wolves().0).count_ones();
            let expected = f64::from(setup.wolves() - dead_wolves);
            let living = posterior.expected_living_wolves();
            assert!(
                (living - expected).abs() < 1e-9,
                "case {case}: {living} vs {expected}"
            );
        }
        assert!(posterior
            .marginals()
            .iter()
            .all(|p| (0.0..=1.0 + 1e-12).contains(p)));
    }
}

#[test]
fn posterior_matches_simulated_frequencies() {
    // 5 players, 2 wolves. Observed: the (untrusted) seer says player 1 is a
    // wolf; votes 2 -> 1, 3 -> 1, 4 -> 5; a behaviour signal on player 5 that
    // a wolf shows with probability 0.6 and a villager with 0.3 (score ln 2).
    let setup = Setup::new(5, 2).unwrap();
    let model = skewed_model(0.8);
    let p = |n| seat(n, setup);
    let mut game = Game::new(setup, model, None).unwrap();
    for event in [
        Event::SeerCheck {
            target: p(1),
            result: Side::Wolf,
        },
        Event::Vote {
            voter: p(2),
            target: p(1),
        },
        Event::Vote {
            voter: p(3),
            target: p(1),
        },
        Event::Vote {
            voter: p(4),
            target: p(5),
        },
        Event::Behaviour {
            player: p(5),
            score: 2f64.ln(),
        },
    ] {
        game.push(event).unwrap();
    }
    let exact = Posterior::compute(&game).unwrap();

    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let mut hits = [0u64; 5];
    let mut accepted = 0u64;
    let draw_vote = |rng: &mut Rng, voter: usize, wolves: u64| -> usize {
        let side = |k: usize| {
            if wolves >> k & 1 == 1 {
                Side::Wolf
            } else {
                Side::Village
            }
        };
        let weights: Vec<(usize, f64)> = (0..5)
            .filter(|&k| k != voter)
            .map(|k| (k, model.votes.weight(side(voter), side(k))))
            .collect();
        let mut u = rng.unit() * weights.iter().map(|w| w.1).sum::<f64>();
        for &(k, w) in &weights {
            if u < w {
                return k;
            }
            u -= w;
        }
        weights[weights.len() - 1].0
    };
    for _ in 0..1_500_000 {
        let first = rng.below(5);
        let mut second = rng.below(4);
        if second >= first {
            second += 1;
        }
        let wolves = (1u64 << first) | (1u64 << second);
        let says_wolf = (wolves & 1 == 1) == (rng.unit() < 0.8);
        let signal = rng.unit() < if wolves >> 4 & 1 == 1 { 0.6 } else { 0.3 };
        let v2 = draw_vote(&mut rng, 1, wolves);
        let v3 = draw_vote(&mut rng, 2, wolves);
        let v4 = draw_vote(&mut rng, 3, wolves);
        if says_wolf && signal && v2 == 0 && v3 == 0 && v4 == 4 {
            accepted += 1;
            for (k, hit) in hits.iter_mut().enumerate() {
                *hit += wolves >> k & 1;
            }
        }
    }
    assert!(accepted > 3000, "{accepted}");
    for (k, &hit) in hits.iter().enumerate() {
        let frequency = hit as f64 / accepted as f64;
        let p = exact.marginals()[k];
        // About 4.5 standard errors at this sample size.
        let tolerance = 4.5 * (p * (1.0 - p) / accepted as f64).sqrt() + 1e-3;
        assert!(
            (frequency - p).abs() < tolerance,
            "player {}: {frequency} vs {p}",
            k + 1
        );
    }
}

#[test]
fn relabelling_players_relabels_the_answers() {
    let mut rng = Rng(0x0bad_5eed_0bad_5eed);
    for case in 0..20 {
        let setup = Setup::new(7 + (case % 5) as u32, 2 + (case % 2) as u32).unwrap();
        let game = random_game(&mut rng, setup, skewed_model(0.85), 16);
        // A random permutation of the seats.
        let n = setup.players() as usize;
        let mut perm: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            perm.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let map = |p: Player| seat(perm[p.index()] as u32 + 1, setup);
        let mut relabelled = Game::new(setup, *game.model(), None).unwrap();
        for event in game.events() {
            let moved = match *event {
                Event::NightKill { victim } => Event::NightKill {
                    victim: map(victim),
                },
                Event::SeerCheck { target, result } => Event::SeerCheck {
                    target: map(target),
                    result,
                },
                Event::Vote { voter, target } => Event::Vote {
                    voter: map(voter),
                    target: map(target),
                },
                Event::Eliminated { player, revealed } => Event::Eliminated {
                    player: map(player),
                    revealed,
                },
                Event::Revealed { player, side } => Event::Revealed {
                    player: map(player),
                    side,
                },
                Event::Behaviour { player, score } => Event::Behaviour {
                    player: map(player),
                    score,
                },
            };
            relabelled.push(moved).unwrap();
        }
        let before = Posterior::compute(&game).unwrap();
        let after = Posterior::compute(&relabelled).unwrap();
        assert!((before.joint_entropy() - after.joint_entropy()).abs() < 1e-9);
        for p in setup.all_players() {
            assert!(
                (before.p_wolf(p) - after.p_wolf(map(p))).abs() < 1e-12,
                "case {case}"
            );
            let (a, b) = (before.elimination(p), after.elimination(map(p)));
            assert!((a.information_gain - b.information_gain).abs() < 1e-9);
        }
        let base_before = Baseline::run(&game);
        let base_after = Baseline::run(&relabelled);
        for p in setup.all_players() {
            assert!((base_before.p_wolf(p) - base_after.p_wolf(map(p))).abs() < 1e-12);
        }
    }
}

#[test]
fn expected_entropy_matches_conditioning_on_a_reveal() {
    let mut rng = Rng(0x5151_5151_7777_0001);
    for case in 0..15 {
        let setup = Setup::new(8, 1 + (case % 3) as u32).unwrap();
        let game = random_game(&mut rng, setup, skewed_model(0.9), 10);
        let posterior = Posterior::compute(&game).unwrap();
        for player in game.living().players() {
            let outcome = posterior.elimination(player);
            let mut expected = 0.0;
            for (side, p) in [
                (Side::Wolf, outcome.p_wolf),
                (Side::Village, 1.0 - outcome.p_wolf),
            ] {
                let mut told = game.clone();
                if told
                    .push(Event::Eliminated {
                        player,
                        revealed: Some(side),
                    })
                    .is_ok()
                {
                    expected += p * Posterior::compute(&told).unwrap().joint_entropy();
                } else {
                    assert!(p < 1e-15, "an impossible reveal with probability {p}");
                }
            }
            assert!(
                (outcome.expected_entropy - expected).abs() < 1e-9,
                "case {case}"
            );
            // The side is a function of the wolf set: IG = H(side).
            let h = binary_entropy_bits(outcome.p_wolf);
            assert!((outcome.information_gain - h).abs() < 1e-9, "case {case}");
        }
    }
}

#[test]
fn contradictory_evidence_is_an_error_naming_it() {
    let log: GameLog = serde_json::from_str(
        r#"{"players": 8, "wolves": 2, "events": [
            {"kind": "seer", "target": 4, "result": "village"},
            {"kind": "vote", "voter": 1, "target": 4},
            {"kind": "eliminated", "player": 4, "revealed": "wolf"}
        ]}"#,
    )
    .unwrap();
    let error = log.to_game().unwrap_err();
    let text = error.to_string();
    assert_eq!(error.event_index(), Some(2));
    assert!(matches!(error, Error::AtEvent { .. }));
    assert!(
        text.contains("event 3") && text.contains("player 4"),
        "{text}"
    );
    assert!(text.contains("village"), "{text}");
    // Three revealed wolves in a two-wolf game.
    let log: GameLog = serde_json::from_str(
        r#"{"players": 8, "wolves": 2, "events": [
            {"kind": "eliminated", "player": 1, "revealed": "wolf"},
            {"kind": "eliminated", "player": 2, "revealed": "wolf"},
            {"kind": "revealed", "player": 3, "side": "wolf"}
        ]}"#,
    )
    .unwrap();
    let text = log.to_game().unwrap_err().to_string();
    assert!(
        text.contains("event 3") && text.contains("only 2"),
        "{text}"
    );
}

#[test]
fn too_many_wolf_sets_is_a_clear_error() {
    let setup = Setup::new(40, 10).unwrap();
    let game = Game::new(setup, EvidenceModel::default(), None).unwrap();
    let error = Posterior::compute(&game).unwrap_err();
    assert!(
        matches!(
            error,
            Error::OutOfRange {
                what: gametab_games::Argument::WolfSets,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("847660528"), "{error}");
    // Revealing enough roles brings the same table under the limit.
    let mut game = game;
    for n in 1..=20 {
        game.push(Event::Revealed {
            player: seat(n, setup),
            side: Side::Village,
        })
        .unwrap();
    }
    // C(20, 10) = 184,756 sets.
    assert_eq!(Posterior::compute(&game).unwrap().wolf_set_count(), 184_756);
}

#[test]
fn published_demo_log() {
    let text = include_str!("../../../scripts/examples/werewolf-demo.json");
    let log: GameLog = serde_json::from_str(text).unwrap();
    let game = log.to_game().unwrap();
    let setup = game.setup();
    let p = |n| seat(n, setup);
    let posterior = Posterior::compute(&game).unwrap();
    // Player 3 is out and revealed; 3 wolves among the 11 living: C(11, 3).
    assert_eq!(posterior.wolf_set_count(), 165);
    assert_eq!(posterior.p_wolf(p(3)), 1.0);
    assert!((posterior.expected_living_wolves() - 3.0).abs() < 1e-12);
    // The behaviour score e^1.5 makes 7 the most likely wolf.
    let by_probability = rank(&posterior, ScoringRule::Probability, None);
    assert_eq!(by_probability[0].player, p(7));
    // Interchangeable players get equal answers: the three voters of 5, and
    // the players without evidence.
    let same = |a: u32, b: u32| (posterior.p_wolf(p(a)) - posterior.p_wolf(p(b))).abs() < 1e-12;
    assert!(same(1, 2) && same(2, 4));
    assert!([9, 10, 11, 12].into_iter().all(|n| same(8, n)));
    assert!(!same(5, 8) && !same(6, 8) && !same(1, 8));
    // The baseline keeps its beliefs in [0.01, 0.99] and also puts 7 first.
    let baseline = Baseline::run(&game);
    assert_eq!(baseline.rank(ScoringRule::Probability)[0].player, p(7));
    for q in game.living().players() {
        assert!((0.01..=0.99).contains(&baseline.p_wolf(q)));
    }
    // The ranking covers exactly the living players.
    assert_eq!(rank(&posterior, ScoringRule::Published, None).len(), 11);
}

//! The published values, exactly, and the certificate on every small game.

use super::*;
use gametab_games::dice::endgame::{Action, History};

fn solved(a: u8, b: u8, sides: u8, wild: bool) -> SolvedEndgame {
    let game = Endgame::new(a, b, sides, wild).unwrap();
    solve(game, LpOptions::default()).unwrap()
}

fn check(a: u8, b: u8, wild: bool, first_sides: u8, published: &[&str]) {
    for (k, text) in published.iter().enumerate() {
        let sides = first_sides + k as u8;
        let s = solved(a, b, sides, wild);
        assert_eq!(s.exact, Fraction::parse(text), "{}", s.game);
        assert!(s.certificate.exploitability() <= MAX_EXPLOITABILITY);
    }
}

#[test]
fn one_die_each_reproduces_the_published_values() {
    check(1, 1, false, 1, &["1", "0", "-1/9", "-1/8", "-3/25", "-1/9"]);
    check(1, 1, true, 2, &["1", "1/3", "0", "0", "-7/327"]);
}

/// The three-dice games up to four sides (a few seconds); the five-sided
/// ones are checked on the built tables (`tests/dice_endgame.rs`).
#[test]
fn three_dice_reproduce_the_published_values() {
    check(2, 1, false, 1, &["1", "1/4", "1/9", "345/1696"]);
    check(2, 1, true, 2, &["1", "1/3", "1/4"]);
    check(1, 2, false, 1, &["1", "0", "-1/27", "-1/8"]);
    check(1, 2, true, 2, &["1", "-1/27", "-1/32"]);
}

/// Call `visit` with every pure strategy of `player` in `game`, by an
/// odometer over the actions of each of his (hand, history); returns how
/// many there were.
fn for_each_pure(game: Endgame, player: Player, mut visit: impl FnMut(&Strategy)) -> usize {
    let infosets: Vec<(usize, History, Vec<Action>)> = (0..game.hands(player).len())
        .flat_map(|i| {
            (0..game.history_count() as u32)
                .map(History)
                .filter(move |&h| game.to_move(h) == player)
                .map(move |h| (i, h, game.actions(h).collect()))
        })
        .collect();
    let mut choice = vec![0; infosets.len()];
    let mut count = 0;
    loop {
        let mut s = Strategy::zero(game, player);
        for ((i, h, actions), &c) in infosets.iter().zip(&choice) {
            s.set(*i, *h, actions[c], 1.0);
        }
        visit(&s);
        count += 1;
        let mut k = 0;
        loop {
            if k == choice.len() {
                return count;
            }
            choice[k] += 1;
            if choice[k] < infosets[k].2.len() {
                break;
            }
            choice[k] = 0;
            k += 1;
        }
    }
}

#[test]
fn best_responses_equal_the_best_pure_strategy_by_brute_force() {
    for (sides, wild) in [(2, false), (3, true)] {
        let game = Endgame::new(1, 1, sides, wild).unwrap();
        let solved = solve(game, LpOptions::default()).unwrap();
        let [one, two] = &solved.strategies;
        let (mut best_one, mut best_two) = (f64::NEG_INFINITY, f64::INFINITY);
        let ones = for_each_pure(game, Player::One, |s| {
            best_one = best_one.max(certificate::pair_value(s, two));
        });
        let twos = for_each_pure(game, Player::Two, |s| {
            best_two = best_two.min(certificate::pair_value(one, s));
        });
        assert!(ones >= 48 * 48 && twos >= 48 * 48, "{ones} {twos}");
        let cert = certificate::certify(one, two);
        assert!(
            (cert.upper - best_one).abs() < 1e-12,
            "{game}: {} vs {best_one}",
            cert.upper
        );
        assert!(
            (cert.lower - best_two).abs() < 1e-12,
            "{game}: {} vs {best_two}",
            cert.lower
        );
        // At an equilibrium both equal the value.
        assert!((best_one - solved.value).abs() < 1e-12);
        assert!((best_two - solved.value).abs() < 1e-12);
        // And the certificate sees a strategy that is not an equilibrium.
        let mut always_call = Strategy::zero(game, Player::Two);
        for h in (0..game.history_count() as u32).map(History) {
            if game.to_move(h) == Player::Two {
                for i in 0..game.hands(Player::Two).len() {
                    always_call.set(i, h, Action::Call, 1.0);
                }
            }
        }
        assert!(certificate::certify(one, &always_call).exploitability() > 0.5);
    }
}

#[test]
fn fractions_are_recovered_and_refused() {
    assert_eq!(
        Fraction::near(-3.0 / 25.0, 1_000_000, 1e-12)
            .unwrap()
            .to_string(),
        "-3/25"
    );
    assert_eq!(
        Fraction::near(2128.0 / 8375.0, 1_000_000, 1e-12)
            .unwrap()
            .to_string(),
        "2128/8375"
    );
    assert_eq!(Fraction::near(0.0, 10, 1e-12).unwrap().to_string(), "0");
    assert_eq!(Fraction::near(1.0, 10, 1e-12).unwrap().to_string(), "1");
    assert!(Fraction::near(std::f64::consts::PI, 1000, 1e-12).is_none());
    assert!(Fraction::near(f64::NAN, 1000, 1e-12).is_none());
    assert_eq!(
        Fraction::parse("-7/327"),
        Some(Fraction {
            numerator: -7,
            denominator: 327
        })
    );
    assert_eq!(Fraction::parse("1/0"), None);
}

#[test]
fn the_cache_round_trips_bit_for_bit_and_refuses_damage() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("endgames.bin");
    assert!(
        cache::load(&path, "fp").unwrap().is_none(),
        "missing: no cache"
    );
    let solved: Vec<SolvedEndgame> = [(3, false), (4, true)]
        .into_iter()
        .map(|(sides, wild)| {
            solve(
                Endgame::new(1, 1, sides, wild).unwrap(),
                LpOptions::default(),
            )
        })
        .collect::<Result<_>>()
        .unwrap();
    std::fs::write(&path, cache::encode("fp", &solved).unwrap()).unwrap();
    let loaded = cache::load(&path, "fp").unwrap().unwrap();
    assert_eq!(loaded.len(), 2);
    for (entry, original) in loaded.iter().zip(&solved) {
        let restored = entry.restore().unwrap();
        assert_eq!(restored.strategies, original.strategies);
        assert_eq!(restored.value.to_bits(), original.value.to_bits());
        assert_eq!(restored.exact, original.exact);
        assert_eq!(restored.certificate, original.certificate);
        assert_eq!(restored.size, original.size);
    }
    let err = cache::load(&path, "other").unwrap_err().to_string();
    assert!(err.contains("another solver"), "{err}");

    let bytes = std::fs::read(&path).unwrap();
    let damaged = dir.path().join("damaged.bin");
    let mut flipped = bytes.clone();
    flipped[40] ^= 1;
    std::fs::write(&damaged, &flipped).unwrap();
    let err = cache::load(&damaged, "fp").unwrap_err().to_string();
    assert!(err.contains("checksum"), "{err}");
    std::fs::write(&damaged, &bytes[..bytes.len() / 2]).unwrap();
    assert!(cache::load(&damaged, "fp").is_err());
    std::fs::write(&damaged, b"GAMETABC").unwrap();
    assert!(cache::load(&damaged, "fp").is_err());
    std::fs::write(
        &damaged,
        [b"GAMETABE".as_slice(), &[9, 0, 0, 0], &[0; 40]].concat(),
    )
    .unwrap();
    let err = cache::load(&damaged, "fp").unwrap_err().to_string();
    assert!(err.contains("format version 9"), "{err}");

    // A well-formed file whose strategies are not an equilibrium: refused
    // by the certificate, never used.
    let mut forged = cache::CachedGame::of(&solved[0]);
    let mut always_call = Strategy::zero(solved[0].game, Player::Two);
    for h in (0..solved[0].game.history_count() as u32).map(History) {
        if solved[0].game.to_move(h) == Player::Two {
            for i in 0..solved[0].game.hands(Player::Two).len() {
                always_call.set(i, h, Action::Call, 1.0);
            }
        }
    }
    forged.strategies[1] = always_call
        .positive()
        .map(|(i, h, a, p)| cache::entry_of(i, h, a, p))
        .collect();
    let err = forged.restore().unwrap_err().to_string();
    assert!(err.contains("do not certify"), "{err}");
}

#[test]
fn the_full_lp_size_is_counted_without_building_it() {
    for (a, b, sides, wild) in [
        (1, 1, 3, false),
        (2, 1, 3, true),
        (1, 2, 3, false),
        (1, 1, 4, true),
    ] {
        let game = Endgame::new(a, b, sides, wild).unwrap();
        let built = lp::solve_lp(game, Player::One, LpOptions::default()).unwrap();
        assert_eq!(lp::full_size(game), built.size, "{game}");
    }
}

/// Both methods on every game up to three dice and four sides: the same
/// exact value, both certified, and the double oracle's restricted LP no
/// larger than the full one.
#[test]
fn the_double_oracle_and_the_full_lp_agree() {
    for (a, b) in [(1, 1), (2, 1), (1, 2)] {
        for (sides, wild) in (1..=4)
            .map(|s| (s, false))
            .chain((2..=4).map(|s| (s, true)))
        {
            let game = Endgame::new(a, b, sides, wild).unwrap();
            let full = solve_with(game, LpOptions::default(), Method::FullLp).unwrap();
            let oracle = solve_with(game, LpOptions::default(), Method::DoubleOracle).unwrap();
            assert_eq!(full.exact, oracle.exact, "{game}");
            assert!(full.exact.is_some(), "{game}");
            assert!(oracle.certificate.is_certified(), "{game}");
            assert!((full.value - oracle.value).abs() < 1e-12, "{game}");
            assert!(oracle.size.nonzeros <= full.size.nonzeros, "{game}");
            assert_eq!(oracle.full_size, full.size, "{game}");
            // A cold solve of every round's LP reaches the same value.
            let cold = LpOptions {
                warm_start: false,
                ..LpOptions::default()
            };
            let again = solve_with(game, cold, Method::DoubleOracle).unwrap();
            assert_eq!(again.exact, oracle.exact, "{game}");
        }
    }
}

/// The double oracle's pruned best response and the certificate's walk
/// over every history are two implementations of the same quantity: on
/// the same (extended) strategies they agree.
#[test]
fn the_oracle_best_response_equals_the_certificate_walk() {
    use restricted::{CallPayoffs, ExtendedPlay};
    for (a, b, sides, wild) in [(1, 1, 4, false), (2, 1, 3, false), (1, 2, 3, true)] {
        let game = Endgame::new(a, b, sides, wild).unwrap();
        let payoffs = CallPayoffs::new(game);
        // The default strategy everywhere (call, open with the lowest bid),
        // and the solved strategies of the double oracle before the fill.
        let default = [Player::One, Player::Two].map(|p| ExtendedPlay::default_everywhere(game, p));
        let dense = [Player::One, Player::Two].map(|p| oracle::default_strategy(game, p));
        for p in [Player::One, Player::Two] {
            let me = p.opponent();
            let pruned = oracle::best_response(game, &payoffs, me, &default[p.index()]);
            let walked = certificate::best_response(&dense[p.index()], None);
            assert!(
                (pruned.value - walked).abs() < 1e-12,
                "{game}: {} vs {walked}",
                pruned.value
            );
        }
        let solved = solve_with(game, LpOptions::default(), Method::DoubleOracle).unwrap();
        let cert = certificate::certify(&solved.strategies[0], &solved.strategies[1]);
        assert!((cert.upper - solved.value).abs() < 1e-9);
        assert!((cert.lower - solved.value).abs() < 1e-9);
    }
}

#[test]
fn a_restored_game_is_the_solved_one_for_both_methods() {
    for method in [Method::FullLp, Method::DoubleOracle] {
        let game = Endgame::new(2, 1, 3, true).unwrap();
        let solved = solve_with(game, LpOptions::default(), method).unwrap();
        let restored = cache::CachedGame::of(&solved).restore().unwrap();
        assert_eq!(restored.strategies, solved.strategies, "{method:?}");
        assert_eq!(restored.certificate, solved.certificate, "{method:?}");
        assert_eq!(restored.method, method);
    }
}

/// A deadline already passed stops the double oracle after its first
/// round, with bounds that bracket the game value; without one it runs to
/// the equilibrium the build stores.
#[test]
fn the_oracle_stops_at_its_deadline_with_valid_bounds() {
    use oracle::{solve_double_oracle, OracleOutcome};
    let game = Endgame::new(2, 1, 4, false).unwrap();
    let value = Fraction::parse("345/1696").unwrap().value();
    let passed = std::time::Instant::now();
    let stopped = solve_double_oracle(game, LpOptions::default(), Some(passed)).unwrap();
    let OracleOutcome::OutOfTime(state) = stopped else {
        panic!("{game} converged in one round");
    };
    assert_eq!(state.rounds, 1);
    let [upper, lower] = state.bounds;
    assert!(
        lower <= value + 1e-12 && value <= upper + 1e-12,
        "{state:?}"
    );
    assert!(
        upper - lower > 1e-3,
        "one round is no equilibrium: {state:?}"
    );
    assert_eq!(state.best_bounds, state.bounds);
    let OracleOutcome::Converged(found) =
        solve_double_oracle(game, LpOptions::default(), None).unwrap()
    else {
        panic!("{game} stopped without a deadline");
    };
    assert!(found.state.rounds > 1);
    let [best_upper, best_lower] = found.state.best_bounds;
    assert!(best_lower <= value + 1e-12 && value <= best_upper + 1e-12);
    let built = solve(game, LpOptions::default()).unwrap();
    assert_eq!(built.value.to_bits(), found.state.value.to_bits());
    assert_eq!(built.lps, found.state.rounds);
}

/// The certificate `strategies_from_entries` takes from its best-response
/// fill is `certify`'s on the filled pair, to the bit, for both methods on
/// every small game (the fills of most of these change information sets).
#[test]
fn the_fill_certificate_is_certify_on_the_filled_pair() {
    let mut filled = 0;
    for (a, b) in [(1, 1), (2, 1), (1, 2)] {
        for sides in 2..=4 {
            for wild in [false, true] {
                let game = Endgame::new(a, b, sides, wild).unwrap();
                for method in [Method::FullLp, Method::DoubleOracle] {
                    let solved = solve_with(game, LpOptions::default(), method).unwrap();
                    let (strategies, cert) =
                        cache::strategies_from_entries(game, &solved.entries).unwrap();
                    let again = certificate::certify(&strategies[0], &strategies[1]);
                    assert_eq!(
                        cert.upper.to_bits(),
                        again.upper.to_bits(),
                        "{game} {method:?}"
                    );
                    assert_eq!(
                        cert.lower.to_bits(),
                        again.lower.to_bits(),
                        "{game} {method:?}"
                    );
                    let unfilled = cache::strategies_before_fill(game, &solved.entries).unwrap();
                    // Player 2's fill is the one the argument is about.
                    filled += usize::from(unfilled[1] != strategies[1]);
                }
            }
        }
    }
    assert!(
        filled > 0,
        "no fill changed player 2's strategy: the test shows nothing"
    );
}

/// A fraction is claimed only from the certified bracket: the simplest
/// inside it, and only when simple enough for its width
/// ([`MAX_CLAIM_SPREAD`]), wherever the stored value lies.
#[test]
fn a_fraction_is_claimed_only_inside_the_certified_bracket() {
    // The frontier's 2v2 six-sided normal game: the nearest fraction of
    // denominator up to a million is within 1e-12 of the value but 2e-13
    // outside a bracket 6e-16 wide.
    let value = -0.016_849_028_111_081_5;
    let near = Fraction::near(value, MAX_DENOMINATOR, FRACTION_TOLERANCE).unwrap();
    assert_eq!(near.to_string(), "-8357/495993");
    let tight = Certificate {
        lower: value - 3e-16,
        upper: value + 3e-16,
    };
    assert_eq!(exact_value(&tight), None);
    // A bracket 2e-12 wide holds it, but a bracket that wide holds a
    // fraction of such a denominator by chance about once in seven
    // (q^2 w = 0.49): no claim.
    let wide = Certificate {
        lower: value - 1e-12,
        upper: value + 1e-12,
    };
    let (lower, upper) = (wide.lower - BRACKET_ROUNDING, wide.upper + BRACKET_ROUNDING);
    let inside = Fraction::simplest_in(lower, upper, MAX_DENOMINATOR).unwrap();
    assert!(inside.denominator <= 495_993, "{inside}");
    assert_eq!(exact_value(&wide), None);
    // The same width around a simple fraction claims it (q^2 w = 1e-10),
    // off centre too.
    let seventh = Certificate {
        lower: 1.0 / 7.0 - 1.5e-12,
        upper: 1.0 / 7.0 + 0.5e-12,
    };
    assert_eq!(exact_value(&seventh), Fraction::parse("1/7"));
    // 2v2 six-sided wild's certified bracket (7.8e-13 wide) holds
    // 8463/754556, within 1e-12 of its midpoint, but at q^2 w = 0.44 that
    // says nothing: no claim.
    let (lower, upper) = (0.011_215_867_344_271_8, 0.011_215_867_345_049_5);
    let inside = Fraction::parse("8463/754556").unwrap();
    assert!(inside.value() > lower && inside.value() < upper);
    assert!((inside.value() - (lower + upper) / 2.0).abs() < FRACTION_TOLERANCE);
    assert_eq!(exact_value(&Certificate { lower, upper }), None);
    // 3v1 six-sided wild's bracket (8.9e-13) claims 671/1944 (3.4e-6).
    let (lower, upper) = (0.345_164_609_053_454_3, 0.345_164_609_054_343_5);
    assert_eq!(
        exact_value(&Certificate { lower, upper }),
        Fraction::parse("671/1944")
    );
    // The largest claim of the default games, 2v1 six-sided normal's
    // 212027/771552 (q^2 w = 1.3e-3 with the rounding), on a bracket of
    // the float nearest to it.
    let v = 212_027.0 / 771_552.0;
    let point = Certificate { lower: v, upper: v };
    assert_eq!(exact_value(&point), Fraction::parse("212027/771552"));
    // A fraction no float holds (1/9) is claimed when the bracket is the
    // float nearest to it, as the default games' are (they lie at most
    // 3.4e-17 outside their brackets).
    let ninth = -1.0 / 9.0;
    let point = Certificate {
        lower: ninth,
        upper: ninth,
    };
    assert_eq!(exact_value(&point), Fraction::parse("-1/9"));
    // No bracket, no claim.
    let nan = Certificate {
        lower: f64::NAN,
        upper: 0.0,
    };
    assert_eq!(exact_value(&nan), None);
}

/// The simplest fraction in an interval: brute force over the fractions
/// of small denominators agrees on random intervals (fixed seed), and it
/// is in lowest terms.
#[test]
fn the_simplest_fraction_in_an_interval_is_the_smallest_denominator_there() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    for _ in 0..2000 {
        let lower = next() * 2.0 - 1.0;
        let upper = lower + next() * next() * 1e-3;
        let found = Fraction::simplest_in(lower, upper, 200);
        // Brute force with exact integer comparisons against the floats'
        // products, over every denominator up to 200.
        let expected = (1..=200u64).find_map(|q| {
            (-200..=200i64)
                .find(|&p| p as f64 >= lower * q as f64 && p as f64 <= upper * q as f64)
                .map(|p| (p, q))
        });
        match (found, expected) {
            (Some(f), Some((p, q))) => {
                assert_eq!(f.denominator, q, "[{lower}, {upper}]");
                assert_eq!(f.numerator * q as i64, p * f.denominator as i64);
                assert_eq!(gcd_of(f.numerator.unsigned_abs(), f.denominator), 1);
            }
            (None, None) => {}
            other => panic!("[{lower}, {upper}]: {other:?}"),
        }
    }
    assert_eq!(Fraction::simplest_in(0.3, 0.2, 10), None);
    assert_eq!(Fraction::simplest_in(-0.5, 0.5, 10), Fraction::parse("0"));
    assert_eq!(
        Fraction::simplest_in(0.33, 0.34, 10),
        Fraction::parse("1/3")
    );
    assert_eq!(
        Fraction::simplest_in(-0.34, -0.33, 10),
        Fraction::parse("-1/3")
    );
    assert_eq!(Fraction::simplest_in(0.33, 0.34, 2), None);
}

fn gcd_of(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd_of(b, a % b)
    }
}

/// Both stored forms of a solved game's strategies: the solver's entries
/// (before the fill) and every positive entry of the filled strategies
/// (what the strategy table holds).
fn stored_forms(s: &SolvedEndgame) -> [[Vec<cache::CachedEntry>; 2]; 2] {
    let filled = s.strategies.each_ref().map(|strategy| {
        strategy
            .positive()
            .map(|(i, h, a, p)| cache::entry_of(i, h, a, p))
            .collect()
    });
    [s.entries.clone(), filled]
}

#[test]
fn the_sparse_certificate_equals_the_every_history_certificate() {
    let mut games = Vec::new();
    for (a, b) in [(1, 1), (2, 1), (1, 2)] {
        for sides in 2..=4 {
            games.push(Endgame::new(a, b, sides, false).unwrap());
            games.push(Endgame::new(a, b, sides, true).unwrap());
        }
    }
    games.push(Endgame::new(1, 1, 6, false).unwrap());
    games.push(Endgame::new(2, 1, 5, true).unwrap());
    for game in games {
        let s = solve(game, LpOptions::default()).unwrap();
        for entries in stored_forms(&s) {
            let sparse = sparse::certify(game, &entries).unwrap().certificate;
            assert!(
                (sparse.upper - s.certificate.upper).abs() <= 1e-12
                    && (sparse.lower - s.certificate.lower).abs() <= 1e-12,
                "{game}: sparse {sparse:?}, dense {:?}",
                s.certificate
            );
            assert!(sparse.is_certified(), "{game}");
        }
    }
}

#[test]
fn the_sparse_certificate_finds_a_perturbed_strategy_exploitable() {
    for (a, b, sides, wild) in [(1, 1, 4, false), (2, 1, 3, true), (1, 2, 4, false)] {
        let game = Endgame::new(a, b, sides, wild).unwrap();
        let s = solve(game, LpOptions::default()).unwrap();
        let top = game.bid_count() as u8 - 1;
        for p in 0..2 {
            // The first few information sets given, each in turn made to
            // play the highest bid (the call after it): a deviation that
            // the opponent's best response punishes wherever the set is
            // reached.
            let mut sets: Vec<(u8, u32)> = s.entries[p].iter().map(|e| (e.0, e.1)).collect();
            sets.dedup();
            let mut worst: f64 = 0.0;
            for &(hand, h) in sets.iter().take(6) {
                let mut entries = s.entries.clone();
                entries[p].retain(|e| (e.0, e.1) != (hand, h));
                let last = History(h).last();
                let code = if last == Some(top) { 0 } else { top + 1 };
                entries[p].push((hand, h, code, 1.0));
                entries[p].sort_by_key(|e| (e.0, e.1, e.2));
                let sparse = sparse::certify(game, &entries).unwrap().certificate;
                let [one, two] = cache::strategies_before_fill(game, &entries).unwrap();
                let dense = certificate::certify(&one, &two);
                assert!(
                    (sparse.upper - dense.upper).abs() <= 1e-12
                        && (sparse.lower - dense.lower).abs() <= 1e-12,
                    "{game}: sparse {sparse:?}, dense {dense:?}"
                );
                worst = worst.max(sparse.exploitability());
            }
            assert!(worst > 1e-3, "{game}, player {}: {worst}", p + 1);
        }
    }
}

#[test]
fn the_sparse_certificate_refuses_malformed_strategies() {
    let game = Endgame::new(1, 1, 3, false).unwrap();
    let s = solve(game, LpOptions::default()).unwrap();
    let damaged = |edit: &dyn Fn(&mut Vec<cache::CachedEntry>)| {
        let mut entries = s.entries.clone();
        edit(&mut entries[1]);
        sparse::certify(game, &entries)
    };
    assert!(damaged(&|_| ()).is_ok());
    // A probability changed: the set no longer sums to 1.
    assert!(damaged(&|l| l[0].3 += 0.25).is_err());
    // An entry at player 1's information set (the opening).
    assert!(damaged(&|l| l.push((0, 0, 1, 1.0))).is_err());
    // An illegal action: the lowest bid after the second lowest.
    assert!(damaged(&|l| l.push((0, 0b010, 1, 1.0))).is_err());
    // A hand outside the game.
    assert!(damaged(&|l| l.push((9, 1, 0, 1.0))).is_err());
    // Grouped entries whose information set is split apart: refused.
    let split = [(0, 1, 0, 0.5), (1, 1, 0, 1.0), (0, 1, 1, 0.5)];
    assert!(sparse::SparseStrategy::from_grouped(game, Player::Two, split).is_err());
    let together = [(0, 1, 0, 0.5), (0, 1, 2, 0.5), (1, 1, 0, 1.0)];
    assert!(sparse::SparseStrategy::from_grouped(game, Player::Two, together).is_ok());
    // A negative probability, balanced so the sum stays 1.
    assert!(damaged(&|l| {
        let (hand, h) = (l[0].0, l[0].1);
        l.retain(|e| (e.0, e.1) != (hand, h));
        l.extend([(hand, h, 0, 1.5), (hand, h, 3, -0.5)]);
    })
    .is_err());
}

/// A game far beyond the dense layout (2v2 with six sides: 2^24
/// histories times 21 hands) certified from a few entries: the walk
/// enters only what the stored strategies reach. Player 1 opens with the
/// lowest bid (one 1) and player 2 calls at once (both defaults): the bid
/// is true unless no die of the four shows a 1, so player 1 wins with
/// probability 1 - (5/6)^4, and both best responses are worth more to
/// their player than that.
#[test]
fn the_sparse_certificate_walks_only_the_support_of_a_large_game() {
    let game = Endgame::new(2, 2, 6, false).unwrap();
    assert!(Strategy::slots(game, Player::One) > gametab_games::dice::endgame::MAX_STRATEGY_SLOTS);
    let none: [Vec<cache::CachedEntry>; 2] = [Vec::new(), Vec::new()];
    let found = sparse::certify(game, &none).unwrap();
    let value = 2.0 * (1.0 - (5.0f64 / 6.0).powi(4)) - 1.0;
    assert!(found.certificate.upper > value + 0.1);
    assert!(found.certificate.lower < value - 0.1);
    // The opening's 24 bids, and player 2's 23 replies after the lowest.
    assert!(found.visited < 200, "visited {}", found.visited);
}

/// The cache stores each game's sparse certificate beside its value, and
/// a file of version 2 (before it) is still read: its games certify on
/// restore all the same.
#[test]
fn the_cache_stores_the_sparse_certificate_and_reads_version_2() {
    let dir = tempfile::tempdir().unwrap();
    let game = Endgame::new(2, 1, 3, true).unwrap();
    let solved = solve(game, LpOptions::default()).unwrap();
    let entry = cache::CachedGame::of(&solved);
    assert_eq!(
        entry.certificate,
        (solved.sparse.upper, solved.sparse.lower)
    );
    assert!((solved.sparse.upper - solved.certificate.upper).abs() <= 1e-12);
    assert!((solved.sparse.lower - solved.certificate.lower).abs() <= 1e-12);
    // Version 2: the same game without the certificate field.
    let v2 = (
        "fp".to_owned(),
        vec![(
            entry.key,
            entry.value,
            entry.method.clone(),
            entry.size,
            entry.full_size,
            entry.lps,
            entry.strategies.clone(),
        )],
    );
    let payload = bincode::encode_to_vec(&v2, bincode::config::standard()).unwrap();
    let path = dir.path().join("v2.bin");
    std::fs::write(&path, cache::frame(cache::MAGIC, 2, &payload)).unwrap();
    let loaded = cache::load(&path, "fp").unwrap().unwrap();
    assert!(loaded[0].certificate.0.is_nan());
    let restored = loaded[0].restore().unwrap();
    assert_eq!(restored.sparse, solved.sparse);
    assert_eq!(restored.strategies, solved.strategies);
    let sparse = loaded[0].restore_sparse().unwrap();
    assert_eq!(sparse.certificate, solved.sparse);
    assert_eq!(sparse.exact, solved.exact);
}

/// The double oracle resumed from the restricted game of a run cut off
/// after its first round reaches the same value as a run from nothing,
/// and the restricted game round-trips through its list.
#[test]
fn the_oracle_resumes_from_a_restricted_game() {
    use oracle::{solve_double_oracle_from, OracleOutcome};
    let game = Endgame::new(2, 1, 4, false).unwrap();
    let past = std::time::Instant::now();
    let (cut, restricted) =
        solve_double_oracle_from(game, LpOptions::default(), Some(past), None).unwrap();
    assert!(matches!(cut, OracleOutcome::OutOfTime(_)));
    let list = restricted.included();
    let again = restricted::RestrictedGame::from_included(game, &list).unwrap();
    assert_eq!(again.included(), list);
    assert_eq!(again.sequences(), restricted.sequences());
    let (done, _) =
        solve_double_oracle_from(game, LpOptions::default(), None, Some(again)).unwrap();
    let OracleOutcome::Converged(found) = done else {
        panic!("not converged")
    };
    let resumed = certify_oracle(game, found).unwrap();
    assert_eq!(resumed.exact, Fraction::parse("345/1696"));
    // A list naming an action of no game is refused.
    assert!(restricted::RestrictedGame::from_included(game, &[(0, 0, 1)]).is_err());
}

/// The interior point method without crossover ends exactly: its last
/// rounds are the simplex's, and the equilibrium certifies.
#[test]
fn the_interior_point_without_crossover_finishes_exactly() {
    let game = Endgame::new(2, 1, 4, false).unwrap();
    let options = LpOptions {
        method: "ipm",
        crossover: false,
        ..LpOptions::default()
    };
    let s = solve_with(game, options, Method::DoubleOracle).unwrap();
    assert_eq!(s.exact, Fraction::parse("345/1696"));
    assert!(s.certificate.is_certified() && s.sparse.is_certified());
}

/// The method of each round of the double oracle on 2v1 four-sided normal
/// with `options`, starting from the bracket `known`, asserting that it
/// ends at the exact, certified 345/1696.
fn round_methods(options: LpOptions, known: [f64; 2]) -> Vec<&'static str> {
    use oracle::{solve_double_oracle_watched, OracleOutcome};
    let game = Endgame::new(2, 1, 4, false).unwrap();
    let mut methods = Vec::new();
    let (done, _) = solve_double_oracle_watched(
        game,
        options,
        None,
        None,
        known,
        [None, None],
        &mut |s, _, _| {
            methods.push(s.method);
        },
    )
    .unwrap();
    let OracleOutcome::Converged(found) = done else {
        panic!("not converged")
    };
    let solved = certify_oracle(game, found).unwrap();
    assert_eq!(solved.exact, Fraction::parse("345/1696"));
    assert!(solved.sparse.is_certified());
    methods
}

/// Interior point rounds without crossover, the rest as the defaults.
fn ipm_rounds() -> LpOptions {
    LpOptions {
        method: "ipm",
        crossover: false,
        ..LpOptions::default()
    }
}

const OPEN: [f64; 2] = [f64::INFINITY, f64::NEG_INFINITY];

/// A bracket known from earlier jobs narrower than [`oracle::FINISH_WIDTH`]
/// ends the interior point rounds after the first, with new sequences or
/// not; without it they go on. Both end at the exact, certified value.
#[test]
fn a_narrow_known_bracket_ends_the_interior_point_rounds() {
    let exact = 345.0 / 1696.0;
    let open = round_methods(ipm_rounds(), OPEN);
    assert!(open.len() > 2 && open[..2] == ["ipm", "ipm"], "{open:?}");
    let half = oracle::FINISH_WIDTH / 4.0;
    let narrow = round_methods(ipm_rounds(), [exact + half, exact - half]);
    assert_eq!(narrow[0], "ipm", "{narrow:?}");
    assert!(narrow[1..].iter().all(|&m| m == "simplex"), "{narrow:?}");
}

/// A restricted LP of at least `ipm_finish_rows` rows is finished by the
/// interior point method with crossover, not the dual simplex, to the same
/// certified fraction; the rows bound decides, not the game. (The pair of
/// best strategies is turned off: on this small game it reaches the pair
/// width in the interior point rounds and ends the run there.)
#[test]
fn a_large_restricted_lp_is_finished_by_the_interior_point_method_with_crossover() {
    let finish = |ipm_finish_rows| {
        let options = LpOptions {
            ipm_finish_rows,
            pair_width: -1.0,
            ..ipm_rounds()
        };
        let methods = round_methods(options, OPEN);
        let first = methods.iter().position(|&m| m != "ipm").unwrap();
        assert!(
            methods[first..].iter().all(|&m| m == methods[first]),
            "{methods:?}"
        );
        methods[first]
    };
    assert_eq!(finish(0), "ipm with crossover");
    assert_eq!(finish(usize::MAX), "simplex");
}

/// The restricted games of the plain double oracle's first `rounds`
/// rounds (the dual simplex, each player's best response brought in), the
/// empty one first.
fn plain_rounds(game: Endgame, rounds: usize) -> Vec<restricted::RestrictedGame> {
    use gametab_games::dice::endgame::Player;
    use restricted::{CallPayoffs, RestrictedGame, RestrictedLp};
    let payoffs = CallPayoffs::new(game);
    let mut games = vec![RestrictedGame::new(game).unwrap()];
    for _ in 0..rounds {
        let mut next = games.last().unwrap().clone();
        let tree = next.tree();
        let mut lp = RestrictedLp::new(LpOptions::default()).unwrap();
        let s = lp.solve(&next, &tree, &payoffs).unwrap();
        for player in Player::BOTH {
            let other = &s.play[player.opponent().index()];
            let response = oracle::best_response(game, &payoffs, player, other);
            for &(h, a, hands) in &response.sequences {
                next.include(h, a, hands);
            }
        }
        games.push(next);
    }
    games
}

/// A restricted game with one player completed
/// ([`restricted::RestrictedGame::complete`], and without the bids that
/// only lose ground, [`restricted::RestrictedGame::complete_undominated`],
/// which adds fewer sequences for the same value): the other's strategy from
/// its LP is optimal against every strategy of the completed player, so
/// that player's best response on the full game gains nothing over the
/// restricted value, while the other way round it still does (his own
/// sequences are few). On 2v1 four-sided normal and 2v2 three-sided wild,
/// each player completed in turn, from the opening's defaults and from
/// the restricted games of the double oracle's first rounds (where the
/// completed player's new actions reach more of the opponent's tree).
#[test]
fn a_completed_player_cannot_gain_against_the_restricted_equilibrium() {
    use gametab_games::dice::endgame::Player;
    use restricted::{CallPayoffs, RestrictedLp};
    for game in [
        Endgame::new(2, 1, 4, false).unwrap(),
        Endgame::new(2, 2, 3, true).unwrap(),
    ] {
        let payoffs = CallPayoffs::new(game);
        // The restricted games of the oracle's first rounds.
        let starts = plain_rounds(game, 3);
        for (round, start) in starts.iter().enumerate() {
            for player in Player::BOTH {
                let mut restricted = start.clone();
                restricted.tree();
                let before = restricted.sequences();
                let mut undominated = restricted.clone();
                let added = restricted.complete(player);
                assert!(added > 0, "{game} {round} {player:?}: {added} of {before}");
                assert_eq!(restricted.complete(player), 0);
                let fewer = undominated.complete_undominated(player, &payoffs);
                assert!(
                    fewer > 0 && fewer < added,
                    "{game} {round} {player:?}: {fewer} undominated of {added}"
                );
                assert_eq!(undominated.complete_undominated(player, &payoffs), 0);
                let mut values = Vec::new();
                for completed_game in [&mut restricted, &mut undominated] {
                    let tree = completed_game.tree();
                    let mut lp = RestrictedLp::new(LpOptions::default()).unwrap();
                    let s = lp.solve(completed_game, &tree, &payoffs).unwrap();
                    let responses = [
                        oracle::best_response(game, &payoffs, Player::One, &s.play[1]),
                        oracle::best_response(game, &payoffs, Player::Two, &s.play[0]),
                    ];
                    let gains = [responses[0].value - s.value, responses[1].value + s.value];
                    let (completed, other) = match player {
                        Player::One => (gains[0], gains[1]),
                        Player::Two => (gains[1], gains[0]),
                    };
                    assert!(
                        completed.abs() <= 1e-12,
                        "{game} {round} {player:?}: {gains:?}"
                    );
                    if round == 0 {
                        assert!(other > 1e-3, "{game} {player:?}: {gains:?}");
                    }
                    values.push(s.value);
                }
                // Without the dominated bids the LP is smaller and its
                // value the same.
                assert!(
                    (values[0] - values[1]).abs() <= 1e-12,
                    "{game} {round} {player:?}: {values:?}"
                );
            }
        }
    }
}

/// Cut to the support of an equilibrium strategy of his, a player keeps
/// exactly the sequences it plays (realisation weight above the cut), and
/// the opponent completed against that support makes an LP far smaller
/// than the opponent completed on the whole restricted game, whose
/// strategy of the first player is still exact: the opponent's best
/// response gains nothing against it.
#[test]
fn a_player_completed_against_the_others_support_leaves_the_others_strategy_exact() {
    use gametab_games::dice::endgame::Player;
    use restricted::{CallPayoffs, RestrictedLp};
    let game = Endgame::new(2, 1, 4, false).unwrap();
    let exact = 345.0 / 1696.0;
    let payoffs = CallPayoffs::new(game);
    let (done, restricted) =
        oracle::solve_double_oracle_from(game, LpOptions::default(), None, None).unwrap();
    let oracle::OracleOutcome::Converged(found) = done else {
        panic!("not converged")
    };
    for player in Player::BOTH {
        let other = player.opponent();
        let play = &found.entries[other.index()];
        let mut cut = restricted.clone();
        cut.tree();
        let before = cut.sequences();
        let dropped = cut.cut_to_support(other, &[play], oracle::SUPPORT_ABOVE);
        assert!(dropped > 0, "{player:?}: nothing outside the support");
        assert_eq!(cut.sequences(), before - dropped);
        // What is left of his is what he plays: cutting again drops nothing.
        assert_eq!(cut.cut_to_support(other, &[play], oracle::SUPPORT_ABOVE), 0);
        // Above every weight: nothing of his is left; his opponent's
        // sequences are untouched.
        let mut none = cut.clone();
        let his = none.cut_to_support(other, &[play], 1.0 + 1e-9);
        assert!(his > 0 && none.sequences() == before - dropped - his);
        assert!(none.actions(History::EMPTY).is_empty() == (other == Player::One));
        let size = |mut g: restricted::RestrictedGame| {
            g.complete(player);
            let tree = g.tree();
            let mut lp = RestrictedLp::new(LpOptions::default()).unwrap();
            let s = lp.solve(&g, &tree, &payoffs).unwrap();
            (g.sequences(), s)
        };
        let (whole, _) = size(restricted.clone());
        let (on_support, s) = size(cut);
        assert!(on_support < whole, "{player:?}: {on_support} of {whole}");
        let response = oracle::best_response(game, &payoffs, player, &s.play[other.index()]);
        let bound = match player {
            Player::One => response.value,
            Player::Two => -response.value,
        };
        assert!(
            (bound - exact).abs() <= 1e-12,
            "{player:?}: {bound} {exact}"
        );
        assert!((s.value - exact).abs() <= 1e-12, "{player:?}: {}", s.value);
    }
}

/// Cut to the supports of two strategies of his at once, a player keeps
/// exactly the union of what each cut alone keeps (his opponent's
/// sequences untouched), and to no strategy nothing of his: on 2v1
/// four-sided normal, the equilibrium's strategy with an early round's.
#[test]
fn a_cut_to_several_supports_keeps_the_union_of_each_cut() {
    use gametab_games::dice::endgame::Player;
    use restricted::{CallPayoffs, RestrictedLp};
    use std::collections::BTreeSet;
    let game = Endgame::new(2, 1, 4, false).unwrap();
    let payoffs = CallPayoffs::new(game);
    let (done, restricted) =
        oracle::solve_double_oracle_from(game, LpOptions::default(), None, None).unwrap();
    let oracle::OracleOutcome::Converged(found) = done else {
        panic!("not converged")
    };
    let mut early = plain_rounds(game, 2).pop().unwrap();
    let tree = early.tree();
    let mut lp = RestrictedLp::new(LpOptions::default()).unwrap();
    let s = lp.solve(&early, &tree, &payoffs).unwrap();
    let set = |g: &restricted::RestrictedGame| -> BTreeSet<(u32, u8, usize)> {
        g.included()
            .into_iter()
            .flat_map(|(h, a, hands)| {
                (0..128)
                    .filter(move |i| hands >> i & 1 == 1)
                    .map(move |i| (h, a, i))
            })
            .collect()
    };
    for player in Player::BOTH {
        let equilibrium = found.entries[player.index()].as_slice();
        let round: Vec<_> = s.play[player.index()].entries().collect();
        let cut = |plays: &[&[(usize, History, gametab_games::dice::endgame::Action, f64)]]| {
            let mut g = restricted.clone();
            let dropped = g.cut_to_support(player, plays, oracle::SUPPORT_ABOVE);
            assert_eq!(g.sequences() + dropped, restricted.sequences());
            set(&g)
        };
        let (a, b) = (cut(&[equilibrium]), cut(&[&round]));
        let both = cut(&[equilibrium, &round]);
        assert!(
            a != both && b != both,
            "{player:?}: one support holds the other"
        );
        assert_eq!(both, &a | &b, "{player:?}");
        // Nothing of his is left without a strategy; all of his opponent's is.
        let none = cut(&[]);
        let whole = set(&restricted);
        let his = |g: &BTreeSet<(u32, u8, usize)>| {
            g.iter()
                .filter(|&&(h, _, _)| game.to_move(History(h)) == player)
                .count()
        };
        assert_eq!(his(&none), 0, "{player:?}");
        assert_eq!(none.len(), whole.len() - his(&whole), "{player:?}");
    }
}

/// A run that starts at a large restricted LP (a resumed job) completes
/// both players on copies after its first round, whatever its bracket,
/// and the run still ends at the exact value; a run below the size
/// completes nobody.
#[test]
fn a_run_resumed_at_a_large_restricted_lp_completes_both_players_after_its_first_round() {
    use oracle::{solve_double_oracle_watched, OracleOutcome};
    let game = Endgame::new(2, 1, 4, false).unwrap();
    // The restricted game after three rounds of the plain oracle: far
    // from the equilibrium.
    let start = plain_rounds(game, 3).pop().unwrap();
    for (large, completions) in [(0, [0, 2]), (usize::MAX, [0, 0])] {
        let options = LpOptions {
            ipm_finish_rows: large,
            ..ipm_rounds()
        };
        let mut seen = Vec::new();
        let (done, _) = solve_double_oracle_watched(
            game,
            options,
            None,
            Some(start.clone()),
            OPEN,
            [None, None],
            &mut |s, _, _| seen.push((s.best_bounds, s.completions)),
        )
        .unwrap();
        assert!(seen.len() >= 2, "{seen:?}");
        let [upper, lower] = seen[0].0;
        assert!(upper - lower > oracle::FINISH_WIDTH, "{seen:?}");
        assert_eq!([seen[0].1, seen[1].1], completions, "{seen:?}");
        let OracleOutcome::Converged(found) = done else {
            panic!("not converged")
        };
        let solved = certify_oracle(game, found).unwrap();
        assert_eq!(solved.exact, Fraction::parse("345/1696"));
    }
}

/// At a large restricted LP, the best strategies of both players over the
/// run end the double oracle once their bracket is within the pair width,
/// in the round the pair forms (not after one more round of the exact
/// finish): the pair returned is the one whose bounds the oracle tracked
/// (the independent sparse walk finds the same bracket), it brackets the
/// exact value, and its value is the middle of its bracket. Forced on
/// 2v1 four-sided normal by a known narrow bracket (the first round would
/// switch to the exact finish) and a pair width of 2 (any bracket:
/// payoffs are within 1 of 0); with the default width the same start ends
/// at the exact value.
#[test]
fn the_best_pair_of_the_run_ends_the_finish_within_the_pair_width() {
    use oracle::{solve_double_oracle_watched, OracleOutcome};
    let game = Endgame::new(2, 1, 4, false).unwrap();
    let exact = 345.0 / 1696.0;
    let half = oracle::FINISH_WIDTH / 4.0;
    let run = |pair_width| {
        let options = LpOptions {
            ipm_finish_rows: 0,
            pair_width,
            ..ipm_rounds()
        };
        let mut rounds = Vec::new();
        let (done, _) = solve_double_oracle_watched(
            game,
            options,
            None,
            None,
            [exact + half, exact - half],
            [None, None],
            &mut |s, _, _| rounds.push((s.method, s.bounds)),
        )
        .unwrap();
        let OracleOutcome::Converged(found) = done else {
            panic!("not converged")
        };
        (found, rounds)
    };
    let (found, rounds) = run(2.0);
    assert_eq!(rounds.iter().map(|r| r.0).collect::<Vec<_>>(), ["ipm"]);
    let [upper, lower] = found.state.bounds;
    assert!(upper - lower > 1e-3, "{upper} {lower}");
    // The bounds are the round's.
    assert_eq!([upper, lower], rounds[0].1);
    assert_eq!(found.state.value, lower + (upper - lower) / 2.0);
    let entries = found.entries.map(|list| {
        list.into_iter()
            .map(|(i, h, a, p)| cache::entry_of(i, h, a, p))
            .collect()
    });
    let cert = sparse::certify(game, &entries).unwrap().certificate;
    assert!((cert.upper - upper).abs() < 1e-12, "{cert:?} {upper}");
    assert!((cert.lower - lower).abs() < 1e-12, "{cert:?} {lower}");
    assert!(lower <= exact + 1e-12 && exact < upper);
    let (found, _) = run(oracle::PAIR_WIDTH);
    let solved = certify_oracle(game, found).unwrap();
    assert_eq!(solved.exact, Fraction::parse("345/1696"));
}

/// The double oracle's look-ahead (one and two steps a round) reaches the
/// plain double oracle's exact values on the small games, both
/// certificates passing.
#[test]
fn the_look_ahead_reaches_the_same_certified_values() {
    for (a, b, sides, wild) in [
        (1, 1, 4, false),
        (2, 1, 4, false),
        (1, 2, 4, false),
        (2, 1, 3, true),
        (1, 2, 4, true),
        (2, 2, 2, false),
    ] {
        let game = Endgame::new(a, b, sides, wild).unwrap();
        let plain = solve_with(game, LpOptions::default(), Method::DoubleOracle).unwrap();
        assert!(plain.exact.is_some(), "{game}");
        for lookahead in [1, 2] {
            let options = LpOptions {
                lookahead,
                ..LpOptions::default()
            };
            let s = solve_with(game, options, Method::DoubleOracle).unwrap();
            assert_eq!(s.exact, plain.exact, "{game}, {lookahead} steps");
            assert!(
                s.certificate.is_certified() && s.sparse.is_certified(),
                "{game}, {lookahead} steps"
            );
        }
    }
}

/// Pruning the restricted game (down to a handful of sequences, so that
/// the small games prune many times) reaches the plain double oracle's
/// exact values, both certificates passing, by the simplex and by the
/// interior point method.
#[test]
fn pruning_reaches_the_same_certified_values() {
    for (a, b, sides, wild) in [
        (2, 1, 4, false),
        (1, 2, 4, true),
        (2, 2, 2, false),
        (2, 2, 3, true),
    ] {
        let game = Endgame::new(a, b, sides, wild).unwrap();
        let plain = solve_with(game, LpOptions::default(), Method::DoubleOracle).unwrap();
        assert!(plain.exact.is_some(), "{game}");
        for method in ["simplex", "ipm"] {
            let options = LpOptions {
                method,
                crossover: method == "simplex",
                prune: Some(20),
                ..LpOptions::default()
            };
            let s = solve_with(game, options, Method::DoubleOracle).unwrap();
            assert_eq!(s.exact, plain.exact, "{game}, {method}");
            assert!(
                s.certificate.is_certified() && s.sparse.is_certified(),
                "{game}, {method}"
            );
        }
    }
}

/// Pruning drops the sequences the equilibrium does not play (a hand
/// that does not reach the history plays none), keeps the played ones,
/// and drops each sequence at most once.
#[test]
fn pruning_drops_the_unplayed_sequences_once() {
    use super::restricted::{HandSet, RestrictedGame};
    let game = Endgame::new(1, 1, 4, false).unwrap();
    let mut restricted = RestrictedGame::new(game).unwrap();
    let open = History::EMPTY;
    restricted.include(open, Action::Bid(0), HandSet::all(4));
    restricted.include(open, Action::Bid(3), HandSet::one(2).or(HandSet::one(3)));
    let after = open.then(3);
    restricted.include(after, Action::Call, HandSet::all(4));
    assert_eq!(restricted.sequences(), 10);
    let weights = [
        (open, Action::Bid(0), 0u8, 1.0),
        (open, Action::Bid(0), 1, 1.0),
        (open, Action::Bid(0), 2, 0.5),
        (open, Action::Bid(0), 3, 1e-9),
        (open, Action::Bid(3), 2, 0.5),
        (open, Action::Bid(3), 3, 1.0),
        (after, Action::Call, 0, 0.25),
    ];
    let mut dropped = std::collections::HashMap::new();
    // Bid 0 with hand 3 (weight 1e-9), the call after it with hands 1 to 3.
    assert_eq!(restricted.prune(&weights, 1e-7, &mut dropped), 4);
    assert_eq!(restricted.sequences(), 6);
    assert_eq!(
        restricted.actions(open)[0],
        (Action::Bid(0), HandSet::all(3))
    );
    assert_eq!(restricted.actions(after), [(Action::Call, HandSet::one(0))]);
    // Brought back, then not played again: kept, as dropped once before.
    restricted.include(open, Action::Bid(0), HandSet::one(3));
    assert_eq!(restricted.prune(&weights, 1e-7, &mut dropped), 0);
    assert_eq!(restricted.sequences(), 7);
    // Nothing played at all: everything never dropped goes.
    assert_eq!(restricted.prune(&[], 1e-7, &mut dropped), 6);
    assert_eq!(
        restricted.actions(open),
        [(Action::Bid(0), HandSet::one(3))]
    );
}

/// A play mixed with a pure strategy is the mixture of the realisation
/// plans: at the opening, half the default bid and half the pure one's;
/// after the pure one's bid (which the play never makes), the pure one's
/// action alone; hands it gives nothing for play the default.
#[test]
fn a_mixed_play_follows_the_realisation_weights() {
    use super::restricted::{ExtendedPlay, HandSet};
    let game = Endgame::new(1, 1, 4, false).unwrap();
    let play = ExtendedPlay::default_everywhere(game, Player::One);
    let after = History::EMPTY.then(2).then(5);
    let pure = [
        (History::EMPTY, Action::Bid(2), HandSet::all(4)),
        (after, Action::Bid(7), HandSet::one(1)),
    ];
    let mixed = play.mixed(game, &[&pure], 1.0);
    let root = mixed.at(History::EMPTY).unwrap();
    assert_eq!(root.actions, [Action::Bid(0), Action::Bid(2)]);
    for i in 0..4 {
        assert_eq!(root.probability(History::EMPTY, 0, 4, i), 0.5);
        assert_eq!(root.probability(History::EMPTY, 1, 4, i), 0.5);
    }
    let node = mixed.at(after).unwrap();
    assert_eq!(node.given, HandSet::all(4));
    let k = node
        .actions
        .iter()
        .position(|&a| a == Action::Bid(7))
        .unwrap();
    assert_eq!(node.probability(after, k, 4, 1), 1.0);
    assert_eq!(node.probability(after, k, 4, 0), 0.0);
    let call = node
        .actions
        .iter()
        .position(|&a| a == Action::Call)
        .unwrap();
    assert_eq!(node.probability(after, call, 4, 0), 1.0);
    // The weight scales the pure part only.
    let light = play.mixed(game, &[&pure], 0.25);
    let root = light.at(History::EMPTY).unwrap();
    assert_eq!(root.probability(History::EMPTY, 0, 4, 3), 0.8);
}

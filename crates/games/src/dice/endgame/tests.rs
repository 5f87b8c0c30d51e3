//! Rules of the endgame: bid order, legal moves, wild ones, who wins a call,
//! hands and their weights, strategies and posteriors.

use super::*;

fn hand(game: Endgame, player: Player, faces: &[u8]) -> Hand {
    let hands = game.hands(player);
    hands.hand(hands.index_of(faces).unwrap()).clone()
}

#[test]
fn bids_follow_count_then_face() {
    let game = Endgame::new(2, 1, 3, false).unwrap();
    let bids: Vec<String> = (0..game.bid_count() as u8)
        .map(|i| game.bid(i).to_string())
        .collect();
    assert_eq!(
        bids,
        ["1x1", "1x2", "1x3", "2x1", "2x2", "2x3", "3x1", "3x2", "3x3"]
    );
    for i in 0..game.bid_count() as u8 {
        assert_eq!(game.bid_index(game.bid(i)).unwrap(), i);
    }
    let wild = Endgame::new(1, 1, 4, true).unwrap();
    let bids: Vec<String> = (0..wild.bid_count() as u8)
        .map(|i| wild.bid(i).to_string())
        .collect();
    assert_eq!(bids, ["1x2", "1x3", "1x4", "2x2", "2x3", "2x4"]);
    assert!(wild.bid_index(EndgameBid { count: 1, face: 1 }).is_err());
    assert!(wild.bid_index(EndgameBid { count: 3, face: 2 }).is_err());
}

#[test]
fn legal_moves_rise_and_call_only_after_a_bid() {
    let game = Endgame::new(1, 1, 2, false).unwrap();
    let opening: Vec<Action> = game.actions(History::EMPTY).collect();
    assert_eq!(
        opening,
        [
            Action::Bid(0),
            Action::Bid(1),
            Action::Bid(2),
            Action::Bid(3)
        ]
    );
    let h = game.history_of("1x2").unwrap();
    let moves: Vec<Action> = game.actions(h).collect();
    assert_eq!(moves, [Action::Call, Action::Bid(2), Action::Bid(3)]);
    let top = game.history_of("1x1,2x2").unwrap();
    assert_eq!(game.actions(top).collect::<Vec<_>>(), [Action::Call]);
    assert_eq!(game.to_move(top), Player::One);
    assert_eq!(game.to_move(top.parent()), Player::Two);
    assert_eq!(top.parent().parent(), History::EMPTY);
}

#[test]
fn histories_parse_in_both_forms_and_refuse_falling_bids() {
    let game = Endgame::new(2, 1, 6, false).unwrap();
    let h = game.history_of("15, 16,2x3").unwrap();
    assert_eq!(game.history_text(h), "1x5,1x6,2x3");
    assert_eq!(game.history_of(&game.history_text(h)).unwrap(), h);
    assert_eq!(game.history_of("").unwrap(), History::EMPTY);
    let err = game.history_of("16,15").unwrap_err().to_string();
    assert!(err.contains("1x5 does not raise 1x6"), "{err}");
    let err = game.history_of("4x2").unwrap_err().to_string();
    assert!(err.contains("count must be 1 to 3"), "{err}");
    assert!(game.history_of("abc").is_err());
    assert!(game
        .history_of("17")
        .unwrap_err()
        .to_string()
        .contains("face"));
}

#[test]
fn a_call_loses_for_the_caller_exactly_when_the_bid_holds() {
    let game = Endgame::new(1, 1, 6, false).unwrap();
    let (one, two) = (hand(game, Player::One, &[3]), hand(game, Player::Two, &[3]));
    // Player 1 bids two threes, player 2 calls: the bid holds, 2 loses.
    let h = game.history_of("2x3").unwrap();
    assert_eq!(game.call_payoff(h, [&one, &two]), Some(1));
    // Player 1 bids two fours: false, the caller (player 2) wins.
    let h = game.history_of("2x4").unwrap();
    assert_eq!(game.call_payoff(h, [&one, &two]), Some(-1));
    // Player 2 raised to two fours and player 1 calls: false, 1 wins.
    let h = game.history_of("1x3,2x4").unwrap();
    assert_eq!(game.call_payoff(h, [&one, &two]), Some(1));
    // ... to two threes: true, the caller (player 1) loses.
    let h = game.history_of("1x2,2x3").unwrap();
    assert_eq!(game.call_payoff(h, [&one, &two]), Some(-1));
    assert_eq!(game.call_payoff(History::EMPTY, [&one, &two]), None);
}

#[test]
fn ones_count_for_every_face_only_when_wild() {
    let normal = Endgame::new(1, 1, 6, false).unwrap();
    let wild = Endgame::new(1, 1, 6, true).unwrap();
    let one = hand(normal, Player::One, &[1]);
    let five = hand(normal, Player::Two, &[5]);
    let h = normal.history_of("2x5").unwrap();
    assert_eq!(normal.last_bid_true(h, [&one, &five]), Some(false));
    let h = wild.history_of("2x5").unwrap();
    assert_eq!(wild.last_bid_true(h, [&one, &five]), Some(true));
    assert_eq!(one.matching(5, true), 1);
    assert_eq!(one.matching(5, false), 0);
}

#[test]
fn hands_are_multisets_weighted_by_their_rolls() {
    let hands = Hands::new(2, 6);
    assert_eq!(hands.len(), 21);
    assert_eq!(hands.total_weight(), 36);
    let pair = hands.index_of(&[4, 4]).unwrap();
    let mixed = hands.index_of(&[5, 2]).unwrap();
    assert_eq!((hands.weight(pair), hands.weight(mixed)), (1, 2));
    assert_eq!(hands.hand(mixed).to_string(), "2,5");
    assert_eq!(Hands::new(3, 4).total_weight(), 64);
    assert_eq!(Hands::new(1, 6).len(), 6);
    assert!(hands.index_of(&[7, 1]).is_err());
    assert!(hands.index_of(&[1]).is_err());
}

#[test]
fn rules_out_of_range_are_refused() {
    assert!(Endgame::new(0, 1, 6, false).is_err());
    assert!(Endgame::new(1, 1, 7, false).is_err());
    assert!(Endgame::new(1, 1, 1, true).is_err());
    assert!(Endgame::new(1, 1, 1, false).is_ok());
    let err = Endgame::new(4, 4, 6, false).unwrap_err().to_string();
    assert!(err.contains("48 bids"), "{err}");
}

#[test]
fn reach_multiplies_own_bids_and_the_posterior_follows_bayes() {
    let game = Endgame::new(1, 1, 2, false).unwrap();
    let mut two = Strategy::zero(game, Player::Two);
    let after_open = game.history_of("1x1").unwrap();
    // Holding a 1, player 2 always raises to 1x2; holding a 2, half the time.
    two.set(0, after_open, Action::Bid(1), 1.0);
    two.set(1, after_open, Action::Bid(1), 0.5);
    two.set(1, after_open, Action::Call, 0.5);
    let raised = game.history_of("1x1,1x2").unwrap();
    assert_eq!(two.reach(1, raised), 0.5);
    assert_eq!(two.reach(1, after_open), 1.0);
    let posterior = Posterior::of(&two, raised).unwrap();
    assert!((posterior.probabilities[0] - 2.0 / 3.0).abs() < 1e-15);
    assert!((posterior.reach - 0.75).abs() < 1e-15);
    let never = game.history_of("1x1,2x1").unwrap();
    assert!(Posterior::of(&two, never).is_none());
    assert!(two.check(1e-12).is_err(), "other histories are unset");
}

#[test]
fn hands_and_actions_have_integer_codes_that_round_trip() {
    let game = Endgame::new(2, 1, 6, false).unwrap();
    let hands = game.hands(Player::One);
    let codes: Vec<i32> = hands.iter().map(|h| h.code()).collect();
    assert_eq!(codes[..3], [11, 12, 13]);
    assert_eq!(*codes.last().unwrap(), 66);
    assert!(
        codes.windows(2).all(|w| w[0] < w[1]),
        "codes rise with the hands"
    );
    for (i, &code) in codes.iter().enumerate() {
        assert_eq!(hands.index_of_code(code).unwrap(), i);
    }
    assert!(hands.index_of_code(17).is_err());
    assert!(hands.index_of_code(3).is_err());
    assert_eq!(game.action_code(Action::Call), 0);
    let mut previous = 0;
    for b in 0..game.bid_count() as u8 {
        let code = game.action_code(Action::Bid(b));
        let bid = game.bid(b);
        assert_eq!(code, 10 * i32::from(bid.count) + i32::from(bid.face));
        assert!(code > previous, "codes rise with the bids");
        previous = code;
        assert_eq!(game.action_of_code(code).unwrap(), Action::Bid(b));
    }
    assert_eq!(game.action_of_code(0).unwrap(), Action::Call);
    for bad in [-1, 7, 17, 41, 100] {
        assert!(game.action_of_code(bad).is_err(), "{bad}");
    }
    let wild = Endgame::new(1, 1, 6, true).unwrap();
    assert!(
        wild.action_of_code(11).is_err(),
        "no bids on ones when they are wild"
    );
    assert_eq!(wild.action_of_code(12).unwrap(), Action::Bid(0));
}

#[test]
fn every_reach_in_one_pass_is_the_product_to_the_bit() {
    // Awkward probabilities (not powers of two) on every own move of both
    // players, so that a different order of the factors would show in the
    // last bits.
    for (a, b, sides, wild) in [(1, 1, 3, false), (2, 1, 3, true), (1, 2, 2, false)] {
        let game = Endgame::new(a, b, sides, wild).unwrap();
        for player in Player::BOTH {
            let mut strategy = Strategy::zero(game, player);
            let mut x = 0.1234_f64;
            for hand in 0..game.hands(player).len() {
                for h in (0..game.history_count() as u32).map(History) {
                    if game.to_move(h) != player {
                        continue;
                    }
                    for action in game.actions(h) {
                        x = (x * 7.31 + 0.177).fract();
                        strategy.set(hand, h, action, 0.05 + 0.9 * x);
                    }
                }
            }
            for hand in 0..game.hands(player).len() {
                let all = strategy.reaches(hand);
                assert_eq!(all.len(), game.history_count());
                for (h, &r) in all.iter().enumerate() {
                    let one = strategy.reach(hand, History(h as u32));
                    assert_eq!(r.to_bits(), one.to_bits(), "{game} {player:?} {hand} {h}");
                }
            }
        }
    }
}

#[test]
fn is_legal_agrees_with_the_list_of_actions() {
    for (a, b, sides, wild) in [(1, 1, 3, false), (2, 1, 2, true), (1, 1, 1, false)] {
        let game = Endgame::new(a, b, sides, wild).unwrap();
        for h in (0..game.history_count() as u32).map(History) {
            let listed: Vec<Action> = game.actions(h).collect();
            let every =
                std::iter::once(Action::Call).chain((0..=game.bid_count() as u8).map(Action::Bid));
            for action in every {
                assert_eq!(
                    game.is_legal(h, action),
                    listed.contains(&action),
                    "{game} {h:?} {action:?}"
                );
            }
        }
    }
}

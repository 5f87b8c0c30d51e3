//! The reduced-deck table (not a criterion bench: a bounded report): for
//! every hand type of a reduced Cluedo deck (my seat and how many cards of
//! each category I hold; which cards does not matter, by symmetry), the
//! exact optimum of the solitaire game (expected suggestions until the
//! envelope is certain, `gametab_games::cluedo::Solitaire::optimum`) and
//! the exact score of the ranking by every objective, with the worst gap
//! to the optimum per objective.
//!
//! `cargo bench --bench cluedo_optimum` (`CLUEDO_DECKS`, default
//! "3x3x4:3"; a deck is `SUSPECTSxWEAPONSxROOMS:PLAYERS`, several
//! separated by commas).

use std::time::Instant;

use gametab_games::cluedo::{Card, CardSet, Category, Deck, Objective, Rules, Seat, Solitaire};

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if !filter.is_empty() && !filter.iter().any(|f| "cluedo_optimum".contains(f.as_str())) {
        return;
    }
    let decks = std::env::var("CLUEDO_DECKS").unwrap_or_else(|_| "3x3x4:3".into());
    for spec in decks.split(',') {
        let Some((sizes, players)) = spec.trim().split_once(':') else {
            eprintln!("bad deck {spec:?}: want SxWxR:PLAYERS");
            continue;
        };
        let sizes: Vec<u8> = sizes.split('x').filter_map(|s| s.parse().ok()).collect();
        let (Ok(players), [s, w, r]) = (players.parse::<usize>(), sizes.as_slice()) else {
            eprintln!("bad deck {spec:?}: want SxWxR:PLAYERS");
            continue;
        };
        let rules = Rules::new(Deck::new(*s, *w, *r).expect("deck"), players).expect("rules");
        report(&rules);
    }
}

/// Every hand type of `rules`: per seat, every composition with fewer
/// cards of each category than it has (one of each is in the envelope).
fn hand_types(rules: &Rules) -> Vec<(Seat, CardSet, String)> {
    let deck = rules.deck();
    let mut out = Vec::new();
    for seat in rules.seats() {
        let size = rules.hand_size(seat);
        let limit = |c: Category| deck.category_size(c) - 1;
        for s in 0..=limit(Category::Suspect).min(size) {
            for w in 0..=limit(Category::Weapon).min(size - s) {
                let r = size - s - w;
                if r > limit(Category::Room) {
                    continue;
                }
                let take = |c: Category, k: usize| -> Vec<Card> {
                    deck.category_cards(c).cards().take(k).collect()
                };
                let mut cards = take(Category::Suspect, s);
                cards.extend(take(Category::Weapon, w));
                cards.extend(take(Category::Room, r));
                out.push((
                    seat,
                    CardSet::of(&cards),
                    format!("seat {} {s}/{w}/{r}", seat.0 + 1),
                ));
            }
        }
    }
    out
}

fn report(rules: &Rules) {
    let deck = rules.deck();
    println!(
        "deck {}x{}x{}, {} players (hands {:?}): expected suggestions until the envelope is certain",
        deck.category_size(Category::Suspect),
        deck.category_size(Category::Weapon),
        deck.category_size(Category::Room),
        rules.players(),
        rules.seats().map(|s| rules.hand_size(s)).collect::<Vec<_>>()
    );
    print!(
        "{:<16} {:>6} {:>8} {:>8}",
        "hand type", "deals", "states", "optimum"
    );
    for objective in Objective::ALL {
        print!(" {:>16}", objective.name());
    }
    println!();
    let mut worst = vec![0.0f64; Objective::ALL.len()];
    let mut means = vec![0.0f64; Objective::ALL.len() + 1];
    let started = Instant::now();
    let types = hand_types(rules);
    for (seat, hand, label) in &types {
        let game = Solitaire::new(*rules, *seat, *hand).expect("valid hand");
        let optimum = game.optimum().expect("weights fit");
        print!(
            "{label:<16} {:>6} {:>8} {:>8.4}",
            game.deals(),
            optimum.states,
            optimum.expected
        );
        means[0] += optimum.expected / types.len() as f64;
        for (k, objective) in Objective::ALL.into_iter().enumerate() {
            let score = game.evaluate(objective).expect("weights fit");
            let gap = score.expected / optimum.expected - 1.0;
            worst[k] = worst[k].max(gap);
            means[k + 1] += score.expected / types.len() as f64;
            let flag = if score.unfinished > 0.0 { "*" } else { " " };
            print!(" {:>8.4} {:>+6.2}%{flag}", score.expected, 100.0 * gap);
        }
        println!();
    }
    print!("{:<16} {:>6} {:>8} {:>8.4}", "mean", "", "", means[0]);
    for m in &means[1..] {
        print!(" {m:>8.4}        ");
    }
    println!();
    print!("{:<16} {:>6} {:>8} {:>8}", "worst gap", "", "", "");
    for w in &worst {
        print!(" {:>15.2}%", 100.0 * w);
    }
    println!();
    println!("({:.1} s)", started.elapsed().as_secs_f64());
}

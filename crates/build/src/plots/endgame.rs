//! The Liar's Dice endgame chart: what an opening bid says about the
//! opener's dice, by the published reliability model and by the exact
//! equilibrium, in the same endgame (one die each, six sides, normal
//! rules), both read from the tables.

use crate::error::{check, Context, Result};
use gametab_games::dice::endgame::{Endgame, Player};
use gametab_games::dice::{FaceClass, PosteriorQuestion, Reliability, Variant};
use gametab_lookup::dice::Source as DiceSource;
use gametab_lookup::Tables;

use super::chart::{LegendCorner, LineChart, Series, Stroke};

/// The endgame drawn: one die each, six sides (the reliability model's
/// dice are six-sided), normal rules.
pub const ENDGAME_CASE: (u8, u8, u8, bool) = (1, 1, 6, false);

/// The reliability of the bold heuristic curve (the model's default).
const RELIABILITY: f64 = 2.0;

fn line(label: &str, points: Vec<(f64, f64)>, color: (u8, u8, u8), stroke: Stroke) -> Series {
    Series {
        label: Some(label.to_owned()),
        points,
        color,
        opacity: 1.0,
        width: if stroke == Stroke::Markers { 4 } else { 2 },
        stroke,
        dots: stroke == Stroke::Solid,
    }
}

/// Expected matching dice of the opener after each opening bid (x = the
/// bid's rank, 1 = `1x1` ... 12 = `2x6`): the reliability model's
/// posterior (rel = 0 is the prior, rel = 2 the model's default) from the
/// bidder-posterior table, and the equilibrium posterior from the endgame
/// strategy table, drawn only at the bids the equilibrium opens with (any
/// other opening has no equilibrium posterior).
///
/// # Errors
/// The tables lack the endgame or a heuristic row.
pub fn dice_endgame_posteriors(tables: &Tables) -> Result<LineChart> {
    let (a, b, sides, wild) = ENDGAME_CASE;
    let game = Endgame::new(a, b, sides, wild)?;
    let stored = tables
        .dice_endgame()?
        .game(game)
        .with_context(|| format!("the tables hold no {game} endgame"))?;
    let dice = tables.dice()?;
    let hands = game.hands(Player::One);
    let (mut prior, mut model, mut equilibrium) = (Vec::new(), Vec::new(), Vec::new());
    for index in 0..game.bid_count() as u8 {
        let bid = game.bid(index);
        let x = f64::from(index) + 1.0;
        for (rel, curve) in [(0.0, &mut prior), (RELIABILITY, &mut model)] {
            let question = PosteriorQuestion::new(
                u32::from(game.total_dice()),
                u32::from(a),
                Variant::from_wild_ones(wild),
                if bid.face == 1 {
                    FaceClass::Ones
                } else {
                    FaceClass::Other
                },
                u32::from(bid.count),
                Reliability::new(rel)?,
            )?;
            let answer = dice.posterior(&question)?;
            check!(
                Check,
                answer.source == DiceSource::Table,
                "no bidder-posterior row for N = 2, n_b = 1, rel = {rel}"
            );
            curve.push((x, answer.value.mean()));
        }
        let point = stored.at(&bid.to_string(), None)?;
        if let Some(posterior) = point.opponent_posterior {
            let mean: f64 = posterior
                .iter()
                .zip(hands.iter())
                .map(|(h, hand)| h.probability * f64::from(hand.matching(bid.face, wild)))
                .sum();
            equilibrium.push((x, mean));
        }
    }
    Ok(LineChart {
        title: format!("Liar's Dice endgame {a}v{b}, six sides: what the opening bid says"),
        x_label: "player 1's opening bid (1 = 1x1, 6 = 1x6, 7 = 2x1, 12 = 2x6)".into(),
        y_label: "probability that player 1's die matches the bid".into(),
        x_range: (1.0, f64::from(game.bid_count())),
        // Room above 1 for the crosses the equilibrium puts there.
        y_range: (0.0, 1.1),
        x_ticks: game.bid_count() as usize,
        y_ticks: 12,
        tick_decimals: (0, 1),
        series: vec![
            line(
                "prior (reliability 0)",
                prior,
                (110, 110, 110),
                Stroke::Dashed,
            ),
            line(
                "reliability model, rel = 2",
                model,
                (31, 119, 180),
                Stroke::Solid,
            ),
            line(
                "equilibrium posterior (bids the equilibrium opens with)",
                equilibrium,
                (214, 39, 40),
                Stroke::Markers,
            ),
        ],
        legend: LegendCorner::LowerRight,
    })
}

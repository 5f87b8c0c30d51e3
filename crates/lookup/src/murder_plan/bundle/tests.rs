//! The bundle on synthetic tables (the real ones are checked in the root
//! crate's tests and by `gametab verify`): round trips to the bit, the
//! same bytes twice, mirror images stored once, answers outside the
//! reachable states refused, and every kind of damaged file refused with
//! an error naming what is wrong.

use super::planes::{gunzip, gzip};
use super::*;
use crate::murder_plan::schema::MAX_DAYS;
use crate::murder_plan::tables::{brain_held, Supports, KEYS};
use crate::Error;
use gametab_games::murder_plan::model::{
    mastermind_actions, protagonist_actions, resolve, BrainTarget, LimitedCards, Placement, State,
    TurnOutcome, STATE_COUNT,
};
use gametab_games::murder_plan::CardKind;

/// SplitMix64: a fixed, seedable sequence.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random support of `legal` actions in the stored (label) order, and
/// its mirror image for the swapped twin.
fn support<Card: CardKind>(
    rng: &mut Rng,
    legal: &[Placement<Card>],
) -> Vec<(Placement<Card>, f64)> {
    let size = 1 + rng.below(4);
    let mut chosen: Vec<Placement<Card>> =
        (0..size).map(|_| legal[rng.below(legal.len())]).collect();
    chosen.sort_by_key(|a| a.labels());
    chosen.dedup();
    let weights: Vec<f64> = chosen.iter().map(|_| 0.1 + rng.unit()).collect();
    let total: f64 = weights.iter().sum();
    chosen
        .into_iter()
        .zip(weights)
        .map(|(a, w)| (a, w / total))
        .collect()
}

fn mirror_of<Card: CardKind>(support: &[(Placement<Card>, f64)]) -> Vec<(Placement<Card>, f64)> {
    let mut mirrored: Vec<_> = support.iter().map(|&(a, p)| (a.mirrored(), p)).collect();
    mirrored.sort_by_key(|(a, _)| a.labels());
    mirrored
}

fn dense<Card: Copy>(per_key: &[Vec<(Placement<Card>, f64)>]) -> Supports<Card> {
    let mut start = Vec::with_capacity(KEYS + 1);
    let mut entries = Vec::new();
    for support in per_key {
        start.push(entries.len() as u32);
        entries.extend_from_slice(support);
    }
    start.push(entries.len() as u32);
    Supports::from_parts(start, entries)
}

/// A reachability map as the real one is made, on a smaller scale: two
/// random states not won and their twins with `TOP` days left, and every state
/// their turns and the brain's legal abilities reach, down to 0 days left
/// (winning states marked where reached, not expanded).
fn reachability(rng: &mut Rng) -> Vec<bool> {
    const TOP: usize = 4;
    let outcomes: Vec<Vec<TurnOutcome>> = (0..16)
        .map(|i| {
            let limited = LimitedCards::from_index(i).unwrap();
            let mut outcomes: Vec<TurnOutcome> = mastermind_actions(limited)
                .into_iter()
                .flat_map(|a| {
                    protagonist_actions(limited)
                        .into_iter()
                        .map(move |b| resolve(a, b))
                })
                .collect();
            outcomes.sort_unstable();
            outcomes.dedup();
            outcomes
        })
        .collect();
    let mut reachable = vec![false; KEYS];
    for _ in 0..2 {
        let seed = loop {
            let s = State::from_index(rng.below(STATE_COUNT)).unwrap();
            if !s.is_win() {
                break s;
            }
        };
        reachable[TOP * STATE_COUNT + seed.index()] = true;
        reachable[TOP * STATE_COUNT + seed.swapped().index()] = true;
    }
    for days in (1..=TOP).rev() {
        for index in 0..STATE_COUNT {
            let state = State::from_index(index).unwrap();
            if !reachable[days * STATE_COUNT + index] || state.is_win() {
                continue;
            }
            for outcome in &outcomes[state.limited.index()] {
                let post = outcome.apply(state);
                for target in BrainTarget::legal(post) {
                    reachable[(days - 1) * STATE_COUNT + target.apply(post).index()] = true;
                }
            }
        }
    }
    reachable
}

/// Complete tables with that reachability map, random values and
/// supports (each state's twin holding the mirror images of its own),
/// brain choices consistent with the values.
fn synthetic(seed: u64) -> MurderPlanTables {
    let mut rng = Rng(seed);
    let reachable = reachability(&mut rng);
    let mut values = vec![0.0; KEYS];
    let mut gaps = vec![0.0; KEYS];
    let mut sigma = vec![Vec::new(); KEYS];
    let mut tau = vec![Vec::new(); KEYS];
    for key in 0..KEYS {
        let state = State::from_index(key % STATE_COUNT).unwrap();
        let twin = key - state.index() + state.swapped().index();
        if state.is_win() {
            values[key] = 1.0;
        } else if key >= STATE_COUNT && state.is_canonical() {
            let v = rng.unit();
            let g = if rng.below(3) == 0 {
                0.0
            } else {
                rng.unit() * 1e-15
            };
            let m = support(&mut rng, &mastermind_actions(state.limited));
            let p = support(&mut rng, &protagonist_actions(state.limited));
            (values[key], values[twin]) = (v, v);
            (gaps[key], gaps[twin]) = (g, g);
            (sigma[twin], tau[twin]) = (mirror_of(&m), mirror_of(&p));
            (sigma[key], tau[key]) = (m, p);
        }
    }
    let mut brain = vec![(BrainTarget::Nobody, 0.0); KEYS - STATE_COUNT];
    for key in STATE_COUNT..KEYS {
        let post = State::from_index(key % STATE_COUNT).unwrap();
        let before = key - STATE_COUNT - post.index();
        // The brain's best legal choice, ties to the preference order,
        // valued as the build values it.
        let mut best: Option<(BrainTarget, f64)> = None;
        for target in BrainTarget::legal(post) {
            let after = target.apply(post);
            let value = if after.is_win() {
                1.0
            } else {
                values[before + after.index()]
            };
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((target, value));
            }
        }
        brain[key - STATE_COUNT] = best.unwrap_or((BrainTarget::Nobody, 0.0));
    }
    let win_rates = (0..usize::from(MAX_DAYS) * 17)
        .map(|_| rng.unit())
        .collect();
    MurderPlanTables {
        values,
        gaps,
        reachable,
        mastermind: dense(&sigma),
        protagonists: dense(&tau),
        brain,
        win_rates,
        coverage: Coverage::Everything,
    }
}

#[test]
fn a_bundle_round_trips_to_the_bit_and_twice_to_the_same_bytes() {
    let tables = synthetic(7);
    let encoded = encode(&tables, "gametab test").unwrap();
    assert_eq!(
        encode(&tables, "gametab test").unwrap().bytes,
        encoded.bytes
    );
    let decoded = decode(&encoded.bytes).unwrap();
    assert_eq!(decoded.generator, "gametab test");
    let comparison = compare(&tables, &decoded.tables, 10);
    assert_eq!(comparison.differences, Vec::new());
    assert!(comparison.compared > 3 * KEYS, "{}", comparison.compared);
    // Twins share their supports through mirror references: at most one
    // support per canonical position (fewer: pure strategies repeat).
    let canonical_positions = (STATE_COUNT..KEYS)
        .filter(|&k| {
            let state = State::from_index(k % STATE_COUNT).unwrap();
            tables.reachable[k] && !state.is_win() && state.is_canonical()
        })
        .count();
    assert!(encoded.mastermind_supports <= canonical_positions);
    assert!(encoded.protagonist_supports <= canonical_positions);
    assert!(
        encoded.positions > canonical_positions,
        "twins exist: {} positions, {canonical_positions} canonical",
        encoded.positions
    );
    let bundle = decoded.tables;
    assert_eq!(bundle.coverage(), Coverage::Reachable);
    let mut held = 0;
    for key in STATE_COUNT..KEYS {
        let (days, state) = (
            (key / STATE_COUNT) as u8,
            State::from_index(key % STATE_COUNT).unwrap(),
        );
        if state.is_win() {
            assert_eq!(bundle.value(days, state).unwrap(), 1.0);
            continue;
        }
        if tables.reachable[key] {
            held += 1;
            assert_eq!(
                bundle.value(days, state).unwrap(),
                tables.value(days, state).unwrap()
            );
            let moves = bundle.mastermind_moves(days, state);
            let expected = tables.mastermind_moves(days, state);
            assert_eq!(format!("{moves:?}"), format!("{expected:?}"));
            let u = (key % 97) as f64 / 97.0;
            assert_eq!(
                bundle.sample_protagonists(days, state, u).unwrap(),
                tables.sample_protagonists(days, state, u).unwrap()
            );
        } else {
            for error in [
                bundle.value(days, state).unwrap_err(),
                bundle.mastermind_strategy(days, state).unwrap_err(),
            ] {
                assert!(matches!(error, Error::NotInTable { .. }), "{error}");
                assert!(
                    error
                        .to_string()
                        .contains("not reachable from the 16 starts"),
                    "{error}"
                );
            }
        }
        assert_eq!(
            bundle.reachable(days, state).unwrap(),
            tables.reachable[key]
        );
    }
    assert_eq!(held, encoded.positions);
    let start = State::starts().next().unwrap();
    assert_eq!(bundle.value(0, start).unwrap(), 0.0);
    assert_eq!(
        bundle.win_rate(3, None).unwrap(),
        tables.win_rate(3, None).unwrap()
    );
}

#[test]
fn tables_whose_brain_values_contradict_their_values_are_not_written() {
    let mut tables = synthetic(8);
    let key = (STATE_COUNT..KEYS)
        .find(|&k| brain_held(&tables.reachable, k) && tables.brain[k - STATE_COUNT].1 > 0.0)
        .unwrap();
    tables.brain[key - STATE_COUNT].1 /= 2.0;
    let error = encode(&tables, "gametab test").unwrap_err();
    assert!(error.to_string().contains("brain choice"), "{error}");
}

/// The content of a bundle, changed by `change`, compressed again.
fn damaged(file: &[u8], change: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut content = gunzip(file).unwrap();
    change(&mut content);
    gzip(&content)
}

fn refused(file: &[u8], expected: &str) {
    match decode(file) {
        Ok(_) => panic!("a damaged bundle ({expected}) was accepted"),
        Err(error) => {
            let text = error.to_string();
            assert!(
                text.contains(expected),
                "{text:?} does not say {expected:?}"
            );
        }
    }
}

#[test]
fn damaged_bundles_are_refused_naming_what_is_wrong() {
    let tables = synthetic(9);
    let file = encode(&tables, "g").unwrap().bytes;
    // Offsets in the content: the header, then the reachability map.
    let header = MAGIC.len() + 4 + 1 + 2 + 1 + 1;
    let positions_at = header + KEYS / 8;
    let positions = tables.reachable.iter().enumerate().filter(|&(k, &r)| {
        r && k >= STATE_COUNT && !State::from_index(k % STATE_COUNT).unwrap().is_win()
    });
    let n = positions.count();
    let values_at = positions_at + 4;
    let refs_at = values_at + 16 * n;

    refused(&file[..file.len() / 2], "not a readable gzip file");
    let mut flipped = file.clone();
    flipped[file.len() / 2] ^= 0x40;
    refused(&flipped, "unreadable browser bundle");
    refused(b"not gzip at all", "not a readable gzip file");
    refused(&damaged(&file, |c| c[0] = b'X'), "wrong magic");
    refused(&damaged(&file, |c| c[8] = 2), "schema version 2");
    refused(&damaged(&file, |c| c[12] = 9), "9 days");
    refused(&damaged(&file, |c| c.push(0)), "1 bytes after the end");
    refused(
        &damaged(&file, |c| c.truncate(c.len() - 3)),
        "truncated in the win rates",
    );
    // A reachable bit more: the positions no longer match their count.
    refused(
        &damaged(&file, |c| {
            let k = (STATE_COUNT..KEYS)
                .find(|&k| {
                    !tables.reachable[k] && !State::from_index(k % STATE_COUNT).unwrap().is_win()
                })
                .unwrap();
            c[header + k / 8] |= 1 << (k % 8);
        }),
        "positions, the reachability map has",
    );
    // The most significant plane of the first value: 0x7f.. is NaN or
    // above 1.
    refused(&damaged(&file, |c| c[values_at] = 0x7f), "outside [0, 1]");
    // The top byte of the first mastermind reference.
    refused(
        &damaged(&file, |c| c[refs_at] = 0x10),
        "mastermind reference",
    );
    // The last bytes are the win rates (136 doubles as planes): the first
    // plane's first byte.
    refused(
        &damaged(&file, |c| {
            let at = c.len() - 8 * 136;
            c[at] = 0xff;
        }),
        "win rate 0",
    );
}

#[test]
fn damaged_supports_and_brain_targets_are_refused() {
    let tables = synthetic(10);
    let file = encode(&tables, "g").unwrap().bytes;
    let content = gunzip(&file).unwrap();
    let decoded = decode(&file).unwrap().tables;
    // Find the mastermind dictionary from the end: win rates, then the
    // protagonist dictionary, whose size we do not know; so rebuild the
    // layout from the front instead.
    let header = MAGIC.len() + 4 + 1 + 2 + 1 + 1;
    let n = super::decode::positions(&decoded.reachable).len();
    let brain_held = (STATE_COUNT..KEYS)
        .filter(|&k| brain_held(&decoded.reachable, k))
        .count();
    let brain_at = header + KEYS / 8 + 4 + 24 * n;
    let dictionary_at = brain_at + brain_held.div_ceil(4);
    let count = u32::from_le_bytes(
        content[dictionary_at..dictionary_at + 4]
            .try_into()
            .unwrap(),
    ) as usize;
    let lengths_at = dictionary_at + 4;
    let codes_at = lengths_at + count;

    refused(&damaged(&file, |c| c[lengths_at] = 0), "support 0: empty");
    refused(
        &damaged(&file, |c| c[codes_at] = 250),
        "action code 250 out of range",
    );
    // Diagonal on every character: never legal (one diagonal card).
    let diagonal = Placement {
        key_person: gametab_games::murder_plan::MastermindCard::Diagonal,
        brain: gametab_games::murder_plan::MastermindCard::Diagonal,
        killer: gametab_games::murder_plan::MastermindCard::Diagonal,
    };
    refused(
        &damaged(&file, |c| c[codes_at] = diagonal.code()),
        "is illegal in",
    );
    // Brain targets: code 3 does not exist.
    refused(&damaged(&file, |c| c[brain_at] |= 3), "brain target 3");
}

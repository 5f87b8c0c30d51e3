//! Tests of the few-candidate configurations: exact counts against brute
//! force and against the general counting core, canonical forms, texts.

use super::config::{FewCandidates, Opponents};
use super::count::{Layer, PlainClass, Problem};
use super::engine_tests::Rng;

/// Every deal of a configuration, by brute force: per candidate triple, try
/// every holder of every other candidate and every opponent for every other
/// card, keeping the assignments that fill the unknown cards exactly.
fn brute_envelope_deals(config: &FewCandidates) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = config.holders.iter().map(|l| vec![0; l.len()]).collect();
    let sizes: Vec<usize> = config.holders.iter().map(Vec::len).collect();
    for a in 0..sizes[0] {
        for b in 0..sizes[1] {
            for c in 0..sizes[2] {
                let triple = [a, b, c];
                let mut options: Vec<u8> = Vec::new();
                for (cat, list) in config.holders.iter().enumerate() {
                    for (i, h) in list.iter().enumerate() {
                        if triple[cat] != i {
                            options.push(h.0);
                        }
                    }
                }
                let everyone = (1u8 << config.unknown.len()) - 1;
                options.extend(std::iter::repeat_n(
                    everyone,
                    usize::from(config.other_cards),
                ));
                let mut left = config.unknown.clone();
                let deals = place(&options, &mut left);
                for cat in 0..3 {
                    out[cat][triple[cat]] += deals;
                }
            }
        }
    }
    out
}

fn place(options: &[u8], left: &mut [u8]) -> u64 {
    let Some((&first, rest)) = options.split_first() else {
        return u64::from(left.iter().all(|&l| l == 0));
    };
    let mut total = 0;
    for p in 0..left.len() {
        if first >> p & 1 == 1 && left[p] > 0 {
            left[p] -= 1;
            total += place(rest, left);
            left[p] += 1;
        }
    }
    total
}

/// The same configuration as a problem of the general counting core.
fn core_envelope_deals(config: &FewCandidates) -> (u128, Vec<Vec<u128>>) {
    let mut problem = Problem {
        layers: (0..3)
            .map(|_| Layer {
                capacity: 1,
                ..Layer::default()
            })
            .chain(config.unknown.iter().map(|&u| Layer {
                capacity: u,
                ..Layer::default()
            }))
            .collect(),
        ..Problem::default()
    };
    for (cat, list) in config.holders.iter().enumerate() {
        for h in list {
            problem.classes.push(PlainClass {
                size: 1,
                allowed: 1 << cat | u16::from(h.0) << 3,
            });
        }
    }
    let active = config
        .unknown
        .iter()
        .enumerate()
        .filter(|(_, &u)| u > 0)
        .fold(0u16, |m, (p, _)| m | 1 << (3 + p));
    problem.classes.push(PlainClass {
        size: config.other_cards,
        allowed: active,
    });
    let solution = problem.solve();
    let mut class = 0;
    let per = config
        .holders
        .iter()
        .enumerate()
        .map(|(cat, list)| {
            list.iter()
                .map(|_| {
                    class += 1;
                    solution.class_in[cat][class - 1]
                })
                .collect()
        })
        .collect();
    (solution.total, per)
}

fn random_config(rng: &mut Rng, opponents: usize) -> FewCandidates {
    loop {
        let holders: [Vec<Opponents>; 3] = std::array::from_fn(|_| {
            (0..1 + rng.below(3))
                .map(|_| Opponents(rng.below(1 << opponents) as u8))
                .collect()
        });
        let unknown: Vec<u8> = (0..opponents).map(|_| rng.below(5) as u8).collect();
        let slots: usize = unknown.iter().map(|&u| usize::from(u)).sum();
        let candidates: usize = holders.iter().map(Vec::len).sum();
        if let Some(other) = (slots + 3).checked_sub(candidates) {
            return FewCandidates::new(holders, unknown, other as u8).unwrap();
        }
    }
}

#[test]
fn configuration_counts_equal_brute_force_and_the_counting_core() {
    let mut rng = Rng::new(3);
    let mut consistent = 0;
    for n in 0..400 {
        let config = random_config(&mut rng, 1 + n % 4);
        let brute = brute_envelope_deals(&config);
        let (core_total, core) = core_envelope_deals(&config);
        let brute_total: u64 = brute[0].iter().sum();
        assert_eq!(u128::from(brute_total), core_total, "{config}");
        match config.solve() {
            Ok(answer) => {
                consistent += 1;
                assert_eq!(answer.deals, brute_total, "{config}");
                for cat in 0..3 {
                    for (i, a) in answer.candidates[cat].iter().enumerate() {
                        assert_eq!(a.envelope_deals, brute[cat][i], "{config}");
                        assert_eq!(u128::from(a.envelope_deals), core[cat][i], "{config}");
                    }
                }
            }
            Err(_) => assert_eq!(brute_total, 0, "{config}"),
        }
    }
    assert!(
        consistent > 100,
        "only {consistent} consistent configurations"
    );
}

#[test]
fn canonical_form_ignores_labels_and_order() {
    let mut rng = Rng::new(5);
    for _ in 0..200 {
        let config = random_config(&mut rng, 4);
        let (canonical, map) = config.canonical();
        assert_eq!(canonical.canonical().0, canonical);
        // Relabel the opponents by a rotation and reverse every category.
        let rotate = |h: Opponents| Opponents(((h.0 << 1) | (h.0 >> 3)) & 0b1111);
        let mut unknown = config.unknown.clone();
        unknown.rotate_right(1);
        let holders: [Vec<Opponents>; 3] = std::array::from_fn(|c| {
            config.holders[(c + 1) % 3]
                .iter()
                .rev()
                .map(|&h| rotate(h))
                .collect()
        });
        let other = FewCandidates::new(holders, unknown, config.other_cards).unwrap();
        assert_eq!(other.canonical().0, canonical, "{config} / {other}");
        // The map sends every candidate to a canonical one with the same
        // answer.
        if let (Ok(a), Ok(b)) = (config.solve(), canonical.solve()) {
            assert_eq!(a.deals, b.deals);
            for c in 0..3 {
                for (i, x) in a.candidates[c].iter().enumerate() {
                    let (cc, ci) = map.to[c][i];
                    assert_eq!(x, &b.candidates[cc][ci]);
                }
            }
        }
        let text = FewCandidates::from_text(&canonical.unknown_text(), &canonical.holders_text());
        assert_eq!(text.unwrap(), canonical);
    }
}

#[test]
fn hand_checked_configuration_differs_from_the_heuristic() {
    // Suspect and weapon solved; rooms X, Y may be with A or B, Z only with
    // A; A and B have one unknown card each. Envelope X: Z to A, Y to B (1
    // way); Y: 1 way; Z: X and Y to A and B either way (2). Exact 1/4, 1/4,
    // 1/2; the heuristic gives each consistent triple 1/3.
    let ab = Opponents(0b11);
    let config = FewCandidates::new(
        [
            vec![Opponents(0)],
            vec![Opponents(0)],
            vec![ab, ab, Opponents(0b01)],
        ],
        vec![1, 1],
        0,
    )
    .unwrap();
    let answer = config.solve().unwrap();
    assert_eq!(answer.deals, 4);
    let rooms: Vec<(u64, f64, f64)> = answer.candidates[2]
        .iter()
        .map(|a| (a.envelope_deals, a.p_envelope, a.p_heuristic))
        .collect();
    assert_eq!(
        rooms,
        [
            (1, 0.25, 1.0 / 3.0),
            (1, 0.25, 1.0 / 3.0),
            (2, 0.5, 1.0 / 3.0)
        ]
    );
    assert!(FewCandidates::new([vec![], vec![ab], vec![ab]], vec![1, 1], 0).is_err());
    assert!(FewCandidates::new([vec![ab], vec![ab], vec![ab]], vec![1, 1], 0).is_err());
}

/// Every category key order of `lists` (sorted holder lists, in the order
/// the canonical form sorts categories): triples `i <= j <= k`.
fn sorted_triples(lists: &[Vec<Opponents>]) -> impl Iterator<Item = [Vec<Opponents>; 3]> + '_ {
    let n = lists.len();
    (0..n).flat_map(move |i| {
        (i..n).flat_map(move |j| {
            (j..n).map(move |k| [lists[i].clone(), lists[j].clone(), lists[k].clone()])
        })
    })
}

/// Sorted holder lists of `lens` candidates over `opponents` opponents,
/// shorter first, then lexicographic: the canonical order of categories.
fn sorted_lists(opponents: usize, lens: std::ops::RangeInclusive<usize>) -> Vec<Vec<Opponents>> {
    let masks = 1u8 << opponents;
    let mut out = Vec::new();
    for len in lens {
        let mut current = vec![0u8; len];
        loop {
            out.push(current.iter().map(|&m| Opponents(m)).collect());
            let Some(i) = (0..len).rev().find(|&i| current[i] + 1 < masks) else {
                break;
            };
            let value = current[i] + 1;
            current[i..].fill(value);
        }
    }
    out
}

#[test]
fn is_canonical_agrees_with_the_canonical_form() {
    // Sorted configurations, where only relabelling the opponents can find
    // a smaller form: two opponents with equal or unequal hands, three
    // interchangeable ones (categories of one or two candidates).
    let (mut checked, mut canonical) = (0, 0);
    for (opponents, lens, unknown) in [
        (2, 1..=3, vec![1, 1]),
        (2, 1..=3, vec![3, 1]),
        (3, 1..=2, vec![1, 1, 1]),
        (3, 1..=2, vec![2, 1, 1]),
    ] {
        let lists = sorted_lists(opponents, lens);
        for holders in sorted_triples(&lists) {
            let config = FewCandidates {
                holders,
                unknown: unknown.clone(),
                other_cards: 0,
            };
            let expected = config.canonical().0 == config;
            assert_eq!(config.is_canonical(), expected, "{config}");
            checked += 1;
            canonical += usize::from(expected);
        }
    }
    assert!(
        canonical > 10_000 && checked - canonical > 10_000,
        "{canonical} of {checked}"
    );
    // Random configurations (unsorted, with idle opponents) and their
    // canonical forms.
    let mut rng = Rng::new(11);
    for n in 0..2_000 {
        let config = random_config(&mut rng, 1 + n % 5);
        let canonical = config.canonical().0;
        assert_eq!(config.is_canonical(), canonical == config, "{config}");
        assert!(canonical.is_canonical(), "{canonical}");
    }
    // Shapes `new` rejects follow the definition too.
    let empty = FewCandidates {
        holders: [vec![], vec![Opponents(1)], vec![Opponents(1)]],
        unknown: vec![2],
        other_cards: 0,
    };
    assert_eq!(empty.is_canonical(), empty.canonical().0 == empty);
}

#[test]
fn texts_are_the_table_keys() {
    let config = FewCandidates::new(
        [
            vec![Opponents(0)],
            vec![Opponents(0b1), Opponents(0b11)],
            vec![Opponents(0b10), Opponents(0b10001), Opponents(0b11111)],
        ],
        vec![6, 5, 1, 1, 1],
        11,
    )
    .unwrap();
    assert_eq!(config.unknown_text(), "6,5,1,1,1");
    assert_eq!(config.holders_text(), "-|A,AB|B,AE,ABCDE");
    assert_eq!(Opponents(0).letters(), "-");
    assert_eq!(Opponents(0b10100).letters(), "CE");
    let none = FewCandidates::new(std::array::from_fn(|_| vec![Opponents(0)]), vec![], 0).unwrap();
    assert_eq!(
        (none.unknown_text(), none.holders_text()),
        (String::new(), "-|-|-".into())
    );
}

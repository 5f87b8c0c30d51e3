//! Tests of [`FewCandidatesSolver`]: its answers equal
//! [`FewCandidates::solve`]'s exactly (counts, probabilities to the bit and
//! the error for inconsistent configurations) over every configuration of
//! small families, random ones with up to five opponents, the largest it
//! counts itself and shapes it hands back to `solve`.

use super::config::{FewCandidates, Opponents};
use super::engine_tests::Rng;
use super::solver::FewCandidatesSolver;

/// The solver and `solve` agree on `config`; returns whether it is
/// consistent.
fn agree(solver: &mut FewCandidatesSolver, config: &FewCandidates) -> bool {
    let (fast, single) = (solver.solve(config), config.solve());
    match (&fast, &single) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{config}"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{config}"),
        _ => panic!("{config}: solver {fast:?}, solve {single:?}"),
    }
    single.is_ok()
}

/// Every holder list of 1 to 3 candidates over `opponents` opponents, in
/// every order.
fn holder_lists(opponents: usize) -> Vec<Vec<Opponents>> {
    let masks = 1usize << opponents;
    (1..=3u32)
        .flat_map(|len| {
            (0..masks.pow(len)).map(move |code| {
                (0..len as usize)
                    .map(|i| Opponents((code / masks.pow(i as u32) % masks) as u8))
                    .collect()
            })
        })
        .collect()
}

#[test]
fn every_one_opponent_configuration_agrees() {
    let lists = holder_lists(1);
    let mut solver = FewCandidatesSolver::new();
    let (mut checked, mut consistent) = (0, 0);
    for u in 0..=6u8 {
        for a in &lists {
            for b in &lists {
                for c in &lists {
                    let candidates = a.len() + b.len() + c.len();
                    let Some(other) = (usize::from(u) + 3).checked_sub(candidates) else {
                        continue;
                    };
                    let holders = [a.clone(), b.clone(), c.clone()];
                    let config = FewCandidates::new(holders, vec![u], other as u8).unwrap();
                    checked += 1;
                    consistent += usize::from(agree(&mut solver, &config));
                }
            }
        }
    }
    assert!(
        checked > 7_000 && consistent > 2_000,
        "{checked} / {consistent}"
    );
}

#[test]
fn every_two_opponent_configuration_with_sorted_categories_agrees() {
    // Categories of 1 to 3 candidates (holder sets non-decreasing), every
    // unknown-card pair up to 4 + 3, opponents in both orders.
    let lists: Vec<Vec<Opponents>> = holder_lists(2)
        .into_iter()
        .filter(|l| l.windows(2).all(|w| w[0] <= w[1]))
        .collect();
    let mut solver = FewCandidatesSolver::new();
    let (mut checked, mut consistent) = (0, 0);
    for unknown in [[1, 1], [2, 1], [1, 2], [3, 3], [4, 2], [0, 3]] {
        for a in &lists {
            for b in &lists {
                for c in &lists {
                    let candidates = a.len() + b.len() + c.len();
                    let slots = unknown.iter().sum::<u8>() as usize;
                    let Some(other) = (slots + 3).checked_sub(candidates) else {
                        continue;
                    };
                    let holders = [a.clone(), b.clone(), c.clone()];
                    let config = FewCandidates::new(holders, unknown.to_vec(), other as u8)
                        .expect("a valid configuration");
                    checked += 1;
                    consistent += usize::from(agree(&mut solver, &config));
                }
            }
        }
    }
    assert!(
        checked > 100_000 && consistent > 10_000,
        "{checked} / {consistent}"
    );
}

#[test]
fn random_configurations_of_up_to_five_opponents_agree() {
    let mut rng = Rng::new(17);
    let mut solver = FewCandidatesSolver::new();
    let mut consistent = 0;
    for n in 0..3_000 {
        let opponents = 1 + n % 5;
        let holders: [Vec<Opponents>; 3] = std::array::from_fn(|_| {
            (0..1 + rng.below(3))
                .map(|_| Opponents(rng.below(1 << opponents) as u8))
                .collect()
        });
        // Mostly small hands, so that the counts stay cheap for `solve`.
        let most = if opponents > 3 { 4 } else { 7 };
        let unknown: Vec<u8> = (0..opponents).map(|_| rng.below(most) as u8).collect();
        let slots: usize = unknown.iter().map(|&u| usize::from(u)).sum();
        let candidates: usize = holders.iter().map(Vec::len).sum();
        let Some(other) = (slots + 3).checked_sub(candidates) else {
            continue;
        };
        let config = FewCandidates::new(holders, unknown, other as u8).unwrap();
        consistent += usize::from(agree(&mut solver, &config));
    }
    assert!(consistent > 1_000, "only {consistent} consistent");
}

#[test]
fn large_and_unusual_configurations_agree() {
    let mut solver = FewCandidatesSolver::new();
    let [a, b, c, d, e] = [1, 2, 4, 8, 16].map(Opponents);
    let all = Opponents(31);
    // Five opponents, 26 unknown cards, 20 other cards: about 1.2e14 deals,
    // still counted in u64 by the solver itself.
    let big = FewCandidates::new(
        [vec![a, all, b], vec![c, d, all], vec![e, Opponents(3), all]],
        vec![6, 6, 6, 6, 2],
        20,
    )
    .unwrap();
    assert!(agree(&mut solver, &big));
    let deals = solver.solve(&big).unwrap().deals;
    assert!(deals > 1 << 46, "{deals}");
    // Shapes `new` rejects, built field by field: handed back to `solve`.
    let beyond = FewCandidates {
        holders: [vec![Opponents(0)], vec![Opponents(0b100)], vec![a, b]],
        unknown: vec![1, 1],
        other_cards: 0,
    };
    agree(&mut solver, &beyond);
    let empty = FewCandidates {
        holders: [vec![], vec![a], vec![b]],
        unknown: vec![1, 1],
        other_cards: 1,
    };
    assert!(!agree(&mut solver, &empty));
    let miscounted = FewCandidates {
        holders: [vec![Opponents(0)], vec![a], vec![b, Opponents(3)]],
        unknown: vec![2, 2],
        other_cards: 0,
    };
    agree(&mut solver, &miscounted);
    // The scratch space carries nothing from one configuration to the next.
    let small = FewCandidates::new(
        [
            vec![Opponents(0)],
            vec![Opponents(0)],
            vec![a, b, Opponents(3)],
        ],
        vec![3, 2],
        3,
    )
    .unwrap();
    let first = solver.solve(&small).unwrap();
    solver.solve(&big).unwrap();
    assert_eq!(solver.solve(&small).unwrap(), first);
    // a = 3, b = 2: 13 deals, X in the envelope in 4, Y in 6, Z in 3.
    let envelope: Vec<u64> = first.candidates[2]
        .iter()
        .map(|x| x.envelope_deals)
        .collect();
    assert_eq!((first.deals, envelope), (13, vec![4, 6, 3]));
}

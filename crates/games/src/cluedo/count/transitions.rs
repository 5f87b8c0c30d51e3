//! One layer's transitions in the counting core: the complex parts a hand
//! may take (`choices`), the plain cards drawn with them by class
//! (`for_each_draw`), and the states they lead to (`for_each_transition`),
//! shared by the forward and backward sweeps and by the envelope slots of
//! `Problem::envelope_atoms`.

use super::{binomial, Layer, PlainClass, Problem};

/// A complex-card choice of a layer: which cards, how many, with what
/// (integral) weight.
#[derive(Debug, Clone, Copy)]
pub(super) struct Choice {
    pub(super) cards: u32,
    pub(super) size: u8,
    pub(super) weight: u128,
}

/// The weight of putting the complex `cards` into `layer` (whose
/// capacity and allowed cards the caller has checked), or `None` when an
/// "at least one" constraint of the layer is left unmet.
pub(super) fn choice_weight(layer: &Layer, cards: u32) -> Option<u128> {
    if layer.at_least_one.iter().any(|&need| need & cards == 0) {
        return None;
    }
    Some(layer.weights.iter().fold(1u128, |acc, w| {
        let held = w.already + (w.named & cards).count_ones();
        // held >= 1 always: the shown card is among `already`.
        acc * (w.scale / u128::from(held.max(1)))
    }))
}

/// Every admissible complex part of a hand for `layer`: the subsets of
/// the complex cards it allows, at most its capacity and at least what
/// its plain cards cannot fill, that meet its "at least one" constraints.
fn choices(problem: &Problem, layer_index: usize) -> Vec<Choice> {
    let layer = &problem.layers[layer_index];
    let allowed = (0..problem.complex.len())
        .filter(|&i| problem.complex[i] >> layer_index & 1 == 1)
        .fold(0u32, |mask, i| mask | 1 << i);
    let plain: u32 = problem
        .classes
        .iter()
        .filter(|c| c.allowed >> layer_index & 1 == 1)
        .map(|c| u32::from(c.size))
        .sum();
    let most = u32::from(layer.capacity);
    let least = most.saturating_sub(plain);
    let mut out = Vec::new();
    for_each_subset(allowed, least, most, 0, &mut |cards| {
        if let Some(weight) = choice_weight(layer, cards) {
            out.push(Choice {
                cards,
                size: cards.count_ones() as u8,
                weight,
            });
        }
    });
    out
}

/// Calls `visit(chosen | subset)` for every subset of `rest` with between
/// `least` and `most` cards (complex-card masks).
pub(super) fn for_each_subset(
    rest: u32,
    least: u32,
    most: u32,
    chosen: u32,
    visit: &mut impl FnMut(u32),
) {
    if rest.count_ones() < least {
        return;
    }
    if rest == 0 || most == 0 {
        if least == 0 {
            visit(chosen);
        }
        return;
    }
    let bit = rest & rest.wrapping_neg();
    let rest = rest & !bit;
    for_each_subset(rest, least, most, chosen, visit);
    for_each_subset(rest, least.saturating_sub(1), most - 1, chosen | bit, visit);
}

/// The plain-card side of the state: class counts left, in mixed radix.
pub(super) struct Radix {
    pub(super) strides: Vec<u64>,
    sizes: Vec<u8>,
}

impl Radix {
    pub(super) fn new(classes: &[PlainClass]) -> Radix {
        let mut strides = Vec::with_capacity(classes.len());
        let mut stride = 1u64;
        for class in classes {
            strides.push(stride);
            stride *= u64::from(class.size) + 1;
        }
        Radix {
            strides,
            sizes: classes.iter().map(|c| c.size).collect(),
        }
    }

    pub(super) fn decode(&self, code: u64, out: &mut [u8]) {
        for (c, slot) in out.iter_mut().enumerate() {
            *slot = ((code / self.strides[c]) % (u64::from(self.sizes[c]) + 1)) as u8;
        }
    }

    pub(super) fn full(&self) -> u64 {
        self.sizes
            .iter()
            .zip(&self.strides)
            .map(|(&s, &st)| u64::from(s) * st)
            .sum()
    }
}

/// Calls `visit(delta, multiplicity, draws)` for every way of drawing
/// `wanted` plain cards from the classes `allowed` (with `left[c]` cards
/// left), where `delta` is the mixed-radix amount to subtract and `draws`
/// lists the (class, count) pairs with a positive count (`draws` is the
/// caller's buffer, left as it was found).
fn for_each_draw(
    allowed: &[usize],
    left: &[u8],
    strides: &[u64],
    wanted: u8,
    draws: &mut Vec<(usize, u8)>,
    visit: &mut impl FnMut(u64, u128, &[(usize, u8)]),
) {
    #[allow(clippy::too_many_arguments)]
    fn go(
        allowed: &[usize],
        left: &[u8],
        strides: &[u64],
        wanted: u8,
        delta: u64,
        mult: u128,
        draws: &mut Vec<(usize, u8)>,
        visit: &mut impl FnMut(u64, u128, &[(usize, u8)]),
    ) {
        let Some((&class, rest)) = allowed.split_first() else {
            if wanted == 0 {
                visit(delta, mult, draws);
            }
            return;
        };
        let available: u32 = rest.iter().map(|&c| u32::from(left[c])).sum();
        let most = wanted.min(left[class]);
        let least = u32::from(wanted).saturating_sub(available) as u8;
        for take in least..=most {
            if take > 0 {
                draws.push((class, take));
            }
            go(
                rest,
                left,
                strides,
                wanted - take,
                delta + u64::from(take) * strides[class],
                mult * binomial(left[class], take),
                draws,
                visit,
            );
            if take > 0 {
                draws.pop();
            }
        }
    }
    go(allowed, left, strides, wanted, 0, 1, draws, visit);
}

/// Per-layer precomputation shared by the forward and backward sweeps.
pub(super) struct Prepared {
    choices: Vec<Vec<Choice>>,
    class_lists: Vec<Vec<usize>>,
    pub(super) radix: Radix,
}

/// The precomputation of every layer.
pub(super) fn prepare(problem: &Problem) -> Prepared {
    prepare_layers(problem, problem.layers.len())
}

/// The precomputation of the first `layers` layers only (a sweep that
/// never expands a later layer).
pub(super) fn prepare_layers(problem: &Problem, layers: usize) -> Prepared {
    Prepared {
        choices: (0..layers).map(|j| choices(problem, j)).collect(),
        class_lists: (0..layers)
            .map(|j| {
                (0..problem.classes.len())
                    .filter(|&c| problem.classes[c].allowed >> j & 1 == 1)
                    .collect()
            })
            .collect(),
        radix: Radix::new(&problem.classes),
    }
}

/// The buffers of a sweep: the plain cards left per class of the state
/// being expanded, and the draws of the transition being visited.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    pub(super) left: Vec<u8>,
    draws: Vec<(usize, u8)>,
}

impl Scratch {
    pub(super) fn new(problem: &Problem) -> Scratch {
        Scratch {
            left: vec![0u8; problem.classes.len()],
            draws: Vec::with_capacity(problem.classes.len()),
        }
    }
}

/// Visit every transition out of state `key` through layer `j`:
/// `(next key, weight times multiplicity, choice, draws)`.
pub(super) fn for_each_transition(
    problem: &Problem,
    prepared: &Prepared,
    j: usize,
    key: u64,
    scratch: &mut Scratch,
    visit: &mut impl FnMut(u64, u128, &Choice, &[(usize, u8)]),
) {
    let Scratch { left, draws } = scratch;
    let used = key as u32;
    let code = key >> 32;
    prepared.radix.decode(code, left);
    let capacity = problem.layers[j].capacity;
    for choice in &prepared.choices[j] {
        if choice.cards & used != 0 {
            continue;
        }
        let wanted = capacity - choice.size;
        for_each_draw(
            &prepared.class_lists[j],
            left,
            &prepared.radix.strides,
            wanted,
            draws,
            &mut |delta, mult, draws| {
                let next = u64::from(used | choice.cards) | (code - delta) << 32;
                visit(next, choice.weight * mult, choice, draws);
            },
        );
    }
}

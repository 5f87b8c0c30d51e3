//! Reading the bundle (the layout is documented in `mod.rs`) into
//! [`MurderPlanTables`] with [`Coverage::Reachable`], checking every field
//! against the layout and the rules as it goes.

use super::planes::{corrupt, gunzip, Reader};
use super::{BRAIN_CODES, MAGIC, MAX_CONTENT, NAME, VERSION};
use crate::error::{Error, Result};
use crate::murder_plan::schema::{AVERAGE_START_INDEX, MAX_DAYS};
use crate::murder_plan::tables::{
    brain_held, Coverage, MurderPlanTables, Supports, KEYS, SUM_TOLERANCE,
};
use gametab_games::murder_plan::model::{
    BrainTarget, LimitedCards, MastermindCard, Placement, ProtagonistCard, State, STATE_COUNT,
};
use gametab_games::murder_plan::CardKind;

/// A decoded bundle.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// Its tables, answering for the reachable states.
    pub tables: MurderPlanTables,
    /// The program that wrote it (`gametab 0.1.0`).
    pub generator: String,
    /// Positions it holds (reachable, not won, days_left 1..=8).
    pub positions: usize,
}

/// The positions of a reachability map: the reachable keys of days_left
/// 1..=8 whose state the mastermind has not won, in key order.
pub(super) fn positions(reachable: &[bool]) -> Vec<usize> {
    (STATE_COUNT..KEYS)
        .filter(|&key| reachable[key] && !state_of(key).is_win())
        .collect()
}

fn state_of(key: usize) -> State {
    State::from_index(key % STATE_COUNT).expect("key below KEYS")
}

/// One side's action codes, tabulated once per decode: the action of each
/// code, its mirror image's code, its rank in the stored order (by the
/// three card labels as strings: the order of the strategy tables' rows),
/// and which codes are legal with each set of limited cards left.
pub(super) struct SideCodes<Card> {
    actions: Vec<Placement<Card>>,
    mirror: Vec<u8>,
    rank: Vec<u16>,
    /// `legal[LimitedCards::index()][code]`.
    legal: Vec<Vec<bool>>,
}

impl<Card: CardKind> SideCodes<Card> {
    pub(super) fn new() -> SideCodes<Card> {
        let actions: Vec<Placement<Card>> = (0..Placement::<Card>::CODES)
            .map(|code| Placement::<Card>::from_code(code as u8).expect("code below CODES"))
            .collect();
        let mirror = actions.iter().map(|a| a.mirrored().code()).collect();
        let mut order: Vec<usize> = (0..actions.len()).collect();
        order.sort_by_key(|&code| actions[code].labels());
        let mut rank = vec![0; actions.len()];
        for (position, &code) in order.iter().enumerate() {
            rank[code] = position as u16;
        }
        let legal = (0..16)
            .map(|i| {
                let mut codes = vec![false; actions.len()];
                for action in Card::legal_actions(LimitedCards::from_index(i).expect("index < 16"))
                {
                    codes[usize::from(action.code())] = true;
                }
                codes
            })
            .collect();
        SideCodes {
            actions,
            mirror,
            rank,
            legal,
        }
    }

    /// The mirror image of a support given as (code, anything) pairs:
    /// every action mapped by the axis swap, then put in the stored order;
    /// written into `out`.
    pub(super) fn mirror_into<T: Copy>(&self, support: &[(u8, T)], out: &mut Vec<(u8, T)>) {
        out.clear();
        out.extend(
            support
                .iter()
                .map(|&(code, p)| (self.mirror[usize::from(code)], p)),
        );
        out.sort_unstable_by_key(|&(code, _)| self.rank[usize::from(code)]);
    }
}

/// One side's distinct supports as stored: codes and probabilities, flat,
/// support `i` at `start[i]..start[i + 1]` (one allocation for all of
/// them: decoding speed is the browser's load time).
struct Dictionary {
    start: Vec<usize>,
    codes: Vec<u8>,
    probabilities: Vec<f64>,
}

impl Dictionary {
    fn read<Card: CardKind>(input: &mut Reader<'_>, side: &str) -> Result<Dictionary> {
        let what = format!("{side} supports");
        let count = input.count(1, &what)?;
        let lengths = input.take(count, &what)?;
        let mut start = Vec::with_capacity(count + 1);
        let mut total = 0;
        for &length in lengths {
            start.push(total);
            total += usize::from(length);
        }
        start.push(total);
        let codes = input.take(total, &what)?.to_vec();
        let probabilities = input.f64s(total, &what)?;
        let dictionary = Dictionary {
            start,
            codes,
            probabilities,
        };
        for i in 0..count {
            let (codes, probabilities) = dictionary.get(i);
            check_support::<Card>(codes, probabilities)
                .map_err(|detail| corrupt(format!("{what}, support {i}: {detail}")))?;
        }
        Ok(dictionary)
    }

    fn len(&self) -> usize {
        self.start.len() - 1
    }

    fn get(&self, i: usize) -> (&[u8], &[f64]) {
        let range = self.start[i]..self.start[i + 1];
        (&self.codes[range.clone()], &self.probabilities[range])
    }
}

fn check_support<Card: CardKind>(codes: &[u8], probabilities: &[f64]) -> Result<(), String> {
    if codes.is_empty() {
        return Err("empty".to_string());
    }
    let mut sum = 0.0;
    for (&code, &p) in codes.iter().zip(probabilities) {
        if Placement::<Card>::from_code(code).is_none() {
            return Err(format!("action code {code} out of range"));
        }
        if !(p > 0.0 && p <= 1.0) {
            return Err(format!("probability {p} outside (0, 1]"));
        }
        sum += p;
    }
    if (sum - 1.0).abs() > SUM_TOLERANCE {
        return Err(format!("probabilities sum to {sum}"));
    }
    Ok(())
}

/// One side's dense supports: every position's, from its reference.
fn supports<Card: CardKind>(
    dictionary: &Dictionary,
    refs: &[u32],
    positions: &[usize],
    side: &str,
) -> Result<Supports<Card>> {
    let codes_of = SideCodes::<Card>::new();
    let mut start = vec![0u32; KEYS + 1];
    let mut entries = Vec::with_capacity(dictionary.codes.len() * 2);
    // Two buffers reused for every position: as stored, and as played.
    let mut stored: Vec<(u8, f64)> = Vec::new();
    let mut support: Vec<(u8, f64)> = Vec::new();
    let mut next = 0;
    for (&key, &reference) in positions.iter().zip(refs) {
        for s in &mut start[next..=key] {
            *s = entries.len() as u32;
        }
        next = key + 1;
        let index = (reference >> 1) as usize;
        if index >= dictionary.len() {
            return Err(corrupt(format!(
                "{side} reference {reference} of key {key}: only {} supports",
                dictionary.len()
            )));
        }
        let (codes, probabilities) = dictionary.get(index);
        stored.clear();
        stored.extend(codes.iter().copied().zip(probabilities.iter().copied()));
        if reference & 1 == 1 {
            codes_of.mirror_into(&stored, &mut support);
        } else {
            std::mem::swap(&mut stored, &mut support);
        }
        let limited = state_of(key).limited.index();
        for &(code, p) in &support {
            if !codes_of.legal[limited][usize::from(code)] {
                return Err(corrupt(format!(
                    "{side} support of key {key}: action code {code} is illegal in {:?}",
                    state_of(key)
                )));
            }
            entries.push((codes_of.actions[usize::from(code)], p));
        }
    }
    for s in &mut start[next..] {
        *s = entries.len() as u32;
    }
    Ok(Supports::from_parts(start, entries))
}

fn unit_interval(values: &[f64], what: &str) -> Result<()> {
    match values.iter().position(|v| !(0.0..=1.0).contains(v)) {
        Some(i) => Err(corrupt(format!("{what} {i}: {} outside [0, 1]", values[i]))),
        None => Ok(()),
    }
}

/// Read the header; the generator's name.
fn header(input: &mut Reader<'_>) -> Result<String> {
    if input.take(MAGIC.len(), "the magic")? != MAGIC {
        return Err(corrupt("not a Murder Plan browser bundle (wrong magic)"));
    }
    let version = input.u32("the version")?;
    if version != VERSION {
        return Err(Error::SchemaVersion {
            table: NAME.to_string(),
            expected: VERSION,
            found: version.to_string(),
        });
    }
    let max_days = input.u8("max_days")?;
    let states = input.u16("state_count")?;
    if (max_days, usize::from(states)) != (MAX_DAYS, STATE_COUNT) {
        return Err(corrupt(format!(
            "{max_days} days and {states} states; this reader holds {MAX_DAYS} and {STATE_COUNT}"
        )));
    }
    let length = input.u8("the generator")?;
    let name = input.take(usize::from(length), "the generator")?;
    String::from_utf8(name.to_vec()).map_err(|_| corrupt("the generator is not UTF-8"))
}

/// The brain's choices of every held post-card state, with their values
/// from `values` (1 if the state after the ability is won).
fn brain(
    input: &mut Reader<'_>,
    reachable: &[bool],
    values: &[f64],
) -> Result<Vec<(BrainTarget, f64)>> {
    let held: Vec<usize> = (STATE_COUNT..KEYS)
        .filter(|&key| brain_held(reachable, key))
        .collect();
    let packed = input.take(held.len().div_ceil(4), "the brain targets")?;
    let mut brain = vec![(BrainTarget::Nobody, 0.0); KEYS - STATE_COUNT];
    for (i, &key) in held.iter().enumerate() {
        let code = packed[i / 4] >> (2 * (i % 4)) & 3;
        let post = state_of(key);
        let target = BRAIN_CODES
            .get(usize::from(code))
            .copied()
            .filter(|t| t.is_legal(post))
            .ok_or_else(|| corrupt(format!("brain target {code} of key {key} in {post:?}")))?;
        let after = target.apply(post);
        // Held: the state after every legal ability has a known value.
        let value = if after.is_win() {
            1.0
        } else {
            values[key - STATE_COUNT - post.index() + after.index()]
        };
        brain[key - STATE_COUNT] = (target, value);
    }
    let used = held.len() % 4;
    if used != 0 && packed.last().is_some_and(|&last| last >> (2 * used) != 0) {
        return Err(corrupt("padding bits of the brain targets are set"));
    }
    Ok(brain)
}

/// Decode a bundle file (its gzip bytes).
///
/// # Errors
/// [`Error::CorruptBundle`] naming the field that is unreadable or breaks
/// the rules; [`Error::SchemaVersion`] for a bundle of another layout.
pub fn decode(file: &[u8]) -> Result<Decoded> {
    decode_content(&gunzip(file)?)
}

/// Decode the content of a bundle file, already inflated (by the
/// browser's own gzip, which streams and runs native: the module's load
/// time is the point).
///
/// # Errors
/// As [`decode`].
pub fn decode_content(content: &[u8]) -> Result<Decoded> {
    if content.len() > MAX_CONTENT {
        return Err(corrupt(format!("the content is over {MAX_CONTENT} bytes")));
    }
    let mut input = Reader::new(content);
    let generator = header(&mut input)?;
    let bits = input.take(KEYS / 8, "the reachability map")?;
    let reachable: Vec<bool> = (0..KEYS).map(|k| bits[k / 8] >> (k % 8) & 1 == 1).collect();
    let positions = positions(&reachable);
    let count = input.u32("the positions")? as usize;
    if count != positions.len() {
        return Err(corrupt(format!(
            "{count} positions, the reachability map has {}",
            positions.len()
        )));
    }
    let stored_values = input.f64s(count, "the values")?;
    unit_interval(&stored_values, "value")?;
    let stored_gaps = input.f64s(count, "the gaps")?;
    if let Some(i) = stored_gaps.iter().position(|g| !g.is_finite()) {
        return Err(corrupt(format!("gap {i} is {}", stored_gaps[i])));
    }
    let mastermind_refs = input.u32s(count, "the mastermind references")?;
    let protagonist_refs = input.u32s(count, "the protagonist references")?;

    // The values the rules fix, then the stored ones.
    let mut values = vec![0.0; KEYS];
    let mut gaps = vec![0.0; KEYS];
    for (key, value) in values.iter_mut().enumerate() {
        if state_of(key).is_win() {
            *value = 1.0;
        }
    }
    for (i, &key) in positions.iter().enumerate() {
        values[key] = stored_values[i];
        gaps[key] = stored_gaps[i];
    }
    let brain = brain(&mut input, &reachable, &values)?;
    let mastermind = Dictionary::read::<MastermindCard>(&mut input, "mastermind")?;
    let protagonists = Dictionary::read::<ProtagonistCard>(&mut input, "protagonist")?;
    let win_rates = input.f64s(
        usize::from(MAX_DAYS) * (AVERAGE_START_INDEX as usize + 1),
        "the win rates",
    )?;
    unit_interval(&win_rates, "win rate")?;
    input.finish()?;

    let tables = MurderPlanTables {
        mastermind: supports(&mastermind, &mastermind_refs, &positions, "mastermind")?,
        protagonists: supports(&protagonists, &protagonist_refs, &positions, "protagonist")?,
        values,
        gaps,
        reachable,
        brain,
        win_rates,
        coverage: Coverage::Reachable,
    };
    Ok(Decoded {
        tables,
        generator,
        positions: positions.len(),
    })
}

//! Writing the bundle from the complete tables (the layout is documented
//! in `mod.rs`), and proving that it answers as they do.

use std::collections::HashMap;

use super::compare::compare;
use super::decode::{decode, positions, SideCodes};
use super::planes::{gzip, Writer};
use super::{BRAIN_CODES, MAGIC, VERSION};
use crate::error::{Error, Result};
use crate::murder_plan::schema::MAX_DAYS;
use crate::murder_plan::tables::{brain_held, Coverage, MurderPlanTables, Supports, KEYS};
use gametab_games::murder_plan::model::{Placement, STATE_COUNT};
use gametab_games::murder_plan::CardKind;

/// A written bundle and what it holds.
#[derive(Debug, Clone)]
pub struct Encoded {
    /// The file's bytes (gzip).
    pub bytes: Vec<u8>,
    /// Bytes of the content before compression.
    pub content_bytes: usize,
    /// Positions held (reachable, not won, days_left 1..=8): the `rows`
    /// of its manifest entry.
    pub positions: usize,
    /// Distinct mastermind supports stored.
    pub mastermind_supports: usize,
    /// Distinct protagonist supports stored.
    pub protagonist_supports: usize,
}

/// A support as stored: action codes and probability bits, in order.
type Key = Vec<(u8, u64)>;

/// One side's distinct supports, in order of first use.
struct Dictionary<Card> {
    index: HashMap<Key, u32>,
    supports: Vec<Key>,
    codes: SideCodes<Card>,
    mirrored: Key,
}

impl<Card: CardKind> Dictionary<Card> {
    fn new() -> Self {
        Dictionary {
            index: HashMap::new(),
            supports: Vec::new(),
            codes: SideCodes::new(),
            mirrored: Vec::new(),
        }
    }

    /// The reference of `support`: a stored one, the mirror image of a
    /// stored one, or a new one.
    fn reference(&mut self, support: &[(Placement<Card>, f64)]) -> u32 {
        let key: Key = support
            .iter()
            .map(|&(action, p)| (action.code(), p.to_bits()))
            .collect();
        if let Some(&i) = self.index.get(&key) {
            return i << 1;
        }
        self.codes.mirror_into(&key, &mut self.mirrored);
        if let Some(&i) = self.index.get(&self.mirrored) {
            return i << 1 | 1;
        }
        let i = self.supports.len() as u32;
        self.index.insert(key.clone(), i);
        self.supports.push(key);
        i << 1
    }

    fn write(&self, out: &mut Writer) -> Result<()> {
        out.u32(self.supports.len() as u32);
        for support in &self.supports {
            let length = u8::try_from(support.len()).map_err(|_| {
                Error::Inconsistent(format!("a support of {} actions", support.len()))
            })?;
            out.u8(length);
        }
        for support in &self.supports {
            out.raw(&support.iter().map(|&(code, _)| code).collect::<Vec<u8>>());
        }
        let probabilities: Vec<f64> = self
            .supports
            .iter()
            .flatten()
            .map(|&(_, bits)| f64::from_bits(bits))
            .collect();
        out.f64s(&probabilities);
        Ok(())
    }
}

/// One side's references of every position, and its dictionary.
fn references<Card: CardKind>(
    supports: &Supports<Card>,
    positions: &[usize],
) -> (Vec<u32>, Dictionary<Card>) {
    let mut dictionary = Dictionary::new();
    let refs = positions
        .iter()
        .map(|&key| dictionary.reference(supports.get(key)))
        .collect();
    (refs, dictionary)
}

/// Write the bundle of `tables` (the complete tables of a set, as the
/// Parquet loader gives them), naming `generator` as the program that
/// wrote it; then decode it and compare every answer it holds with
/// `tables`.
///
/// # Errors
/// [`Error::Inconsistent`] for tables that are not complete, a generator
/// name over 255 bytes, a support of over 255 actions, or a decoded bundle
/// that differs from `tables` (a bug of this module, never written).
pub fn encode(tables: &MurderPlanTables, generator: &str) -> Result<Encoded> {
    if tables.coverage != Coverage::Everything {
        return Err(Error::Inconsistent(
            "a bundle is written from the complete tables".to_string(),
        ));
    }
    let name = u8::try_from(generator.len())
        .map_err(|_| Error::Inconsistent(format!("generator name {generator:?} too long")))?;
    let mut out = Writer::default();
    out.raw(&MAGIC);
    out.u32(VERSION);
    out.u8(MAX_DAYS);
    out.u16(STATE_COUNT as u16);
    out.u8(name);
    out.raw(generator.as_bytes());

    let mut bits = vec![0u8; KEYS / 8];
    for (key, _) in tables.reachable.iter().enumerate().filter(|(_, &r)| r) {
        bits[key / 8] |= 1 << (key % 8);
    }
    out.raw(&bits);

    let positions = positions(&tables.reachable);
    out.u32(positions.len() as u32);
    out.f64s(
        &positions
            .iter()
            .map(|&k| tables.values[k])
            .collect::<Vec<_>>(),
    );
    out.f64s(
        &positions
            .iter()
            .map(|&k| tables.gaps[k])
            .collect::<Vec<_>>(),
    );
    let (mastermind_refs, mastermind) = references(&tables.mastermind, &positions);
    let (protagonist_refs, protagonists) = references(&tables.protagonists, &positions);
    out.u32s(&mastermind_refs);
    out.u32s(&protagonist_refs);

    let mut brain = Vec::new();
    for key in STATE_COUNT..KEYS {
        if brain_held(&tables.reachable, key) {
            let target = tables.brain[key - STATE_COUNT].0;
            let code = BRAIN_CODES.iter().position(|&t| t == target);
            brain.push(code.expect("every target has a code") as u8);
        }
    }
    let packed: Vec<u8> = brain
        .chunks(4)
        .map(|four| {
            four.iter()
                .enumerate()
                .fold(0, |byte, (i, &code)| byte | code << (2 * i))
        })
        .collect();
    out.raw(&packed);

    mastermind.write(&mut out)?;
    protagonists.write(&mut out)?;
    out.f64s(&tables.win_rates);

    let content_bytes = out.bytes.len();
    let bytes = gzip(&out.bytes);
    let decoded = decode(&bytes)?;
    let comparison = compare(tables, &decoded.tables, 1);
    if let Some(first) = comparison.differences.first() {
        return Err(Error::Inconsistent(format!(
            "the bundle would answer differently from the tables: {first}"
        )));
    }
    Ok(Encoded {
        bytes,
        content_bytes,
        positions: positions.len(),
        mastermind_supports: mastermind.supports.len(),
        protagonist_supports: protagonists.supports.len(),
    })
}

//! [`MurderPlan`]: the lookup crate's `MurderPlanTables`, decoded from the
//! browser bundle, answering the same queries with the same code; only
//! the shapes of the arguments and answers are JavaScript's.

use wasm_bindgen::prelude::*;

use gametab_games::murder_plan::model::Placement;
use gametab_games::murder_plan::{CardKind, DaysLeft};
use gametab_lookup::murder_plan::{bundle, MoveValue, MurderPlanTables};

use crate::refusal::{Kind, Refusal};
use crate::rules::{state, target_code, Side};

/// The Murder Plan tables of a browser bundle.
#[wasm_bindgen]
#[derive(Debug, Clone)]
pub struct MurderPlan {
    tables: MurderPlanTables,
    generator: String,
    positions: u32,
}

fn message(error: gametab_lookup::Error) -> Refusal {
    Refusal::from(error)
}

/// `[code, probability, code, probability, ...]` of a support.
fn support<Card: CardKind>(support: &[(Placement<Card>, f64)]) -> Vec<f64> {
    support
        .iter()
        .flat_map(|&(action, p)| [f64::from(action.code()), p])
        .collect()
}

/// `[code, value, loss, probability, ...]` of moves, best first.
fn moves<Card: CardKind>(moves: &[MoveValue<Placement<Card>>]) -> Vec<f64> {
    moves
        .iter()
        .flat_map(|m| [f64::from(m.action.code()), m.value, m.loss, m.probability])
        .collect()
}

/// gzip's first two bytes (RFC 1952).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The refusal of bytes that are neither gzip nor a bundle's content:
/// their first bytes, and what they most likely are.
fn not_a_bundle(bytes: &[u8]) -> String {
    let head: Vec<String> = bytes.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let hint = match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        None => "an empty file".to_string(),
        Some(b'<') => "an HTML page: the URL most likely names no file, and the server \
                       answered with its index page instead"
            .to_string(),
        Some(b'{') => "JSON, perhaps a server's error document".to_string(),
        Some(_) => "neither gzip (1f 8b) nor a bundle's content (GTMPWEB)".to_string(),
    };
    format!(
        "{}: not a Murder Plan browser bundle: {} bytes starting [{}]: {hint}",
        bundle::FILE,
        bytes.len(),
        head.join(" ")
    )
}

impl MurderPlan {
    fn of(decoded: bundle::Decoded) -> MurderPlan {
        MurderPlan {
            tables: decoded.tables,
            generator: decoded.generator,
            positions: decoded.positions as u32,
        }
    }
}

#[wasm_bindgen]
impl MurderPlan {
    /// Decode a browser bundle from its bytes, gzip or not: the file as a
    /// table set holds it (`murder_plan_browser.bin.gz`), or its content
    /// already inflated (by the browser's `DecompressionStream`, or by a
    /// host that sent the file with `Content-Encoding: gzip`). Which one
    /// it is, the first bytes say: gzip's magic (1f 8b) or the bundle's
    /// (`GTMPWEB\0`).
    ///
    /// # Errors
    /// A [`Refusal`] of kind `bundle` (neither gzip nor a bundle, with
    /// the first bytes shown; truncated; a field that breaks the layout
    /// or the rules) or `version` (another layout version).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<MurderPlan, Refusal> {
        let decoded = if bytes.starts_with(&GZIP_MAGIC) {
            bundle::decode(bytes)
        } else if bytes.starts_with(&bundle::MAGIC) {
            bundle::decode_content(bytes)
        } else {
            return Err(Refusal::new(Kind::Bundle, not_a_bundle(bytes)));
        };
        decoded.map(MurderPlan::of).map_err(message)
    }

    /// The program that wrote the bundle (`gametab 0.1.0`).
    #[wasm_bindgen(getter)]
    pub fn generator(&self) -> String {
        self.generator.clone()
    }

    /// Positions held: the (days_left, state) pairs of days_left 1..=8
    /// reachable from the 16 starts and not yet won.
    #[wasm_bindgen(getter)]
    pub fn positions(&self) -> u32 {
        self.positions
    }

    /// `V_d(S)`: the mastermind's win probability with `days` turns left.
    ///
    /// # Errors
    /// days above 8, a state index out of range, or a state no game from
    /// the 16 starts reaches.
    pub fn value(&self, days: u8, index: u16) -> Result<f64, Refusal> {
        self.tables.value(days, state(index)?).map_err(message)
    }

    /// The certificate gap stored with the state's strategies.
    ///
    /// # Errors
    /// As [`MurderPlan::value`].
    pub fn gap(&self, days: u8, index: u16) -> Result<f64, Refusal> {
        self.tables.gap(days, state(index)?).map_err(message)
    }

    /// Whether some game of horizon <= 8 from the 16 starts reaches the
    /// state with `days` turns left.
    ///
    /// # Errors
    /// days above 8, a state index out of range.
    pub fn reachable(&self, days: u8, index: u16) -> Result<bool, Refusal> {
        self.tables.reachable(days, state(index)?).map_err(message)
    }

    /// A side's optimal mixed strategy, its support in the stored order:
    /// `[action code, probability, ...]`.
    ///
    /// # Errors
    /// days outside 1..=8, a won or unreachable state.
    pub fn strategy(&self, side: Side, days: u8, index: u16) -> Result<Vec<f64>, Refusal> {
        let s = state(index)?;
        match side {
            Side::Mastermind => self.tables.mastermind_strategy(days, s).map(support),
            Side::Protagonists => self.tables.protagonists_strategy(days, s).map(support),
        }
        .map_err(message)
    }

    /// A side's action drawn from its stored strategy by the uniform
    /// number `u` in [0, 1): its code.
    ///
    /// # Errors
    /// As [`MurderPlan::strategy`], and `u` outside [0, 1).
    pub fn sample(&self, side: Side, days: u8, index: u16, u: f64) -> Result<u8, Refusal> {
        let s = state(index)?;
        match side {
            Side::Mastermind => self.tables.sample_mastermind(days, s, u).map(|a| a.code()),
            Side::Protagonists => self
                .tables
                .sample_protagonists(days, s, u)
                .map(|a| a.code()),
        }
        .map_err(message)
    }

    /// Every legal action of a side with its value against the opponent's
    /// optimal strategy, its loss against the game value and its own
    /// probability, best first: `[code, value, loss, probability, ...]`.
    ///
    /// # Errors
    /// As [`MurderPlan::strategy`].
    pub fn moves(&self, side: Side, days: u8, index: u16) -> Result<Vec<f64>, Refusal> {
        let s = state(index)?;
        match side {
            Side::Mastermind => self.tables.mastermind_moves(days, s).map(|m| moves(&m)),
            Side::Protagonists => self.tables.protagonist_moves(days, s).map(|m| moves(&m)),
        }
        .map_err(message)
    }

    /// The brain's optimal choice in a post-card state of a turn played
    /// with `days` turns left: `[target code, value]` (target codes 0
    /// killer, 1 key person, 2 nobody).
    ///
    /// # Errors
    /// days outside 1..=8, a post-card state no turn of a reachable state
    /// leads to.
    #[wasm_bindgen(js_name = brainChoice)]
    pub fn brain_choice(&self, days: u8, post: u16) -> Result<Vec<f64>, Refusal> {
        let (target, value) = self
            .tables
            .brain_choice(DaysLeft::new(days), state(post)?)
            .map_err(message)?;
        Ok(vec![f64::from(target_code(target)), value])
    }

    /// The optimal mastermind win rate for a horizon (1..=8) from a start
    /// state (its index), or the average over the 16 starts (`undefined`).
    ///
    /// # Errors
    /// A horizon outside 1..=8, a state that is not a start.
    #[wasm_bindgen(js_name = winRate)]
    pub fn win_rate(&self, horizon: u8, start: Option<u16>) -> Result<f64, Refusal> {
        let start = match start {
            None => None,
            Some(index) => {
                let s = state(index)?;
                if !gametab_games::murder_plan::State::starts().any(|t| t == s) {
                    return Err(Refusal::argument(format!(
                        "state {index} is not a start state"
                    )));
                }
                Some((s.brain, s.killer))
            }
        };
        self.tables.win_rate(horizon, start).map_err(message)
    }
}

//! A Murder Plan state as the command line and the server take it: the
//! positions as offsets `a,b`, the intrigues, and the limited cards left
//! ([`StateArgs`], turned into a validated [`State`] by
//! [`StateArgs::state`]); and the parsers of its flags.

use clap::Args;

use crate::error::{Error, Parameter, Result};

use gametab_games::murder_plan::model::{LimitedCards, Offset, State, FORBID_MOVEMENT_CARDS};
use gametab_games::murder_plan::DaysLeft;

/// A Murder Plan state on the command line.
#[derive(Debug, Clone, Args)]
pub struct StateArgs {
    /// Brain offset x = pos(brain) - pos(key person), as "a,b" with a, b in {0, 1}.
    #[arg(long, value_parser = parse_offset)]
    pub brain: Offset,
    /// Killer offset y = pos(killer) - pos(key person), as "a,b".
    #[arg(long, value_parser = parse_offset)]
    pub killer: Offset,
    /// Killer intrigue (values above the cap 4 are clamped, as in the game).
    #[arg(long, default_value_t = 0)]
    pub killer_intrigue: u8,
    /// Key-person intrigue (values above the cap 2 are clamped).
    #[arg(long, default_value_t = 0)]
    pub key_person_intrigue: u8,
    /// The mastermind has already played the diagonal card.
    #[arg(long)]
    pub no_diagonal: bool,
    /// The mastermind has already played the intrigue+2 card.
    #[arg(long)]
    pub no_intrigue2: bool,
    /// Forbid-movement uses left to the protagonists (0..=3).
    #[arg(long, default_value_t = FORBID_MOVEMENT_CARDS)]
    pub forbid_movement_left: u8,
}

/// Parse a count of days left (`--days`, `--horizon`): a whole number
/// from 0 to 255; each query checks the range its table covers.
///
/// # Errors
/// A message naming the text that is not a count.
pub fn parse_days(text: &str) -> Result<DaysLeft, String> {
    text.trim()
        .parse::<u8>()
        .map(DaysLeft::new)
        .map_err(|_| format!("{text:?} is not a number of days (0..=255)"))
}

/// Parse "a,b" (a, b in {0, 1}) into an offset.
pub fn parse_offset(text: &str) -> Result<Offset, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let bit = |s: &str| match s {
        "0" => Some(0),
        "1" => Some(1),
        _ => None,
    };
    match parts.as_slice() {
        [a, b] => bit(a)
            .zip(bit(b))
            .and_then(|(a, b)| Offset::new(a, b))
            .ok_or_else(|| format!("'{text}': each component must be 0 or 1")),
        _ => Err(format!("'{text}': expected two components like 0,1")),
    }
}

impl StateArgs {
    /// The state, validated, intrigue clamped to the caps.
    ///
    /// # Errors
    /// A forbid-movement count above 3.
    pub fn state(&self) -> Result<State> {
        if self.forbid_movement_left > FORBID_MOVEMENT_CARDS {
            return Err(Error::invalid(
                Parameter::ForbidMovementLeft,
                format!(
                    "--forbid-movement-left {} is out of range (0..={FORBID_MOVEMENT_CARDS})",
                    self.forbid_movement_left
                ),
            ));
        }
        Ok(State {
            brain: self.brain,
            killer: self.killer,
            killer_intrigue: self.killer_intrigue,
            key_person_intrigue: self.key_person_intrigue,
            limited: LimitedCards {
                diagonal: !self.no_diagonal,
                intrigue_plus_two: !self.no_intrigue2,
                forbid_movement: self.forbid_movement_left,
            },
        }
        .clamped())
    }
}

//! The public events of a role game: what the table sees (and what the
//! viewer sees of their own role's night), in game order, and what became
//! known of a player.

use std::fmt;

use super::super::model::{Player, Side};
use super::setup::{Role, RoleSet};

/// What became known of a player: their side or their role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Known {
    /// Only the side.
    Side(Side),
    /// The role card.
    Role(Role),
}

impl Known {
    /// The roles compatible with what is known.
    pub const fn roles(self) -> RoleSet {
        match self {
            Known::Side(side) => RoleSet::of_side(side),
            Known::Role(role) => RoleSet::only(role),
        }
    }

    /// Whether a report of `self` tells no more than `seen` (the same, or
    /// its side): a seer repeating a vision she had.
    pub(crate) fn repeats(self, seen: Known) -> bool {
        self == seen || self == Known::Side(seen.side())
    }

    /// The side it implies.
    pub const fn side(self) -> Side {
        match self {
            Known::Side(side) => side,
            Known::Role(role) => role.side(),
        }
    }
}

impl fmt::Display for Known {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Known::Side(side) => write!(f, "{side}"),
            Known::Role(role) => write!(f, "the {role}"),
        }
    }
}

/// One public event of a role game, in game order.
#[derive(Debug, Clone, PartialEq)]
pub enum RoleEvent {
    /// A night with its deaths by the wolves or the poison (0, 1 or 2
    /// players; lovers dying of grief come as [`RoleEvent::LoverDeath`]).
    Night {
        /// Who died, in any order.
        deaths: Vec<Player>,
        /// A guard viewer's own target that night, when logged.
        guarded: Option<Player>,
    },
    /// The side-only night kill of old logs: the wolves' victim died (a
    /// village-side player chosen uniformly); no guard or witch that night.
    NightKill {
        /// The victim.
        victim: Player,
    },
    /// The viewer's own seer check (the viewer is the seer; in a side-only
    /// log read by the role engine, a check whose source is not modelled).
    SeerCheck {
        /// The player checked.
        target: Player,
        /// What the vision showed: a side, or the card.
        result: Known,
    },
    /// A day vote.
    Vote {
        /// Who voted.
        voter: Player,
        /// For whom.
        target: Player,
    },
    /// The day's vote tied between `players`: they are voted on again, and
    /// the votes until the day's end are that revote.
    Tie {
        /// The tied players (at least two, alive).
        players: Vec<Player>,
    },
    /// The revote tied again: nobody is voted out today.
    NoElimination,
    /// A behaviour score, likelihood ratio `e^score` in favour of wolf.
    Behaviour {
        /// The player observed.
        player: Player,
        /// Log likelihood ratio, wolf over not wolf.
        score: f64,
    },
    /// `player` was voted out; `shown` is what the table learned.
    Eliminated {
        /// The player voted out.
        player: Player,
        /// The card or the side shown, if any.
        shown: Option<Known>,
    },
    /// A player's side or role became known without a death.
    Revealed {
        /// The player.
        player: Player,
        /// What became known.
        known: Known,
    },
    /// The hunter, who died in the current step, shot `target`.
    HunterShot {
        /// The hunter (revealed by the shot).
        hunter: Player,
        /// The player shot, who dies at once.
        target: Player,
    },
    /// `player` died of grief: their lover `lover` died in this step.
    LoverDeath {
        /// The player dying as a lover.
        player: Player,
        /// Their lover, dead earlier in the same step.
        lover: Player,
    },
    /// The wolf viewer's pack: every wolf, the viewer among them (the
    /// wolves open their eyes together on the first night).
    Pack {
        /// The wolves, the viewer included.
        wolves: Vec<Player>,
    },
    /// What the viewer knows of cupid's lovers: the pair (a lover viewer
    /// learns the partner, not the card; the cupid viewer the two he
    /// named), or `None`: the viewer was not touched as a lover.
    Lovers {
        /// The lovers, or none when the viewer is not one of them.
        pair: Option<(Player, Player)>,
    },
    /// The witch viewer's own night, logged before the `night` that
    /// announces its deaths: the victim she was shown (only while she
    /// holds the antidote), whether she saved them, whom she poisoned.
    WitchNight {
        /// The wolves' victim she was shown; none once her antidote is
        /// spent.
        shown: Option<Player>,
        /// Whether she used the antidote on the victim shown.
        saved: bool,
        /// Whom she poisoned, if anyone.
        poisoned: Option<Player>,
    },
    /// A wolf reveals himself ("self-destruct"): the day's talk stops at
    /// once and the game goes to the night.
    SelfDestruct {
        /// The wolf.
        player: Player,
    },
    /// `player` claims `role`, a seer claim optionally with a check.
    Claim {
        /// The claimant.
        player: Player,
        /// The role claimed (never wolf).
        role: Role,
        /// A claimed seer's reported check: who, and the side or the card.
        check: Option<(Player, Known)>,
    },
}

/// The witch viewer's own night (see [`RoleEvent::WitchNight`]), carried
/// by the night it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WitchView {
    pub(crate) shown: Option<Player>,
    pub(crate) saved: bool,
    pub(crate) poisoned: Option<Player>,
}

impl RoleEvent {
    /// Whether the event is a consequence of the step before it (a shot or
    /// a lover's death), so no new phase of the game begins with it.
    pub(crate) fn is_consequence(&self) -> bool {
        matches!(
            self,
            RoleEvent::HunterShot { .. } | RoleEvent::LoverDeath { .. }
        )
    }
}

impl fmt::Display for RoleEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |players: &[Player]| {
            players
                .iter()
                .map(|p| p.number().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            RoleEvent::Night { deaths, guarded } => {
                if deaths.is_empty() {
                    write!(f, "quiet night")?;
                } else {
                    write!(f, "night deaths [{}]", list(deaths))?;
                }
                match guarded {
                    Some(target) => write!(f, ", the guard protected {target}"),
                    None => Ok(()),
                }
            }
            RoleEvent::NightKill { victim } => write!(f, "night kill of {victim}"),
            RoleEvent::SeerCheck { target, result } => {
                write!(f, "seer check: {target} is {result}")
            }
            RoleEvent::Vote { voter, target } => {
                write!(f, "vote {} -> {}", voter.number(), target.number())
            }
            RoleEvent::Tie { players } => write!(f, "tie between players {}", list(players)),
            RoleEvent::NoElimination => write!(f, "no elimination (tied twice)"),
            RoleEvent::Behaviour { player, score } => {
                write!(f, "behaviour score {score} for {player}")
            }
            RoleEvent::Eliminated { player, shown } => match shown {
                Some(known) => write!(f, "{player} voted out, shown {known}"),
                None => write!(f, "{player} voted out, card not shown"),
            },
            RoleEvent::Revealed { player, known } => write!(f, "{player} revealed as {known}"),
            RoleEvent::HunterShot { hunter, target } => {
                write!(f, "hunter {hunter} shoots {target}")
            }
            RoleEvent::LoverDeath { player, lover } => {
                write!(f, "{player} dies as the lover of {lover}")
            }
            RoleEvent::Pack { wolves } => write!(f, "the viewer's pack: players {}", list(wolves)),
            RoleEvent::Lovers { pair: Some((a, b)) } => {
                write!(f, "the viewer knows the lovers: {a} and {b}")
            }
            RoleEvent::Lovers { pair: None } => write!(f, "the viewer is no lover"),
            RoleEvent::SelfDestruct { player } => write!(f, "{player} reveals himself as a wolf"),
            RoleEvent::WitchNight {
                shown,
                saved,
                poisoned,
            } => {
                match shown {
                    Some(victim) if *saved => write!(f, "the witch was shown {victim}, saved")?,
                    Some(victim) => write!(f, "the witch was shown {victim}, did not save")?,
                    None => write!(f, "the witch was shown nobody")?,
                }
                match poisoned {
                    Some(target) => write!(f, ", poisoned {target}"),
                    None => write!(f, ", poisoned nobody"),
                }
            }
            RoleEvent::Claim {
                player,
                role,
                check,
            } => match check {
                Some((target, result)) => {
                    write!(f, "{player} claims {role}, says {target} is {result}")
                }
                None => write!(f, "{player} claims {role}"),
            },
        }
    }
}

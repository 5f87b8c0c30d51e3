//! The game model: players, sides, the generative evidence model and a
//! validated game (setup plus an ordered list of events).
//!
//! A [`Game`] is built event by event; every event is checked against who is
//! alive at that moment and against the hard facts known so far (revealed
//! roles, a trusted seer), so contradictory input is refused with the event
//! that caused it. The posterior module reads the validated events back.

use std::fmt;

use crate::error::{Error, Result};

/// Largest number of players: a wolf set is one `u64` bitmask.
pub const MAX_PLAYERS: u32 = 64;

/// The side a player is on. Seer, witch, hunter, guard... are all
/// [`Side::Village`] for inference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// A wolf.
    Wolf,
    /// Anyone on the village side.
    Village,
}

impl Side {
    /// Lowercase name, as in the game log.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Wolf => "wolf",
            Side::Village => "village",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The size of the table: how many players and how many wolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    players: u32,
    wolves: u32,
}

impl Setup {
    /// A table of `players` players of whom `wolves` are wolves.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] unless `2 <= players <= MAX_PLAYERS` and
    /// `1 <= wolves < players`.
    pub fn new(players: u32, wolves: u32) -> Result<Setup> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(Error::OutOfRange {
                what: crate::Argument::Players,
                detail: format!("{players}, allowed 2..={MAX_PLAYERS}"),
            });
        }
        if wolves == 0 || wolves >= players {
            return Err(Error::OutOfRange {
                what: crate::Argument::Wolves,
                detail: format!(
                    "{wolves} among {players} players, allowed 1..={}",
                    players - 1
                ),
            });
        }
        Ok(Setup { players, wolves })
    }

    /// Number of players.
    pub const fn players(self) -> u32 {
        self.players
    }

    /// Number of wolves.
    pub const fn wolves(self) -> u32 {
        self.wolves
    }

    /// Every player, in seat order.
    pub fn all_players(self) -> impl Iterator<Item = Player> {
        (0..self.players).map(|index| Player(index as u8))
    }

    /// The set of all players.
    pub fn everyone(self) -> PlayerSet {
        PlayerSet(if self.players == 64 {
            u64::MAX
        } else {
            (1u64 << self.players) - 1
        })
    }
}

/// A seat at the table. Players are numbered from 1 in logs and output;
/// internally the seat index starts at 0, so the constructor and
/// [`Player::number`] are the only ways across.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player(u8);

impl Player {
    /// The player with seat number `number` (1-based) at a table of `setup`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] unless `1 <= number <= players`.
    pub fn from_number(number: u32, setup: Setup) -> Result<Player> {
        if number == 0 || number > setup.players {
            return Err(Error::OutOfRange {
                what: crate::Argument::Player,
                detail: format!("{number}, allowed 1..={}", setup.players),
            });
        }
        Ok(Player((number - 1) as u8))
    }

    /// The 1-based seat number.
    pub const fn number(self) -> u32 {
        self.0 as u32 + 1
    }

    /// The 0-based seat index (bit position in a [`PlayerSet`]).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The player at 0-based seat `index` (callers keep it below the
    /// number of players).
    pub(crate) const fn from_index(index: usize) -> Player {
        Player(index as u8)
    }

    const fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.number())
    }
}

/// A set of players as a bitmask (bit i = seat index i): a wolf set, the
/// living players, the players known to be wolves...
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct PlayerSet(pub u64);

impl PlayerSet {
    /// The empty set.
    pub const EMPTY: PlayerSet = PlayerSet(0);

    /// Whether `player` is in the set.
    pub const fn contains(self, player: Player) -> bool {
        self.0 & player.bit() != 0
    }

    /// The set with `player` added.
    #[must_use]
    pub const fn with(self, player: Player) -> PlayerSet {
        PlayerSet(self.0 | player.bit())
    }

    /// The set with `player` removed.
    #[must_use]
    pub const fn without(self, player: Player) -> PlayerSet {
        PlayerSet(self.0 & !player.bit())
    }

    /// Number of players in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The players in the set, in seat order.
    pub fn players(self) -> impl Iterator<Item = Player> {
        (0..64u8).filter(move |i| self.0 >> i & 1 == 1).map(Player)
    }
}

/// Relative weights a voter of each side gives to each living target, by the
/// target's side. A voter's probability of voting for target k is its weight
/// on k's side divided by the sum of its weights over every living player
/// other than itself, so each side's vote distribution sums to 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VoteWeights {
    /// Weight a wolf gives to each living village-side target.
    pub wolf_votes_village: f64,
    /// Weight a wolf gives to each living fellow wolf.
    pub wolf_votes_wolf: f64,
    /// Weight a village-side voter gives to each living village-side target.
    pub village_votes_village: f64,
    /// Weight a village-side voter gives to each living wolf.
    pub village_votes_wolf: f64,
}

impl VoteWeights {
    /// The weight a voter of side `voter` gives to a target of side `target`.
    pub const fn weight(&self, voter: Side, target: Side) -> f64 {
        match (voter, target) {
            (Side::Wolf, Side::Village) => self.wolf_votes_village,
            (Side::Wolf, Side::Wolf) => self.wolf_votes_wolf,
            (Side::Village, Side::Village) => self.village_votes_village,
            (Side::Village, Side::Wolf) => self.village_votes_wolf,
        }
    }
}

/// The generative evidence model. Defaults follow the published numbers
/// made proper: a wolf weighs each village-side target 0.75 and each fellow
/// wolf 0.10 (7.5 : 1), a village-side voter weighs every target 0.60 (the
/// published "0.60 spread over the others", i.e. uniformly at random), and
/// the seer is trusted.
///
/// Other evidence needs no parameters: wolves kill a living village-side
/// player uniformly at random; a revealed role is a hard fact; a behaviour
/// score `s` is a likelihood ratio `P(observed | wolf) / P(observed | not
/// wolf) = e^s`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvidenceModel {
    /// Vote weights by voter side and target side.
    pub votes: VoteWeights,
    /// Probability that a seer check reports the true side, in [0.5, 1].
    /// At 1 the seer is trusted and a check is a hard fact.
    pub seer_accuracy: f64,
}

impl Default for EvidenceModel {
    fn default() -> Self {
        EvidenceModel {
            votes: VoteWeights {
                wolf_votes_village: 0.75,
                wolf_votes_wolf: 0.10,
                village_votes_village: 0.60,
                village_votes_wolf: 0.60,
            },
            seer_accuracy: 1.0,
        }
    }
}

impl EvidenceModel {
    /// Check the parameters.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a vote weight that is not a positive finite
    /// number or a seer accuracy outside [0.5, 1].
    pub fn validate(&self) -> Result<()> {
        let weights = [
            ("wolf_votes_village", self.votes.wolf_votes_village),
            ("wolf_votes_wolf", self.votes.wolf_votes_wolf),
            ("village_votes_village", self.votes.village_votes_village),
            ("village_votes_wolf", self.votes.village_votes_wolf),
        ];
        for (name, weight) in weights {
            if !(weight.is_finite() && weight > 0.0) {
                return Err(Error::OutOfRange {
                    what: crate::Argument::VoteWeight,
                    detail: format!("{name} = {weight}, must be positive and finite"),
                });
            }
        }
        if !(0.5..=1.0).contains(&self.seer_accuracy) {
            return Err(Error::OutOfRange {
                what: crate::Argument::SeerAccuracy,
                detail: format!("{}, allowed 0.5..=1", self.seer_accuracy),
            });
        }
        Ok(())
    }

    /// Whether a seer check is a hard fact.
    pub fn seer_trusted(&self) -> bool {
        self.seer_accuracy == 1.0
    }
}

/// One thing that happened, in game order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event {
    /// The wolves killed `victim` at night (a living village-side player).
    NightKill {
        /// The player killed.
        victim: Player,
    },
    /// The seer checked `target` and learned `result`.
    SeerCheck {
        /// The player checked (alive).
        target: Player,
        /// The reported side.
        result: Side,
    },
    /// A day vote from `voter` to `target`, both alive.
    Vote {
        /// Who voted.
        voter: Player,
        /// For whom.
        target: Player,
    },
    /// `player` was voted out; `revealed` is the role shown on death, if any.
    Eliminated {
        /// The player voted out.
        player: Player,
        /// The side revealed on death (common rules reveal it).
        revealed: Option<Side>,
    },
    /// `player`'s side became known without a death (a role reveal, or the
    /// viewer's own knowledge).
    Revealed {
        /// The player.
        player: Player,
        /// Their side.
        side: Side,
    },
    /// A behaviour score for `player`: likelihood ratio `e^score` in favour
    /// of wolf.
    Behaviour {
        /// The player observed.
        player: Player,
        /// Log likelihood ratio, wolf over not wolf.
        score: f64,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::NightKill { victim } => write!(f, "night kill of {victim}"),
            Event::SeerCheck { target, result } => {
                write!(f, "seer check: {target} is {result}")
            }
            Event::Vote { voter, target } => {
                write!(f, "vote {} -> {}", voter.number(), target.number())
            }
            Event::Eliminated { player, revealed } => match revealed {
                Some(side) => write!(f, "{player} voted out, revealed {side}"),
                None => write!(f, "{player} voted out, role not revealed"),
            },
            Event::Revealed { player, side } => write!(f, "{player} revealed as {side}"),
            Event::Behaviour { player, score } => {
                write!(f, "behaviour score {score} for {player}")
            }
        }
    }
}

/// An event together with the living players just before it happened (the
/// possible vote targets, the possible night-kill victims).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TimedEvent {
    pub(crate) event: Event,
    pub(crate) living: PlayerSet,
}

/// A validated game: the setup, the evidence model, an optional viewer (a
/// player who knows they are on the village side and is never a vote
/// candidate) and the events so far, each checked on entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    setup: Setup,
    model: EvidenceModel,
    viewer: Option<Player>,
    events: Vec<TimedEvent>,
    living: PlayerSet,
    known_wolves: PlayerSet,
    known_village: PlayerSet,
}

impl Game {
    /// A game before any event. The viewer, if any, is known to be on the
    /// village side.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for invalid model parameters.
    pub fn new(setup: Setup, model: EvidenceModel, viewer: Option<Player>) -> Result<Game> {
        model.validate()?;
        let mut game = Game {
            setup,
            model,
            viewer,
            events: Vec::new(),
            living: setup.everyone(),
            known_wolves: PlayerSet::EMPTY,
            known_village: PlayerSet::EMPTY,
        };
        if let Some(viewer) = viewer {
            game.check_player(viewer, crate::Argument::Viewer)?;
            game.known_village = game.known_village.with(viewer);
        }
        Ok(game)
    }

    /// The setup.
    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// The evidence model.
    pub fn model(&self) -> &EvidenceModel {
        &self.model
    }

    /// The viewer, if any.
    pub fn viewer(&self) -> Option<Player> {
        self.viewer
    }

    /// The players alive now.
    pub fn living(&self) -> PlayerSet {
        self.living
    }

    /// Players known (by a hard fact) to be wolves.
    pub fn known_wolves(&self) -> PlayerSet {
        self.known_wolves
    }

    /// Players known (by a hard fact) to be on the village side.
    pub fn known_village(&self) -> PlayerSet {
        self.known_village
    }

    /// The events so far, in order.
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.events.iter().map(|timed| &timed.event)
    }

    pub(crate) fn timed_events(&self) -> &[TimedEvent] {
        &self.events
    }

    /// Append `event` after checking it against the game so far.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a player not at the table or a behaviour
    /// score that is not finite; [`Error::AtEvent`] naming the event (its
    /// index and content) when it involves a dead player,
    /// a self-vote, or contradicts the hard facts known so far (a player
    /// both wolf and village, more wolves or village-side players than the
    /// setup has). On error the game is left unchanged.
    pub fn push(&mut self, event: Event) -> Result<()> {
        // Validate on a copy of everything but the events (which a long
        // log would copy once per event), then append.
        let index = self.events.len();
        let events = std::mem::take(&mut self.events);
        let mut next = self.clone();
        self.events = events;
        next.apply(event).map_err(|error| match error {
            Error::Inconsistent(_) => error.at_event(index, Some(event.to_string())),
            other => other,
        })?;
        let mut events = std::mem::take(&mut self.events);
        events.append(&mut next.events);
        next.events = events;
        *self = next;
        Ok(())
    }

    fn apply(&mut self, event: Event) -> Result<()> {
        let living = self.living;
        match event {
            Event::NightKill { victim } => {
                self.check_alive(victim)?;
                self.learn(victim, Side::Village)?;
                self.living = self.living.without(victim);
            }
            Event::SeerCheck { target, result } => {
                self.check_alive(target)?;
                if self.model.seer_trusted() {
                    self.learn(target, result)?;
                }
            }
            Event::Vote { voter, target } => {
                self.check_alive(voter)?;
                self.check_alive(target)?;
                if voter == target {
                    return Err(Error::Inconsistent(format!("{voter} votes for themselves")));
                }
            }
            Event::Eliminated { player, revealed } => {
                self.check_alive(player)?;
                if let Some(side) = revealed {
                    self.learn(player, side)?;
                }
                self.living = self.living.without(player);
            }
            Event::Revealed { player, side } => {
                self.check_player(player, crate::Argument::Player)?;
                self.learn(player, side)?;
            }
            Event::Behaviour { player, score } => {
                self.check_alive(player)?;
                if !score.is_finite() {
                    return Err(Error::OutOfRange {
                        what: crate::Argument::BehaviourScore,
                        detail: format!("{score} for {player}, must be finite"),
                    });
                }
            }
        }
        self.events.push(TimedEvent { event, living });
        Ok(())
    }

    fn check_player(&self, player: Player, what: crate::Argument) -> Result<()> {
        if player.number() > self.setup.players {
            return Err(Error::OutOfRange {
                what,
                detail: format!("{}, allowed 1..={}", player.number(), self.setup.players),
            });
        }
        Ok(())
    }

    fn check_alive(&self, player: Player) -> Result<()> {
        self.check_player(player, crate::Argument::Player)?;
        if !self.living.contains(player) {
            return Err(Error::Inconsistent(format!("{player} is already dead")));
        }
        Ok(())
    }

    /// Record the hard fact that `player` is on `side`.
    fn learn(&mut self, player: Player, side: Side) -> Result<()> {
        let (same, other) = match side {
            Side::Wolf => (&mut self.known_wolves, self.known_village),
            Side::Village => (&mut self.known_village, self.known_wolves),
        };
        if other.contains(player) {
            let known = match side {
                Side::Wolf => Side::Village,
                Side::Village => Side::Wolf,
            };
            return Err(Error::Inconsistent(format!(
                "{player} is already known to be {known}"
            )));
        }
        *same = same.with(player);
        let wolves = self.setup.wolves;
        let village = self.setup.players - wolves;
        if self.known_wolves.len() > wolves {
            return Err(Error::Inconsistent(format!(
                "{} players known to be wolves, the game has only {wolves}",
                self.known_wolves.len()
            )));
        }
        if self.known_village.len() > village {
            return Err(Error::Inconsistent(format!(
                "{} players known to be on the village side, the game has only {village}",
                self.known_village.len()
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;

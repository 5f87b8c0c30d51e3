//! The one error type of every query ([`Error`]) and the inputs a query
//! takes ([`Parameter`]).
//!
//! A query refuses its input in one of five ways, and each way is a
//! variant, so that every caller decides what to do from data, never from
//! the message: the server's HTTP status (400, 404, 422, 503, 500), the
//! command line's exit code, the Python package's exception class. An
//! [`Error::Invalid`] names the [`Parameter`] at fault as an enum; its
//! name in a query string, a flag or a keyword argument is
//! [`Parameter::name`] / [`Parameter::flag`], one spelling per input
//! everywhere.
//!
//! The engines' own refusals (`gametab_games::Error`) and the tables'
//! (`gametab_lookup::Error`) come in through [`Error::from_games`] and
//! [`Error::from_lookup`], which take the query's own reading of the
//! engine's [`Argument`] (the engine says "my dice", the query knows that
//! is its `hand`), so the messages stay the engines' words.

use gametab_games::budget::Exceeded;
use gametab_games::Argument;

/// An input of a query. Its [`name`](Parameter::name) is the same in the
/// HTTP query string, the Python package's keyword arguments and (with
/// dashes, [`flag`](Parameter::flag)) on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Parameter {
    /// Murder Plan: turns left (`days`).
    Days,
    /// Murder Plan: the horizon of a win rate (`horizon`).
    Horizon,
    /// Murder Plan: whose strategy or moves (`side`).
    Side,
    /// Murder Plan: the uniform number a sample is drawn from (`u`).
    U,
    /// Murder Plan: the brain's offset (`brain`).
    Brain,
    /// Murder Plan: the killer's offset (`killer`).
    Killer,
    /// Murder Plan: the killer's intrigue (`killer_intrigue`).
    KillerIntrigue,
    /// Murder Plan: the key person's intrigue (`key_person_intrigue`).
    KeyPersonIntrigue,
    /// Murder Plan: whether the diagonal card is left (`diagonal_left`).
    DiagonalLeft,
    /// Murder Plan: whether the intrigue+2 card is left (`intrigue2_left`).
    Intrigue2Left,
    /// Murder Plan: forbid-movement uses left (`forbid_movement_left`).
    ForbidMovementLeft,
    /// Liar's Dice: players at the table (`players`).
    Players,
    /// Liar's Dice: the standing bid (`bid`).
    Bid,
    /// Liar's Dice: my dice, or the endgame mover's (`hand`).
    Hand,
    /// Liar's Dice: the bidder's reliability (`rel`).
    Rel,
    /// Liar's Dice: ones are wild (`wild`).
    Wild,
    /// Liar's Dice: all dice on the table (`total_dice`).
    TotalDice,
    /// Liar's Dice: the bidder's dice (`bidder_dice`).
    BidderDice,
    /// Liar's Dice endgame: the two players' dice (`dice`).
    Dice,
    /// Liar's Dice endgame: sides of every die (`sides`).
    Sides,
    /// Liar's Dice endgame: the bids so far (`history`).
    History,
    /// Cluedo: how deals are weighted (`model`).
    Model,
    /// Cluedo advice: the room I am in (`room`).
    Room,
    /// Cluedo advice: how many suggestions to list (`top`).
    Top,
    /// Werewolf: how vote candidates are scored (`rule`).
    Rule,
    /// Cluedo and Werewolf: the game log (`log`; the body of a POST).
    Log,
}

impl Parameter {
    /// The input's name: the HTTP query parameter, the Python keyword.
    pub const fn name(self) -> &'static str {
        match self {
            Parameter::Days => "days",
            Parameter::Horizon => "horizon",
            Parameter::Side => "side",
            Parameter::U => "u",
            Parameter::Brain => "brain",
            Parameter::Killer => "killer",
            Parameter::KillerIntrigue => "killer_intrigue",
            Parameter::KeyPersonIntrigue => "key_person_intrigue",
            Parameter::DiagonalLeft => "diagonal_left",
            Parameter::Intrigue2Left => "intrigue2_left",
            Parameter::ForbidMovementLeft => "forbid_movement_left",
            Parameter::Players => "players",
            Parameter::Bid => "bid",
            Parameter::Hand => "hand",
            Parameter::Rel => "rel",
            Parameter::Wild => "wild",
            Parameter::TotalDice => "total_dice",
            Parameter::BidderDice => "bidder_dice",
            Parameter::Dice => "dice",
            Parameter::Sides => "sides",
            Parameter::History => "history",
            Parameter::Model => "model",
            Parameter::Room => "room",
            Parameter::Top => "top",
            Parameter::Rule => "rule",
            Parameter::Log => "log",
        }
    }

    /// The parameter a query reads an engine's or a table's [`Argument`]
    /// as, by default (a query that knows better maps it itself: a bid
    /// inside an endgame's history is the `history`).
    pub const fn of_argument(argument: Argument) -> Option<Parameter> {
        Some(match argument {
            Argument::DaysLeft => Parameter::Days,
            Argument::U => Parameter::U,
            Argument::ForbidMovementLeft => Parameter::ForbidMovementLeft,
            Argument::Bid | Argument::BidCount | Argument::Face | Argument::FaceClass => {
                Parameter::Bid
            }
            Argument::MyDice | Argument::Hand => Parameter::Hand,
            Argument::BiddersDice => Parameter::BidderDice,
            Argument::TotalDice => Parameter::TotalDice,
            Argument::Players => Parameter::Players,
            Argument::Reliability => Parameter::Rel,
            Argument::History => Parameter::History,
            Argument::Sides => Parameter::Sides,
            Argument::PlayerOnesDice | Argument::PlayerTwosDice | Argument::Endgame => {
                Parameter::Dice
            }
            Argument::Model => Parameter::Model,
            Argument::Room => Parameter::Room,
            _ => return None,
        })
    }

    /// The command line's flag for it: `--` and the name with dashes
    /// (`--total-dice`).
    pub fn flag(self) -> String {
        format!("--{}", self.name().replace('_', "-"))
    }
}

impl std::fmt::Display for Parameter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a query has no answer. The message is for a person; the variant
/// and its fields are for a program.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An input that does not parse or is outside its range (HTTP 400).
    #[error("{message}")]
    Invalid {
        /// The input at fault.
        parameter: Parameter,
        /// What is wrong with it.
        message: String,
    },
    /// A well-formed query whose answer the table set does not hold: a
    /// state outside the tables, an endgame the build did not solve
    /// (HTTP 404).
    #[error("{message}")]
    NotInTables {
        /// What was looked for, and where it would be.
        message: String,
    },
    /// A game log (or another input) the rules or an engine refuse as a
    /// whole: contradictory facts, an event the rules forbid, a game too
    /// large (HTTP 422).
    #[error("{message}")]
    Refused {
        /// The 0-based index of the log event at fault, when one is.
        event: Option<usize>,
        /// Why.
        message: String,
    },
    /// The engine stopped because its budget ran out or was cancelled;
    /// the input may be fine (HTTP 503).
    #[error("the engine stopped: {0}")]
    Budget(Exceeded),
    /// The table set is missing, or a table in it does not load.
    #[error("{message}")]
    Tables {
        /// What is missing or unreadable, and how to fix it.
        message: String,
    },
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The message of an error and its sources, `: `-joined, `outer: inner:
/// root` (how a refusal with a cause reads in one line, and how the
/// command line, the server and the Python package print any error of the
/// workspace's typed errors, whose `{:#}` is their own message alone).
pub fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

impl Error {
    /// An [`Error::Invalid`] about `parameter`.
    pub fn invalid(parameter: Parameter, message: impl Into<String>) -> Error {
        Error::Invalid {
            parameter,
            message: message.into(),
        }
    }

    /// The parameter at fault, for an [`Error::Invalid`].
    pub fn parameter(&self) -> Option<Parameter> {
        match self {
            Error::Invalid { parameter, .. } => Some(*parameter),
            _ => None,
        }
    }

    /// The same error with `context: ` before its message (the variant,
    /// parameter and event kept).
    #[must_use]
    pub fn context(self, context: impl std::fmt::Display) -> Error {
        let prefix = |message: String| format!("{context}: {message}");
        match self {
            Error::Invalid { parameter, message } => Error::Invalid {
                parameter,
                message: prefix(message),
            },
            Error::NotInTables { message } => Error::NotInTables {
                message: prefix(message),
            },
            Error::Refused { event, message } => Error::Refused {
                event,
                message: prefix(message),
            },
            Error::Tables { message } => Error::Tables {
                message: prefix(message),
            },
            budget @ Error::Budget(_) => budget,
        }
    }

    /// An engine's refusal of a query's input: an argument out of range is
    /// an [`Error::Invalid`] about the parameter `parameter_of` reads it as
    /// (`None`: the input as a whole, [`Error::Refused`]); a contradiction
    /// or an event the rules forbid is refused; a spent budget is
    /// [`Error::Budget`].
    pub fn from_games(
        error: gametab_games::Error,
        parameter_of: impl Fn(Argument) -> Option<Parameter>,
    ) -> Error {
        let message = error.to_string();
        match error {
            gametab_games::Error::OutOfRange { what, .. } => match parameter_of(what) {
                Some(parameter) => Error::Invalid { parameter, message },
                None => Error::Refused {
                    event: None,
                    message,
                },
            },
            gametab_games::Error::Budget(exceeded) => Error::Budget(exceeded),
            gametab_games::Error::AtEvent { index, .. } => Error::Refused {
                event: Some(index),
                message,
            },
            gametab_games::Error::Inconsistent(_) => Error::Refused {
                event: None,
                message,
            },
        }
    }

    /// A game log's refusal by the rules or an engine: everything but a
    /// spent budget is [`Error::Refused`], with its event when known.
    pub fn from_log(error: gametab_games::Error) -> Error {
        Error::from_games(error, |_| None)
    }

    /// A Cluedo log's refusal, which names the entry at fault in its
    /// message (`suggestions[3]: ...`).
    pub fn from_cluedo_log(error: gametab_games::cluedo::LogError) -> Error {
        match error.error {
            gametab_games::Error::Budget(exceeded) => Error::Budget(exceeded),
            _ => Error::Refused {
                event: None,
                message: error.to_string(),
            },
        }
    }

    /// The tables' refusal of a query: a key outside their range is an
    /// [`Error::Invalid`] about the parameter `parameter_of` reads it as,
    /// a key they do not hold [`Error::NotInTables`], a table that does
    /// not load [`Error::Tables`].
    pub fn from_lookup(
        error: gametab_lookup::Error,
        parameter_of: impl Fn(Argument) -> Option<Parameter>,
    ) -> Error {
        let message = chain(&error);
        match error {
            gametab_lookup::Error::OutOfRange { what, .. } => match parameter_of(what) {
                Some(parameter) => Error::Invalid { parameter, message },
                None => Error::Refused {
                    event: None,
                    message,
                },
            },
            gametab_lookup::Error::NotInTable { .. } => Error::NotInTables { message },
            gametab_lookup::Error::Budget(exceeded) => Error::Budget(exceeded),
            gametab_lookup::Error::Inconsistent(_) => Error::Refused {
                event: None,
                message,
            },
            _ => Error::Tables { message },
        }
    }
}

impl From<gametab_games::Error> for Error {
    /// [`Error::from_games`] with [`Parameter::of_argument`].
    fn from(error: gametab_games::Error) -> Error {
        Error::from_games(error, Parameter::of_argument)
    }
}

impl From<gametab_lookup::Error> for Error {
    /// [`Error::from_lookup`] with [`Parameter::of_argument`].
    fn from(error: gametab_lookup::Error) -> Error {
        Error::from_lookup(error, Parameter::of_argument)
    }
}

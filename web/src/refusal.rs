//! [`Refusal`]: what every fallible function of the module returns as its
//! error, and JavaScript receives as the thrown value: a kind a program
//! can branch on and a message a person can act on. The typed wrapper
//! (`web/ts/errors.ts`) turns it into a `MurderPlanError` with the same
//! kind and message.
//!
//! The kinds are the ones the wrapper documents; the wrapper adds its own
//! (`network`, `http`, `wasm`, `aborted`, `freed`) for what happens
//! outside the module.

use wasm_bindgen::prelude::*;

/// What went wrong, in a form a program can branch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A query argument outside its range or not of its kind.
    Argument,
    /// A move the rules forbid (a limited card spent, a target out of the
    /// brain's area, a turn after the game is won).
    Illegal,
    /// A well-formed query whose answer the bundle does not hold (a state
    /// no game from the 16 starts reaches).
    NotHeld,
    /// Bytes that are not a readable bundle: not gzip nor a bundle's
    /// content, truncated, corrupted, or breaking the rules.
    Bundle,
    /// A bundle of another format version.
    Version,
}

impl Kind {
    /// The kind's name, as `MurderPlanError.kind` carries it.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Argument => "argument",
            Kind::Illegal => "illegal",
            Kind::NotHeld => "not-held",
            Kind::Bundle => "bundle",
            Kind::Version => "version",
        }
    }
}

/// A refusal of the module: its kind and its message.
#[wasm_bindgen]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    kind: Kind,
    message: String,
}

impl Refusal {
    /// A refusal of a kind.
    pub fn new(kind: Kind, message: impl Into<String>) -> Refusal {
        Refusal {
            kind,
            message: message.into(),
        }
    }

    /// A query argument that is not valid.
    pub fn argument(message: impl Into<String>) -> Refusal {
        Refusal::new(Kind::Argument, message)
    }

    /// A move the rules forbid.
    pub fn illegal(message: impl Into<String>) -> Refusal {
        Refusal::new(Kind::Illegal, message)
    }

    /// The kind (host side).
    pub fn kind_of(&self) -> Kind {
        self.kind
    }
}

#[wasm_bindgen]
impl Refusal {
    /// The kind's name: `argument`, `illegal`, `not-held`, `bundle` or
    /// `version`.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        self.kind.label().to_string()
    }

    /// What is wrong, and how to put it right where the caller can.
    #[wasm_bindgen(getter)]
    pub fn message(&self) -> String {
        self.message.clone()
    }
}

impl From<gametab_lookup::Error> for Refusal {
    fn from(error: gametab_lookup::Error) -> Refusal {
        use gametab_lookup::Error;
        let kind = match &error {
            Error::OutOfRange { .. } | Error::Inconsistent(_) => Kind::Argument,
            Error::NotInTable { .. } => Kind::NotHeld,
            Error::SchemaVersion { .. } => Kind::Version,
            _ => Kind::Bundle,
        };
        Refusal::new(kind, error.to_string())
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind.label(), self.message)
    }
}

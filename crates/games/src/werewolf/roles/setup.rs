//! The roles of the rules seed and a setup that counts them (the model's
//! parameters are in `model.rs`).
//!
//! Every role other than wolf and villager appears at most once (the rules
//! seed has one seer, one witch, one hunter, one guard, one cupid); plain
//! villagers fill the seats left over and are interchangeable, which is
//! what keeps the enumeration in `posterior.rs` small.

use std::fmt;

use crate::error::{Error, Result};

use super::super::model::{Setup, Side};

/// A role card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// A wolf (the wolf side).
    Wolf,
    /// A plain villager (no ability).
    Villager,
    /// Learns one player's identity (role card) each night.
    Seer,
    /// Two potions, each once per game, at most one per night.
    Witch,
    /// Shoots one living player when killed by the wolves or by the vote.
    Hunter,
    /// Protects one player from the wolves each night.
    Guard,
    /// Names two lovers on the first night.
    Cupid,
}

impl Role {
    /// Every role, in output order (also the index order of [`Role::index`]).
    pub const ALL: [Role; 7] = [
        Role::Wolf,
        Role::Villager,
        Role::Seer,
        Role::Witch,
        Role::Hunter,
        Role::Guard,
        Role::Cupid,
    ];

    /// The roles a setup holds at most once, in enumeration order: the
    /// night roles (witch, guard, hunter) first, so that the night
    /// likelihood is computed once per placement of those three.
    pub const SPECIAL: [Role; 5] = [
        Role::Witch,
        Role::Guard,
        Role::Hunter,
        Role::Seer,
        Role::Cupid,
    ];

    /// Lowercase name, as in the game log.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Wolf => "wolf",
            Role::Villager => "villager",
            Role::Seer => "seer",
            Role::Witch => "witch",
            Role::Hunter => "hunter",
            Role::Guard => "guard",
            Role::Cupid => "cupid",
        }
    }

    /// Position in [`Role::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side the role plays for.
    pub const fn side(self) -> Side {
        match self {
            Role::Wolf => Side::Wolf,
            _ => Side::Village,
        }
    }

    pub(crate) const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of roles a player may still hold (bit `Role::index`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RoleSet(pub(crate) u8);

impl RoleSet {
    /// Every role.
    pub const ANY: RoleSet = RoleSet(0x7f);

    /// Only `role`.
    pub const fn only(role: Role) -> RoleSet {
        RoleSet(role.bit())
    }

    /// Every role of `side`.
    pub const fn of_side(side: Side) -> RoleSet {
        match side {
            Side::Wolf => RoleSet(Role::Wolf.bit()),
            Side::Village => RoleSet(0x7f & !Role::Wolf.bit()),
        }
    }

    /// Whether `role` is in the set.
    pub const fn contains(self, role: Role) -> bool {
        self.0 & role.bit() != 0
    }

    /// The roles in both sets.
    #[must_use]
    pub const fn and(self, other: RoleSet) -> RoleSet {
        RoleSet(self.0 & other.0)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The roles in the set, in [`Role::ALL`] order.
    pub fn roles(self) -> impl Iterator<Item = Role> {
        Role::ALL.into_iter().filter(move |r| self.contains(*r))
    }
}

impl fmt::Display for RoleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.roles().map(Role::name).collect();
        f.write_str(&names.join(" or "))
    }
}

/// How many players hold each role. Wolves any number (fewer than the
/// players), every special role 0 or 1, villagers the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RoleSetup {
    sides: Setup,
    /// Count (0 or 1) of each role of [`Role::SPECIAL`], by [`Role::index`].
    special: [bool; 7],
}

impl RoleSetup {
    /// A table of `players` with `wolves` wolves and the special roles
    /// `specials` (each at most once); villagers fill the rest.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bad player or wolf count, a wolf or
    /// villager named as special, a special role named twice, or more roles
    /// than seats.
    pub fn new(players: u32, wolves: u32, specials: &[Role]) -> Result<RoleSetup> {
        // The side-only setup holds the player and wolf bounds.
        let sides = Setup::new(players, wolves)?;
        let mut special = [false; 7];
        for &role in specials {
            if !Role::SPECIAL.contains(&role) {
                return Err(Error::OutOfRange {
                    what: crate::Argument::SpecialRole,
                    detail: format!("{role} is counted by the setup itself, not as special"),
                });
            }
            if special[role.index()] {
                return Err(Error::OutOfRange {
                    what: crate::Argument::RoleCount,
                    detail: format!("{role} named twice; the rules seed has at most one"),
                });
            }
            special[role.index()] = true;
        }
        let setup = RoleSetup { sides, special };
        if wolves + setup.special_count() > players {
            return Err(Error::OutOfRange {
                what: crate::Argument::Roles,
                detail: format!(
                    "{wolves} wolves and {} special roles do not fit {players} players",
                    setup.special_count()
                ),
            });
        }
        Ok(setup)
    }

    /// Number of players.
    pub const fn players(&self) -> u32 {
        self.sides.players()
    }

    /// Number of wolves.
    pub const fn wolves(&self) -> u32 {
        self.sides.wolves()
    }

    /// Whether the setup holds `role` (wolves and villagers: when counted
    /// at least once).
    pub fn has(&self, role: Role) -> bool {
        self.count(role) > 0
    }

    /// How many players hold `role`.
    pub fn count(&self, role: Role) -> u32 {
        match role {
            Role::Wolf => self.wolves(),
            Role::Villager => self.players() - self.wolves() - self.special_count(),
            other => u32::from(self.special[other.index()]),
        }
    }

    /// The special roles present, in [`Role::SPECIAL`] order.
    pub fn specials(&self) -> Vec<Role> {
        Role::SPECIAL
            .into_iter()
            .filter(|r| self.special[r.index()])
            .collect()
    }

    fn special_count(&self) -> u32 {
        self.special.iter().filter(|&&b| b).count() as u32
    }

    /// The side-only setup (players and wolves).
    pub const fn sides(&self) -> Setup {
        self.sides
    }

    /// The village-side cards other than the seer's own: what a seer's
    /// check can name on the village side (a seer never sees a second
    /// seer), and the cards a false seer or a mistaken vision draws from.
    pub fn reportable_village_cards(&self) -> u32 {
        self.players() - self.wolves() - self.count(Role::Seer)
    }

    /// The chance that a card drawn uniformly from
    /// [`reportable_village_cards`](Self::reportable_village_cards) is
    /// `role` (0 for wolf, the seer, or an empty pool).
    pub fn village_card_share(&self, role: Role) -> f64 {
        let pool = self.reportable_village_cards();
        if pool == 0 || matches!(role, Role::Wolf | Role::Seer) {
            return 0.0;
        }
        f64::from(self.count(role)) / f64::from(pool)
    }
}

/// What eliminating a player shows the table, for the vote ranking's
/// information gain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RevealRule {
    /// The card is shown: the role becomes known.
    Role,
    /// Only the side is announced.
    Side,
}

impl RevealRule {
    /// Lowercase name, as in the log.
    pub const fn name(self) -> &'static str {
        match self {
            RevealRule::Role => "role",
            RevealRule::Side => "side",
        }
    }
}

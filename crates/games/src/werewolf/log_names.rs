//! The names a log spells ([`super::log`]): sides, roles, seer checks and
//! reveal rules as the JSON writes them, with their conversions to the
//! model's types, and the special roles of a role log ([`RolesLog`]),
//! read from counts or from a list of names.

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

use super::model::Side;
use super::roles::{Known, RevealRule, Role};

/// A side as written in a log: `"wolf"` or `"village"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideName {
    /// A wolf.
    Wolf,
    /// The village side.
    Village,
}

impl From<SideName> for Side {
    fn from(side: SideName) -> Side {
        match side {
            SideName::Wolf => Side::Wolf,
            SideName::Village => Side::Village,
        }
    }
}

impl From<Side> for SideName {
    fn from(side: Side) -> SideName {
        match side {
            Side::Wolf => SideName::Wolf,
            Side::Village => SideName::Village,
        }
    }
}

/// A role as written in a log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum RoleName {
    Wolf,
    Villager,
    Seer,
    Witch,
    Hunter,
    Guard,
    Cupid,
}

impl From<RoleName> for Role {
    fn from(role: RoleName) -> Role {
        match role {
            RoleName::Wolf => Role::Wolf,
            RoleName::Villager => Role::Villager,
            RoleName::Seer => Role::Seer,
            RoleName::Witch => Role::Witch,
            RoleName::Hunter => Role::Hunter,
            RoleName::Guard => Role::Guard,
            RoleName::Cupid => Role::Cupid,
        }
    }
}

/// A check's result as written in a log: a side (`"wolf"`, `"village"`)
/// or, in role logs, a village-side card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum CheckName {
    Wolf,
    Village,
    Villager,
    Seer,
    Witch,
    Hunter,
    Guard,
    Cupid,
}

impl CheckName {
    /// What the check says.
    pub fn known(self) -> Known {
        match self {
            CheckName::Wolf => Known::Side(Side::Wolf),
            CheckName::Village => Known::Side(Side::Village),
            CheckName::Villager => Known::Role(Role::Villager),
            CheckName::Seer => Known::Role(Role::Seer),
            CheckName::Witch => Known::Role(Role::Witch),
            CheckName::Hunter => Known::Role(Role::Hunter),
            CheckName::Guard => Known::Role(Role::Guard),
            CheckName::Cupid => Known::Role(Role::Cupid),
        }
    }

    /// The side, when the check is written as one.
    pub fn side(self) -> Option<Side> {
        match self.known() {
            Known::Side(side) => Some(side),
            Known::Role(_) => None,
        }
    }
}

impl From<SideName> for CheckName {
    fn from(side: SideName) -> CheckName {
        match side {
            SideName::Wolf => CheckName::Wolf,
            SideName::Village => CheckName::Village,
        }
    }
}

/// What an elimination shows, as written in a log: `"role"` or `"side"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum RevealName {
    Role,
    Side,
}

impl From<RevealName> for RevealRule {
    fn from(reveal: RevealName) -> RevealRule {
        match reveal {
            RevealName::Role => RevealRule::Role,
            RevealName::Side => RevealRule::Side,
        }
    }
}

/// The special roles of a role log, each counted 0 or 1 (missing: 0).
/// Written as counts (`{"seer": 1, "witch": 1}`); read from counts or from
/// a list of names (`["seer", "witch"]`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[allow(missing_docs)]
pub struct RolesLog {
    pub seer: u32,
    pub witch: u32,
    pub hunter: u32,
    pub guard: u32,
    pub cupid: u32,
}

/// The names of the special roles, as `roles` spells them.
const SPECIAL_NAMES: &[&str] = &["seer", "witch", "hunter", "guard", "cupid"];

impl RolesLog {
    /// The count of the special role named `name`.
    fn count_of(&mut self, name: &str) -> Option<&mut u32> {
        match name {
            "seer" => Some(&mut self.seer),
            "witch" => Some(&mut self.witch),
            "hunter" => Some(&mut self.hunter),
            "guard" => Some(&mut self.guard),
            "cupid" => Some(&mut self.cupid),
            _ => None,
        }
    }
}

/// What is wrong with a name in `roles`.
fn not_special<E: de::Error>(name: &str) -> E {
    if name == "wolf" || name == "villager" {
        E::custom(format!(
            "roles: {name:?} is counted by `wolves` and `players`, not in `roles` (special \
             roles: {})",
            SPECIAL_NAMES.join(", ")
        ))
    } else {
        E::custom(format!(
            "roles: {name:?} is no special role (special roles: {}){}",
            SPECIAL_NAMES.join(", "),
            crate::suggest::did_you_mean(name, SPECIAL_NAMES.iter().copied())
        ))
    }
}

/// A role's count in `roles`: a number, or `true` / `false`.
struct Count(u32);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Count, D::Error> {
        struct CountVisitor;
        impl Visitor<'_> for CountVisitor {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a count of the role (0 or 1)")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Count, E> {
                u32::try_from(n)
                    .map(Count)
                    .map_err(|_| E::custom(format!("roles: count {n}, allowed 0 or 1")))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Count, E> {
                Err(E::custom(format!("roles: count {n}, allowed 0 or 1")))
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Count, E> {
                Ok(Count(u32::from(b)))
            }
        }
        deserializer.deserialize_any(CountVisitor)
    }
}

impl<'de> Deserialize<'de> for RolesLog {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RolesLog, D::Error> {
        struct RolesVisitor;
        impl<'de> Visitor<'de> for RolesVisitor {
            type Value = RolesLog;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "the special roles, as counts ({\"seer\": 1, \"witch\": 1}) or as a list \
                     of names ([\"seer\", \"witch\"])",
                )
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RolesLog, A::Error> {
                let mut roles = RolesLog::default();
                while let Some(name) = map.next_key::<String>()? {
                    let count = map.next_value::<Count>()?.0;
                    *roles.count_of(&name).ok_or_else(|| not_special(&name))? = count;
                }
                Ok(roles)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RolesLog, A::Error> {
                let mut roles = RolesLog::default();
                while let Some(name) = seq.next_element::<String>()? {
                    *roles.count_of(&name).ok_or_else(|| not_special(&name))? += 1;
                }
                Ok(roles)
            }
        }
        deserializer.deserialize_any(RolesVisitor)
    }
}

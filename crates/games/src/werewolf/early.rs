//! The early-game family tabulated by `gametab build`: the seer's view of
//! the first day, up to relabelling the players.
//!
//! A situation: N players, W wolves (N in 6..=12, W in 1..=4, 2W < N), the
//! default [`EvidenceModel`]. The viewer is the seer (seat 1, village side,
//! trusted), who checked seat 2 (the *checked* player) on the first night
//! and learned its side; nobody died. On the first day every player votes
//! once, for one of three players: the seer, the checked player, or one
//! other player, the *suspect* (seat 3). The seer votes the checked player
//! if it is a wolf, otherwise the suspect; the checked player votes the seer
//! or the suspect; the suspect votes the seer or the checked player; every
//! other player votes one of the three. Players casting the same vote are
//! interchangeable, so a situation is fixed by the three vote counts of the
//! other players and the two votes of the checked player and the suspect.
//!
//! Canonical seats: 1 seer, 2 checked, 3 suspect, then the other players
//! voting the seer, then those voting the checked player, then those voting
//! the suspect. The answers group the candidates by [`EarlyRole`].

use std::fmt;

use crate::error::{Error, Result};

use super::baseline::Baseline;
use super::model::{Event, EvidenceModel, Game, Player, Setup, Side};
use super::posterior::Posterior;
use super::scoring::{rank, ScoringRule};

/// The bounds of the tabulated family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EarlyFamily {
    /// Fewest players.
    pub min_players: u32,
    /// Most players.
    pub max_players: u32,
    /// Most wolves (always fewer than half the players).
    pub max_wolves: u32,
}

/// The tabulated family: N = 6..=12, W = 1..=4 with 2W < N.
pub const EARLY_FAMILY: EarlyFamily = EarlyFamily {
    min_players: 6,
    max_players: 12,
    max_wolves: 4,
};

impl EarlyFamily {
    /// Every situation of the family, in key order.
    pub fn situations(&self) -> Vec<EarlySituation> {
        let mut all = Vec::new();
        for players in self.min_players..=self.max_players {
            for wolves in (1..=self.max_wolves).filter(|w| 2 * w < players) {
                for checked_is_wolf in [false, true] {
                    let others = players - 3;
                    for votes_for_seer in 0..=others {
                        for votes_for_checked in 0..=others - votes_for_seer {
                            for checked_votes in [EarlyVote::Seer, EarlyVote::Suspect] {
                                for suspect_votes in [EarlyVote::Checked, EarlyVote::Seer] {
                                    all.push(EarlySituation {
                                        players,
                                        wolves,
                                        checked_is_wolf,
                                        votes_for_seer,
                                        votes_for_checked,
                                        votes_for_suspect: others
                                            - votes_for_seer
                                            - votes_for_checked,
                                        checked_votes,
                                        suspect_votes,
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        all
    }

    /// Whether `situation` lies in the family.
    pub fn contains(&self, situation: &EarlySituation) -> bool {
        (self.min_players..=self.max_players).contains(&situation.players)
            && situation.wolves <= self.max_wolves
            && situation.validate().is_ok()
    }
}

/// One of the three players a first-day vote can go to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EarlyVote {
    /// The seer (seat 1).
    Seer,
    /// The checked player (seat 2).
    Checked,
    /// The suspect (seat 3).
    Suspect,
}

impl EarlyVote {
    /// Lowercase name, as in the table.
    pub const fn name(self) -> &'static str {
        match self {
            EarlyVote::Seer => "seer",
            EarlyVote::Checked => "checked",
            EarlyVote::Suspect => "suspect",
        }
    }

    /// The vote called `name`.
    pub fn from_name(name: &str) -> Option<EarlyVote> {
        [EarlyVote::Seer, EarlyVote::Checked, EarlyVote::Suspect]
            .into_iter()
            .find(|v| v.name() == name)
    }

    const fn seat(self) -> u32 {
        match self {
            EarlyVote::Seer => 1,
            EarlyVote::Checked => 2,
            EarlyVote::Suspect => 3,
        }
    }
}

/// A group of interchangeable vote candidates in an early situation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EarlyRole {
    /// The checked player (seat 2).
    Checked,
    /// The suspect (seat 3).
    Suspect,
    /// The other players who voted the seer.
    SeerVoter,
    /// The other players who voted the checked player.
    CheckedVoter,
    /// The other players who voted the suspect.
    SuspectVoter,
}

impl EarlyRole {
    /// Every role, in seat order.
    pub const ALL: [EarlyRole; 5] = [
        EarlyRole::Checked,
        EarlyRole::Suspect,
        EarlyRole::SeerVoter,
        EarlyRole::CheckedVoter,
        EarlyRole::SuspectVoter,
    ];

    /// Lowercase name, as in the table.
    pub const fn name(self) -> &'static str {
        match self {
            EarlyRole::Checked => "checked",
            EarlyRole::Suspect => "suspect",
            EarlyRole::SeerVoter => "seer_voter",
            EarlyRole::CheckedVoter => "checked_voter",
            EarlyRole::SuspectVoter => "suspect_voter",
        }
    }

    /// The role called `name`.
    pub fn from_name(name: &str) -> Option<EarlyRole> {
        EarlyRole::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl fmt::Display for EarlyRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One early-game situation (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EarlySituation {
    /// Number of players.
    pub players: u32,
    /// Number of wolves.
    pub wolves: u32,
    /// The seer's result on the checked player.
    pub checked_is_wolf: bool,
    /// Other players (not seer, checked or suspect) who voted the seer.
    pub votes_for_seer: u32,
    /// Other players who voted the checked player.
    pub votes_for_checked: u32,
    /// Other players who voted the suspect.
    pub votes_for_suspect: u32,
    /// The checked player's vote: [`EarlyVote::Seer`] or [`EarlyVote::Suspect`].
    pub checked_votes: EarlyVote,
    /// The suspect's vote: [`EarlyVote::Seer`] or [`EarlyVote::Checked`].
    pub suspect_votes: EarlyVote,
}

/// The answer for one role of an early situation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EarlyRoleAnswer {
    /// The role.
    pub role: EarlyRole,
    /// How many players have it (at least 1).
    pub members: u32,
    /// The lowest canonical seat number among them.
    pub first_player: u32,
    /// Exact P(wolf) of each of them.
    pub p_wolf: f64,
    /// Information gain (bits) of eliminating one of them.
    pub information_gain: f64,
    /// Their score under [`ScoringRule::Published`].
    pub published_score: f64,
    /// P(wolf) by the published approximate method ([`Baseline`]).
    pub baseline_p_wolf: f64,
}

/// The exact answer for an early situation.
#[derive(Debug, Clone, PartialEq)]
pub struct EarlyAnswer {
    /// The situation.
    pub situation: EarlySituation,
    /// Number of wolf sets consistent with the seer's result.
    pub wolf_sets: u64,
    /// Joint entropy of the wolf set (bits).
    pub joint_entropy: f64,
    /// One entry per non-empty role, in [`EarlyRole::ALL`] order.
    pub roles: Vec<EarlyRoleAnswer>,
    /// The role of the top candidate under each rule of
    /// [`ScoringRule::ALL`], in that order.
    pub recommended: [EarlyRole; 3],
    /// The role of the published method's top candidate (published rule).
    pub baseline_recommended: EarlyRole,
}

impl EarlyAnswer {
    /// The role recommended by `rule`.
    pub fn recommended_by(&self, rule: ScoringRule) -> EarlyRole {
        match rule {
            ScoringRule::Published => self.recommended[0],
            ScoringRule::Probability => self.recommended[1],
            ScoringRule::Information => self.recommended[2],
        }
    }

    /// The answer for `role`, if any player has it.
    pub fn role(&self, role: EarlyRole) -> Option<&EarlyRoleAnswer> {
        self.roles.iter().find(|r| r.role == role)
    }
}

impl EarlySituation {
    /// Check the situation's shape (any N and W the engine can handle).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bad setup, vote counts that do not add up
    /// to N - 3, or a player voting for themselves.
    pub fn validate(&self) -> Result<()> {
        Setup::new(self.players, self.wolves)?;
        let others = self.votes_for_seer + self.votes_for_checked + self.votes_for_suspect;
        if self.players < 3 || others != self.players - 3 {
            return Err(Error::OutOfRange {
                what: crate::Argument::EarlyGameVotes,
                detail: format!(
                    "{others} votes of other players for {} players; every player but the \
                     seer, the checked player and the suspect votes once",
                    self.players
                ),
            });
        }
        if self.checked_votes == EarlyVote::Checked || self.suspect_votes == EarlyVote::Suspect {
            return Err(Error::OutOfRange {
                what: crate::Argument::EarlyGameVotes,
                detail: "a player cannot vote for themselves".to_string(),
            });
        }
        Ok(())
    }

    /// Canonical seats of each role: (role, first seat, members).
    pub fn role_seats(&self) -> Vec<(EarlyRole, u32, u32)> {
        let first_seer_voter = 4;
        let first_checked_voter = first_seer_voter + self.votes_for_seer;
        let first_suspect_voter = first_checked_voter + self.votes_for_checked;
        [
            (EarlyRole::Checked, 2, 1),
            (EarlyRole::Suspect, 3, 1),
            (EarlyRole::SeerVoter, first_seer_voter, self.votes_for_seer),
            (
                EarlyRole::CheckedVoter,
                first_checked_voter,
                self.votes_for_checked,
            ),
            (
                EarlyRole::SuspectVoter,
                first_suspect_voter,
                self.votes_for_suspect,
            ),
        ]
        .into_iter()
        .filter(|&(_, _, members)| members > 0)
        .collect()
    }

    fn role_of(&self, player: Player) -> Option<EarlyRole> {
        let seat = player.number();
        self.role_seats()
            .into_iter()
            .find(|&(_, first, members)| (first..first + members).contains(&seat))
            .map(|(role, _, _)| role)
    }

    /// The situation as a game in canonical seats, from the seer's view.
    ///
    /// # Errors
    /// As [`EarlySituation::validate`]; [`Error::Inconsistent`] when the
    /// seer's result cannot hold (a village result with every other player
    /// a wolf).
    pub fn to_game(&self) -> Result<Game> {
        self.validate()?;
        let setup = Setup::new(self.players, self.wolves)?;
        let seat = |number: u32| Player::from_number(number, setup);
        let mut game = Game::new(setup, EvidenceModel::default(), Some(seat(1)?))?;
        let result = if self.checked_is_wolf {
            Side::Wolf
        } else {
            Side::Village
        };
        game.push(Event::SeerCheck {
            target: seat(2)?,
            result,
        })?;
        let seer_votes = if self.checked_is_wolf {
            EarlyVote::Checked
        } else {
            EarlyVote::Suspect
        };
        for (voter, vote) in [
            (1, seer_votes),
            (2, self.checked_votes),
            (3, self.suspect_votes),
        ] {
            game.push(Event::Vote {
                voter: seat(voter)?,
                target: seat(vote.seat())?,
            })?;
        }
        for (role, first, members) in self.role_seats() {
            let vote = match role {
                EarlyRole::SeerVoter => EarlyVote::Seer,
                EarlyRole::CheckedVoter => EarlyVote::Checked,
                EarlyRole::SuspectVoter => EarlyVote::Suspect,
                EarlyRole::Checked | EarlyRole::Suspect => continue,
            };
            for voter in first..first + members {
                game.push(Event::Vote {
                    voter: seat(voter)?,
                    target: seat(vote.seat())?,
                })?;
            }
        }
        Ok(game)
    }

    /// Solve the situation exactly with the engine.
    ///
    /// # Errors
    /// As [`EarlySituation::to_game`] and [`Posterior::compute`].
    pub fn solve(&self) -> Result<EarlyAnswer> {
        let game = self.to_game()?;
        let posterior = Posterior::compute(&game)?;
        let baseline = Baseline::run(&game);
        let published = rank(&posterior, ScoringRule::Published, None);
        let setup = game.setup();
        let roles = self
            .role_seats()
            .into_iter()
            .map(|(role, first, members)| {
                let player = Player::from_number(first, setup)?;
                let candidate = published
                    .iter()
                    .find(|c| c.player == player)
                    .ok_or_else(|| {
                        Error::Inconsistent(format!("{player} missing from the ranking"))
                    })?;
                Ok(EarlyRoleAnswer {
                    role,
                    members,
                    first_player: first,
                    p_wolf: candidate.p_wolf,
                    information_gain: candidate.information_gain,
                    published_score: candidate.score,
                    baseline_p_wolf: baseline.p_wolf(player),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let top_role = |player: Option<Player>| {
            player.and_then(|p| self.role_of(p)).ok_or_else(|| {
                Error::Inconsistent("an early situation with no vote candidate".to_string())
            })
        };
        let mut recommended = [EarlyRole::Checked; 3];
        for (slot, rule) in recommended.iter_mut().zip(ScoringRule::ALL) {
            *slot = top_role(rank(&posterior, rule, None).first().map(|c| c.player))?;
        }
        let baseline_top = baseline
            .rank(ScoringRule::Published)
            .first()
            .map(|c| c.player);
        Ok(EarlyAnswer {
            situation: *self,
            wolf_sets: posterior.wolf_set_count() as u64,
            joint_entropy: posterior.joint_entropy(),
            roles,
            recommended,
            baseline_recommended: top_role(baseline_top)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_size_and_shape() {
        let all = EARLY_FAMILY.situations();
        // Per (N, W, result): C(N - 1, 2) vote-count splits times 4 votes of
        // the checked player and the suspect; W ranges over 1..=min(4, (N-1)/2).
        let expected: u32 = (6..=12u32)
            .map(|n| {
                (n - 1) * (n - 2) / 2 * 4 * 2 * (1..=4u32).filter(|w| 2 * w < n).count() as u32
            })
            .sum();
        assert_eq!(all.len() as u32, expected);
        assert_eq!(expected, 6272);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len());
        assert!(all.iter().all(|s| EARLY_FAMILY.contains(s)));
    }

    #[test]
    fn a_trusted_wolf_result_is_the_recommended_vote() {
        let situation = EarlySituation {
            players: 8,
            wolves: 2,
            checked_is_wolf: true,
            votes_for_seer: 2,
            votes_for_checked: 2,
            votes_for_suspect: 1,
            checked_votes: EarlyVote::Seer,
            suspect_votes: EarlyVote::Seer,
        };
        let answer = situation.solve().unwrap();
        assert_eq!(
            answer.recommended_by(ScoringRule::Published),
            EarlyRole::Checked
        );
        assert_eq!(answer.role(EarlyRole::Checked).unwrap().p_wolf, 1.0);
        // One more wolf among the 6 unknown players.
        assert_eq!(answer.wolf_sets, 6);
        let sum: f64 = answer
            .roles
            .iter()
            .map(|r| r.p_wolf * f64::from(r.members))
            .sum();
        assert!((sum - 2.0).abs() < 1e-12, "{sum}");
        // Voting the known wolf clears a player; voting the seer does not.
        let seer_voter = answer.role(EarlyRole::SeerVoter).unwrap().p_wolf;
        let checked_voter = answer.role(EarlyRole::CheckedVoter).unwrap().p_wolf;
        assert!(seer_voter > checked_voter);
    }
}

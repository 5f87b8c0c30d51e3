//! The events of a role game compiled once into terms that are cheap to
//! evaluate per hypothesis, and the part of the weight that depends on the
//! wolf set and the lovers' pair alone.
//!
//! Votes, old-style night kills, the viewer's own side checks when the
//! seer is not trusted, behaviour scores and the end of the game depend
//! only on who the wolves are (and, for the two lovers' votes, on the
//! pair), so [`wolf_set_weight`] sums their logs once per wolf set and
//! weighs every lovers' pair there. Identical votes (same voter, target
//! and possible targets) are counted once with their multiplicity, which
//! keeps a log of 10,000 votes as cheap and as accurate as one of a few
//! dozen distinct ones. Claims and role-form checks depend on the roles
//! and are evaluated per assignment by the enumeration, from the factors
//! precomputed here.

use super::super::model::{Player, PlayerSet, Side};
use super::end::{over, over_with_mixed_lovers, Winner};
use super::events::{Known, RoleEvent};
use super::game::RoleGame;
use super::setup::{Role, RoleSetup};

/// Votes with the same voter, target and possible targets, counted.
pub(crate) struct VoteGroup {
    voter: Player,
    target: Player,
    /// The players the voter could have voted for.
    choices: PlayerSet,
    count: f64,
    /// `ln weight[voter is wolf][target is wolf]`.
    ln_weight: [[f64; 2]; 2],
    /// `ln total[voter is wolf][wolves among the choices]`: the log of the
    /// voter's normalising sum.
    ln_total: [Vec<f64>; 2],
    /// `ln (total - weight of a partner)[voter is wolf][wolves among the
    /// choices][partner is wolf]`, for a lover's vote.
    ln_without: [Vec<[f64; 2]>; 2],
}

#[inline]
fn is_wolf(wolves: u64, player: Player) -> usize {
    usize::from(wolves >> player.index() & 1 == 1)
}

impl VoteGroup {
    fn new(
        voter: Player,
        target: Player,
        choices: PlayerSet,
        weight: [[f64; 2]; 2],
        wolves: u32,
    ) -> Self {
        let n = choices.len();
        let most = wolves.min(n) as usize;
        let ln_total = [0, 1].map(|v| {
            (0..=most)
                .map(|c| (weight[v][1] * c as f64 + weight[v][0] * (n as usize - c) as f64).ln())
                .collect()
        });
        let ln_without = [0, 1].map(|v| {
            (0..=most)
                .map(|c| {
                    let total = weight[v][1] * c as f64 + weight[v][0] * (n as usize - c) as f64;
                    [0, 1].map(|p| (total - weight[v][p]).ln())
                })
                .collect()
        });
        VoteGroup {
            voter,
            target,
            choices,
            count: 0.0,
            ln_weight: weight.map(|row| row.map(f64::ln)),
            ln_total,
            ln_without,
        }
    }

    #[inline]
    fn among(&self, wolves: u64) -> usize {
        (wolves & self.choices.0).count_ones() as usize
    }

    /// Log-likelihood without lovers.
    #[inline]
    fn ln_base(&self, wolves: u64) -> f64 {
        let v = is_wolf(wolves, self.voter);
        let t = is_wolf(wolves, self.target);
        self.count * (self.ln_weight[v][t] - self.ln_total[v][self.among(wolves)])
    }

    /// What changes when the voter's lover is `partner`: the vote for the
    /// partner is impossible, the partner leaves the normalising sum.
    #[inline]
    fn ln_lover_adjustment(&self, wolves: u64, partner: Player) -> f64 {
        if !self.choices.contains(partner) {
            return 0.0;
        }
        if partner == self.target {
            return f64::NEG_INFINITY;
        }
        let v = is_wolf(wolves, self.voter);
        let among = self.among(wolves);
        let p = is_wolf(wolves, partner);
        self.count * (self.ln_total[v][among] - self.ln_without[v][among][p])
    }
}

/// The terms of a wolf set alone, other than votes and behaviour scores.
enum SideTerm {
    /// Old-style night kill: `-ln(living non-wolves)`.
    NightKill { living: PlayerSet },
    /// The viewer's own side check, the seer not trusted.
    Seer {
        target: Player,
        says_wolf: bool,
        ln_right: f64,
        ln_wrong: f64,
    },
}

impl SideTerm {
    fn ln_likelihood(&self, wolves: u64) -> f64 {
        match *self {
            SideTerm::NightKill { living } => {
                -f64::from((living.0 & !wolves).count_ones().max(1)).ln()
            }
            SideTerm::Seer {
                target,
                says_wolf,
                ln_right,
                ln_wrong,
            } => {
                if (is_wolf(wolves, target) == 1) == says_wolf {
                    ln_right
                } else {
                    ln_wrong
                }
            }
        }
    }
}

/// A reported check's likelihood by the truth about the player checked:
/// the report is right, the player is on the other side (a mistaken
/// vision), or neither.
#[derive(Clone, Copy)]
pub(crate) struct Vision {
    /// The player checked.
    pub(crate) target: Player,
    /// The report: a side, or a village card.
    report: Known,
    /// P(report | its true role / side).
    right: f64,
    /// P(report | the other side).
    other_side: f64,
    /// A side-form report: "right" is a matter of side only.
    by_side: bool,
}

impl Vision {
    /// The true seer's vision model with accuracy `accuracy`.
    fn new(target: Player, report: Known, accuracy: f64, setup: &RoleSetup) -> Vision {
        match report {
            Known::Side(_) => Vision {
                target,
                report,
                right: accuracy,
                other_side: 1.0 - accuracy,
                by_side: true,
            },
            Known::Role(role) => Vision {
                target,
                report,
                right: accuracy,
                other_side: (1.0 - accuracy) * setup.village_card_share(role),
                by_side: false,
            },
        }
    }

    /// What was reported.
    pub(crate) fn report(&self) -> Known {
        self.report
    }

    /// P(report | the checked player holds `role`).
    #[inline]
    pub(crate) fn given(&self, role: Role) -> f64 {
        let side = role.side();
        if side != self.report.side() {
            self.other_side
        } else if self.by_side || Known::Role(role) == self.report {
            self.right
        } else {
            0.0
        }
    }
}

/// A claim: `player` claims `role`, a seer claim maybe with a check. The
/// factors of a false claim by a wolf and by a village-side player, and
/// their logs, are computed once.
pub(crate) struct ClaimTerm {
    pub(crate) player: Player,
    pub(crate) role: Role,
    /// A true seer's reported check.
    pub(crate) vision: Option<Vision>,
    pub(crate) by_wolf: f64,
    pub(crate) by_village: f64,
    pub(crate) ln_by_wolf: f64,
    pub(crate) ln_by_village: f64,
}

impl ClaimTerm {
    fn new(player: Player, role: Role, check: Option<(Player, Known)>, game: &RoleGame) -> Self {
        let model = game.model();
        let setup = game.setup();
        // A false seer's report: "wolf" with fake_says_wolf, else a
        // village card drawn from the reportable ones.
        let reported = match check {
            None => 1.0,
            Some((_, Known::Side(Side::Wolf))) => model.fake_says_wolf,
            Some((_, Known::Side(Side::Village))) => 1.0 - model.fake_says_wolf,
            Some((_, Known::Role(r))) => (1.0 - model.fake_says_wolf) * setup.village_card_share(r),
        };
        let by_wolf = model.fake_claim * reported;
        let by_village = model.village_fake_claim * reported;
        ClaimTerm {
            player,
            role,
            vision: check.map(|(target, report)| {
                Vision::new(target, report, model.sides.seer_accuracy, &setup)
            }),
            by_wolf,
            by_village,
            ln_by_wolf: by_wolf.ln(),
            ln_by_village: by_village.ln(),
        }
    }
}

/// Everything compiled from the game once.
pub(crate) struct Compiled {
    votes: Vec<VoteGroup>,
    side_terms: Vec<SideTerm>,
    pub(crate) claims: Vec<ClaimTerm>,
    /// The viewer's own role-form checks when the seer is not trusted.
    pub(crate) visions: Vec<Vision>,
    /// Candidate lovers' pairs (empty without cupid).
    pub(crate) pairs: Vec<(Player, Player)>,
    /// The living at the end of the log.
    pub(crate) living: PlayerSet,
    /// Vote groups cast by each player (indices into `votes`).
    votes_by: Vec<Vec<usize>>,
    /// The living at each point the game must not have ended.
    checkpoints: Vec<PlayerSet>,
    /// Behaviour scores added up per seat.
    pub(crate) scores: Vec<f64>,
}

impl Compiled {
    pub(crate) fn new(game: &RoleGame) -> Compiled {
        let setup = game.setup();
        let model = game.model().sides;
        let sides = [Side::Village, Side::Wolf];
        let weight = sides.map(|v| sides.map(|t| model.votes.weight(v, t)));
        let mut votes: Vec<VoteGroup> = Vec::new();
        let mut side_terms = Vec::new();
        let mut claims = Vec::new();
        let mut visions = Vec::new();
        let mut group_of = std::collections::HashMap::new();
        // The seer viewer's own checks so far: her claim repeating one
        // tells the same vision, already counted.
        let seer_viewer = game
            .viewer()
            .filter(|&(_, known)| known == Known::Role(Role::Seer) && !game.is_side_log())
            .map(|(player, _)| player);
        let mut own_checks: Vec<(Player, Known)> = Vec::new();
        for timed in game.timed_events() {
            match timed.event {
                RoleEvent::Vote { voter, target } => {
                    let key = (voter, target, timed.choices);
                    let index = *group_of.entry(key).or_insert_with(|| {
                        votes.push(VoteGroup::new(
                            voter,
                            target,
                            timed.choices,
                            weight,
                            setup.wolves(),
                        ));
                        votes.len() - 1
                    });
                    votes[index].count += 1.0;
                }
                RoleEvent::NightKill { .. } => side_terms.push(SideTerm::NightKill {
                    living: timed.living,
                }),
                RoleEvent::SeerCheck { target, result } => {
                    if seer_viewer.is_some() {
                        own_checks.push((target, result));
                    }
                    if model.seer_trusted() {
                        continue;
                    }
                    match result {
                        Known::Side(side) => side_terms.push(SideTerm::Seer {
                            target,
                            says_wolf: side == Side::Wolf,
                            ln_right: model.seer_accuracy.ln(),
                            ln_wrong: (1.0 - model.seer_accuracy).ln(),
                        }),
                        Known::Role(_) => {
                            visions.push(Vision::new(target, result, model.seer_accuracy, &setup));
                        }
                    }
                }
                RoleEvent::Claim {
                    player,
                    role,
                    check,
                } => {
                    let told = Some(player) == seer_viewer
                        && role == Role::Seer
                        && check.is_some_and(|(target, result)| {
                            own_checks
                                .iter()
                                .any(|&(checked, seen)| checked == target && result.repeats(seen))
                        });
                    let check = if told { None } else { check };
                    claims.push(ClaimTerm::new(player, role, check, game));
                }
                _ => {}
            }
        }
        let mut pairs = Vec::new();
        if setup.has(Role::Cupid) {
            let players: Vec<Player> = setup.sides().all_players().collect();
            for (i, &a) in players.iter().enumerate() {
                for &b in &players[i + 1..] {
                    if game.lovers_allowed(a, b) {
                        pairs.push((a, b));
                    }
                }
            }
        }
        let mut votes_by = vec![Vec::new(); setup.players() as usize];
        for (index, vote) in votes.iter().enumerate() {
            votes_by[vote.voter.index()].push(index);
        }
        Compiled {
            votes,
            side_terms,
            claims,
            visions,
            pairs,
            votes_by,
            living: game.living(),
            checkpoints: game.checkpoints().to_vec(),
            scores: game.score_totals().to_vec(),
        }
    }

    /// The sum of the behaviour scores of `wolves` that are not in
    /// `others`, minus those of `others` not in `wolves`: the difference of
    /// the two sets' scores without adding up what they share (which keeps
    /// small scores exact beside huge ones).
    pub(crate) fn score_difference(&self, wolves: PlayerSet, others: PlayerSet) -> f64 {
        let sum = |set: u64| {
            PlayerSet(set)
                .players()
                .map(|p| self.scores[p.index()])
                .sum::<f64>()
        };
        sum(wolves.0 & !others.0) - sum(others.0 & !wolves.0)
    }
}

/// The per-wolf-set part of the weight, behaviour scores aside:
/// `exp(ln_rest)` times the pair weights `pair_weights` (each at most 1,
/// their sum `pair_sum`, and the sum of `g ln g` `pair_sum_ln`).
pub(crate) struct WolfSetWeight {
    pub(crate) wolves: PlayerSet,
    pub(crate) ln_rest: f64,
    /// The behaviour scores of the set added up (only to find the largest
    /// weight; differences are taken with [`Compiled::score_difference`]).
    pub(crate) score: f64,
    pub(crate) pair_weights: Vec<f64>,
    pub(crate) pair_sum: f64,
    pub(crate) pair_sum_ln: f64,
}

/// Why a wolf set has weight 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rejected {
    /// The game had ended before a later event.
    GameOver,
    /// No lovers' pair is left (every pair has a vote between them).
    NoPair,
    /// An event has likelihood 0.
    Impossible,
}

/// The weight of a wolf set, or why it is 0.
pub(crate) fn wolf_set_weight(
    compiled: &Compiled,
    wolves: PlayerSet,
) -> Result<WolfSetWeight, Rejected> {
    let w = wolves.0;
    // The points where the wolves reached parity by cards alone: the game
    // had ended there unless a wolf-villager pair of lovers was alive
    // (their wolf is out of the pack's count), checked pair by pair below.
    let mut parity: Vec<PlayerSet> = Vec::new();
    for &living in &compiled.checkpoints {
        match over((living.0 & w).count_ones(), living.len()) {
            Some(Winner::Wolves) if !compiled.pairs.is_empty() => parity.push(living),
            Some(_) => return Err(Rejected::GameOver),
            None => {}
        }
    }
    let base: f64 = compiled.votes.iter().map(|v| v.ln_base(w)).sum::<f64>()
        + compiled
            .side_terms
            .iter()
            .map(|t| t.ln_likelihood(w))
            .sum::<f64>();
    if !base.is_finite() {
        return Err(Rejected::Impossible);
    }
    let score = wolves.players().map(|p| compiled.scores[p.index()]).sum();
    if compiled.pairs.is_empty() {
        return Ok(WolfSetWeight {
            wolves,
            ln_rest: base,
            score,
            pair_weights: Vec::new(),
            pair_sum: 1.0,
            pair_sum_ln: 0.0,
        });
    }
    let lover_votes = |lover: Player, partner: Player| -> f64 {
        compiled.votes_by[lover.index()]
            .iter()
            .map(|&i| compiled.votes[i].ln_lover_adjustment(w, partner))
            .sum()
    };
    let mut ended = false;
    let ln_pairs: Vec<f64> = compiled
        .pairs
        .iter()
        .map(|&(a, b)| {
            let goes_on = |living: &PlayerSet| {
                let mixed = living.contains(a)
                    && living.contains(b)
                    && (is_wolf(w, a) + is_wolf(w, b)) == 1;
                mixed && over_with_mixed_lovers((living.0 & w).count_ones(), living.len()).is_none()
            };
            if parity.iter().all(goes_on) {
                lover_votes(a, b) + lover_votes(b, a)
            } else {
                ended = true;
                f64::NEG_INFINITY
            }
        })
        .collect();
    let max = ln_pairs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return Err(if ended {
            Rejected::GameOver
        } else {
            Rejected::NoPair
        });
    }
    let pair_weights: Vec<f64> = ln_pairs.iter().map(|l| (l - max).exp()).collect();
    let pair_sum = pair_weights.iter().sum();
    let pair_sum_ln = pair_weights
        .iter()
        .filter(|&&g| g > 0.0)
        .map(|g| g * g.ln())
        .sum();
    Ok(WolfSetWeight {
        wolves,
        ln_rest: base + max,
        score,
        pair_weights,
        pair_sum,
        pair_sum_ln,
    })
}

//! The events of a role game compiled once into terms that are cheap to
//! evaluate per hypothesis, and the part of the weight that depends on the
//! wolf set and the lovers' pair alone.
//!
//! Votes, old-style night kills, untrusted seer checks and behaviour
//! scores depend only on who the wolves are (and, for the two lovers'
//! votes, on the pair), so [`wolf_set_weight`] sums their logs once per
//! wolf set and weighs every lovers' pair there; claims depend on the
//! claimant's role and are evaluated per assignment by the enumeration in
//! `posterior.rs`, from the factors precomputed here.

use super::super::model::{Player, PlayerSet, Side};
use super::events::RoleEvent;
use super::game::RoleGame;
use super::setup::{Role, RoleModel};

/// A vote compiled for evaluation under any wolf set and lovers' pair.
pub(crate) struct VoteTerm {
    voter: Player,
    target: Player,
    /// Living players other than the voter (its possible targets).
    others: PlayerSet,
    /// `weight[voter is wolf][target is wolf]`.
    weight: [[f64; 2]; 2],
}

impl VoteTerm {
    fn sides(&self, wolves: u64, player: Player) -> usize {
        usize::from(wolves >> player.index() & 1 == 1)
    }

    /// The voter's normalising sum under `wolves`.
    fn total(&self, wolves: u64) -> f64 {
        let v = self.sides(wolves, self.voter);
        let on_wolves = f64::from((wolves & self.others.0).count_ones());
        let on_village = f64::from(self.others.len()) - on_wolves;
        self.weight[v][1] * on_wolves + self.weight[v][0] * on_village
    }

    /// Log-likelihood without lovers.
    fn ln_base(&self, wolves: u64) -> f64 {
        let v = self.sides(wolves, self.voter);
        let t = self.sides(wolves, self.target);
        self.weight[v][t].ln() - self.total(wolves).ln()
    }

    /// What changes when the voter's lover is `partner`: the vote for the
    /// partner is impossible, the partner leaves the normalising sum.
    fn ln_lover_adjustment(&self, wolves: u64, partner: Player) -> f64 {
        if !self.others.contains(partner) {
            return 0.0;
        }
        if partner == self.target {
            return f64::NEG_INFINITY;
        }
        let v = self.sides(wolves, self.voter);
        let total = self.total(wolves);
        let without = total - self.weight[v][self.sides(wolves, partner)];
        total.ln() - without.ln()
    }
}

/// The terms of a wolf set alone, other than votes.
enum SideTerm {
    /// Old-style night kill: `-ln(living non-wolves)`.
    NightKill { living: PlayerSet },
    /// Untrusted seer check.
    Seer {
        target: Player,
        says_wolf: bool,
        ln_right: f64,
        ln_wrong: f64,
    },
    /// Behaviour score.
    Behaviour { player: Player, score: f64 },
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
                if (wolves >> target.index() & 1 == 1) == says_wolf {
                    ln_right
                } else {
                    ln_wrong
                }
            }
            SideTerm::Behaviour { player, score } => {
                if wolves >> player.index() & 1 == 1 {
                    score
                } else {
                    0.0
                }
            }
        }
    }
}

/// A claim: `player` claims `role`, a seer claim maybe with a check. The
/// factors of a false claim by a wolf and by a village-side player, and
/// their logs, are computed once.
pub(crate) struct ClaimTerm {
    pub(crate) player: Player,
    pub(crate) role: Role,
    pub(crate) check: Option<(Player, bool)>,
    pub(crate) by_wolf: f64,
    pub(crate) by_village: f64,
    pub(crate) ln_by_wolf: f64,
    pub(crate) ln_by_village: f64,
}

impl ClaimTerm {
    fn new(player: Player, role: Role, check: Option<(Player, bool)>, model: &RoleModel) -> Self {
        let reported = match check {
            None => 1.0,
            Some((_, true)) => model.fake_says_wolf,
            Some((_, false)) => 1.0 - model.fake_says_wolf,
        };
        let by_wolf = model.fake_claim * reported;
        let by_village = model.village_fake_claim * reported;
        ClaimTerm {
            player,
            role,
            check,
            by_wolf,
            by_village,
            ln_by_wolf: by_wolf.ln(),
            ln_by_village: by_village.ln(),
        }
    }
}

/// Everything compiled from the game once.
pub(crate) struct Compiled {
    votes: Vec<VoteTerm>,
    side_terms: Vec<SideTerm>,
    pub(crate) claims: Vec<ClaimTerm>,
    /// Candidate lovers' pairs (empty without cupid).
    pub(crate) pairs: Vec<(Player, Player)>,
    /// Votes cast by each player (indices into `votes`).
    votes_by: Vec<Vec<usize>>,
}

impl Compiled {
    pub(crate) fn new(game: &RoleGame) -> Compiled {
        let setup = game.setup();
        let model = game.model().sides;
        let sides = [Side::Village, Side::Wolf];
        let weight = sides.map(|v| sides.map(|t| model.votes.weight(v, t)));
        let mut votes = Vec::new();
        let mut side_terms = Vec::new();
        let mut claims = Vec::new();
        for timed in game.timed_events() {
            match timed.event {
                RoleEvent::Vote { voter, target } => votes.push(VoteTerm {
                    voter,
                    target,
                    others: timed.living.without(voter),
                    weight,
                }),
                RoleEvent::NightKill { .. } => side_terms.push(SideTerm::NightKill {
                    living: timed.living,
                }),
                RoleEvent::SeerCheck { target, result } if !model.seer_trusted() => {
                    side_terms.push(SideTerm::Seer {
                        target,
                        says_wolf: result == Side::Wolf,
                        ln_right: model.seer_accuracy.ln(),
                        ln_wrong: (1.0 - model.seer_accuracy).ln(),
                    });
                }
                RoleEvent::Behaviour { player, score } => {
                    side_terms.push(SideTerm::Behaviour { player, score });
                }
                RoleEvent::Claim {
                    player,
                    role,
                    check,
                } => claims.push(ClaimTerm::new(
                    player,
                    role,
                    check.map(|(target, side)| (target, side == Side::Wolf)),
                    game.model(),
                )),
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
            pairs,
            votes_by,
        }
    }
}

/// The per-wolf-set part of the weight: `exp(ln_a)` times the pair
/// weights `pair_weights` (each at most 1, their sum `pair_sum`).
pub(crate) struct WolfSetWeight {
    pub(crate) wolves: PlayerSet,
    pub(crate) ln_a: f64,
    pub(crate) pair_weights: Vec<f64>,
    pub(crate) pair_sum: f64,
    pub(crate) pair_sum_ln: f64,
}

/// The weight of a wolf set, `None` when it is 0.
pub(crate) fn wolf_set_weight(compiled: &Compiled, wolves: PlayerSet) -> Option<WolfSetWeight> {
    let w = wolves.0;
    let base: f64 = compiled.votes.iter().map(|v| v.ln_base(w)).sum::<f64>()
        + compiled
            .side_terms
            .iter()
            .map(|t| t.ln_likelihood(w))
            .sum::<f64>();
    if !base.is_finite() {
        return None;
    }
    if compiled.pairs.is_empty() {
        return Some(WolfSetWeight {
            wolves,
            ln_a: base,
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
    let ln_pairs: Vec<f64> = compiled
        .pairs
        .iter()
        .map(|&(a, b)| lover_votes(a, b) + lover_votes(b, a))
        .collect();
    let max = ln_pairs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return None;
    }
    let pair_weights: Vec<f64> = ln_pairs.iter().map(|l| (l - max).exp()).collect();
    let pair_sum = pair_weights.iter().sum();
    let pair_sum_ln = pair_weights
        .iter()
        .filter(|&&g| g > 0.0)
        .map(|g| g * g.ln())
        .sum();
    Some(WolfSetWeight {
        wolves,
        ln_a: base + max,
        pair_weights,
        pair_sum,
        pair_sum_ln,
    })
}

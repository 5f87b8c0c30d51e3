//! The exact posterior over full role assignments (and cupid's lovers), by
//! enumeration with the interchangeable villagers factored out.
//!
//! A hypothesis is a role for every player plus, with cupid, the lovers'
//! pair. Plain villagers are interchangeable, so the enumeration places
//! only the wolves (a `u64` set) and each special role (one player each);
//! villagers fill the rest. The likelihood splits in three:
//! - terms of the wolf set alone (votes without lovers, old-style night
//!   kills, untrusted seer checks, behaviour scores), summed in logs once
//!   per wolf set;
//! - the lovers' pair, which only changes the votes of the two lovers (a
//!   lover never votes for the other): for each wolf set the pair weights
//!   are computed once, and since no other event depends on the pair, the
//!   role assignments see only their sum;
//! - terms of the special roles (nights with the witch's potions summed
//!   out, hunters' shots, claims), multiplied per assignment; the nights
//!   are computed once per placement of witch, guard and hunter.
//!
//! So the cost is (wolf sets x pairs x votes) + (assignments x nights),
//! never their product. Marginals, P(lovers), the joint entropy over
//! (roles, pair) and the entropy of each player's role come out exactly.

use crate::error::{Error, Result};

use super::super::model::{Player, PlayerSet};
use super::super::scoring::{binary_entropy_bits, sort_candidates, Candidate, ScoringRule};
use super::game::{Cause, RoleGame};
use super::night::{hunter_factor, night, two_lowest, NightRoles, Potions, FULL};
use super::setup::{RevealRule, Role, RoleModel, RoleSetup};
use super::terms::{wolf_set_weight, Compiled, WolfSetWeight};

/// Largest number of role assignments [`RolePosterior::compute`] will
/// enumerate, counted before the hard facts prune them: C(unknown, wolves
/// to place) times the ways to seat the special roles among the
/// non-wolves. 12 players with 4 wolves and all five special roles need
/// 495 x 8 x 7 x 6 x 5 x 4 = 3,326,400; 13 players with the same roles
/// need 10,810,800 and are refused.
pub const MAX_ROLE_ASSIGNMENTS: u64 = 5_000_000;

/// Sums over the role assignments of one wolf set.
struct Sums {
    /// Sum of the role weights F.
    total: f64,
    /// Sum of F ln F.
    total_ln: f64,
    /// Per player and role: sum of F over assignments giving them that
    /// role (special roles only; seat-major, 7 per seat).
    roles: Vec<f64>,
    /// Assignments with a positive weight.
    count: u64,
}

/// The enumeration of special roles for one wolf set.
struct Placer<'a> {
    game: &'a RoleGame,
    model: &'a RoleModel,
    compiled: &'a Compiled,
    specials: Vec<Role>,
    /// Seats allowed each role of `specials`, as bitmasks.
    candidates: Vec<u64>,
    night_roles: usize,
    everyone: u64,
    wolves: u64,
    /// Players who may not be plain villagers.
    not_villager: u64,
    holders: [Option<Player>; 7],
    /// The role of every seat in the current assignment.
    role_of: [Role; 64],
    sums: Sums,
}

impl Placer<'_> {
    fn place(&mut self, depth: usize, used: u64, night_weight: f64) {
        if crate::budget::tick().is_err() {
            return;
        }
        let night_weight = if depth == self.night_roles {
            self.nights()
        } else {
            night_weight
        };
        if night_weight == 0.0 {
            return;
        }
        if depth == self.specials.len() {
            self.leaf(used, night_weight);
            return;
        }
        let role = self.specials[depth];
        let mut free = self.candidates[depth] & !(self.wolves | used);
        while free != 0 {
            let seat = free.trailing_zeros() as usize;
            free &= free - 1;
            self.holders[role.index()] = Some(Player::from_index(seat));
            self.role_of[seat] = role;
            self.place(depth + 1, used | 1u64 << seat, night_weight);
            self.role_of[seat] = Role::Villager;
        }
        self.holders[role.index()] = None;
    }

    /// The nights, old-style night kills and eliminations: everything that
    /// depends on witch, guard and hunter.
    fn nights(&self) -> f64 {
        let roles = NightRoles {
            wolves: self.wolves,
            witch: self.holders[Role::Witch.index()],
            guard: self.holders[Role::Guard.index()],
            hunter: self.holders[Role::Hunter.index()],
        };
        let mut potions: Potions = FULL;
        let mut other = 1.0;
        for step in self.game.steps() {
            match step.cause {
                Cause::Night => potions = night(step, &roles, self.model, &potions),
                Cause::NightKill | Cause::Vote => {
                    // One primary death.
                    if let (Some(dead), _) = two_lowest(step.primary) {
                        other *= hunter_factor(
                            dead,
                            true,
                            roles.hunter,
                            step.shooter,
                            self.model.hunter_shoots,
                        );
                    }
                }
            }
        }
        other * potions.iter().sum::<f64>()
    }

    /// The claims' weight and its log.
    fn claims(&self) -> (f64, f64) {
        let (mut weight, mut ln_weight) = (1.0, 0.0);
        for claim in &self.compiled.claims {
            let role = self.role_of[claim.player.index()];
            if role == claim.role {
                if let Some((target, says_wolf)) = claim.check {
                    if (self.wolves >> target.index() & 1 == 1) != says_wolf {
                        return (0.0, f64::NEG_INFINITY);
                    }
                }
            } else if role == Role::Wolf {
                weight *= claim.by_wolf;
                ln_weight += claim.ln_by_wolf;
            } else {
                weight *= claim.by_village;
                ln_weight += claim.ln_by_village;
            }
        }
        (weight, ln_weight)
    }

    fn leaf(&mut self, used: u64, night_weight: f64) {
        let villagers = self.everyone & !self.wolves & !used;
        if villagers & self.not_villager != 0 {
            return;
        }
        let (claims, ln_claims) = self.claims();
        let weight = night_weight * claims;
        if weight <= 0.0 {
            return;
        }
        self.sums.total += weight;
        // The night weight's log is taken here rather than cached per
        // night placement: the claims' log is already a sum of constants.
        self.sums.total_ln += weight * (night_weight.ln() + ln_claims);
        self.sums.count += 1;
        for role in &self.specials {
            if let Some(holder) = self.holders[role.index()] {
                self.sums.roles[holder.index() * 7 + role.index()] += weight;
            }
        }
    }
}

/// C(n, k) in u128.
fn binomial(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
}

/// Every set of `k` players inside `pool`, joined with `fixed`.
fn wolf_sets(pool: PlayerSet, k: u32, fixed: PlayerSet) -> Vec<PlayerSet> {
    let seats: Vec<Player> = pool.players().collect();
    let mut out = Vec::new();
    let mut chosen = Vec::with_capacity(k as usize);
    fn go(
        seats: &[Player],
        start: usize,
        k: usize,
        chosen: &mut Vec<Player>,
        fixed: PlayerSet,
        out: &mut Vec<PlayerSet>,
    ) {
        if chosen.len() == k {
            out.push(chosen.iter().fold(fixed, |set, &p| set.with(p)));
            return;
        }
        for i in start..seats.len() {
            chosen.push(seats[i]);
            go(seats, i + 1, k, chosen, fixed, out);
            chosen.pop();
        }
    }
    go(&seats, 0, k as usize, &mut chosen, fixed, &mut out);
    out
}

/// The exact posterior of a role game.
#[derive(Debug, Clone, PartialEq)]
pub struct RolePosterior {
    setup: RoleSetup,
    living: PlayerSet,
    viewer: Option<Player>,
    /// P(role) per seat, [`Role::ALL`] order.
    roles: Vec<[f64; 7]>,
    /// Lovers' pairs with their probabilities (empty without cupid).
    pairs: Vec<((Player, Player), f64)>,
    entropy_nats: f64,
    assignments: u64,
    wolf_sets: usize,
}

impl RolePosterior {
    /// Enumerate the role assignments (and lovers' pairs) consistent with
    /// the hard facts and weigh each by the likelihood of every event.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] above [`MAX_ROLE_ASSIGNMENTS`];
    /// [`Error::Inconsistent`] when every hypothesis has probability 0
    /// under the model (e.g. a night that no choice of the roles explains).
    pub fn compute(game: &RoleGame) -> Result<RolePosterior> {
        let setup = game.setup();
        let allowed = game.allowed();
        let mut fixed = PlayerSet::EMPTY;
        let mut pool = PlayerSet::EMPTY;
        let mut not_villager = 0u64;
        for player in setup.sides().all_players() {
            let roles = allowed[player.index()];
            if roles == super::setup::RoleSet::only(Role::Wolf) {
                fixed = fixed.with(player);
            } else if roles.contains(Role::Wolf) {
                pool = pool.with(player);
            }
            if !roles.contains(Role::Villager) {
                not_villager |= 1u64 << player.index();
            }
        }
        let missing = setup.wolves().saturating_sub(fixed.len());
        let specials = setup.specials();
        let seats = setup.players() - setup.wolves();
        let placements =
            (0..specials.len() as u32).fold(1u128, |acc, i| acc * u128::from(seats - i));
        let count = binomial(pool.len(), missing) * placements;
        if count > u128::from(MAX_ROLE_ASSIGNMENTS) {
            return Err(Error::OutOfRange {
                what: "role assignments",
                detail: format!(
                    "C({}, {missing}) wolf sets x {placements} seatings of {} special roles = \
                     {count}; the limit is {MAX_ROLE_ASSIGNMENTS}",
                    pool.len(),
                    specials.len()
                ),
            });
        }
        let compiled = Compiled::new(game);
        let mut weights: Vec<WolfSetWeight> = Vec::new();
        for wolves in wolf_sets(pool, missing, fixed) {
            crate::budget::tick()?;
            weights.extend(wolf_set_weight(&compiled, wolves));
        }
        let max = weights
            .iter()
            .map(|w| w.ln_a)
            .fold(f64::NEG_INFINITY, f64::max);
        let candidates: Vec<u64> = specials
            .iter()
            .map(|&role| {
                setup
                    .sides()
                    .all_players()
                    .filter(|p| allowed[p.index()].contains(role))
                    .fold(0u64, |mask, p| mask | 1u64 << p.index())
            })
            .collect();
        let night_roles = specials
            .iter()
            .filter(|r| matches!(r, Role::Witch | Role::Guard | Role::Hunter))
            .count();
        let players = setup.players() as usize;
        let mut roles = vec![[0.0; 7]; players];
        let mut pair_mass = vec![0.0; compiled.pairs.len()];
        let (mut z, mut z_ln, mut assignments, mut wolf_set_count) = (0.0, 0.0, 0u64, 0usize);
        for set in &weights {
            let mut role_of = [Role::Villager; 64];
            for wolf in set.wolves.players() {
                role_of[wolf.index()] = Role::Wolf;
            }
            let mut placer = Placer {
                game,
                model: game.model(),
                compiled: &compiled,
                specials: specials.clone(),
                candidates: candidates.clone(),
                night_roles,
                everyone: setup.sides().everyone().0,
                wolves: set.wolves.0,
                not_villager,
                holders: [None; 7],
                role_of,
                sums: Sums {
                    total: 0.0,
                    total_ln: 0.0,
                    roles: vec![0.0; players * 7],
                    count: 0,
                },
            };
            placer.place(0, 0, 1.0);
            // A placement stopped by the budget left partial sums.
            crate::budget::tick()?;
            let sums = placer.sums;
            if sums.total <= 0.0 {
                continue;
            }
            wolf_set_count += 1;
            assignments += sums.count;
            let a = (set.ln_a - max).exp();
            let scale = a * set.pair_sum;
            z += scale * sums.total;
            z_ln += a * set.pair_sum_ln * sums.total
                + scale * (sums.total * (set.ln_a - max) + sums.total_ln);
            for wolf in set.wolves.players() {
                roles[wolf.index()][Role::Wolf.index()] += scale * sums.total;
            }
            for (seat, line) in roles.iter_mut().enumerate() {
                for role in &specials {
                    line[role.index()] += scale * sums.roles[seat * 7 + role.index()];
                }
            }
            for (mass, g) in pair_mass.iter_mut().zip(&set.pair_weights) {
                *mass += a * g * sums.total;
            }
        }
        if !(z > 0.0 && z.is_finite()) {
            return Err(Error::Inconsistent(
                "no role assignment explains the events: every hypothesis has probability 0 \
                 under the model (check the nights, shots and claims against the setup)"
                    .into(),
            ));
        }
        for line in &mut roles {
            let mut special_sum = 0.0;
            for role in Role::ALL {
                if role != Role::Villager {
                    line[role.index()] = (line[role.index()] / z).clamp(0.0, 1.0);
                    special_sum += line[role.index()];
                }
            }
            line[Role::Villager.index()] = if setup.has(Role::Villager) {
                (1.0 - special_sum).clamp(0.0, 1.0)
            } else {
                0.0
            };
        }
        let pairs = compiled
            .pairs
            .iter()
            .zip(pair_mass)
            .map(|(&pair, mass)| (pair, mass / z))
            .collect();
        Ok(RolePosterior {
            setup,
            living: game.living(),
            viewer: game.viewer().map(|(p, _)| p),
            roles,
            pairs,
            entropy_nats: (z.ln() - z_ln / z).max(0.0),
            assignments,
            wolf_sets: wolf_set_count,
        })
    }

    /// The setup.
    pub fn setup(&self) -> RoleSetup {
        self.setup
    }

    /// The living players.
    pub fn living(&self) -> PlayerSet {
        self.living
    }

    /// P(`player` holds `role`).
    pub fn p_role(&self, player: Player, role: Role) -> f64 {
        self.roles
            .get(player.index())
            .map_or(0.0, |line| line[role.index()])
    }

    /// P(role) of `player` in [`Role::ALL`] order.
    pub fn role_distribution(&self, player: Player) -> [f64; 7] {
        self.roles.get(player.index()).copied().unwrap_or([0.0; 7])
    }

    /// P(`player` is a wolf).
    pub fn p_wolf(&self, player: Player) -> f64 {
        self.p_role(player, Role::Wolf)
    }

    /// P(`player` is one of the lovers) (0 without cupid).
    pub fn p_lover(&self, player: Player) -> f64 {
        self.pairs
            .iter()
            .filter(|((a, b), _)| *a == player || *b == player)
            .fold(0.0, |sum, (_, p)| sum + p)
            .min(1.0)
    }

    /// Every possible lovers' pair with its probability.
    pub fn lovers(&self) -> &[((Player, Player), f64)] {
        &self.pairs
    }

    /// Role assignments with a positive weight.
    pub fn assignment_count(&self) -> u64 {
        self.assignments
    }

    /// Wolf sets with a positive weight.
    pub fn wolf_set_count(&self) -> usize {
        self.wolf_sets
    }

    /// Joint entropy (bits) of the roles and the lovers' pair.
    pub fn joint_entropy(&self) -> f64 {
        self.entropy_nats / std::f64::consts::LN_2
    }

    /// Expected number of living wolves.
    pub fn expected_living_wolves(&self) -> f64 {
        self.living.players().map(|p| self.p_wolf(p)).sum()
    }

    /// The information (bits) gained by eliminating `player` under
    /// `reveal`: the entropy of what is shown, a function of the hidden
    /// state, so exactly the expected drop of the joint entropy.
    pub fn information_gain(&self, player: Player, reveal: RevealRule) -> f64 {
        match reveal {
            RevealRule::Side => binary_entropy_bits(self.p_wolf(player)),
            RevealRule::Role => self
                .role_distribution(player)
                .iter()
                .filter(|&&p| p > 0.0)
                .fold(0.0, |sum, p| sum - p * p.log2())
                .max(0.0),
        }
    }

    /// The living players (the viewer and `exclude` left out) scored by
    /// `rule` with the information gain of `reveal`, best first.
    pub fn rank(
        &self,
        rule: ScoringRule,
        reveal: RevealRule,
        exclude: Option<Player>,
    ) -> Vec<Candidate> {
        let entropy = self.joint_entropy();
        let mut candidates: Vec<Candidate> = self
            .living
            .players()
            .filter(|&p| Some(p) != exclude && Some(p) != self.viewer)
            .map(|player| {
                let information_gain = self.information_gain(player, reveal);
                Candidate::scored(player, self.p_wolf(player), information_gain, rule, entropy)
            })
            .collect();
        sort_candidates(&mut candidates);
        candidates
    }
}

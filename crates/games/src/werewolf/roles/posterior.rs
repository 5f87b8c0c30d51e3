//! The exact posterior over full role assignments (and cupid's lovers), by
//! enumeration with the interchangeable villagers factored out.
//!
//! A hypothesis is a role for every player plus, with cupid, the lovers'
//! pair. Plain villagers are interchangeable, so the enumeration places
//! only the wolves (a `u64` set) and each special role (one player each);
//! villagers fill the rest. The likelihood splits in three:
//! - terms of the wolf set alone (votes without lovers, old-style night
//!   kills, the viewer's untrusted side checks, behaviour scores, the end
//!   of the game), summed in logs once per wolf set;
//! - the lovers' pair, which only changes the votes of the two lovers (a
//!   lover never votes for the other): for each wolf set the pair weights
//!   are computed once, and since no other event depends on the pair, the
//!   role assignments see only their sum;
//! - terms of the special roles (nights with the potions and the guard's
//!   last target summed out, hunters' shots, claims, role-form checks),
//!   multiplied per assignment by `enumerate.rs`.
//!
//! So the cost is (wolf sets x pairs x distinct votes) + (assignments x
//! claims), never their product. Each wolf set's sums come back scaled
//! (their log scale apart), and the sums over wolf sets are kept relative
//! to a running largest log weight, so neither a long log's tiny weights
//! nor huge behaviour scores leave the floating-point range. Marginals,
//! P(lovers), the joint entropy over (roles, pair), the chance of each end
//! of the game, and what each elimination would show (for the information
//! gain, `information.rs`) come out exactly.

use crate::error::{Error, Result};

use super::super::model::{Player, PlayerSet};
use super::super::scoring::{sort_candidates, Candidate, ScoringRule};
use super::end::{winner, Winner};
use super::enumerate::{scale_ln, Placer, Sum};
use super::game::RoleGame;
use super::information::Shows;
use super::setup::{RevealRule, Role, RoleSet, RoleSetup};
use super::terms::{wolf_set_weight, Compiled, Rejected, WolfSetWeight};

/// Largest number of role assignments [`RolePosterior::compute`] will
/// enumerate, counted before the hard facts prune them: C(unknown, wolves
/// to place) times the ways to seat the special roles among the
/// non-wolves. 12 players with 4 wolves and all five special roles need
/// 495 x 8 x 7 x 6 x 5 x 4 = 3,326,400; 13 players with the same roles
/// need 10,810,800 and are refused.
pub const MAX_ROLE_ASSIGNMENTS: u64 = 5_000_000;

/// How far (in natural log) a wolf set's weight may rise above the running
/// reference before the sums are brought down to it.
const RESCALE_ABOVE: f64 = 64.0;

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

/// Why the enumeration found no hypothesis of positive weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Empty {
    /// Every lovers' pair has a vote between them.
    NoPair,
    /// Anything else.
    Impossible,
}

/// The exact posterior of a role game.
#[derive(Debug, Clone, PartialEq)]
pub struct RolePosterior {
    setup: RoleSetup,
    living: PlayerSet,
    viewer: Option<Player>,
    /// P(role) per seat, [`Role::ALL`] order.
    roles: Vec<[f64; 7]>,
    /// Lovers' pairs of positive probability (empty without cupid).
    pairs: Vec<((Player, Player), f64)>,
    entropy_nats: f64,
    /// P(the game goes on), P(each winner), in [`Winner::ALL`] order after
    /// the first.
    outcome: [f64; 4],
    /// The information gain of eliminating each living seat, by reveal
    /// rule ([`RevealRule::Role`], [`RevealRule::Side`]).
    gains: Vec<[f64; 2]>,
    assignments: u64,
    wolf_sets: usize,
}

/// The running sums over wolf sets, relative to `exp(shift)`.
struct Totals {
    shift: Option<f64>,
    z: f64,
    /// Sum of w (ln w - shift).
    zv: f64,
    roles: Vec<[f64; 7]>,
    pairs: Vec<f64>,
    outcome: [f64; 4],
    shows: Shows,
}

impl Totals {
    /// `exp(ln - shift)` for a wolf set of log weight `ln` and largest
    /// possible contribution `ln + ln_size`, moving the shift (and the
    /// sums) when that would rise too far above it.
    fn factor(&mut self, ln: f64, ln_size: f64) -> f64 {
        let top = ln + ln_size;
        match self.shift {
            None => self.shift = Some(top),
            Some(shift) if top > shift + RESCALE_ABOVE => {
                let down = (shift - top).exp();
                // Each w (ln w - shift) becomes w down (ln w - top).
                self.zv = down * (self.zv + (shift - top) * self.z);
                self.z *= down;
                for line in &mut self.roles {
                    line.iter_mut().for_each(|x| *x *= down);
                }
                self.pairs.iter_mut().for_each(|x| *x *= down);
                self.outcome.iter_mut().for_each(|x| *x *= down);
                self.shows.scale(down);
                self.shift = Some(top);
            }
            Some(_) => {}
        }
        (ln - self.shift.unwrap_or(top)).exp()
    }
}

impl RolePosterior {
    /// The posterior, or why there is none (the limit aside).
    pub(crate) fn enumerate(game: &RoleGame) -> Result<std::result::Result<RolePosterior, Empty>> {
        let setup = game.setup();
        let allowed = game.allowed();
        let mut fixed = PlayerSet::EMPTY;
        let mut pool = PlayerSet::EMPTY;
        let mut not_villager = 0u64;
        for player in setup.sides().all_players() {
            let roles = allowed[player.index()];
            if roles == RoleSet::only(Role::Wolf) {
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
                what: crate::Argument::RoleAssignments,
                detail: format!(
                    "C({}, {missing}) wolf sets x {placements} seatings of {} special roles = \
                     {count}; the limit is {MAX_ROLE_ASSIGNMENTS}",
                    pool.len(),
                    specials.len()
                ),
            });
        }
        let compiled = Compiled::new(game);
        let mut no_pair = false;
        let mut others = false;
        let mut weights: Vec<WolfSetWeight> = Vec::new();
        for wolves in wolf_sets(pool, missing, fixed) {
            crate::budget::tick()?;
            match wolf_set_weight(&compiled, wolves) {
                Ok(weight) => weights.push(weight),
                Err(Rejected::NoPair) => no_pair = true,
                Err(_) => others = true,
            }
        }
        // The last pair is the reason only when every wolf set fails on it.
        let empty = if no_pair && !others {
            Empty::NoPair
        } else {
            Empty::Impossible
        };
        // The largest weight by votes and scores, the reference every
        // other wolf set's log weight is taken against (the scores by the
        // players the two sets do not share).
        let Some(top) = weights
            .iter()
            .max_by(|a, b| (a.score + a.ln_rest).total_cmp(&(b.score + b.ln_rest)))
            .map(|w| (w.wolves, w.ln_rest))
        else {
            return Ok(Err(empty));
        };
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
        let players = setup.players() as usize;
        let cupid = setup.has(Role::Cupid);
        let mut placer = Placer::new(game, &compiled, candidates, not_villager, cupid);
        let mut totals = Totals {
            shift: None,
            z: 0.0,
            zv: 0.0,
            roles: vec![[0.0; 7]; players],
            pairs: vec![0.0; compiled.pairs.len()],
            outcome: [0.0; 4],
            shows: Shows::new(players, cupid),
        };
        let (mut assignments, mut wolf_set_count) = (0u64, 0usize);
        for set in &weights {
            let sum = placer.run(set.wolves);
            // A placement stopped by the budget left partial sums.
            crate::budget::tick()?;
            if sum.u <= 0.0 {
                continue;
            }
            // Counted even when its weight is below what an f64 holds
            // beside the largest: its probability is positive.
            wolf_set_count += 1;
            assignments += placer.count;
            // The total and the sums by seat share its exponent.
            let Sum { u, v, exponent } = sum;
            let ln_w = compiled.score_difference(set.wolves, top.0)
                + (set.ln_rest - top.1)
                + scale_ln(exponent);
            let c = totals.factor(ln_w, (u * set.pair_sum).ln());
            if c == 0.0 {
                continue;
            }
            let ln_c = ln_w - totals.shift.unwrap_or(ln_w);
            let scale = c * set.pair_sum;
            totals.z += scale * u;
            // w (ln w - shift) summed over this set's hypotheses: ln w -
            // shift = ln c + ln g + (ln F - scale_ln(exponent)).
            totals.zv += c
                * (set.pair_sum * u * ln_c
                    + set.pair_sum_ln * u
                    + set.pair_sum * (v - scale_ln(exponent) * u));
            let line_of = |seat: usize, role: Role| placer.sums[seat * 7 + role.index()];
            for wolf in set.wolves.players() {
                totals.roles[wolf.index()][Role::Wolf.index()] += scale * u;
            }
            for (seat, line) in totals.roles.iter_mut().enumerate() {
                for role in &specials {
                    line[role.index()] += scale * line_of(seat, *role);
                }
            }
            for (mass, g) in totals.pairs.iter_mut().zip(&set.pair_weights) {
                *mass += c * g * u;
            }
            add_outcome(&mut totals.outcome, &compiled, set, c * u);
            totals.shows.add(&placer, &compiled, set, c, u);
        }
        let z = totals.z;
        if !(z > 0.0 && z.is_finite()) {
            return Ok(Err(empty));
        }
        let mut roles = totals.roles;
        for (line, known) in roles.iter_mut().zip(allowed) {
            // A role known by a hard fact is certain, not a sum of
            // rounded weights.
            if let Some(role) = Role::ALL.into_iter().find(|&r| *known == RoleSet::only(r)) {
                *line = [0.0; 7];
                line[role.index()] = 1.0;
                continue;
            }
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
            .zip(totals.pairs)
            .filter(|(_, mass)| *mass > 0.0)
            .map(|(&pair, mass)| (pair, mass / z))
            .collect();
        let outcome = certain_outcome(totals.outcome.map(|x| (x / z).clamp(0.0, 1.0)));
        let living = game.living();
        let viewer = game.viewer().map(|(p, _)| p);
        // Once the game is over in every hypothesis no elimination can
        // follow, so none teaches anything.
        let gains = if outcome[0] == 0.0 {
            vec![[0.0; 2]; players]
        } else {
            totals
                .shows
                .gains(z, &roles, living, game.model().hunter_shoots, setup)
        };
        Ok(Ok(RolePosterior {
            setup,
            living,
            viewer,
            roles,
            pairs,
            entropy_nats: (z.ln() - totals.zv / z).max(0.0),
            outcome,
            gains,
            assignments,
            wolf_sets: wolf_set_count,
        }))
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

    /// The entropy (bits) of `player`'s role.
    pub fn role_entropy(&self, player: Player) -> f64 {
        self.role_distribution(player)
            .iter()
            .filter(|&&p| p > 0.0)
            .fold(0.0, |sum, p| sum - p * p.log2())
            .max(0.0)
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

    /// Every lovers' pair of positive probability, with it.
    pub fn lovers(&self) -> &[((Player, Player), f64)] {
        &self.pairs
    }

    /// P(the game goes on) after the last event.
    pub fn p_ongoing(&self) -> f64 {
        self.outcome[0]
    }

    /// P(the game is over and `winner` has won) after the last event.
    pub fn p_won(&self, winner: Winner) -> f64 {
        match winner {
            Winner::Village => self.outcome[1],
            Winner::Wolves => self.outcome[2],
            Winner::Lovers => self.outcome[3],
        }
    }

    /// The winner, when every hypothesis left agrees the game is over and
    /// on who won.
    pub fn winner(&self) -> Option<Winner> {
        Winner::ALL.into_iter().find(|&w| self.p_won(w) == 1.0)
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

    /// The information (bits) gained by eliminating `player` now: the
    /// expected drop of the joint entropy of (roles, lovers) over
    /// everything the elimination makes public under `reveal` (the card or
    /// the side; with cupid, whether a lover dies with them, who, and that
    /// lover's card or side; whether a hunter shoots). 0 for a player who
    /// is dead.
    pub fn information_gain(&self, player: Player, reveal: RevealRule) -> f64 {
        let at = match reveal {
            RevealRule::Role => 0,
            RevealRule::Side => 1,
        };
        self.gains.get(player.index()).map_or(0.0, |g| g[at])
    }

    /// The living players (the viewer and `exclude` left out) scored by
    /// `rule` with the information gain of `reveal`, best first; scores
    /// equal up to [`TIE_TOLERANCE`](super::super::TIE_TOLERANCE) go to the
    /// lower seat.
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

/// The chances of each end of the game, with an end that every hypothesis
/// left agrees on set to exactly 1 (the others are exact zeros, and the
/// sum of rounded weights over the total may miss 1 by an ulp).
fn certain_outcome(outcome: [f64; 4]) -> [f64; 4] {
    let mut positive = outcome.iter().enumerate().filter(|(_, &p)| p > 0.0);
    match (positive.next(), positive.next()) {
        (Some((only, _)), None) => {
            let mut certain = [0.0; 4];
            certain[only] = 1.0;
            certain
        }
        _ => outcome,
    }
}

/// Add a wolf set's mass `mass` (its role weights times its scale, before
/// the pair weights) to the chances of each end of the game.
fn add_outcome(outcome: &mut [f64; 4], compiled: &Compiled, set: &WolfSetWeight, mass: f64) {
    let living = compiled.living;
    let slot = |w: Option<Winner>| match w {
        None => 0,
        Some(Winner::Village) => 1,
        Some(Winner::Wolves) => 2,
        Some(Winner::Lovers) => 3,
    };
    if compiled.pairs.is_empty() {
        outcome[slot(winner(living, set.wolves.0, None))] += mass * set.pair_sum;
        return;
    }
    for (&(a, b), g) in compiled.pairs.iter().zip(&set.pair_weights) {
        let w = winner(living, set.wolves.0, Some((a.index(), b.index())));
        outcome[slot(w)] += mass * g;
    }
}

//! Random legal role games for the brute-force comparison: a hidden
//! assignment and lovers' pair are drawn, and the game is played forward
//! by the model's own rules (the wolves' victim, the guard's target never
//! the last one, the witch's potions, shots, grief, claims true and false,
//! the seer viewer's checks, ties and revotes, eliminations shown or not)
//! until it ends or runs out of steps. Every event is legal and the log
//! has positive probability under the hypothesis it was played from, so
//! the engine must accept it and agree with the brute force.

use gametab_games::werewolf::roles::{Known, Role, RoleEvent, RoleGame, RoleModel, RoleSetup};
use gametab_games::werewolf::{Player, Side};

/// A small xorshift generator (fixed seeds, no dependency).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability p.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 % 1.0 < p
    }

    fn pick(&mut self, from: &[usize]) -> Option<usize> {
        (!from.is_empty()).then(|| from[self.below(from.len())])
    }
}

fn seat(i: usize) -> Player {
    let setup = gametab_games::werewolf::Setup::new(64, 1).unwrap();
    Player::from_number(i as u32 + 1, setup).unwrap()
}

/// The game being played: the hidden truth and what has happened.
struct Play<'a> {
    rng: &'a mut Rng,
    model: RoleModel,
    setup: RoleSetup,
    roles: Vec<Role>,
    lovers: Option<(usize, usize)>,
    alive: Vec<bool>,
    antidote: bool,
    poison: bool,
    last_guarded: Option<usize>,
    viewer: Option<(usize, Known)>,
    events: Vec<RoleEvent>,
}

impl Play<'_> {
    fn living(&self) -> Vec<usize> {
        (0..self.roles.len()).filter(|&i| self.alive[i]).collect()
    }

    fn holder(&self, role: Role) -> Option<usize> {
        (0..self.roles.len()).find(|&i| self.roles[i] == role && self.alive[i])
    }

    fn over(&self) -> bool {
        let living = self
            .alive
            .iter()
            .enumerate()
            .fold(0u64, |m, (i, &a)| m | (u64::from(a) << i));
        super::brute::winner(&self.roles, living, self.lovers).is_some()
    }

    fn partner(&self, i: usize) -> Option<usize> {
        self.lovers.and_then(|(a, b)| {
            if a == i {
                Some(b)
            } else if b == i {
                Some(a)
            } else {
                None
            }
        })
    }

    /// A report of `target` as a seer would write it: a card or a side.
    fn report(&mut self, target: usize, truthful: bool) -> Known {
        let truth = self.roles[target];
        if truthful {
            if truth == Role::Wolf || self.rng.chance(0.4) {
                Known::Side(truth.side())
            } else {
                Known::Role(truth)
            }
        } else {
            let cards: Vec<Role> = [
                Role::Villager,
                Role::Witch,
                Role::Hunter,
                Role::Guard,
                Role::Cupid,
            ]
            .into_iter()
            .filter(|&r| self.setup.count(r) > 0)
            .collect();
            match self.rng.below(3) {
                0 => Known::Side(Side::Wolf),
                1 => Known::Side(Side::Village),
                _ if !cards.is_empty() => Known::Role(cards[self.rng.below(cards.len())]),
                _ => Known::Side(Side::Village),
            }
        }
    }

    /// After a step's deaths: the lovers' grief at once, then the hunter's
    /// shot (if he was killed normally, not of grief) at someone still
    /// alive, then the grief the shot causes; each logged.
    fn consequences(&mut self, normal: Option<usize>) {
        self.grief();
        if let Some(h) = normal {
            if self.roles[h] == Role::Hunter && self.rng.chance(self.model.hunter_shoots) {
                if let Some(target) = self.rng.pick(&self.living()) {
                    self.events.push(RoleEvent::HunterShot {
                        hunter: seat(h),
                        target: seat(target),
                    });
                    self.alive[target] = false;
                    self.grief();
                }
            }
        }
    }

    fn grief(&mut self) {
        if let Some((a, b)) = self.lovers {
            for (dead, other) in [(a, b), (b, a)] {
                if !self.alive[dead] && self.alive[other] {
                    self.events.push(RoleEvent::LoverDeath {
                        player: seat(other),
                        lover: seat(dead),
                    });
                    self.alive[other] = false;
                }
            }
        }
    }

    fn night(&mut self) {
        let living = self.living();
        let wolves: Vec<usize> = living
            .iter()
            .copied()
            .filter(|&i| self.roles[i] == Role::Wolf)
            .collect();
        let others: Vec<usize> = living
            .iter()
            .copied()
            .filter(|&i| self.roles[i] != Role::Wolf)
            .collect();
        let victim = if self.rng.chance(self.model.wolves_knife_wolf) {
            self.rng.pick(&wolves).unwrap()
        } else {
            self.rng.pick(&others).unwrap()
        };
        let guard = self.holder(Role::Guard);
        let guarded = guard.map(|_| {
            let choices: Vec<usize> = living
                .iter()
                .copied()
                .filter(|&g| Some(g) != self.last_guarded)
                .collect();
            self.rng.pick(&choices).unwrap()
        });
        self.last_guarded = guarded;
        let witch = self.holder(Role::Witch);
        let (mut saved, mut poisoned) = (false, None);
        let mut view = None;
        if let Some(w) = witch {
            // She is shown the victim only while she holds the antidote.
            let shown = self.antidote;
            view = Some(shown.then_some(victim));
            if shown && victim != w && self.rng.chance(self.model.witch_save) {
                saved = true;
                self.antidote = false;
            } else if self.poison && self.rng.chance(self.model.witch_poison) {
                let herself =
                    !(shown && victim == w) && self.rng.chance(self.model.witch_poisons_herself);
                let targets: Vec<usize> = living
                    .iter()
                    .copied()
                    .filter(|&t| t != w && (!shown || t != victim))
                    .collect();
                poisoned = if herself {
                    Some(w)
                } else {
                    self.rng.pick(&targets)
                };
                if poisoned.is_some() {
                    self.poison = false;
                }
            }
        }
        let victim_dies = !saved && guarded != Some(victim);
        let mut deaths = Vec::new();
        if victim_dies {
            deaths.push(victim);
        }
        // A blind poison may land on the victim: one death, by poison.
        deaths.extend(poisoned.filter(|&p| !(victim_dies && p == victim)));
        if self.rng.chance(0.5) {
            deaths.reverse();
        }
        let logged = match self.viewer {
            Some((v, Known::Role(Role::Guard))) if self.alive[v] && self.rng.chance(0.7) => guarded,
            _ => None,
        };
        // The witch viewer logs her own night, most nights.
        if let (Some((v, Known::Role(Role::Witch))), Some(shown)) = (self.viewer, view) {
            if self.alive[v] && self.rng.chance(0.7) {
                self.events.push(RoleEvent::WitchNight {
                    shown: shown.map(seat),
                    saved,
                    poisoned: poisoned.map(seat),
                });
            }
        }
        for &d in &deaths {
            self.alive[d] = false;
        }
        self.events.push(RoleEvent::Night {
            deaths: deaths.iter().map(|&d| seat(d)).collect(),
            guarded: logged.map(seat),
        });
        self.consequences((victim_dies && poisoned != Some(victim)).then_some(victim));
    }

    /// The viewer's knowledge of the first night, logged or not: a wolf's
    /// pack; a lover's partner, cupid's pair, or being no lover.
    fn private_knowledge(&mut self) {
        let Some((v, known)) = self.viewer else {
            return;
        };
        if self.roles[v] == Role::Wolf && self.rng.chance(0.7) {
            let wolves = (0..self.roles.len())
                .filter(|&i| self.roles[i] == Role::Wolf)
                .map(seat)
                .collect();
            self.events.push(RoleEvent::Pack { wolves });
        }
        if let Some((a, b)) = self.lovers {
            if !self.rng.chance(0.7) {
                return;
            }
            let pair = if a == v || b == v || known == Known::Role(Role::Cupid) {
                Some((seat(a), seat(b)))
            } else if self.roles[v] != Role::Cupid {
                None
            } else {
                return;
            };
            self.events.push(RoleEvent::Lovers { pair });
        }
    }

    fn day(&mut self) {
        // The seer viewer's own check, claims, behaviour, votes.
        if let Some((v, Known::Role(Role::Seer))) = self.viewer {
            let others: Vec<usize> = self.living().into_iter().filter(|&t| t != v).collect();
            if self.alive[v] && !others.is_empty() && self.rng.chance(0.7) {
                let target = self.rng.pick(&others).unwrap();
                let result = self.report(target, true);
                self.events.push(RoleEvent::SeerCheck {
                    target: seat(target),
                    result,
                });
            }
        }
        for _ in 0..self.rng.below(3) {
            let claimant = self.rng.pick(&self.living()).unwrap();
            let role = [
                Role::Seer,
                Role::Witch,
                Role::Guard,
                Role::Hunter,
                Role::Villager,
                Role::Cupid,
            ][self.rng.below(6)];
            let truthful = self.roles[claimant] == role;
            let check = if role == Role::Seer && self.rng.chance(0.8) {
                let others: Vec<usize> = (0..self.roles.len()).filter(|&t| t != claimant).collect();
                let target = self.rng.pick(&others).unwrap();
                Some((seat(target), self.report(target, truthful)))
            } else {
                None
            };
            self.events.push(RoleEvent::Claim {
                player: seat(claimant),
                role,
                check,
            });
        }
        if self.rng.chance(0.3) {
            let who = self.rng.pick(&self.living()).unwrap();
            let score = (self.rng.below(200) as f64 - 100.0) / 50.0;
            self.events.push(RoleEvent::Behaviour {
                player: seat(who),
                score,
            });
        }
        // A wolf may reveal himself: the day stops at once.
        let wolves: Vec<usize> = self
            .living()
            .into_iter()
            .filter(|&i| self.roles[i] == Role::Wolf)
            .collect();
        if self.rng.chance(0.1) {
            if let Some(wolf) = self.rng.pick(&wolves) {
                self.events
                    .push(RoleEvent::SelfDestruct { player: seat(wolf) });
                return;
            }
        }
        let living = self.living();
        self.votes(&living, &living);
        let chosen = if living.len() >= 3 && self.rng.chance(0.3) {
            let a = self.rng.pick(&living).unwrap();
            let rest: Vec<usize> = living.iter().copied().filter(|&b| b != a).collect();
            let b = self.rng.pick(&rest).unwrap();
            self.events.push(RoleEvent::Tie {
                players: vec![seat(a), seat(b)],
            });
            self.votes(&living, &[a, b]);
            if self.rng.chance(0.3) {
                self.events.push(RoleEvent::NoElimination);
                return;
            }
            [a, b][self.rng.below(2)]
        } else {
            self.rng.pick(&living).unwrap()
        };
        let shown = match self.rng.below(3) {
            0 => None,
            1 => Some(Known::Side(self.roles[chosen].side())),
            _ => Some(Known::Role(self.roles[chosen])),
        };
        self.events.push(RoleEvent::Eliminated {
            player: seat(chosen),
            shown,
        });
        self.alive[chosen] = false;
        self.consequences(Some(chosen));
    }

    /// Some of `voters` vote, each for one of `pool` other than themselves
    /// and their living lover.
    fn votes(&mut self, voters: &[usize], pool: &[usize]) {
        for &voter in voters {
            if !self.rng.chance(0.6) {
                continue;
            }
            let lover = self.partner(voter).filter(|&p| self.alive[p]);
            let choices: Vec<usize> = pool
                .iter()
                .copied()
                .filter(|&t| t != voter && Some(t) != lover)
                .collect();
            if let Some(target) = self.rng.pick(&choices) {
                self.events.push(RoleEvent::Vote {
                    voter: seat(voter),
                    target: seat(target),
                });
            }
        }
    }
}

/// A random legal game of `setup` played for at most `steps` nights and
/// days, with a random viewer (or none).
pub fn random_game(rng: &mut Rng, setup: RoleSetup, model: RoleModel, steps: usize) -> RoleGame {
    let n = setup.players() as usize;
    let mut roles: Vec<Role> = Role::ALL
        .iter()
        .flat_map(|&r| std::iter::repeat_n(r, setup.count(r) as usize))
        .collect();
    for i in (1..n).rev() {
        roles.swap(i, rng.below(i + 1));
    }
    let lovers = setup.has(Role::Cupid).then(|| {
        let a = rng.below(n);
        let b = (a + 1 + rng.below(n - 1)) % n;
        (a.min(b), a.max(b))
    });
    let viewer = match rng.below(4) {
        0 => None,
        1 => {
            let v = rng.below(n);
            Some((v, Known::Side(roles[v].side())))
        }
        _ => {
            // Prefer a viewer whose own events the log holds: the seer,
            // the guard, a wolf (the pack), cupid (the lovers).
            let wanted = [
                Role::Seer,
                Role::Guard,
                Role::Seer,
                Role::Guard,
                Role::Wolf,
                Role::Cupid,
                Role::Witch,
            ][rng.below(7)];
            let v = (0..n).find(|&i| roles[i] == wanted).unwrap_or(rng.below(n));
            Some((v, Known::Role(roles[v])))
        }
    };
    let mut play = Play {
        rng,
        model,
        setup,
        roles,
        lovers,
        alive: vec![true; n],
        antidote: true,
        poison: true,
        last_guarded: None,
        viewer,
        events: Vec::new(),
    };
    play.private_knowledge();
    for step in 0..steps {
        if play.over() {
            break;
        }
        if step % 2 == 0 {
            play.night();
        } else {
            play.day();
        }
    }
    let mut game = RoleGame::new(setup, model, viewer.map(|(v, k)| (seat(v), k))).unwrap();
    for event in play.events {
        let shown = event.to_string();
        game.push(event)
            .unwrap_or_else(|e| panic!("a legal event was refused: {shown}: {e}"));
    }
    game
}

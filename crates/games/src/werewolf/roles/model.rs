//! The generative model of a role game's public events: the prior, the
//! night, deaths and their consequences, votes, claims and checks, and the
//! end of the game, with every free choice a named parameter.
//!
//! Everything the engine computes is exact under this model, and the model
//! is the rules of the seed with the players' free choices given
//! probabilities: what the rules forbid has probability 0 (and a log that
//! needs it is refused), what they allow has a named parameter whose
//! default allows it.

use crate::error::{Error, Result};

use super::super::model::EvidenceModel;

/// The generative model of the role events, on top of the side model
/// ([`EvidenceModel`]: vote weights, the seer's accuracy).
///
/// **Prior.** Uniform over the distinct role assignments (cards of one
/// kind are indistinguishable: plain villagers are interchangeable) and,
/// with cupid, uniform over the pairs of two distinct players he can name
/// (himself included), independent of the roles. The viewer's own role is
/// a hard fact. The lovers exist from the start of the first night (cupid
/// acts before the wolves), so every event of a log, even a day logged
/// before any night, has them.
///
/// **A night** (every `night` event), given the roles, the witch's potions
/// left and the player the guard protected the night before:
/// 1. the wolves knife one of their own (uniformly among the living
///    wolves) with probability [`wolves_knife_wolf`](Self::wolves_knife_wolf),
///    else a living non-wolf uniformly;
/// 2. the guard, if alive, protects one living player uniformly, himself
///    included, never the player he protected the night before (the rules'
///    "never the same player two nights running"); a guard viewer may log
///    his target, which then is a fact;
/// 3. the witch, if alive and still holding the antidote, is told the
///    victim and saves them with probability
///    [`witch_save`](Self::witch_save), never herself (a guarded victim
///    too: she does not know, and her antidote is spent); if she did not
///    save and still holds the poison she poisons with probability
///    [`witch_poison`](Self::witch_poison): herself with probability
///    [`witch_poisons_herself`](Self::witch_poisons_herself) (never when she
///    was shown herself as the victim), else one player uniformly among the
///    living other than herself and the victim she was shown; once the
///    antidote is spent she is shown nobody, so her poison is blind and may
///    land on the victim; at most one potion a night;
/// 4. the victim dies unless guarded or saved (guarded and saved: lives);
///    the poisoned player dies, guarded or not (a poisoned victim dies once,
///    by the poison: a hunter so killed does not shoot).
///
/// The potions left and the guard's last target are hidden states summed
/// out exactly, night by night. An old-style `night_kill` is a night with
/// neither guard nor witch whose victim is village-side (so it clears the
/// guard's last target).
///
/// **A step and its consequences.** A night, an old-style night kill or an
/// elimination is a step; the votes of a day come before the elimination
/// they lead to. Its consequences follow it at once, before anything else
/// happens: when one lover dies the other dies of grief (and never
/// shoots); a hunter killed by the wolves or by the vote shoots with
/// probability [`hunter_shoots`](Self::hunter_shoots) (never when poisoned
/// or dying as a lover) one player still alive, who dies at once (and
/// whose lover then dies of grief). Grief comes first, so a hunter never
/// shoots his own lover; when the step leaves nobody alive he has nobody
/// to shoot, and his silence is no evidence. Whom he shoots is his choice, the same under
/// every hypothesis, so it cancels. The log writes them right after the
/// step (`lover_death`, `hunter_shot`), and the game checks its end once
/// they are in.
///
/// **Votes.** A voter weighs every living player other than themselves by
/// the side model's weights (by voter and target side); a lover never
/// votes for the other, whose weight leaves the voter's normalising sum.
/// The lovers' third side changes no vote: a lover votes by his own card's
/// side. A revote after a `tie` is among the tied players only, normalised
/// over them.
///
/// **Claims.** A claim "I am r" is made with probability 1 by the holder
/// of r, [`fake_claim`](Self::fake_claim) by a wolf and
/// [`village_fake_claim`](Self::village_fake_claim) by any other
/// village-side player; silence is not evidence.
///
/// **Checks.** The seer's vision of a player reads their card with
/// probability `seer_accuracy` (the side model's, default 1); otherwise it
/// shows a card of the other side: the wolf card for a village-side
/// player, for a wolf a village card drawn uniformly from the village cards
/// other than the seer's own. A true seer reports his vision: in his own
/// `seer` events as the viewer and in a public seer claim alike; the seer
/// viewer's claim of a check she logged tells that same vision (factor 1,
/// and a claim contradicting it is refused). A false
/// seer reports "wolf" with probability
/// [`fake_says_wolf`](Self::fake_says_wolf), else a village card drawn the
/// same way. A check written as a side (wolf / village) is every role of
/// that side, so the side form of a report has the likelihood of the old
/// side-only model.
///
/// **The end.** After each step the game ends if no wolf is alive (the
/// village wins), if the living wolves are at least as many as the other
/// living players (the wolves win), or if a wolf-villager pair of lovers
/// are the last two alive (the lovers win). Such a pair is a third side:
/// while both live, its wolf is out of the pack, so the wolves' parity is
/// the other living wolves against everyone else alive (the lovers
/// included), and the village still has to kill him. Any event after
/// the end is impossible: a hypothesis in which the game had ended gets
/// probability 0, and a log after a public end is refused (at the event
/// that makes the end public, when a fact learned later shows it). An end
/// every hypothesis agrees on has probability exactly 1, and then no
/// elimination can follow, so none has an information gain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoleModel {
    /// The side model: vote weights, seer accuracy.
    pub sides: EvidenceModel,
    /// P(the witch saves the victim she is told about). Default 0.8.
    pub witch_save: f64,
    /// P(the witch poisons someone on a night she did not save). Default 0.3.
    pub witch_poison: f64,
    /// P(a hunter killed normally shoots). Default 0.95.
    pub hunter_shoots: f64,
    /// P(a wolf claims a given village role). Default 0.2.
    pub fake_claim: f64,
    /// P(a village-side player claims a role they do not hold). Default 0.02.
    pub village_fake_claim: f64,
    /// P(a false seer reports "wolf" for the player they name). Default 0.5.
    pub fake_says_wolf: f64,
    /// P(the wolves knife one of their own at night). The rules allow it
    /// (an advanced play: the witch may waste her antidote on a wolf), so
    /// the default is positive but small: 0.05. 0 forbids it.
    pub wolves_knife_wolf: f64,
    /// P(the witch's poison is for herself, on a night she poisons and is
    /// not the victim). The rules allow it; the default is small: 0.01.
    /// 0 forbids it.
    pub witch_poisons_herself: f64,
}

impl Default for RoleModel {
    fn default() -> Self {
        RoleModel {
            sides: EvidenceModel::default(),
            witch_save: 0.8,
            witch_poison: 0.3,
            hunter_shoots: 0.95,
            fake_claim: 0.2,
            village_fake_claim: 0.02,
            fake_says_wolf: 0.5,
            wolves_knife_wolf: 0.05,
            witch_poisons_herself: 0.01,
        }
    }
}

impl RoleModel {
    /// The parameters by name, in documentation order (the names of the
    /// log's `model` fields).
    pub fn named(&self) -> [(&'static str, f64); 8] {
        [
            ("witch_save", self.witch_save),
            ("witch_poison", self.witch_poison),
            ("hunter_shoots", self.hunter_shoots),
            ("fake_claim", self.fake_claim),
            ("village_fake_claim", self.village_fake_claim),
            ("fake_says_wolf", self.fake_says_wolf),
            ("wolves_knife_wolf", self.wolves_knife_wolf),
            ("witch_poisons_herself", self.witch_poisons_herself),
        ]
    }

    /// Check the parameters.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a side-model error or a probability
    /// outside [0, 1].
    pub fn validate(&self) -> Result<()> {
        self.sides.validate()?;
        for (name, p) in self.named() {
            if !(0.0..=1.0).contains(&p) {
                return Err(Error::OutOfRange {
                    what: crate::Argument::RoleModelProbability,
                    detail: format!("{name} = {p}, allowed 0..=1"),
                });
            }
        }
        Ok(())
    }
}

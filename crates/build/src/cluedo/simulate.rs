//! Simulated Cluedo games for benchmarks and tests: a seeded random deal,
//! suggestions answered by the rules, written down as the game log of one
//! seat (consistent by construction).
//!
//! - [`simulated_log`]: a mid-game log after random suggestions (the
//!   engine benchmarks' workload).
//! - [`solitaire`]: only I suggest, ranked by an [`Objective`], until the
//!   envelope is certain (the policy comparison).
//! - [`race`]: every player suggests in turn; one is advised, the others
//!   suggest the most likely triple; each accuses when certain (or, for the
//!   advised player, by an [`AccuseRule`]), and the first right accusation
//!   wins. [`race_with`] shares a [`RaceMemo`] between races: races on the
//!   same deal replay the same turns until their choices differ.
//!
//! **Fair answers.** Which card a responder shows is not drawn from a
//! running random stream (which would diverge between two policies as soon
//! as they ask different things) but read from a hash of (seed, turn,
//! responder, the three cards named): two policies asking the same thing at
//! the same turn of the same deal get the same answer, so paired
//! comparisons only differ where the policies do. [`Responders`] says how
//! the hash becomes a choice: uniformly among the named cards held (what the
//! `uniform-responder` model assumes), or by a fixed per-player preference
//! (a habit that model does not expect, to measure what a mismatched model
//! costs).

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use gametab_games::cluedo::{
    accusation, advise_by, Card, CardSet, Category, Deck, GameLog, Knowledge, LoggedAccusation,
    LoggedSuggestion, Model, Numbering, Objective, Rules, Seat,
};

/// A small deterministic generator (xorshift64*), so that runs repeat.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

impl Rng {
    fn seeded(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// A card of `set`, uniformly.
    fn pick(&mut self, set: CardSet) -> Card {
        let cards: Vec<Card> = set.cards().collect();
        cards[self.below(cards.len())]
    }
}

/// A random standard deal for `players` (3..=6): the deck and every seat's
/// hand (the envelope holds the rest).
fn deal(players: usize, rng: &mut Rng) -> (Deck, Vec<CardSet>) {
    let rules = Rules::standard(players).expect("3 to 6 players");
    let deck = *rules.deck();
    let envelope = Category::ALL.iter().fold(CardSet::EMPTY, |set, &c| {
        set.with(rng.pick(deck.category_cards(c)))
    });
    let mut rest: Vec<Card> = deck.all_cards().minus(envelope).cards().collect();
    for i in (1..rest.len()).rev() {
        rest.swap(i, rng.below(i + 1));
    }
    let mut hands = vec![CardSet::EMPTY; players];
    for (i, card) in rest.into_iter().enumerate() {
        hands[i % players] = hands[i % players].with(card);
    }
    (deck, hands)
}

/// The log, as seen by seat `me` (0-based), of a random `players`-player game after
/// `suggestions` suggestions (players take turns from seat 0).
///
/// # Panics
/// Never for `players` in 3..=6 and `me < players`; other values panic
/// (this is a test and benchmark helper).
pub fn simulated_log(players: usize, me: u8, suggestions: usize, seed: u64) -> GameLog {
    let mut rng = Rng::seeded(seed);
    let (deck, hands) = deal(players, &mut rng);
    let name = |c: Card| deck.card_name(c);
    let mut log = GameLog {
        players,
        viewer: me,
        numbering: Numbering::FromOne,
        names: Vec::new(),
        hand: hands[usize::from(me)].cards().map(name).collect(),
        suggestions: Vec::new(),
        accusations: Vec::new(),
        facts: Vec::new(),
    };
    for turn in 0..suggestions {
        let by = Seat((turn % players) as u8);
        let named = Category::ALL.iter().fold(CardSet::EMPTY, |set, &c| {
            set.with(rng.pick(deck.category_cards(c)))
        });
        let mut shown_by = None;
        let mut card = None;
        for step in 1..players {
            let responder = (by.index() + step) % players;
            let held = hands[responder].and(named);
            if !held.is_empty() {
                shown_by = Some(responder as u8);
                let shown = rng.pick(held);
                if by.0 == me || responder == usize::from(me) {
                    card = Some(name(shown));
                }
                break;
            }
        }
        log.suggestions.push(LoggedSuggestion {
            by: by.0,
            cards: named.cards().map(name).collect(),
            shown_by,
            card,
        });
    }
    log
}

/// How simulated responders pick the card they show among the named cards
/// they hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Responders {
    /// Uniformly (the `uniform-responder` model's assumption), from the
    /// hash of the question.
    Uniform,
    /// Always the held card a fixed, per-player random preference ranks
    /// first (drawn from the deal's seed).
    Habit,
}

impl Responders {
    /// Both behaviours.
    pub const ALL: [Responders; 2] = [Responders::Uniform, Responders::Habit];

    /// The behaviour's name.
    pub const fn name(self) -> &'static str {
        match self {
            Responders::Uniform => "uniform",
            Responders::Habit => "habit",
        }
    }
}

/// splitmix64's finaliser: a well-mixed 64-bit hash step.
fn mix(mut z: u64) -> u64 {
    z = (z ^ z >> 30).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ z >> 27).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ z >> 31
}

/// The hash of a sequence of words.
fn hash(words: &[u64]) -> u64 {
    words
        .iter()
        .fold(0x243f_6a88_85a3_08d3, |h, &w| mix(h ^ mix(w)))
}

/// A seeded deal and its responders: who holds what, and who shows what to
/// whom.
#[derive(Debug, Clone)]
pub struct Table {
    seed: u64,
    deck: Deck,
    hands: Vec<CardSet>,
    responders: Responders,
}

impl Table {
    /// The deal of `seed` for `players` (3..=6) with `responders`.
    ///
    /// # Panics
    /// For `players` outside 3..=6 (a benchmark helper).
    pub fn new(players: usize, seed: u64, responders: Responders) -> Table {
        let (deck, hands) = deal(players, &mut Rng::seeded(seed));
        Table {
            seed,
            deck,
            hands,
            responders,
        }
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.hands.len()
    }

    /// The hand of `seat`.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    /// The envelope.
    pub fn envelope(&self) -> CardSet {
        self.deck
            .all_cards()
            .minus(self.hands.iter().fold(CardSet::EMPTY, |a, &h| a.or(h)))
    }

    /// The answer to `by` naming `named` at `turn`: the first player from
    /// `by`'s left holding a named card and the card shown.
    pub fn answer(&self, turn: usize, by: Seat, named: CardSet) -> Option<(Seat, Card)> {
        let n = self.players();
        (1..n).find_map(|step| {
            let responder = Seat(((by.index() + step) % n) as u8);
            let held = self.hands[responder.index()].and(named);
            let cards: Vec<Card> = held.cards().collect();
            if cards.is_empty() {
                return None;
            }
            let card = match self.responders {
                Responders::Uniform => {
                    let h = hash(&[
                        self.seed,
                        turn as u64,
                        u64::from(responder.0),
                        named.0.into(),
                    ]);
                    cards[(h % cards.len() as u64) as usize]
                }
                Responders::Habit => *cards
                    .iter()
                    .min_by_key(|c| hash(&[self.seed, u64::from(responder.0), c.0.into(), 7]))
                    .unwrap_or(&cards[0]),
            };
            Some((responder, card))
        })
    }

    /// An empty log for `seat`.
    fn log(&self, seat: Seat) -> GameLog {
        GameLog {
            players: self.players(),
            viewer: seat.0,
            numbering: Numbering::FromOne,
            names: Vec::new(),
            hand: self
                .hand(seat)
                .cards()
                .map(|c| self.deck.card_name(c))
                .collect(),
            suggestions: Vec::new(),
            accusations: Vec::new(),
            facts: Vec::new(),
        }
    }
}

/// How a simulated player picks a suggestion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// The ranking's objective.
    pub objective: Objective,
    /// How the player reads past answers.
    pub model: Model,
    /// The player's first this many suggestions are the best of those
    /// naming a dead card (to measure what one costs); 0 for the ranking's
    /// own choice throughout.
    pub dead_first: usize,
}

impl Policy {
    /// The ranking by `objective`, past answers read with `model`.
    pub fn new(objective: Objective, model: Model) -> Policy {
        Policy {
            objective,
            model,
            dead_first: 0,
        }
    }

    /// The policy a bench names: an objective's name, with `+deadK` for
    /// [`Policy::dead_first`] = K (e.g. `certainty+dead1`).
    ///
    /// # Errors
    /// An unknown objective or a malformed suffix.
    pub fn parse(name: &str, model: Model) -> gametab_games::Result<Policy> {
        let (objective, dead) = match name.split_once("+dead") {
            Some((objective, k)) => (
                objective,
                k.parse().map_err(|_| gametab_games::Error::OutOfRange {
                    what: gametab_games::Argument::Policy,
                    detail: format!("{name:?}: want OBJECTIVE or OBJECTIVE+deadK"),
                })?,
            ),
            None => (name, 0),
        };
        Ok(Policy {
            dead_first: dead,
            ..Policy::new(Objective::parse(objective)?, model)
        })
    }

    /// The policy's name, as [`Policy::parse`] reads it.
    pub fn name(&self) -> String {
        match self.dead_first {
            0 => self.objective.name().to_string(),
            k => format!("{}+dead{k}", self.objective.name()),
        }
    }

    /// The suggestion this policy makes from `log` (whose `viewer` is the
    /// suggester), having made `made` suggestions before.
    fn suggest(
        &self,
        log: &GameLog,
        made: usize,
        memo: &mut RaceMemo,
    ) -> gametab_games::Result<[Card; 3]> {
        let knowledge = log.knowledge()?;
        let dead = made < self.dead_first;
        if self.objective == Objective::MostLikely && !dead {
            // The ranking's first entry, without scoring the others.
            return Ok(memo.accusation(&knowledge, self.model)?.0);
        }
        let key = (knowledge, self.objective, self.model, dead);
        if let Some(&cards) = memo.suggestions.get(&key) {
            return Ok(cards);
        }
        let knowledge = &key.0;
        let advice = advise_by(
            knowledge,
            self.model,
            Seat(log.viewer),
            None,
            self.objective,
        )?;
        let pick = advice
            .ranking
            .iter()
            .find(|s| !dead || !s.dead.is_empty())
            .unwrap_or(&advice.ranking[0]);
        memo.suggestions.insert(key, pick.cards);
        Ok(pick.cards)
    }
}

/// The answers the simulated players have computed, by what they knew.
///
/// Every choice of a simulated player is a function of their knowledge
/// alone (and of their policy): the suggestion an objective ranks first,
/// the most likely triple and its chance. Races on the same deal with
/// another advice policy or another accusation rule replay the same turns
/// until the advised player's choices differ (an accusation rule changes
/// nothing before the player accuses), and every opponent asks for the
/// most likely triple at the start of a turn, to suggest it, and after the
/// answer. Kept here, each is computed once; the races' results are the
/// same with a memo as without (a test compares them).
#[derive(Debug, Default)]
pub struct RaceMemo {
    accusations: HashMap<(Knowledge, Model), ([Card; 3], f64)>,
    suggestions: HashMap<(Knowledge, Objective, Model, bool), [Card; 3]>,
}

impl RaceMemo {
    /// An empty memo.
    pub fn new() -> RaceMemo {
        RaceMemo::default()
    }

    /// [`accusation`] of `knowledge` under `model`, computed once.
    fn accusation(
        &mut self,
        knowledge: &Knowledge,
        model: Model,
    ) -> gametab_games::Result<([Card; 3], f64)> {
        match self.accusations.entry((knowledge.clone(), model)) {
            Entry::Occupied(found) => Ok(*found.get()),
            Entry::Vacant(new) => Ok(*new.insert(accusation(knowledge, model)?)),
        }
    }
}

/// Record `by`'s suggestion of `named` and its answer in `log` (the card
/// only if the log's owner suggested or showed it).
fn record(log: &mut GameLog, deck: &Deck, by: Seat, named: CardSet, answer: Option<(Seat, Card)>) {
    let me = log.viewer;
    log.suggestions.push(LoggedSuggestion {
        by: by.0,
        cards: named.cards().map(|c| deck.card_name(c)).collect(),
        shown_by: answer.map(|a| a.0 .0),
        card: answer
            .filter(|a| by.0 == me || a.0 .0 == me)
            .map(|a| deck.card_name(a.1)),
    });
}

/// Whether the envelope is certain to the owner of `log` (the support is
/// the same under both models).
fn certain(log: &GameLog, memo: &mut RaceMemo) -> gametab_games::Result<bool> {
    Ok(memo.accusation(&log.knowledge()?, Model::EqualDeals)?.1 >= 1.0)
}

/// Play the deal of `table` with only seat 0 suggesting, by `policy`,
/// until the envelope is certain. Returns how many suggestions that took,
/// or `None` when `limit` was reached first.
///
/// # Errors
/// Engine errors (none for consistent simulated logs).
pub fn solitaire(
    table: &Table,
    policy: Policy,
    limit: usize,
) -> gametab_games::Result<Option<usize>> {
    let me = Seat(0);
    let mut log = table.log(me);
    let mut memo = RaceMemo::new();
    for made in 0..=limit {
        if certain(&log, &mut memo)? {
            return Ok(Some(made));
        }
        if made == limit {
            break;
        }
        let named = CardSet::of(&policy.suggest(&log, made, &mut memo)?);
        let answer = table.answer(made, me, named);
        record(&mut log, &table.deck, me, named, answer);
    }
    Ok(None)
}

/// When the advised player of a [`race`] accuses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AccuseRule {
    /// Only when certain.
    WhenCertain,
    /// When certain, or when the most likely triple has at least this
    /// chance after the player's own suggestion.
    AtLeast(f64),
}

/// The end of a race.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RaceResult {
    /// The winner (`None`: everybody accused wrongly, or the turn limit).
    pub winner: Option<Seat>,
    /// Turns played (suggestions made).
    pub turns: usize,
    /// Whether the advised player accused before being certain.
    pub gambled: bool,
    /// Per seat, the turns it took (each a suggestion, or an accusation
    /// at the start of the turn) before the race ended.
    pub turns_of: Vec<usize>,
}

/// A race on `table`: every player takes turns from seat 0; `advised`
/// follows `policy` and `rule`, the others suggest the most likely triple
/// (read with `policy.model`) and accuse when certain. A player certain at
/// the start of their turn accuses at once; otherwise they suggest and may
/// accuse after the answer. A wrong accusation puts its maker out (they
/// still answer suggestions, and everybody learns the triple is not the
/// envelope). At most `limit` turns.
///
/// # Errors
/// Engine errors (none for consistent simulated logs).
pub fn race(
    table: &Table,
    advised: Seat,
    policy: Policy,
    rule: AccuseRule,
    limit: usize,
) -> gametab_games::Result<RaceResult> {
    race_with(table, advised, policy, rule, limit, &mut RaceMemo::new())
}

/// [`race`], the players' choices looked up in `memo` first (and kept
/// there): the same result, faster when races on the same deal share it.
///
/// # Errors
/// As [`race`].
pub fn race_with(
    table: &Table,
    advised: Seat,
    policy: Policy,
    rule: AccuseRule,
    limit: usize,
    memo: &mut RaceMemo,
) -> gametab_games::Result<RaceResult> {
    let n = table.players();
    let others = Policy::new(Objective::MostLikely, policy.model);
    let mut logs: Vec<GameLog> = (0..n).map(|s| table.log(Seat(s as u8))).collect();
    let mut out = vec![false; n];
    let mut turns_of = vec![0usize; n];
    let envelope = table.envelope();
    let mut gambled = false;
    let result = |winner: Option<Seat>, turns: usize, gambled: bool, turns_of: &[usize]| {
        Ok(RaceResult {
            winner,
            turns,
            gambled,
            turns_of: turns_of.to_vec(),
        })
    };
    for turn in 0..limit {
        let by = Seat((turn % n) as u8);
        if out.iter().all(|&o| o) {
            break;
        }
        if out[by.index()] {
            continue;
        }
        turns_of[by.index()] += 1;
        let log = &logs[by.index()];
        let (likely, p) = memo.accusation(&log.knowledge()?, policy.model)?;
        if p >= 1.0 {
            let winner = (CardSet::of(&likely) == envelope).then_some(by);
            return result(winner, turn, gambled, &turns_of);
        }
        let mine = if by == advised { policy } else { others };
        let named = CardSet::of(&mine.suggest(log, turns_of[by.index()] - 1, memo)?);
        let answer = table.answer(turn, by, named);
        for log in &mut logs {
            record(log, &table.deck, by, named, answer);
        }
        let (likely, p) = memo.accusation(&logs[by.index()].knowledge()?, policy.model)?;
        let accuse =
            p >= 1.0 || (by == advised && matches!(rule, AccuseRule::AtLeast(t) if p >= t));
        if accuse {
            gambled = gambled || p < 1.0;
            if CardSet::of(&likely) == envelope {
                return result(Some(by), turn + 1, gambled, &turns_of);
            }
            // Wrong: the accuser is out, and everybody learns the triple
            // is not the envelope.
            out[by.index()] = true;
            for log in &mut logs {
                log.accusations.push(LoggedAccusation {
                    by: by.0,
                    cards: likely.iter().map(|&c| table.deck.card_name(c)).collect(),
                });
            }
        }
    }
    result(None, limit, gambled, &turns_of)
}

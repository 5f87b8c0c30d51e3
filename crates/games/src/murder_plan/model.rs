//! The Murder Plan rules (Tragedy Looper): states, cards, full actions, the
//! resolution of one turn, the brain's ability, the win check and the
//! axis-swap symmetry. See `docs/murder-plan.md`.
//!
//! Positions are relative to the key person: `x = pos(brain) - pos(key
//! person)` and `y = pos(killer) - pos(key person)`, vectors of F2^2. An
//! [`Offset`] stores a vector `(a, b)` as the number `2a + b`, so that the
//! horizontal move `(1, 0)` is 2, the vertical `(0, 1)` is 1 and the diagonal
//! `(1, 1)` is 3, and moving is XOR.
//!
//! At about 620 lines this file is over the project's ~600-line guide on
//! purpose: it is the whole rule book in one place (every type here is used
//! by the turn resolution below it), so that the rules can be read against
//! the spec top to bottom; its tests are in `model_tests.rs`.

use std::fmt;

/// Killer intrigue at which the mastermind wins (and its cap).
pub const KILLER_INTRIGUE_CAP: u8 = 4;
/// Key-person intrigue needed to win with the killer present (and its cap).
pub const KEY_PERSON_INTRIGUE_CAP: u8 = 2;
/// Forbid-movement cards the protagonists hold at the start (uses per game).
pub const FORBID_MOVEMENT_CARDS: u8 = 3;
/// Number of distinct states (including winning ones): the size of the dense
/// [`State::index`] space.
pub const STATE_COUNT: usize = 4 * 4 * 5 * 3 * 2 * 2 * 4;

/// A vector of F2^2: a relative position or a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Offset(u8);

impl Offset {
    /// The zero vector: same area.
    pub const ZERO: Offset = Offset(0);
    /// The horizontal move `e_x = (1, 0)`.
    pub const HORIZONTAL: Offset = Offset(2);
    /// The vertical move `e_y = (0, 1)`.
    pub const VERTICAL: Offset = Offset(1);
    /// The diagonal move `e_d = (1, 1)`.
    pub const DIAGONAL: Offset = Offset(3);

    /// The vector `(first, second)`; each component must be 0 or 1.
    pub fn new(first: u8, second: u8) -> Option<Offset> {
        (first <= 1 && second <= 1).then_some(Offset(2 * first + second))
    }

    /// The vector with code `2 * first + second` (0..=3).
    pub fn from_code(code: u8) -> Option<Offset> {
        (code <= 3).then_some(Offset(code))
    }

    /// The code `2 * first + second`.
    pub fn code(self) -> u8 {
        self.0
    }

    /// First (horizontal) component.
    pub fn first(self) -> u8 {
        self.0 >> 1
    }

    /// Second (vertical) component.
    pub fn second(self) -> u8 {
        self.0 & 1
    }

    /// Vector addition in F2^2.
    pub fn plus(self, other: Offset) -> Offset {
        Offset(self.0 ^ other.0)
    }

    /// The image under the axis swap `(a, b) -> (b, a)`.
    pub fn swapped(self) -> Offset {
        Offset(((self.0 & 1) << 1) | (self.0 >> 1))
    }
}

impl fmt::Display for Offset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.first(), self.second())
    }
}

/// The limited cards still available.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LimitedCards {
    /// The mastermind's diagonal card (once per game).
    pub diagonal: bool,
    /// The mastermind's intrigue+2 card (once per game).
    pub intrigue_plus_two: bool,
    /// Forbid-movement uses left to the protagonists (0..=3).
    pub forbid_movement: u8,
}

impl LimitedCards {
    /// Everything available: the start of a game.
    pub const ALL: LimitedCards = LimitedCards {
        diagonal: true,
        intrigue_plus_two: true,
        forbid_movement: FORBID_MOVEMENT_CARDS,
    };

    /// Dense index in 0..16.
    pub fn index(self) -> usize {
        (usize::from(self.diagonal) * 2 + usize::from(self.intrigue_plus_two)) * 4
            + usize::from(self.forbid_movement)
    }

    /// Inverse of [`LimitedCards::index`].
    pub fn from_index(index: usize) -> Option<LimitedCards> {
        (index < 16).then_some(LimitedCards {
            diagonal: index / 8 == 1,
            intrigue_plus_two: (index / 4) % 2 == 1,
            forbid_movement: (index % 4) as u8,
        })
    }
}

/// A full game state between turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct State {
    /// `x = pos(brain) - pos(key person)`.
    pub brain: Offset,
    /// `y = pos(killer) - pos(key person)`.
    pub killer: Offset,
    /// Killer intrigue `c`, capped at 4.
    pub killer_intrigue: u8,
    /// Key-person intrigue `h`, capped at 2.
    pub key_person_intrigue: u8,
    /// Limited cards still available.
    pub limited: LimitedCards,
}

impl State {
    /// A start state: the given relative positions, no intrigue, every
    /// limited card available.
    pub fn start(brain: Offset, killer: Offset) -> State {
        State {
            brain,
            killer,
            killer_intrigue: 0,
            key_person_intrigue: 0,
            limited: LimitedCards::ALL,
        }
    }

    /// The 16 start states, in index order.
    pub fn starts() -> impl Iterator<Item = State> {
        (0..16u8).map(|i| State::start(Offset(i / 4), Offset(i % 4)))
    }

    /// The same state with intrigue clamped to the caps, as the game does
    /// (larger values never change the outcome).
    pub fn clamped(self) -> State {
        State {
            killer_intrigue: self.killer_intrigue.min(KILLER_INTRIGUE_CAP),
            key_person_intrigue: self.key_person_intrigue.min(KEY_PERSON_INTRIGUE_CAP),
            limited: LimitedCards {
                forbid_movement: self.limited.forbid_movement.min(FORBID_MOVEMENT_CARDS),
                ..self.limited
            },
            ..self
        }
    }

    /// Dense index in `0..STATE_COUNT`, ordered like the table key columns
    /// (brain_x, brain_y, killer_x, killer_y, killer_intrigue,
    /// key_person_intrigue, diagonal_left, intrigue2_left,
    /// forbid_movement_left). The state must be within the caps.
    pub fn index(self) -> usize {
        let positions = usize::from(self.brain.0) * 4 + usize::from(self.killer.0);
        let intrigue =
            usize::from(self.killer_intrigue) * 3 + usize::from(self.key_person_intrigue);
        (positions * 15 + intrigue) * 16 + self.limited.index()
    }

    /// Inverse of [`State::index`].
    pub fn from_index(index: usize) -> Option<State> {
        if index >= STATE_COUNT {
            return None;
        }
        let limited = LimitedCards::from_index(index % 16)?;
        let intrigue = (index / 16) % 15;
        let positions = index / 16 / 15;
        Some(State {
            brain: Offset((positions / 4) as u8),
            killer: Offset((positions % 4) as u8),
            killer_intrigue: (intrigue / 3) as u8,
            key_person_intrigue: (intrigue % 3) as u8,
            limited,
        })
    }

    /// Every state within the caps, in index order.
    pub fn all() -> impl Iterator<Item = State> {
        (0..STATE_COUNT).filter_map(State::from_index)
    }

    /// The mastermind has won: killer intrigue 4, or the killer with the key
    /// person while the key person has intrigue 2.
    pub fn is_win(self) -> bool {
        self.killer_intrigue >= KILLER_INTRIGUE_CAP
            || (self.killer == Offset::ZERO && self.key_person_intrigue >= KEY_PERSON_INTRIGUE_CAP)
    }

    /// The image under the axis swap (positions mirrored, horizontal and
    /// vertical exchanged).
    pub fn swapped(self) -> State {
        State {
            brain: self.brain.swapped(),
            killer: self.killer.swapped(),
            ..self
        }
    }

    /// The representative of the state's symmetry class: the one of the
    /// state and its swap with the smaller index.
    pub fn canonical(self) -> State {
        let swapped = self.swapped();
        if swapped.index() < self.index() {
            swapped
        } else {
            self
        }
    }

    /// Whether the state is its class's representative.
    pub fn is_canonical(self) -> bool {
        self.canonical() == self
    }
}

/// A mastermind card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MastermindCard {
    /// Move horizontally.
    Horizontal,
    /// Move vertically.
    Vertical,
    /// Move diagonally (limited: once per game).
    Diagonal,
    /// +1 intrigue.
    IntriguePlusOne,
    /// +2 intrigue (limited: once per game).
    IntriguePlusTwo,
    /// No effect (3 in hand).
    Blank,
}

/// A protagonists' card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtagonistCard {
    /// Move horizontally (3 in hand).
    Horizontal,
    /// Move vertically (3 in hand).
    Vertical,
    /// Cancel the character's movement (limited: 3 uses per game).
    ForbidMovement,
    /// Cancel intrigue on the character.
    ForbidIntrigue,
    /// No effect (3 in hand).
    Blank,
}

impl MastermindCard {
    /// Every card kind, in the canonical order.
    pub const ALL: [MastermindCard; 6] = [
        MastermindCard::Horizontal,
        MastermindCard::Vertical,
        MastermindCard::Diagonal,
        MastermindCard::IntriguePlusOne,
        MastermindCard::IntriguePlusTwo,
        MastermindCard::Blank,
    ];

    /// The label used in the tables and on the command line.
    pub fn label(self) -> &'static str {
        match self {
            MastermindCard::Horizontal => "horizontal",
            MastermindCard::Vertical => "vertical",
            MastermindCard::Diagonal => "diagonal",
            MastermindCard::IntriguePlusOne => "intrigue+1",
            MastermindCard::IntriguePlusTwo => "intrigue+2",
            MastermindCard::Blank => "blank",
        }
    }

    /// The card with this label.
    pub fn from_label(label: &str) -> Option<MastermindCard> {
        MastermindCard::ALL.into_iter().find(|c| c.label() == label)
    }

    /// How many of this card the mastermind may play in one turn.
    fn copies(self, limited: LimitedCards) -> u8 {
        match self {
            MastermindCard::Diagonal => u8::from(limited.diagonal),
            MastermindCard::IntriguePlusTwo => u8::from(limited.intrigue_plus_two),
            MastermindCard::Blank => 3,
            _ => 1,
        }
    }

    fn movement(self) -> Option<Offset> {
        match self {
            MastermindCard::Horizontal => Some(Offset::HORIZONTAL),
            MastermindCard::Vertical => Some(Offset::VERTICAL),
            MastermindCard::Diagonal => Some(Offset::DIAGONAL),
            _ => None,
        }
    }

    fn intrigue(self) -> u8 {
        match self {
            MastermindCard::IntriguePlusOne => 1,
            MastermindCard::IntriguePlusTwo => 2,
            _ => 0,
        }
    }

    /// The card's image under the axis swap.
    pub fn swapped(self) -> MastermindCard {
        match self {
            MastermindCard::Horizontal => MastermindCard::Vertical,
            MastermindCard::Vertical => MastermindCard::Horizontal,
            other => other,
        }
    }
}

impl ProtagonistCard {
    /// Every card kind, in the canonical order.
    pub const ALL: [ProtagonistCard; 5] = [
        ProtagonistCard::Horizontal,
        ProtagonistCard::Vertical,
        ProtagonistCard::ForbidMovement,
        ProtagonistCard::ForbidIntrigue,
        ProtagonistCard::Blank,
    ];

    /// The label used in the tables and on the command line.
    pub fn label(self) -> &'static str {
        match self {
            ProtagonistCard::Horizontal => "horizontal",
            ProtagonistCard::Vertical => "vertical",
            ProtagonistCard::ForbidMovement => "forbid-movement",
            ProtagonistCard::ForbidIntrigue => "forbid-intrigue",
            ProtagonistCard::Blank => "blank",
        }
    }

    /// The card with this label.
    pub fn from_label(label: &str) -> Option<ProtagonistCard> {
        ProtagonistCard::ALL
            .into_iter()
            .find(|c| c.label() == label)
    }

    /// How many of this card the protagonists may play in one turn.
    fn copies(self, limited: LimitedCards) -> u8 {
        match self {
            ProtagonistCard::ForbidMovement => limited.forbid_movement.min(FORBID_MOVEMENT_CARDS),
            ProtagonistCard::ForbidIntrigue => 1,
            _ => 3,
        }
    }

    fn movement(self) -> Option<Offset> {
        match self {
            ProtagonistCard::Horizontal => Some(Offset::HORIZONTAL),
            ProtagonistCard::Vertical => Some(Offset::VERTICAL),
            _ => None,
        }
    }

    /// The card's image under the axis swap.
    pub fn swapped(self) -> ProtagonistCard {
        match self {
            ProtagonistCard::Horizontal => ProtagonistCard::Vertical,
            ProtagonistCard::Vertical => ProtagonistCard::Horizontal,
            other => other,
        }
    }
}

/// One side's full action: the cards put on the key person, the brain and
/// the killer, in that order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Placement<Card> {
    /// Card on the key person.
    pub key_person: Card,
    /// Card on the brain.
    pub brain: Card,
    /// Card on the killer.
    pub killer: Card,
}

/// The mastermind's full action.
pub type MastermindAction = Placement<MastermindCard>;
/// The protagonists' full action.
pub type ProtagonistAction = Placement<ProtagonistCard>;

impl<Card: Copy + PartialEq> Placement<Card> {
    /// The three cards in the order key person, brain, killer.
    pub fn cards(self) -> [Card; 3] {
        [self.key_person, self.brain, self.killer]
    }

    fn count(self, card: Card) -> u8 {
        self.cards().iter().filter(|&&c| c == card).count() as u8
    }
}

impl MastermindAction {
    /// The action's image under the axis swap.
    pub fn swapped(self) -> MastermindAction {
        Placement {
            key_person: self.key_person.swapped(),
            brain: self.brain.swapped(),
            killer: self.killer.swapped(),
        }
    }
}

impl ProtagonistAction {
    /// The action's image under the axis swap.
    pub fn swapped(self) -> ProtagonistAction {
        Placement {
            key_person: self.key_person.swapped(),
            brain: self.brain.swapped(),
            killer: self.killer.swapped(),
        }
    }
}

fn placements<Card: Copy + PartialEq>(
    kinds: &[Card],
    copies: impl Fn(Card) -> u8,
) -> Vec<Placement<Card>> {
    let mut out = Vec::new();
    for &key_person in kinds {
        for &brain in kinds {
            for &killer in kinds {
                let action = Placement {
                    key_person,
                    brain,
                    killer,
                };
                if kinds.iter().all(|&k| action.count(k) <= copies(k)) {
                    out.push(action);
                }
            }
        }
    }
    out
}

/// The mastermind's legal full actions with these limited cards, in the
/// canonical (lexicographic) order.
pub fn mastermind_actions(limited: LimitedCards) -> Vec<MastermindAction> {
    placements(&MastermindCard::ALL, |c| c.copies(limited))
}

/// The protagonists' legal full actions with these limited cards, in the
/// canonical (lexicographic) order.
pub fn protagonist_actions(limited: LimitedCards) -> Vec<ProtagonistAction> {
    placements(&ProtagonistCard::ALL, |c| c.copies(limited))
}

/// What one turn's cards do, independent of the state they are played in:
/// the moves of each character, the intrigue added and the limited cards
/// consumed. Many action pairs share an outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TurnOutcome {
    /// Net move of the key person.
    pub key_person_move: Offset,
    /// Net move of the brain.
    pub brain_move: Offset,
    /// Net move of the killer.
    pub killer_move: Offset,
    /// Intrigue added to the killer (before the cap).
    pub killer_intrigue: u8,
    /// Intrigue added to the key person (before the cap).
    pub key_person_intrigue: u8,
    /// The diagonal card was played.
    pub diagonal_used: bool,
    /// The intrigue+2 card was played.
    pub intrigue_plus_two_used: bool,
    /// Forbid-movement cards played.
    pub forbid_movement_used: u8,
}

/// Combine the two sides' moves on one character.
fn combined_move(mastermind: Option<Offset>, protagonists: Option<Offset>) -> Offset {
    match (mastermind, protagonists) {
        (None, None) => Offset::ZERO,
        (Some(m), None) => m,
        (None, Some(p)) => p,
        (Some(m), Some(p)) if m == p => m,
        (Some(m), Some(p)) => m.plus(p),
    }
}

fn character_move(mastermind: MastermindCard, protagonists: ProtagonistCard) -> Offset {
    if protagonists == ProtagonistCard::ForbidMovement {
        Offset::ZERO
    } else {
        combined_move(mastermind.movement(), protagonists.movement())
    }
}

fn intrigue_added(mastermind: MastermindCard, protagonists: ProtagonistCard) -> u8 {
    if protagonists == ProtagonistCard::ForbidIntrigue {
        0
    } else {
        mastermind.intrigue()
    }
}

/// Resolve the cards of one turn (steps 2 to 4 of the rules).
pub fn resolve(mastermind: MastermindAction, protagonists: ProtagonistAction) -> TurnOutcome {
    TurnOutcome {
        key_person_move: character_move(mastermind.key_person, protagonists.key_person),
        brain_move: character_move(mastermind.brain, protagonists.brain),
        killer_move: character_move(mastermind.killer, protagonists.killer),
        killer_intrigue: intrigue_added(mastermind.killer, protagonists.killer),
        key_person_intrigue: intrigue_added(mastermind.key_person, protagonists.key_person),
        diagonal_used: mastermind.count(MastermindCard::Diagonal) > 0,
        intrigue_plus_two_used: mastermind.count(MastermindCard::IntriguePlusTwo) > 0,
        forbid_movement_used: protagonists.count(ProtagonistCard::ForbidMovement),
    }
}

impl TurnOutcome {
    /// The state after the cards (before the brain's ability): positions
    /// moved, intrigue added and capped, limited cards consumed.
    pub fn apply(self, state: State) -> State {
        State {
            brain: state.brain.plus(self.brain_move).plus(self.key_person_move),
            killer: state
                .killer
                .plus(self.killer_move)
                .plus(self.key_person_move),
            killer_intrigue: (state.killer_intrigue + self.killer_intrigue)
                .min(KILLER_INTRIGUE_CAP),
            key_person_intrigue: (state.key_person_intrigue + self.key_person_intrigue)
                .min(KEY_PERSON_INTRIGUE_CAP),
            limited: LimitedCards {
                diagonal: state.limited.diagonal && !self.diagonal_used,
                intrigue_plus_two: state.limited.intrigue_plus_two && !self.intrigue_plus_two_used,
                forbid_movement: state
                    .limited
                    .forbid_movement
                    .saturating_sub(self.forbid_movement_used),
            },
        }
    }
}

/// The brain's ability: +1 intrigue to one character in the brain's area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BrainTarget {
    /// The killer (legal when the brain is with the killer, `x == y`).
    Killer,
    /// The key person (legal when the brain is with the key person, `x == 0`).
    KeyPerson,
    /// Nobody useful (the brain itself): always legal.
    Nobody,
}

impl BrainTarget {
    /// Every target in tie-break preference order: killer, key person, nobody.
    pub const PREFERENCE: [BrainTarget; 3] = [
        BrainTarget::Killer,
        BrainTarget::KeyPerson,
        BrainTarget::Nobody,
    ];

    /// The label used in the tables.
    pub fn label(self) -> &'static str {
        match self {
            BrainTarget::Killer => "killer",
            BrainTarget::KeyPerson => "key_person",
            BrainTarget::Nobody => "nobody",
        }
    }

    /// The target with this label.
    pub fn from_label(label: &str) -> Option<BrainTarget> {
        BrainTarget::PREFERENCE
            .into_iter()
            .find(|t| t.label() == label)
    }

    /// Whether the target is legal in the post-card state.
    pub fn is_legal(self, post_cards: State) -> bool {
        match self {
            BrainTarget::Killer => post_cards.brain == post_cards.killer,
            BrainTarget::KeyPerson => post_cards.brain == Offset::ZERO,
            BrainTarget::Nobody => true,
        }
    }

    /// The state after the ability (intrigue capped).
    pub fn apply(self, post_cards: State) -> State {
        let mut state = post_cards;
        match self {
            BrainTarget::Killer => {
                state.killer_intrigue = (state.killer_intrigue + 1).min(KILLER_INTRIGUE_CAP)
            }
            BrainTarget::KeyPerson => {
                state.key_person_intrigue =
                    (state.key_person_intrigue + 1).min(KEY_PERSON_INTRIGUE_CAP)
            }
            BrainTarget::Nobody => {}
        }
        state
    }

    /// The legal targets in the post-card state, in preference order.
    pub fn legal(post_cards: State) -> impl Iterator<Item = BrainTarget> {
        BrainTarget::PREFERENCE
            .into_iter()
            .filter(move |t| t.is_legal(post_cards))
    }
}

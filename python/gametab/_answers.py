"""Answers as plain typed objects.

Every answer is the very document the command line prints with ``--json``
(and the HTTP server answers): the native module builds it with the same
Rust builders (crates/answers). An :class:`Answer` holds that document and
gives its fields as attributes; nested objects are :class:`Record` s, lists
stay lists. ``to_dict()`` returns the document itself as plain Python
values, equal to ``json.loads`` of the CLI's output for the same query.

The annotations below name the fields for type checkers and readers; the
values always come from the document, so a field the Rust side renames
shows up under its new name (and a test compares the annotations with the
documents).
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar, Dict, FrozenSet, List, Optional


def _wrap(value: Any) -> Any:
    if isinstance(value, dict):
        return Record(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class Record:
    """A JSON object with its fields as attributes (``rec.value``) and as
    items (``rec["value"]``)."""

    __slots__ = ("_data",)

    _data: Dict[str, Any]

    def __init__(self, data: Dict[str, Any]) -> None:
        object.__setattr__(self, "_data", data)

    def __getattr__(self, name: str) -> Any:
        data = object.__getattribute__(self, "_data")
        try:
            return _wrap(data[name])
        except KeyError:
            if name in type(self)._optional:
                return None
            raise AttributeError(
                f"{type(self).__name__} has no field {name!r} (fields: {', '.join(data)})"
            ) from None

    def __getitem__(self, name: str) -> Any:
        return _wrap(self._data[name])

    def __contains__(self, name: object) -> bool:
        return name in self._data

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("answers are read-only")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Record):
            return self._data == other._data
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    _optional: ClassVar[FrozenSet[str]] = frozenset()

    def fields(self) -> List[str]:
        """The document's field names."""
        return list(self._data)

    def to_dict(self) -> Dict[str, Any]:
        """The document as plain Python values (a copy): equal to the
        command line's ``--json`` output for the same query."""
        return copy.deepcopy(self._data)

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._data))

    def __repr__(self) -> str:
        shown = []
        for key, value in self._data.items():
            if isinstance(value, (dict, list)):
                size = len(value)
                shown.append(f"{key}=<{type(value).__name__} of {size}>")
            else:
                shown.append(f"{key}={value!r}")
            if len(shown) == 6 and len(self._data) > 6:
                shown.append("...")
                break
        return f"{type(self).__name__}({', '.join(shown)})"


class Answer(Record):
    """The answer to one query (see the subclasses for the fields)."""

    __slots__ = ()


# ---- Murder Plan (`gametab lookup ...`) ----


class MurderPlanValue(Answer):
    """``gametab lookup value``: V_d(S), its certificate gap, whether the
    state is reachable and whether the mastermind has already won."""

    __slots__ = ()
    days_left: int
    value: float
    gap: float
    reachable: bool
    mastermind_won: bool


class MurderPlanState(Answer):
    """``gametab lookup state``: everything about one state."""

    __slots__ = ()
    days_left: int
    state: Record
    value: float
    gap: float
    reachable: bool
    mastermind_won: bool
    mastermind_strategy: List[Record]
    protagonists_strategy: List[Record]
    moves: Record


class MurderPlanStrategy(Answer):
    """``gametab lookup strategy``: one side's optimal mixed strategy
    (``strategy``: the cards on each character and their probability)."""

    __slots__ = ()
    days_left: int
    side: str
    value: float
    strategy: List[Record]


class MurderPlanMoves(Answer):
    """``gametab lookup moves``: every legal move of one side with its
    value against the opponent's optimal strategy and its loss, best
    first."""

    __slots__ = ()
    days_left: int
    side: str
    value: float
    gap: float
    moves: List[Record]


class MurderPlanSample(Answer):
    """``gametab lookup sample``: one action drawn from a side's strategy."""

    __slots__ = ()
    days_left: int
    side: str
    u: float
    action: Record


class BrainChoice(Answer):
    """``gametab lookup brain``: the brain's target in a post-card state."""

    __slots__ = ()
    days_left: int
    target: str
    value: float


class WinRate(Answer):
    """``gametab lookup win-rate``: the mastermind's optimal win rate, from
    one start (``brain`` and ``killer`` offsets ``[a, b]``) or on average
    over the 16 starts (both ``None``)."""

    __slots__ = ()
    _optional = frozenset({"brain", "killer"})
    horizon: int
    brain: Optional[List[int]]
    killer: Optional[List[int]]
    start: str
    value: float


class WinRates(Answer):
    """``gametab lookup win-rates``: every horizon's average and starts."""

    __slots__ = ()
    win_rates: List[Record]


class LegalActions(Answer):
    """Every legal action of a side (the cards on the key person, the brain
    and the killer), in the rules' canonical order."""

    __slots__ = ()
    side: str
    actions: List[Record]


class Turn(Answer):
    """One turn of the rules: the state after the cards, the brain's legal
    targets, and the state after the brain's ability when one was given."""

    __slots__ = ()
    _optional = frozenset({"after_brain", "brain_target"})
    mastermind: Record
    protagonists: Record
    after_cards: Record
    brain_targets: List[str]
    brain_target: Optional[str]
    after_brain: Optional[Record]
    mastermind_won: bool


# ---- Liar's Dice ----


class DiceOdds(Answer):
    """``gametab dice --json``: the situation, my matching dice, the odds,
    the bidder's posterior mean and the published rule's advice."""

    __slots__ = ()
    players: int
    situation: Record
    my_matching: int
    odds: Record
    posterior_mean: float
    advice: Record


class DiceTableRow(Answer):
    """A row of a Liar's Dice table (``value``) and where it came from
    (``source``: ``"table"``, or ``"computed"`` off the tables' grid)."""

    __slots__ = ()
    value: Any
    source: str


class DiceDecision(DiceTableRow):
    """The published rule's decision in the standard game (``key``: the
    table's key; ``value``: the action and its expected value)."""

    __slots__ = ()
    key: Record


class EndgamePoint(Answer):
    """``gametab dice endgame --json``: the game (value, exploitability,
    how it was solved) and the point after the history (who moves, the
    mover's equilibrium actions when a hand is given, the posterior over
    the opponent's hand, and ``note`` where a game stored by its support
    answers with the default action: the tables hold no row for that hand
    there)."""

    __slots__ = ()
    game: Record
    point: Record


# ---- Cluedo ----


class CluedoNotebook(Answer):
    """``gametab cluedo --json``: for every card, P(in the envelope) and
    P(each player holds it); ``deals`` is a decimal string."""

    __slots__ = ()
    model: str
    players: List[str]
    deals: str
    cards: List[Record]


class CluedoAdvice(Answer):
    """``gametab cluedo --advise --json``: the suggestions ranked by the
    objective, those naming dead cards apart, and the accusation."""

    __slots__ = ()
    model: str
    objective: Record
    player: str
    live_triples: int
    envelope_entropy_bits: float
    considered: int
    suggestions: List[Record]
    dead_card_suggestions: Record
    accusation: Record


# ---- Werewolf ----


class WerewolfReport(Answer):
    """``gametab werewolf --json``: P(wolf) per player, exact and the
    published baseline, the vote rankings, and for a role log the role
    section (``roles``; ``None`` for a side-only log)."""

    __slots__ = ()
    _optional = frozenset({"roles"})
    players: int
    wolves: int
    rule: str
    wolf_sets: int
    joint_entropy_bits: float
    baseline_entropy_bits: float
    expected_living_wolves: float
    beliefs: List[Record]
    ranking: List[int]
    baseline_ranking: List[int]
    roles: Optional[Record]


__all__ = [
    "Record",
    "Answer",
    "MurderPlanValue",
    "MurderPlanState",
    "MurderPlanStrategy",
    "MurderPlanMoves",
    "MurderPlanSample",
    "BrainChoice",
    "WinRate",
    "WinRates",
    "LegalActions",
    "Turn",
    "DiceOdds",
    "DiceTableRow",
    "DiceDecision",
    "EndgamePoint",
    "CluedoNotebook",
    "CluedoAdvice",
    "WerewolfReport",
]

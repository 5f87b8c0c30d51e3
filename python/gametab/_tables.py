"""A built table set: :func:`open_tables` and what it gives."""

from __future__ import annotations

import os
import pathlib
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, TypeVar, Union

from . import _gametab
from ._answers import (
    BrainChoice,
    DiceDecision,
    DiceTableRow,
    EndgamePoint,
    MurderPlanMoves,
    MurderPlanSample,
    MurderPlanState,
    MurderPlanStrategy,
    MurderPlanValue,
    WinRate,
    WinRates,
)
from ._errors import MissingKeyError, QueryError, TablesError

#: An offset ``(a, b)`` with a, b in {0, 1}, or its text ``"a,b"``.
Offset = Union[Tuple[int, int], Sequence[int], str]
#: A bid ``"COUNTxFACE"`` (``"5x5"``: five fives) or ``(count, face)``.
BidLike = Union[str, Tuple[int, int], Sequence[int]]
#: Dice faces ``"1,5,5,2,3"`` or ``[1, 5, 5, 2, 3]``.
HandLike = Union[str, Sequence[int]]

_T = TypeVar("_T")
_D = TypeVar("_D")

TABLES_VARIABLE = "GAMETAB_TABLES"


def _get(default: _D, query: Callable[[], _T]) -> Union[_T, _D]:
    try:
        return query()
    except (QueryError, MissingKeyError):
        return default


class MurderPlan:
    """The Murder Plan tables of a set (``tables.murder_plan``): the
    queries of ``gametab lookup``, each answer its ``--json`` document.

    A state is the brain's and the killer's offsets from the key person
    (``brain``, ``killer``: ``(0, 1)`` or ``"0,1"``), the intrigues, and
    the limited cards left. ``days`` is the number of turns left (0..=8).

    >>> import gametab
    >>> with gametab.open_tables() as tables:
    ...     answer = tables.murder_plan.value(days=8, brain=(0, 1), killer=(1, 0))
    >>> round(answer.value, 4)
    0.7737
    """

    __slots__ = ("_native",)

    def __init__(self, native: Any) -> None:
        self._native = native

    def _query(
        self,
        query: str,
        days: int,
        brain: Offset,
        killer: Offset,
        killer_intrigue: int,
        key_person_intrigue: int,
        diagonal_left: bool,
        intrigue2_left: bool,
        forbid_movement_left: int,
        side: Optional[str] = None,
        u: Optional[float] = None,
    ) -> Dict[str, Any]:
        result: Dict[str, Any] = self._native.murder_plan_query(
            query,
            days,
            brain,
            killer,
            killer_intrigue,
            key_person_intrigue,
            diagonal_left,
            intrigue2_left,
            forbid_movement_left,
            side,
            u,
        )
        return result

    def value(
        self,
        days: int,
        brain: Offset,
        killer: Offset,
        killer_intrigue: int = 0,
        key_person_intrigue: int = 0,
        diagonal_left: bool = True,
        intrigue2_left: bool = True,
        forbid_movement_left: int = 3,
    ) -> MurderPlanValue:
        """V_d(S): the mastermind's chance to win from the state with
        ``days`` turns left, both sides optimal (``gametab lookup value``)."""
        return MurderPlanValue(
            self._native.murder_plan_query(
                "value",
                days,
                brain,
                killer,
                killer_intrigue,
                key_person_intrigue,
                diagonal_left,
                intrigue2_left,
                forbid_movement_left,
            )
        )

    def state(
        self,
        days: int,
        brain: Offset,
        killer: Offset,
        killer_intrigue: int = 0,
        key_person_intrigue: int = 0,
        diagonal_left: bool = True,
        intrigue2_left: bool = True,
        forbid_movement_left: int = 3,
    ) -> MurderPlanState:
        """Everything about one state: value, gap, both optimal strategies
        and every move of each side (``gametab lookup state``)."""
        return MurderPlanState(
            self._query(
                "state",
                days,
                brain,
                killer,
                killer_intrigue,
                key_person_intrigue,
                diagonal_left,
                intrigue2_left,
                forbid_movement_left,
            )
        )

    def strategy(
        self,
        side: str,
        days: int,
        brain: Offset,
        killer: Offset,
        killer_intrigue: int = 0,
        key_person_intrigue: int = 0,
        diagonal_left: bool = True,
        intrigue2_left: bool = True,
        forbid_movement_left: int = 3,
    ) -> MurderPlanStrategy:
        """One side's (``"mastermind"`` or ``"protagonists"``) optimal mixed
        strategy (``gametab lookup strategy``)."""
        return MurderPlanStrategy(
            self._query(
                "strategy",
                days,
                brain,
                killer,
                killer_intrigue,
                key_person_intrigue,
                diagonal_left,
                intrigue2_left,
                forbid_movement_left,
                side,
            )
        )

    def moves(
        self,
        side: str,
        days: int,
        brain: Offset,
        killer: Offset,
        killer_intrigue: int = 0,
        key_person_intrigue: int = 0,
        diagonal_left: bool = True,
        intrigue2_left: bool = True,
        forbid_movement_left: int = 3,
    ) -> MurderPlanMoves:
        """Every legal move of one side with its value against the
        opponent's optimal strategy and its loss, best first (``gametab
        lookup moves``)."""
        return MurderPlanMoves(
            self._query(
                "moves",
                days,
                brain,
                killer,
                killer_intrigue,
                key_person_intrigue,
                diagonal_left,
                intrigue2_left,
                forbid_movement_left,
                side,
            )
        )

    def sample(
        self,
        side: str,
        days: int,
        u: float,
        brain: Offset,
        killer: Offset,
        killer_intrigue: int = 0,
        key_person_intrigue: int = 0,
        diagonal_left: bool = True,
        intrigue2_left: bool = True,
        forbid_movement_left: int = 3,
    ) -> MurderPlanSample:
        """One side's action drawn from its strategy by ``u`` in [0, 1)
        (``gametab lookup sample``)."""
        return MurderPlanSample(
            self._query(
                "sample",
                days,
                brain,
                killer,
                killer_intrigue,
                key_person_intrigue,
                diagonal_left,
                intrigue2_left,
                forbid_movement_left,
                side,
                u,
            )
        )

    def brain_choice(
        self,
        days: int,
        brain: Offset,
        killer: Offset,
        killer_intrigue: int = 0,
        key_person_intrigue: int = 0,
        diagonal_left: bool = True,
        intrigue2_left: bool = True,
        forbid_movement_left: int = 3,
    ) -> BrainChoice:
        """The brain's target in a post-card state (``gametab lookup
        brain``)."""
        return BrainChoice(
            self._query(
                "brain",
                days,
                brain,
                killer,
                killer_intrigue,
                key_person_intrigue,
                diagonal_left,
                intrigue2_left,
                forbid_movement_left,
            )
        )

    def win_rate(
        self, horizon: int, brain: Optional[Offset] = None, killer: Optional[Offset] = None
    ) -> WinRate:
        """The optimal win rate over ``horizon`` days from one start, or the
        average over the 16 starts when neither offset is given
        (``gametab lookup win-rate``)."""
        return WinRate(self._native.murder_plan_win_rate(horizon, brain, killer))

    def win_rates(self) -> WinRates:
        """Every stored win rate (``gametab lookup win-rates``)."""
        return WinRates(self._native.murder_plan_win_rates())

    def get_value(self, *args: Any, default: _D = None, **kwargs: Any) -> Union[MurderPlanValue, _D]:  # type: ignore[assignment]
        """:meth:`value`, or ``default`` when the query is refused for its
        key (a :class:`QueryError` or :class:`MissingKeyError`)."""
        return _get(default, lambda: self.value(*args, **kwargs))

    def get_strategy(self, *args: Any, default: _D = None, **kwargs: Any) -> Union[MurderPlanStrategy, _D]:  # type: ignore[assignment]
        """:meth:`strategy`, or ``default`` when the query is refused for
        its key (e.g. a won state, which has no strategy)."""
        return _get(default, lambda: self.strategy(*args, **kwargs))

    def get_win_rate(self, *args: Any, default: _D = None, **kwargs: Any) -> Union[WinRate, _D]:  # type: ignore[assignment]
        """:meth:`win_rate`, or ``default`` when the query is refused."""
        return _get(default, lambda: self.win_rate(*args, **kwargs))


class Endgame:
    """A stored two-player Liar's Dice endgame (``tables.dice.endgame``).

    >>> import gametab
    >>> with gametab.open_tables() as tables:
    ...     game = tables.dice.endgame((2, 1), sides=6)
    ...     point = game.at("1x5", hand="3")
    >>> point.point.to_move, point.point.hand
    (2, '3')
    """

    __slots__ = ("_native",)

    def __init__(self, native: Any) -> None:
        self._native = native

    @property
    def name(self) -> str:
        """The game, e.g. ``"2v1 6-sided normal"``."""
        name: str = self._native.name
        return name

    def at(self, history: Union[str, Sequence[str]] = "", hand: Optional[HandLike] = None) -> EndgamePoint:
        """The equilibrium after ``history`` (the bids so far, e.g.
        ``"1x5,2x3"`` or ``["1x5", "2x3"]``; ``""`` for the opening): who
        moves, with ``hand`` (the mover's dice) the mover's action
        probabilities, and the posterior over the opponent's hand
        (``gametab dice endgame --json``)."""
        if not isinstance(history, str):
            try:
                history = ",".join(history)
            except TypeError:
                pass
        return EndgamePoint(self._native.at(history, hand))

    def get_at(self, history: Union[str, Sequence[str]] = "", hand: Optional[HandLike] = None, default: _D = None) -> Union[EndgamePoint, _D]:  # type: ignore[assignment]
        """:meth:`at`, or ``default`` when the history or hand is refused."""
        return _get(default, lambda: self.at(history, hand))

    def __repr__(self) -> str:
        return f"<gametab endgame {self.name}>"


class Dice:
    """The Liar's Dice tables of a set (``tables.dice``).

    A standing bid is seen from my seat: ``players`` at the table, the
    ``bid`` (``"5x5"``: five fives), my ``hand`` (``"1,5,5,2,3"``), the
    bidder's ``reliability``, ``wild`` ones, and optionally the dice on
    the table (``total_dice``; default 5 per other player plus mine) and
    the bidder's (``bidder_dice``).

    >>> import gametab
    >>> with gametab.open_tables() as tables:
    ...     row = tables.dice.probability(players=4, bid="5x5", hand="1,5,5,2,3")
    >>> row.source, round(row.value.raw_probability, 4)
    ('table', 0.4678)
    """

    __slots__ = ("_native",)

    def __init__(self, native: Any) -> None:
        self._native = native

    def _query(
        self,
        query: str,
        players: int,
        bid: BidLike,
        hand: HandLike,
        reliability: float,
        wild: bool,
        total_dice: Optional[int],
        bidder_dice: int,
    ) -> Dict[str, Any]:
        result: Dict[str, Any] = self._native.dice_query(
            query, players, bid, hand, reliability, wild, total_dice, bidder_dice
        )
        return result

    def probability(
        self,
        players: int,
        bid: BidLike,
        hand: HandLike,
        reliability: float = 2.0,
        wild: bool = False,
        total_dice: Optional[int] = None,
        bidder_dice: int = 5,
    ) -> DiceTableRow:
        """The bid's probabilities (``value``: raw, corrected by the
        bidder's reliability, the EV of opening, the normal
        approximation): the stored row, or the engine's off the grid."""
        return DiceTableRow(
            self._native.dice_query(
                "probability", players, bid, hand, reliability, wild, total_dice, bidder_dice
            )
        )

    def posterior(
        self,
        players: int,
        bid: BidLike,
        hand: HandLike,
        reliability: float = 2.0,
        wild: bool = False,
        total_dice: Optional[int] = None,
        bidder_dice: int = 5,
    ) -> DiceTableRow:
        """The bidder's posterior over his matching dice (``value.
        probabilities[y]``)."""
        return DiceTableRow(
            self._query("posterior", players, bid, hand, reliability, wild, total_dice, bidder_dice)
        )

    def decision(
        self,
        players: int,
        bid: BidLike,
        hand: HandLike,
        reliability: float = 2.0,
        wild: bool = False,
    ) -> DiceDecision:
        """The published rule's decision (open or raise) in the standard
        game, every player holding as many dice as my hand."""
        return DiceDecision(
            self._query("decision", players, bid, hand, reliability, wild, None, 5)
        )

    def endgame(
        self, dice: Union[Tuple[int, int], Sequence[int], str], sides: int = 6, wild: bool = False
    ) -> Endgame:
        """The stored endgame of ``dice`` (player 1's and player 2's, e.g.
        ``(2, 1)``), ``sides`` and ``wild`` ones; a :class:`MissingKeyError`
        when the set does not hold it."""
        return Endgame(self._native.endgame(dice, sides, wild))

    def get_endgame(
        self,
        dice: Union[Tuple[int, int], Sequence[int], str],
        sides: int = 6,
        wild: bool = False,
        default: _D = None,  # type: ignore[assignment]
    ) -> Union[Endgame, _D]:
        """:meth:`endgame`, or ``default`` when the set does not hold it."""
        return _get(default, lambda: self.endgame(dice, sides, wild))


class ArrowTable:
    """A whole table of the set, for Arrow readers: it has
    ``__arrow_c_stream__``, so ``pyarrow.table(t)``, ``polars.from_arrow(t)``
    and ``duckdb.sql("select * from t")`` take it. The schema's metadata
    holds ``gametab.table`` and the build's parameters."""

    __slots__ = ("_native",)

    def __init__(self, native: Any) -> None:
        self._native = native

    @property
    def name(self) -> str:
        """The table's name (``murder_plan_values``, ...)."""
        name: str = self._native.name
        return name

    @property
    def num_rows(self) -> int:
        """Its rows."""
        rows: int = self._native.num_rows
        return rows

    @property
    def column_names(self) -> List[str]:
        """Its columns, in order."""
        names: List[str] = self._native.column_names
        return names

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object:
        """The Arrow C stream (a PyCapsule ``arrow_array_stream``)."""
        return self._native.__arrow_c_stream__(requested_schema)

    def __len__(self) -> int:
        return self.num_rows

    def __repr__(self) -> str:
        return f"<gametab table {self.name} ({self.num_rows} rows)>"


class Tables:
    """An open table set (:func:`open_tables`). The manifest is read at
    once; each game is loaded on first use, every file checked against the
    manifest's BLAKE2b-256 digest, as the Rust side does. A context
    manager (closing forgets the loaded tables).

    >>> import gametab
    >>> with gametab.open_tables() as tables:
    ...     "murder_plan_values" in tables.table_names()
    True
    """

    def __init__(self, native: Any) -> None:
        self._native: Any = native
        self._murder_plan = MurderPlan(native)
        self._dice = Dice(native)

    def _open(self) -> Any:
        if self._native is None:
            raise TablesError("the table set is closed")
        return self._native

    @property
    def path(self) -> pathlib.Path:
        """The directory of the set."""
        return pathlib.Path(self._open().path)

    @property
    def murder_plan(self) -> MurderPlan:
        """The Murder Plan tables (loaded on first query)."""
        self._open()
        return self._murder_plan

    @property
    def dice(self) -> Dice:
        """The Liar's Dice tables (loaded on first query)."""
        self._open()
        return self._dice

    def manifest(self) -> Dict[str, Any]:
        """``manifest.json`` as a dict."""
        manifest: Dict[str, Any] = self._open().manifest()
        return manifest

    def load(self, game: str) -> None:
        """Load one game's tables now (``"murder_plan"``, ``"dice"``,
        ``"dice_endgame"``, ``"cluedo"``, ``"werewolf"``)."""
        self._open().load(game)

    @staticmethod
    def table_names() -> List[str]:
        """Every table's name, in build order."""
        names: List[str] = _gametab.table_names()
        return names

    def table(self, name: str) -> ArrowTable:
        """A whole table (by name or file name) for Arrow readers; its file
        is checked against the manifest's digest first."""
        return ArrowTable(self._open().table(name))

    def close(self) -> None:
        """Forget the set (its tables are freed when no answer needs them)."""
        self._native = None
        self._murder_plan = MurderPlan(None)
        self._dice = Dice(None)

    def __enter__(self) -> "Tables":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if self._native is None:
            return "<gametab tables (closed)>"
        return f"<gametab tables {str(self.path)!r}>"


def open_tables(path: Union[str, "os.PathLike[str]", None] = None) -> Tables:
    """Open the table set in ``path``: by default ``$GAMETAB_TABLES``, else
    ``tables`` (the directory ``scripts/build-tables`` writes). Only the
    manifest is read now; a :class:`TablesError` when there is no set.

    >>> import gametab
    >>> gametab.open_tables("/nonexistent")
    Traceback (most recent call last):
    ...
    gametab._errors.TablesError: no table set in /nonexistent: there is no such directory. ...
    """
    if path is None:
        path = os.environ.get(TABLES_VARIABLE) or "tables"
    if not isinstance(path, (str, os.PathLike)):
        from ._errors import ParameterTypeError

        raise ParameterTypeError(
            f"path: expected a str or a path, got {type(path).__name__}", "path"
        )
    return Tables(_gametab.open(os.fspath(path)))

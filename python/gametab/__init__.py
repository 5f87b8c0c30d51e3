"""gametab: exact strategy and probability tables for hidden-information
tabletop games (Murder Plan from Tragedy Looper, Liar's Dice, Cluedo,
Werewolf), from Python.

>>> import gametab
>>> with gametab.open_tables() as tables:
...     rate = tables.murder_plan.win_rate(8, brain=(0, 1), killer=(1, 0))
>>> rate.start, round(rate.value, 4)
('x=(0,1) y=(1,0)', 0.7737)
>>> rate.brain, rate.killer
([0, 1], [1, 0])

Every answer is the document ``gametab ... --json`` prints for the same
query, with its fields as attributes; ``to_dict()`` gives the document.
Refusals are :class:`gametab.Error` s (see ``gametab._errors``). The guide
is docs/python.md.
"""

from __future__ import annotations

from . import _gametab
from ._answers import (
    Answer,
    BrainChoice,
    CluedoAdvice,
    CluedoNotebook,
    DiceDecision,
    DiceOdds,
    DiceTableRow,
    EndgamePoint,
    LegalActions,
    MurderPlanMoves,
    MurderPlanSample,
    MurderPlanState,
    MurderPlanStrategy,
    MurderPlanValue,
    Record,
    Turn,
    WerewolfReport,
    WinRate,
    WinRates,
)
from ._errors import (
    BudgetExceeded,
    Error,
    LogError,
    MissingKeyError,
    ParameterTypeError,
    QueryError,
    TablesError,
)
from ._tables import ArrowTable, Dice, Endgame, MurderPlan, Tables, open_tables
from . import cluedo, dice, murder_plan, werewolf

_gametab._register(
    Error, QueryError, ParameterTypeError, LogError, MissingKeyError, TablesError, BudgetExceeded
)

__version__: str = _gametab.__version__

__all__ = [
    "open_tables",
    "Tables",
    "MurderPlan",
    "Dice",
    "Endgame",
    "ArrowTable",
    "cluedo",
    "dice",
    "murder_plan",
    "werewolf",
    "Error",
    "QueryError",
    "ParameterTypeError",
    "LogError",
    "MissingKeyError",
    "TablesError",
    "BudgetExceeded",
    "Answer",
    "Record",
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

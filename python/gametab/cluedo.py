"""Cluedo from a game log: the exact notebook and the advice (the exact
engines of ``gametab cluedo``; no tables needed).

The log format is described in docs/cluedo.md; an example is
scripts/examples/cluedo-game.json. The work runs with the GIL released,
under a time or step limit when one is given (``time_limit`` in seconds,
or ``step_limit`` engine steps: the server's budgets); Ctrl-C stops it.

>>> import gametab.cluedo
>>> notebook = gametab.cluedo.notebook(EXAMPLES / "cluedo-game.json")
>>> notebook.deals
'1303'
>>> advice = gametab.cluedo.advice(EXAMPLES / "cluedo-game.json", top=3)
>>> len(advice.suggestions), advice.considered
(3, 324)
"""

from __future__ import annotations

from typing import Optional

from . import _gametab
from ._answers import CluedoAdvice, CluedoNotebook
from ._logs import LogLike, log_source

__all__ = ["notebook", "advice"]


def notebook(
    log: LogLike,
    model: str = "equal-deals",
    time_limit: Optional[float] = None,
    step_limit: Optional[int] = None,
) -> CluedoNotebook:
    """The exact notebook of a log: for every card P(in the envelope) and
    P(each player holds it) (``gametab cluedo --json``). ``model`` weighs
    the deals: ``"equal-deals"`` or ``"uniform-responder"``."""
    text, is_path = log_source(log)
    return CluedoNotebook(
        _gametab.cluedo(text, is_path, model, False, None, 10, time_limit, step_limit)
    )


def advice(
    log: LogLike,
    room: Optional[str] = None,
    top: int = 10,
    model: str = "equal-deals",
    time_limit: Optional[float] = None,
    step_limit: Optional[int] = None,
) -> CluedoAdvice:
    """Every suggestion the log's player can make (or those in ``room``),
    ranked, the best ``top`` (1..=1000) kept, and the accusation report
    (``gametab cluedo --advise --json``)."""
    text, is_path = log_source(log)
    return CluedoAdvice(
        _gametab.cluedo(text, is_path, model, True, room, top, time_limit, step_limit)
    )

"""Werewolf from a game log: exact P(wolf) (and P(role) for a role log)
per player and the vote ranking, beside the published approximate
beliefs (the engines of ``gametab werewolf``; no tables needed).

The log format is described in docs/werewolf.md; examples are
scripts/examples/werewolf-*.json. The work runs with the GIL released,
under a time or step limit when one is given; Ctrl-C stops it.

>>> import gametab.werewolf
>>> report = gametab.werewolf.roles(EXAMPLES / "werewolf-roles-7.json")
>>> report.players, report.wolves, report.wolf_sets
(7, 2, 4)
"""

from __future__ import annotations

from typing import Optional

from . import _gametab
from ._answers import WerewolfReport
from ._logs import LogLike, log_source

__all__ = ["roles", "report"]


def roles(
    log: LogLike,
    rule: str = "published",
    time_limit: Optional[float] = None,
    step_limit: Optional[int] = None,
) -> WerewolfReport:
    """The report of a log (``gametab werewolf --json``): per player P(wolf)
    exact and baseline, the scores of ``rule`` (``"published"``,
    ``"probability"`` or ``"information"``), the vote rankings, and for a
    log with a ``roles`` setup the role section."""
    text, is_path = log_source(log)
    return WerewolfReport(_gametab.werewolf(text, is_path, rule, time_limit, step_limit))


#: Another name of :func:`roles`.
report = roles

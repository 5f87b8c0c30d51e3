"""The exceptions of gametab: every refusal is a :class:`gametab.Error`.

- :class:`QueryError` (also a ``ValueError``): a parameter out of range or
  malformed; ``.parameter`` names it (the keyword argument).
  :class:`ParameterTypeError` (also a ``TypeError``) is the one for a value
  of the wrong type, and :class:`LogError` the one for a game log that
  cannot be read or contradicts itself (``.parameter == "log"``).
- :class:`MissingKeyError` (also a ``KeyError``): a well-formed key the
  tables do not hold (an endgame the build did not solve, a table name).
- :class:`TablesError`: no table set where one was asked for, or one that
  fails to load (a missing file, a digest mismatch, a corrupt table).
- :class:`BudgetExceeded` (also a ``TimeoutError``): an engine's time or
  step limit ran out before its answer.
"""

from __future__ import annotations

from typing import Optional


class Error(Exception):
    """Any refusal of gametab. ``parameter`` names the argument at fault,
    when one is."""

    parameter: Optional[str]

    def __init__(self, message: str, parameter: Optional[str] = None) -> None:
        super().__init__(message)
        self.parameter = parameter

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class QueryError(Error, ValueError):
    """A parameter out of range or malformed; ``parameter`` names it."""


class ParameterTypeError(QueryError, TypeError):
    """A parameter of the wrong type; ``parameter`` names it."""


class LogError(QueryError):
    """A game log that cannot be read, does not follow the format, or
    contradicts itself (``parameter`` is ``"log"``)."""


class MissingKeyError(Error, KeyError):
    """A well-formed key the table set does not hold."""


class TablesError(Error):
    """No table set, or one that fails to load or to pass its digests."""


class BudgetExceeded(Error, TimeoutError):
    """The engine's time or step limit ran out before its answer."""


__all__ = [
    "Error",
    "QueryError",
    "ParameterTypeError",
    "LogError",
    "MissingKeyError",
    "TablesError",
    "BudgetExceeded",
]

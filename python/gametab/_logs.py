"""Game logs as the engines take them: a dict (the log's JSON object), its
JSON text, or a file (a ``pathlib.Path``, or a str that is not JSON text)."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Tuple, Union

from ._errors import LogError, ParameterTypeError

#: A game log: its JSON object as a dict, its JSON text, or a file.
LogLike = Union[Dict[str, Any], str, "os.PathLike[str]"]


def log_source(log: LogLike) -> Tuple[str, bool]:
    """The log's text and whether it names a file instead."""
    if isinstance(log, dict):
        try:
            return json.dumps(log), False
        except (TypeError, ValueError) as error:
            raise LogError(f"the log given is not JSON data: {error}", "log") from None
    if isinstance(log, os.PathLike):
        path = os.fspath(log)
        if not isinstance(path, str):
            raise ParameterTypeError("log: expected a str path, got bytes", "log")
        return path, True
    if isinstance(log, str):
        if log.lstrip().startswith(("{", "[")):
            return log, False
        return log, True
    raise ParameterTypeError(
        f"log: expected a dict, JSON text or a path, got {type(log).__name__}", "log"
    )

"""Shared fixtures of the package's tests.

The tests need a built table set (``$GAMETAB_TABLES``, else the
repository's ``tables/``) and, to compare answers with the command line,
the ``gametab`` binary (``$GAMETAB_BIN``, else ``target/release/gametab``
under ``$CARGO_TARGET_DIR`` or the repository). tests/python.rs, which
runs them inside scripts/test, sets both.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
from typing import Any, Iterator, List

import pytest

import gametab

REPO = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "scripts" / "examples"


def tables_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("GAMETAB_TABLES") or REPO / "tables")


def gametab_bin() -> pathlib.Path:
    if os.environ.get("GAMETAB_BIN"):
        return pathlib.Path(os.environ["GAMETAB_BIN"])
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target")
    return target / "release" / "gametab"


class Cli:
    """The built command line, for the JSON it prints."""

    def __init__(self, binary: pathlib.Path, tables: pathlib.Path) -> None:
        self.binary = binary
        self.tables = tables
        self._help: dict = {}

    def run(self, *args: str) -> subprocess.CompletedProcess:
        env = dict(os.environ, GAMETAB_TABLES=str(self.tables))
        return subprocess.run(
            [str(self.binary), *args], capture_output=True, text=True, env=env, timeout=120
        )

    def json(self, *args: str) -> Any:
        """The JSON document of a query command (``--json`` is added)."""
        if "--json" not in args:
            args = (*args, "--json")
        done = self.run(*args)
        assert done.returncode == 0, f"gametab {' '.join(args)}: {done.stderr}"
        return json.loads(done.stdout)

    def flag(self, command: List[str], *names: str) -> str:
        """The first of ``names`` that ``gametab COMMAND --help`` lists (a
        flag renamed on the Rust side is followed)."""
        key = " ".join(command)
        if key not in self._help:
            self._help[key] = self.run(*command, "--help").stdout
        for name in names:
            if name in self._help[key]:
                return name
        raise AssertionError(f"none of {names} in gametab {key} --help")


@pytest.fixture(scope="session")
def cli() -> Cli:
    binary = gametab_bin()
    if not binary.exists():
        pytest.fail(f"no gametab binary at {binary}: build it (cargo build --release) or set GAMETAB_BIN")
    return Cli(binary, tables_dir())


@pytest.fixture(scope="session")
def tables() -> Iterator[gametab.Tables]:
    with gametab.open_tables(tables_dir()) as opened:
        yield opened


@pytest.fixture(scope="session")
def examples() -> pathlib.Path:
    return EXAMPLES

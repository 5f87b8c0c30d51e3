"""The documentation runs: every docstring example of the package
(doctest), every ``python`` block of docs/python.md and the README's
Python example (executed in order, one namespace per page), the examples
type-check under ``mypy --strict``, and the tour notebook executes with
nbclient."""

from __future__ import annotations

import doctest
import os
import pathlib
import re
import subprocess
import sys
from typing import Any, Dict, List

import pytest

import gametab
import gametab.cluedo
import gametab.dice
import gametab.murder_plan
import gametab.werewolf
from gametab import _errors, _tables

from conftest import EXAMPLES, REPO, tables_dir

PYTHON_EXAMPLES = REPO / "python" / "examples"


@pytest.fixture(autouse=True)
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages and docstrings are run from the repository's root with the
    table set in $GAMETAB_TABLES."""
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("GAMETAB_TABLES", str(tables_dir()))


@pytest.mark.parametrize(
    "module",
    [gametab, _tables, _errors, gametab.cluedo, gametab.dice, gametab.murder_plan, gametab.werewolf],
    ids=lambda m: m.__name__,
)
def test_docstring_examples(module: Any) -> None:
    failed, attempted = doctest.testmod(
        module,
        extraglobs={"EXAMPLES": EXAMPLES},
        optionflags=doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL,
        verbose=False,
    )
    assert failed == 0
    if module not in (_errors,):
        assert attempted > 0, f"{module.__name__} has no example"


def python_blocks(page: pathlib.Path) -> List[str]:
    return re.findall(r"^```python\n(.*?)^```", page.read_text(), flags=re.S | re.M)


@pytest.mark.parametrize("page", ["docs/python.md", "README.md"])
def test_pages_python_blocks_run(
    page: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each page runs where a reader runs it: a checkout whose ``tables/``
    is a built set (here the tests' set, linked in; a clean clone has
    none), with the repository's ``scripts`` and ``data`` beside it."""
    (tmp_path / "tables").symlink_to(tables_dir().resolve(), target_is_directory=True)
    for folder in ("scripts", "data", "python"):
        (tmp_path / folder).symlink_to(REPO / folder, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks(REPO / page)
    assert blocks, f"{page} has no python block"
    namespace: Dict[str, Any] = {"__name__": "__page__"}
    for block in blocks:
        exec(compile(block, page, "exec"), namespace)


def test_examples_type_check_strictly() -> None:
    pytest.importorskip("mypy")
    targets = sorted(str(p) for p in PYTHON_EXAMPLES.glob("*.py"))
    assert targets
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-version", "3.10", *targets],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_examples_run() -> None:
    for example in sorted(PYTHON_EXAMPLES.glob("*.py")):
        if example.name == "bench.py":
            continue
        done = subprocess.run([sys.executable, str(example)], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{example}: {done.stdout}{done.stderr}"


def test_tour_notebook_executes() -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    path = PYTHON_EXAMPLES / "tour.ipynb"
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(PYTHON_EXAMPLES)}},
    )
    client.execute()
    outputs = "".join(
        str(output.get("text", "")) + str(output.get("data", {}).get("text/plain", ""))
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
    )
    assert "0.7737" in outputs, outputs[:2000]
    assert not any(
        output.get("output_type") == "error" for cell in notebook.cells for output in cell.get("outputs", [])
    )

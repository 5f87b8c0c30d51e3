#!/usr/bin/env python3
"""Generate explore.ipynb from explore.py (standard library only).

explore.py is written in cell-marked form: a line "# %%" starts a code cell,
"# %% [markdown]" a text cell whose lines are comments ("# " is stripped).
Lines above the first marker (the script's header) are left out. The output
is deterministic (fixed cell ids, no outputs, sorted keys), so the committed
notebook can be compared byte for byte with a fresh one.

    python3 make_notebook.py           # rewrite explore.ipynb
    python3 make_notebook.py --check   # exit 1 if explore.ipynb is stale
"""

import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
SCRIPT = HERE / "explore.py"
NOTEBOOK = HERE / "explore.ipynb"


def split_cells(text):
    """[(kind, lines)] of the cells of a cell-marked script."""
    cells = []
    for line in text.splitlines():
        if line.startswith("# %%"):
            kind = "markdown" if line.strip() == "# %% [markdown]" else "code"
            cells.append((kind, []))
        elif cells:
            cells[-1][1].append(line)
    return cells


def markdown_line(line, number):
    if line.strip() in ("", "#"):
        return ""
    if not line.startswith("# "):
        raise ValueError(f"markdown cell {number}: line {line!r} is not a '# ' comment")
    return line[2:]


def source(lines):
    """Notebook source: the lines without surrounding blank lines, each but
    the last ending in a newline."""
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return [line + "\n" for line in lines[:-1]] + lines[-1:]


def notebook(text):
    cells = []
    for number, (kind, lines) in enumerate(split_cells(text), start=1):
        cell = {"cell_type": kind, "id": f"cell-{number:02d}", "metadata": {}}
        if kind == "markdown":
            cell["source"] = source([markdown_line(line, number) for line in lines])
        else:
            cell.update(execution_count=None, outputs=[], source=source(lines))
        cells.append(cell)
    if not cells:
        raise ValueError(f"{SCRIPT.name} has no '# %%' cell markers")
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def render(text):
    return json.dumps(notebook(text), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv):
    if argv not in ([], ["--check"]):
        print("usage: make_notebook.py [--check]", file=sys.stderr)
        return 2
    try:
        fresh = render(SCRIPT.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"make_notebook: {error}", file=sys.stderr)
        return 1
    if argv == ["--check"]:
        current = NOTEBOOK.read_text(encoding="utf-8") if NOTEBOOK.exists() else None
        if current != fresh:
            print(
                f"{NOTEBOOK} is not the notebook generated from {SCRIPT.name}; "
                f"run python3 {pathlib.Path(__file__).name} in {HERE}",
                file=sys.stderr,
            )
            return 1
        print(f"{NOTEBOOK.name} is up to date with {SCRIPT.name}")
        return 0
    NOTEBOOK.write_text(fresh, encoding="utf-8")
    print(f"wrote {NOTEBOOK}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

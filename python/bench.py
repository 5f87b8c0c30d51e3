"""Per-call times of the gametab package from Python (a bench, not a test).

    python python/bench.py [TABLES] [--gametab PATH]

Prints, for each call, the best of five runs' mean time per call: a
Murder Plan value, a bid probability, an endgame point (a first visit of
each point and a repeat), opening a table set, the first Murder Plan load,
Cluedo advice on the example log beside the command line's time for the
same query (a process each, so it includes starting the program).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
import time
import timeit
from typing import Callable, List

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
# The installed package, not the sources beside this script (which lack
# the native module).
sys.path = [p for p in sys.path if pathlib.Path(p or ".").resolve() != HERE]

import gametab  # noqa: E402
import gametab.cluedo  # noqa: E402


def per_call(function: Callable[[], object], number: int) -> float:
    """The best of five runs' mean seconds per call."""
    function()
    return min(timeit.repeat(function, number=number, repeat=5)) / number


def once(function: Callable[[], object]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def show(name: str, seconds: float) -> None:
    if seconds < 1e-3:
        print(f"{name:<52} {seconds * 1e6:10.2f} us")
    else:
        print(f"{name:<52} {seconds * 1e3:10.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("tables", nargs="?", default=os.environ.get("GAMETAB_TABLES") or str(REPO / "tables"))
    parser.add_argument("--gametab", default=None, help="the gametab binary, for the CLI's time")
    args = parser.parse_args()
    show("open_tables (the manifest)", min(once(lambda: gametab.open_tables(args.tables)) for _ in range(5)))
    loads: List[float] = []
    for _ in range(3):
        fresh = gametab.open_tables(args.tables)
        loads.append(once(lambda: fresh.load("murder_plan")))
    show("first Murder Plan load (digests, decode)", min(loads))
    tables = gametab.open_tables(args.tables)
    mp = tables.murder_plan
    dice = tables.dice
    show("murder_plan.value(8, (0, 1), (1, 0))", per_call(lambda: mp.value(8, (0, 1), (1, 0)), 20000))
    show("murder_plan.value(8, '0,1', '1,0')", per_call(lambda: mp.value(8, "0,1", "1,0"), 20000))
    show(
        "murder_plan.state(8, ...) (both sides' ~200 moves)",
        per_call(lambda: mp.state(8, (0, 1), (1, 0)), 200),
    )
    show(
        "dice.probability(4, '5x5', '1,5,5,2,3')",
        per_call(lambda: dice.probability(4, "5x5", "1,5,5,2,3"), 20000),
    )
    show("dice.odds(4, '5x5', '1,5,5,2,3') (engine)", per_call(lambda: gametab.dice.odds(4, "5x5", "1,5,5,2,3"), 5000))
    points = [("1x5", "3"), ("1x5,2x3", "2,2"), ("", None), ("2x2", "4")]
    for history, hand in points:
        # A point's first visit decodes its strategy rows from the table
        # (a fresh endgame object each time: its answers are kept after).
        first = min(
            once(lambda: dice.endgame((2, 1), sides=6).at(history, hand=hand)) for _ in range(5)
        )
        show(f"endgame.at({history!r}, hand={hand!r}), first visit", first)
    endgame = dice.endgame((2, 1), sides=6)
    show("endgame.at('1x5', hand='3'), again", per_call(lambda: endgame.at("1x5", hand="3"), 20000))
    log = REPO / "scripts" / "examples" / "cluedo-game.json"
    show("cluedo.advice(example log)", per_call(lambda: gametab.cluedo.advice(log), 10))
    binary = args.gametab or str(
        pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target") / "release" / "gametab"
    )
    if pathlib.Path(binary).exists():
        command = [binary, "cluedo", "--log", str(log), "--advise", "--json"]
        show(
            "gametab cluedo --advise --json (a process)",
            min(once(lambda: subprocess.run(command, capture_output=True, check=True)) for _ in range(10)),
        )
    table = per_call(lambda: tables.table("murder_plan_values"), 5)
    show("tables.table('murder_plan_values') (34560 rows)", table)


if __name__ == "__main__":
    main()

"""A tour of the gametab package in one script (type-checked with
``mypy --strict`` by the tests). Run from the repository's root after
``scripts/build-tables``: ``python python/examples/quickstart.py``."""

from __future__ import annotations

import pathlib

import gametab
import gametab.cluedo
import gametab.dice
import gametab.murder_plan
import gametab.werewolf

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "examples"


def main() -> None:
    with gametab.open_tables() as tables:
        # Murder Plan: the mastermind's chance to win over 8 days.
        value = tables.murder_plan.value(days=8, brain=(0, 1), killer=(1, 0))
        print(f"V_8 = {value.value:.4f} (gap {value.gap:.1e})")
        best = tables.murder_plan.moves("protagonists", days=8, brain=(0, 1), killer=(1, 0))
        first = best.moves[0]
        print(f"the protagonists' best move: {first.card_on_killer} on the killer, loss {first.loss}")
        # Liar's Dice: a bid from my seat, from the tables and from the engine.
        row = tables.dice.probability(players=4, bid="5x5", hand="1,5,5,2,3")
        advice = gametab.dice.odds(players=4, bid="5x5", hand="1,5,5,2,3").advice
        print(f"P(5x5) = {row.value.raw_probability:.4f} ({row.source}); advice {advice.action}")
        endgame = tables.dice.endgame((2, 1), sides=6)
        point = endgame.at("1x5", hand="3")
        calls = [a.probability for a in point.point.actions if a.action == "call"]
        print(f"{endgame.name}: after 1x5 holding 3, call with probability {calls[0]:.4f}")
        # Errors are typed and name their parameter.
        try:
            tables.murder_plan.value(days=9, brain=(0, 1), killer=(1, 0))
        except gametab.QueryError as error:
            print(f"refused ({error.parameter}): {error}")
    # The engines take a log as a path, a dict or JSON text.
    notebook = gametab.cluedo.notebook(EXAMPLES / "cluedo-game.json")
    print(f"Cluedo: {notebook.deals} consistent deals")
    report = gametab.werewolf.roles(EXAMPLES / "werewolf-roles-7.json", time_limit=30.0)
    print(f"Werewolf: vote first for player {report.ranking[0]}")
    turn = gametab.murder_plan.turn(("blank",) * 3, ("blank",) * 3, brain=(0, 0), killer=(0, 0))
    print(f"one turn of blanks: the brain may target {', '.join(turn.brain_targets)}")


if __name__ == "__main__":
    main()

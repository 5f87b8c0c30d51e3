"""Every answer's ``to_dict()`` equals the command line's ``--json`` for the
same query: the Murder Plan lookups on a seeded sample of table keys, the
dice odds and endgames, and the engines on every example log."""

from __future__ import annotations

import random
from typing import Any, Dict, List, Tuple

import pytest

import gametab

from conftest import Cli

OFFSETS = [(0, 0), (0, 1), (1, 0), (1, 1)]


def mp_keys(n: int, seed: int) -> List[Dict[str, Any]]:
    rng = random.Random(seed)
    keys = []
    for _ in range(n):
        keys.append(
            dict(
                days=rng.randint(0, 8),
                brain=rng.choice(OFFSETS),
                killer=rng.choice(OFFSETS),
                killer_intrigue=rng.randint(0, 4),
                key_person_intrigue=rng.randint(0, 2),
                diagonal_left=rng.random() < 0.5,
                intrigue2_left=rng.random() < 0.5,
                forbid_movement_left=rng.randint(0, 3),
            )
        )
    return keys


def state_flags(key: Dict[str, Any]) -> List[str]:
    flags = [
        "--days", str(key["days"]),
        "--brain", "%d,%d" % key["brain"],
        "--killer", "%d,%d" % key["killer"],
        "--killer-intrigue", str(key["killer_intrigue"]),
        "--key-person-intrigue", str(key["key_person_intrigue"]),
        "--forbid-movement-left", str(key["forbid_movement_left"]),
    ]
    if not key["diagonal_left"]:
        flags.append("--no-diagonal")
    if not key["intrigue2_left"]:
        flags.append("--no-intrigue2")
    return flags


def same(cli: Cli, args: List[str], query: Any) -> None:
    """The CLI's JSON (``--json``) equals the answer, or both refuse."""
    done = cli.run(*args, *([] if "--json" in args else ["--json"]))
    if done.returncode == 0:
        import json

        assert query().to_dict() == json.loads(done.stdout), " ".join(args)
    else:
        with pytest.raises(gametab.Error):
            query()


@pytest.mark.parametrize("key", mp_keys(12, seed=36), ids=lambda k: str(sorted(k.items())))
def test_murder_plan_lookups_equal_the_cli(cli: Cli, tables: gametab.Tables, key: Dict[str, Any]) -> None:
    mp = tables.murder_plan
    flags = state_flags(key)
    same(cli, ["lookup", "value", *flags], lambda: mp.value(**key))
    same(cli, ["lookup", "state", *flags], lambda: mp.state(**key))
    same(cli, ["lookup", "brain", *flags], lambda: mp.brain_choice(**key))
    for side in ("mastermind", "protagonists"):
        same(cli, ["lookup", "strategy", "--side", side, *flags], lambda: mp.strategy(side, **key))
        same(cli, ["lookup", "moves", "--side", side, *flags], lambda: mp.moves(side, **key))
        same(
            cli,
            ["lookup", "sample", "--side", side, "--u", "0.42", *flags],
            lambda: mp.sample(side, u=0.42, **key),
        )


def test_win_rates_equal_the_cli(cli: Cli, tables: gametab.Tables) -> None:
    mp = tables.murder_plan
    assert mp.win_rates().to_dict() == cli.json("lookup", "win-rates")
    for horizon in (1, 5, 8):
        assert mp.win_rate(horizon).to_dict() == cli.json("lookup", "win-rate", "--horizon", str(horizon))
        for brain, killer in [((0, 1), (1, 0)), ((1, 1), (0, 0))]:
            args = ["--brain", "%d,%d" % brain, "--killer", "%d,%d" % killer]
            expected = cli.json("lookup", "win-rate", "--horizon", str(horizon), *args)
            assert mp.win_rate(horizon, brain, killer).to_dict() == expected


DICE = [
    dict(players=4, bid="5x5", hand="1,5,5,2,3"),
    dict(players=2, bid="3x1", hand=[1, 1, 6], reliability=0.5, wild=True),
    dict(players=6, bid=(9, 4), hand="4,4,1,2,6", reliability=0.0, total_dice=27, bidder_dice=4),
    dict(players=3, bid="2x6", hand="6,6,6,6,6", reliability=5.0),
]


def dice_flags(cli: Cli, query: Dict[str, Any]) -> List[str]:
    hand = query["hand"] if isinstance(query["hand"], str) else ",".join(map(str, query["hand"]))
    bid = query["bid"] if isinstance(query["bid"], str) else "%dx%d" % tuple(query["bid"])
    flags = ["--players", str(query["players"]), "--bid", bid, "--hand", hand]
    if "reliability" in query:
        flags += ["--rel", str(query["reliability"])]
    if query.get("wild"):
        flags.append("--wild")
    if "total_dice" in query:
        flags += ["--total-dice", str(query["total_dice"])]
    if "bidder_dice" in query:
        flags += ["--bidder-dice", str(query["bidder_dice"])]
    return flags


@pytest.mark.parametrize("query", DICE, ids=lambda q: str(q["bid"]))
def test_dice_odds_equal_the_cli(cli: Cli, query: Dict[str, Any]) -> None:
    expected = cli.json("dice", *dice_flags(cli, query), "--json")
    assert gametab.dice.odds(**query).to_dict() == expected


def test_dice_table_rows_agree_with_the_odds(tables: gametab.Tables) -> None:
    for query in DICE:
        odds = gametab.dice.odds(**query).odds
        row = tables.dice.probability(**query)
        assert row.value.raw_probability == pytest.approx(odds.raw_probability, abs=1e-12)
        assert row.value.corrected_probability == pytest.approx(odds.corrected_probability, abs=1e-12)
        posterior = tables.dice.posterior(**query).value.probabilities
        assert posterior == pytest.approx(odds.posterior.probabilities, abs=1e-12)


ENDGAMES: List[Tuple[Tuple[int, int], int, bool, str, Any]] = [
    ((2, 1), 6, False, "", None),
    ((2, 1), 6, False, "", "3,5"),
    ((2, 1), 6, False, "1x5", "3"),
    ((2, 1), 6, False, "1x5,2x3", "2,2"),
    ((1, 2), 4, True, "1x3", "2,4"),
    ((1, 1), 3, False, "1x1", [2]),
]


@pytest.mark.parametrize("game", ENDGAMES, ids=lambda g: f"{g[0]}-{g[1]}-{g[2]}-{g[3]}-{g[4]}")
def test_endgame_points_equal_the_cli(cli: Cli, tables: gametab.Tables, game: Any) -> None:
    dice, sides, wild, history, hand = game
    args = ["dice", "endgame", "--dice", "%d,%d" % dice, "--sides", str(sides), "--history", history, "--json"]
    if wild:
        args.append("--wild")
    if hand is not None:
        args += ["--hand", hand if isinstance(hand, str) else ",".join(map(str, hand))]
    endgame = tables.dice.endgame(dice, sides=sides, wild=wild)
    same(cli, args, lambda: endgame.at(history, hand=hand))


def test_cluedo_answers_equal_the_cli(cli: Cli, examples: Any) -> None:
    log = examples / "cluedo-game.json"
    assert gametab.cluedo.notebook(log).to_dict() == cli.json("cluedo", "--log", str(log), "--json")
    for model in ("equal-deals", "uniform-responder"):
        expected = cli.json("cluedo", "--log", str(log), "--json", "--model", model, "--advise", "--top", "4")
        assert gametab.cluedo.advice(log, top=4, model=model).to_dict() == expected
    expected = cli.json("cluedo", "--log", str(log), "--json", "--advise", "--room", "Kitchen")
    assert gametab.cluedo.advice(str(log), room="Kitchen").to_dict() == expected


@pytest.mark.parametrize("name", ["werewolf-demo", "werewolf-roles-7", "werewolf-roles-12", "werewolf-roles-rules"])
def test_werewolf_reports_equal_the_cli(cli: Cli, examples: Any, name: str) -> None:
    import json

    log = examples / f"{name}.json"
    for rule in ("published", "information"):
        expected = cli.json("werewolf", "--log", str(log), "--json", "--rule", rule)
        assert gametab.werewolf.roles(log, rule=rule).to_dict() == expected
    # The same log as a dict and as JSON text.
    as_dict = json.loads(log.read_text())
    expected = cli.json("werewolf", "--log", str(log), "--json")
    assert gametab.werewolf.roles(as_dict).to_dict() == expected
    assert gametab.werewolf.roles(log.read_text()).to_dict() == expected

"""Refusals are typed: a query error is a ValueError naming its parameter,
a missing key a KeyError, a missing or broken table set a TablesError; the
``get_*`` forms return a default; and a seeded fuzz of bad parameters and
bad logs sees nothing but gametab exceptions (no crash, no other type)."""

from __future__ import annotations

import json
import pathlib
import random
import shutil
from typing import Any, Callable, Dict, List

import pytest

import gametab

from conftest import tables_dir


def refusal(query: Callable[[], Any]) -> gametab.Error:
    with pytest.raises(gametab.Error) as caught:
        query()
    return caught.value


def test_query_errors_name_their_parameter(tables: gametab.Tables) -> None:
    mp = tables.murder_plan
    cases = [
        (lambda: mp.value(9, (0, 1), (1, 0)), "days"),
        (lambda: mp.value(8, (0, 2), (1, 0)), "brain"),
        (lambda: mp.value(8, (0, 1), "1;0"), "killer"),
        (lambda: mp.value(8, (0, 1), (1, 0), forbid_movement_left=4), "forbid_movement_left"),
        (lambda: mp.value(8, (0, 1), (1, 0), killer_intrigue=-1), "killer_intrigue"),
        (lambda: mp.strategy("villain", 8, (0, 1), (1, 0)), "side"),
        (lambda: mp.sample("mastermind", 8, 1.5, (0, 1), (1, 0)), "u"),
        (lambda: mp.win_rate(9), "horizon"),
        (lambda: mp.win_rate(8, brain=(0, 1)), "killer"),
        (lambda: tables.dice.probability(1, "5x5", "1,2,3"), "players"),
        (lambda: tables.dice.probability(4, "5x7", "1,2,3"), "bid"),
        (lambda: tables.dice.probability(4, "five fives", "1,2,3"), "bid"),
        (lambda: tables.dice.probability(4, "5x5", "1,2,9"), "hand"),
        (lambda: tables.dice.probability(4, "5x5", "1,2,3", reliability=-1), "reliability"),
        (lambda: tables.dice.probability(4, "99x5", "1,2,3"), "bid"),
        (lambda: tables.dice.endgame((2, 1)).at("1x5,1x4"), "history"),
        (lambda: tables.dice.endgame((2, 1)).at("", hand="3"), "hand"),
        (lambda: gametab.cluedo.advice(REPO_EXAMPLE, room="Rope"), "room"),
        (lambda: gametab.cluedo.advice(REPO_EXAMPLE, top=0), "top"),
        (lambda: gametab.cluedo.notebook(REPO_EXAMPLE, model="fair"), "model"),
        (lambda: gametab.werewolf.roles(WEREWOLF_EXAMPLE, rule="loudest"), "rule"),
        (lambda: gametab.murder_plan.turn(("a", "b", "c"), ("blank",) * 3, (0, 1), (1, 0)), "mastermind"),
        (lambda: gametab.murder_plan.turn(("blank",) * 3, ("blank",) * 2, (0, 1), (1, 0)), "protagonists"),
    ]
    for query, parameter in cases:
        error = refusal(query)
        assert isinstance(error, gametab.QueryError) and isinstance(error, ValueError), (parameter, error)
        assert error.parameter == parameter, (parameter, error.parameter, str(error))


def test_wrong_types_are_parameter_type_errors(tables: gametab.Tables) -> None:
    mp = tables.murder_plan
    for query, parameter in [
        (lambda: mp.value("8", (0, 1), (1, 0)), "days"),
        (lambda: mp.value(8.0, (0, 1), (1, 0)), "days"),
        (lambda: mp.value(8, None, (1, 0)), "brain"),
        (lambda: mp.value(8, (0, 1), (1, 0), diagonal_left=1), "diagonal_left"),
        (lambda: tables.dice.probability(4, "5x5", None), "hand"),
        (lambda: tables.dice.probability(4, "5x5", "1", reliability="high"), "reliability"),
        (lambda: gametab.cluedo.notebook(42), "log"),  # type: ignore[arg-type]
    ]:
        error = refusal(query)
        assert isinstance(error, gametab.ParameterTypeError) and isinstance(error, TypeError)
        assert error.parameter == parameter, (parameter, error)


def test_missing_keys_are_key_errors(tables: gametab.Tables) -> None:
    error = refusal(lambda: tables.dice.endgame((2, 2), sides=6))
    assert isinstance(error, gametab.MissingKeyError) and isinstance(error, KeyError)
    assert "the tables hold no 2v2 6-sided normal endgame" in str(error)
    error = refusal(lambda: tables.table("no_such_table"))
    assert isinstance(error, KeyError) and error.parameter == "name"
    assert tables.dice.get_endgame((2, 2)) is None
    assert tables.dice.get_endgame((2, 2), default=0) == 0
    assert tables.dice.get_endgame((2, 1)) is not None


def test_get_forms_return_the_default(tables: gametab.Tables) -> None:
    mp = tables.murder_plan
    assert mp.get_value(9, (0, 1), (1, 0)) is None
    assert mp.get_value(8, (0, 1), (1, 0)).value == mp.value(8, (0, 1), (1, 0)).value
    assert mp.get_win_rate(42, default="none") == "none"
    endgame = tables.dice.endgame((2, 1))
    assert endgame.get_at("bogus") is None
    assert endgame.get_at("1x5").point.to_move == 2


def test_missing_and_broken_table_sets(tmp_path: pathlib.Path) -> None:
    error = refusal(lambda: gametab.open_tables(tmp_path / "nothing"))
    assert isinstance(error, gametab.TablesError)
    assert "no table set in" in str(error) and "scripts/build-tables" in str(error)
    # A set whose Murder Plan values were altered after the build: opening
    # reads the manifest only; the first query checks the digest.
    broken = tmp_path / "broken"
    shutil.copytree(tables_dir(), broken)
    values = broken / "murder_plan_values.parquet"
    data = bytearray(values.read_bytes())
    data[len(data) // 2] ^= 0xFF
    values.write_bytes(bytes(data))
    with gametab.open_tables(broken) as opened:
        error = refusal(lambda: opened.murder_plan.value(8, (0, 1), (1, 0)))
        assert isinstance(error, gametab.TablesError)
        assert "digest" in str(error), str(error)
        error = refusal(lambda: opened.table("murder_plan_values"))
        assert isinstance(error, gametab.TablesError) and "digest" in str(error)
        # The other games still load.
        assert opened.dice.probability(4, "5x5", "1,5,5,2,3").source == "table"
    closed = gametab.open_tables(tables_dir())
    closed.close()
    assert isinstance(refusal(lambda: closed.murder_plan), gametab.TablesError)


def test_bad_logs_are_log_errors(tmp_path: pathlib.Path) -> None:
    for log in ["{", "{}", '{"players": 3}', tmp_path / "missing.json", "/dev/null", {"players": "x"}]:
        error = refusal(lambda: gametab.cluedo.notebook(log))  # type: ignore[arg-type]
        assert isinstance(error, gametab.LogError) and error.parameter == "log", (log, error)
    error = refusal(lambda: gametab.werewolf.roles({"players": 5, "wolves": 9, "events": []}))
    assert isinstance(error, gametab.LogError), error


REPO_EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "examples" / "cluedo-game.json"
WEREWOLF_EXAMPLE = REPO_EXAMPLE.with_name("werewolf-roles-7.json")

# ---- the fuzz ----

ODD_VALUES: List[Any] = [
    None, True, False, 0, 1, -1, 2, 3, 8, 9, 255, 256, -(2**63), 2**64, 10**30, 0.5, -0.0,
    float("nan"), float("inf"), "", "0,1", "1,1,1", "x", "5x5", "0x0", "1x5,2x3", "\u00e9\u0000",
    "9" * 400, b"0,1", (0, 1), (1,), (0, 1, 1), [1, 5, 5], (2**40, 0), ["a"], {}, {"a": 1},
    object(), pathlib.Path("/nonexistent"), range(3), [float("nan")], (True, False),
]


def mutate(value: Any, rng: random.Random, depth: int = 0) -> Any:
    """A random corruption of a JSON value."""
    roll = rng.random()
    if isinstance(value, dict) and value and roll < 0.8:
        value = dict(value)
        key = rng.choice(list(value))
        action = rng.random()
        if action < 0.3:
            del value[key]
        elif action < 0.9 and depth < 4:
            value[key] = mutate(value[key], rng, depth + 1)
        else:
            value[key] = rng.choice(ODD_VALUES[:30])
        return value
    if isinstance(value, list) and value and roll < 0.8:
        value = list(value)
        index = rng.randrange(len(value))
        action = rng.random()
        if action < 0.3:
            del value[index]
        elif action < 0.6:
            value.insert(index, value[index])
        elif depth < 4:
            value[index] = mutate(value[index], rng, depth + 1)
        return value
    return rng.choice(
        [None, True, -1, 0, 7, 10**12, 2**70, 0.25, "", "Rope", "??", [], {}, [None], value]
    )


def json_safe(value: Any) -> Any:
    return value if isinstance(value, (dict,)) else {"value": value}


def test_fuzzed_logs_raise_only_gametab_errors(examples: pathlib.Path) -> None:
    rng = random.Random(36)
    logs: Dict[str, Any] = {
        name: json.loads((examples / f"{name}.json").read_text())
        for name in ["cluedo-game", "werewolf-demo", "werewolf-roles-7", "werewolf-roles-rules"]
    }
    outcomes = {"answered": 0, "refused": 0}
    for round_ in range(160):
        name = rng.choice(list(logs))
        log = mutate(logs[name], rng)
        as_text = json.dumps(json_safe(log), allow_nan=True, default=repr)
        if rng.random() < 0.2:
            as_text = as_text[: rng.randrange(len(as_text) + 1)]
        for given in (json_safe(log), as_text):
            try:
                if name.startswith("cluedo"):
                    if rng.random() < 0.5:
                        gametab.cluedo.notebook(given, step_limit=2_000_000)
                    else:
                        gametab.cluedo.advice(given, top=rng.randint(1, 3), step_limit=2_000_000)
                else:
                    gametab.werewolf.roles(given, step_limit=2_000_000)
                outcomes["answered"] += 1
            except gametab.Error:
                outcomes["refused"] += 1
    assert outcomes["refused"] > 50 and outcomes["answered"] > 0, outcomes


def test_fuzzed_parameters_raise_only_gametab_errors(tables: gametab.Tables) -> None:
    rng = random.Random(3636)
    mp = tables.murder_plan
    endgame = tables.dice.endgame((2, 1))
    calls: List[Callable[..., Any]] = [
        lambda a, b, c, d: mp.value(a, b, c, killer_intrigue=d),
        lambda a, b, c, d: mp.state(a, b, c, forbid_movement_left=d),
        lambda a, b, c, d: mp.strategy(a, b, c, d),
        lambda a, b, c, d: mp.moves(a, b, c, d),
        lambda a, b, c, d: mp.sample(a, 8, b, c, d),
        lambda a, b, c, d: mp.brain_choice(a, b, c, diagonal_left=d),
        lambda a, b, c, d: mp.win_rate(a, b, c),
        lambda a, b, c, d: tables.dice.probability(a, b, c, reliability=d),
        lambda a, b, c, d: tables.dice.posterior(a, b, c, wild=d),
        lambda a, b, c, d: tables.dice.decision(a, b, c, reliability=d),
        lambda a, b, c, d: tables.dice.probability(4, a, b, total_dice=c, bidder_dice=d),
        lambda a, b, c, d: gametab.dice.odds(a, b, c, reliability=d),
        lambda a, b, c, d: tables.dice.endgame(a, b, c),
        lambda a, b, c, d: endgame.at(a, b),
        lambda a, b, c, d: gametab.murder_plan.legal_actions(a, b, c, d),
        lambda a, b, c, d: gametab.murder_plan.turn(a, b, c, d),
        lambda a, b, c, d: tables.table(a),
        lambda a, b, c, d: tables.load(a),
        lambda a, b, c, d: gametab.cluedo.advice(REPO_EXAMPLE, room=a, top=b, model=c, time_limit=d),
        lambda a, b, c, d: gametab.werewolf.roles(WEREWOLF_EXAMPLE, rule=a, step_limit=b),
        lambda a, b, c, d: gametab.open_tables(a),
    ]
    plausible = [8, 4, (0, 1), (1, 0), "5x5", "1,5,5,2,3", "mastermind", (2, 1), 6, False, 0.42, "1x5", "3"]
    refused = answered = 0
    for _ in range(3000):
        call = rng.choice(calls)
        args = [rng.choice(ODD_VALUES + plausible) for _ in range(4)]
        try:
            call(*args)
            answered += 1
        except gametab.Error:
            refused += 1
    assert refused > 1000 and answered > 0, (refused, answered)

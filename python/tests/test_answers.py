"""Answers: the fields each class declares are the fields of its document
(a field renamed on the Rust side fails here, by name), attribute access,
and the Murder Plan rules."""

from __future__ import annotations

import pathlib
import typing
from typing import Any, Dict, List, Tuple, Type

import pytest

import gametab
from gametab import _answers


def declared(cls: Type[gametab.Answer]) -> Dict[str, Any]:
    fields: Dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        if issubclass(klass, gametab.Answer) and klass is not gametab.Answer:
            fields.update({k: v for k, v in vars(klass).get("__annotations__", {}).items() if not k.startswith("_")})
    return fields


def samples(tables: gametab.Tables, examples: pathlib.Path) -> List[Tuple[gametab.Answer, bool]]:
    mp = tables.murder_plan
    state = dict(days=8, brain=(0, 1), killer=(1, 0))
    endgame = tables.dice.endgame((2, 1))
    bid = dict(players=4, bid="5x5", hand="1,5,5,2,3")
    # (answer, whether every optional field is present)
    return [
        (mp.value(**state), True),
        (mp.state(**state), True),
        (mp.strategy("mastermind", **state), True),
        (mp.moves("protagonists", **state), True),
        (mp.sample("mastermind", u=0.1, **state), True),
        (mp.brain_choice(5, (0, 0), (1, 1)), True),
        (mp.win_rate(8), True),
        (mp.win_rates(), True),
        (gametab.murder_plan.legal_actions("protagonists"), True),
        (gametab.murder_plan.turn(("blank",) * 3, ("blank",) * 3, (0, 0), (0, 0), brain_target="killer"), True),
        (gametab.dice.odds(**bid), True),
        (tables.dice.probability(**bid), True),
        (tables.dice.posterior(**bid), True),
        (tables.dice.decision(**bid), True),
        (endgame.at("1x5", hand="3"), True),
        (gametab.cluedo.notebook(examples / "cluedo-game.json"), True),
        (gametab.cluedo.advice(examples / "cluedo-game.json", top=1), True),
        (gametab.werewolf.roles(examples / "werewolf-roles-7.json"), True),
        (gametab.werewolf.roles(examples / "werewolf-demo.json"), False),
    ]


def test_declared_fields_are_the_documents_fields(tables: gametab.Tables, examples: pathlib.Path) -> None:
    seen = set()
    for answer, complete in samples(tables, examples):
        cls = type(answer)
        seen.add(cls)
        fields = set(declared(cls))
        document = set(answer.to_dict())
        optional = set(cls._optional)
        assert document <= fields, f"{cls.__name__}: undeclared fields {document - fields}"
        missing = fields - document
        if complete:
            assert not missing, f"{cls.__name__}: declared but not in the document: {missing}"
        else:
            assert missing <= optional, f"{cls.__name__}: missing {missing - optional}"
        for name in fields:
            getattr(answer, name)
    every = {getattr(_answers, n) for n in _answers.__all__} - {gametab.Record, gametab.Answer}
    assert every <= seen, f"no sample of {every - seen}"


def test_attributes_records_and_dicts(tables: gametab.Tables) -> None:
    state = tables.murder_plan.state(8, (0, 1), (1, 0))
    assert state.state.brain == [0, 1]
    assert state.state["killer"] == [1, 0]
    first = state.moves.mastermind[0]
    assert isinstance(first, gametab.Record)
    assert first.loss == 0.0 and first.value == pytest.approx(state.value)
    assert "loss" in first and "nothing" not in first
    with pytest.raises(AttributeError):
        state.nothing
    with pytest.raises(AttributeError):
        state.value = 1.0  # type: ignore[misc]
    copy = state.to_dict()
    copy["value"] = -1
    assert state.value != -1
    assert "MurderPlanState(" in repr(state)
    assert tables.murder_plan.value(8, "0,1", "1,0") == tables.murder_plan.value(8, [0, 1], (1, 0))


def test_rules_turn() -> None:
    turn = gametab.murder_plan.turn(
        mastermind=("horizontal", "vertical", "intrigue+1"),
        protagonists=("blank", "blank", "forbid-intrigue"),
        brain=(0, 1),
        killer=(1, 0),
    )
    assert turn.after_cards.killer_intrigue == 0
    assert turn.after_brain is None and turn.brain_targets
    legal = gametab.murder_plan.legal_actions("mastermind", diagonal_left=False, intrigue2_left=False)
    names = {c for a in legal.actions for c in a.to_dict().values()}
    assert "diagonal" not in names and "intrigue+2" not in names
    with pytest.raises(gametab.QueryError) as caught:
        gametab.murder_plan.turn(("diagonal",) * 3, ("blank",) * 3, (0, 1), (1, 0))
    assert caught.value.parameter == "mastermind"

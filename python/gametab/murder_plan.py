"""The Murder Plan rules (no tables needed): each side's legal actions and
one turn. The tables' queries are :class:`gametab.MurderPlan`
(``tables.murder_plan``).

>>> import gametab.murder_plan
>>> len(gametab.murder_plan.legal_actions("mastermind").actions)
136
>>> turn = gametab.murder_plan.turn(
...     mastermind=("horizontal", "vertical", "intrigue+1"),
...     protagonists=("blank", "blank", "blank"),
...     brain=(0, 1), killer=(1, 0))
>>> turn.after_cards.killer_intrigue, turn.brain_targets
(1, ['nobody'])
"""

from __future__ import annotations

from typing import Optional, Sequence

from . import _gametab
from ._answers import LegalActions, Turn
from ._tables import Offset

__all__ = ["legal_actions", "turn"]


def legal_actions(
    side: str,
    diagonal_left: bool = True,
    intrigue2_left: bool = True,
    forbid_movement_left: int = 3,
) -> LegalActions:
    """Every legal action of ``side`` (``"mastermind"`` or
    ``"protagonists"``) with these limited cards left: the cards on the key
    person, the brain and the killer."""
    return LegalActions(
        _gametab.murder_plan_legal_actions(side, diagonal_left, intrigue2_left, forbid_movement_left)
    )


def turn(
    mastermind: Sequence[str],
    protagonists: Sequence[str],
    brain: Offset,
    killer: Offset,
    killer_intrigue: int = 0,
    key_person_intrigue: int = 0,
    diagonal_left: bool = True,
    intrigue2_left: bool = True,
    forbid_movement_left: int = 3,
    brain_target: Optional[str] = None,
) -> Turn:
    """One turn: both sides' cards (on the key person, the brain, the
    killer) resolved by the rules, then the brain's ability on
    ``brain_target`` (``"killer"``, ``"key_person"``, ``"nobody"``) when
    given; ``brain_targets`` lists the legal ones."""
    return Turn(
        _gametab.murder_plan_turn(
            mastermind,
            protagonists,
            brain_target,
            brain,
            killer,
            killer_intrigue,
            key_person_intrigue,
            diagonal_left,
            intrigue2_left,
            forbid_movement_left,
        )
    )

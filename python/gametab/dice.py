"""Liar's Dice odds from the engine (no tables needed): ``gametab dice``.
The tables' queries (stored rows, the endgames) are :class:`gametab.Dice`
(``tables.dice``).

>>> import gametab.dice
>>> odds = gametab.dice.odds(players=4, bid="5x5", hand="1,5,5,2,3")
>>> odds.my_matching, round(odds.odds.raw_probability, 4)
(2, 0.4678)
"""

from __future__ import annotations

from typing import Optional

from . import _gametab
from ._answers import DiceOdds
from ._tables import BidLike, HandLike

__all__ = ["odds"]


def odds(
    players: int,
    bid: BidLike,
    hand: HandLike,
    reliability: float = 2.0,
    wild: bool = False,
    total_dice: Optional[int] = None,
    bidder_dice: int = 5,
) -> DiceOdds:
    """The odds of the standing ``bid`` from my seat, the bidder's
    posterior and the published rule's advice (``gametab dice --json``)."""
    return DiceOdds(
        _gametab.dice_odds(players, bid, hand, reliability, wild, total_dice, bidder_dice)
    )

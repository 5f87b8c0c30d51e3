"""Type stubs of the native module ``gametab._gametab`` (python/src/py.rs).
Its functions take Python objects and check them themselves (a wrong type
or value raises a gametab exception naming the parameter); answers are
plain dicts, wrapped by the Python half (``gametab/_answers.py``)."""

from os import PathLike
from typing import Any, Dict, List, Optional, Type

__version__: str

def _register(
    error: Type[BaseException],
    query: Type[BaseException],
    query_type: Type[BaseException],
    log: Type[BaseException],
    missing_key: Type[BaseException],
    tables: Type[BaseException],
    budget: Type[BaseException],
) -> None: ...
def open(path: str) -> NativeTables: ...
def table_names() -> List[str]: ...
def dice_odds(
    players: object,
    bid: object,
    hand: object,
    reliability: object,
    wild: object,
    total_dice: object,
    bidder_dice: object,
) -> Dict[str, Any]: ...
def murder_plan_legal_actions(
    side: object, diagonal_left: object, intrigue2_left: object, forbid_movement_left: object
) -> Dict[str, Any]: ...
def murder_plan_turn(
    mastermind: object,
    protagonists: object,
    brain_target: object,
    brain: object,
    killer: object,
    killer_intrigue: object,
    key_person_intrigue: object,
    diagonal_left: object,
    intrigue2_left: object,
    forbid_movement_left: object,
) -> Dict[str, Any]: ...
def cluedo(
    log: object,
    is_path: bool,
    model: object,
    advise: bool,
    room: object,
    top: object,
    time_limit: object = None,
    step_limit: object = None,
) -> Dict[str, Any]: ...
def werewolf(
    log: object,
    is_path: bool,
    rule: object,
    time_limit: object = None,
    step_limit: object = None,
) -> Dict[str, Any]: ...

class NativeTables:
    @property
    def path(self) -> PathLike[str]: ...
    def manifest(self) -> Dict[str, Any]: ...
    def load(self, game: object) -> None: ...
    def murder_plan_query(
        self,
        query: str,
        days: object,
        brain: object,
        killer: object,
        killer_intrigue: object,
        key_person_intrigue: object,
        diagonal_left: object,
        intrigue2_left: object,
        forbid_movement_left: object,
        side: object = None,
        u: object = None,
    ) -> Dict[str, Any]: ...
    def murder_plan_win_rate(
        self, horizon: object, brain: object = None, killer: object = None
    ) -> Dict[str, Any]: ...
    def murder_plan_win_rates(self) -> Dict[str, Any]: ...
    def dice_query(
        self,
        query: str,
        players: object,
        bid: object,
        hand: object,
        reliability: object,
        wild: object,
        total_dice: object,
        bidder_dice: object,
    ) -> Dict[str, Any]: ...
    def endgame(self, dice: object, sides: object, wild: object) -> NativeEndgame: ...
    def table(self, name: object) -> ArrowTable: ...

class NativeEndgame:
    @property
    def name(self) -> str: ...
    def at(self, history: object, hand: object = None) -> Dict[str, Any]: ...

class ArrowTable:
    @property
    def name(self) -> str: ...
    @property
    def num_rows(self) -> int: ...
    @property
    def column_names(self) -> List[str]: ...
    def __arrow_c_stream__(self, requested_schema: object = None) -> object: ...

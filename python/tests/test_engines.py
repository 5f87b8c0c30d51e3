"""Long work: the engines release the GIL, and stop on the budgets (a time
or a step limit, as the server's) with BudgetExceeded."""

from __future__ import annotations

import pathlib
import threading
import time

import pytest

import gametab


def test_step_and_time_limits_stop_the_engines(examples: pathlib.Path) -> None:
    log = examples / "cluedo-game.json"
    with pytest.raises(gametab.BudgetExceeded) as caught:
        gametab.cluedo.advice(log, step_limit=10)
    assert isinstance(caught.value, TimeoutError)
    assert "10 engine steps" in str(caught.value)
    with pytest.raises(gametab.BudgetExceeded):
        gametab.werewolf.roles(examples / "werewolf-roles-12.json", step_limit=5)
    with pytest.raises(gametab.BudgetExceeded):
        gametab.cluedo.advice(log, time_limit=1e-6)
    # Within the limits the answer is the unbudgeted one.
    assert gametab.cluedo.advice(log, time_limit=60).to_dict() == gametab.cluedo.advice(log).to_dict()
    with pytest.raises(gametab.QueryError) as refused:
        gametab.cluedo.advice(log, time_limit=1, step_limit=1)
    assert refused.value.parameter == "step_limit"


def test_engines_release_the_gil(examples: pathlib.Path) -> None:
    log = examples / "cluedo-game.json"
    started = time.perf_counter()
    gametab.cluedo.advice(log)
    single = time.perf_counter() - started
    worker = threading.Thread(target=lambda: [gametab.cluedo.advice(log) for _ in range(3)])
    wakeups = 0
    worker.start()
    while worker.is_alive():
        time.sleep(0.001)
        wakeups += 1
    worker.join()
    # This thread woke up (which takes the GIL) about once a millisecond
    # while the engine worked; with the GIL held by the engine it would
    # wake only between the calls.
    assert wakeups > max(15, single * 3 * 1000 / 10), (single, wakeups)


def test_threads_share_one_table_set(tables: gametab.Tables) -> None:
    results = []

    def query() -> None:
        results.append(tables.murder_plan.value(8, (0, 1), (1, 0)).value)

    threads = [threading.Thread(target=query) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(results)) == 1 and len(results) == 8


def test_ctrl_c_during_an_engine_is_a_keyboard_interrupt() -> None:
    import _thread

    # About three million role assignments: milliseconds to tens of them.
    log = {
        "players": 14,
        "wolves": 3,
        "roles": {"seer": 1, "witch": 1, "hunter": 1, "guard": 1},
        "reveal": "role",
        "events": [{"kind": "night", "deaths": []}],
    }
    expected = gametab.werewolf.roles(log).to_dict()
    # The signal is sent 1 ms after the call is armed, never before: on a
    # loaded machine a plain Timer could fire while its own start() still
    # waits, outside the block below.
    armed = threading.Event()

    def ctrl_c() -> None:
        armed.wait()
        time.sleep(0.001)
        _thread.interrupt_main()

    sender = threading.Thread(target=ctrl_c)
    sender.start()
    # The waiting thread polls for signals every 10 ms: an engine still
    # running then has its budget cancelled and the call raises at once;
    # one done before raises as the call returns. Either way Ctrl-C is a
    # KeyboardInterrupt, never a gametab error or a lost signal.
    with pytest.raises(KeyboardInterrupt):
        armed.set()
        gametab.werewolf.roles(log)
        time.sleep(1)  # a signal that arrived after the answer lands here
    sender.join()
    # The engine thread is gone and the next call answers as before.
    assert gametab.werewolf.roles(log).to_dict() == expected

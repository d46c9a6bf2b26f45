"""A paced deal given out on time (docs/protocol.md "Paced deal"): on AWS the timers' schedule runs
once a minute, too seldom for a card every quarter second, so a board whose cards the server gives
out gets a pacer — an asynchronous invocation that sleeps until each card is due, gives it out and
sends the table its views, and hands over to a fresh invocation before its time budget runs out.

Every step is the sweep's own (``tableboard.give_out_due`` under the board's version check): a retried
or doubled pacer, a sweep and the table's messages may all give cards out, each card exactly once.
The local venue sweeps every second, which paces its deals without a pacer.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..boards import clocks as board_clocks
from ..boards import progress as board_progress
from ..boards import store as board_store
from ..boards import table as tableboard
from ..boards.progress import PACE, pace_request
from ..boards.store import Unchanged
from ..infra.clock import now_ms
from ..infra.runtime import Runtime
from ..storage.models import BoardStateItem

BUDGET_MS = 60_000  # one invocation paces this long at most, then hands over to the next


def pace_deal(
    rt: Runtime,
    key: dict[str, Any],
    *,
    sleep: Callable[[float], None] = time.sleep,
    budget_ms: int = BUDGET_MS,
) -> int:
    """Give the board's cards out as they fall due until its deal is complete (or it stops, or ends);
    the steps this invocation made. Past ``budget_ms`` it invokes a pacer for the rest and returns."""
    board_key = (str(key["event_id"]), int(key["round"]), str(key["table"]), str(key["board"]))
    started = now_ms()
    steps = 0
    while True:
        item = board_store.load(*board_key)
        if item is None or item.status != "playing":
            return steps
        _, board = board_store.engine_of(item)
        due = board_clocks.next_card_at(item, board)
        if not due:
            return steps  # dealt out, or a dealing table's reads pace this board
        if due - started > budget_ms:
            rest = started + budget_ms - now_ms()
            if rest > 0:
                sleep(rest / 1000)  # the budget used up first: a pacer never hands over at once
            rt.invoke(PACE, pace_request(item))
            return steps
        wait = due - now_ms()
        if wait > 0:
            sleep(wait / 1000)
        if _give_out_due(rt, board_key):
            steps += 1


def _give_out_due(rt: Runtime, key: tuple[str, int, str, str]) -> bool:
    def change(current: BoardStateItem) -> bool | Unchanged[bool]:
        if current.status != "playing":
            return Unchanged(False)
        _, board = board_store.engine_of(current)
        return True if tableboard.give_out_due(current, board, now_ms()) else Unchanged(False)

    item, moved = board_store.transact(key, change)
    if moved:
        board_progress.after_change(rt, item)
    return moved

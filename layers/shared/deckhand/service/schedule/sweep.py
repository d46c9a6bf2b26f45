"""The scheduled sweep: timeouts applied to decisions whose time is up, any ended board scored, the
board after an ended one started if a crash left it waiting, and a round whose every board is scored
finished if the step that finishes it was lost (its invocation out of retries).

Every incoming device message also applies due timeouts first (devices.py), so the sweep only
matters for tables that have gone quiet; it is cheap and safe to run as often as wanted.
"""

from __future__ import annotations

from pynamodb.exceptions import DoesNotExist

from ..boards import clocks as board_clocks
from ..boards import progress as board_progress
from ..boards import store as board_store
from ..boards import table as tableboard
from ..boards.round_boards import boards_of_round
from ..boards.store import Unchanged
from ..duplicate import scoring
from ..infra.clock import now_ms
from ..infra.runtime import Runtime
from ..storage.keys import ACTIVE, event_pk, result_sk, round_sk
from ..storage.models import ActiveItem, BoardStateItem, ResultItem, RoundItem

# A paced deal's card this late (ms) means its pacer is gone: the sweep gives out what is due and
# invokes a new one (a live pacer is never this late; two at once would only share the work).
PACER_LATE_MS = 2_000

# The attributes of a board the sweep decides from (its key, status, clocks and successor).
SWEPT = [
    "pk",
    "sk",
    "table",
    "board",
    "status",
    "deadline",
    "clock_ends_at",
    "next_board",
    "event_id",
    "round",
    "time_up_told",
]


def sweep(rt: Runtime) -> dict[str, int]:
    counts = {"rounds": 0, "boards": 0, "timeouts": 0, "rescored": 0, "started": 0, "finished": 0}
    for active in ActiveItem.query(ACTIVE):
        try:
            r = RoundItem.get(event_pk(active.event_id), round_sk(active.round))
        except DoesNotExist:
            continue
        counts["rounds"] += 1
        pairs = boards_of_round(active.event_id, active.round, r)
        # What the sweep looks at, never the boards' states and logs (a round's boards are read whole
        # only where something is due: the venue sweeps every second).
        items = board_store.load_many(active.event_id, active.round, pairs, attributes=SWEPT)
        scored = _scored(
            [item for item in items.values() if item.status == "ended"], active.event_id, active.round
        )
        for table, b in pairs:
            item = items.get((table, b))
            if item is None:
                continue
            counts["boards"] += 1
            due = item.deadline and item.deadline <= now_ms()
            if item.status == "playing" and (due or _clock_due(item)):
                counts["timeouts"] += _timeout(rt, item)
            elif item.status == "ended":
                if (item.table, item.board) not in scored:
                    rt.invoke(
                        "score",
                        {"event_id": item.event_id, "round": item.round, "table": item.table, "board": b},
                    )
                    counts["rescored"] += 1
                following = items.get((table, item.next_board))
                if following is not None and following.status == "waiting":
                    # A crash after this board was saved, before the next one started: start it.
                    counts["started"] += int(board_progress.start_next(rt, item))
        if pairs and len(scored) == len(pairs):
            # Every board ended and scored, and the round still active: its finishing step failed for
            # good (Lambda gives up after two retries). Finishing is idempotent: redone here.
            scoring.maybe_finish_round(rt, active.event_id, active.round)
            counts["finished"] += 1
    return counts


def sweep_boards(rt: Runtime, event_id: str, round_no: int, pairs: list[tuple[str, str]]) -> int:
    """What is due on these boards only (a simulated event in lock-step knows which boards have a card
    or a decision due): the decisions and cards applied."""
    items = board_store.load_many(event_id, round_no, pairs, attributes=SWEPT)
    applied = 0
    for item in items.values():
        due = item.deadline and item.deadline <= now_ms()
        if item.status == "playing" and (due or _clock_due(item)):
            applied += _timeout(rt, item)
    return applied


def _timeout(rt: Runtime, item: BoardStateItem) -> int:
    """Apply what is due on the board, read whole now (``item`` has the swept attributes only)."""

    late = False

    def change(current: BoardStateItem) -> tableboard.Timeouts | Unchanged[tableboard.Timeouts]:
        nonlocal late
        # A paced deal's card long overdue: its pacer (AWS) is gone — failed, or never invoked.
        late = bool(current.deal_from and current.deadline and now_ms() - current.deadline > PACER_LATE_MS)
        timeouts = tableboard.apply_timeouts(current)
        return timeouts if timeouts.applied else Unchanged(timeouts)

    updated, timeouts = board_store.transact((item.event_id, item.round, item.table, item.board), change)
    if late and board_clocks.next_card_at(updated, board_store.engine_of(updated)[1]):
        rt.invoke(
            board_progress.PACE, board_progress.pace_request(updated)
        )  # a new pacer for the rest of the deal
    if timeouts.applied:
        board_progress.after_change(rt, updated, redealt=timeouts.redealt)
    return timeouts.applied


def _scored(ended: list[BoardStateItem], event_id: str, round_no: int) -> set[tuple[str, str]]:
    """(table, board) of the ended boards whose result is stored: one batch read, not one read a
    board (the venue sweeps every second; a 64-table round has 256 boards)."""
    keys = [(event_pk(event_id), result_sk(round_no, item.table, item.board)) for item in ended]
    found = ResultItem.batch_get(keys, attributes_to_get=["pk", "sk", "table", "board"])
    return {(result.table, result.board) for result in found}


def _clock_due(item: BoardStateItem) -> bool:
    """The match's clock ran out and the board (read with the swept attributes) was not told yet: only
    then is it read whole (``time_up_told`` is set as it is told)."""
    return board_clocks.clock_ran_out(item) and not item.time_up_told

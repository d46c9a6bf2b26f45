"""A board a table could not play — never begun there, or begun and stuck — ended by the referee, so
that the table and the round go on (docs/competition.md, Artificial scores).

The referee's artificial score for such a board ends it first (service/refereeing/artificial_scores.py): one
versioned write marks it ended with a log entry (board_log.UNPLAYED), its result is written marked
``not_played`` with the round's counter (scoring.store_result: counted once however often this runs),
and the table's next board begins (idempotent). The board's hands are never shown: a table that never
began it must not see a deal the other tables still play.
"""

from __future__ import annotations

from typing import Any

from pynamodb.exceptions import DoesNotExist

from ...engines.contract import Rejected
from ...engines.registry import game
from ..boards import progress as board_progress
from ..boards import store as board_store
from ..boards import views as board_views
from ..boards.log import UNPLAYED, ended_unplayed
from ..boards.store import Unchanged
from ..duplicate import scoring
from ..infra.clock import now_ms
from ..infra.runtime import Runtime
from ..organiser.events import NotFound
from ..storage.keys import event_pk, result_sk
from ..storage.models import BoardStateItem, ResultItem


def board_to_end(event_id: str, round_no: int, table: str, board: str) -> BoardStateItem:
    """The table's board the referee names, checked: it exists, its boards stand alone, and the table
    has reached it (every board before it at the table has ended). Raises ``Rejected`` or NotFound."""
    item = board_store.load(event_id, round_no, table, board)
    if item is None:
        raise NotFound(f"table {table} plays no board {board} in round {round_no}")
    _check(item)
    if item.previous_board:
        previous = board_store.load(event_id, round_no, table, item.previous_board)
        if previous is not None and previous.status != "ended":
            raise Rejected(
                "board_not_reached",
                f"table {table} has not finished board {item.previous_board}: board {board} is still to"
                " come there (end the board in play first)",
            )
    return item


def end_unplayed(rt: Runtime, item: BoardStateItem, by: str, adjusted: dict[str, Any]) -> BoardStateItem:
    """End ``item`` unplayed (conditional on its version: a play racing this one wins or loses
    whole), write its result with ``adjusted``, begin the table's next board. Returns the stored
    board: one the table finished meanwhile stays played (the caller scores it as such)."""
    begun = False

    def change(current: BoardStateItem) -> bool | Unchanged[bool]:
        nonlocal begun
        if current.status == "ended":
            return Unchanged(False)  # ended unplayed before (a retry), or played to its end meanwhile
        _check(current)
        begun = current.status != "waiting"  # its handsets show it: they are told it is over
        current.status = "ended"
        current.deadline = 0
        current.log = [*current.log, {"s": -1, "t": UNPLAYED, "by": by, "at": now_ms()}]
        return True

    key = (item.event_id, item.round, item.table, item.board)
    stored, _ = board_store.transact(key, change)
    if not ended_unplayed(stored):
        return stored
    if not scoring.store_result(stored, adjusted):
        _mark(stored, adjusted)  # written first by a re-driven scoring of the board (the sweep)
    if begun:
        board_views.publish_views(rt.publisher, stored)  # "not played", until the next board's views
    board_progress.start_next(rt, stored)
    scoring.maybe_finish_round(rt, stored.event_id, stored.round)
    return stored


def _check(item: BoardStateItem) -> None:
    """Only a board that stands alone: one a later board is made from (levels, scores carried) would
    leave that board nothing to start from."""
    if game(item.ruleset).carries or item.in_match or not item.state:
        raise Rejected(
            "boards_carry",
            f"table {item.table}'s boards carry from one to the next: artificial scores are for"
            " boards that stand alone (a duplicate event)",
        )


def _mark(item: BoardStateItem, adjusted: dict[str, Any]) -> None:
    try:
        result = ResultItem.get(
            event_pk(item.event_id), result_sk(item.round, item.table, item.board), consistent_read=True
        )
    except DoesNotExist:
        return
    result.adjusted = adjusted
    result.save()

"""The referee resumes a board its electronic board stopped (an illegal move sensed, or pieces that
differ from the game: service/device_io/eboard_reports.py) once the pieces are back where the game has
them: play goes on from the server's position, with the clocks moved on by the time the board stood
stopped, as for an outage of the system (service/refereeing/outage.py).

The action names the board's version as the round's status showed it to the referee: a board that
changed since is refused (read it again), and a retry of the same resume finds its own log entry and
changes nothing (its audit entry is the same item, written again).
"""

from __future__ import annotations

from typing import Any

from pynamodb.exceptions import DoesNotExist

from ...engines.contract import Rejected
from ..boards import progress as board_progress
from ..boards import store as board_store
from ..boards import table as tableboard
from ..boards.eboard_stops import position_refused_since_stop, stop_index
from ..boards.log import RESUMED
from ..boards.match_boards import get_match
from ..boards.store import Unchanged
from ..infra.clock import now_ms
from ..infra.runtime import Runtime
from ..organiser.events import NotFound, event_id_of
from ..storage.models import BoardStateItem, EventItem
from .outage import Outage, shift_board


def resume(rt: Runtime, event: EventItem, action: dict[str, Any], by: str) -> dict[str, Any]:
    """Resume the stopped board at ``action``'s table (its ``board``, else the match's board in play) of
    its ``round`` (else the round in play), bound to its ``version``; where and when it applied, and the
    audit entry's token (the same for a retry)."""
    event_id = event_id_of(event)
    table, version = action.get("table"), action.get("version")
    if not table or version is None:
        raise Rejected("resume_incomplete", "a resume names the table and the board's version (its status's)")
    round_no = int(action.get("round") or event.current_round)
    board = action.get("board") or _board_in_play(event_id, round_no, table)

    def change(item: BoardStateItem) -> int | Unchanged[int]:
        done = next((e for e in item.log if e["t"] == RESUMED and e.get("v") == version), None)
        if done is not None:
            return Unchanged(int(done["at"]))  # a retry: resumed already
        if item.version != version:
            raise Rejected(
                "stale_version",
                f"board {item.board} is at version {item.version}, not {version}: read it again",
            )
        stopped_at = stop_index(item)
        if item.status != "stopped" or stopped_at is None:
            raise Rejected(
                "not_stopped_by_eboard",
                f"board {item.board} at table {item.table} is {item.status}, not stopped by its electronic board",
            )
        if position_refused_since_stop(item):
            raise Rejected(
                "position_mismatch",
                "the electronic board's last position differs from the game: put the pieces back first",
            )
        now = now_ms()
        item.status = "playing"
        item.stop_reason = None
        if item.deadline:
            shift_board(item, Outage(int(item.log[stopped_at]["at"]), now))  # the clocks held while stopped
        else:
            tableboard.resume(item)  # no clock was running: the seats to act are asked now
        item.log = [*item.log, {"s": -1, "t": RESUMED, "v": version, "by": by, "at": now}]
        return now

    try:
        item, at = board_store.transact((event_id, round_no, table, board), change)
    except DoesNotExist:
        raise NotFound(f"no board {board} at table {table} in round {round_no}") from None
    board_progress.after_change(rt, item)
    token = f"resume.{table}.{board}.{round_no}.{version}"
    return {"round": round_no, "table": table, "board": board, "version": version, "at": at, "token": token}


def _board_in_play(event_id: str, round_no: int, table: str) -> str:
    try:
        match = get_match(event_id, round_no, table)
    except DoesNotExist:
        raise Rejected(
            "board_missing", f"table {table!r} plays no match in round {round_no}: name the board"
        ) from None
    if not match.boards:
        raise Rejected("board_missing", f"table {table} has no board yet")
    return str(match.boards[-1])

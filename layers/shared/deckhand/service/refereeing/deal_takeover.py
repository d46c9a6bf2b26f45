"""The referee's way out when a table's automatic dealing table fails during a paced deal (jammed, dead,
off the network): the server gives out the rest of the board's cards at the event's pace, and deals
the rest of the match itself (docs/protocol.md "Paced deal").

Without it a board whose cards a dealing table releases waits for its reports for ever. A retry finds
the board already the server's, changes nothing again, and sends what follows once more (the views, a
pacer): the first attempt may have stopped before it.
"""

from __future__ import annotations

from typing import Any

from pynamodb.exceptions import DoesNotExist, UpdateError

from ...engines.contract import Rejected
from ...engines.registry import game
from ..boards import clocks as board_clocks
from ..boards import log as board_log
from ..boards import progress as board_progress
from ..boards import store as board_store
from ..boards import table as tableboard
from ..boards.match_boards import get_match
from ..boards.store import Unchanged
from ..infra.clock import now_ms
from ..infra.runtime import Runtime
from ..organiser.events import Conflict, event_id_of
from ..storage.models import BoardStateItem, EventItem, MatchItem

TAKEN_OVER = board_log.SERVE_DEAL  # the board's log entry (not an action: replay skips it)


def serve_deal(rt: Runtime, event: EventItem, table: str | None, by: str, token: str) -> dict[str, Any]:
    """The server deals at ``table`` from now on: the board in play's remaining cards at the event's
    pace, and every later board of the match; where and when it applied (``token``: the request's, so
    a retry finds its own entry)."""
    event_id = event_id_of(event)
    if not table:
        raise Rejected("table_missing", "serve_deal names the table whose dealing table failed")
    if game(event.ruleset).new_board_in_steps is None:
        raise Rejected("not_paced", "only a game dealt in steps has a deal the server can take over")
    if event.match is None or event.status != "playing":
        raise Conflict("no match is in play: the server takes over a match's deal in play")
    round_no = event.current_round
    match = _match(event_id, round_no, table)
    board = match.boards[-1]

    def change(item: BoardStateItem) -> int | Unchanged[int]:
        done = next((e for e in item.log if e.get("pid") == token), None)
        if done is not None or not item.dealer:
            return Unchanged(int(done["at"]) if done is not None else now_ms())  # a retry, or the server's
        if item.status not in ("waiting", "playing", "stopped"):
            raise Rejected("board_not_in_play", f"board {item.board} at table {item.table} is {item.status}")
        now = now_ms()
        item.dealer = ""
        item.log = [*item.log, {"s": -1, "t": TAKEN_OVER, "by": by, "pid": token, "at": now}]
        if item.status == "waiting":
            return now  # it starts paced by the server (tableboard.start)
        item.stop_reason = None
        _, engine = board_store.engine_of(item)
        steps = board_clocks.dealing(engine)
        if steps is not None and item.deal_ms:
            # The next card one interval from now: the pace runs as if it had dealt those out.
            item.deal_from = now - steps.dealt * item.deal_ms
        if item.status == "stopped":
            tableboard.resume(item)  # playing again; the seats' clocks and the next card asked
        else:
            tableboard.reask(item)  # the clocks run on; the next card is asked for
        if steps is not None and not item.deal_ms:
            tableboard.give_out(item, engine, steps.deal_total, now)
        return now

    item, at = board_store.transact((event_id, round_no, table, board), change)
    _no_dealer(event_id, round_no, table)
    if item.status != "waiting":
        if item.deal_from and item.deal_ms and board_clocks.dealing(board_store.engine_of(item)[1]):
            rt.invoke(
                board_progress.PACE, board_progress.pace_request(item)
            )  # twice on a retry: each card goes out once
        board_progress.after_change(rt, item)
    return {"table": table, "board": board, "round": round_no, "at": at}


def _match(event_id: str, round_no: int, table: str) -> MatchItem:
    try:
        match = get_match(event_id, round_no, table)
    except DoesNotExist:
        raise Rejected("unknown_table", f"table {table!r} plays no match in round {round_no}") from None
    if match.status != "playing" or not match.boards:
        raise Rejected("match_over", f"the match at table {table} has ended")
    return match


def _no_dealer(event_id: str, round_no: int, table: str) -> None:
    """The match's later boards are made without the dealing table (a board ending at the same moment
    changes the match too: read again and redone)."""
    for _ in range(board_store.MAX_ATTEMPTS):
        match = get_match(event_id, round_no, table)
        if not match.dealer:
            return
        try:
            match.update(actions=[MatchItem.dealer.set("")])
            return
        except UpdateError:
            continue
    raise board_store.LostRace(f"match at table {table} kept changing")

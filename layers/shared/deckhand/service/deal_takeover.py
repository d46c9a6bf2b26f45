"""The referee's way out when a table's automatic dealing table fails during a paced deal (jammed, dead,
off the network): the server gives out the rest of the board's cards at the event's pace, and deals
the rest of the match itself (docs/protocol.md "Paced deal").

Without it a board whose cards a dealing table releases waits for its reports for ever. The take-over
is idempotent: a retry finds the board already the server's and changes nothing again.
"""

from __future__ import annotations

from typing import Any

from ..engines.contract import Rejected
from . import flow, tableboard
from .clock import now_ms
from .events import Conflict, event_id_of
from .match_boards import get_match
from .models import BoardStateItem, EventItem, MatchItem
from .runtime import Runtime
from .tableboard import Unchanged


def serve_deal(rt: Runtime, event: EventItem, table: str | None) -> dict[str, Any]:
    """The server deals at ``table`` from now on: the board in play's remaining cards at the event's
    pace, and every later board of the match; where it applied."""
    event_id = event_id_of(event)
    if not table:
        raise Rejected("table_missing", "serve_deal names the table whose dealing table failed")
    if event.match is None or event.status != "playing":
        raise Conflict("no match is in play: the server takes over a match's deal in play")
    round_no = event.current_round
    try:
        match = get_match(event_id, round_no, table)
    except Exception:  # noqa: BLE001 - no such match: said as the caller's mistake
        raise Rejected("unknown_table", f"table {table!r} plays no match in round {round_no}") from None
    if match.status != "playing":
        raise Rejected("match_over", f"the match at table {table} has ended")
    if match.dealer:
        match.update(actions=[MatchItem.dealer.set("")])  # its later boards: dealt by the server
    board = match.boards[-1]

    def change(item: BoardStateItem) -> bool | Unchanged[bool]:
        if not item.dealer:
            return Unchanged(False)  # the server deals here already (a retry)
        if item.status not in ("playing", "stopped"):
            raise Rejected("board_not_in_play", f"board {item.board} at table {item.table} is {item.status}")
        item.dealer = ""
        item.stop_reason = None
        _, engine = tableboard.engine_of(item)
        steps = tableboard.dealing(engine)
        now = now_ms()
        if steps is not None and item.deal_ms:
            # The next card one interval from now: the pace runs as if it had dealt those out.
            item.deal_from = now - steps.dealt * item.deal_ms
        tableboard.resume(item)  # playing again if stopped; the seats' clocks and the next card asked
        if steps is not None and not item.deal_ms:
            tableboard.give_out(item, engine, steps.deal_total, now)
        return True

    item, changed = tableboard.transact((event_id, round_no, table, board), change)
    if changed:
        if item.deal_from and item.deal_ms and tableboard.dealing(tableboard.engine_of(item)[1]):
            rt.invoke(flow.PACE, flow.pace_request(item))
        flow.after_change(rt, item)
    return {"table": table, "board": board, "round": round_no}

"""A device (re)connects: it gets its current view, and a board a crash left waiting is begun."""

from __future__ import annotations

from typing import Any

from ..boards import progress as board_progress
from ..boards import store as board_store
from ..boards import views as board_views
from ..boards.log import ended_unplayed
from ..infra import outgoing
from ..infra.messaging import down_topic
from ..infra.runtime import Runtime
from ..storage.models import BoardStateItem, DeviceItem
from .incoming import DEALER, EBOARD
from .player_devices import seat_on


def hello(
    rt: Runtime,
    thing: str,
    device: DeviceItem,
    round_no: int,
    msg: str,
    lang: str | None = None,
    *,
    to: str | None = None,
) -> dict[str, Any]:
    """A (re)connected device gets its full current view (a rebooted handset resumes mid-board), in
    ``lang`` when it says one: the board shown, and the one a crash left waiting, are drawn in it from
    now on (a conditional write, none when they already are; later boards take it from the board before
    or the device's assignment).

    What it costs is capped whatever the round: the event and the round (read before), then the
    table's boards in one batch read. A board left waiting after the one before it ended (a crash in
    between) is started first: then every device at the table gets its view with the start. A board
    the table has not begun is never shown: neither its hands, nor its card order to the dealing table.
    ``to``: the thing the seat's view goes to (a player device: itself; None: the board's device)."""
    from ..boards.round_boards import boards_of_table
    from ..duplicate.rounds import get_round

    event_id, table, seat = device.event_id, device.table, device.seat
    boards = boards_of_table(event_id, round_no, get_round(event_id, round_no), table)
    items = board_store.load_many(event_id, round_no, [(table, b) for b in boards], consistent=True)
    ordered = [items[(table, b)] for b in boards if (table, b) in items]
    current, restart = _where_the_table_is(ordered)
    rt.publisher.publish(down_topic(thing), outgoing.ack(msg))
    if lang is not None and seat not in (DEALER, EBOARD):
        same = current is restart
        restart = None if restart is None else board_store.set_lang(restart, seat_on(device, restart), lang)
        if current is not None:
            current = restart if same else board_store.set_lang(current, seat_on(device, current), lang)
        elif restart is None and ordered and ordered[0].status == "waiting":
            # The round's first board made but not yet begun (a round starts its tables one after
            # another): it was made with the languages known then, so it takes this one now — else the
            # device, which says hello once, would see the whole board drawn in English.
            first = board_store.set_lang(ordered[0], seat_on(device, ordered[0]), lang)
            current = first if first.status != "waiting" else None  # begun meanwhile: shown below
    if restart is not None:
        if board_progress.start_next(rt, restart):
            return {"status": "accepted"}
        # Started meanwhile (by the sweep, a retried message): its view is the current one.
        following = board_store.load(event_id, round_no, table, restart.next_board)
        current = following if following is not None and following.status != "waiting" else current
    if current is None:
        return {"status": "accepted"}
    if seat == DEALER:
        if current.status in ("playing", "stopped"):
            board_progress.send_deal_order(rt, current)  # the board being dealt or played: never a later one
    elif seat == EBOARD:
        board_views.publish_position(rt.publisher, current)  # the position every seat sees, no hand
    else:
        board_views.publish_views(rt.publisher, current, only_seat=seat_on(device, current), to=to)
    return {"status": "accepted"}


def _where_the_table_is(
    items: list[BoardStateItem],
) -> tuple[BoardStateItem | None, BoardStateItem | None]:
    """(the board to show: in play, stopped, or the last ended; the ended board whose next one a
    crash left waiting, if any). Boards are in the round's order; waiting ones are never shown, nor
    one the referee ended unplayed (the table never played it: its hands stay hidden)."""
    shown = last = None
    for item in items:
        if item.status in ("playing", "stopped"):
            return item, None
        if item.status == "waiting":
            return shown, last
        last = item  # ended
        shown = shown if ended_unplayed(item) else item
    return shown, None

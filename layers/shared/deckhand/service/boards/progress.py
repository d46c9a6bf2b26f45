"""What happens around every change of a table's board: views out, results in, the next board begun."""

from __future__ import annotations

import contextlib
from typing import Any

from pynamodb.exceptions import DoesNotExist

from ...engines.common.cards import format_cards
from ...engines.registry import game
from ..infra import outgoing
from ..infra.messaging import down_topic
from ..infra.runtime import Runtime
from ..storage.keys import deal_sk, event_pk
from ..storage.models import BoardStateItem, DealItem
from . import store as board_store
from . import table as tableboard
from . import views as board_views
from .log import ended_unplayed
from .store import Unchanged

PACE = "pace"  # the pacer of a deal the server gives out (service/schedule/pacing.py; on AWS the timers function)


def pace_request(item: BoardStateItem) -> dict[str, Any]:
    """The invocation that paces ``item``'s deal."""
    return {
        "pace": {"event_id": item.event_id, "round": item.round, "table": item.table, "board": item.board}
    }


def start_board(
    rt: Runtime,
    event_id: str,
    round_no: int,
    table: str,
    board: str,
    *,
    resend: bool = True,
    langs: dict[str, str] | None = None,
) -> bool:
    """Begin a waiting board at a table (idempotent): ask every seat, send views and the deal order;
    True if this call started it. ``resend``: views go out again when the board had started already
    (a retried deal); a re-drive after a crash (:func:`start_next`) sends them only when it starts.
    ``langs``: the board before's devices' languages, newer than those the board was made with."""

    def change(item: BoardStateItem) -> bool | Unchanged[bool]:
        if item.status != "waiting":
            return Unchanged(False)
        if langs:
            item.langs = {**(item.langs or {}), **langs}
        tableboard.start(item)
        return True

    item, started = board_store.transact((event_id, round_no, table, board), change)
    if started:
        send_deal_order(rt, item)
        if item.deal_from and item.deal_ms:
            rt.invoke(PACE, pace_request(item))  # the server gives this board's cards out (pacing.py)
    if (started or resend) and not ended_unplayed(item):  # ended unplayed: its next one began with it
        after_change(rt, item)
    return started


def start_next(rt: Runtime, item: BoardStateItem) -> bool:
    """The board after an ended one is begun if it is still waiting; True if this call began it.

    A crash after an ended board is saved but before the next one starts would otherwise stall the
    table: a retried message (the duplicate path), a device's ``hello`` and the timers' sweep all call
    this, and the version check lets exactly one of them start the board.
    """
    if item.status != "ended" or not item.next_board:
        return False
    try:
        return start_board(
            rt, item.event_id, item.round, item.table, item.next_board, resend=False, langs=item.langs
        )
    except DoesNotExist:
        return False


def current_deal(item: BoardStateItem) -> tuple[int, list[int]]:
    """The deal in play at this table (its index and card order): a board may carry redeals."""
    g = game(item.ruleset)
    deal = DealItem.get(event_pk(item.event_id), deal_sk(item.round, item.group, item.board))
    index = board_store.engine_of(item)[1].deal_index if item.state else 0
    return index, list(deal.order[index * g.deal_size : (index + 1) * g.deal_size])


def send_deal_order(rt: Runtime, item: BoardStateItem) -> None:
    """The dealing table (if any) gets the card order it must deal — never a handset."""
    if not item.dealer:
        return
    index, order = current_deal(item)
    g = game(item.ruleset)
    # The last ``kitty`` cards go to the kitty, not to a seat; ``n``: a redeal, the board's deal number.
    message = outgoing.deal(
        board=item.board,
        round_no=item.round,
        seats=g.seats,
        order=format_cards(order),
        kitty=g.kitty,
        number=index + 1,
        each=g.new_board_in_steps is not None,
    )
    rt.publisher.publish(down_topic(item.dealer), message)


def after_change(rt: Runtime, item: BoardStateItem, *, redealt: bool = False) -> None:
    """Every device at the table gets its new view (and the dealing table the new deal when the board
    was redealt); an ended board is scored and the next one begun."""
    board_views.publish_views(rt.publisher, item)
    if redealt:
        send_deal_order(rt, item)
    if item.status == "ended":
        rt.invoke(
            "score",
            {"event_id": item.event_id, "round": item.round, "table": item.table, "board": item.board},
        )
        if item.next_board:
            with contextlib.suppress(DoesNotExist):
                start_board(rt, item.event_id, item.round, item.table, item.next_board, langs=item.langs)

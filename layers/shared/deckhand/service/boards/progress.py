"""What happens around every change of a table's board: views out, results in, the next board begun."""

from __future__ import annotations

import contextlib
from typing import Any

from pynamodb.exceptions import DoesNotExist, TransactWriteError

from ...engines.common.cards import format_cards
from ...engines.registry import game
from ..infra import outgoing
from ..infra.messaging import down_topic
from ..infra.runtime import Runtime
from ..storage.batches import transaction_groups
from ..storage.keys import deal_sk, event_pk
from ..storage.models import BoardStateItem, DealItem, transaction
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
    item, started = board_store.transact((event_id, round_no, table, board), lambda i: _begin(i, langs))
    _announce(rt, item, started, resend)
    return started


def start_boards(rt: Runtime, items: list[BoardStateItem]) -> None:
    """Begin many boards just read or written (a round's first boards) as :func:`start_board` begins
    each (``resend``), their writes batched: a transaction of up to 100 puts, each conditional on its
    board's version as read. A board that moved on meanwhile (its transaction refused) or ends as it
    begins (a match's end is its own transaction) is begun alone by :func:`start_board`, read afresh."""
    begun: list[BoardStateItem] = []
    alone: list[BoardStateItem] = []
    for item in items:
        if item.status != "waiting":
            _announce(rt, item, False, True)  # a retried deal: its views again
            continue
        _begin(item, None)
        (alone if item.status == "ended" else begun).append(item)
    for group in transaction_groups(begun):
        try:
            with transaction() as tx:
                for item in group:
                    tx.save(item)  # on the version read: a board changed since is refused
        except TransactWriteError as exc:
            if exc.cause_response_code != "TransactionCanceledException":
                raise
            alone += group
            continue
        for item in group:
            _announce(rt, item, True, True)
    for item in alone:
        start_board(rt, item.event_id, item.round, item.table, item.board)


def _begin(item: BoardStateItem, langs: dict[str, str] | None) -> bool | Unchanged[bool]:
    """The change that begins a waiting board (nothing to write for one begun already)."""
    if item.status != "waiting":
        return Unchanged(False)
    if langs:
        item.langs = {**(item.langs or {}), **langs}
    tableboard.start(item)
    return True


def _announce(rt: Runtime, item: BoardStateItem, started: bool, resend: bool) -> None:
    """What a board's start sends once it is stored: the deal order, its pacing, the views."""
    if started:
        send_deal_order(rt, item)
        if item.deal_from and item.deal_ms:
            rt.invoke(PACE, pace_request(item))  # the server gives this board's cards out (pacing.py)
    if (started or resend) and not ended_unplayed(item):  # ended unplayed: its next one began with it
        after_change(rt, item)


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

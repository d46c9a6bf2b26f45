"""A dealing table's reports of the cards it read: checked against the stored board, a misread stops
that table's board; in a game whose seats act during the deal the cards read reach the seats now."""

from __future__ import annotations

from typing import Any

from ...engines.common.cards import parse_cards
from ...engines.registry import game
from ...errors import CardError
from ..boards import progress as board_progress
from ..boards import store as board_store
from ..boards import table as tableboard
from ..boards.log import DEALT, REDEAL
from ..boards.store import Unchanged
from ..infra import outgoing
from ..infra.clock import now_ms
from ..infra.messaging import down_topic
from ..infra.runtime import Runtime
from ..infra.words import seat_lang, words
from ..storage.models import BoardStateItem
from .incoming import DEALER, BadMessage
from .replies import ack, reject


def dealing_report(
    rt: Runtime, thing: str, msg: str, item: BoardStateItem, tokens: list[str], *, partial: bool = False
) -> dict[str, Any]:
    """Check what the dealing table read against the stored board; a mismatch stops that table's board.

    In a game whose seats act during the deal the cards read reach the seats' handsets only now: a
    report while dealing (``partial``) gives out the cards it names, checked as far as they go."""
    g = game(item.ruleset)
    _, expected = board_progress.current_deal(item)
    try:
        read = parse_cards(tokens, decks=g.decks, jokers=g.jokers)
    except CardError as exc:
        read = None
        problem = f"unreadable report: {exc}"
    if read is not None:
        problem = _deal_problem(expected[: len(read)] if partial else expected, read)
    count = 0 if read is None else len(read)

    def change(current: BoardStateItem) -> bool | Unchanged[bool]:
        if current.dealer != thing:  # the server took this board over meanwhile (serve_deal)
            raise BadMessage("not_your_seat", f"board {current.board} is not dealt by this table")
        if partial and not problem:
            # Progress: only what gives out new cards is written (a resent report changes nothing). It
            # never resumes a stopped board: a report sent before the misread may arrive after it; the
            # table's whole report of the deal dealt again does (below).
            if current.status != "playing":
                return Unchanged(False)
            _, board = board_store.engine_of(current)
            moved = tableboard.give_out(current, board, count, now_ms(), msg, thing)
            return True if moved else Unchanged(False)
        current.log = [*current.log, {"s": DEALER, "t": DEALT, "ok": not problem, "m": msg, "th": thing}]
        if problem and _dealt_correctly(current.log[:-1]):
            # Overtaken: the table's later, correct report of this deal was handled first (messages
            # can arrive out of order). The cards on the table are right; the stale report changes nothing.
            return False
        current.dealt_ok = not problem
        if problem and current.status in ("playing", "waiting"):
            current.status = "stopped"
            current.stop_reason = problem
            current.deadline = 0
        elif not problem and current.status == "stopped" and current.stop_reason:
            # The referee cleared the fault and the table dealt the board again, correctly: play resumes,
            # with the clocks of the seats to act started afresh.
            current.stop_reason = None
            tableboard.resume(current)
            _, board = board_store.engine_of(current)
            tableboard.give_out(current, board, count, now_ms())
            return True
        if not problem and current.status == "playing":
            _, board = board_store.engine_of(current)
            return tableboard.give_out(current, board, count, now_ms())  # the whole deal read: every card out
        return False

    item, resumed = board_store.transact((item.event_id, item.round, item.table, item.board), change)
    if partial and not problem:
        # A report whose cards were all out already (overtaken by a later one) is answered as a
        # duplicate: it is not lost, a later report carried everything it did.
        result = ack(rt, thing, msg, duplicate=not resumed)
        if resumed:
            board_progress.after_change(rt, item)
        return result
    if resumed:
        result = ack(rt, thing, msg)
        board_progress.after_change(rt, item)
        return result
    if problem and item.status != "stopped":
        return ack(rt, thing, msg)  # an overtaken report (above)
    if problem:
        # The detail (which card lies where) goes to the dealing table that must fix it and to the
        # referee (the board's stop reason, in the round's status); handsets learn only that it stopped.
        for seat, t in enumerate(item.devices):
            if t:
                told = words(seat_lang(item.langs, seat))("stopped.referee")
                rt.publisher.publish(down_topic(t), outgoing.stopped(item.board, told))
        rt.publisher.publish(down_topic(thing), outgoing.stopped(item.board, problem))
        return reject(rt, thing, msg, "deal_mismatch", problem)
    return ack(rt, thing, msg)


def _dealt_correctly(log: list[dict[str, Any]]) -> bool:
    """A correct report of the current deal is logged (since the last redeal)."""
    for entry in reversed(log):
        if entry["t"] == REDEAL:
            return False
        if entry["t"] == "dealt" and entry.get("ok"):
            return True
    return False


def _deal_problem(expected: list[int], read: list[int]) -> str:
    from ...engines.common.cards import format_card

    for i, (want, got) in enumerate(zip(expected, read, strict=False)):
        if want != got:
            return f"card {i + 1} read as {format_card(got)}, the board has {format_card(want)}"
    if len(read) < len(expected):
        return f"only {len(read)} of {len(expected)} cards were dealt"
    if len(read) > len(expected):
        return f"{len(read) - len(expected)} card(s) more than the board has"
    return ""

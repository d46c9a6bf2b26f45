"""Dou Dizhu's handset screen (device protocol v2): the hand, bids, landlord and kitty, doubling, the
table in words, and what to decide."""

from __future__ import annotations

from typing import Any

from ..common import screen as draw
from ..common.words import ENGLISH, Lang, Words
from .board import BID, DOUBLE, END, PLAY, REDOUBLE, UNDECIDED, DouDizhuBoard, SeatView
from .combos import classify
from .words import CATALOGUE


def screen(board: object, seat: int, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen of ``seat`` in ``lang`` (docs/protocol.md: ``h``, ``l``, ``ask``)."""
    assert isinstance(board, DouDizhuBoard)
    w = Words(lang, CATALOGUE)
    v = board.seat_view(seat)
    lines: list[str | None] = [_status(w, board, v)]
    if v.deal > 1:
        lines.append(w("redeal", n=v.deal))
    if v.landlord < 0:
        lines.append(w("bids", bids=" ".join(f"{s}:{_bid(w, b)}" for s, b in enumerate(v.bids))))
    else:
        lines.append(w("landlord", who=w.seat(v.landlord, seat), bid=v.bid, cards=w.cards(v.kitty)))
        doublers = [s for s, d in enumerate(v.doubled) if d == 1]
        # the first mark starts the line: capitalised
        marks = [w("doubled", who=(w.Seat if i == 0 else w.seat)(s, seat)) for i, s in enumerate(doublers)]
        if v.redoubled == 1:
            marks.append(w("redoubled" if marks else "Redoubled"))
        if marks:
            lines.append(w.join(marks))
    lines.append(draw.counts_line(w, v.counts, seat))
    if v.phase == PLAY:
        lines.append(draw.trick_line(w, v.trick, seat))
    if v.phase == END:
        lines.append(draw.scores_line(w, board.result()["scores"]))
    return draw.screen(v.hand, lines, _ask(w, board, v))


def _bid(w: Words, b: int) -> str:
    return w("bid.none") if b == UNDECIDED else (w("bid.pass") if b == 0 else str(b))


def _status(w: Words, board: DouDizhuBoard, v: SeatView) -> str:
    seat = v.seat
    if v.phase == END:
        return w("over.you") if v.winner == seat else w("over.seat", n=v.winner)
    if v.phase == DOUBLE:
        return w("double_phase", who=w.seats(board.pending(), seat))
    key = {BID: "to_bid", REDOUBLE: "to_redouble"}.get(v.phase, "to_play")
    return w(key, Who=w.Seat(v.turn, seat))


def _ask(w: Words, board: DouDizhuBoard, v: SeatView) -> dict[str, Any] | None:
    """What the seat decides now (None: nothing)."""
    seat = v.seat
    if seat not in board.pending():
        return None
    if v.phase == BID:
        options = [draw.option(str(n), "bid", n) for n in range(v.bid + 1, 4)]
        options.append(draw.option(w("opt.bid_pass"), "bid", 0))
        return draw.ask(w("ask.bid") if not v.bid else w("ask.bid_above", bid=v.bid), options)
    if v.phase == DOUBLE:
        return draw.yes_no(w("ask.double"), "double", w("opt.double"), w("opt.no_double"))
    if v.phase == REDOUBLE:
        return draw.yes_no(w("ask.redouble"), "double", w("opt.redouble"), w("opt.no_redouble"))
    if not v.last:
        return draw.play_ask(w, w("your_lead"), False)
    combo = classify(v.last)
    name = w("combo." + combo.type) if combo is not None else w("combo.play")
    return draw.play_ask(w, draw.beat_prompt(w, v.last_seat, seat, name), True)

"""Dou Dizhu's handset screen (device protocol v2): the hand, bids, landlord and kitty, doubling, the
table in words, and what to decide."""

from __future__ import annotations

from typing import Any

from ..common import screen as draw
from .board import BID, DOUBLE, END, PLAY, REDOUBLE, UNDECIDED, DouDizhuBoard, SeatView
from .combos import classify


def screen(board: object, seat: int) -> dict[str, Any]:
    """The screen of ``seat`` (docs/protocol.md: ``h``, ``l``, ``ask``)."""
    assert isinstance(board, DouDizhuBoard)
    v = board.seat_view(seat)
    lines: list[str | None] = [_status(board, v)]
    if v.deal > 1:
        lines.append(f"Redeal: deal {v.deal}")
    if v.landlord < 0:
        lines.append("Bids: " + " ".join(f"{s}:{_bid(b)}" for s, b in enumerate(v.bids)))
    else:
        lines.append(
            f"Landlord: {draw.seat_name(v.landlord, seat)}  bid {v.bid}  kitty {draw.cards_text(v.kitty)}"
        )
        marks = [draw.seat_name(s, seat) + " doubled" for s, d in enumerate(v.doubled) if d == 1]
        if v.redoubled == 1:
            marks.append("landlord redoubled")
        if marks:
            lines.append(", ".join(marks).capitalize())
    lines.append(draw.counts_line(v.counts, seat))
    if v.phase == PLAY:
        lines.append(draw.trick_line(v.trick, seat))
    if v.phase == END:
        lines.append(draw.scores_line(board.result()["scores"]))
    return draw.screen(v.hand, lines, _ask(board, v))


def _bid(b: int) -> str:
    return "-" if b == UNDECIDED else ("pass" if b == 0 else str(b))


def _status(board: DouDizhuBoard, v: SeatView) -> str:
    seat = v.seat
    if v.phase == END:
        return draw.won_line(v.winner, seat)
    if v.phase == DOUBLE:
        return "Double phase: waiting for " + draw.seats_text(board.pending(), seat)
    who = draw.seat_name(v.turn, seat)
    verb = {BID: "to bid", REDOUBLE: "to redouble or not"}.get(v.phase, "to play")
    return f"{who.capitalize()} {verb}"


def _ask(board: DouDizhuBoard, v: SeatView) -> dict[str, Any] | None:
    """What the seat decides now (None: nothing)."""
    seat = v.seat
    if seat not in board.pending():
        return None
    if v.phase == BID:
        options = [draw.option(str(n), "bid", n) for n in range(v.bid + 1, 4)]
        options.append(draw.option("Pass", "bid", 0))
        return draw.ask("Bid:" if not v.bid else f"Bid above {v.bid}:", options)
    if v.phase == DOUBLE:
        return draw.yes_no("Double?", "double", "Double", "Don't double")
    if v.phase == REDOUBLE:
        return draw.yes_no("Redouble?", "double", "Redouble", "Don't redouble")
    if not v.last:
        return draw.play_ask("Your lead", False)
    combo = classify(v.last)
    name = combo.type if combo is not None else "play"
    return draw.play_ask(draw.beat_prompt(v.last_seat, seat, name), True)

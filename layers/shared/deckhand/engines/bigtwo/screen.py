"""Big Two's handset screen (device protocol v2): the hand, the table in words, and what to decide."""

from __future__ import annotations

from typing import Any

from ..common import screen as draw
from .board import DOUBLE, END, PLAY, SHOW, UNDECIDED, BigTwoBoard, SeatView
from .combos import classify


def screen(board: object, seat: int) -> dict[str, Any]:
    """The screen of ``seat`` (docs/protocol.md: ``h``, ``l``, ``ask``)."""
    assert isinstance(board, BigTwoBoard)
    v = board.seat_view(seat)
    lines: list[str | None] = [_status(board, v)]
    lines.append(draw.counts_line(v.counts, seat))
    shown = [draw.seat_name(s, seat) for s, x in enumerate(v.shown) if x == 1]
    doubled = [draw.seat_name(s, seat) for s, x in enumerate(v.doubled) if x == 1]
    if shown or doubled:
        parts = (["Shown: " + ", ".join(shown)] if shown else []) + (
            ["Doubled: " + ", ".join(doubled)] if doubled else []
        )
        lines.append("  ".join(parts))
    if v.phase == PLAY:
        lines.append(draw.trick_line(v.trick, seat))
    for s, cards in enumerate(v.shown_hands):
        if cards is not None and s != seat:
            lines.append(f"Seat {s} shows: {draw.cards_text(cards)}")
    if v.phase == END:
        lines.append(draw.scores_line(board.result()["scores"]))
    return draw.screen(v.hand, lines, _ask(v))


def _status(board: BigTwoBoard, v: SeatView) -> str:
    seat = v.seat
    if v.phase == END:
        return draw.won_line(v.winner, seat)
    if v.phase == SHOW:
        return "Show phase: waiting for " + draw.seats_text(board.pending(), seat)
    who = draw.seat_name(v.turn, seat)
    if v.phase == DOUBLE:
        return "Double phase: " + who + " to decide"
    return who.capitalize() + " to play"


def _ask(v: SeatView) -> dict[str, Any] | None:
    """What the seat decides now, from its own view (None: nothing)."""
    seat = v.seat
    if v.phase == SHOW and v.shown[seat] == UNDECIDED:
        return draw.yes_no("Show your hand? (stakes x3)", "show", "Show", "Don't show")
    if v.phase == DOUBLE and v.turn == seat:
        return draw.yes_no("Double? (stakes x2)", "double", "Double", "Don't double")
    if v.phase == PLAY and v.turn == seat:
        if not v.last:
            return draw.play_ask("Your lead" + ("" if v.opened else ": play the 3\u2666"), False)
        combo = classify(v.last)
        name = combo.name if combo is not None else "play"
        return draw.play_ask(draw.beat_prompt(v.last_seat, seat, name), True)
    return None

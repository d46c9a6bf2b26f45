"""Big Two's handset screen (device protocol v2): the hand, the table in words, and what to decide."""

from __future__ import annotations

from typing import Any

from ..common import screen as draw
from ..common.words import ENGLISH, Lang, Words
from .board import DOUBLE, END, PLAY, SHOW, UNDECIDED, BigTwoBoard, SeatView
from .combos import classify
from .words import CATALOGUE


def screen(board: object, seat: int, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen of ``seat`` in ``lang`` (docs/protocol.md: ``h``, ``l``, ``ask``)."""
    assert isinstance(board, BigTwoBoard)
    w = Words(lang, CATALOGUE)
    v = board.seat_view(seat)
    lines: list[str | None] = [_status(w, board, v)]
    lines.append(draw.counts_line(w, v.counts, seat))
    shown = [s for s, x in enumerate(v.shown) if x == 1]
    doubled = [s for s, x in enumerate(v.doubled) if x == 1]
    if shown or doubled:
        parts = ([w("shown", who=w.seats(shown, seat))] if shown else []) + (
            [w("doubled", who=w.seats(doubled, seat))] if doubled else []
        )
        lines.append(w("marks.sep").join(parts))
    if v.phase == PLAY:
        lines.append(draw.trick_line(w, v.trick, seat))
    for s, cards in enumerate(v.shown_hands):
        if cards is not None and s != seat:
            lines.append(w("shows", n=s, cards=w.cards(cards)))
    if v.phase == END:
        lines.append(draw.scores_line(w, board.result()["scores"]))
    return draw.screen(v.hand, lines, _ask(w, v))


def _status(w: Words, board: BigTwoBoard, v: SeatView) -> str:
    seat = v.seat
    if v.phase == END:
        return w("over.you") if v.winner == seat else w("over.seat", n=v.winner)
    if v.phase == SHOW:
        return w("show_phase", who=w.seats(board.pending(), seat))
    if v.phase == DOUBLE:
        return w("double_phase", who=w.seat(v.turn, seat))
    return w("to_play", Who=w.Seat(v.turn, seat))


def _ask(w: Words, v: SeatView) -> dict[str, Any] | None:
    """What the seat decides now, from its own view (None: nothing)."""
    seat = v.seat
    if v.phase == SHOW and v.shown[seat] == UNDECIDED:
        return draw.yes_no(w("ask.show"), "show", w("opt.show"), w("opt.no_show"))
    if v.phase == DOUBLE and v.turn == seat:
        return draw.yes_no(w("ask.double"), "double", w("opt.double"), w("opt.no_double"))
    if v.phase == PLAY and v.turn == seat:
        if not v.last:
            return draw.play_ask(w, w("your_lead") if v.opened else w("lead.open"), False)
        combo = classify(v.last)
        name = w("combo." + combo.name) if combo is not None else w("combo.play")
        return draw.play_ask(w, draw.beat_prompt(w, v.last_seat, seat, name), True)
    return None

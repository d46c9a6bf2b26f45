"""Gomoku's handset screen, for now in text lines: the board row by row (row 15 at the top), the last
stone, whose move it is and how the game ended, in English or Chinese; the ask offers the seat to move
its words (claim, resign, draw). The drawn board comes later.

White is offered ``claim`` after every black stone while the rule is ``claim``, forbidden or not: a
screen that offered it only when a claim would succeed would point the forbidden stone out for White,
which the pointing-out rule leaves to White (RULES.md §6.2). So the screen is drawn from the view
alone, which never says whether Black's last stone is forbidden."""

from __future__ import annotations

from typing import Any

from ..common.screen import ask, option
from ..common.words import ENGLISH, Lang
from .board import ACCEPT, CLAIM, COLOURS, NOBODY, OFFER, PLAY, RESIGN, WHITE_SEAT, GomokuBoard, SeatView
from .options import ForbiddenRule
from .stones import COLUMNS

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "black": "Black",
        "white": "White",
        "you": "you play {side}",
        "last": "last stone: {point}",
        "to_move": "{side} to move",
        "won": "{side} wins ({why})",
        "drawn": "a draw ({why})",
        "offer": "{side} offers a draw",
        "warnings": "clock warnings: Black {black}, White {white}",
        "prompt": "your move: a point (H8)",
        "claim": "Claim forbidden",
        "resign": "Resign",
        "offer_draw": "Offer a draw",
        "accept": "Accept the draw",
    },
    "zh-CN": {
        "black": "黑方",
        "white": "白方",
        "you": "你执{side}",
        "last": "上一手：{point}",
        "to_move": "轮到{side}落子",
        "won": "{side}胜（{why}）",
        "drawn": "和棋（{why}）",
        "offer": "{side}提议和棋",
        "warnings": "超时警告：黑方 {black}，白方 {white}",
        "prompt": "请落子：报点（H8）",
        "claim": "指出禁手",
        "resign": "认输",
        "offer_draw": "提议和棋",
        "accept": "同意和棋",
    },
}
MARKS = {"en": {".": ".", "B": "X", "W": "O"}, "zh-CN": {".": "＋", "B": "●", "W": "○"}}


def screen(board: object, seat: int, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen of ``seat`` in ``lang`` (docs/protocol.md: ``h``, ``l``, ``ask``): no hand, the lines."""
    assert isinstance(board, GomokuBoard)
    return draw(board.seat_view(seat), lang)


def draw(view: SeatView, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen from the seat's view alone (so it can tell nothing the view does not)."""
    words, marks = WORDS[lang], MARKS[lang]
    lines = [words["you"].format(side=words[view.colour])]
    for n, row in enumerate(view.stones().rows()):
        lines.append(f"{15 - n:>2} {' '.join(marks[c] for c in row)}")
    lines.append("   " + " ".join(COLUMNS))
    if view.moves:
        lines.append(words["last"].format(point=view.moves[-1]))
    if view.phase == PLAY:
        lines.append(words["to_move"].format(side=words[COLOURS[view.turn]]))
    elif view.winner != NOBODY:
        lines.append(words["won"].format(side=words[COLOURS[view.winner]], why=view.why))
    else:
        lines.append(words["drawn"].format(why=view.why))
    if view.offer != NOBODY:
        lines.append(words["offer"].format(side=words[COLOURS[view.offer]]))
    if any(view.warnings):
        lines.append(words["warnings"].format(black=view.warnings[0], white=view.warnings[1]))
    drawn: dict[str, Any] = {"h": [], "l": lines}
    if view.phase == PLAY and view.turn == view.seat:
        drawn["ask"] = ask(words["prompt"], options(view, words))
    return drawn


def options(view: SeatView, words: dict[str, str]) -> list[dict[str, Any]]:
    """The words the seat to move may send: White's claim after every black stone (claim rule)."""
    out = []
    if view.seat == WHITE_SEAT and view.forbidden_rule == ForbiddenRule.CLAIM.value:
        out.append(option(words["claim"], CLAIM))  # every black stone: the view tells no forbidden one
    out.append(option(words["resign"], RESIGN))
    if view.offer == NOBODY:
        out.append(option(words["offer_draw"], OFFER))
    elif view.offer != view.seat:
        out.append(option(words["accept"], ACCEPT))
    return out

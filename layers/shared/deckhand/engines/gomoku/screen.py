"""Gomoku's handset screen: the board as a grid (docs/protocol.md, "Boards": row 15 at the top, Black's
stones X, White's O), the last stone marked, the last stone, whose move it is and how the game ended, in
English or Chinese; the ask offers the seat to move its stone (one point picked) and its words (claim,
resign, draw).

White is offered ``claim`` after every black stone while the rule is ``claim``, forbidden or not: a
screen that offered it only when a claim would succeed would point the forbidden stone out for White,
which the pointing-out rule leaves to White (RULES.md §6.2). So the screen is drawn from the view
alone, which never says whether Black's last stone is forbidden."""

from __future__ import annotations

from typing import Any

from ..common.grid import grid, move_option
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
        "legend": "X Black, O White",
        "prompt": "your move: pick a point",
        "move": "Place",
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
        "legend": "X黑子，O白子",
        "prompt": "请落子：选一个点",
        "move": "落子",
        "claim": "指出禁手",
        "resign": "认输",
        "offer_draw": "提议和棋",
        "accept": "同意和棋",
    },
}
MARKS = {".": ".", "B": "X", "W": "O"}  # ASCII in both languages: the handset's font has no other


def screen(board: object, seat: int, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen of ``seat`` in ``lang`` (docs/protocol.md: ``h``, ``l``, ``ask``): no hand, the lines."""
    assert isinstance(board, GomokuBoard)
    return draw(board.seat_view(seat), lang)


def draw(view: SeatView, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen from the seat's view alone (so it can tell nothing the view does not)."""
    words = WORDS[lang]
    lines = [words["you"].format(side=words[view.colour]), words["legend"]]
    rows = ["".join(MARKS[c] for c in row) for row in view.stones().rows()]
    board = grid(rows, len(rows), "{x}{y}", COLUMNS, view.moves[-1:])
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
    drawn: dict[str, Any] = {"h": [], "l": lines, "grid": board, "legend": 1}  # lines[1]: the legend
    if view.phase == PLAY and view.turn == view.seat:
        drawn["ask"] = ask(words["prompt"], [move_option(words["move"], ("point",)), *options(view, words)])
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

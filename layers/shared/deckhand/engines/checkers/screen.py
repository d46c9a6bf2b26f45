"""Chinese checkers' handset screen, for now in text lines: the star row by row (row 17, Blue's home,
at the top), the last move, whose move it is and how the game ended, in English or Chinese; the ask
offers the seat to move its words (pass when it has no move, resign, draw). The drawn board comes later."""

from __future__ import annotations

from typing import Any

from ..common.screen import ask, option
from ..common.words import ENGLISH, Lang
from .board import ACCEPT, NOBODY, OFFER, PASS, PLAY, RESIGN, CheckersBoard, SeatView
from .pieces import EMPTY, destinations
from .star import AXIAL, POINTS, ROW_COL, ROWS, SIDES

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "red": "Red",
        "blue": "Blue",
        "you": "you play {side}",
        "last": "last move: {path}",
        "passed": "last move: a pass",
        "to_move": "{side} to move",
        "won": "{side} wins ({why})",
        "drawn": "a draw ({why})",
        "offer": "{side} offers a draw",
        "warnings": "clock warnings: Red {red}, Blue {blue}",
        "prompt": "your move: from and to (r3c1 r5c1)",
        "prompt_pass": "no legal move: pass",
        "pass": "Pass",
        "resign": "Resign",
        "offer_draw": "Offer a draw",
        "accept": "Accept the draw",
    },
    "zh-CN": {
        "red": "红方",
        "blue": "蓝方",
        "you": "你执{side}",
        "last": "上一步：{path}",
        "passed": "上一步：停一手",
        "to_move": "轮到{side}走棋",
        "won": "{side}胜（{why}）",
        "drawn": "和棋（{why}）",
        "offer": "{side}提议和棋",
        "warnings": "超时警告：红方 {red}，蓝方 {blue}",
        "prompt": "请走棋：起点和终点（r3c1 r5c1）",
        "prompt_pass": "无棋可走：停一手",
        "pass": "停一手",
        "resign": "认输",
        "offer_draw": "提议和棋",
        "accept": "同意和棋",
    },
}
MARKS = {"en": ("R", "B", "."), "zh-CN": ("●", "○", "·")}  # red, blue, empty (by the cell's value)
SPAN = 25  # a row's characters: a point's place is 2q + r + 12, from -12 to 12


def star_lines(cells: bytes | bytearray, lang: Lang) -> list[str]:
    """The star, row 17 first, each point at its place so the rows line up as on the board."""
    marks = MARKS[lang]
    rows: list[list[str]] = [[" "] * SPAN for _ in range(ROWS)]
    for p in POINTS:
        (q, r), (row, _) = AXIAL[p], ROW_COL[p]
        rows[row - 1][2 * q + r + 12] = marks[cells[p] if cells[p] != EMPTY else 2]
    return [f"{row:>2} {''.join(rows[row - 1]).rstrip()}" for row in range(ROWS, 0, -1)]


def screen(board: object, seat: int, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen of ``seat`` in ``lang`` (docs/protocol.md: ``h``, ``l``, ``ask``): no hand, the lines."""
    assert isinstance(board, CheckersBoard)
    return draw(board.seat_view(seat), lang)


def draw(view: SeatView, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen from the seat's view alone."""
    words = WORDS[lang]
    pieces = view.pieces()
    lines = [words["you"].format(side=words[SIDES[view.seat]]), *star_lines(pieces.cells, lang)]
    if view.moves:
        last = view.moves[-1]
        lines.append(words["last"].format(path="-".join(last)) if last else words["passed"])
    if view.phase == PLAY:
        lines.append(words["to_move"].format(side=words[SIDES[view.turn]]))
    elif view.winner != NOBODY:
        lines.append(words["won"].format(side=words[SIDES[view.winner]], why=view.why))
    else:
        lines.append(words["drawn"].format(why=view.why))
    if view.offer != NOBODY:
        lines.append(words["offer"].format(side=words[SIDES[view.offer]]))
    if any(view.warnings):
        lines.append(words["warnings"].format(red=view.warnings[0], blue=view.warnings[1]))
    drawn: dict[str, Any] = {"h": [], "l": lines}
    if view.phase == PLAY and view.turn == view.seat:
        stuck = not destinations(pieces, view.seat)
        out = [option(words["pass"], PASS)] if stuck else []
        out.append(option(words["resign"], RESIGN))
        if view.offer == NOBODY:
            out.append(option(words["offer_draw"], OFFER))
        elif view.offer != view.seat:
            out.append(option(words["accept"], ACCEPT))
        drawn["ask"] = ask(words["prompt_pass" if stuck else "prompt"], out)
    return drawn

"""Chinese checkers' handset screen: the star as a grid (docs/protocol.md, "Boards": row 17, Blue's home,
at the top, each point at its place so the rows line up as on the board; Red R, Blue B), the last move's
chain marked and, on the seat's move, the points whose pieces can move; a legend, the last move, whose
move it is and how the game ended, in English or Chinese; the ask offers the move (two points picked)
and the seat's words (pass when it has no move, resign, draw)."""

from __future__ import annotations

from typing import Any

from ..common.grid import grid, move_option
from ..common.screen import ask, option
from ..common.words import ENGLISH, Lang
from .board import ACCEPT, NOBODY, OFFER, PASS, PLAY, RESIGN, CheckersBoard, SeatView
from .pieces import EMPTY, destinations
from .star import AXIAL, NAMES, POINTS, ROW_COL, ROWS, SIDES

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
        "legend": "R Red, B Blue",
        "prompt": "your move: pick a piece, then its point",
        "move": "Move",
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
        "legend": "R红方，B蓝方",
        "prompt": "请走棋：先选棋子，再选落点",
        "move": "走棋",
        "prompt_pass": "无棋可走：停一手",
        "pass": "停一手",
        "resign": "认输",
        "offer_draw": "提议和棋",
        "accept": "同意和棋",
    },
}
MARKS = ("R", "B", ".")  # red, blue, empty (by the cell's value); ASCII: the handset's font has no other
SPAN = 25  # a row's characters: a point's place is 2q + r + 12, from -12 to 12


def star_rows(cells: bytes | bytearray) -> list[str]:
    """The star, row 17 first, each point at its place so the rows line up as on the board."""
    rows: list[list[str]] = [[" "] * SPAN for _ in range(ROWS)]
    for p in POINTS:
        (q, r), (row, _) = AXIAL[p], ROW_COL[p]
        rows[row - 1][2 * q + r + 12] = MARKS[cells[p] if cells[p] != EMPTY else 2]
    return ["".join(rows[row - 1]) for row in range(ROWS, 0, -1)]


def screen(board: object, seat: int, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen of ``seat`` in ``lang`` (docs/protocol.md: ``h``, ``l``, ``ask``): no hand, the lines."""
    assert isinstance(board, CheckersBoard)
    return draw(board.seat_view(seat), lang)


def draw(view: SeatView, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen from the seat's view alone."""
    words = WORDS[lang]
    pieces = view.pieces()
    lines = [words["you"].format(side=words[SIDES[view.seat]]), words["legend"]]
    asking = view.phase == PLAY and view.turn == view.seat
    moves = destinations(pieces, view.seat) if asking else []
    board = grid(
        star_rows(pieces.cells),
        ROWS,
        "r{y}c{k}",
        last=view.moves[-1] if view.moves else (),
        movable={NAMES[p] for p, _ in moves} if asking else None,
    )
    if view.moves:
        last = view.moves[-1]
        # Its start and end: the grid marks every point of the chain (a long one would not fit 1 KiB).
        lines.append(words["last"].format(path=f"{last[0]}-{last[-1]}") if last else words["passed"])
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
    drawn: dict[str, Any] = {"h": [], "l": lines, "grid": board, "legend": 1}  # lines[1]: the legend
    if asking:
        stuck = not moves
        out = [option(words["pass"], PASS)] if stuck else [move_option(words["move"], ("from", "to"))]
        out.append(option(words["resign"], RESIGN))
        if view.offer == NOBODY:
            out.append(option(words["offer_draw"], OFFER))
        elif view.offer != view.seat:
            out.append(option(words["accept"], ACCEPT))
        drawn["ask"] = ask(words["prompt_pass" if stuck else "prompt"], out)
    return drawn

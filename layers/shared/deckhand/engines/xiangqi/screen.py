"""Xiangqi's handset screen: the board as a grid (docs/protocol.md, "Boards": Red's side at the bottom,
Red's pieces in capitals, Black's in small letters, the handset's font having no Chinese), the last move
marked and, on the seat's move, the points whose pieces can move; a legend, whose move it is and how the
game ended, in English or Chinese; the ask offers the move (two points picked) and the game's words."""

from __future__ import annotations

from typing import Any

from ..common.grid import grid, move_option
from ..common.screen import ask, option
from ..common.words import ENGLISH, Lang
from .board import SIDES, XiangqiBoard
from .tables import FILES, RANKS

LETTERS = "KABNRCP"  # by piece code 1-7: king, advisor, elephant, horse, chariot, cannon, pawn
EMPTY = "."

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "red": "Red",
        "black": "Black",
        "you": "you play {side}",
        "to_move": "{side} to move",
        "won": "{side} wins ({why})",
        "drawn": "a draw ({why})",
        "offer": "{side} offers a draw",
        "warnings": "clock warnings: Red {red}, Black {black}",
        "legend": "Red KABNRCP, Black kabnrcp: king advisor elephant horse chariot cannon pawn",
        "prompt": "your move: pick a piece, then its point",
        "move": "Move",
        "resign": "Resign",
        "offer_draw": "Offer a draw",
        "accept": "Accept the draw",
    },
    "zh-CN": {
        "red": "红方",
        "black": "黑方",
        "you": "你执{side}",
        "to_move": "轮到{side}走棋",
        "won": "{side}胜（{why}）",
        "drawn": "和棋（{why}）",
        "offer": "{side}提议和棋",
        "warnings": "超时警告：红方 {red}，黑方 {black}",
        "legend": "红方KABNRCP，黑方kabnrcp：帅仕相马车炮兵",
        "prompt": "请走棋：先选棋子，再选落点",
        "move": "走棋",
        "resign": "认输",
        "offer_draw": "提议和棋",
        "accept": "同意和棋",
    },
}


def screen(board: object, seat: int, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen of ``seat`` in ``lang`` (docs/protocol.md: ``h``, ``l``, ``grid``, ``ask``)."""
    assert isinstance(board, XiangqiBoard)
    words = WORDS[lang]
    view = board.seat_view(seat)
    b = board.game.pos.board
    lines = [words["you"].format(side=words[SIDES[seat]]), words["legend"]]
    rows = []
    for rank in range(RANKS - 1, -1, -1):
        cells = [b[rank * FILES + file] for file in range(FILES)]
        rows.append(
            "".join(EMPTY if not p else LETTERS[p - 1] if p > 0 else LETTERS[-p - 1].lower() for p in cells)
        )
    last = view.moves[-1] if view.moves else ""
    asking = view.to_move == seat
    movable = {a.data["from"] for a in board.legal_actions(seat) if a.kind == "move"} if asking else None
    drawn: dict[str, Any] = {
        "h": [],
        "l": lines,
        "legend": 1,  # lines[1], the letters' legend: a page that draws the board leaves it out
        "grid": grid(
            rows,
            RANKS - 1,
            "{x}{y}",
            "abcdefghi",
            (last[:2], last[2:]) if last else (),
            movable,
        ),
    }
    if view.to_move is not None:
        lines.append(words["to_move"].format(side=words[SIDES[view.to_move]]))
    elif view.winner is not None:
        lines.append(words["won"].format(side=words[SIDES[view.winner]], why=view.why))
    else:
        lines.append(words["drawn"].format(why=view.why))
    if view.offer is not None:
        lines.append(words["offer"].format(side=words[SIDES[view.offer]]))
    if any(view.warnings):
        lines.append(words["warnings"].format(red=view.warnings[0], black=view.warnings[1]))
    if asking:
        options = [move_option(words["move"], ("from", "to")), option(words["resign"], "resign")]
        if view.offer is None:
            options.append(option(words["offer_draw"], "offer"))
        elif view.offer != seat:
            options.append(option(words["accept"], "accept"))
        drawn["ask"] = ask(words["prompt"], options)
    return drawn

"""Xiangqi's handset screen, for now in text lines: the board rank by rank (Red's side at the bottom),
whose move it is and how the game ended, in English or Chinese. The drawn board comes later."""

from __future__ import annotations

from typing import Any

from ..common.words import ENGLISH, Lang
from .board import SIDES, XiangqiBoard
from .chinese import BLACK_NAMES, RED_NAMES
from .tables import FILES, RANKS

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
    },
}


def screen(board: object, seat: int, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen of ``seat`` in ``lang`` (docs/protocol.md: ``h``, ``l``): no hand, the lines."""
    assert isinstance(board, XiangqiBoard)
    words = WORDS[lang]
    view = board.seat_view(seat)
    b = board.game.pos.board
    zh = lang != ENGLISH
    lines = [words["you"].format(side=words[SIDES[seat]])]
    for rank in range(RANKS - 1, -1, -1):
        cells = []
        for file in range(FILES):
            p = b[rank * FILES + file]
            if not p:
                cells.append("＋" if zh else ".")
            elif zh:
                cells.append((RED_NAMES if p > 0 else BLACK_NAMES)[abs(p)])
            else:
                cells.append("KABNRCP"[abs(p) - 1] if p > 0 else "kabnrcp"[-p - 1])
        lines.append(f"{rank} {''.join(cells) if zh else ' '.join(cells)}")
    lines.append("  " + ("ａｂｃｄｅｆｇｈｉ" if zh else "a b c d e f g h i"))
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
    return {"h": [], "l": lines}

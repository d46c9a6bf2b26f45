"""Gomoku's board for the browser (docs/protocol.md, "Board layouts"): 15 × 15 lines, the stones on
their crossings, the five star points (天元 H8 and D4, L4, D12, L12), black and white stones, the
last stone marked."""

from __future__ import annotations

from typing import Any

from ..common.layout import Piece, layout, straight_runs
from ..common.words import Lang
from .board import GomokuBoard
from .stones import COLUMNS, SIZE

WORDS = {
    "zh-CN": {"X": "黑子", "O": "白子", "board": "棋盘"},
    "en": {"X": "black stone", "O": "white stone", "board": "board"},
}
STARS = ("H8", "D4", "L4", "D12", "L12")


def _segments() -> list[tuple[str, str]]:
    out = []
    for i in range(SIZE):
        for j in range(SIZE - 1):
            out.append((f"{COLUMNS[j]}{i + 1}", f"{COLUMNS[j + 1]}{i + 1}"))
            out.append((f"{COLUMNS[i]}{j + 1}", f"{COLUMNS[i]}{j + 2}"))
    return out


def board_layout(board: object, seat: int, lang: Lang, grid: dict[str, Any]) -> dict[str, Any]:
    """The seat's layout of ``grid``, the board its screen drew."""
    assert isinstance(board, GomokuBoard)
    words = WORDS[lang]
    moves = board.seat_view(seat).moves
    return layout(
        grid,
        name=words["board"],
        pieces={"X": Piece(words["X"], "black"), "O": Piece(words["O"], "white")},
        lines=straight_runs(_segments(), grid),
        spots=[("dot", "", STARS)],
        path=moves[-1:],
        size=(1, 1),
    )

"""Chinese checkers' star for the browser (docs/protocol.md, "Board layouts"): the 121 points on their
hexagonal lattice (a point's neighbours all one step away: the rows √3/2 of a step apart, a step being
two of the grid's columns), the lines between neighbours, each home tinted in its side's colour, red
and blue pieces, and the last move's jump chain in order. Blue's seat sees its own home at the bottom."""

from __future__ import annotations

import math
from typing import Any

from ..common.layout import Piece, layout, straight_runs
from ..common.words import Lang
from .board import CheckersBoard
from .star import HOMES, NAMES, POINTS, SIDES, STEPS

WORDS = {
    "zh-CN": {"R": "红子", "B": "蓝子", "board": "棋盘"},
    "en": {"R": "red piece", "B": "blue piece", "board": "board"},
}


def board_layout(board: object, seat: int, lang: Lang, grid: dict[str, Any]) -> dict[str, Any]:
    """The seat's layout of ``grid``, the board its screen drew."""
    assert isinstance(board, CheckersBoard)
    words = WORDS[lang]
    moves = board.seat_view(seat).moves
    segments = [(NAMES[p], NAMES[n]) for p in POINTS for n in STEPS[p] if p < n]
    homes = [("hole", SIDES[side], (NAMES[p] for p in HOMES[side])) for side in range(2)]
    others = set(POINTS) - HOMES[0] - HOMES[1]
    return layout(
        grid,
        name=words["board"],
        pieces={"R": Piece(words["R"], "red"), "B": Piece(words["B"], "blue")},
        lines=straight_runs(segments, grid),
        spots=[("hole", "", (NAMES[p] for p in others)), *homes],
        path=moves[-1] if moves else (),
        spacing=(1, math.sqrt(3)),
        size=(1.9, 1.9),
        flip=seat == 1,
    )

"""Chinese checkers' game record (docs/export.md, "Game records"): each move's whole path (a step, or
every landing of its jump chain, as the engine took it; a pass has none), and the star after each
action."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..common.game_record import Picture, Step, no_notation, picture, replay_record
from ..contract import Action, Board
from .board import MOVE, PASS, CheckersBoard
from .screen import SPAN, star_rows
from .star import AXIAL, ROW_COL, ROWS, parse_point

GLYPHS = {" ": None, ".": "", "R": "0●", "B": "1●"}


def _after(board: Board, action: Action, noted: dict[str, Any]) -> dict[str, Any]:
    if action.kind not in (MOVE, PASS):
        return no_notation(board, action)
    assert isinstance(board, CheckersBoard)
    path = list(board.moves[-1])
    return {"path": path, "notation": "→".join(path)}


def _cell(point: str) -> tuple[int, int]:
    """A point's [row, column] in the picture (star_rows' layout, row 17 at the top)."""
    p = parse_point(point)
    (q, r), (row, _) = AXIAL[p], ROW_COL[p]
    return ROWS - row, 2 * q + r + SPAN // 2


def _draw(board: Board, action: Action | None) -> Picture:
    assert isinstance(board, CheckersBoard)
    rows = [[GLYPHS[c] for c in line.ljust(SPAN)] for line in star_rows(board.pieces.cells)]
    path = board.moves[-1] if action is not None and action.kind == MOVE and board.moves else ()
    return picture(rows, [_cell(p) for p in path])


def record(carry: dict[str, Any] | None, steps: Sequence[Step], names: Sequence[str],
           tags: Mapping[str, str]) -> dict[str, Any]:  # fmt: skip
    """The game's record (``names``: the players seat by seat, Red first)."""
    return replay_record(CheckersBoard.from_order([], carry), steps, no_notation, _draw, after=_after)

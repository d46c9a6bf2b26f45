"""Gomoku's game record (docs/export.md, "Game records"): each stone's point and its number (Black's
first stone is 1), and the board after each action with every stone showing its number."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..common.game_record import Picture, Step, no_notation, picture, replay_record
from ..contract import Action, Board
from .board import MOVE, GomokuBoard
from .stones import SIZE, coords, index, name, parse_point


def _describe(board: Board, action: Action) -> dict[str, Any]:
    if action.kind != MOVE or not isinstance(action.data, dict):
        return no_notation(board, action)
    assert isinstance(board, GomokuBoard)
    point, number = name(parse_point(action.data.get("point"))), len(board.moves) + 1
    return {"point": point, "number": number, "notation": f"{point} #{number}"}


def _draw(board: Board, action: Action | None) -> Picture:
    assert isinstance(board, GomokuBoard)
    numbers = {point: n for n, point in enumerate(board.moves, 1)}
    rows = [
        [
            f"{(numbers[index(c, r)] - 1) % 2}{numbers[index(c, r)]}" if index(c, r) in numbers else ""
            for c in range(SIZE)
        ]
        for r in range(SIZE - 1, -1, -1)
    ]
    marks = []
    if action is not None and action.kind == MOVE and board.moves:
        col, row = coords(board.moves[-1])
        marks.append((SIZE - 1 - row, col))
    return picture(rows, marks)


def record(carry: dict[str, Any] | None, steps: Sequence[Step], names: Sequence[str],
           tags: Mapping[str, str]) -> dict[str, Any]:  # fmt: skip
    """The game's record (``names``: the players seat by seat, Black first)."""
    return replay_record(GomokuBoard.from_order([], carry), steps, _describe, _draw)

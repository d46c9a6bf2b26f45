"""Junqi's game record (docs/export.md, "Game records"): after the game every piece is revealed — each
side's setup as placed, then each move with the piece that moved, the piece it met and the battle's
outcome — and the board after each action with every piece by its Chinese name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..common.game_record import Picture, Step, no_notation, picture, replay_record
from ..contract import Action, Board
from .board import MOVE, SET_UP, JunqiBoard
from .geometry import COLUMNS, INDEX, ROWS, WIDTH, parse

# Each piece's Chinese name, and the one character the board's pictures show it by.
CHINESE = {
    "marshal": "司令",
    "general": "军长",
    "division": "师长",
    "brigade": "旅长",
    "regiment": "团长",
    "battalion": "营长",
    "company": "连长",
    "platoon": "排长",
    "engineer": "工兵",
    "mine": "地雷",
    "bomb": "炸弹",
    "flag": "军旗",
}
SHORT = {token: ("雷" if token == "mine" else "炸" if token == "bomb" else "旗" if token == "flag" else name[0])
         for token, name in CHINESE.items()}  # fmt: skip


def _describe(board: Board, action: Action) -> dict[str, Any]:
    if action.kind != MOVE or not isinstance(action.data, dict):
        return no_notation(board, action)
    assert isinstance(board, JunqiBoard)
    frm, to = str(action.data.get("from")), str(action.data.get("to"))
    moved, met = board.cells[parse(frm)], board.cells[parse(to)]
    out: dict[str, Any] = {"from": frm, "to": to, "piece": moved[1] if moved else None}
    if met is not None:
        out["met"] = met[1]
    return out


OUTCOMES = {"attacker": ">", "defender": "<", "both": "="}  # who won the battle, between the two pieces


def _after(board: Board, action: Action, noted: dict[str, Any]) -> dict[str, Any]:
    """A setup as placed; a move's battle outcome, and the move in words every reader reads alike:
    ``a6-a7 工兵>排长`` (the attacker won; ``<`` the defender held, ``=`` both removed)."""
    assert isinstance(board, JunqiBoard)
    if action.kind == SET_UP:
        return {"setup": dict(board.setups[action.seat] or {})}
    if action.kind != MOVE:
        return no_notation(board, action)
    outcome = board.log[-1].partition(":")[2]
    text = f"{noted['from']}-{noted['to']} {CHINESE[noted['piece']]}"
    if outcome:
        text += OUTCOMES[outcome] + CHINESE[noted["met"]]
    return {**({"outcome": outcome} if outcome else {}), "notation": text}


def _draw(board: Board, action: Action | None) -> Picture:
    assert isinstance(board, JunqiBoard)
    rows: list[list[str | None]] = []
    for r in range(ROWS, 0, -1):
        row: list[str | None] = []
        for c in range(WIDTH):
            cell = board.cells[INDEX[f"{COLUMNS[c]}{r}"]]
            row.append("" if cell is None else f"{cell[0]}{SHORT[cell[1]]}")
        rows.append(row)
    marks = []
    if action is not None and action.kind == MOVE and isinstance(action.data, dict):
        for square in (action.data["from"], action.data["to"]):
            sq = str(square)
            marks.append((ROWS - int(sq[1:]), COLUMNS.index(sq[0])))
    return picture(rows, marks)


def record(carry: dict[str, Any] | None, steps: Sequence[Step], names: Sequence[str],
           tags: Mapping[str, str]) -> dict[str, Any]:  # fmt: skip
    """The game's record (``names``: the players seat by seat, Red first), every piece revealed."""
    return replay_record(JunqiBoard.from_order([], carry), steps, _describe, _draw, after=_after)

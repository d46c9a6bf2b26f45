"""Xiangqi's game record (docs/export.md, "Game records"): each move in ICCS (``h2e2``) and in Chinese
notation (炮二平五), the board after each action with the pieces by their Chinese names, and the record as
PGN-like text (the WXF tag pairs, ``Format "ICCS"``, then numbered moves ``1. H2-E2 H9-G7``), which
``parse_text`` reads back."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import DeckhandError
from ..common.game_record import Picture, Step, no_notation, picture, replay_record
from ..contract import Action, Board
from .board import XiangqiBoard
from .chinese import BLACK_NAMES, RED_NAMES, chinese
from .position import parse_iccs
from .tables import FILES, RANKS

TAGS = ("Event", "Site", "Date", "Round")  # the tags a caller may give, in the order written
RESULTS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}  # by the winning seat: Red 0, Black 1


def _describe(board: Board, action: Action) -> dict[str, Any]:
    if action.kind != "move" or not isinstance(action.data, dict):
        return no_notation(board, action)
    assert isinstance(board, XiangqiBoard)
    text = f"{action.data.get('from')}{action.data.get('to')}"
    written = chinese(board.game.pos, parse_iccs(text))
    return {"iccs": text, "chinese": written, "notation": f"{written} {text}"}


def _draw(board: Board, action: Action | None) -> Picture:
    assert isinstance(board, XiangqiBoard)
    b = board.game.pos.board
    rows = []
    for rank in range(RANKS - 1, -1, -1):
        row: list[str | None] = []
        for file in range(FILES):
            p = b[rank * FILES + file]
            row.append("" if not p else f"0{RED_NAMES[p]}" if p > 0 else f"1{BLACK_NAMES[-p]}")
        rows.append(row)
    marks = []
    if action is not None and action.kind == "move" and isinstance(action.data, dict):
        for square in (action.data["from"], action.data["to"]):
            marks.append((RANKS - 1 - int(square[1]), "abcdefghi".index(square[0])))
    return picture(rows, marks)


def record(carry: dict[str, Any] | None, steps: Sequence[Step], names: Sequence[str],
           tags: Mapping[str, str]) -> dict[str, Any]:  # fmt: skip
    """The game's record (``names``: the players seat by seat, Red first), with its ``text``."""
    out = replay_record(XiangqiBoard.from_order([], carry), steps, _describe, _draw)
    out["text"] = text(out, names, tags)
    return out


def text(rec: Mapping[str, Any], names: Sequence[str], tags: Mapping[str, str]) -> str:
    """The record as PGN-like text: tag pairs, then the moves in ICCS numbered by Red's moves, the result."""
    result = RESULTS[rec["result"]["winner"]]
    pairs = [(k, tags[k]) for k in TAGS if k in tags]
    pairs += [("Red", names[0]), ("Black", names[1]), ("Result", result), ("Format", "ICCS")]
    pairs.append(("Termination", str(rec["result"]["why"])))
    head = "".join(f'[{k} "{_quoted(v)}"]\n' for k, v in pairs)
    moves = [f"{m['iccs'][:2]}-{m['iccs'][2:]}".upper() for m in rec["moves"] if "iccs" in m]
    numbered = [f"{i // 2 + 1}. {' '.join(moves[i : i + 2])}" for i in range(0, len(moves), 2)]
    return head + "\n" + " ".join([*numbered, result]) + "\n"


def _quoted(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


_TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')
_MOVE = re.compile(r"^([A-Ia-i][0-9])-([A-Ia-i][0-9])$")


def parse_text(text: str) -> tuple[dict[str, str], list[str]]:
    """The tags and the ICCS moves (``h2e2``) of a record's text."""
    tags: dict[str, str] = {}
    moves: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        tag = _TAG.match(line)
        if tag is not None:
            tags[tag[1]] = re.sub(r"\\(.)", r"\1", tag[2])
            continue
        for token in line.split():
            if re.fullmatch(r"\d+\.", token) or token in RESULTS.values():
                continue
            move = _MOVE.match(token)
            if move is None:
                raise DeckhandError(f"not an ICCS move: {token!r}")
            moves.append((move[1] + move[2]).lower())
    return tags, moves

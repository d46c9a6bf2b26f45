"""A board game's grid for the handset (docs/protocol.md, "Boards"): the board as rows of one-character
glyphs the firmware draws without knowing the game, the squares of the last move marked, the squares the
seat may pick first, and how the firmware names a square for the move it sends.

A cell of the grid is ``row * w + col`` (row 0 at the top); a space is no square (the checkers star's
rows of varying width). A square's name is the template ``n`` with ``{x}`` the column's label (``x``,
one character a column), ``{y}`` the row's number (``y`` the top row's, one less each row down) and
``{k}`` the square's place in its row from 1: Xiangqi ``{x}{y}`` (``h2``), checkers ``r{y}c{k}`` (``r5c1``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .screen import action

NOT_A_SQUARE = " "
MOVE = "move"  # the action a board game's chosen squares go up with (its data keyed by ``q``)


def square_names(grid: dict[str, Any]) -> dict[str, int]:
    """Every square's name → its cell, as the firmware names them (``deckhand_fw/board.py``)."""
    out: dict[str, int] = {}
    x, y, template, w = grid.get("x", ""), grid["y"], grid["n"], grid["w"]
    for i, row in enumerate(grid["r"]):
        k = 0
        for j, glyph in enumerate(row):
            if glyph == NOT_A_SQUARE:
                continue
            k += 1
            name = template.replace("{y}", str(y - i)).replace("{k}", str(k))
            out[name.replace("{x}", x[j]) if "{x}" in template else name] = i * w + j
    return out


def grid(
    rows: Sequence[str],
    y: int,
    template: str,
    x: str = "",
    last: Iterable[str] = (),
    movable: Iterable[str] | None = None,
) -> dict[str, Any]:
    """The grid of ``rows`` (top first; glyphs, a space where there is no square; ``y`` the top row's
    number, one less each row down): ``last`` the names of
    the last move's squares, ``movable`` the names of the squares the seat may pick first (None: any)."""
    drawn: dict[str, Any] = {"w": max(len(r) for r in rows), "r": [r.rstrip() for r in rows], "y": y}
    if x:
        drawn["x"] = x
    drawn["n"] = template
    cells = square_names(drawn)
    marked = sorted({cells[n] for n in last})
    if marked:
        drawn["m"] = marked
    if movable is not None:
        drawn["s"] = sorted({cells[n] for n in movable})
    return drawn


def move_option(label: str, fields: Sequence[str]) -> dict[str, Any]:
    """The option that sends the squares the player picks, in order, as the move's data keyed by
    ``fields`` (``["from", "to"]``; Gomoku's ``["point"]``)."""
    return {"l": label, "a": {**action(MOVE), "q": list(fields)}}

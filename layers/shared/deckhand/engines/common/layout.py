"""A board game's layout for the browser (docs/protocol.md, "Board layouts"): what a page that knows no
game needs, beyond the handset's grid, to draw the board as it looks — the lines between squares (a
river's gap, palace diagonals, railways), the marks under squares (star points, camps, headquarters),
words on the board, each glyph's name and colour in the seat's language, and the last move's path in
order (the grid's ``m`` is a set). Every square is named as the grid names it (``h2``, ``r5c1``).

Sent to clients only (a browser has no 1 KiB limit; a handset is sent the grid alone), built by each
board game's ``layout`` from its own geometry tables."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .grid import square_names


class Piece(NamedTuple):
    """A glyph's piece: its name for people (the square's accessible name), its colour (``red``,
    ``black``, ``white``, ``blue``) and the words on its face (empty: a plain stone)."""

    name: str
    colour: str
    face: str = ""


def straight_runs(
    segments: Iterable[tuple[str, str]], grid: Mapping[str, Any], style: str = ""
) -> list[list[str]]:
    """``segments`` (pairs of neighbouring squares, by name) joined into the fewest straight lines: each
    ``[from, to, style]``, so a 15 × 15 board is 30 lines, not 420."""
    cells = square_names(dict(grid))
    w = grid["w"]
    at = {divmod(c, w): n for n, c in cells.items()}
    steps: set[tuple[str, tuple[int, int]]] = set()  # (square, direction) for each segment, low end first
    for a, b in segments:
        (i, j), (k, m) = sorted((divmod(cells[a], w), divmod(cells[b], w)))
        steps.add((at[(i, j)], (k - i, m - j)))
    lines = []
    for start, d in sorted(steps):
        i, j = divmod(cells[start], w)
        if (at.get((i - d[0], j - d[1])), d) in steps:
            continue  # not where its run starts
        end = start
        while (end, d) in steps:
            i, j = i + d[0], j + d[1]
            end = at[(i, j)]
        lines.append([start, end, style])
    return lines


def layout(
    grid: Mapping[str, Any],
    *,
    pieces: Mapping[str, Piece],
    lines: Sequence[list[str]],
    spots: Sequence[tuple[str, str, Iterable[str]]] = (),
    words: Sequence[tuple[str, str, str]] = (),
    empty: Mapping[str, str] | None = None,
    path: Sequence[str] = (),
    spacing: tuple[float, float] = (1, 1),
    rows: Sequence[float] | None = None,
    size: tuple[float, float] = (1, 1),
    shape: str = "disc",
    flip: bool = False,
    name: str = "",
) -> dict[str, Any]:
    """The layout of ``grid`` (docs/protocol.md, "Board layouts"). ``spacing``: a column's and a row's
    distance (units); ``rows``: each grid row's place down the board instead (a wider gap at a front);
    ``size``: a square's tappable width and height; ``shape``: how a piece is drawn (``disc``,
    ``tile``); ``spots``: (``dot``/``ring``/``box``/``arch``/``hole``, tint, squares) drawn under
    squares; ``words``: (square, square, text) written between two squares; ``empty``: an empty
    square's glyph → what the square is (a camp); ``flip``: drawn turned half round (the seat's side at
    the bottom); ``name``: the board's accessible name."""
    out: dict[str, Any] = {
        "name": name,
        "sx": spacing[0],
        "sy": spacing[1],
        "size": list(size),
        "shape": shape,
        "flip": flip,
        "lines": [list(line) for line in lines],
        "spots": [[kind, tint, sorted(squares)] for kind, tint, squares in spots],
        "words": [list(w) for w in words],
        "pieces": {glyph: list(p) for glyph, p in pieces.items()},
        "empty": dict(empty or {}),
        "path": list(path),
    }
    if rows is not None:
        out["ys"] = [round(y, 3) for y in rows]
    return out

"""Gomoku positions the tests build: stones by point name, and a full board with no five."""

from __future__ import annotations

from collections.abc import Iterable

from deckhand.engines.gomoku.stones import COLUMNS, SIZE, B, Stones, W, parse_point


def position(black: Iterable[str] = (), white: Iterable[str] = ()) -> Stones:
    stones = Stones()
    for p in black:
        stones.put(parse_point(p), B)
    for p in white:
        stones.put(parse_point(p), W)
    return stones


def _full_colour(col: int, row: int) -> str:
    """Pairs of points alternating along each row, shifted every second row: no line of five any way."""
    return "BW"[((col + row // 2 + 2) // 2) % 2]


# A full board without a five: 113 black stones (H8 among them), 112 white; row 15 first.
FULL_DRAW = ["".join(_full_colour(c, r) for c in range(SIZE)) for r in range(SIZE - 1, -1, -1)]


def points_of(rows: list[str], colour: str) -> list[str]:
    """The points holding ``colour``'s stones on a board of rows (row 15 first), A1 first."""
    return [
        f"{COLUMNS[c]}{row}"
        for row in range(1, SIZE + 1)
        for c, stone in enumerate(rows[SIZE - row])
        if stone == colour
    ]

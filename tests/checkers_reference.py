"""A slow Chinese checkers move generator written straight from RULES.md §6.4's text, for the tests to
hold the engine against: points as (row, col), neighbours by the row/column formula (E/W = col ± 1; in
an adjacent row of width w' the neighbours col + (w' - w ∓ 1) / 2), a jump as two steps the same way
(the same direction is the same (Δq, Δr) of the axial formula), and every jump chain enumerated as a
path (a set of landed points carried along), not searched breadth first as the engine does."""

from __future__ import annotations

WIDTHS = (1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1)
Point = tuple[int, int]  # (row, col)
ALL: list[Point] = [(row, col) for row in range(1, 18) for col in range(1, WIDTHS[row - 1] + 1)]


def neighbours(p: Point) -> list[Point]:
    """The points one step from ``p``, by the row/column formula of §6.4."""
    row, col = p
    w = WIDTHS[row - 1]
    out = [(row, c) for c in (col - 1, col + 1) if 1 <= c <= w]
    for other in (row - 1, row + 1):
        if 1 <= other <= 17:
            w2 = WIDTHS[other - 1]
            for c in (col + (w2 - w - 1) // 2, col + (w2 - w + 1) // 2):
                if 1 <= c <= w2:
                    out.append((other, c))
    return out


def axial(p: Point) -> tuple[int, int]:
    row, col = p
    return col - 1 + (10 - WIDTHS[row - 1] - row) // 2, row - 9


def beyond(p: Point, over: Point) -> Point | None:
    """The point past ``over`` from ``p`` on their line (one step further the same way), if any."""
    (q0, r0), (q1, r1) = axial(p), axial(over)
    target = (2 * q1 - q0, 2 * r1 - r0)
    found = [n for n in neighbours(over) if axial(n) == target]
    return found[0] if found else None


def moves(red: set[Point], blue: set[Point], side: str) -> set[tuple[Point, Point]]:
    """Every (from, to) of ``side``'s legal moves."""
    mine = red if side == "red" else blue
    occupied = red | blue
    out: set[tuple[Point, Point]] = set()
    for start in mine:
        others = occupied - {start}  # the moving piece is lifted
        for n in neighbours(start):
            if n not in occupied:
                out.add((start, n))
        for land in chain_ends(start, frozenset({start}), others):
            out.add((start, land))
    return out


def chain_ends(here: Point, landed: frozenset[Point], others: set[Point]) -> set[Point]:
    """Every point a chain from ``here`` lands on, having landed on ``landed`` (the start among them)."""
    ends: set[Point] = set()
    for over in neighbours(here):
        if over in others:
            land = beyond(here, over)
            if land is not None and land not in others and land not in landed:
                ends |= {land} | chain_ends(land, landed | {land}, others)
    return ends


def name(p: Point) -> str:
    return f"r{p[0]}c{p[1]}"

"""The two-player Junqi board (RULES.md §6.3 Board): 5 columns × 12 rows, camps, headquarters, the
railway's stations, segments and straight lines, and the road links, as index tables built once.

A square's index is ``(row - 1) * 5 + column``: ``a1`` is 0, ``e12`` is 59. Red (side 0) owns rows
1–6, Blue (side 1) rows 7–12; Blue's half is Red's with every row r read as 13 − r.
"""

from __future__ import annotations

import re

from ...errors import DeckhandError

COLUMNS = "abcde"
ROWS = 12
WIDTH = len(COLUMNS)
SQUARES = tuple(range(WIDTH * ROWS))
SIDES = ("red", "blue")
RED, BLUE = 0, 1
SQUARE_NAME = re.compile(r"[a-e](1[0-2]|[1-9])")


def name(sq: int) -> str:
    return f"{COLUMNS[sq % WIDTH]}{sq // WIDTH + 1}"


def at(column: int, row: int) -> int:
    return (row - 1) * WIDTH + column


NAMES = tuple(name(sq) for sq in SQUARES)
INDEX = {n: sq for sq, n in enumerate(NAMES)}


def parse(token: object) -> int:
    """A square from its name (``a1`` … ``e12``, lower case, no leading zero), or DeckhandError."""
    sq = INDEX.get(token) if isinstance(token, str) else None  # the names are exactly SQUARE_NAME's
    if sq is None:
        raise DeckhandError(f"not a square: {token!r} (a1 … e12)")
    return sq


def row(sq: int) -> int:
    return sq // WIDTH + 1


def column(sq: int) -> int:
    return sq % WIDTH


def mirror(sq: int) -> int:
    """The same square seen from the other side's half (row r ↔ 13 − r)."""
    return at(column(sq), ROWS + 1 - row(sq))


def half(side: int) -> frozenset[int]:
    rows = range(1, 7) if side == RED else range(7, 13)
    return frozenset(sq for sq in SQUARES if row(sq) in rows)


def _both(names: str) -> frozenset[int]:
    red = [INDEX[n] for n in names.split()]
    return frozenset(red + [mirror(sq) for sq in red])


HALVES = (half(RED), half(BLUE))
HEADQUARTERS = _both("b1 d1")
CAMPS = _both("b3 d3 c4 b5 d5")
OWN_HQ = tuple(frozenset(HEADQUARTERS & h) for h in HALVES)
FRONT_ROW = (6, 7)  # each side's front row
MINE_ROWS = ((1, 2), (11, 12))  # each side's last two rows
SETUP_SQUARES = tuple(frozenset(h - CAMPS) for h in HALVES)  # the 25 squares a setup fills


def _line(names: str) -> tuple[int, ...]:
    return tuple(INDEX[n] for n in names.split())


# The straight railway lines a non-engineer keeps to (D1: c6-c7 is railway; D2: no arcs).
LINES: tuple[tuple[int, ...], ...] = (
    _line("a2 b2 c2 d2 e2"),
    _line("a6 b6 c6 d6 e6"),
    _line("a7 b7 c7 d7 e7"),
    _line("a11 b11 c11 d11 e11"),
    tuple(at(0, r) for r in range(2, 12)),
    tuple(at(4, r) for r in range(2, 12)),
    _line("c6 c7"),
)
STATIONS = frozenset(sq for line in LINES for sq in line)
RAIL_SEGMENTS = frozenset(frozenset(pair) for line in LINES for pair in zip(line, line[1:], strict=False))


def _road_links() -> frozenset[frozenset[int]]:
    links: set[frozenset[int]] = set()
    for h in HALVES:
        for sq in h:
            for other in (sq + 1 if column(sq) < WIDTH - 1 else None, sq + WIDTH):
                if other is not None and other in h and frozenset((sq, other)) not in RAIL_SEGMENTS:
                    links.add(frozenset((sq, other)))
    for camp in CAMPS:  # D4: every camp to its four diagonal neighbours, and no other diagonal
        for dc in (-1, 1):
            for dr in (-1, 1):
                c, r = column(camp) + dc, row(camp) + dr
                links.add(frozenset((camp, at(c, r))))
    return frozenset(links)


ROAD_LINKS = _road_links()
# Every one-step neighbour of a square (road or railway, orthogonal or diagonal), lowest first.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(o for link in ROAD_LINKS | RAIL_SEGMENTS if sq in link for o in link if o != sq))
    for sq in SQUARES
)
# Railway neighbours of a station (for an engineer's path), and each station's straight runs: the
# squares beyond it along each line through it, nearest first, one run per direction.
RAIL_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(o for seg in RAIL_SEGMENTS if sq in seg for o in seg if o != sq)) for sq in SQUARES
)


def _runs(sq: int) -> tuple[tuple[int, ...], ...]:
    runs = []
    for line in LINES:
        if sq in line:
            i = line.index(sq)
            for run in (line[i + 1 :], tuple(reversed(line[:i]))):
                if run:
                    runs.append(run)
    return tuple(runs)


RUNS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_runs(sq) for sq in SQUARES)

"""Black's forbidden moves (禁手) by the RIF definitions (RULES.md §6.2), fast.

A move is judged line by line: the eleven points around it in each of the four directions are one
slice of the padded board (``stones.py``), and what a line holds for the stone in its middle — the
length of its row, its fours, the points that would make it a straight four — depends on those
eleven bytes alone, so it is worked out once per pattern and kept (``line``). The board is read
again only to test the points that would turn a three into a straight four, which must not be
forbidden themselves (the recursive test of a real three).

Definitions (RIF): a *five* is exactly five in a row, an *overline* six or more. A *four* is a line
to which one more stone adds an exact five; the fours through a move are counted by their stones, so
``B.BBB.B`` is two fours on one line and ``.BBBB.`` one. A *straight four* is four in a row that two
different points make an exact five. A *three* is a line to which one stone adds a straight four,
that stone's move not being forbidden. A line that is a four is not also counted as a three.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .stones import DIRECTIONS, PAD, B, E, Stones

CENTRE = PAD  # the move's place in a line of 2 * PAD + 1 points


class Verdict(StrEnum):
    """A black move's verdict; forbidden reasons in the order a referee names the first of several."""

    LEGAL = "legal"
    OVERLINE = "overline"
    DOUBLE_FOUR = "double-four"
    DOUBLE_THREE = "double-three"


class Line(NamedTuple):
    """What one line holds for the stone in its middle (a black stone placed there)."""

    run: int  # black stones in an unbroken row through the middle
    fours: int  # distinct fours through the middle (0 when it is already a five or an overline)
    threes: tuple[int, ...]  # offsets of the points that make a straight four (none in a four line)
    wins: int = 0  # points that add a five (two to a straight four)


def _span(cells: list[int], at: int, stone: int) -> tuple[int, int]:
    lo = hi = at
    while lo > 0 and cells[lo - 1] == stone:
        lo -= 1
    while hi < len(cells) - 1 and cells[hi + 1] == stone:
        hi += 1
    return lo, hi


def analyse(pattern: bytes, stone: int = B, exact: bool = True) -> Line:
    """The line through the middle of ``pattern`` (11 bytes, ``stone`` in the middle). ``exact``:
    only an exact five wins (Black); else five or more (White, for the bot's reading)."""
    cells = list(pattern)
    lo, hi = _span(cells, CENTRE, stone)
    run = hi - lo + 1
    if run >= 5:
        return Line(run, 0, ())

    def five(a: int, b: int) -> bool:
        return b - a + 1 == 5 if exact else b - a + 1 >= 5

    fours: set[tuple[int, ...]] = set()
    wins = 0
    for p in range(len(cells)):
        if cells[p] != E:
            continue
        cells[p] = stone
        a, b = _span(cells, CENTRE, stone)
        if a <= p <= b and five(a, b):
            fours.add(tuple(x for x in range(a, b + 1) if x != p))  # a four is its stones
            wins += 1
        cells[p] = E
    if fours:
        return Line(run, len(fours), (), wins)
    threes = []
    for q in range(1, len(cells) - 1):
        if cells[q] != E:
            continue
        cells[q] = stone
        a, b = _span(cells, CENTRE, stone)
        four = a <= q <= b and b - a + 1 == 4
        if four and _open_end(cells, a - 1, -1, stone, exact) and _open_end(cells, b + 1, 1, stone, exact):
            threes.append(q - CENTRE)
        cells[q] = E
    return Line(run, 0, tuple(threes))


def _open_end(cells: list[int], end: int, step: int, stone: int, exact: bool) -> bool:
    """Whether the point ``end`` beyond a row of four is empty and adds a five there (for Black an
    exact five: the point after it holds no black stone)."""
    if not 0 <= end < len(cells) or cells[end] != E:
        return False
    beyond = end + step
    return not exact or not (0 <= beyond < len(cells) and cells[beyond] == stone)


_LINES: dict[bytes, Line] = {}


def line(pattern: bytes) -> Line:
    """``analyse`` of a black line, remembered: a game meets a few thousand patterns at most."""
    found = _LINES.get(pattern)
    if found is None:
        found = _LINES[pattern] = analyse(pattern)
    return found


def lines_at(stones: Stones, i: int) -> list[Line]:
    """The four lines through ``i`` (which holds a black stone)."""
    cells = stones.cells
    lines = _LINES
    out = []
    for d in DIRECTIONS:
        pattern = bytes(cells[i - PAD * d : i + PAD * d + 1 : d])
        found = lines.get(pattern)
        out.append(found if found is not None else line(pattern))
    return out


def verdict(stones: Stones, i: int) -> Verdict:
    """The verdict on Black playing the empty point ``i``: an exact five is legal whatever else it
    makes; else overline, double-four, double-three (the first that holds); else legal."""
    stones.put(i, B)
    try:
        return _placed(stones, i)
    finally:
        stones.take(i)


def forbidden(stones: Stones, i: int) -> bool:
    return verdict(stones, i) is not Verdict.LEGAL


def _placed(stones: Stones, i: int) -> Verdict:
    """``verdict`` with the stone already on ``i``."""
    found = lines_at(stones, i)
    longest = 0
    fours = 0
    candidates = 0
    for ln in found:
        if ln.run == 5:
            return Verdict.LEGAL
        longest = max(longest, ln.run)
        fours += ln.fours
        if ln.threes:
            candidates += 1
    if longest >= 6:
        return Verdict.OVERLINE
    if fours >= 2:
        return Verdict.DOUBLE_FOUR
    if candidates < 2:
        return Verdict.LEGAL
    real = 0
    for d, ln in zip(DIRECTIONS, found, strict=True):
        if ln.threes:
            if any(_legal_after(stones, i + q * d) for q in ln.threes):
                real += 1
                if real == 2:
                    return Verdict.DOUBLE_THREE
            candidates -= 1
            if real + candidates < 2:
                break
    return Verdict.LEGAL


def _legal_after(stones: Stones, j: int) -> bool:
    """Whether Black may play ``j`` with the stones as they stand (the recursive test of a three)."""
    stones.put(j, B)
    try:
        return _placed(stones, j) is Verdict.LEGAL
    finally:
        stones.take(j)

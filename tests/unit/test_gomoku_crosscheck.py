"""The fast forbidden-move checker against a slow one written straight from the RIF definitions.

The reference walks a plain 15×15 grid: for each of the four lines through the move it tries every
empty point of the whole line, measures the rows it makes, and for a three tries the straight-four
point as a black move of its own (the recursive test). Thousands of seeded random positions, dense
around the centre so that threes, fours and false threes are common, must get the same verdict.
"""

from __future__ import annotations

import random

from deckhand.engines.gomoku.forbidden import verdict
from deckhand.engines.gomoku.stones import SIZE, Stones, index

Grid = list[list[str]]
DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))
FALSE_THREES = [0]  # straight-four points found forbidden by the recursive test, over the whole run


def on(c: int, r: int) -> bool:
    return 0 <= c < SIZE and 0 <= r < SIZE


def row_through(g: Grid, c: int, r: int, dc: int, dr: int) -> list[tuple[int, int]]:
    """The unbroken row of black stones through (c, r) along (dc, dr), as points."""
    pts = [(c, r)]
    for sign in (1, -1):
        x, y = c + sign * dc, r + sign * dr
        while on(x, y) and g[y][x] == "B":
            pts.append((x, y))
            x, y = x + sign * dc, y + sign * dr
    return pts


def line_points(c: int, r: int, dc: int, dr: int) -> list[tuple[int, int]]:
    return [(c + k * dc, r + k * dr) for k in range(-SIZE, SIZE + 1) if on(c + k * dc, r + k * dr)]


def exact_five_after(g: Grid, p: tuple[int, int], c: int, r: int, dc: int, dr: int) -> frozenset | None:
    """Black on empty p: the five's other stones when the row through (c, r) is then exactly five and holds p."""
    g[p[1]][p[0]] = "B"
    row = row_through(g, c, r, dc, dr)
    g[p[1]][p[0]] = "."
    return frozenset(row) - {p} if p in row and len(row) == 5 else None


def straight_four_after(g: Grid, q: tuple[int, int], c: int, r: int, dc: int, dr: int) -> bool:
    """Black on empty q makes an unbroken row of four through (c, r) and q, which two points make five."""
    g[q[1]][q[0]] = "B"
    try:
        row = row_through(g, c, r, dc, dr)
        if q not in row or len(row) != 4:
            return False
        ends = [p for p in line_points(c, r, dc, dr) if g[p[1]][p[0]] == "." and p not in row]
        makes = [p for p in ends if exact_five_after(g, p, c, r, dc, dr) is not None]
        return len(makes) == 2
    finally:
        g[q[1]][q[0]] = "."


def reference(g: Grid, c: int, r: int) -> str:
    g[r][c] = "B"
    try:
        return placed(g, c, r)
    finally:
        g[r][c] = "."


def placed(g: Grid, c: int, r: int) -> str:
    rows = [len(row_through(g, c, r, dc, dr)) for dc, dr in DIRS]
    if 5 in rows:
        return "legal"
    if max(rows) >= 6:
        return "overline"
    four_lines = []
    fours = 0
    for dc, dr in DIRS:
        found = set()
        for p in line_points(c, r, dc, dr):
            if g[p[1]][p[0]] == ".":
                stones = exact_five_after(g, p, c, r, dc, dr)
                if stones is not None:
                    found.add(stones)
        fours += len(found)
        four_lines.append(bool(found))
    if fours >= 2:
        return "double-four"
    threes = 0
    for (dc, dr), is_four in zip(DIRS, four_lines, strict=True):
        if is_four:
            continue
        for q in line_points(c, r, dc, dr):
            if g[q[1]][q[0]] == "." and straight_four_after(g, q, c, r, dc, dr):
                if reference(g, *q) == "legal":
                    threes += 1
                    break
                FALSE_THREES[0] += 1
    return "double-three" if threes >= 2 else "legal"


def random_position(rng: random.Random) -> tuple[Grid, Stones]:
    """Stones dense in a window around the centre, Black a little more numerous."""
    span = rng.choice((5, 7, 9))
    lo = 7 - span // 2
    spots = [(c, r) for c in range(lo, lo + span) for r in range(lo, lo + span)]
    n = rng.randint(span * span // 5, span * span * 3 // 5)
    grid = [["."] * SIZE for _ in range(SIZE)]
    stones = Stones()
    for c, r in rng.sample(spots, n):
        colour = "B" if rng.random() < 0.62 else "W"
        grid[r][c] = colour
        stones.put(index(c, r), ord(colour))
    return grid, stones


def test_the_fast_checker_agrees_with_the_rif_definitions_on_random_positions() -> None:
    rng = random.Random(38)
    seen: dict[str, int] = {}
    checks = 0
    while checks < 5000:
        grid, stones = random_position(rng)
        for r in range(3, 12):
            for c in range(3, 12):
                if grid[r][c] == ".":
                    expected = reference(grid, c, r)
                    assert verdict(stones, index(c, r)).value == expected, (c, r, grid)
                    seen[expected] = seen.get(expected, 0) + 1
                    checks += 1
    # The sample exercises every verdict, so a broken rule of any kind shows here.
    assert all(seen.get(v, 0) >= 10 for v in ("legal", "overline", "double-four", "double-three")), seen
    assert FALSE_THREES[0] >= 10  # and the recursive test of a three decides some of them

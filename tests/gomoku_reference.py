"""A slow forbidden-move checker written straight from the RIF definitions, for the tests to hold the
fast one to. It walks a plain 15×15 grid of "B" / "W" / "." (``grid[row][col]``, row 0 = row 1): for
each of the four lines through the move it tries every empty point of the whole line, measures the
rows it makes, and for a three tries the straight-four point as a black move of its own (the
recursive test)."""

from __future__ import annotations

from deckhand.engines.gomoku.stones import SIZE

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

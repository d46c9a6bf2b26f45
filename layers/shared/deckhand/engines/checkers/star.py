"""The 121-point star: point names (``r{row}c{col}``), axial and cube coordinates, the six line
directions, the homes and targets, and the tables the move generator reads (RULES.md §6.4).

A point is an index 0–120 in the order of its name read numerically (row, then column), so sorting
indices sorts names as the calculator's answers are sorted. Every table is built once from the
coordinate formulas of §6.4; nothing else in the engine does coordinate arithmetic.
"""

from __future__ import annotations

from ...errors import DeckhandError

WIDTHS = (1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1)  # rows 1–17
ROWS = len(WIDTHS)
RED, BLUE = 0, 1  # sides, seat by seat
SIDES = ("red", "blue")
# The six line directions (Δq, Δr): E, W, NE, NW, SE, SW; N is towards row 17.
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (-1, 1), (1, -1), (0, -1))


def axial(row: int, col: int) -> tuple[int, int]:
    """(q, r) of the point ``r{row}c{col}`` (which need not exist): ``r = row - 9``,
    ``q = col - 1 + (10 - w - row) / 2``, w the row's width."""
    shift = 10 - WIDTHS[row - 1] - row
    assert shift % 2 == 0
    return col - 1 + shift // 2, row - 9


def row_col(q: int, r: int) -> tuple[int, int] | None:
    """(row, col) of the axial point (q, r), or None when it is off the board."""
    x, z = q, r
    y = -q - r
    if not (max(x, y, z) <= 4 or min(x, y, z) >= -4):
        return None
    row = r + 9
    if not 1 <= row <= ROWS:
        return None
    col = q + 1 - (10 - WIDTHS[row - 1] - row) // 2
    return (row, col) if 1 <= col <= WIDTHS[row - 1] else None


ROW_COL: tuple[tuple[int, int], ...] = tuple(
    (row, col) for row in range(1, ROWS + 1) for col in range(1, WIDTHS[row - 1] + 1)
)
POINTS = tuple(range(len(ROW_COL)))
AXIAL: tuple[tuple[int, int], ...] = tuple(axial(row, col) for row, col in ROW_COL)
_INDEX = {rc: i for i, rc in enumerate(ROW_COL)}
_BY_AXIAL = {qr: i for i, qr in enumerate(AXIAL)}
NAMES: tuple[str, ...] = tuple(f"r{row}c{col}" for row, col in ROW_COL)
_BY_NAME = {n: i for i, n in enumerate(NAMES)}


def cube(i: int) -> tuple[int, int, int]:
    """(x, y, z) of point ``i``: x = q, z = r, y = -q - r."""
    q, r = AXIAL[i]
    return q, -q - r, r


def _neighbour(i: int, d: tuple[int, int], k: int = 1) -> int:
    q, r = AXIAL[i]
    return _BY_AXIAL.get((q + k * d[0], r + k * d[1]), -1)


# STEPS[i]: the points one step from i; JUMPS[i]: (over, landing) pairs, both on the board.
STEPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for d in DIRECTIONS if (n := _neighbour(i, d)) >= 0) for i in POINTS
)
JUMPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((_neighbour(i, d), land) for d in DIRECTIONS if (land := _neighbour(i, d, 2)) >= 0) for i in POINTS
)
# Each side's home (Red rows 1–4: z <= -5; Blue rows 14–17: z >= 5); a side's target is the other's home.
HOMES: tuple[frozenset[int], frozenset[int]] = (
    frozenset(i for i in POINTS if AXIAL[i][1] <= -5),
    frozenset(i for i in POINTS if AXIAL[i][1] >= 5),
)
TARGETS = (HOMES[BLUE], HOMES[RED])
TIPS = (_INDEX[(ROWS, 1)], _INDEX[(1, 1)])  # each side's target's far tip: r17c1 for Red, r1c1 for Blue


def distance(a: int, b: int) -> int:
    """Hex steps between two points."""
    (qa, ra), (qb, rb) = AXIAL[a], AXIAL[b]
    dq, dr = qa - qb, ra - rb
    return max(abs(dq), abs(dr), abs(dq + dr))


def region(i: int) -> str:
    """Which part of the star a point is in: ``red_home``, ``blue_home``, ``hexagon`` or a side
    triangle (``lower_left``, ``lower_right``, ``upper_left``, ``upper_right``)."""
    x, y, z = cube(i)
    if z <= -5:
        return "red_home"
    if z >= 5:
        return "blue_home"
    if max(x, y, z) <= 4 and min(x, y, z) >= -4:
        return "hexagon"
    if y >= 5:
        return "lower_left"
    if x >= 5:
        return "lower_right"
    return "upper_left" if x <= -5 else "upper_right"


def index(row: int, col: int) -> int:
    return _INDEX[(row, col)]


def name(i: int) -> str:
    return NAMES[i]


def parse_point(token: object) -> int:
    """A point name (``r3c1``: lower case, no leading zeros) → its index; anything else is an error."""
    if isinstance(token, str) and (i := _BY_NAME.get(token)) is not None:
        return i
    raise DeckhandError(f"a point is r{{row}}c{{col}} on the 121-point star, like 'r3c1', got {token!r}")


def start(side: int) -> frozenset[int]:
    """The points a side's ten pieces start on: its home."""
    return HOMES[side]

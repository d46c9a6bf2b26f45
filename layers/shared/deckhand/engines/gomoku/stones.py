"""The stones on a 15×15 board and the point names players read ("H8"), on a padded 1-D array.

A point is one byte of a ``bytearray`` whose rows are padded with five edge bytes each side (and five
edge rows above and below), so the line of eleven points around any point in any of the four
directions is one extended slice, edge bytes included: the forbidden-move checker reads a whole
line with one C-level operation.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ...errors import DeckhandError

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
PAD = 5  # the farthest a line is read from its point
WIDTH = SIZE + PAD  # one run of edge bytes serves as both the right pad of a row and the left of the next
LENGTH = (SIZE + 2 * PAD + 1) * WIDTH
EMPTY, BLACK, WHITE, EDGE = b".", b"B", b"W", b"#"
E, B, W = EMPTY[0], BLACK[0], WHITE[0]
DIRECTIONS = (1, WIDTH, WIDTH + 1, WIDTH - 1)  # across, up, diagonal up-right, diagonal up-left


def index(col: int, row: int) -> int:
    """The array index of the point at column ``col`` 0–14 (A–O) and row ``row`` 0–14 (1–15)."""
    return (row + PAD) * WIDTH + col + PAD


def coords(i: int) -> tuple[int, int]:
    """(column 0–14, row 0–14) of an array index."""
    row, col = divmod(i, WIDTH)
    return col - PAD, row - PAD


POINTS: tuple[int, ...] = tuple(index(c, r) for r in range(SIZE) for c in range(SIZE))
CENTRE = index(7, 7)  # H8, 天元


def name(i: int) -> str:
    col, row = coords(i)
    return f"{COLUMNS[col]}{row + 1}"


_NAMES = {name(i): i for i in POINTS}


def parse_point(token: object) -> int:
    """A point name (``"H8"``, any case) → its index; anything else is a DeckhandError."""
    if isinstance(token, str) and (i := _NAMES.get(token.strip().upper())) is not None:
        return i
    raise DeckhandError(f"a point is a column A–O and a row 1–15, like 'H8', got {token!r}")


class Stones:
    """The stones on the board: a ``bytearray`` of EMPTY / BLACK / WHITE points inside EDGE padding."""

    __slots__ = ("cells", "count")

    def __init__(self) -> None:
        self.cells = bytearray(EDGE * LENGTH)
        for i in POINTS:
            self.cells[i] = E
        self.count = 0

    def put(self, i: int, colour: int) -> None:
        self.cells[i] = colour
        self.count += 1

    def take(self, i: int) -> None:
        self.cells[i] = E
        self.count -= 1

    @property
    def full(self) -> bool:
        return self.count == SIZE * SIZE

    def empty_points(self) -> Iterator[int]:
        cells = self.cells
        return (i for i in POINTS if cells[i] == E)

    def rows(self) -> list[str]:
        """The board as 15 strings, row 15 first, columns A–O: "B", "W" and "."."""
        return [self.cells[index(0, r) : index(SIZE, r)].decode("ascii") for r in range(SIZE - 1, -1, -1)]

    @classmethod
    def from_rows(cls, rows: Sequence[object]) -> Stones:
        """The board from 15 strings of 15 points each, row 15 first (the referee's ``board``)."""
        if not isinstance(rows, list) or len(rows) != SIZE:
            raise DeckhandError(f"a board is a list of {SIZE} strings, row 15 first")
        stones = cls()
        for n, text in enumerate(rows):
            if not isinstance(text, str) or len(text) != SIZE or set(text) - {"B", "W", "."}:
                raise DeckhandError(f"board row {SIZE - n} must be {SIZE} of 'B', 'W' and '.', got {text!r}")
            for col, ch in enumerate(text):
                if ch != ".":
                    stones.put(index(col, SIZE - 1 - n), ord(ch))
        return stones

    def run(self, i: int, d: int, colour: int) -> int:
        """How many stones of ``colour`` stand in a row through ``i`` (which holds one) along ``d``."""
        cells = self.cells
        n = 1
        j = i + d
        while cells[j] == colour:
            n += 1
            j += d
        j = i - d
        while cells[j] == colour:
            n += 1
            j -= d
        return n

    def five_at(self, i: int, colour: int) -> bool:
        """Whether the stone at ``i`` stands in a winning row: exactly five for Black, five or more for White."""
        runs = [self.run(i, d, colour) for d in DIRECTIONS]
        return 5 in runs if colour == B else max(runs) >= 5

    def winner(self) -> int | None:
        """The colour with a winning row anywhere on the board (Black's exact five, White's five or
        more); None when neither; a DeckhandError when both (no game reaches that)."""
        found = {c for c in (B, W) for i in POINTS if self.cells[i] == c and self.five_at(i, c)}
        if len(found) > 1:
            raise DeckhandError("both colours have five in a row: no game reaches this position")
        return found.pop() if found else None

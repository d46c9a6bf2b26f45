"""The pieces on the star and how they move (RULES.md §6.4 Moves): steps, jump chains, paths.

``Pieces.cells`` holds, for every point, EMPTY or the side standing there. A move is a step to an
adjacent empty point or a chain of jumps, each over one occupied point (either side's) to the empty
point beyond, the moving piece lifted from its start point; a chain lands on no point twice and never
on its start point. The side triangles are open and a piece may leave its target: nothing else limits
where a piece goes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...errors import DeckhandError
from .star import BLUE, HOMES, JUMPS, POINTS, RED, SIDES, STEPS, TARGETS, name

EMPTY = 2  # a point's value when no piece stands on it (the sides are 0 and 1)
PIECES = 10


class Pieces:
    """Both sides' pieces: ``cells[point]`` is RED, BLUE or EMPTY."""

    __slots__ = ("cells",)

    def __init__(self, red: Iterable[int], blue: Iterable[int]) -> None:
        self.cells = bytearray([EMPTY] * len(POINTS))
        for side, points in ((RED, red), (BLUE, blue)):
            for p in points:
                if self.cells[p] != EMPTY:
                    raise DeckhandError(f"{name(p)} holds two pieces")
                self.cells[p] = side

    @classmethod
    def start(cls) -> Pieces:
        return cls(HOMES[RED], HOMES[BLUE])

    def of(self, side: int) -> list[int]:
        """The points holding ``side``'s pieces, in name order."""
        cells = self.cells
        return [p for p in POINTS if cells[p] == side]

    def copy(self) -> Pieces:
        twin = Pieces((), ())
        twin.cells[:] = self.cells
        return twin

    def move(self, start: int, end: int) -> None:
        self.cells[end] = self.cells[start]
        self.cells[start] = EMPTY

    def filled(self, side: int) -> bool:
        """All of ``side``'s pieces stand in its target (which then holds exactly those)."""
        cells = self.cells
        return all(cells[p] == side for p in TARGETS[side])

    def at_home(self, side: int) -> bool:
        """Some piece of ``side`` stands on its own home (the passive-play test)."""
        cells = self.cells
        return any(cells[p] == side for p in HOMES[side])

    def key(self) -> bytes:
        return bytes(self.cells)


def reach(cells: bytearray, start: int) -> dict[int, int]:
    """Every point the piece on ``start`` may end a move on → the point before it on one shortest way
    there (``start`` for a step or a first jump): steps to the empty neighbours, then every landing
    point of jump chains (breadth first, with the piece lifted from ``start``)."""
    side = cells[start]
    cells[start] = EMPTY
    try:
        came: dict[int, int] = {start: start}
        frontier = [start]
        while frontier:
            later = []
            for p in frontier:
                for over, land in JUMPS[p]:
                    if cells[over] != EMPTY and cells[land] == EMPTY and land not in came:
                        came[land] = p
                        later.append(land)
            frontier = later
        del came[start]
        for n in STEPS[start]:
            if cells[n] == EMPTY:
                came[n] = start  # a chain may end there too: the step is the shorter way
        return came
    finally:
        cells[start] = side


def destinations(pieces: Pieces, side: int) -> list[tuple[int, int]]:
    """Every (from, to) a legal move of ``side`` makes, sorted by from and then to; [] means pass."""
    cells = pieces.cells
    return [(p, to) for p in pieces.of(side) for to in sorted(reach(cells, p))]


def chain(came: dict[int, int], start: int, end: int) -> list[int]:
    """The points of the move ``reach`` found from ``start`` to ``end``, start first."""
    path = [end]
    while path[-1] != start:
        path.append(came[path[-1]])
    return path[::-1]


def path_fault(pieces: Pieces, side: int, path: Sequence[int]) -> tuple[str, str] | None:
    """Why ``path`` (points, the start first) is no legal move of ``side``: (reason code, text); None
    when it is one. The reason codes are the board's refusals."""
    cells = pieces.cells
    start = path[0]
    if cells[start] != side:
        whose = "no piece" if cells[start] == EMPTY else f"a {SIDES[cells[start]]} piece"
        return "not_your_piece", f"{name(start)} holds {whose}, not one of {SIDES[side]}'s"
    if len(path) < 2:
        return "bad_path", "a move names at least two points: where the piece starts and where it ends"
    first = path[1]
    if len(path) == 2 and first in STEPS[start]:
        if cells[first] != EMPTY:
            return "occupied", f"{name(first)} is not empty"
        return None
    seen = {start}
    cells[start] = EMPTY  # lifted while it jumps
    try:
        for here, there in zip(path, path[1:], strict=False):
            if there in seen:
                return "lands_twice", f"a chain lands on {name(there)} twice (or on its start)"
            over = next((o for o, land in JUMPS[here] if land == there), None)
            if over is None:
                if there in STEPS[here]:
                    return "step_in_chain", "a move is one step or jumps only, never both"
                return (
                    "not_a_line",
                    f"{name(here)} to {name(there)} is neither a step nor a jump along a line",
                )
            if cells[over] == EMPTY:
                return "nothing_to_jump", f"no piece on {name(over)} to jump over"
            if cells[there] != EMPTY:
                return "occupied", f"{name(there)} is not empty"
            seen.add(there)
        return None
    finally:
        cells[start] = side

"""The bot's endgame: the shortest way to fill the target once only a few of its points are empty.

Greedy costs fill the last points slowly (a piece steps inside the target to make room, another waits
for a ladder), so when at most ``holes`` target points are empty and no opposing piece stands in the
target, the bot searches its own moves for the fewest that fill it, the opponent's pieces standing
still. Every move lands at most one piece in the target, so a filling takes at least as many moves as
there are empty points: the search tries that many first, then one and two spare moves more, depth
first with the moves that land a piece in the target before the others, and remembers the positions
it has proved hopeless. It gives up (the greedy costs decide) when it has looked at ``nodes``
positions, so a bot move stays fast; what it finds it finds always the same way.
"""

from __future__ import annotations

from .pieces import EMPTY, Pieces, reach
from .star import TARGETS

Move = tuple[int, int]


class _OutOfNodes(Exception):
    """The search looked at as many positions as it may."""


class _Search:
    def __init__(self, pieces: Pieces, side: int, nodes: int) -> None:
        self.cells, self.side, self.target = pieces.cells, side, TARGETS[side]
        self.nodes = nodes
        self.hopeless: set[tuple[tuple[int, ...], int]] = set()

    def first_move(self, mine: list[int], empty: int, left: int) -> Move | None:
        """The first move of a filling within ``left`` moves (``empty`` target points now empty), or
        None when there is none."""
        if empty == 0:
            raise AssertionError("a filled target needs no move")
        key = (tuple(mine), left)
        if key in self.hopeless:
            return None
        self.nodes -= 1
        if self.nodes < 0:
            raise _OutOfNodes
        cells, side, target = self.cells, self.side, self.target
        landing: list[tuple[int, int, int]] = []  # moves that land a piece in the target
        other: list[tuple[int, int, int]] = []
        for p in mine:
            inside = p in target
            for to in sorted(reach(cells, p)):
                after = empty - (to in target and not inside) + (inside and to not in target)
                if after <= left - 1:
                    (landing if after < empty else other).append((p, to, after))
        for p, to, after in landing + other:
            if after == 0:
                return p, to
            cells[to], cells[p] = side, EMPTY
            try:
                found = self.first_move(sorted(to if q == p else q for q in mine), after, left - 1)
            finally:
                cells[p], cells[to] = side, EMPTY
            if found is not None:
                return p, to
        self.hopeless.add(key)
        return None


def finishing_move(pieces: Pieces, side: int, holes: int, spare: int, nodes: int) -> Move | None:
    """The first move of a shortest filling of ``side``'s target (at most ``spare`` moves more than its
    empty points), or None: more than ``holes`` points empty, an opposing piece in the target, no
    filling that short, or more than ``nodes`` positions to look at."""
    cells, target = pieces.cells, TARGETS[side]
    if any(cells[t] != side and cells[t] != EMPTY for t in target):
        return None
    empty = sum(1 for t in target if cells[t] == EMPTY)
    if not 0 < empty <= holes:
        return None
    search = _Search(pieces, side, nodes)
    mine = pieces.of(side)
    try:
        for left in range(empty, empty + spare + 1):
            found = search.first_move(mine, empty, left)
            if found is not None:
                return found
    except _OutOfNodes:
        pass
    return None

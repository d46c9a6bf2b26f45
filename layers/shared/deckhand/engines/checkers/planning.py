"""The bot's plan for the rest of its race: a beam search over its own moves for a short filling.

The two-move look-ahead is myopic late in the race: pieces arrive one by one with single steps. Once no
opposing piece stands in the target (so a filling exists), the bot plans its own moves to the end,
the opponent's pieces standing still (they still serve as ladders; the plan is made again every move,
so a piece that moves away only changes the next plan). Level by level, every move of each kept
arrangement of its pieces is tried, arrangements reached twice are kept once, and the ``width`` with
the least cost go on to the next level; the first arrangement that fills the target ends the search.
With a width at least the number of arrangements a level holds this is breadth first, so the plan is
a shortest one; narrower, it is a short one found in at most ``width`` times its length expansions,
always the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .pieces import EMPTY, Pieces, reach
from .star import TARGETS

Move = tuple[int, int]


class _Node(NamedTuple):
    cost: int
    mine: frozenset[int]
    parent: _Node | None
    move: Move | None


def _moves(node: _Node) -> tuple[Move, ...]:
    found: list[Move] = []
    while node.parent is not None and node.move is not None:
        found.append(node.move)
        node = node.parent
    return tuple(reversed(found))


def plan(
    pieces: Pieces,
    side: int,
    cost: Sequence[int],
    width: int,
    depth: int,
    before: frozenset[frozenset[int]] = frozenset(),
) -> tuple[Move, ...] | None:
    """A short sequence of ``side``'s moves that fills its target, the other side standing still
    (``cost[point]``: what a piece there costs; the cheapest arrangements are kept), or None: an
    opposing piece in the target, the target already filled, or no filling within ``depth`` moves.
    A first move that brings back an arrangement in ``before`` is not tried."""
    cells, target = pieces.cells, TARGETS[side]
    if any(cells[t] != side and cells[t] != EMPTY for t in target) or pieces.filled(side):
        return None
    start = pieces.of(side)
    for p in start:
        cells[p] = EMPTY  # each arrangement puts its own pieces down while it is expanded
    try:
        level = [_Node(sum(cost[p] for p in start), frozenset(start), None, None)]
        for n in range(depth):
            children: dict[frozenset[int], _Node] = {}
            for node in level:
                for p in node.mine:
                    cells[p] = side
                try:
                    for p in sorted(node.mine):
                        for to in sorted(reach(cells, p)):
                            after = node.mine - {p} | {to}
                            if n == 0 and after in before:
                                continue
                            child = _Node(node.cost - cost[p] + cost[to], after, node, (p, to))
                            if after == target:
                                return _moves(child)
                            children.setdefault(after, child)
                finally:
                    for p in node.mine:
                        cells[p] = EMPTY
            level = sorted(children.values(), key=lambda c: c.cost)[:width]
            if not level:
                return None
        return None
    finally:
        for p in start:
            cells[p] = side

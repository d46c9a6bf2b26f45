"""Brute force for the checkers bot's searches: the fewest own moves that fill a side's target (every
arrangement of its pieces, breadth first), and seeded endgames to ask it about."""

from __future__ import annotations

import random

from deckhand.engines.checkers.pieces import Pieces, reach
from deckhand.engines.checkers.star import BLUE, POINTS, RED, TARGETS, distance, region

HEXAGON = [p for p in POINTS if region(p) == "hexagon"]


def fewest_moves(pieces: Pieces, side: int, most: int) -> int | None:
    """The fewest own moves that fill ``side``'s target (the other side standing still), breadth first
    over every arrangement of its pieces; None when more than ``most`` are needed."""
    target = TARGETS[side]
    other = [p for p in POINTS if pieces.cells[p] == 1 - side]
    level = {frozenset(pieces.of(side))}
    for n in range(1, most + 1):
        later: set[frozenset[int]] = set()
        for mine in level:
            board = Pieces(mine, other) if side == RED else Pieces(other, mine)
            for p in mine:
                for to in reach(board.cells, p):
                    after = mine - {p} | {to}
                    if after == target:
                        return n
                    later.add(after)
        level = later
    return None


def endgame(seed: int, side: int, holes: tuple[int, ...] = (1, 2)) -> Pieces:
    """``side`` with some target points empty (as many as one of ``holes``), those pieces in the
    hexagon within four steps of the target; the other side's ten pieces elsewhere in the hexagon."""
    rng = random.Random(seed)
    target = sorted(TARGETS[side])
    empty = rng.sample(target, rng.choice(holes))
    near = [p for p in HEXAGON if min(distance(p, t) for t in target) <= 4]
    mine = [t for t in target if t not in empty] + rng.sample(near, len(empty))
    other = rng.sample([p for p in HEXAGON if p not in mine], 10)
    return Pieces(mine, other) if side == RED else Pieces(other, mine)


def blocked_endgame() -> Pieces:
    """A Blue endgame with a Red piece standing in Blue's target: Blue cannot fill yet."""
    blocked = endgame(3, BLUE)
    intruder = next(p for p in TARGETS[BLUE] if blocked.cells[p] == BLUE)
    away = next(p for p in HEXAGON if blocked.cells[p] not in (RED, BLUE))
    blocked.move(intruder, away)
    red_piece = next(p for p in HEXAGON if blocked.cells[p] == RED)
    blocked.move(red_piece, intruder)
    return blocked

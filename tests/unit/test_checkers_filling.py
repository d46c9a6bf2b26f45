"""The checkers bot's endgame search (engines/checkers/filling.py) against brute force: on seeded
positions with a few target points empty, its move starts a shortest filling (every sequence of own
moves tried, the opponent still), and it declines what it must not search."""

from __future__ import annotations

import random

from deckhand.engines.checkers.filling import finishing_move
from deckhand.engines.checkers.pieces import Pieces, reach
from deckhand.engines.checkers.star import BLUE, HOMES, POINTS, RED, TARGETS, distance, parse_point, region

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


def endgame(seed: int, side: int) -> Pieces:
    """``side`` with one or two target points empty, those pieces in the hexagon within four steps of
    the target; the other side's ten pieces elsewhere in the hexagon."""
    rng = random.Random(seed)
    target = sorted(TARGETS[side])
    empty = rng.sample(target, rng.choice((1, 2)))
    near = [p for p in HEXAGON if min(distance(p, t) for t in target) <= 4]
    mine = [t for t in target if t not in empty] + rng.sample(near, len(empty))
    other = rng.sample([p for p in HEXAGON if p not in mine], 10)
    return Pieces(mine, other) if side == RED else Pieces(other, mine)


def test_the_endgame_move_starts_a_shortest_filling_as_brute_force_finds_it() -> None:
    checked = 0
    for seed in range(24):
        side = seed % 2
        pieces = endgame(seed, side)
        before = pieces.key()
        shortest = fewest_moves(pieces, side, 3)
        empty = sum(1 for t in TARGETS[side] if pieces.cells[t] != side)
        found = finishing_move(pieces, side, holes=2, spare=1, nodes=100_000)
        assert pieces.key() == before  # the search leaves the board as it found it
        if shortest is None or shortest > empty + 1:
            assert found is None
            continue
        assert found is not None
        pieces.move(*found)
        assert (0 if pieces.filled(side) else fewest_moves(pieces, side, 3)) == shortest - 1
        checked += 1
    assert checked >= 8


def test_the_endgame_search_declines_a_blocked_target_too_many_holes_and_too_many_positions() -> None:
    blocked = endgame(3, BLUE)
    intruder = next(p for p in TARGETS[BLUE] if blocked.cells[p] == BLUE)
    away = next(p for p in HEXAGON if blocked.cells[p] not in (RED, BLUE))
    blocked.move(intruder, away)
    red_piece = next(p for p in HEXAGON if blocked.cells[p] == RED)
    blocked.move(red_piece, intruder)  # a Red piece stands in Blue's target: Blue cannot fill yet
    assert finishing_move(blocked, BLUE, holes=6, spare=2, nodes=100_000) is None
    assert finishing_move(Pieces.start(), RED, holes=6, spare=2, nodes=100_000) is None
    red = [p for p in TARGETS[RED] if p != parse_point("r14c1")] + [parse_point("r13c5")]
    near = Pieces(red, HOMES[RED])  # one step from filling (Blue still at home)
    assert finishing_move(near, RED, holes=6, spare=2, nodes=100_000) == (
        parse_point("r13c5"),
        parse_point("r14c1"),
    )
    before = near.key()
    assert finishing_move(near, RED, holes=6, spare=2, nodes=0) is None
    assert near.key() == before

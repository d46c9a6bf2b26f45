"""The checkers bot's endgame search (engines/checkers/filling.py) against brute force: on seeded
positions with a few target points empty, its move starts a shortest filling (every sequence of own
moves tried, the opponent still), and it declines what it must not search."""

from __future__ import annotations

from checkers_shortest import blocked_endgame, endgame, fewest_moves
from deckhand.engines.checkers.filling import finishing_move
from deckhand.engines.checkers.pieces import Pieces
from deckhand.engines.checkers.star import BLUE, HOMES, RED, TARGETS, parse_point


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
    blocked = blocked_endgame()
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

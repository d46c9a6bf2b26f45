"""The checkers bot's race plan (engines/checkers/planning.py) against brute force: on seeded endgames
its plan is a sequence of legal own moves that fills the target, as short as a breadth-first search
over every arrangement finds (at the bot's width, and at any width large enough to be breadth first),
and it declines what it must not plan."""

from __future__ import annotations

from checkers_shortest import blocked_endgame, endgame, fewest_moves
from deckhand.engines.checkers.bot import COST, PLAN_WIDTH
from deckhand.engines.checkers.pieces import Pieces, reach
from deckhand.engines.checkers.planning import plan
from deckhand.engines.checkers.star import BLUE, HOMES, RED, TARGETS


def fills(pieces: Pieces, side: int, moves: tuple[tuple[int, int], ...]) -> bool:
    """Every move is a legal move of ``side`` where it is played, and the last one fills the target."""
    board = pieces.copy()
    for start, end in moves:
        if board.cells[start] != side or end not in reach(board.cells, start):
            return False
        board.move(start, end)
    return board.filled(side)


def test_the_plan_fills_the_target_in_the_fewest_moves_brute_force_finds() -> None:
    checked = 0
    for seed in range(10):
        side = seed % 2
        pieces = endgame(seed, side)
        before = pieces.key()
        shortest = fewest_moves(pieces, side, 3)
        for width in (PLAN_WIDTH, 1_000_000):
            found = plan(pieces, side, COST[side], width, 3)
            assert pieces.key() == before  # the search leaves the board as it found it
            if shortest is None:
                assert found is None
                continue
            assert found is not None and len(found) == shortest and fills(pieces, side, found)
            checked += 1
    assert checked >= 10


def test_the_plan_declines_a_blocked_or_filled_target_and_skips_first_moves_already_seen() -> None:
    blocked = blocked_endgame()
    assert plan(blocked, BLUE, COST[BLUE], PLAN_WIDTH, 25) is None
    filled = Pieces(TARGETS[RED], HOMES[RED])
    assert plan(filled, RED, COST[RED], PLAN_WIDTH, 25) is None
    pieces = endgame(3, RED)
    found = plan(pieces, RED, COST[RED], PLAN_WIDTH, 3)
    assert found is not None and len(found) == 3
    assert plan(pieces, RED, COST[RED], PLAN_WIDTH, 2) is None  # too short a horizon
    start, end = found[0]
    seen = frozenset({frozenset(pieces.of(RED)) - {start} | {end}})
    again = plan(pieces, RED, COST[RED], PLAN_WIDTH, 3, seen)
    assert again is not None and again[0] != found[0] and fills(pieces, RED, again)

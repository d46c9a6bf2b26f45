"""The fast forbidden-move checker against a slow one written straight from the RIF definitions.

The reference is ``gomoku_reference.reference``. Thousands of seeded random positions, dense
around the centre so that threes, fours and false threes are common, must get the same verdict.
"""

from __future__ import annotations

import random

from deckhand.engines.gomoku.forbidden import verdict
from deckhand.engines.gomoku.stones import SIZE, Stones, index
from gomoku_reference import FALSE_THREES, Grid, reference
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st


def random_position(rng: random.Random, at_edge: bool = False) -> tuple[Grid, Stones, list[tuple[int, int]]]:
    """Stones dense in a square window, Black a little more numerous, and the window's points. The
    window is centred, or (``at_edge``) against an edge or in a corner of the board."""
    span = rng.choice((5, 7, 9))
    if at_edge:
        col, row = rng.choice((0, SIZE - span)), rng.randint(0, SIZE - span)
        lo_c, lo_r = (col, row) if rng.random() < 0.5 else (row, col)
    else:
        lo_c = lo_r = 7 - span // 2
    spots = [(c, r) for c in range(lo_c, lo_c + span) for r in range(lo_r, lo_r + span)]
    n = rng.randint(span * span // 5, span * span * 3 // 5)
    grid = [["."] * SIZE for _ in range(SIZE)]
    stones = Stones()
    for c, r in rng.sample(spots, n):
        colour = "B" if rng.random() < 0.62 else "W"
        grid[r][c] = colour
        stones.put(index(c, r), ord(colour))
    return grid, stones, spots


def test_the_fast_checker_agrees_with_the_rif_definitions_on_random_positions() -> None:
    rng = random.Random(38)
    seen: dict[str, int] = {}
    checks = 0
    while checks < 5000:
        grid, stones, spots = random_position(rng, at_edge=checks % 3 == 2)  # a third at the edges
        for c, r in spots:
            if grid[r][c] == ".":
                expected = reference(grid, c, r)
                assert verdict(stones, index(c, r)).value == expected, (c, r, grid)
                seen[expected] = seen.get(expected, 0) + 1
                checks += 1
    # The sample exercises every verdict, so a broken rule of any kind shows here.
    assert all(seen.get(v, 0) >= 10 for v in ("legal", "overline", "double-four", "double-three")), seen
    assert FALSE_THREES[0] >= 10  # and the recursive test of a three decides some of them


@settings(max_examples=examples(100), deadline=None)
@given(
    stones=st.dictionaries(
        st.tuples(st.integers(-4, 4), st.integers(-4, 4)),  # offsets from the move: its lines fill up
        st.sampled_from("BBW"),
        min_size=20,
        max_size=60,
    ),
    spot=st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)),
)
def test_the_fast_checker_agrees_with_the_reference_on_drawn_positions(
    stones: dict[tuple[int, int], str], spot: tuple[int, int]
) -> None:
    """The same comparison, on positions hypothesis draws (and shrinks, when they disagree)."""
    grid = [["."] * SIZE for _ in range(SIZE)]
    board = Stones()
    for (dc, dr), colour in stones.items():
        c, r = spot[0] + dc, spot[1] + dr
        if (dc or dr) and 0 <= c < SIZE and 0 <= r < SIZE:
            grid[r][c] = colour
            board.put(index(c, r), ord(colour))
    assert verdict(board, index(*spot)).value == reference(grid, *spot)

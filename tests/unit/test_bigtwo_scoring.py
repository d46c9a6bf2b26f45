"""RULES.md §2 end of board: penalty bands and the zero-sum score formula."""

import pytest
from deckhand.engines.bigtwo.scoring import penalty, scores
from deckhand.errors import DeckhandError


@pytest.mark.parametrize(
    ("left", "pen"),
    [(0, 0), (1, 1), (7, 7), (8, 16), (9, 18), (10, 30), (12, 36), (13, 52)],
)
def test_penalty_bands(left, pen):
    assert penalty(left) == pen


def test_seed_000_appendix_1_example():
    # Nobody shows; A and D double; 5, 8, 0, 12 left → penalties 5, 16, 0, 36.
    assert scores([5, 8, 0, 12], [False] * 4, [True, False, False, True]) == [136, 2, 98, -236]


def test_plain_board_is_sum_of_differences():
    assert scores([0, 1, 2, 3], [False] * 4, [False] * 4) == [6, 2, -2, -6]


def test_show_triples_every_pairing_it_is_part_of():
    plain = scores([0, 4, 4, 4], [False] * 4, [False] * 4)
    shown = scores([0, 4, 4, 4], [True, False, False, False], [False] * 4)
    assert plain == [12, -4, -4, -4]
    assert shown == [36, -12, -12, -12]
    both = scores([0, 4, 4, 4], [True, True, False, False], [True, False, False, False])
    assert both == [6 * 4 + 6 * 4 + 6 * 4 * 3, -4 * 18 + 0, -4 * 6, -4 * 6]
    assert sum(both) == 0


@pytest.mark.parametrize(
    ("left", "shown", "doubled", "message"),
    [
        ([0, 1, 2], [False] * 4, [False] * 4, "cards_left must have 4"),
        ([0, 1, 2, 3], [False] * 3, [False] * 4, "shown must have 4"),
        ([1, 1, 2, 3], [False] * 4, [False] * 4, "exactly one player"),
        ([0, 0, 2, 3], [False] * 4, [False] * 4, "exactly one player"),
        ([0, 14, 2, 3], [False] * 4, [False] * 4, "0..13"),
    ],
)
def test_bad_input(left, shown, doubled, message):
    with pytest.raises(DeckhandError, match=message):
        scores(left, shown, doubled)

"""RULES.md §1.4: Swiss movement."""

import pytest
from deckhand.competition.swiss import first_round, next_round
from deckhand.errors import DeckhandError
from hypothesis import given
from hypothesis import strategies as st


def seats(tables):
    return [(t.group, t.table, t.seats) for t in tables]


def test_seed_001_snake_table_for_three_seats():
    field = [str(i) for i in range(1, 13)]
    assert [t.seats for t in next_round(field, 3, 1)] == [
        ("1", "2", "3"),
        ("6", "5", "4"),
        ("7", "8", "9"),
        ("12", "11", "10"),
    ]


def test_groups_take_places_in_blocks_of_k_n_with_snake_inside_each():
    field = [f"P{i}" for i in range(1, 17)]
    assert seats(next_round(field, 4, 2)) == [
        (1, 1, ("P1", "P2", "P3", "P4")),
        (1, 2, ("P8", "P7", "P6", "P5")),
        (2, 1, ("P9", "P10", "P11", "P12")),
        (2, 2, ("P16", "P15", "P14", "P13")),
    ]


def test_ai_fill_spread_over_the_lowest_tables_in_the_lowest_places_seats():
    field = [f"P{i}" for i in range(1, 11)]  # 10 players, k = 4: 3 tables, 2 AI seats
    assert seats(next_round(field, 4, 1)) == [
        (1, 1, ("P1", "P2", "P3", "P4")),
        (1, 2, (None, "P7", "P6", "P5")),
        (1, 3, ("P8", "P9", "P10", None)),
    ]


def test_first_round_is_random_reproducible_and_recorded_by_seed():
    players = [f"P{i}" for i in range(1, 25)]
    a = first_round(players, 4, 2, "event-7/round-1")
    assert a == first_round(players, 4, 2, "event-7/round-1")
    assert a != first_round(players, 4, 2, "event-7/round-1b")
    assert [t.seats for t in a] != [t.seats for t in next_round(players, 4, 2)]
    assert sorted(p for t in a for p in t.seats) == sorted(players)


@pytest.mark.parametrize(
    ("field", "k", "groups", "message"),
    [
        (["P1", "P2", "P1"], 3, 1, "'P1' appears twice"),
        ([], 4, 1, "no players"),
        (["P1", ""], 3, 1, "non-empty strings"),
        (["P1", "P2", "P3"], 5, 1, "3 or 4"),
        (["P1", "P2", "P3", "P4"], 4, 2, "too few for 2 groups"),
        (["P1", "P2", "P3", "P4"], 4, 0, "groups must be"),
    ],
)
def test_bad_fields_are_errors(field, k, groups, message):
    with pytest.raises(DeckhandError, match=message):
        next_round(field, k, groups)


@given(n=st.integers(1, 120), k=st.sampled_from([3, 4]), groups=st.integers(1, 6), seed=st.text(max_size=8))
def test_seating_is_a_permutation_of_the_field_plus_ai_fill(n, k, groups, seed):
    players = [f"P{i}" for i in range(n)]
    tables_needed = -(-n // k)
    if tables_needed < groups:
        return
    for tables in (next_round(players, k, groups), first_round(players, k, groups, seed)):
        seated = [p for t in tables for p in t.seats]
        humans = [p for p in seated if p is not None]
        assert sorted(humans) == sorted(players)
        assert len(tables) == tables_needed and all(len(t.seats) == k for t in tables)
        assert seated.count(None) == tables_needed * k - n < k
        pad = tables_needed * k - n
        assert all(t.seats.count(None) <= -(-pad // tables_needed) for t in tables)
        assert all(t.seats.count(None) < k for t in tables)
        assert {t.group for t in tables} == set(range(1, groups + 1))
        sizes = [sum(1 for t in tables if t.group == g) for g in range(1, groups + 1)]
        assert max(sizes) - min(sizes) <= 1


def test_more_ai_seats_than_tables():
    assert seats(next_round(["P1", "P2", "P3", "P4", "P5"], 4, 1)) == [
        (1, 1, ("P1", "P2", "P3", None)),
        (1, 2, (None, None, "P5", "P4")),
    ]

"""The crash soak's comparison of two runs of one duplicate event, table by table."""

from __future__ import annotations

from typing import Any

from deckhand_local.venue.crash_report import compare


def run(round2: list[tuple[str, str, int]], scores1: tuple[int, int] = (5, -5)) -> dict[str, Any]:
    """Two players a table; round 1 seated from the seed as always, round 2 as given:
    (table, player of seat 0, score of seat 0) — seat 1 takes the rest."""
    rest = {"T1": "b", "T2": "d"}
    scores = [
        (1, "1", 1, "T1", 0, "a", scores1[0]),
        (1, "1", 1, "T1", 1, "b", scores1[1]),
        (1, "1", 1, "T2", 0, "c", 3),
        (1, "1", 1, "T2", 1, "d", -3),
    ]
    for table, player, score in round2:
        scores += [(2, "1", 1, table, 0, player, score), (2, "1", 1, table, 1, rest[table], -score)]
    totals = [("a", 1), ("b", 2), ("c", 3), ("d", 4)]
    return {"scores": sorted(scores), "totals": totals}


def test_the_same_runs_are_equal():
    a = run([("T1", "a", 2), ("T2", "c", 1)])
    result = compare(a, a)
    assert result.equal and result.reseated == {}


def test_a_score_that_differs_at_a_table_seated_alike_is_a_difference():
    result = compare(run([("T1", "a", 2), ("T2", "c", 1)]), run([("T1", "a", 2), ("T2", "c", 0)]))
    assert result.differ == 1 and not result.equal


def test_a_later_round_seated_otherwise_after_equal_rounds_is_counted_apart():
    result = compare(run([("T1", "a", 2), ("T2", "c", 1)]), run([("T1", "c", 2), ("T2", "a", 1)]))
    assert result.equal and result.reseated == {2: (2, 2)}


def test_a_table_seated_otherwise_still_scores_as_its_cards_say():
    """The bots play from their cards alone: whoever sits there, a seat's score is the same."""
    result = compare(run([("T1", "a", 2), ("T2", "c", 1)]), run([("T1", "c", 7), ("T2", "a", 1)]))
    assert result.differ == 1 and result.reseated == {2: (2, 2)}


def test_a_later_round_seated_otherwise_after_a_difference_is_a_difference():
    a = run([("T1", "a", 2), ("T2", "c", 1)])
    b = run([("T1", "c", 2), ("T2", "a", 1)], scores1=(4, -4))
    result = compare(a, b)
    assert result.differ == 1 + 2 and result.reseated == {}


def test_round_one_seated_otherwise_is_a_difference():
    a = run([])
    b = {
        **a,
        "scores": [(r, g, n, t, s, {"a": "c", "c": "a"}.get(p, p), x) for r, g, n, t, s, p, x in a["scores"]],
    }
    assert compare(a, b).differ == 2


def test_a_match_event_is_compared_whole():
    a = {"scores": [(1, "T1", 1, ("a", "b"), "{}")], "totals": [("A", 2, 1)]}
    b = {"scores": [(1, "T1", 1, ("b", "a"), "{}")], "totals": [("A", 2, 1)]}
    assert compare(a, b).differ == 2

"""RULES.md §1.1–1.3: matchpoints, board places, rank points, totals and tie-breaks."""

import json
from pathlib import Path

import pytest
from deckhand.competition.documents import parse_results, standings_document
from deckhand.competition.matchpoints import matchpoints, mp_percent, places, rank_points, rank_points_cents
from deckhand.competition.standings import BoardResults, Result, standings
from deckhand.errors import DeckhandError
from hypothesis import given
from hypothesis import strategies as st

DATA = Path(__file__).resolve().parents[1] / "data"


def test_matchpoints_formula():
    # 2 per worse result, 1 per other equal result, 0 per better one.
    assert matchpoints([24, -12, -12]) == [4, 1, 1]
    assert matchpoints([15, 7, 21]) == [2, 0, 4]
    assert matchpoints([5, 5, 5, 5]) == [3, 3, 3, 3]
    assert matchpoints([7]) == [0]


def test_mp_percent_and_single_result():
    assert mp_percent(3, 3) == 75.0
    assert mp_percent(1, 4) == 16.67
    assert mp_percent(0, 1) == 100.0


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=40))
def test_matchpoints_sum_to_n_times_n_minus_one(scores):
    n = len(scores)
    mps = matchpoints(scores)
    assert sum(mps) == n * (n - 1)
    assert all(0 <= mp <= 2 * (n - 1) for mp in mps)


def test_competition_and_dense_ranking():
    assert places([75, 75, 0]) == [1, 1, 3]
    assert places([75, 75, 0], "dense") == [1, 1, 2]
    assert places([1, 2, 2, 3]) == [4, 2, 2, 1]
    with pytest.raises(ValueError):
        places([1], "olympic")


@given(st.lists(st.integers(0, 10), min_size=1, max_size=30))
def test_places_are_a_valid_ranking(values):
    ps = places(values)
    for v, p in zip(values, ps, strict=True):
        assert p == 1 + sum(1 for w in values if w > v)
    dense = places(values, "dense")
    assert sorted(set(dense)) == list(range(1, len(set(values)) + 1))


def test_rank_points():
    assert [rank_points(x) for x in range(1, 9)] == [10000, 7000, 5000, 3500, 2500, 1750, 1250, 875]
    assert rank_points(15) == 78.13  # 78.125 rounds half up
    assert rank_points(16) == 54.69  # 54.6875
    assert rank_points_cents(30) == round(7000 * 0.5**14 * 100)
    with pytest.raises(ValueError):
        rank_points(0)


def doc_from_table(ruleset, rows_by_board):
    return {
        "ruleset": ruleset,
        "boards": [
            {
                "board": str(b),
                "round": 1,
                "group": "1",
                "results": [
                    {"player": p, "table": str(i + 1), "seat": 0, "score": s, "play_time": t}
                    for i, (p, s, t) in enumerate(rows)
                ],
            }
            for b, rows in rows_by_board.items()
        ],
    }


def run(doc, ranking="competition"):
    ruleset, boards = parse_results(doc)
    return standings_document(*standings(boards, ruleset, ranking))


def test_seed_001_appendix_2_tie_broken_by_play_time():
    doc = doc_from_table(
        "doudizhu-2016",
        {
            1: [("P1", 24, 60), ("P2", -12, 80), ("P3", -12, 78)],
            2: [("P1", 24, 60), ("P2", -12, 72), ("P3", -12, 78)],
            3: [("P1", 24, 60), ("P2", -12, 68), ("P3", -12, 78)],
        },
    )
    out = run(doc)
    board1 = out["boards"][0]["results"]
    assert [(r["player"], r["mp"], r["mp_pct"], r["place"], r["rank_points"]) for r in board1] == [
        ("P1", 4, 100.0, 1, 10000.0),
        ("P2", 1, 25.0, 2, 7000.0),
        ("P3", 1, 25.0, 2, 7000.0),
    ]
    # P2 (220 s) and P3 (234 s) tie on 21000: P3 is placed below P2 by total play time.
    assert out["standings"] == [
        {"player": "P1", "place": 1, "total": 30000.0, "tie_break": None},
        {"player": "P2", "place": 2, "total": 21000.0, "tie_break": None},
        {"player": "P3", "place": 3, "total": 21000.0, "tie_break": "play_time"},
    ]


SEED_000 = {
    1: [("P1", 15, 135), ("P2", 7, 146), ("P3", 21, 151)],
    2: [("P1", 11, 122), ("P2", 11, 137), ("P3", -3, 144)],
    3: [("P1", 18, 163), ("P2", 51, 156), ("P3", 18, 144)],
}


def test_seed_000_appendix_2_with_our_1_1_3_ranking():
    out = run(doc_from_table("bigtwo-2017", SEED_000))
    mps = [[(r["player"], r["mp"], r["mp_pct"], r["place"]) for r in b["results"]] for b in out["boards"]]
    assert mps == [
        [("P3", 4, 100.0, 1), ("P1", 2, 50.0, 2), ("P2", 0, 0.0, 3)],
        [
            ("P1", 3, 75.0, 1),
            ("P2", 3, 75.0, 1),
            ("P3", 0, 0.0, 3),
        ],  # the seed shows 1,1,2; the text says 1,1,3
        [("P2", 4, 100.0, 1), ("P1", 1, 25.0, 2), ("P3", 1, 25.0, 2)],
    ]
    assert [(s["player"], s["place"], s["total"]) for s in out["standings"]] == [
        ("P2", 1, 25000.0),
        ("P1", 2, 24000.0),
        ("P3", 3, 22000.0),
    ]


def test_seed_000_with_dense_ranking_option():
    out = run(doc_from_table("bigtwo-2017", SEED_000), "dense")
    assert out["boards"][1]["results"][2] == {
        "player": "P3",
        "mp": 0,
        "mp_pct": 0.0,
        "place": 2,
        "rank_points": 7000.0,
    }
    # P1 and P3 both reach 24000; nobody shares a table, one round: decided by play time (420 s < 439 s).
    assert [(s["player"], s["total"], s["tie_break"]) for s in out["standings"]] == [
        ("P2", 25000.0, None),
        ("P1", 24000.0, None),
        ("P3", 24000.0, "play_time"),
    ]


def test_big_two_beaten_opponents_by_table_score():
    # Two tables, one board; seat s at table 1 is compared with seat s at table 2.
    rows = {"A0": 30, "A1": 10, "A2": -15, "A3": -25, "B0": 20, "B1": 5, "B2": -5, "B3": -20}
    doc = {
        "ruleset": "bigtwo-2017",
        "boards": [
            {
                "board": "1",
                "round": 1,
                "group": "1",
                "results": [
                    {"player": p, "table": p[0], "seat": int(p[1]), "score": s, "play_time": 10}
                    for p, s in rows.items()
                ],
            }
        ],
    }
    out = run(doc)["standings"]
    # 10000 each for A0, A1, B2, B3. Beaten at their tables: B2 → {B3: 10000}; A0 → {A1, A2, A3}: 8000;
    # A1 → {A2, A3}: 7000; B3 → nobody: 0.
    assert [(s["player"], s["total"], s["tie_break"]) for s in out[:4]] == [
        ("B2", 10000.0, None),
        ("A0", 10000.0, "beaten_opponents"),
        ("A1", 10000.0, "beaten_opponents"),
        ("B3", 10000.0, "beaten_opponents"),
    ]


def test_dou_dizhu_board_places_step():
    # P: places 1 (alone), 4, 4 = 17000; Q: places 2, 3, 3 = 17000. Same time, nobody beaten by either.
    def board(n, rows):
        return {
            "board": str(n),
            "round": 1,
            "group": "1",
            "results": [
                {"player": p, "table": f"{n}-{i}", "seat": 0, "score": s, "play_time": 30}
                for i, (p, s) in enumerate(rows)
            ],
        }

    doc = {
        "ruleset": "doudizhu-2016",
        "boards": [
            board(1, [("P", 0)]),
            board(2, [("X1", 10), ("Q", 0)]),
            board(3, [("X2", 10), ("X3", 5), ("Q", 0)]),
            board(4, [("X4", 10), ("X5", 5), ("Q", 0)]),
            board(5, [("Y1", 10), ("Y2", 5), ("Y3", 3), ("P", 0)]),
            board(6, [("Y4", 10), ("Y5", 5), ("Y6", 3), ("P", 0)]),
        ],
    }
    out = {s["player"]: s for s in run(doc)["standings"]}
    assert out["P"]["total"] == out["Q"]["total"] == 17000.0
    assert out["Q"]["place"] == out["P"]["place"] + 1 and out["Q"]["tie_break"] == "board_places"


def test_unresolved_ties_share_a_place():
    doc = doc_from_table("doudizhu-2016", {1: [("P1", 5, 30), ("P2", 5, 30), ("P3", 0, 40)]})
    assert run(doc)["standings"] == [
        {"player": "P1", "place": 1, "total": 10000.0, "tie_break": None},
        {"player": "P2", "place": 1, "total": 10000.0, "tie_break": "unresolved"},
        {"player": "P3", "place": 3, "total": 5000.0, "tie_break": None},
    ]


def _totals_and_times(doc):
    ruleset, boards = parse_results(doc)
    times = {}
    for b in boards:
        for r in b.results:
            times.setdefault(r.player, []).append(r.play_time)
    return times


@pytest.mark.parametrize("path", sorted(DATA.glob("tiebreak-*.json")), ids=lambda p: p.stem)
def test_every_tie_break_step_is_reached(path):
    """Constructed fields (found by search, then frozen) where each step decides a tie."""
    ruleset, step = path.stem.removeprefix("tiebreak-").rsplit("-", 1)
    doc = json.loads(path.read_text())
    assert doc["ruleset"] == ruleset
    table = run(doc)["standings"]
    times = _totals_and_times(doc)
    decided = [(above, s) for above, s in zip(table, table[1:], strict=False) if s["tie_break"] == step]
    assert decided, f"no tie decided by {step}"
    for above, s in decided:
        assert above["total"] == s["total"]
        if step == "play_time":
            assert sum(times[above["player"]]) < sum(times[s["player"]])
        if step == "unresolved":
            assert above["place"] == s["place"]
        else:
            assert s["place"] == table.index(s) + 1


def test_ai_results_are_never_compared_or_ranked():
    doc = doc_from_table("bigtwo-2017", {1: [("P1", 5, 30), ("BOT", 50, 30), ("P2", 0, 30)]})
    doc["boards"][0]["results"][1]["ai"] = True
    out = run(doc)
    assert [r["player"] for r in out["boards"][0]["results"]] == ["P1", "P2"]
    assert [s["player"] for s in out["standings"]] == ["P1", "P2"]


def test_a_player_twice_on_one_board_is_an_error():
    doc = doc_from_table("bigtwo-2017", {1: [("P1", 5, 30), ("P1", 0, 30)]})
    with pytest.raises(DeckhandError, match="two results for board"):
        run(doc)


def test_unknown_ruleset():
    with pytest.raises(DeckhandError, match="unknown rule set"):
        standings([BoardResults("1", 1, "1", (Result("P", "1", 0, 1),))], "chess")


@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(-20, 20)), min_size=1, max_size=40),
    st.sampled_from(["competition", "dense"]),
)
def test_board_comparison_agrees_with_the_reference_formulas(entries, ranking):
    """The one-pass comparison equals MP = 2·worse + equal − 1 and the ranking of MP%, seat by seat."""
    from deckhand.competition.standings import compare_boards

    results = tuple(Result(f"P{i}", str(i), seat, score) for i, (seat, score) in enumerate(entries))
    comparisons = compare_boards([BoardResults("1", 1, "1", results)], ranking)
    assert [c.seat for c in comparisons] == sorted({seat for seat, _ in entries})
    for c in comparisons:
        mine = [r for r in results if r.seat == c.seat]
        mps = matchpoints([r.score for r in mine])
        pcts = [mp_percent(mp, len(mine)) for mp in mps]
        expected_places = places(pcts, ranking)
        got = {o.player: o for o in c.outcomes}
        assert len(got) == len(mine)
        for r, mp, pct, place in zip(mine, mps, pcts, expected_places, strict=True):
            assert (got[r.player].mp, got[r.player].mp_pct, got[r.player].place) == (mp, pct, place)
            assert got[r.player].rank_points_cents == rank_points_cents(place)
        assert [o.place for o in c.outcomes] == sorted(o.place for o in c.outcomes)

"""Artificial adjusted scores (docs/competition.md): the table is out of the board's comparison, the
others are Neuberg-scaled to the full top, and the table's seats get 60 / 50 / 40 % or their own
mean MP% of the round."""

from fractions import Fraction

import pytest
from deckhand.competition.artificial import Artificial, neuberg, place_among
from deckhand.competition.documents import DocumentError, parse_results, results_document
from deckhand.competition.standings import BoardResults, Result, compare_boards, standings


def board(name, scores, kinds=None, seat=0):
    kinds = kinds or {}
    return BoardResults(
        name,
        1,
        "1",
        tuple(Result(p, f"T{p}", seat, s, artificial=kinds.get(p)) for p, s in scores.items()),
    )


def outcomes(comparison):
    return {o.player: o for o in comparison.outcomes}


def test_the_other_tables_are_scaled_by_neuberg_and_the_artificial_seat_placed_among_them():
    plain = outcomes(compare_boards([board("1", {"A": 10, "B": 5, "C": 0})])[0])
    assert [plain[p].mp for p in "ABC"] == [4, 2, 0]
    scored = outcomes(
        compare_boards([board("1", {"A": 10, "B": 5, "C": 0, "D": 99}, {"D": Artificial.AVERAGE_PLUS})])[0]
    )
    # (MP + 1) · N / n − 1 with n = 3 compared, N = 4 tables: 17/3, 3, 1/3 of a top of 6.
    for p, mp in zip("ABC", (4, 2, 0), strict=True):
        exact = neuberg(mp, 3, 4)
        assert exact == Fraction((mp + 1) * 4, 3) - 1
        assert scored[p].mp == round(float(exact), 2)
        assert scored[p].mp_pct == round(float(exact) * 100 / 6, 2)
    assert [scored[p].mp_pct for p in "ABC"] == [94.44, 50.0, 5.56]
    assert [scored[p].place for p in "ABC"] == [plain[p].place for p in "ABC"], "others' places unmoved"
    d = scored["D"]
    assert (d.mp, d.mp_pct, d.place, d.rank_points_cents, d.artificial) == (
        3.6,
        60.0,
        2,
        700000,
        "average_plus",
    )
    assert scored["A"].artificial is None


@pytest.mark.parametrize(
    ("kind", "pct", "place"),
    [(Artificial.AVERAGE_PLUS, 60.0, 2), (Artificial.AVERAGE, 50.0, 2), (Artificial.AVERAGE_MINUS, 40.0, 3)],
)
def test_each_kind_is_its_share_of_the_top(kind, pct, place):
    scored = outcomes(compare_boards([board("1", {"A": 10, "B": 5, "C": 0, "D": 0}, {"D": kind})])[0])
    assert scored["D"].mp_pct == pct and scored["D"].mp == round(pct * 6 / 100, 2)
    assert scored["D"].place == place


def test_averaged_is_the_seats_own_mean_of_its_other_boards_of_the_round():
    boards = [
        board("1", {"A": 10, "B": 5, "C": 0, "D": 0}, {"D": Artificial.AVERAGED}),
        board("2", {"D": 10, "E": 5, "F": 0}),  # D 100 %
        board("3", {"D": 0, "E": 5, "F": 10, "G": 5}),  # D 0 %
    ]
    first = outcomes(compare_boards(boards)[0])
    assert first["D"].mp_pct == 50.0 and first["D"].artificial == "averaged"
    lone = outcomes(compare_boards(boards[:1])[0])
    assert lone["D"].mp_pct == 50.0, "no other board: average"
    boards[2] = board("3", {"D": 10, "E": 5, "F": 0, "G": 0})
    assert outcomes(compare_boards(boards)[0])["D"].mp_pct == 100.0


def test_two_artificial_tables_and_a_board_nobody_played():
    two = outcomes(
        compare_boards(
            [
                board(
                    "1",
                    {"A": 1, "B": 0, "C": 0, "D": 0},
                    {"C": Artificial.AVERAGE, "D": Artificial.AVERAGE_MINUS},
                )
            ]
        )[0]
    )
    assert (two["A"].mp, two["B"].mp) == (
        round(float(neuberg(2, 2, 4)), 2),
        round(float(neuberg(0, 2, 4)), 2),
    )
    none = outcomes(compare_boards([board("1", {"A": 1}, {"A": Artificial.AVERAGE_MINUS})])[0])
    assert (none["A"].mp_pct, none["A"].place) == (40.0, 1)


def test_dense_places_and_ties_with_the_compared_shares():
    assert place_among(Fraction(50), [Fraction(90), Fraction(90), Fraction(50)], dense=False) == 3
    assert place_among(Fraction(50), [Fraction(90), Fraction(90), Fraction(50)], dense=True) == 2


def test_standings_count_the_artificial_rank_points():
    boards = [board("1", {"A": 10, "B": 5, "C": 0, "D": 0}, {"D": Artificial.AVERAGE_PLUS})]
    _, table = standings(boards, "bigtwo-2017")
    assert {s.player: s.total_cents for s in table} == {"A": 1000000, "B": 700000, "C": 500000, "D": 700000}


def test_the_results_document_keeps_the_kind_and_refuses_an_unknown_one():
    boards = [board("1", {"A": 10, "B": 5, "D": 0}, {"D": Artificial.AVERAGE_MINUS})]
    doc = results_document("bigtwo-2017", boards)
    assert [r.get("artificial") for r in doc["boards"][0]["results"]] == [None, None, "average_minus"]
    assert parse_results(doc) == ("bigtwo-2017", boards)
    doc["boards"][0]["results"][2]["artificial"] = "average_plenty"
    with pytest.raises(DocumentError, match=r"boards\[0\]\.results\[2\]\.artificial: unknown"):
        parse_results(doc)

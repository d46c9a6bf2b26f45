"""Black's forbidden moves by the RIF definitions (RULES.md §6.2), case by case, and the referee's
calculator (``forbidden`` and ``result``). Each case names the move H8 unless it says otherwise."""

from __future__ import annotations

import pytest
from deckhand.engines.gomoku.forbidden import verdict
from deckhand.engines.gomoku.referee import GomokuReferee
from deckhand.engines.gomoku.stones import Stones, parse_point
from deckhand.errors import DeckhandError
from gomoku_positions import FULL_DRAW, position
from gomoku_reference import reference


def judge(black: list[str], white: list[str] | tuple[()] = (), at: str = "H8") -> str:
    return verdict(position(black, white), parse_point(at)).value


CASES = [
    # (black, white, verdict, what it shows)
    (["G8", "I8", "H7", "H9"], [], "double-three", "two open threes crossing"),
    (["F8", "I8", "H7", "H9"], [], "double-three", "a split three (B.BB) is a three"),
    (["G8", "I8", "H7", "H9"], ["F8"], "legal", "a three closed at one end is no three"),
    (["G8", "I8", "G9", "I7"], ["F8", "J8"], "legal", "one three only: the other line is blocked both ends"),
    # The horizontal three's straight-four points would be overlines: not a real three.
    (["C8", "F8", "G8", "K8", "H7", "H9"], [], "legal", "false three: both fours would make six"),
    # The diagonal H8 I9 J10: G7 makes a four closed by White's F6; K11 a four whose far end L12
    # would join M13 in six: neither is a straight four, so the diagonal is no three.
    (["G8", "I8", "I9", "J10", "M13"], ["F6"], "legal", "false three: one end closed, the other an overline"),
    (["G8", "I8", "I9", "J10"], ["F6"], "double-three", "the same with the far end open"),
    (["F8", "G8", "I8", "H6", "H7", "H9"], [], "double-four", "two fours crossing"),
    (["D8", "F8", "G8", "J8"], [], "double-four", "4-4 on one line: B.BBB.B"),
    (["D8", "E8", "G8", "J8", "K8"], [], "double-four", "4-4 on one line: BB.BB.BB"),
    (["E8", "F8", "G8", "I8", "J8"], [], "overline", "six in a row"),
    (["C8", "D8", "E8", "F8", "G8"], [], "overline", "six in a row from the end"),
    (["D8", "E8", "F8", "G8"], [], "legal", "an exact five"),
    (
        ["D8", "F8", "G8", "I8", "H5", "H6", "H7"],
        ["J8"],
        "legal",
        "a four whose five would be six is no four",
    ),
    (["F8", "G8", "I8", "H5", "H6", "H7"], ["J8"], "double-four", "the same without the sixth stone"),
    # A five wins whatever else the stone makes (五与禁手同时形成，判胜).
    (["D8", "E8", "F8", "G8", "H5", "H6", "H7", "H9", "H10"], [], "legal", "five and overline"),
    (["D8", "E8", "F8", "G8", "H6", "H7", "H9", "G9", "I7", "F10"], [], "legal", "five and double-four"),
    (["D8", "E8", "F8", "G8", "H7", "H9", "G9", "I7"], [], "legal", "five and double-three"),
    (["E8", "F8", "G8", "H7", "H9"], [], "legal", "4-3 is Black's winning shape"),
    (["E8", "F8", "G8", "H7", "H9", "G7", "I9"], [], "double-three", "4-3-3"),
    (["E8", "F8", "G8", "H5", "H6", "H7", "G7", "I9"], [], "double-four", "4-4-3"),
    (
        ["D8", "E8", "F8", "G8", "I8", "H5", "H6", "H7", "G7", "F6", "E5"],
        [],
        "overline",
        "overline before double-four",
    ),
]


@pytest.mark.parametrize(("black", "white", "expected", "shows"), CASES, ids=[c[3] for c in CASES])
def test_rif_cases(black: list[str], white: list[str], expected: str, shows: str) -> None:
    assert judge(black, white) == expected


def test_a_three_whose_straight_four_point_is_forbidden_is_no_three() -> None:
    """G8 H8 I8 with White on K8: only F8 makes the straight four (F8–I8). With Black on E9 D10 C11,
    F8 would also make the four C11–F8: a double-four, forbidden, so the row is no real three and H8
    (with the open three H7 H8 H9) is legal; without those stones it is a double-three."""
    threes = ["G8", "I8", "H7", "H9"]
    assert judge(threes, ["K8"]) == "double-three"
    assert judge([*threes, "E9", "D10", "C11"], ["K8"]) == "legal"
    assert judge([*threes, "E9", "D10", "C11", "H8"], ["K8"], at="F8") == "double-four"


def test_the_recursive_test_goes_as_deep_as_it_must() -> None:
    """F10 is a double-three only because a straight-four point of one of its threes is legal, and
    that point is legal only because a point it would need is itself forbidden: stopping the
    recursion one level down calls F10 legal (found by search among random positions; the slow
    reference agrees)."""
    rows = (
        ["." * 15] * 5
        + [
            ".......B.......",
            ".....BB.B......",
            "......B.B......",
            ".....B..B......",
        ]
        + ["." * 15] * 6
    )
    stones = Stones.from_rows(rows)
    assert verdict(stones, parse_point("F10")).value == "double-three"
    grid = [list(row) for row in reversed(rows)]
    assert reference(grid, 5, 9) == "double-three"


def test_white_has_no_forbidden_moves_and_a_white_overline_wins() -> None:
    ref = GomokuReferee().ops()
    rows = position(["E8", "F8", "G8", "I8", "J8"]).rows()
    assert ref["forbidden"]({"board": rows, "move": "H8", "color": "W"}) == {"verdict": "legal"}
    white_six = position(white=["B2", "C2", "D2", "E2", "F2", "G2"], black=["A1"]).rows()
    assert ref["result"]({"board": white_six}) == {"result": "white"}


def test_referee_forbidden_op() -> None:
    forbidden = GomokuReferee().ops()["forbidden"]
    for black, white, expected, _ in CASES:
        rows = position(black, white).rows()
        assert forbidden({"board": rows, "move": "H8", "color": "B"}) == {"verdict": expected}


def test_referee_result_op() -> None:
    result = GomokuReferee().ops()["result"]
    assert result({"board": Stones().rows()}) == {"result": None}
    assert result({"board": position(["D8", "E8", "F8", "G8", "H8"]).rows()}) == {"result": "black"}
    # Black's six is no five: no result.
    assert result({"board": position(["C8", "D8", "E8", "F8", "G8", "H8"]).rows()}) == {"result": None}
    assert result({"board": position(white=["D5", "E6", "F7", "G8", "H9"]).rows()}) == {"result": "white"}
    stones = Stones.from_rows(FULL_DRAW)
    assert stones.full and stones.winner() is None
    assert result({"board": FULL_DRAW}) == {"result": "draw"}


@pytest.mark.parametrize(
    "request_",
    [
        {"board": ["." * 15] * 14, "move": "H8", "color": "B"},
        {"board": ["." * 14 + "X"] + ["." * 15] * 14, "move": "H8", "color": "B"},
        {"board": ["." * 15] * 15, "move": "P8", "color": "B"},
        {"board": ["." * 15] * 15, "move": "H16", "color": "B"},
        {"board": ["." * 15] * 15, "move": "H8", "color": "black"},
        {"board": ["." * 15] * 15, "color": "B"},
        {
            "board": ["." * 7 + "B" + "." * 7 if r == 7 else "." * 15 for r in range(15)],
            "move": "H8",
            "color": "B",
        },
    ],
)
def test_referee_bad_requests_are_errors(request_: dict[str, object]) -> None:
    with pytest.raises(DeckhandError):
        GomokuReferee().ops()["forbidden"](request_)


def test_a_board_with_two_winners_is_an_error() -> None:
    rows = position(["A1", "B1", "C1", "D1", "E1"], ["A3", "B3", "C3", "D3", "E3"]).rows()
    with pytest.raises(DeckhandError):
        GomokuReferee().ops()["result"]({"board": rows})


def test_points_and_rows_read_as_players_write_them() -> None:
    stones = position(["A1"], ["O15"])
    rows = stones.rows()
    assert rows[0] == "." * 14 + "W" and rows[14] == "B" + "." * 14  # row 15 first, columns A–O
    assert Stones.from_rows(rows).rows() == rows
    assert parse_point("h8") == parse_point("H8")

"""Chinese checkers' star and moves (RULES.md §6.4): the coordinate formulas on all 121 points, and
the move generator held against a slow reference written from the rules' text (tests/checkers_reference.py)
over seeded random positions; then the moves one by one: long chains, chains through the side
triangles, the lifted piece, no landing twice, never back on the start, leaving the target, passing."""

from __future__ import annotations

import random
from collections import Counter

import checkers_reference as ref
import pytest
from deckhand.engines.checkers.pieces import Pieces, destinations, path_fault, reach
from deckhand.engines.checkers.referee import CheckersReferee
from deckhand.engines.checkers.star import (
    AXIAL,
    HOMES,
    NAMES,
    POINTS,
    ROW_COL,
    STEPS,
    WIDTHS,
    axial,
    cube,
    index,
    parse_point,
    region,
    row_col,
)
from deckhand.errors import DeckhandError

REFEREE = CheckersReferee()


def pieces(red: list[str], blue: list[str]) -> Pieces:
    return Pieces([parse_point(p) for p in red], [parse_point(p) for p in blue])


def legal(red: list[str], blue: list[str], side: str = "red") -> list[str]:
    moves: list[str] = REFEREE.legal({"op": "legal", "position": {"red": red, "blue": blue}, "side": side})[
        "moves"
    ]
    return moves


def path_ok(red: list[str], blue: list[str], path: list[str], side: str = "red") -> bool:
    request = {"op": "path_ok", "position": {"red": red, "blue": blue}, "side": side, "path": path}
    answer = REFEREE.path_ok(request)
    assert answer["ok"] or answer["reason"]
    return bool(answer["ok"])


# Ten pieces a side, for positions where only a few matter: the rest out of the way on the far tips.
RED_REST = ["r1c1", "r2c1", "r2c2", "r3c1", "r3c2", "r3c3"]
BLUE_REST = ["r17c1", "r16c1", "r16c2", "r15c1", "r15c2", "r15c3"]


def test_the_star_has_121_points_in_rows_of_the_rules_widths() -> None:
    assert len(POINTS) == 121 == sum(WIDTHS)
    assert WIDTHS == (1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1)
    assert Counter(row for row, _ in ROW_COL) == {row: WIDTHS[row - 1] for row in range(1, 18)}
    assert NAMES[0] == "r1c1" and NAMES[-1] == "r17c1" and len(set(NAMES)) == 121


def test_the_coordinate_formulas_hold_on_every_point() -> None:
    examples = {"r1c1": (4, -8), "r9c5": (0, 0), "r17c1": (-4, 8), "r5c1": (-4, -4), "r13c13": (4, 4)}
    for point, qr in examples.items():
        assert AXIAL[parse_point(point)] == qr
    on_board = set()
    for q in range(-12, 13):
        for r in range(-12, 13):
            x, y, z = q, -q - r, r
            if max(x, y, z) <= 4 or min(x, y, z) >= -4:  # §6.4's test for a point on the board
                on_board.add((q, r))
    assert on_board == set(AXIAL)  # the formula's points are exactly the 121 named ones
    for i in POINTS:
        row, col = ROW_COL[i]
        w = WIDTHS[row - 1]
        assert (10 - w - row) % 2 == 0  # the shift is always a whole number
        assert axial(row, col) == AXIAL[i] and row_col(*AXIAL[i]) == (row, col) and index(row, col) == i
        assert sum(cube(i)) == 0
    assert row_col(5, 5) is None and row_col(0, 9) is None  # off the board


def test_the_regions_have_the_rules_sizes() -> None:
    sizes = Counter(region(i) for i in POINTS)
    assert sizes == {
        "hexagon": 61,
        "red_home": 10,
        "blue_home": 10,
        "lower_left": 10,
        "lower_right": 10,
        "upper_left": 10,
        "upper_right": 10,
    }
    assert {NAMES[i] for i in HOMES[0]} == {f"r{r}c{c}" for r in range(1, 5) for c in range(1, r + 1)}
    assert {region(parse_point(p)) for p in ("r13c1", "r13c13", "r5c1", "r5c13")} == {
        "upper_left",
        "upper_right",
        "lower_left",
        "lower_right",
    }


def test_steps_are_the_row_and_column_formula() -> None:
    for i in POINTS:
        assert {NAMES[n] for n in STEPS[i]} == {ref.name(n) for n in ref.neighbours(ROW_COL[i])}
    assert sorted(NAMES[n] for n in STEPS[parse_point("r4c1")]) == ["r3c1", "r4c2", "r5c5", "r5c6"]
    assert len(STEPS[parse_point("r9c5")]) == 6 and len(STEPS[parse_point("r13c1")]) == 2


def random_position(rng: random.Random) -> tuple[list[str], list[str]]:
    """Twenty pieces, mostly in one part of the star (dense, so chains are long) or anywhere."""
    pool = list(NAMES)
    if rng.random() < 0.7:
        centre = rng.choice(POINTS)
        pool = [
            NAMES[i]
            for i in POINTS
            if max(map(abs, (a - b for a, b in zip(cube(i), cube(centre), strict=True)))) <= 5
        ]
        pool = pool if len(pool) >= 20 else list(NAMES)
    spots = rng.sample(pool, 20)
    return spots[:10], spots[10:]


def test_legal_moves_are_the_reference_generators_on_random_positions() -> None:
    rng = random.Random(39)
    longest = 0
    for _ in range(150):
        red, blue = random_position(rng)
        for side in ("red", "blue"):
            expected = ref.moves({parse_rc(p) for p in red}, {parse_rc(p) for p in blue}, side)
            keys = sorted(expected)
            assert legal(red, blue, side) == [f"{ref.name(a)}-{ref.name(b)}" for a, b in keys]
        position = pieces(red, blue)
        for p in position.of(0):
            came = reach(position.cells, p)
            for end in came:  # each way the engine found is a legal path, checked landing by landing
                way = [end]
                while way[-1] != p:
                    way.append(came[way[-1]])
                assert path_fault(position, 0, way[::-1]) is None
                longest = max(longest, len(way) - 1)
    assert longest >= 6  # the positions hold long chains


def parse_rc(point: str) -> tuple[int, int]:
    row, col = point[1:].split("c")
    return int(row), int(col)


def test_legal_is_sorted_numerically() -> None:
    moves = legal(
        ["r9c9", "r10c1", *RED_REST, "r4c1", "r4c4"], ["r12c1", *BLUE_REST, "r14c1", "r14c2", "r14c3"]
    )
    keys = [tuple(int(n) for part in m.split("-") for n in part[1:].split("c")) for m in moves]
    assert keys == sorted(keys) and len(set(moves)) == len(moves)
    assert moves.index("r9c9-r9c8") < moves.index("r10c1-r9c1")  # 9 before 10, not as text


# A long chain: Red's piece on r5c5 jumps over the Blue pieces placed along a zigzag up the hexagon.
LONG_RED = ["r5c5", *RED_REST, "r4c2", "r4c3", "r4c4"]
LONG_BLUE = ["r6c5", "r8c5", "r10c5", "r12c5", *BLUE_REST]
LONG_PATH = ["r5c5", "r7c5", "r9c5", "r11c5", "r13c5"]


def test_a_long_chain_is_one_move_given_landing_by_landing() -> None:
    assert path_ok(LONG_RED, LONG_BLUE, LONG_PATH)
    assert "r5c5-r13c5" in legal(LONG_RED, LONG_BLUE)
    assert path_ok(LONG_RED, LONG_BLUE, LONG_PATH[:3])  # the mover may stop after any jump
    assert not path_ok(LONG_RED, LONG_BLUE, ["r5c5", "r9c5"])  # a landing left out
    assert not path_ok(LONG_RED, LONG_BLUE, [*LONG_PATH, "r14c2"])  # r13c5 to r14c2 is a step: no mixing


def test_chains_run_through_the_side_triangles() -> None:
    # r7c4 jumps into the lower-left triangle (over r7c3 to r7c2), on through it (over r6c2 to r5c2,
    # over r5c3 to r5c4) and out into the hexagon again (over r5c5 to r5c6).
    red = ["r7c4", *RED_REST, "r4c2", "r4c3", "r4c4"]
    blue = ["r7c3", "r6c2", "r5c3", "r5c5", *BLUE_REST]
    way = ["r7c4", "r7c2", "r5c2", "r5c4", "r5c6"]
    assert [region(parse_point(p)) for p in way] == ["hexagon", *["lower_left"] * 3, "hexagon"]
    assert path_ok(red, blue, way)
    here = legal(red, blue)
    assert {"r7c4-r7c2", "r7c4-r5c2", "r7c4-r5c4", "r7c4-r5c6"} <= set(here)  # stopping on the way too
    assert "r7c4-r8c3" in here  # a step
    assert path_ok(red, blue, way[:3])


def test_never_back_on_the_start_and_no_landing_twice() -> None:
    # r9c5 jumps east over r9c6 to r9c7, over r9c8 to r9c9: jumping back would land on r9c7 again,
    # then on the start (which the lifted piece leaves empty).
    red = ["r9c5", *RED_REST, "r4c2", "r4c3", "r4c4"]
    blue = ["r9c6", "r9c8", *BLUE_REST, "r14c1", "r14c2"]
    moves = legal(red, blue)
    assert {"r9c5-r9c7", "r9c5-r9c9"} <= set(moves)
    assert all(m.split("-")[0] != m.split("-")[1] for m in moves)
    assert path_ok(red, blue, ["r9c5", "r9c7", "r9c9"])
    assert not path_ok(red, blue, ["r9c5", "r9c7", "r9c9", "r9c7"])  # r9c7 twice
    assert not path_ok(red, blue, ["r9c5", "r9c7", "r9c5"])  # back on the start
    position = pieces(red, blue)
    fault = path_fault(position, 0, [parse_point(p) for p in ["r9c5", "r9c7", "r9c9", "r9c7"]])
    assert fault is not None and fault[0] == "lands_twice"


def test_a_piece_may_leave_its_target_and_go_home_again() -> None:
    red = ["r14c1", *RED_REST, "r4c2", "r4c3", "r4c4"]
    blue = [*BLUE_REST[:5], "r12c1", "r12c2", "r12c3", "r12c4", "r11c1"]
    here = legal(red, blue)
    assert "r14c1-r13c5" in here  # out of the target again
    assert "r4c2-r4c1" in here  # a step within its own home


def test_refused_paths_say_why() -> None:
    red, blue = LONG_RED, LONG_BLUE
    cases = {
        ("r6c5", "r7c5"): "not_your_piece",  # a blue piece
        ("r9c9", "r9c8"): "not_your_piece",  # no piece
        ("r5c5", "r6c5"): "occupied",
        ("r5c5", "r7c6"): "not_a_line",
        ("r5c5", "r5c7"): "nothing_to_jump",  # over r5c6, empty
        ("r5c5", "r7c5", "r7c4"): "step_in_chain",
        ("r5c5", "r7c5", "r5c5"): "lands_twice",
    }
    position = pieces(red, blue)
    for path, code in cases.items():
        fault = path_fault(position, 0, [parse_point(p) for p in path])
        assert fault is not None and fault[0] == code, (path, fault)


@pytest.mark.parametrize(
    "request_",
    [
        {"position": {"red": RED_REST, "blue": BLUE_REST}, "side": "red"},  # six pieces
        {
            "position": {
                "red": [*RED_REST, "r4c1", "r4c2", "r4c3", "r4c3"],
                "blue": [*BLUE_REST, "r14c1", "r14c2", "r14c3", "r14c4"],
            },
            "side": "red",
        },
        {
            "position": {
                "red": [*RED_REST, "r4c1", "r4c2", "r4c3", "R4C4"],
                "blue": [*BLUE_REST, "r14c1", "r14c2", "r14c3", "r14c4"],
            },
            "side": "red",
        },
        {
            "position": {
                "red": [*RED_REST, "r4c1", "r4c2", "r4c3", "r04c4"],
                "blue": [*BLUE_REST, "r14c1", "r14c2", "r14c3", "r14c4"],
            },
            "side": "red",
        },
        {
            "position": {
                "red": [*RED_REST, "r4c1", "r4c2", "r4c3", "r14c1"],
                "blue": [*BLUE_REST, "r14c1", "r14c2", "r14c3", "r14c4"],
            },
            "side": "red",
        },
        {
            "position": {
                "red": [*RED_REST, "r4c1", "r4c2", "r4c3", "r4c4"],
                "blue": [*BLUE_REST, "r14c1", "r14c2", "r14c3", "r14c4"],
                "green": [],
            },
            "side": "red",
        },
        {
            "position": {
                "red": [*RED_REST, "r4c1", "r4c2", "r4c3", "r4c4"],
                "blue": [*BLUE_REST, "r14c1", "r14c2", "r14c3", "r14c4"],
            },
            "side": "Red",
        },
        {
            "position": {
                "red": [*RED_REST, "r4c1", "r4c2", "r4c3", "r4c4"],
                "blue": [*BLUE_REST, "r14c1", "r14c2", "r14c3", "r14c5"],
            },
            "side": "red",
        },
        {"side": "red"},
    ],
)
def test_bad_positions_and_sides_are_errors(request_: dict[str, object]) -> None:
    with pytest.raises(DeckhandError):
        REFEREE.legal({"op": "legal", **request_})


@pytest.mark.parametrize("path", [None, "r5c5-r7c5", [], ["r5c5"], ["r5c5", "r99c1"], ["r5c5", 7]])
def test_a_path_that_is_no_list_of_points_is_an_error(path: object) -> None:
    with pytest.raises(DeckhandError):
        REFEREE.path_ok(
            {"op": "path_ok", "position": {"red": LONG_RED, "blue": LONG_BLUE}, "side": "red", "path": path}
        )


def test_a_side_with_no_move_gets_an_empty_list() -> None:
    start = pieces(LONG_RED, LONG_BLUE)
    assert destinations(start, 0)
    cornered = Pieces([parse_point("r13c1")], [parse_point(p) for p in ("r13c2", "r12c1", "r13c3", "r11c1")])
    assert destinations(cornered, 0) == []  # the tip's two neighbours and both landings taken

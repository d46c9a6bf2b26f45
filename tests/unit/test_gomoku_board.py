"""The Gomoku board (RULES.md §6.2): first stone, fives, the pointing-out rule and its ``automatic``
option, resignation, agreed draws, time warnings, the full board, and the engine's bookkeeping
(generated ⇔ accepted, refusals change nothing, exact JSON state and views)."""

from __future__ import annotations

import json
import random

import pytest
from deckhand.engines.contract import Action, Rejected, outcome_of
from deckhand.engines.gomoku.board import GomokuBoard, SeatView, decision_key, move
from deckhand.engines.gomoku.options import ForbiddenRule, Options
from deckhand.engines.gomoku.stones import POINTS, name
from deckhand.errors import DeckhandError
from gomoku_positions import FULL_DRAW, points_of

AUTOMATIC = Options(forbidden=ForbiddenRule.AUTOMATIC)


def played(moves: list[str], options: Options | None = None) -> GomokuBoard:
    """A board after ``moves``, Black first, alternately."""
    board = GomokuBoard(options)
    for n, point in enumerate(moves):
        board.apply(move(n % 2, point))
    return board


def refused(board: GomokuBoard, action: Action, code: str) -> None:
    before = board.to_json()
    with pytest.raises(Rejected) as info:
        board.apply(action)
    assert info.value.code == code
    assert board.to_json() == before


def weave(black: list[str], white: list[str]) -> list[str]:
    """Black's and White's moves in playing order."""
    out = []
    for n, b in enumerate(black):
        out.append(b)
        if n < len(white):
            out.append(white[n])
    return out


# Black's last stone I8 makes two open threes, G8 H8 I8 and H9 I8 J7; White plays far away.
DOUBLE_THREE = weave(["H8", "G8", "H9", "J7", "I8"], ["A1", "A3", "A5", "A7"])
FIVE = weave(["H8", "G8", "F8", "E8", "D8"], ["A1", "A3", "A5", "A7"])


def test_black_moves_first_and_its_first_stone_is_on_h8() -> None:
    board = GomokuBoard()
    refused(board, move(1, "H8"), "not_your_turn")
    refused(board, move(0, "A1"), "first_on_centre")
    assert board.legal_actions(0)[0] == move(0, "H8")
    assert [a for a in board.legal_actions(0) if a.kind == "move"] == [move(0, "H8")]
    board.apply(move(0, "H8"))
    refused(board, move(1, "H8"), "occupied")
    assert len([a for a in board.legal_actions(1) if a.kind == "move"]) == 224


@pytest.mark.parametrize(
    "data", [None, {}, {"point": "P1"}, {"point": "H0"}, {"point": 8}, {"point": "H8", "extra": 1}, "H8"]
)
def test_a_move_names_one_point(data: object) -> None:
    refused(GomokuBoard(), Action(0, "move", data=data), "bad_point")


def test_black_wins_with_exactly_five() -> None:
    board = played(FIVE)
    assert board.finished and board.result()["winner"] == 0 and board.result()["why"] == "five"
    assert board.result()["scores"] == [1, -1] and outcome_of(board.result()).points == (1, 0)


def test_a_black_overline_is_no_five_and_a_white_overline_is() -> None:
    # Black C8 D8 E8 F8 . H8 then G8: six in a row.
    moves = weave(["H8", "C8", "D8", "E8", "F8", "G8"], ["A1", "A3", "A5", "A7", "A9"])
    board = played(moves)
    assert not board.finished and board.turn == 1
    assert Action(1, "claim") in board.legal_actions(1)
    board = played(moves, AUTOMATIC)
    assert board.finished and board.result()["winner"] == 1 and board.result()["why"] == "forbidden"
    white = weave(["H8", "H10", "H12", "J10", "L12", "N10"], ["B2", "C2", "D2", "F2", "G2", "E2"])
    board = played(white)
    assert board.finished and board.result()["winner"] == 1 and board.result()["why"] == "five"


def test_a_forbidden_black_move_stands_and_white_may_point_it_out() -> None:
    board = played(DOUBLE_THREE)
    assert not board.finished and board.seat_view(1).to_dict()["board"][7][8] == "B"  # I8 stands
    claim = Action(1, "claim")
    assert claim in board.legal_actions(1)
    board.apply(claim)
    assert board.finished and board.result()["winner"] == 1 and board.result()["why"] == "claim"


def test_a_wrong_claim_is_refused_and_white_is_still_to_move() -> None:
    board = played(DOUBLE_THREE[:-2])  # Black's last stone (J7) is legal
    assert Action(1, "claim") not in board.legal_actions(1)
    refused(board, Action(1, "claim"), "no_forbidden_move")
    assert board.pending() == [1]


def test_once_white_has_placed_its_next_stone_the_forbidden_move_stands_for_good() -> None:
    board = played([*DOUBLE_THREE, "A9"])
    refused(board, Action(1, "claim"), "not_your_turn")
    board.apply(move(0, "O15"))
    assert Action(1, "claim") not in board.legal_actions(1)
    refused(board, Action(1, "claim"), "no_forbidden_move")


def test_black_cannot_claim() -> None:
    board = played(DOUBLE_THREE[:-1])
    refused(board, Action(0, "claim"), "no_forbidden_move")


def test_under_the_automatic_option_a_forbidden_move_loses_at_once() -> None:
    board = played(DOUBLE_THREE, AUTOMATIC)
    assert board.finished and board.result()["winner"] == 1 and board.result()["why"] == "forbidden"
    assert not played(DOUBLE_THREE[:-1], AUTOMATIC).finished
    assert played(DOUBLE_THREE[:-1], AUTOMATIC).to_json() == played(DOUBLE_THREE[:-1]).to_json().replace(
        "claim", "automatic"
    )


def test_a_five_that_also_makes_a_forbidden_shape_wins() -> None:
    # I8 makes the exact five E8–I8 and the overline I4–I9 at once.
    black = ["H8", "G8", "F8", "E8", "I4", "I5", "I6", "I7", "I9"]
    white = ["A1", "A3", "A5", "A7", "A9", "A11", "A13", "A15", "C1"]
    for options in (None, AUTOMATIC):
        board = played(weave(black, white), options)
        assert not board.finished
        board.apply(move(0, "I8"))
        assert board.result()["winner"] == 0 and board.result()["why"] == "five"


def test_resignation_and_agreed_draws() -> None:
    board = played(["H8"])
    board.apply(Action(1, "resign"))
    assert board.result()["winner"] == 0 and board.result()["why"] == "resign"
    board = played(["H8"])
    refused(board, Action(1, "accept"), "no_offer")
    refused(board, Action(0, "offer"), "not_your_turn")
    board.apply(Action(1, "offer"))
    refused(board, Action(1, "offer"), "offer_standing")
    refused(board, Action(1, "accept"), "no_offer")
    board.apply(move(1, "A1"))  # the offer stands while its maker moves
    board.apply(Action(0, "accept"))
    assert board.finished and board.result()["winner"] is None and board.result()["why"] == "agreed"
    assert board.result()["scores"] == [0, 0] and outcome_of(board.result()).points == (0.5, 0.5)


def test_a_draw_offer_lapses_when_the_other_side_places_a_stone() -> None:
    board = played(["H8"])
    board.apply(Action(1, "offer"))
    board.apply(move(1, "A1"))
    board.apply(move(0, "O15"))
    assert board.offer == -1
    refused(board, Action(1, "accept"), "no_offer")


def test_time_warnings_the_third_loses() -> None:
    board = played(["H8"], Options(move_seconds=20))
    timing = board.timing(1)
    assert (
        timing is not None
        and timing.limit_ms == 20_000
        and timing.default == Action(1, "warning", timeout=True)
    )
    assert board.timing(0) is None
    refused(board, Action(1, "warning"), "platform_only")
    board.apply(timing.default)
    board.apply(timing.default)
    assert not board.finished and board.pending() == [1] and board.warnings == [0, 2]
    board.apply(timing.default)
    assert board.result()["winner"] == 0 and board.result()["why"] == "time"


def test_a_full_board_without_five_is_a_draw() -> None:
    black, white = points_of(FULL_DRAW, "B"), points_of(FULL_DRAW, "W")
    black.remove("H8")
    board = played(weave(["H8", *black], white))
    assert board.finished and board.result()["winner"] is None and board.result()["why"] == "full"


def test_options_from_json() -> None:
    assert Options.from_dict(None) == Options() and Options().to_dict() == {
        "forbidden": "claim",
        "move_seconds": 60,
    }
    assert Options.from_dict({"forbidden": "automatic"}).forbidden is ForbiddenRule.AUTOMATIC
    for bad in (
        {"forbidden": "never"},
        {"forbidden": []},
        {"move_seconds": 0},
        {"move_seconds": True},
        {"colour": 1},
    ):
        with pytest.raises(DeckhandError):
            Options.from_dict(bad)
    assert GomokuBoard.from_carry({"options": {"move_seconds": 30}}).options.move_seconds == 30
    with pytest.raises(DeckhandError):
        GomokuBoard.from_carry({"deal": 1})


def probes(seat: int) -> list[Action]:
    """Everything a seat might send: a stone on every point, and every other kind."""
    return [move(seat, name(i)) for i in POINTS] + [
        Action(seat, k) for k in ("claim", "resign", "offer", "accept", "warning", "pass")
    ]


@pytest.mark.parametrize("seed", range(4))
def test_generated_is_accepted_refusals_change_nothing_and_json_is_exact(seed: int) -> None:
    rng = random.Random(seed)
    board = GomokuBoard(AUTOMATIC if seed % 2 else None)
    while not board.finished:
        seat = board.pending()[0]
        text = board.to_json()
        again = GomokuBoard.from_json(text)
        assert again == board and again.to_json() == text
        for s in (0, 1):
            view = json.loads(json.dumps(board.view(s)))
            assert SeatView.from_dict(view) == board.seat_view(s) and again.view(s) == board.view(s)
        legal = board.legal_actions(seat)
        assert board.legal_actions(1 - seat) == []
        keys = {(a.seat, a.kind, json.dumps(a.data)) for a in legal}
        for action in (
            rng.sample(probes(seat), 40) + probes(1 - seat)[:5] + [a for a in legal if a.kind != "move"]
        ):
            try:
                board.check(action)
            except Rejected as exc:
                assert exc.code and (action.seat, action.kind, json.dumps(action.data)) not in keys
                assert board.to_json() == text
            else:
                assert (action.seat, action.kind, json.dumps(action.data)) in keys
        moves = [a for a in legal if a.kind == "move"]
        board.apply(rng.choice(legal if rng.random() < 0.05 or not moves else moves))
    assert sum(board.result()["scores"]) == 0


def test_moves_at_different_points_are_different_decisions() -> None:
    legal = GomokuBoard().legal_actions(0) + played(["H8"]).legal_actions(1)
    assert len({decision_key(a) for a in legal}) == len(legal)
    assert decision_key(move(1, "A1")) == decision_key(move(1, "A1"))

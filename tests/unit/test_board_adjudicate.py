"""A referee's ruling on a board game's board (the engines' ``adjudicate``): an upheld claim ends the
game with the claim as its ``why``, and survives a save and a load; a claim the game does not know, a
seat that is none or a board that is over is refused with nothing changed; Gomoku's forbidden-move
claim is upheld only while White may still make it (RULES.md §6.2: after White's next stone the move
stands) and only for White; a card game's board takes no ruling."""

from __future__ import annotations

import pytest
from deckhand.engines.contract import Rejected
from deckhand.engines.gomoku.board import GomokuBoard, move
from deckhand.engines.registry import game

BOARD_GAMES = ["xiangqi-2004", "gomoku-renju", "junqi-2004", "checkers-2004"]
DOUBLE_THREE = ["H8", "A1", "H9", "A3", "E10", "A5", "F10", "A7", "H10"]


def fresh(ruleset: str):
    return game(ruleset).new_board([], {"seed": "s"} if ruleset.startswith("junqi") else None)


@pytest.mark.parametrize("ruleset", BOARD_GAMES)
@pytest.mark.parametrize("winner", [0, 1, None])
def test_an_upheld_claim_ends_the_game_for_its_winner(ruleset, winner):
    board = fresh(ruleset)
    board.adjudicate("forfeit", winner)
    assert board.finished
    again = game(ruleset).load_board(board.to_json())
    result = again.result()
    assert result["why"] == "forfeit"
    assert result["points"] == (
        [0.5, 0.5] if winner is None else [1.0 if s == winner else 0.0 for s in (0, 1)]
    )


@pytest.mark.parametrize("ruleset", BOARD_GAMES)
def test_a_ruling_that_does_not_fit_is_refused_and_changes_nothing(ruleset):
    board = fresh(ruleset)
    before = board.to_json()
    for claim, winner, code in (
        ("no_such_claim", 0, "unknown_claim"),
        ("other", 2, "bad_seat"),
        ("other", -1, "bad_seat"),
    ):
        with pytest.raises(Rejected) as refused:
            board.adjudicate(claim, winner)
        assert refused.value.code == code
        assert board.to_json() == before
    board.adjudicate("other", 0)
    with pytest.raises(Rejected) as over:
        board.adjudicate("other", 1)
    assert over.value.code == "phase_closed"


def test_xiangqi_knows_perpetual_check_and_chase_and_gomoku_does_not():
    for claim in ("perpetual_check", "perpetual_chase"):
        board = fresh("xiangqi-2004")
        board.adjudicate(claim, 1)
        assert board.result()["why"] == claim
    with pytest.raises(Rejected) as refused:
        fresh("gomoku-renju").adjudicate("perpetual_check", 1)
    assert refused.value.code == "unknown_claim"


def gomoku_after(points: list[str]) -> GomokuBoard:
    board = GomokuBoard()
    for i, p in enumerate(points):
        board.apply(move(i % 2, p))
    return board


def test_a_forbidden_move_claim_is_upheld_for_white_only_before_white_s_next_stone():
    board = gomoku_after(DOUBLE_THREE)
    with pytest.raises(Rejected) as black:
        board.adjudicate("forbidden", 0)
    assert black.value.code == "bad_winner" and not board.finished
    board.adjudicate("forbidden", 1)
    assert board.result()["why"] == "claim" and board.result()["winner"] == 1
    late = gomoku_after([*DOUBLE_THREE, "A9"])  # White placed its next stone: the move stands
    with pytest.raises(Rejected) as refused:
        late.adjudicate("forbidden", 1)
    assert refused.value.code == "claim_too_late" and not late.finished
    with pytest.raises(Rejected) as none:
        gomoku_after(["H8"]).adjudicate("forbidden", 1)  # no forbidden shape at all
    assert none.value.code == "claim_too_late"


@pytest.mark.parametrize("ruleset", ["shengji-common", "bigtwo-2017"])
def test_a_card_game_board_takes_no_ruling(ruleset):
    from deckhand.service.boards.log import adjudicate

    spec = game(ruleset)
    board = spec.new_board(list(range(spec.decks * 54 if ruleset.startswith("shengji") else 52)), None)
    with pytest.raises(Rejected) as refused:
        adjudicate(board, "other", 0)  # as the service applies a ruling (and replays one)
    assert refused.value.code == "no_rulings"

"""Gomoku wired in as a board game (RULES.md §6.2): its spec and registry entry, results as 1 / ½ / 0,
the calculator on the command line, and the handset screen — which offers White ``claim`` after every
black stone, so that nothing a seat receives tells whether Black's last stone is forbidden."""

from __future__ import annotations

import io
import json

import pytest
from deckhand.engines.contract import Action, Lang, outcome_of
from deckhand.engines.gomoku.board import GomokuBoard, move
from deckhand.engines.gomoku.options import ForbiddenRule, Options
from deckhand.engines.gomoku.spec import EMPTY_BOARD
from deckhand.engines.gomoku.stones import COLUMNS
from deckhand.engines.registry import ALIASES, DEALT_RULESETS, by_alias
from deckhand.engines.spec import Competition
from deckhand.errors import DeckhandError
from deckhand_local.cli.rules import run
from gomoku_positions import FULL_DRAW

SPEC = by_alias("gomoku")
assert SPEC.screen is not None
screen = SPEC.screen
# Black's fifth stone I8 makes two threes (G8 H8 I8, J7 I8 H9): forbidden. O15 instead makes nothing.
BEFORE = ["H8", "A1", "G8", "A3", "H9", "A5", "J7", "A7"]
FORBIDDEN, HARMLESS = [*BEFORE, "I8"], [*BEFORE, "O15"]


def played(moves: list[str], options: Options | None = None) -> GomokuBoard:
    board = GomokuBoard(options)
    for n, point in enumerate(moves):
        board.apply(move(n % 2, point))
    return board


def test_the_spec_plays_with_a_position_head_to_head() -> None:
    assert ALIASES["gomoku"] == "gomoku-renju" == SPEC.ruleset and "gomoku-renju" not in DEALT_RULESETS
    assert SPEC.seats == 2 and SPEC.competition is Competition.HEAD_TO_HEAD and SPEC.deck is None
    assert SPEC.position is not None and SPEC.position.sides == ("black", "white")
    assert len(SPEC.position.squares) == 225 and SPEC.position.move_data == ("point",)
    assert SPEC.position.start == EMPTY_BOARD and SPEC.deal_size == 0
    board = SPEC.new_board([], {"options": {"forbidden": "automatic", "move_seconds": 30}})
    assert isinstance(board, GomokuBoard) and board.options == Options(ForbiddenRule.AUTOMATIC, 30)
    with pytest.raises(DeckhandError):
        SPEC.new_board([1, 2], None)  # nothing is dealt
    assert SPEC.options is not None and SPEC.options({"forbidden": "claim"}).to_dict()["move_seconds"] == 60
    with pytest.raises(DeckhandError):
        SPEC.options({"forbidden": "never"})


def test_the_decision_key_tells_moves_apart_by_their_point() -> None:
    key = SPEC.decision_key
    assert key(move(0, "H8")) != key(move(0, "H9"))
    assert key(move(0, "H8")) == key(move(0, "h8"))  # the same point, as the board reads it
    assert key(Action(1, "claim")) != key(Action(1, "resign"))


def test_a_game_ends_one_half_or_nothing() -> None:
    won = played(["H8", "A1", "G8", "A3", "F8", "A5", "E8", "A7", "D8"])
    assert outcome_of(won.result()).points == (1, 0) and won.result()["carry"] is None
    claimed = played(FORBIDDEN)
    claimed.apply(Action(1, "claim"))
    assert outcome_of(claimed.result()).points == (0, 1)
    drawn = played(["H8"])
    drawn.apply(Action(1, "offer"))
    drawn.apply(move(1, "A1"))  # White's own stone leaves its offer standing
    drawn.apply(Action(0, "accept"))
    assert outcome_of(drawn.result()).points == (0.5, 0.5) and drawn.result()["scores"] == [0, 0]


def test_white_is_offered_the_claim_after_every_black_stone() -> None:
    for moves in (FORBIDDEN, HARMLESS, ["H8"]):
        white = screen(played(moves), 1, "en")
        assert {"l": "Claim forbidden", "a": {"k": "claim"}} in white["ask"]["o"]
    automatic = screen(played(FORBIDDEN[:-1] + ["O15"], Options(ForbiddenRule.AUTOMATIC)), 1, "en")
    assert all(o["a"]["k"] != "claim" for o in automatic["ask"]["o"])  # no claim under ``automatic``
    black = screen(played(BEFORE), 0, "en")
    assert [o["a"]["k"] for o in black["ask"]["o"]] == ["move", "resign", "offer"]
    assert "ask" not in screen(played(BEFORE), 1, "en")  # not White's move


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_nothing_white_receives_tells_a_forbidden_stone_from_a_harmless_one(lang: Lang) -> None:
    forbidden, harmless = played(FORBIDDEN), played(HARMLESS)
    assert Action(1, "claim") in forbidden.legal_actions(1)  # the referee knows; White must spot it
    assert Action(1, "claim") not in harmless.legal_actions(1)
    one, two = forbidden.view(1), harmless.view(1)
    assert set(one) == set(two)
    assert {k for k in one if one[k] != two[k]} == {
        "board",
        "moves",
        "last",
    }  # where the two games differ: Black's last stone
    a, b = screen(forbidden, 1, lang), screen(harmless, 1, lang)
    assert a["ask"] == b["ask"] and a["h"] == b["h"] == [] and len(a["l"]) == len(b["l"])
    lines = [n for n, (x, y) in enumerate(zip(a["l"], b["l"], strict=True)) if x != y]
    assert lines == [2]  # the last stone's line
    rows = [n for n, (x, y) in enumerate(zip(a["grid"]["r"], b["grid"]["r"], strict=True)) if x != y]
    assert rows == [0, 7] and a["grid"]["m"] != b["grid"]["m"]  # row 15 (O15), row 8 (I8), the last stone


def test_the_screen_draws_the_board_in_both_languages() -> None:
    board = played(["H8", "G7"])
    english, chinese = screen(board, 0, "en"), screen(board, 0, "zh-CN")
    assert english["h"] == [] and english["l"][0] == "you play Black"
    grid = english["grid"]  # the handset's grid: ASCII in both languages, row 15 at the top
    assert grid == chinese["grid"] and (grid["w"], grid["y"], grid["x"], grid["n"]) == (
        15,
        15,
        COLUMNS,
        "{x}{y}",
    )
    assert grid["r"][7] == ".......X......." and grid["r"][8].startswith("......O")
    assert grid["m"] == [8 * 15 + 6] and "s" not in grid  # G7 marked; a stone goes on any point
    assert "Black to move" in english["l"] and english["ask"]["o"][0]["a"] == {"k": "move", "q": ["point"]}
    assert chinese["l"][0] == "你执黑方" and "轮到黑方落子" in chinese["l"]
    assert chinese["ask"]["p"] == "请落子：选一个点"
    board.apply(Action(0, "resign"))
    assert screen(board, 1, "en")["l"][-1] == "White wins (resign)"


def test_the_calculator_through_the_command_line() -> None:
    """JSON Lines in, one answer a line out; a bad request gets {"error": …} and the next is answered."""
    rows = ["." * 15] * 15
    double_three = list(rows)
    double_three[15 - 8] = "......BB......."  # row 8: G8 H8; I8 empty
    double_three[15 - 7] = "........WB....."  # row 7: I7 (White) J7
    double_three[15 - 6] = "W.............."  # row 6: A6
    double_three[15 - 9] = ".......B......."  # row 9: H9
    double_three[15 - 15] = "WW............."  # row 15: A15 B15
    lines = [
        {"op": "forbidden", "board": double_three, "move": "I8", "color": "B"},
        {"op": "legal", "board": rows},
        {"op": "result", "board": FULL_DRAW},
        {"op": "legal", "board": FULL_DRAW},
        {"op": "legal", "board": double_three},
        {"op": "forbidden", "board": rows, "move": "Z9", "color": "B"},
        {"op": "legal", "board": ["B" + "." * 14] + rows[1:]},  # Black a stone ahead, White none: fine
        {"op": "legal", "board": ["BB" + "." * 13] + rows[1:]},
        {"op": "nonsense"},
    ]
    out = io.StringIO()
    assert run("gomoku", io.StringIO("".join(json.dumps(x) + "\n" for x in lines) + "not json\n"), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[:4] == [
        {"verdict": "double-three"},
        {"to_move": "black", "moves": ["H8"], "forbidden": []},
        {"result": "draw"},
        {"to_move": "white", "moves": [], "forbidden": []},
    ]
    legal = answers[4]
    assert legal["to_move"] == "black" and "I8" in legal["forbidden"] and len(legal["moves"]) == 225 - 8
    assert set(answers[5]) == {"error"} and answers[6]["to_move"] == "white"
    assert all(set(a) == {"error"} for a in answers[7:]) and len(answers) == len(lines) + 1

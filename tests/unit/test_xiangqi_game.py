"""A game of Xiangqi on the engine contract (RULES.md §6.1): its end (checkmate and stalemate lose),
the repetition rule, the 60-move draw, resignation, draw offers, clock warnings, Chinese notation,
the calculator's ops and the bot."""

from __future__ import annotations

import io
import json
import random
import time

import pytest
from deckhand.engines.contract import Action, Rejected, outcome_of
from deckhand.engines.registry import by_alias
from deckhand.engines.xiangqi.board import Clock, Game, Options, XiangqiBoard
from deckhand.engines.xiangqi.bot import XiangqiBot
from deckhand.engines.xiangqi.chinese import chinese
from deckhand.engines.xiangqi.position import START, Position, iccs, parse_iccs
from deckhand.engines.xiangqi.referee import XiangqiReferee
from deckhand.errors import DeckhandError
from deckhand_local.cli.rules import run
from helpers import DEPTH

MATE_IN_ONE = "3k5/8R/9/9/9/9/9/9/9/R3K4 w"


def move(seat: int, text: str) -> Action:
    return Action(seat, "move", data={"from": text[:2], "to": text[2:]})


def play(board: XiangqiBoard, *moves: str) -> None:
    for i, text in enumerate(moves):
        board.apply(move(board.turn, text))
        assert i == len(moves) - 1 or not board.finished


def test_checkmate_wins() -> None:
    # The chariot i8 holds rank 8, the facing generals hold e9: a0a9 mates.
    board = XiangqiBoard(MATE_IN_ONE)
    play(board, "a0a9")
    assert board.result()["winner"] == "red" and board.result()["why"] == "checkmate"
    assert outcome_of(board.result()).points == (1, 0)


def test_stalemate_loses_for_the_side_without_a_move() -> None:
    board = XiangqiBoard("3k5/9/4R4/9/9/9/9/9/9/4K4 w")
    play(board, "e7e8")
    assert board.result()["winner"] == "red" and board.result()["why"] == "stalemate"


def test_a_third_occurrence_is_refused_and_changes_nothing() -> None:
    board = XiangqiBoard("3k5/9/9/9/9/9/9/9/9/R3K4 w")
    shuffle = ["a0a1", "d9d8", "a1a0", "d8d9"]
    play(board, *shuffle)  # the start position has occurred twice now
    play(board, "a0a1", "d9d8", "a1a0")
    before = board.to_json()
    with pytest.raises(Rejected) as refused:
        board.apply(move(1, "d8d9"))
    assert refused.value.code == "repetition" and board.to_json() == before
    assert move(1, "d8d9") not in board.legal_actions(1)
    play(board, "d8d7")  # another move is fine


def test_a_player_whose_every_move_repeats_loses() -> None:
    # Black's general has one move, d9d8 (the chariot i7 holds rank 7, the facing generals file e);
    # the position it makes has occurred twice: every move refused, Black loses as with none.
    game = Game("3k5/9/8R/9/9/9/9/9/9/4K4 b")
    assert [iccs(m) for m in game.all_moves()] == ["d9d8"]
    assert game.over() is None
    taken = game.pos.make(parse_iccs("d9d8"))
    game.seen[game.pos.hash] = 2
    game.pos.unmake(parse_iccs("d9d8"), taken)
    game._legal = None
    assert game.legal() == [] and game.over() == (1, "repetition")


def test_sixty_moves_each_without_a_capture_draw() -> None:
    board = XiangqiBoard("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 60")
    play(board, "a0a1")
    assert board.result()["why"] == "no_capture" and outcome_of(board.result()).points == (0.5, 0.5)
    board = XiangqiBoard("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 118 60")
    play(board, "a0a1")
    assert not board.finished


def test_a_capture_starts_the_sixty_moves_again() -> None:
    board = XiangqiBoard("3k5/9/9/9/9/9/9/9/p8/R3K4 w - - 119 60")
    play(board, "a0a1")
    assert not board.finished and board.game.pos.quiet == 0


def test_resignation_and_agreed_draws() -> None:
    board = XiangqiBoard.from_order([], None)
    board.apply(Action(0, "resign"))
    assert board.result()["winner"] == "black" and board.result()["why"] == "resignation"
    board = XiangqiBoard.from_order([], None)
    with pytest.raises(Rejected) as refused:
        board.apply(Action(1, "accept"))
    assert refused.value.code == "not_your_turn"
    board.apply(Action(0, "offer"))
    with pytest.raises(Rejected):
        board.apply(Action(0, "offer"))  # once a turn
    with pytest.raises(Rejected):
        board.apply(Action(0, "accept"))  # not one's own offer
    play(board, "h2e2")
    board.apply(Action(1, "accept"))
    assert board.result()["why"] == "agreement" and board.result()["points"] == [0.5, 0.5]


def test_a_move_declines_the_offer() -> None:
    board = XiangqiBoard.from_order([], None)
    board.apply(Action(0, "offer"))
    play(board, "h2e2", "h7e7")
    assert board.offer is None
    with pytest.raises(Rejected) as refused:
        board.apply(Action(0, "accept"))
    assert refused.value.code == "no_offer"


@pytest.mark.parametrize(("clock", "limit"), [(Clock.SLOW, 300_000), (Clock.RAPID, 20_000)])
def test_the_third_clock_warning_loses(clock: Clock, limit: int) -> None:
    board = XiangqiBoard.from_order([], {"options": {"clock": clock.value}})
    timing = board.timing(0)
    assert timing is not None and timing.limit_ms == limit
    with pytest.raises(Rejected):
        board.apply(Action(0, "overtime"))  # a warning comes from the clock only
    for _ in range(2):
        board.apply(timing.default)
        assert not board.finished and board.pending() == [0]
    board.apply(timing.default)
    assert board.result()["winner"] == "black" and board.result()["why"] == "time"


def test_options_are_typed() -> None:
    assert Options.from_dict(None) == Options(Clock.SLOW)
    for bad in ({"clock": "blitz"}, {"speed": "slow"}):
        with pytest.raises(DeckhandError):
            Options.from_dict(bad)


def test_bad_moves_are_refused_with_codes() -> None:
    board = XiangqiBoard.from_order([], None)
    before = board.to_json()
    for action, code in [
        (move(0, "h2h8"), "illegal_move"),
        (Action(0, "move", data={"from": "z9", "to": "a0"}), "bad_move"),
        (Action(0, "move", data="h2e2"), "bad_move"),
        (move(1, "h7e7"), "not_your_turn"),
        (Action(0, "castle"), "bad_action"),
        (Action(True, "resign"), "bad_seat"),  # type: ignore[arg-type]
    ]:
        with pytest.raises(Rejected) as refused:
            board.apply(action)
        assert refused.value.code == code and board.to_json() == before


def test_a_stored_game_loads_back_and_refuses_a_forged_move() -> None:
    board = XiangqiBoard.from_order([], None)
    play(board, "h2e2", "h9g7", "h0g2")
    assert XiangqiBoard.from_json(board.to_json()) == board
    forged = json.loads(board.to_json())
    forged["moves"][1] = "h9h5"
    with pytest.raises(DeckhandError):
        XiangqiBoard.from_dict(forged)


def test_chinese_notation() -> None:
    start = Position.from_fen(START)
    assert [chinese(start, parse_iccs(m)) for m in ("h2e2", "h0g2", "a0a1", "d0e1", "g0e2", "e0e1")] == [
        "炮二平五",
        "马二进三",
        "车九进一",
        "仕六进五",
        "相三进五",
        "帅五进一",
    ]
    # Two Red chariots on one file: 前 and 后; Black's numbers are digits from Black's right.
    two = Position.from_fen("3k5/9/9/9/9/9/R8/9/9/R3K4 w")
    assert chinese(two, parse_iccs("a3a5")) == "前车进二"
    assert chinese(two, parse_iccs("a0b0")) == "后车平八"
    black = Position.from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")
    assert chinese(black, parse_iccs("h7e7")) == "炮8平5" and chinese(black, parse_iccs("b9c7")) == "马2进3"
    assert chinese(black, parse_iccs("a9a8")) == "车1进1" and chinese(black, parse_iccs("e9e8")) == "将5进1"
    board = XiangqiBoard.from_order([], None)
    play(board, "h2e2", "h7e7")
    board.apply(Action(0, "resign"))
    assert board.result()["chinese"] == ["炮二平五", "炮8平5"]


def test_the_calculator_ops() -> None:
    ops = XiangqiReferee().ops()
    assert ops["perft"]({"fen": START, "depth": 2}) == {"nodes": 1920}
    legal = ops["legal"]({"fen": START})["moves"]
    assert len(legal) == 44 and legal == sorted(legal) and "h2e2" in legal
    assert ops["result"]({"fen": START}) == {"result": None, "why": None, "check": False}
    mate = "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b"
    assert ops["result"]({"fen": mate}) == {"result": "red", "why": "checkmate", "check": True}
    assert ops["notation"]({"fen": START, "move": "h2e2"}) == {"iccs": "h2e2", "chinese": "炮二平五"}
    for name, request in [
        ("perft", {"fen": START, "depth": 9}),
        ("notation", {"fen": START, "move": "h2h8"}),
        ("legal", {"fen": "rnbakabnr w"}),
        ("legal", {}),
    ]:
        with pytest.raises(DeckhandError):
            ops[name](request)


def test_the_spec_plays_with_a_position() -> None:
    spec = by_alias("xiangqi")
    assert spec.deck is None and spec.position is not None and spec.position.start == START
    assert spec.deal_size == 0 and len(spec.position.squares) == 90


def random_mover(rng: random.Random):  # type: ignore[no-untyped-def]
    return lambda board, seat: rng.choice([a for a in board.legal_actions(seat) if a.kind == "move"])


@pytest.mark.parametrize("game", range(2 * DEPTH if DEPTH > 1 else 2))
def test_the_bot_beats_a_random_mover_quickly(game: int) -> None:
    """Two games here; ``make test-deep`` plays 100 with DECKHAND_TEST_DEPTH=50."""
    bot, rng = XiangqiBot(), random.Random(game)
    board, bot_seat, slowest = XiangqiBoard.from_order([], None), game % 2, 0.0
    while not board.finished:
        seat = board.pending()[0]
        if seat == bot_seat:
            began = time.process_time()
            action = bot.decide(board.seat_view(seat))
            slowest = max(slowest, time.process_time() - began)
            assert action is not None
        else:
            action = random_mover(rng)(board, seat)
        board.apply(action)
    assert board.result()["points"][bot_seat] == 1 and slowest < 1.0


def test_the_bot_is_deterministic_and_ends_the_game_when_it_can() -> None:
    board = XiangqiBoard.from_order([], None)
    play(board, "h2e2", "h7e7", "h0g2")
    view = board.seat_view(1)
    assert XiangqiBot().decide(view) == XiangqiBot().decide(view)
    board = XiangqiBoard(MATE_IN_ONE)
    board.apply(XiangqiBot().decide(board.seat_view(0)))  # type: ignore[arg-type]
    assert board.finished and board.result()["winner"] == "red"  # mated or stalemated: both lose


def test_the_calculator_through_the_command_line() -> None:
    """JSON Lines in, one answer a line out; a bad request gets {"error": …} and the next is answered."""
    lines = [
        {"op": "perft", "fen": START, "depth": 3},
        {"op": "legal", "fen": "3k5/9/9/9/9/9/9/9/9/4K4 w"},
        {"op": "result", "fen": "3k5/9/8R/9/9/9/9/9/9/4K4 b"},
        {"op": "notation", "fen": START, "move": "b0c2"},
        {"op": "perft", "fen": START},
        {"op": "legal", "fen": START.replace("K", "A")},
        {"op": "notation", "fen": START, "move": "e0e2"},
    ]
    out = io.StringIO()
    assert run("xiangqi", io.StringIO("".join(json.dumps(x) + "\n" for x in lines)), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[:4] == [
        {"nodes": 79666},
        {"moves": ["e0e1", "e0f0"]},
        {"result": None, "why": None, "check": False},
        {"iccs": "b0c2", "chinese": "马八进七"},
    ]
    assert all(set(a) == {"error"} for a in answers[4:]) and len(answers) == len(lines)


def test_the_screen_draws_the_board_in_both_languages() -> None:
    spec = by_alias("xiangqi")
    assert spec.screen is not None
    board = spec.new_board([], None)
    english, chinese_screen = spec.screen(board, 1, "en"), spec.screen(board, 1, "zh-CN")
    assert english["h"] == [] and "Red to move" in english["l"] and "ask" not in english
    grid = english["grid"]  # the handset's grid: ASCII in both languages, Red at the bottom
    assert grid == chinese_screen["grid"] and (grid["w"], grid["y"], grid["x"], grid["n"]) == (
        9,
        9,
        "abcdefghi",
        "{x}{y}",
    )
    assert grid["r"][0] == "rnbakabnr" and grid["r"][7] == ".C.....C." and grid["r"][9] == "RNBAKABNR"
    assert chinese_screen["l"][0] == "你执黑方" and chinese_screen["l"][-1] == "轮到红方走棋"
    red = spec.screen(board, 0, "en")  # Red to move: the move picked as two points, and the game's words
    assert [o["a"] for o in red["ask"]["o"]] == [
        {"k": "move", "q": ["from", "to"]},
        {"k": "resign"},
        {"k": "offer"},
    ]
    assert len(red["grid"]["s"]) == 16 and "m" not in red["grid"]  # each of Red's pieces has a move
    board.apply(Action(0, "move", data={"from": "h2", "to": "e2"}))
    assert spec.screen(board, 1, "en")["grid"]["m"] == [7 * 9 + 4, 7 * 9 + 7]  # h2 and e2 marked

"""The Gomoku bot: it never loses to a random mover, plays no forbidden move as Black, points out
White's claims, takes and stops fives, and always gives the same move for the same position."""

from __future__ import annotations

import random

import pytest
from deckhand.engines.contract import Action
from deckhand.engines.gomoku.board import GomokuBoard, SeatView, move
from deckhand.engines.gomoku.bot import GomokuBot
from deckhand.engines.gomoku.forbidden import verdict
from deckhand.engines.gomoku.stones import B, name, parse_point
from gomoku_positions import position

GAMES = 50  # a colour


def bot_move(board: GomokuBoard, seat: int, bot: GomokuBot) -> Action:
    action = bot.decide(board.seat_view(seat))
    assert action is not None
    return action


@pytest.mark.parametrize("bot_seat", [0, 1], ids=["bot-black", "bot-white"])
def test_the_bot_never_loses_to_a_random_mover_and_never_plays_a_forbidden_move(bot_seat: int) -> None:
    bot = GomokuBot()
    for game in range(GAMES):
        rng = random.Random(f"gomoku/{bot_seat}/{game}")
        board = GomokuBoard()
        while not board.finished:
            seat = board.pending()[0]
            if seat == bot_seat:
                action = bot_move(board, seat, bot)
                if action.kind == "move" and seat == 0:
                    assert verdict(board.stones, parse_point(action.data["point"])).value == "legal"
            else:
                empty = list(board.stones.empty_points())
                action = move(seat, name(rng.choice(empty)) if board.moves else "H8")
            board.apply(action)
        assert board.result()["winner"] == bot_seat, (game, board.result())


def view_after(black: list[str], white: list[str], seat: int) -> SeatView:
    """A seat's view of a position (the record's order does not matter to the bot)."""
    assert len(black) - len(white) in (0, 1)
    moves = []
    for n in range(len(black)):
        moves += black[n : n + 1] + white[n : n + 1]
    board = GomokuBoard()
    for n, point in enumerate(moves):
        board.apply(move(n % 2, point))
    return board.seat_view(seat)


def test_the_bot_completes_its_five_before_blocking() -> None:
    view = view_after(["H8", "G8", "F8", "E8", "A1"], ["H9", "G9", "F9", "E9"], 1)
    assert GomokuBot().decide(view) in (move(1, "D9"), move(1, "I9"))
    view = view_after(["H8", "G8", "F8", "E8", "A1", "A15"], ["H9", "G9", "F9", "E9", "O1", "O3"], 0)
    assert GomokuBot().decide(view) in (move(0, "D8"), move(0, "I8"))


def test_the_bot_blocks_a_five() -> None:
    view = view_after(["H8", "A1", "A3", "A5"], ["D5", "E6", "F7", "G8"], 0)
    assert GomokuBot().decide(view) in (move(0, "C4"), move(0, "H9"))


def test_white_points_out_a_forbidden_move() -> None:
    view = view_after(["H8", "G8", "H9", "J7", "I8"], ["A1", "A3", "A5", "A7"], 1)
    assert GomokuBot().decide(view) == Action(1, "claim")


def test_black_passes_over_a_forbidden_point_it_would_otherwise_take() -> None:
    bot = GomokuBot()
    # G8 I8 H7 H9 around H8: H8 is a double-three, the point the windows favour most.
    stones = position(["G8", "I8", "H7", "H9"], ["A1", "A3", "A5", "O15"])
    assert verdict(stones, parse_point("H8")).value == "double-three"
    chosen = bot.choose(stones, B)
    assert chosen != parse_point("H8") and verdict(stones, chosen).value == "legal"


def test_the_same_position_gets_the_same_move_from_a_board_or_a_device() -> None:
    rng = random.Random(7)
    board = GomokuBoard()
    board.apply(move(0, "H8"))
    for _ in range(12):
        seat = board.pending()[0]
        board.apply(move(seat, name(rng.choice(list(board.stones.empty_points())))))
    seat = board.pending()[0]
    first = GomokuBot().decide(board.seat_view(seat))
    assert all(GomokuBot().decide(board.seat_view(seat)) == first for _ in range(3))
    assert GomokuBot().decide(SeatView.from_dict(board.view(seat))) == first
    assert GomokuBot().decide(board.seat_view(1 - seat)) is None


def test_the_bot_makes_an_open_four_and_stops_the_opponents() -> None:
    # White's open three G10 H10 I10; Black has H8 alone: Black blocks at F10 or J10.
    view = view_after(["H8", "A1", "A3"], ["G10", "H10", "I10"], 0)
    assert GomokuBot().decide(view) in (move(0, "F10"), move(0, "J10"))
    # White to move with its own open three and Black's: White makes its open four first.
    view = view_after(["H8", "G8", "I8", "A1"], ["G10", "H10", "I10"], 1)
    assert GomokuBot().decide(view) in (move(1, "F10"), move(1, "J10"))


def test_black_plays_a_forbidden_point_only_when_forced() -> None:
    # White's four D4 E5 F6 G7 (C3 is Black's) ends on H8, a double-three for Black: the only block.
    stones = position(["G8", "I8", "H7", "H9", "C3"], ["D4", "E5", "F6", "G7", "O15"])
    assert verdict(stones, parse_point("H8")).value == "double-three"
    assert GomokuBot().choose(stones, B) == parse_point("H8")


@pytest.mark.parametrize("styles", [("steady", "bold"), ("bold", "careful"), ("careful", "steady")])
def test_bots_finish_games_against_each_other_and_black_stays_legal(styles: tuple[str, str]) -> None:
    bots = [GomokuBot(styles[0]), GomokuBot(styles[1])]
    board = GomokuBoard()
    while not board.finished:
        seat = board.pending()[0]
        action = bot_move(board, seat, bots[seat])
        if seat == 0:
            assert verdict(board.stones, parse_point(action.data["point"])).value == "legal"
        board.apply(action)
    assert board.result()["why"] in ("five", "full")

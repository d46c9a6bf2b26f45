"""Shengji rules an independent review found untested (issue 20): each test fails when its rule is
broken — time-up game ends and the knockout's extra board, 003's last-board clock, the kitty only to
the defenders, the carried dealer, a thrown tractor's failure, the partner in a throw check, and
the defenders' points never below zero."""

from __future__ import annotations

from dataclasses import replace

from deckhand.engines.contract import Action
from deckhand.engines.shengji import levels as lv
from deckhand.engines.shengji.board import DECLARE, END, CommonBoard, ShengjiBoard
from deckhand.engines.shengji.cards import trump
from deckhand.engines.shengji.combos import throw_failures
from deckhand.engines.shengji.options import PRESETS, LevelChain, Preset
from deckhand.engines.shengji.spec import COMMON_SPEC, SPEC
from test_shengji_board import _staged, _to_play, cs, declare, order_with

Y = PRESETS[Preset.YAOJI2010]
C = PRESETS[Preset.COMMON]
H, S = 2, 3


def test_time_up_ends_the_game_when_the_levels_differ_even_without_draws() -> None:
    knockout = replace(Y, draws=False)
    assert lv.game_over([9, 8], knockout, time_up=True)
    assert not lv.game_over([9, 9], knockout, time_up=True), "level in a knockout: one more board"
    assert lv.game_over([9, 9], knockout, time_up=True, extra=True), "the extra board decides"
    assert lv.game_over([9, 9], Y, time_up=True), "draws allowed: a level game ends level"
    assert not lv.game_over([9, 8], knockout, time_up=False)


def _finish(board: ShengjiBoard) -> dict:
    while board.phase != END:
        seat = board.pending()[0]
        board.apply(board.legal_actions(seat)[0])
    return board.result()


def test_a_knockout_game_level_at_time_up_plays_one_extra_board_that_decides() -> None:
    options = replace(Y, draws=False).to_dict()
    carry = {"levels": ["5", "5"], "dealer": 0, "boards": 3, "time_up": True, "options": options}
    first = _finish(ShengjiBoard(order_with({}, seed="a"), carry))
    assert first["carry"]["levels"][0] != first["carry"]["levels"][1] or first["carry"]["extra"]
    if first["carry"]["game_over"]:
        return  # a board from level levels is always won by a side: it decided it already
    extra = _finish(ShengjiBoard(order_with({}, seed="b"), first["carry"]))
    assert extra["carry"]["game_over"] and extra["game"]["mp"] in ([2, 0], [0, 2])


def test_003_deals_no_new_board_after_50_minutes_and_004_after_90() -> None:
    assert SPEC.match_clock is not None and COMMON_SPEC.match_clock is not None
    assert SPEC.match_clock(Y) == 50
    assert COMMON_SPEC.match_clock(C) == 90


def test_the_kitty_counts_only_when_the_defenders_win_the_last_trick() -> None:
    board = _staged(ShengjiBoard, ["SA SK", "D3 D4", "D5 D6", "C3 C4"], dealer=0)
    board.buried = cs("S5 ST C3 C4 C6 C7 C9 CJ")  # 15 points in the kitty
    board.leader = 0
    board.side_points = [0, 0]
    for seat, text in [(0, "SA SK"), (1, "D3 D4"), (2, "D5 D6"), (3, "C3 C4")]:
        board.apply(Action(seat, "play", tuple(cs(text))))
    assert board.phase == END
    result = board.result()
    assert result["kitty"]["points"] == 0 and board.defender_points() == 0


def test_a_declaration_on_a_later_board_names_trump_and_keeps_the_carried_dealer() -> None:
    carry = {"levels": ["5", "9"], "dealer": 1, "boards": 3, "time_up": False}
    board = ShengjiBoard(order_with({2: "S9"}), carry)
    while board.phase == DECLARE and board.pending() != [2]:
        board.apply(Action(board.pending()[0], "pass"))
    declare(board, 2, "S9")
    _to_play(board)
    assert board.dealer == 1 and board.trump_suit == S


def test_a_thrown_tractor_fails_only_on_a_higher_tractor_at_least_as_long() -> None:
    ctx = trump(8, H, LevelChain.THROUGH_TRUMP)
    throw = cs("S3 S3 S4 S4 S5 S5 SA")
    assert throw_failures(throw, [cs("SJ SJ SQ SQ"), [], []], ctx) == [], "a shorter tractor beats nothing"
    failed = throw_failures(throw, [cs("SJ SJ SQ SQ SK SK"), [], []], ctx)
    assert [c.pairs for c in failed] == [3]


def test_the_board_checks_a_throw_against_the_partner_s_hand_too() -> None:
    board = _staged(ShengjiBoard, ["SK SQ SQ D3", "D4 D5 D6 D7", "SA D8 D9 DT", "C3 C4 C5 C6"])
    board.apply(Action(0, "play", tuple(cs("SK SQ SQ"))))
    assert board.trick == [(0, cs("SK"))], "the partner's SA beats SK: the throw fails"


def test_the_defenders_points_never_go_below_zero() -> None:
    board = _staged(CommonBoard, ["SA D3", "SK SQ SQ D4", "D5 D6 D7 D8", "SA C3 C4 C5"], dealer=0)
    board.leader = 1
    board.side_points = [0, 0]
    board.apply(Action(1, "play", tuple(cs("SK SQ SQ"))))
    assert board.penalty_points() == -30 and board.defender_points() == 0

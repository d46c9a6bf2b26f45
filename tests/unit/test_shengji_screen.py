"""Shengji's handset screens (device protocol v2, RULES.md §5): declaring offered while the cards come,
the declaration shown to every seat with who made it, following marked on the hand, the kitty shown to
all once the board ends."""

from __future__ import annotations

import pytest
from deckhand.engines.common.cards import format_cards, parse_cards
from deckhand.engines.contract import Action
from deckhand.engines.shengji.board import DEAL_TOTAL, DECLARE, END, PLAY, CommonBoard, ShengjiBoard
from deckhand.engines.shengji.bot import ShengjiBot
from deckhand.engines.shengji.screen import screen
from test_shengji_board import _staged, cs, order_with


def lines(board: ShengjiBoard, seat: int) -> str:
    return " | ".join(screen(board, seat)["l"])


def test_while_the_cards_come_a_seat_holding_a_level_card_is_offered_declare_and_nobody_pass() -> None:
    board = ShengjiBoard.in_steps(order_with({1: "H2 S3"}))
    board.deal_step(2)  # seat 1 holds H2; seat 0 holds one card that cannot declare
    ask = screen(board, 1)["ask"]
    assert [o["a"]["k"] for o in ask["o"]] == ["declare"] and ask["s"] == [0]
    assert "ask" not in screen(board, 0) or screen(board, 0)["ask"] is None
    assert "Dealing: 2 of 100 cards out" in lines(board, 2)
    board.apply(Action(1, "declare", tuple(cs("H2"))))
    assert "by seat 1" in lines(board, 0) and "by you" in lines(board, 1)
    assert "H2" not in format_cards(board.hand(0)), "the declaration shows its card, never a hand"


def test_the_bot_declares_while_dealt_only_when_long_enough_for_the_cards_it_holds() -> None:
    board = ShengjiBoard.in_steps(order_with({2: "H2 H3 H4"}))
    bot = ShengjiBot()
    board.deal_step(3)  # seat 2 holds H2 only: one trump card of one
    assert bot.decide(board.seat_view(2)) is None
    board.deal_step(12)  # H2 H3 H4: three hearts, all trump if hearts are declared
    assert bot.decide(board.seat_view(2)) == Action(2, "declare", tuple(cs("H2")))
    assert bot.decide(board.seat_view(0)) is None


def played_to(board: ShengjiBoard, kind: str = PLAY) -> ShengjiBoard:
    bot = ShengjiBot()
    board.deal_step(DEAL_TOTAL)
    while board.phase != kind and not board.finished:
        seat = board.pending()[0]
        action = bot.decide(board.seat_view(seat))
        assert action is not None
        board.apply(action)
    return board


def test_following_marks_the_led_suit_and_names_the_pairs_that_must_go() -> None:
    board = played_to(ShengjiBoard.in_steps(order_with({})))
    ctx = board.context
    leader = board.pending()[0]
    held = board.hand(leader)
    pairs = sorted(c for c in set(held) if held.count(c) == 2)
    lead = (pairs[0], pairs[0]) if pairs else (held[0],)
    board.apply(Action(leader, "play", lead))
    seat = board.pending()[0]
    drawn = screen(board, seat)
    ask = drawn["ask"]
    hand = parse_cards(drawn["h"], decks=2, jokers=True)
    suit = ctx.eff[lead[0]]
    in_suit = [i for i, c in enumerate(hand) if ctx.eff[c] == suit]
    if len(in_suit) >= len(lead):
        assert ask["s"] == in_suit and ask["p"].startswith("Follow")
        cards = [hand[i] for i in in_suit]
        if len(lead) == 2 and any(cards.count(c) == 2 for c in cards):
            assert "pair" in ask["p"]
    else:
        assert "s" not in ask and ("Play all" in ask["p"] or ask["p"].startswith("No "))


def test_a_seat_void_in_the_led_suit_may_choose_any_card() -> None:
    board = played_to(ShengjiBoard.in_steps(order_with({})))
    ctx = board.context
    leader = board.pending()[0]
    follower, partner = (leader + 1) % 4, (leader + 3) % 4
    lead = board.hand(leader)[0]
    suit = ctx.eff[lead]
    # The follower's cards of the led suit change places with its neighbour's others (a screen test: the
    # engine never deals so, but the screen reads only the hand).
    mine = [c for c in board.hands[follower] if ctx.eff[c] == suit]
    theirs = [c for c in board.hands[partner] if ctx.eff[c] != suit][: len(mine)]
    for a, b in zip(mine, theirs, strict=True):
        board.hands[follower].remove(a)
        board.hands[partner].remove(b)
        board.hands[follower].append(b)
        board.hands[partner].append(a)
    board.apply(Action(leader, "play", (lead,)))
    ask = screen(board, follower)["ask"]
    assert "s" not in ask and ask["p"].startswith("No "), ask


def test_the_end_screen_shows_the_kitty_and_what_it_counted_to_every_seat() -> None:
    board = played_to(ShengjiBoard.in_steps(order_with({})), END)
    assert board.phase == END and board.phase != DECLARE
    for seat in range(4):
        text = lines(board, seat)
        assert "Kitty " in text and "points" in text and "next dealer" in text


@pytest.mark.parametrize(
    ("board_class", "penalty"), [(ShengjiBoard, ""), (CommonBoard, "; penalty 30 points")]
)
def test_a_failed_throw_is_shown_to_the_table_with_the_component_forced_and_004s_penalty(
    board_class: type[ShengjiBoard], penalty: str
) -> None:
    board = _staged(board_class, ["SK SQ SQ D3", "SA D4 D5 D6", "S3 D7 D8 D9", "S4 C3 C4 C5"])
    board.apply(Action(0, "play", tuple(cs("SK SQ SQ"))))
    for seat in range(4):
        assert f"Failed throw: {'you' if seat == 0 else 'seat 0'} Q♠ Q♠ K♠ → K♠{penalty}" in lines(
            board, seat
        )


def test_following_a_pair_marks_the_suit_and_names_the_pair() -> None:
    board = _staged(ShengjiBoard, ["SA SA", "S3 S3 S4 C5", "D3 D4", "C6 C7"])
    board.apply(Action(0, "play", tuple(cs("SA SA"))))
    ask = screen(board, 1)["ask"]
    assert ask["p"] == "Follow ♠: 2 cards, with 1 pair" and ask["s"] == [0, 1, 2]


def test_a_game_ended_by_a_referees_forfeit_is_drawn_without_points() -> None:
    board = _staged(ShengjiBoard, ["SA SA", "S3 S3 S4 C5", "D3 D4", "C6 C7"])
    board.apply(Action(1, "forfeit"))
    assert board.finished
    text = lines(board, 0)
    assert "Game over: forfeit by seat 1" in text and "Match points 2:0" in text


def test_the_handset_shows_the_hand_in_the_calculator_s_order() -> None:
    """Trump block first, then side suits as blocks S, H, C, D, each from A down (issue 34)."""
    board = played_to(ShengjiBoard.in_steps(order_with({})))
    for seat in range(4):
        drawn = screen(board, seat)
        hand = parse_cards(drawn["h"], decks=2, jokers=True)
        assert hand == board.context.ordered(board.hand(seat))

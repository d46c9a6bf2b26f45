"""RULES.md §2 as a state machine: every phase, every rejection, and no change on rejection."""

import json

import pytest
from deckhand.engines.bigtwo.board import DOUBLE, END, PLAY, SHOW, BigTwoBoard
from deckhand.engines.contract import Action, Rejected
from deckhand.errors import CardError, DeckhandError
from helpers import board_in_play, card, cards, hands_with


def rejects(board: BigTwoBoard, action: Action, code: str) -> None:
    """The action is refused with ``code`` and the board is exactly as before."""
    before = board.to_json()
    with pytest.raises(Rejected) as info:
        board.apply(action)
    assert info.value.code == code, info.value.message
    assert board.to_json() == before


def play(board: BigTwoBoard, seat: int, text: str) -> None:
    board.apply(Action(seat, "play", tuple(cards(text))))


def to_play_phase(board: BigTwoBoard, doubles=(0, 0, 0, 0)) -> None:
    for seat in range(4):
        board.apply(Action(seat, "show", value=0))
    for i in range(4):
        seat = (board.first + i) % 4
        board.apply(Action(seat, "double", value=doubles[seat]))


# -- deal ----------------------------------------------------------------------------------------


def test_deal_validation():
    with pytest.raises(DeckhandError, match="needs 4 hands"):
        BigTwoBoard(hands_with()[:3])
    hands = hands_with()
    hands[0] = hands[0][:12]
    with pytest.raises(CardError, match="hand of seat 0 must have 13 cards"):
        BigTwoBoard(hands)
    hands = hands_with()
    hands[1][0] = hands[0][0]
    with pytest.raises(CardError, match="appears 2 times"):
        BigTwoBoard(hands)


def test_from_order_deals_one_card_at_a_time():
    board = BigTwoBoard.from_order(list(range(52)))
    assert board.hand(0) == list(range(0, 52, 4))
    assert board.first == 0


def test_first_player_is_d3_holder():
    board = BigTwoBoard(hands_with("C3", "H3", "D3 S3"))
    assert board.first == 2


# -- show and double -------------------------------------------------------------------------------


def test_show_phase_any_order_once_each():
    board = BigTwoBoard(hands_with("C3", "H3", "D3"))
    assert board.phase == SHOW and board.pending() == [0, 1, 2, 3]
    board.apply(Action(3, "show", value=1))
    rejects(board, Action(3, "show", value=0), "already_decided")
    rejects(board, Action(2, "double", value=1), "phase_closed")
    rejects(board, Action(2, "play", (card("D3"),)), "phase_closed")
    for seat in (1, 0, 2):
        board.apply(Action(seat, "show", value=0))
    assert board.phase == DOUBLE and board.turn == 2
    rejects(board, Action(0, "show", value=1), "phase_closed")


def test_double_order_starts_with_d3_holder_and_follows_playing_order():
    board = BigTwoBoard(hands_with("C3", "H3", "D3"))
    for seat in range(4):
        board.apply(Action(seat, "show", value=0))
    rejects(board, Action(0, "double", value=1), "not_your_turn")
    order = []
    while board.phase == DOUBLE:
        order.append(board.turn)
        board.apply(Action(board.turn, "double", value=1))
    assert order == [2, 3, 0, 1]
    assert board.phase == PLAY and board.turn == 2


def test_timeouts_mean_no():
    board = BigTwoBoard(hands_with("D3"))
    for seat in range(4):
        action = board.default_action(seat)
        assert action == Action(seat, "show", value=0, timeout=True)
        board.apply(action)
    assert board.default_action(1) is None  # not seat 1's turn to double
    while board.phase == DOUBLE:
        board.apply(board.default_action(board.turn))
    assert board.shown == [0, 0, 0, 0] and board.doubled == [0, 0, 0, 0]
    assert board.default_action(board.turn) is None  # play has no default


def test_shown_hand_is_visible_to_everyone_unshown_hand_is_not():
    board = BigTwoBoard(hands_with("D3 D4", "C3 C4"))
    board.apply(Action(1, "show", value=1))
    board.apply(Action(0, "show", value=0))
    view = board.view(2)
    assert "D3" not in view["hand"]
    assert view["shown_hands"] == {"1": board.view(1)["hand"]}
    assert "C3" in view["shown_hands"]["1"]
    assert view["counts"] == [13, 13, 13, 13]
    assert "0" not in view["shown_hands"]


# -- play -------------------------------------------------------------------------------------


def test_first_lead_must_contain_d3():
    board = BigTwoBoard(hands_with("D3 C3 H4 S5 D6 C7"))
    to_play_phase(board)
    assert board.turn == 0
    rejects(board, Action(0, "play", tuple(cards("C3"))), "must_contain_d3")
    rejects(board, Action(1, "play", tuple(cards("D4"))), "not_your_turn")
    rejects(board, Action(0, "pass"), "cannot_pass_lead")
    play(board, 0, "D3 C3")
    assert board.turn == 1 and board.last == tuple(cards("D3 C3"))


def test_first_lead_may_be_any_combination_with_d3():
    board = BigTwoBoard(hands_with("D3 C4 H5 S6 D7"))
    to_play_phase(board)
    play(board, 0, "D3 C4 H5 S6 D7")
    assert board.hand(0) == sorted(set(hands_with("D3 C4 H5 S6 D7")[0]) - set(cards("D3 C4 H5 S6 D7")))


def test_play_rejections():
    board = board_in_play(["D3 C3 D5", "H3 S3 H5 C6 C7", "D4 C4", "H4 S4"], turn=1, last="D5", last_seat=0)
    rejects(board, Action(1, "play", tuple(cards("D4"))), "not_in_hand")
    rejects(board, Action(1, "play", ()), "not_a_combination")
    rejects(board, Action(1, "play", tuple(cards("H3 C6"))), "not_a_combination")
    rejects(board, Action(1, "play", tuple(cards("H3 S3"))), "wrong_size")
    rejects(board, Action(1, "play", tuple(cards("H3"))), "does_not_beat")
    rejects(board, Action(1, "play", (card("H5"), card("H5"))), "duplicate_card")
    rejects(board, Action(1, "play", (99,)), "bad_card")
    rejects(board, Action(4, "pass"), "bad_seat")
    rejects(board, Action(1, "bid", value=1), "bad_action")
    play(board, 1, "H5")


def test_pass_does_not_bar_later_play_and_three_passes_end_the_trick():
    board = board_in_play(["D3 D5 DK", "C5 CK H2", "H6 HK C2", "S6 SK S2"], turn=0, last="", last_seat=-1)
    play(board, 0, "D5")
    board.apply(Action(1, "pass"))
    play(board, 2, "H6")
    board.apply(Action(3, "pass"))
    board.apply(Action(0, "pass"))
    play(board, 1, "CK")  # passed earlier in this trick, may still play
    board.apply(Action(2, "pass"))
    board.apply(Action(3, "pass"))
    assert board.last == tuple(cards("CK"))
    board.apply(Action(0, "pass"))  # third consecutive pass: trick over, seat 1 leads
    assert board.turn == 1 and board.last == () and board.trick == [] and board.tricks_done == 1
    rejects(board, Action(1, "pass"), "cannot_pass_lead")
    play(board, 1, "C5")


def test_last_card_rule_for_the_player_before():
    # Seat 2 has one card: seat 1 (its 上家) must play its highest card as a single.
    board = board_in_play(["D3 D4", "C5 C9 H9 SK", "H6", "S6 S7"], turn=1, last="D4", last_seat=0)
    assert board.view(1)["one_card"] == [2]
    rejects(board, Action(1, "play", tuple(cards("C5"))), "must_play_highest_single")
    rejects(board, Action(1, "play", tuple(cards("H9"))), "must_play_highest_single")
    legal = {a.cards for a in board.legal_actions(1) if a.kind == "play"}
    assert legal == {tuple(cards("SK"))}
    board.apply(Action(1, "pass"))  # passing is unrestricted


def test_last_card_rule_allows_multi_card_plays():
    board = board_in_play(["D3 D4", "C5 H5 SK", "H6", "S6 S7"], turn=1, last="", last_seat=-1)
    play(board, 1, "C5 H5")


def test_last_card_rule_binds_only_the_player_before():
    # Seat 2 has one card; seat 3 is not its 上家 and may play any single.
    board = board_in_play(["D3 D4", "C5 C9", "H6", "S6 S7 SK"], turn=3, last="D4", last_seat=0)
    play(board, 3, "S6")


def test_last_card_rule_after_a_pass_still_applies():
    # Seat 3 has one card; seat 1 passes, then seat 2 (seat 3's 上家) is bound by the rule.
    board = board_in_play(["D3 D4 DA", "C5 C9 SK", "H6 H8", "S6"], turn=1, last="D4", last_seat=0)
    board.apply(Action(1, "pass"))
    rejects(board, Action(2, "play", tuple(cards("H6"))), "must_play_highest_single")
    play(board, 2, "H8")


def test_board_ends_when_a_player_has_no_cards_and_scores():
    board = board_in_play(["D3 D4", "C5 C9", "H6", "S6 S7"], turn=2, last="", last_seat=-1)
    board.doubled = [1, 0, 0, 1]
    play(board, 2, "H6")
    assert board.finished and board.phase == END and board.winner == 2
    result = board.result()
    assert result["cards_left"] == [2, 2, 0, 2]
    # factors 2,1,1,2; only differences against the winner count: (0−2)·f(i)·f(2)
    assert result["scores"] == [-4, -2, 10, -4]
    assert sum(result["scores"]) == 0
    rejects(board, Action(3, "play", tuple(cards("S6"))), "phase_closed")
    assert board.legal_actions(3) == []


def test_result_before_end_is_an_error(fresh_board):
    with pytest.raises(DeckhandError, match="not ended"):
        fresh_board.result()


# -- views, legal actions, serialization --------------------------------------------------------


def test_view_shows_only_own_hand_and_public_facts():
    board = BigTwoBoard(hands_with("D3 D4", "C3 C4"))
    to_play_phase(board)
    play(board, 0, "D3")
    view = board.view(1)
    assert "C3" in view["hand"] and "D4" not in view["hand"]
    assert view["counts"] == [12, 13, 13, 13]
    assert view["last"] == {"seat": 0, "cards": ["D3"]}
    assert view["turn"] == 1 and view["phase"] == "play"
    assert view["trick"] == [{"seat": 0, "cards": ["D3"]}]
    assert view["shown_hands"] == {}
    assert len(json.dumps(view)) < 1024


def test_legal_actions_by_phase():
    board = BigTwoBoard(hands_with("D3 D4"))
    assert {a.value for a in board.legal_actions(2)} == {0, 1}
    to_play_phase(board)
    actions = board.legal_actions(0)
    assert actions and all(card("D3") in a.cards for a in actions)
    assert all(a.kind == "play" for a in actions)
    assert board.legal_actions(1) == []


def test_json_round_trip_is_exact(fresh_board):
    board = fresh_board
    to_play_phase(board, doubles=(1, 0, 1, 0))
    first = board.legal_actions(board.turn)[0]
    board.apply(first)
    text = board.to_json()
    again = BigTwoBoard.from_json(text)
    assert again == board and again.to_json() == text
    assert " " not in text


def test_bad_state_json_is_a_clear_error():
    with pytest.raises(DeckhandError, match="not a Big Two board state"):
        BigTwoBoard.from_json('{"r":"bigtwo-2017"}')
    with pytest.raises(DeckhandError, match="rule set"):
        BigTwoBoard.from_json('{"r":"doudizhu-2016"}')

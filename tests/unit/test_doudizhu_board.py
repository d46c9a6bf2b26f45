"""The Dou Dizhu board (RULES.md §3): deal, bidding and redeal, kitty, doubling, play, spring and
anti-spring, the score formula with the seed's example, and rejections that change nothing."""

import pytest
from deckhand.engines.common.cards import format_cards, make_deck, parse_cards
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.contract import Action, Rejected
from deckhand.engines.doudizhu.board import DouDizhuBoard
from deckhand.engines.doudizhu.scoring import scores
from deckhand.errors import DeckhandError


def cards(text):
    return parse_cards(text.split(), jokers=True)


def order_for(hands, kitty):
    """The 54-card order whose round-robin deal gives these three hands and this kitty."""
    hands = [cards(h) for h in hands]
    assert all(len(h) == 17 for h in hands)
    return [hands[i % 3][i // 3] for i in range(51)] + cards(kitty)


# Seat 0: low cards; seat 1: both jokers and the 2s; seat 2: the rest. Kitty: D7 C7 H7.
HANDS = [
    "D3 C3 H3 S3 D4 C4 H4 S4 D5 C5 H5 S5 D6 C6 H6 S6 S7",
    "BJ RJ D2 C2 H2 S2 DA CA HA SA DK CK HK SK DQ CQ HQ",
    "SQ DJ CJ HJ SJ DT CT HT ST D9 C9 H9 S9 D8 C8 H8 S8",
]
KITTY = "D7 C7 H7"


def board(*deals):
    return DouDizhuBoard([order_for(HANDS, KITTY), *deals])


def snapshot(b):
    return b.to_json()


def rejected(b, action, code):
    before = snapshot(b)
    with pytest.raises(Rejected) as err:
        b.apply(action)
    assert err.value.code == code
    assert snapshot(b) == before  # a rejection changes nothing
    return err.value


def test_deal_is_17_each_round_robin_with_a_hidden_kitty():
    order = seeded_shuffle(make_deck(jokers=True), "deal")
    b = DouDizhuBoard.from_order(order)
    assert [len(b.hand(s)) for s in range(3)] == [17, 17, 17]
    assert b.hand(1) == sorted(order[1:51:3]) and b.kitty == sorted(order[51:])
    view = b.view(0)
    assert view["kitty"] == [] and view["landlord"] is None and view["phase"] == "bid"
    assert view["counts"] == [17, 17, 17] and len(view["hand"]) == 17
    assert "hand" in view and all(c not in view["hand"] for c in format_cards(b.hand(1)))


def test_an_order_must_be_whole_deals():
    with pytest.raises(DeckhandError, match="multiple of 54"):
        DouDizhuBoard.from_order(make_deck(jokers=True)[:53])
    with pytest.raises(DeckhandError):
        DouDizhuBoard.from_order(make_deck(jokers=False) + [52, 52])


def test_bidding_goes_round_once_each_higher_only_and_the_highest_bidder_takes_the_kitty():
    b = board()
    assert b.pending() == [0]  # seat 0 bids first on every board
    rejected(b, Action(1, "bid", value=1), "not_your_turn")
    rejected(b, Action(0, "bid", value=4), "bad_bid")
    rejected(b, Action(0, "play", tuple(cards("D3"))), "phase_closed")
    b.apply(Action(0, "bid", value=1))
    rejected(b, Action(1, "bid", value=1), "bid_too_low")
    assert [a.value for a in b.legal_actions(1)] == [0, 2, 3]
    b.apply(Action(1, "bid", value=2))
    b.apply(Action(2, "bid", value=0))
    assert b.landlord == 1 and b.high == 2 and b.phase == "double"
    assert len(b.hand(1)) == 20 and set(cards(KITTY)) <= set(b.hand(1))
    for seat in range(3):
        assert b.view(seat)["kitty"] == ["D7", "C7", "H7"]  # shown to all
    assert b.view(0)["bids"] == [1, 2, 0]
    rejected(b, Action(0, "bid", value=3), "phase_closed")


def test_a_bid_of_three_ends_bidding_at_once():
    b = board()
    b.apply(Action(0, "bid", value=3))
    assert b.landlord == 0 and b.high == 3 and b.phase == "double" and b.pending() == [1, 2]


def test_all_pass_deals_the_boards_next_deal_and_past_the_last_the_first_again():
    second = seeded_shuffle(make_deck(jokers=True), "second")
    b = board(second)
    for seat in range(3):
        b.apply(Action(seat, "bid", value=0))
    assert b.phase == "bid" and b.redeals == 1 and b.view(0)["deal"] == 2
    assert b.hand(0) == sorted(second[0:51:3]) and b.bids == [-1, -1, -1]
    for seat in range(3):
        b.apply(Action(seat, "bid", value=0))
    assert b.redeals == 2 and b.view(0)["deal"] == 3 and b.hand(0) == sorted(cards(HANDS[0]))
    # The same board at another table, the same decisions: the very same deals.
    other = board(second)
    for seat in [0, 1, 2, 0, 1, 2]:
        other.apply(Action(seat, "bid", value=0))
    assert other == b


def test_doubling_by_each_defender_then_the_landlords_redouble():
    b = board()
    b.apply(Action(0, "bid", value=0))
    b.apply(Action(1, "bid", value=3))
    assert b.pending() == [0, 2]  # both defenders decide, in any order
    rejected(b, Action(1, "double", value=1), "not_your_turn")
    b.apply(Action(2, "double", value=1))
    rejected(b, Action(2, "double", value=0), "already_decided")
    rejected(b, Action(1, "play", tuple(cards("BJ"))), "phase_closed")
    b.apply(Action(0, "double", value=0))
    assert b.phase == "redouble" and b.pending() == [1]
    rejected(b, Action(0, "double", value=1), "not_your_turn")
    b.apply(Action(1, "double", value=1))
    assert b.phase == "play" and b.pending() == [1] and b.redoubled == 1
    assert b.view(0)["doubled"] == [False, None, True] and b.view(0)["redoubled"] is True


def test_no_redouble_when_no_defender_doubled_and_timeouts_mean_no():
    b = board()
    assert b.default_action(0) == Action(0, "bid", value=0, timeout=True)
    b.apply(Action(0, "bid", value=2))
    b.apply(b.default_action(1))
    b.apply(b.default_action(2))
    assert b.landlord == 0
    assert b.default_action(1) == Action(1, "double", value=0, timeout=True)
    assert b.default_action(0) is None  # the landlord does not double
    b.apply(b.default_action(1))
    b.apply(b.default_action(2))
    assert b.phase == "play" and b.redoubled == -1 and b.default_action(0) is None


def start_play(landlord_bid_by=0):
    b = board()
    for seat in range(3):
        b.apply(Action(seat, "bid", value=3 if seat == landlord_bid_by else 0))
        if b.phase != "bid":
            break
    for seat in b.pending():
        b.apply(Action(seat, "double", value=0))
    return b


def test_play_follows_the_trick_and_refuses_what_does_not_beat():
    b = start_play(0)  # seat 0 is landlord with 20 cards
    rejected(b, Action(0, "pass"), "cannot_pass_lead")
    rejected(b, Action(0, "play", tuple(cards("D3 C4"))), "not_a_combination")
    rejected(b, Action(0, "play", tuple(cards("BJ"))), "not_in_hand")
    rejected(b, Action(1, "play", tuple(cards("BJ"))), "not_your_turn")
    b.apply(Action(0, "play", tuple(cards("D3 C3"))))
    rejected(b, Action(1, "play", tuple(cards("BJ"))), "wrong_type")
    rejected(b, Action(1, "play", tuple(cards("DK CK DA CA HA"))), "wrong_type")
    b.apply(Action(1, "play", tuple(cards("DQ CQ"))))
    rejected(b, Action(2, "play", tuple(cards("DJ CJ"))), "does_not_beat")
    b.apply(Action(2, "pass"))
    b.apply(Action(0, "pass"))
    assert b.pending() == [1] and b.last == ()  # two passes: the trick's winner leads
    b.apply(Action(1, "play", tuple(cards("BJ RJ"))))
    assert b.rockets == 1
    b.apply(Action(2, "pass"))
    b.apply(Action(0, "pass"))
    b.apply(Action(1, "play", tuple(cards("DK CK HK SK"))))
    rejected(b, Action(2, "play", tuple(cards("D8 C8 H8 S8"))), "does_not_beat")  # a lower bomb
    b.apply(Action(2, "pass"))
    rejected(b, Action(0, "play", tuple(cards("D4 C4 H4 S4"))), "does_not_beat")


def test_a_chain_needs_the_same_length_and_a_bomb_beats_it():
    b = start_play(0)  # the landlord holds 3333 4444 5555 6666 7777
    b.apply(Action(0, "play", tuple(cards("D3 C3 D4 C4 D5 C5 D6 C6"))))
    rejected(b, Action(1, "play", tuple(cards("DQ CQ DK CK DA CA"))), "wrong_size")
    rejected(b, Action(1, "play", tuple(cards("DQ DK DA D2 BJ"))), "not_a_combination")
    b.apply(Action(1, "pass"))
    b.apply(Action(2, "play", tuple(cards("D8 C8 D9 C9 DT CT DJ CJ"))))
    b.apply(Action(0, "play", tuple(cards("D7 C7 H7 S7"))))
    assert b.bombs == 1
    rejected(b, Action(1, "play", tuple(cards("DQ CQ DK CK DA CA D2 C2"))), "not_a_combination")
    b.apply(Action(1, "play", tuple(cards("DA CA HA SA"))))
    assert b.bombs == 2 and b.pending() == [2]
    rejected(b, Action(2, "play", tuple(cards("H8 S8 H9 S9 HT ST HJ SJ"))), "does_not_beat")


def test_spring_when_no_defender_played_a_card():
    # Landlord (seat 0) with bid 1 leads a straight of 12, then the rest; the defenders never play.
    hands = [
        "D3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK DA C3 C4 C5 C6 C7",
        "BJ RJ D2 C2 H2 S2 CA HA SA CK HK SK CQ HQ SQ CJ HJ",
        "SJ CT HT ST C9 H9 S9 C8 H8 S8 H7 S7 H6 S6 H5 S5 H4",
    ]
    b = DouDizhuBoard([order_for(hands, "S4 H3 S3")])
    b.apply(Action(0, "bid", value=1))
    b.apply(Action(1, "bid", value=0))
    b.apply(Action(2, "bid", value=0))
    b.apply(Action(1, "double", value=1))
    b.apply(Action(2, "double", value=0))
    b.apply(Action(0, "double", value=0))
    b.apply(Action(0, "play", tuple(cards("D3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK DA"))))
    b.apply(Action(1, "pass"))
    b.apply(Action(2, "pass"))
    b.apply(Action(0, "play", tuple(cards("C3 H3 S3 C4"))))
    b.apply(Action(1, "pass"))
    b.apply(Action(2, "pass"))
    assert b.hand(0) == sorted(cards("C5 C6 C7 S4"))
    rejected(b, Action(0, "play", tuple(cards("C5 C6 C7 S4"))), "not_a_combination")
    b.apply(Action(0, "play", tuple(cards("S4"))))
    for card in ("C5", "C6", "C7"):
        b.apply(Action(1, "pass"))
        b.apply(Action(2, "pass"))
        b.apply(Action(0, "play", tuple(cards(card))))
    result = b.result()
    assert result["spring"] is True and result["anti_spring"] is False and result["defenders_won"] is False
    # n = spring 1 (+1 for seat 1's double, no redouble): seat 1 = -1·1·2^2, seat 2 = -1·1·2^1.
    assert result["scores"] == [6, -4, -2]


def test_anti_spring_when_the_landlord_played_only_its_first_lead():
    b = start_play(0)
    b.apply(Action(0, "play", tuple(cards("D3"))))
    b.apply(Action(1, "play", tuple(cards("RJ"))))
    b.apply(Action(2, "pass"))
    b.apply(Action(0, "pass"))
    seat1 = b.hand(1)
    assert len(seat1) == 16
    # Seat 1 plays everything out; the landlord cannot answer 2s, bombs or the rest.
    plays = ["BJ", "D2 C2 H2 S2", "DA CA HA SA", "DK CK HK SK", "DQ CQ HQ"]
    for i, text in enumerate(plays):
        b.apply(Action(1, "play", tuple(cards(text))))
        if i < len(plays) - 1:
            b.apply(Action(2, "pass"))
            b.apply(Action(0, "pass"))
    result = b.result()
    assert result["winner"] == 1 and result["defenders_won"] is True
    assert result["anti_spring"] is True and result["bombs"] == 3 and result["rockets"] == 0
    # n = 3 bombs + anti-spring = 4 for both defenders; bid 3: 3·2^4 = 48 each.
    assert result["scores"] == [-96, 48, 48]


# Seed 001, appendix 1: bid 3, defender 1 doubled, the landlord redoubled, the landlord led once and
# never again (anti-spring), one rocket and one bomb, the defenders won.
SEED_EXAMPLE = dict(
    bid=3,
    landlord=0,
    defenders_won=True,
    bombs=1,
    rockets=1,
    spring=False,
    anti_spring=True,
    doubled=[False, True, False],
    redoubled=True,
)


def test_the_seed_example_scores_exactly():
    assert scores(**SEED_EXAMPLE) == [-120, 96, 24]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"bid": 0}, "bid must be"),
        ({"landlord": 3}, "landlord"),
        ({"rockets": 2}, "rockets"),
        ({"spring": True}, "spring"),
        ({"redoubled": True, "doubled": [False, False, False]}, "redouble"),
        ({"doubled": [False, True]}, "3 entries"),
    ],
)
def test_impossible_score_inputs_are_refused(change, message):
    args = SEED_EXAMPLE
    with pytest.raises(DeckhandError, match=message):
        scores(**{**args, **change})


def test_state_round_trips_through_json_mid_board():
    b = start_play(1)
    b.apply(Action(1, "play", tuple(cards("DQ"))))
    again = DouDizhuBoard.from_json(b.to_json())
    assert again == b and again.view(2) == b.view(2)
    with pytest.raises(DeckhandError, match="rule set"):
        DouDizhuBoard.from_json(b.to_json().replace("doudizhu-2016", "bigtwo-2017"))

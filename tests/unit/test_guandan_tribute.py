"""Guandan tribute and return (RULES.md §4 "Tribute", §4.2; 002 第十条): the highest card but the heart
level card, 双贡 and equal tributes, resisting with both red jokers, returns to a partner or an opponent."""

import pytest
from deckhand.engines.common.cards import format_cards, parse_card, parse_cards
from deckhand.engines.guandan import tribute as tb
from deckhand.engines.guandan.levels import ReturnRule
from deckhand.engines.guandan.referee import OPS

SEVEN = 4  # rank index of 7 (3…A,2 = 0…12): level "7"
FIVE = 2


def C(text):
    return parse_cards(text.split(), decks=2, jokers=True)


def test_strength_follows_the_level_order():
    order = [tb.strength(parse_card(t), SEVEN) for t in ("S2", "S3", "SA", "S7", "BJ", "RJ")]
    assert order == sorted(order) and len(set(order)) == 6
    assert tb.strength(parse_card("H7"), SEVEN) == tb.strength(parse_card("S7"), SEVEN)


def test_tribute_is_the_highest_card_not_the_heart_level_card():
    hand = C("H7 D3 C4 SA DA")
    assert tb.tribute_cards(hand, SEVEN) == C("DA SA")  # ♥7 is wild and never paid; any suit of A
    assert tb.tribute_cards(C("H7 S7 SA BJ"), SEVEN) == C("BJ")
    assert tb.tribute_cards(C("H7 S7 D7 SA"), SEVEN) == sorted(C("D7 S7"))
    assert tb.tribute_ok(parse_card("SA"), hand, SEVEN) and not tb.tribute_ok(parse_card("H7"), hand, SEVEN)


def test_ten_or_lower_means_a_natural_2_to_10_not_of_the_level_rank():
    assert tb.is_small(parse_card("ST"), SEVEN) and tb.is_small(parse_card("S2"), SEVEN)
    assert not tb.is_small(parse_card("SJ"), SEVEN)
    assert not tb.is_small(parse_card("S7"), SEVEN)  # level cards rank above A
    assert not tb.is_small(parse_card("S2"), 12)  # at level 2 a 2 is a level card
    assert not tb.is_small(parse_card("BJ"), SEVEN)


def test_return_to_a_partner_is_10_or_lower_else_the_lowest_card():
    hand = C("S3 HT SJ SA BJ")
    assert tb.return_cards(hand, SEVEN, True, ReturnRule.R2023) == C("S3 HT")
    high = C("SJ DJ SQ SA BJ")
    assert tb.return_cards(high, SEVEN, True, ReturnRule.R2023) == C("DJ SJ")
    assert tb.return_ok(parse_card("SA"), hand, SEVEN, False, ReturnRule.R2023)  # to an opponent any card
    assert not tb.return_ok(parse_card("SA"), hand, SEVEN, True, ReturnRule.R2023)


def test_the_2022_option_always_returns_10_or_lower():
    hand = C("S3 HT SJ SA BJ")
    assert tb.return_cards(hand, SEVEN, False, ReturnRule.R2022) == C("S3 HT")
    assert not tb.return_ok(parse_card("SA"), hand, SEVEN, False, ReturnRule.R2022)


def hands_with(**seats):
    """Four hands: each seat's listed cards plus two low cards of its own (seat s: rank 3+s)."""
    return [C(seats.get(f"s{s}", "")) + [s * 4, s * 4 + 1] for s in range(4)]


def test_single_tribute_last_finisher_pays_first_and_leads():
    hands = hands_with(s3="BJ")
    plan, transfers, leader = tb.auto_tribute([0, 1, 2, 3], hands, SEVEN)
    assert plan.payers == (3,) and not plan.double and not plan.resisted
    assert transfers == [tb.Transfer(3, 0, parse_card("BJ"))] and leader == 3


def test_the_last_finisher_pays_even_its_own_partner_and_three_out_orders_work():
    plan = tb.plan([0, 1, 3, 2], hands_with())
    assert plan.payers == (2,)
    assert tb.plan([0, 1, 3], hands_with()).payers == (2,)


def test_a_single_payer_with_both_red_jokers_resists_and_the_first_finisher_leads():
    plan, transfers, leader = tb.auto_tribute([0, 1, 2, 3], hands_with(s3="RJ RJ"), SEVEN)
    assert plan.resisted and transfers == [] and leader == 0


def test_a_single_payer_with_one_red_joker_pays():
    plan = tb.plan([0, 1, 2, 3], hands_with(s3="RJ", s1="RJ"))
    assert not plan.resisted and plan.payers == (3,)


def test_double_tribute_higher_card_to_the_first_finisher_and_its_payer_leads():
    hands = hands_with(s1="SA", s3="BJ")
    plan, transfers, leader = tb.auto_tribute([0, 2, 1, 3], hands, SEVEN)
    assert plan.double and set(plan.payers) == {1, 3}
    assert transfers == [tb.Transfer(3, 0, parse_card("BJ")), tb.Transfer(1, 2, parse_card("SA"))]
    assert leader == 3


def test_equal_double_tributes_go_clockwise_and_the_first_finishers_next_seat_leads():
    """§4.2: seat first+1 pays the first finisher, first+3 pays the second; first+1 leads."""
    hands = hands_with(s0="BJ", s2="BJ")
    plan, transfers, leader = tb.auto_tribute([1, 3, 0, 2], hands, SEVEN)
    assert transfers == [tb.Transfer(2, 1, parse_card("BJ")), tb.Transfer(0, 3, parse_card("BJ"))]
    assert leader == 2


@pytest.mark.parametrize("split", [{"s1": "RJ", "s3": "RJ"}, {"s3": "RJ RJ"}])
def test_double_tribute_resisted_by_both_red_jokers_anywhere_in_the_paying_side(split):
    plan, transfers, leader = tb.auto_tribute([0, 2, 1, 3], hands_with(**split), SEVEN)
    assert plan.resisted and transfers == [] and leader == 0


def test_tribute_and_return_ok_ops():
    hands = hands_with(s1="RJ", s3="SK")
    tokens = [format_cards(h) for h in hands]
    answer = OPS["tribute"]({"op": "tribute", "level": "7", "order": [0, 2, 1, 3], "hands": tokens})
    assert answer == {
        "resisted": False,
        "tributes": [{"from": 1, "to": 0, "card": "RJ"}, {"from": 3, "to": 2, "card": "SK"}],
        "leader": 1,
    }
    ok = OPS["return_ok"]
    assert ok({"op": "return_ok", "level": "7", "from": 0, "to": 1, "card": "S9", "partner": False}) == {
        "ok": True
    }
    assert ok({"level": "7", "from": 0, "to": 2, "card": "SJ"}) == {"ok": False}
    assert ok({"level": "7", "from": 0, "to": 2, "card": "S7"}) == {"ok": False}
    assert ok({"level": "7", "from": 0, "to": 1, "card": "SJ", "rule": "2022"}) == {"ok": False}
    assert ok({"level": "7", "from": 0, "to": 2, "card": "SJ", "hand": ["SJ", "SQ", "BJ"]}) == {"ok": True}


def test_a_resisted_plan_assigns_nothing_and_the_first_finisher_leads():
    plan = tb.Plan(first=2, payers=(), resisted=True, double=True)
    assert tb.assign(plan, {}, 5) == ([], 2) and plan.leader_if_no_tribute == 2

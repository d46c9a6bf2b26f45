"""RULES.md §2: classification and comparison of Big Two combinations."""

import pytest
from deckhand.engines.bigtwo.combos import beats, classify
from helpers import cards


def kind(text: str) -> str | None:
    combo = classify(sorted(cards(text)))
    return combo.name if combo else None


def wins(play: str, prev: str) -> bool:
    a, b = classify(cards(prev)), classify(cards(play))
    assert a is not None and b is not None
    return beats(a, b)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("D8", "single"),
        ("D5 S5", "pair"),
        ("D5 S6", None),
        ("C3 H3 S3", "triple"),
        ("C3 H3 S4", None),
        ("D3 C4 H5 S6 D7", "straight"),
        ("D3 C5 H6 S7 D8", None),
        ("HA D2 C3 S4 H5", "straight"),  # A2345: A first
        ("D2 C3 H4 S5 D6", "straight"),  # 23456
        ("ST CJ HQ SK DA", "straight"),  # TJQKA: A last
        ("SJ CQ HK SA D2", None),  # JQKA2: A inside
        ("SQ CK HA S2 D3", None),  # QKA23
        ("SK CA H2 S3 D4", None),  # KA234
        ("H3 H4 H5 H6 H8", "flush"),
        ("C9 H9 S9 D4 C4", "full_house"),
        ("D8 C8 H8 S8 D3", "four_of_a_kind"),
        ("S3 S4 S5 S6 S7", "straight_flush"),
        ("HA H2 H3 H4 H5", "straight_flush"),
        ("HT HJ HQ HK HA", "straight_flush"),
        ("D3 C3 H3 S3", None),  # four cards alone are no play
        ("D3 C4 H5 S6", None),
        ("D3 C3 H4 S4", None),
        ("D3 C3 H3 S3 D4 C4", None),
        ("", None),
    ],
)
def test_classify(text, expected):
    assert kind(text) == expected


def test_singles_rank_then_suit():
    assert wins("D2", "SA")
    assert wins("S2", "H2") and not wins("H2", "S2")
    assert wins("H3", "C3") and wins("C3", "D3")
    assert not wins("D3", "D3")


def test_pairs_and_triples_by_rank_then_highest_suit():
    assert wins("D6 C6", "H5 S5")
    assert wins("D9 S9", "C9 H9")  # same rank: the pair holding the spade wins
    assert not wins("D9 H9", "C9 S9")
    assert wins("D4 C4 H4", "D3 C3 H3")


def test_five_card_class_order():
    order = [
        "D3 C4 H5 S6 D7",  # straight
        "H3 H4 H5 H6 H8",  # flush
        "C4 H4 S4 D3 C3",  # full house
        "D5 C5 H5 S5 D3",  # four of a kind
        "C3 C4 C5 C6 C7",  # straight flush
    ]
    for low, high in zip(order, order[1:], strict=False):
        assert wins(high, low) and not wins(low, high)
    # the lowest of a higher class beats the highest of a lower class
    assert wins("D3 D4 D5 D6 D8", "HA S2 D3 C4 S5")


def test_straights_decided_by_their_highest_card():
    # 23456 and A2345 are decided by their 2: the highest straights, the suit of the 2 decides.
    assert wins("D2 C3 H4 S5 D6", "ST CJ HQ SK SA")
    assert wins("HA S2 D3 C4 D5", "SA H2 D3 C4 S5")
    assert wins("SA H2 D3 C4 S5", "D2 C3 H4 S5 S6")
    assert not wins("HA D2 D3 C4 S5", "D2 C3 H4 S5 S6")
    assert wins("ST CJ HQ SK DA", "S9 CT HJ SQ SK")
    assert wins("D9 CT HJ SQ SK", "S9 CT HJ SQ HK")  # same top rank: suit of the top card


def test_flush_decided_by_highest_card_then_suit():
    assert wins("D3 D4 D5 D6 DA", "S3 S4 S5 S6 SK")
    assert wins("S3 S4 S5 S6 SA", "D9 DT DJ DQ DA")
    assert not wins("D3 D4 D5 D6 D8", "S3 S4 S5 S6 S9")


def test_full_house_and_four_by_their_rank():
    assert wins("D4 C4 H4 D3 C3", "D3 C3 H3 SA HA")
    assert wins("D5 C5 H5 D3 C3", "D4 C4 H4 S2 H2")
    assert wins("D4 C4 H4 S4 D3", "D3 C3 H3 S3 S2")
    assert not wins("D4 C4 H4 S4 D3", "D4 C4 H4 S4 D3")  # equal is not beating


def test_straight_flush_order():
    assert wins("D2 D3 D4 D5 D6", "HT HJ HQ HK HA")
    assert wins("S9 ST SJ SQ SK", "H9 HT HJ HQ HK")


def test_different_sizes_never_beat():
    assert not wins("D2 S2", "D3")
    assert not wins("S2", "D3 C3")
    assert not wins("D3 C4 H5 S6 D7", "D2 S2 C2")

"""Dou Dizhu combinations and their comparison (RULES.md §3): every type, every kicker ruling."""

import pytest
from deckhand.engines.common.cards import parse_cards
from deckhand.engines.doudizhu.combos import beats, classify


def combo(text):
    return classify(parse_cards(text.split(), jokers=True))


def kind(text):
    c = combo(text)
    return c.type if c else None


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("D3", "single"),
        ("RJ", "single"),
        ("D3 C3", "pair"),
        ("D2 S2", "pair"),
        ("BJ RJ", "rocket"),
        ("D3 C4", None),
        ("D3 C3 H3", "triple"),
        ("D3 C3 H3 S3", "bomb"),
        ("D3 C3 H3 D4", "triple_single"),
        ("D3 C3 H3 RJ", "triple_single"),
        ("D3 C3 H3 D4 C4", "triple_pair"),
        ("D3 C3 H3 D4 C5", None),
        ("D3 C3 H3 BJ RJ", None),  # the jokers are no pair
        ("D3 D4 D5 D6 D7", "straight"),
        ("DT DJ DQ DK DA", "straight"),
        ("D3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK DA", "straight"),
        ("D3 D4 D5 D6", None),  # four cards are no straight
        ("DJ DQ DK DA D2", None),  # 2 never in a chain
        ("DQ DK DA D2 BJ", None),
        ("D3 D4 D5 D6 D8", None),
        ("D3 C3 D4 C4 D5 C5", "pair_straight"),
        ("DQ CQ DK CK DA CA", "pair_straight"),
        ("D3 C3 D4 C4", None),  # two pairs are no pair straight
        ("DK CK DA CA D2 C2", None),
        ("D3 C3 H3 D4 C4 H4", "plane"),
        ("DK CK HK DA CA HA", "plane"),
        ("DA CA HA D2 C2 H2", None),
        ("D3 C3 H3 D5 C5 H5", None),  # not consecutive
        ("D3 C3 H3 D4 C4 H4 D7 D9", "plane_singles"),
        ("D3 C3 H3 D4 C4 H4 D7 C7", "plane_singles"),  # two single wings may be a pair (333444+55)
        ("D3 C3 H3 D4 C4 H4 D7 C7 D8 C8", "plane_pairs"),
        ("D3 C3 H3 D4 C4 H4 D7 C7 S7 H7", None),  # a pair's wings of one rank: four of a kind
        ("D5 C5 H5 S5 D3 D9", "four_two_singles"),
        ("D5 C5 H5 S5 D3 C3", "four_two_singles"),  # 5555+33
        ("D5 C5 H5 S5 D3 C3 D9 C9", "four_two_pairs"),
        ("D5 C5 H5 S5 D3 C3 H3 S3", None),  # 33334444-like: four of a kind is never kickers
        ("D3 C3 H3 S3 D4 C4 H4 S4", None),  # 33334444 is not a play
        ("D5 C5 H5 S5 BJ RJ", None),  # kickers never both jokers
        ("D3 C3 H3 D4 C4 H4 BJ RJ", None),
        ("D3 C3 H3 D4 C4 H4 S3 D5", None),  # kicker of the plane's own rank
        ("D5 C5 H5 S5 D2 C2 BJ", None),
    ],
)
def test_classify(cards, expected):
    assert kind(cards) == expected


def test_a_planes_wings_may_not_be_a_triple_that_extends_it():
    assert kind("D3 C3 H3 D4 C4 H4 D5 C5 H5 D6 C6 H6") == "plane"  # only the plane 333444555666
    assert combo("D3 C3 H3 D4 C4 H4 D5 C5 H5 D6 C6 H6").length == 4
    # Three single wings of one rank that does not touch the plane are still wings.
    assert kind("D3 C3 H3 D4 C4 H4 D5 C5 H5 D8 C8 H8") == "plane_singles"
    # Five consecutive triples and one card: either plane of four has an extending triple as wings.
    assert kind("D3 C3 H3 D4 C4 H4 D5 C5 H5 D6 C6 H6 D7 C7 H7 D9") is None


def test_plane_with_wings_reads_its_main_part():
    c = combo("D9 C9 H9 DT CT HT D3 C3")
    assert (c.type, c.rank, c.length, c.size) == ("plane_singles", 6, 2, 8)
    c = combo("D3 C3 H3 D4 C4 H4 D5 C5 H5 D6 C6 D7 C7 D8 C8")
    assert (c.type, c.rank, c.length) == ("plane_pairs", 0, 3)


def test_pair_wings_are_of_different_ranks_and_no_jokers():
    assert kind("D3 C3 H3 D4 C4 H4 D9 C9 H9 S9") is None
    assert kind("D5 C5 H5 S5 D9 C9 H9 S9") is None


@pytest.mark.parametrize(
    ("prev", "play", "expected"),
    [
        ("D3", "D4", True),
        ("D4", "C4", False),  # suits never matter
        ("D2", "BJ", True),
        ("BJ", "RJ", True),
        ("RJ", "D3 C3 H3 S3", True),  # a bomb beats every non-bomb
        ("D3 C3", "D4 C4", True),
        ("D3 C3", "D4", False),
        ("D3 D4 D5 D6 D7", "D4 D5 D6 D7 D8", True),
        ("D3 D4 D5 D6 D7", "D4 D5 D6 D7 D8 D9", False),  # same type, different length
        ("D3 C3 H3 D9", "D4 C4 H4 D5", True),  # the main part decides, not the kicker
        ("D4 C4 H4 DA", "D3 C3 H3 D2", False),
        ("D3 C3 H3 D4 C4 H4 D7 D8", "D4 C4 H4 D5 C5 H5 D3 D6", True),
        ("D3 C3 H3 D4 C4 H4 D7 D8", "D4 C4 H4 D5 C5 H5", False),
        ("D5 C5 H5 S5 D3 D9", "D6 C6 H6 S6 D3 D8", True),
        ("D5 C5 H5 S5 D3 D9", "D3 C3 H3 S3", True),  # four-with-two is no bomb
        ("D5 C5 H5 S5", "D6 C6 H6 S6", True),
        ("D6 C6 H6 S6", "D5 C5 H5 S5", False),
        ("D6 C6 H6 S6", "BJ RJ", True),
        ("BJ RJ", "D2 C2 H2 S2", False),
        ("D2 C2 H2 S2", "D3 C3 D4 C4 D5 C5", False),
    ],
)
def test_beats(prev, play, expected):
    assert beats(combo(prev), combo(play)) is expected

"""Guandan combinations (RULES.md §4, §4.2; seed 002 第四条, 第七条, 第八条): readings, wilds, bomb order,
JSON, and the referee's classify/beats ops."""

from typing import Any

import pytest
from deckhand.engines.common.cards import format_cards, parse_cards
from deckhand.engines.guandan.combos import (
    Combo,
    Reading,
    beats,
    reading_from_json,
    reading_to_json,
    readings,
)
from deckhand.engines.guandan.referee import OPS, parse_level_rank
from deckhand.errors import DeckhandError
from hypothesis import given
from hypothesis import strategies as st


def cards(text: str) -> list[int]:
    return parse_cards(text.split(), decks=2, jokers=True)


def lv(token: str) -> int:
    return parse_level_rank(token)


def read(text: str, level: str = "2") -> list[tuple[str, str | None, int]]:
    """Readings as (type name, rank token, size) — the referee's view."""
    out = []
    for r in readings(cards(text), lv(level)):
        j = reading_to_json(r)
        out.append((j["type"], j["rank"], r.size))
    return out


def one(text: str, level: str = "2") -> Reading:
    found = readings(cards(text), lv(level))
    assert len(found) == 1, found
    return found[0]


def classify(level: str, tokens: str) -> dict[str, Any]:
    return OPS["classify"]({"op": "classify", "level": level, "cards": tokens.split()})


# ------------------------------------------------------------------------------------- conventions


def test_interface_constants() -> None:
    assert [c.json_name for c in Combo] == [
        "single",
        "pair",
        "triple",
        "full_house",
        "straight",
        "pair_straight",
        "triple_straight",
        "bomb",
        "straight_flush",
        "joker_bomb",
    ]
    assert lv("2") == 12 and lv("3") == 0 and lv("A") == 11 and lv("10") == lv("T") == 7


def test_issue_classify_example() -> None:
    # RULES.md §4.2: H7 S5 S6 S8 S9 at level 7 reads as a straight and a straight flush, both topped by 9.
    assert classify("7", "H7 S5 S6 S8 S9") == {
        "readings": [{"type": "straight", "rank": "9"}, {"type": "straight_flush", "rank": "9"}]
    }


def test_no_reading_is_empty_list() -> None:
    assert classify("7", "S3 S5") == {"readings": []}
    assert readings([], 0) == []
    assert read("S3 S3 C3 C3 D3 D3 H3 H3 H5 H5 S4", "5") == []  # 11 cards: no play has that many
    assert read("S3 S3 C3 C3 D3 D3 H3 H3 H5 H5", "5") == [("bomb", "3", 10)]


# ------------------------------------------------------------------------- §4 rank order, level cards


def test_level_cards_rank_above_ace_below_jokers() -> None:
    single = {t: one(t, "7") for t in ("SA", "S7", "H7", "BJ", "RJ", "S2", "S3")}
    assert beats(single["S7"], single["SA"]) and not beats(single["SA"], single["S7"])
    assert beats(single["BJ"], single["S7"]) and beats(single["RJ"], single["BJ"])
    assert beats(single["S3"], single["S2"])  # 2 is the lowest natural card
    assert not beats(single["H7"], single["S7"]) and not beats(single["S7"], single["H7"])  # equal
    assert reading_to_json(single["BJ"]) == {"type": "single", "rank": "BJ"}
    assert reading_to_json(single["RJ"]) == {"type": "single", "rank": "RJ"}


def test_level_two_is_above_ace() -> None:
    assert beats(one("S2 C2", "2"), one("SA CA", "2"))
    assert not beats(one("S2 C2", "3"), one("SA CA", "3"))


def test_suits_never_matter_outside_straight_flushes() -> None:
    assert not beats(one("S9"), one("D9")) and not beats(one("D9"), one("S9"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("S9", [("single", "9", 1)]),
        ("S9 D9", [("pair", "9", 2)]),
        ("S9 S9", [("pair", "9", 2)]),  # two decks: identical cards make a pair
        ("S9 D9 C9", [("triple", "9", 3)]),
        ("S9 D9 C9 S5 D5", [("full_house", "9", 5)]),
        ("S9 D9 C9 H9", [("bomb", "9", 4)]),
        ("BJ BJ", [("pair", "BJ", 2)]),
        ("RJ RJ", [("pair", "RJ", 2)]),
        ("BJ BJ RJ RJ", [("joker_bomb", None, 4)]),
        ("S9 D8", []),
        ("BJ RJ", []),  # jokers of two colours are no pair
        ("S9 D9 C8", []),
        ("S9 S9 D9 D9", [("bomb", "9", 4)]),
        ("S3 S4 S5 S6", []),
        ("S3 D3 S4 D4", []),  # two consecutive pairs are no play (第四条三)
    ],
)
def test_basic_types(text: str, expected: list[tuple[str, str | None, int]]) -> None:
    assert read(text, "2") == expected


# ------------------------------------------------------------------------------------ full house


def test_full_house_compared_by_triple_only() -> None:
    low = one("S5 D5 C5 SA DA", "2")
    high = one("S6 D6 C6 S3 D3", "2")
    assert low.type == Combo.FULL_HOUSE and beats(high, low) and not beats(low, high)
    assert not beats(one("S5 D5 C5 SK DK", "2"), low)  # same triple: equal whatever the pair


def test_full_house_by_level_triple() -> None:
    # Level 7: a triple of level cards is above AAA.
    assert beats(one("S7 D7 C7 S3 D3", "7"), one("SA DA CA SK DK", "7"))


def test_five_of_a_rank_is_a_bomb_never_a_full_house() -> None:
    # §4.2: 33333 is a five-card bomb only.
    assert read("S3 S3 D3 C3 H3", "2") == [("bomb", "3", 5)]


def test_full_house_with_a_pair_of_identical_jokers() -> None:
    assert read("S3 D3 C3 BJ BJ", "2") == [("full_house", "3", 5)]
    assert read("S3 D3 C3 RJ RJ", "2") == [("full_house", "3", 5)]
    assert read("S3 D3 C3 BJ RJ", "2") == []  # two different jokers are no pair
    assert read("BJ BJ RJ RJ S3", "2") == []


def test_triple_plus_single_or_two_odd_cards_is_no_play() -> None:
    # 第四条六: a triple carries a pair only.
    assert read("S9 D9 C9 S5", "2") == []
    assert read("S9 D9 C9 S5 D6", "2") == []


# ------------------------------------------------------------------------------------- sequences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SA D2 C3 S4 D5", [("straight", "5", 5)]),  # A2345, ranked by its 5
        ("ST DJ CQ SK DA", [("straight", "A", 5)]),  # TJQKA
        ("SJ DQ CK SA D2", []),  # JQKA2 never (第四条七)
        ("SQ DK CA S2 D3", []),  # no wrap-around
        ("S3 D4 C5 S6 D7 C8", []),  # exactly five (第四条七 五张且只能五张)
        ("S3 D4 C5 S6", []),
        ("S3 D4 C5 S6 D8", []),
        ("S3 D3 S4 D4 S5 D5", [("pair_straight", "5", 6)]),
        ("SA DA S2 D2 S3 D3", [("pair_straight", "3", 6)]),  # AA2233
        ("SQ DQ SK DK SA DA", [("pair_straight", "A", 6)]),  # QQKKAA
        ("SK DK SA DA S2 D2", []),  # KKAA22 never
        ("S3 D3 S4 D4 S5 D5 S6 D6", []),  # four pairs: no (第四条三)
        ("S3 D3 S4 D4", []),  # two pairs: no
        ("S3 D3 C3 S4 D4 C4", [("triple_straight", "4", 6)]),
        ("SA DA CA S2 D2 C2", [("triple_straight", "2", 6)]),  # AAA222
        ("SK DK CK SA DA CA", [("triple_straight", "A", 6)]),  # KKKAAA
        ("SJ DJ CJ SQ DQ CQ SK DK CK", []),  # three triples: no (第四条五)
        ("SK DK CK SA DA CA S2 D2 C2", []),
        ("S3 D3 C3 S5 D5 C5", []),  # not consecutive
    ],
)
def test_sequence_limits(text: str, expected: list[tuple[str, str | None, int]]) -> None:
    # Level 9 so no wild and no level card takes part.
    assert read(text, "9") == expected


def test_seed_level_two_in_chains_stands_at_natural_rank() -> None:
    # 第四条三: when 2 is the level, KK AA 22 is no play; 22 33 44 is; AA goes with 22 33 or QQ KK.
    assert read("SK DK SA DA S2 D2", "2") == []
    assert read("S2 D2 S3 D3 S4 D4", "2") == [("pair_straight", "4", 6)]
    assert read("SA DA S2 D2 S3 D3", "2") == [("pair_straight", "3", 6)]
    assert read("SQ DQ SK DK SA DA", "2") == [("pair_straight", "A", 6)]
    # 第四条五: the same for triples; 第四条七: and straights (JQKA2 never, A2345 yes).
    assert read("SA DA CA S2 D2 C2", "2") == [("triple_straight", "2", 6)]
    assert read("SJ DQ CK SA D2", "2") == []
    assert read("SA D2 C3 S4 D5", "2") == [("straight", "5", 5)]


def test_level_card_in_a_straight_stands_at_its_natural_rank() -> None:
    # Level 7: S7 (a level card, not wild) sits between 6 and 8, and the straight is ranked by its 9.
    assert read("S5 D6 S7 D8 C9", "7") == [("straight", "9", 5)]
    assert read("ST DJ CQ SK S7", "7") == []  # the level card is no stand-in above A in a sequence
    assert beats(one("S6 D7 C8 S9 DT", "7"), one("S5 D6 S7 D8 C9", "7"))


def test_natural_one_suit_run_is_a_straight_flush_only() -> None:
    # §4.2: five natural consecutive cards of one suit are a straight flush, not also a straight.
    assert read("S5 S6 S7 S8 S9", "2") == [("straight_flush", "9", 5)]
    assert read("SA S2 S3 S4 S5", "9") == [("straight_flush", "5", 5)]
    assert read("ST SJ SQ SK SA", "9") == [("straight_flush", "A", 5)]
    assert read("SJ SQ SK SA S2", "9") == []


def test_straight_flush_across_suits_is_a_straight() -> None:
    assert read("S5 S6 S7 S8 H9", "2") == [("straight", "9", 5)]


# -------------------------------------------------------------------------------- wilds (§4.2)


def test_wild_alone_reads_as_level_cards() -> None:
    # §4.2: a play made only of wilds reads as level cards.
    assert read("H7", "7") == [("single", "7", 1)]
    assert read("H7 H7", "7") == [("pair", "7", 2)]
    assert beats(one("H7", "7"), one("SA", "7"))


def test_wild_never_a_joker() -> None:
    assert read("H2 BJ", "2") == []
    assert read("H2 H2 BJ", "2") == []
    assert read("BJ BJ RJ H2", "2") == []
    assert read("BJ RJ RJ H2 H2", "2") == []
    # Beside natural cards of a rank it may complete the triple of a full house with joker pair.
    assert read("S3 D3 H2 BJ BJ", "2") == [("full_house", "3", 5)]


def test_wild_any_suit_makes_straight_flush() -> None:
    # §4.2 (第七条二 "任意牌型和花色"): the wild may become a spade.
    r = readings(cards("H7 S5 S6 S8 S9"), lv("7"))
    flush = [x for x in r if x.type == Combo.STRAIGHT_FLUSH][0]
    straight = [x for x in r if x.type == Combo.STRAIGHT][0]
    assert format_cards(flush.cards) == ["S5", "S6", "S7", "S8", "S9"]
    assert flush.cards != straight.cards  # cards tell the two readings apart
    assert format_cards(straight.cards) == ["S5", "S6", "H7", "S8", "S9"]


def test_wild_beside_all_hearts_also_reads_as_a_plain_straight() -> None:
    # With a wild every reading counts (§4.2): ♥5♥6♥8♥9 + wild is a straight flush and a straight.
    r = readings(cards("H7 H5 H6 H8 H9"), lv("7"))
    assert [(x.type, x.rank) for x in r] == [(Combo.STRAIGHT, 9), (Combo.STRAIGHT_FLUSH, 9)]
    assert format_cards(r[0].cards) == ["H5", "H6", "S7", "H8", "H9"]  # a spade: not a flush


def test_wild_at_either_end_of_a_straight_gives_two_readings() -> None:
    # §4: "a straight with a wild at either end" — the player picks; both are offered.
    assert read("S4 D5 C6 S7 H2", "2") == [("straight", "7", 5), ("straight", "8", 5)]


def test_two_wilds_beside_two_pairs() -> None:
    # 第七条三2: ♥L♥L + 7788 may be three pairs or two triples; every reading is offered.
    assert read("S7 D7 S8 D8 H2 H2", "2") == [
        ("pair_straight", "8", 6),
        ("pair_straight", "9", 6),
        ("triple_straight", "8", 6),
    ]


def test_two_wilds_as_a_free_pair() -> None:
    # 333 + ♥L♥L: a five-card bomb of 3s, or a full house of 3s whose pair decides nothing — one reading.
    r = readings(cards("S3 D3 C3 H7 H7"), lv("7"))
    assert [(x.type, x.rank, x.size) for x in r] == [(Combo.BOMB, 3, 5), (Combo.FULL_HOUSE, 3, 5)]
    assert format_cards(r[1].cards) == ["D3", "C3", "S3", "H7", "H7"]
    # Triple of the level rank: the free pair cannot be the level rank (that is a bomb), so it is 2s.
    r = readings(cards("S7 D7 C7 H7 H7"), lv("7"))
    assert [(x.type, x.size) for x in r] == [(Combo.BOMB, 5), (Combo.FULL_HOUSE, 5)]
    assert format_cards(r[1].cards) == ["D7", "C7", "S7", "H2", "H2"]


def test_wild_in_a_bomb_and_ten_card_bomb() -> None:
    assert read("S6 D6 C6 H2", "2") == [("bomb", "6", 4)]
    eight = "S6 S6 D6 D6 C6 C6 H6 H6"
    assert read(eight + " H2 H2", "2") == [("bomb", "6", 10)]
    assert read("H2 H2 S6", "2") == [("triple", "6", 3)]


def test_wild_with_natural_level_card() -> None:
    # Level 7: S7 + ♥7 is a pair of level cards; S7 + ♥7♥7 a triple of them.
    assert read("S7 H7", "7") == [("pair", "7", 2)]
    assert read("S7 H7 H7", "7") == [("triple", "7", 3)]
    assert read("S7 D7 H7 H7", "7") == [("bomb", "7", 4)]


# ---------------------------------------------------------- 第七条's seven wild examples (level 2)


def test_seed_wild_example_1_pair() -> None:
    assert read("C8 H2") == [("pair", "8", 2)]


def test_seed_wild_example_2_full_house_either_way() -> None:
    # KK + 66 + ♥2: three Ks with a pair of 6s, or (declared) three 6s with a pair of Ks.
    assert read("SK DK S6 C6 H2") == [("full_house", "6", 5), ("full_house", "K", 5)]


def test_seed_wild_example_3_bomb() -> None:
    assert read("S6 D6 C6 H2") == [("bomb", "6", 4)]
    assert read("S6 D6 C6 S6 H2") == [("bomb", "6", 5)]


def test_seed_wild_example_4_three_pairs() -> None:
    assert read("S5 D5 S6 S7 D7 H2") == [("pair_straight", "7", 6)]
    assert read("S5 D5 S6 D6 S7 H2") == [("pair_straight", "7", 6)]


def test_seed_wild_example_5_straight() -> None:
    assert ("straight", "8", 5) in read("S4 D5 C6 S8 H2")
    assert read("S4 D5 C6 S8 H2") == [("straight", "8", 5)]
    # 4567 + ♥2 counts as 45678 — and, the wild at the other end, as 34567 (§4: the player says which).
    assert read("S4 D5 C6 S7 H2") == [("straight", "7", 5), ("straight", "8", 5)]


def test_seed_wild_example_6_straight_flush() -> None:
    # ♦789J + ♥2 and ♦78910 + ♥2 both count as the straight flush ♦7…J.
    assert ("straight_flush", "J", 5) in read("D7 D8 D9 DJ H2")
    assert read("D7 D8 D9 DJ H2") == [("straight", "J", 5), ("straight_flush", "J", 5)]
    assert ("straight_flush", "J", 5) in read("D7 D8 D9 DT H2")
    r = readings(cards("D7 D8 D9 DJ H2"), lv("2"))
    assert format_cards(r[1].cards) == ["D7", "D8", "D9", "DT", "DJ"]


def test_seed_wild_example_7_two_triples() -> None:
    assert read("S3 D3 C3 S4 D4 H2") == [("triple_straight", "4", 6)]
    assert read("S3 D3 S4 D4 C4 H2") == [("triple_straight", "4", 6)]


# ------------------------------------------------------------------------------------- bomb order


def bomb(size: int, rank: str = "9", level: str = "2") -> Reading:
    return reading_from_json({"type": "bomb", "rank": rank, "size": size}, lv(level))


def test_bomb_order() -> None:
    # §4 / 第八条: 4 < 5 < straight flush < 6 < 7 < 8 < 9 < 10 < four jokers.
    sf_low = reading_from_json({"type": "straight_flush", "rank": "5"}, lv("2"))
    sf_high = reading_from_json({"type": "straight_flush", "rank": "A"}, lv("2"))
    jokers = reading_from_json({"type": "joker_bomb", "rank": None}, lv("2"))
    ladder = [bomb(4, "A"), bomb(5, "3"), sf_low, bomb(6, "3"), bomb(7, "3"), bomb(8, "3"), bomb(9, "3")]
    ladder += [bomb(10, "3"), jokers]
    for i, low in enumerate(ladder):
        for high in ladder[i + 1 :]:
            assert beats(high, low) and not beats(low, high), (high, low)
    assert beats(bomb(5, "3"), bomb(4, "2"))  # more cards beat fewer whatever the rank
    assert beats(sf_low, bomb(5, "2")) and beats(bomb(6, "3"), sf_high)
    assert not beats(jokers, jokers)


def test_same_size_bombs_by_rank_and_level() -> None:
    assert beats(bomb(4, "K"), bomb(4, "Q"))
    assert not beats(bomb(4, "Q"), bomb(4, "Q"))
    assert beats(bomb(4, "7", "7"), bomb(4, "A", "7"))  # level cards above A
    assert beats(bomb(4, "3", "7"), bomb(4, "2", "7"))


def test_straight_flushes_by_rank_not_suit() -> None:
    a = one("S5 S6 S7 S8 S9", "3")
    b = one("D5 D6 D7 D8 D9", "3")
    c = one("D6 D7 D8 D9 DT", "3")
    assert not beats(a, b) and not beats(b, a) and beats(c, a)


def test_any_bomb_beats_any_non_bomb_and_never_the_reverse() -> None:
    plays = [one(t, "2") for t in ("RJ", "S3 D3 C3 S4 D4 C4", "SA DA CA SK DK", "ST DJ CQ SK DA", "BJ BJ")]
    for p in plays:
        assert beats(bomb(4, "3"), p) and not beats(p, bomb(4, "3"))


def test_other_plays_follow_type_and_size() -> None:
    pair = one("S9 D9")
    triple = one("S3 D3 C3")
    straight = one("S3 D4 C5 S6 D7")
    pairs = one("S3 D3 S4 D4 S5 D5")
    triples = one("S3 D3 C3 S4 D4 C4")
    assert not beats(triple, pair) and not beats(pairs, straight) and not beats(triples, pairs)
    assert beats(one("S4 D5 C6 S7 D8"), straight)
    assert not beats(one("SA D2 C3 S4 D5", "9"), one("S2 D3 C4 S5 D6", "9"))


# ------------------------------------------------------------------------------------------- JSON


@pytest.mark.parametrize(
    "d",
    [
        {"type": "single", "rank": "BJ"},
        {"type": "single", "rank": "7"},
        {"type": "pair", "rank": "RJ"},
        {"type": "full_house", "rank": "A"},
        {"type": "straight", "rank": "5"},
        {"type": "straight_flush", "rank": "A"},
        {"type": "pair_straight", "rank": "3"},
        {"type": "triple_straight", "rank": "2"},
        {"type": "bomb", "rank": "7", "size": 10},
        {"type": "joker_bomb", "rank": None},
    ],
)
def test_reading_json_round_trip(d: dict[str, Any]) -> None:
    assert reading_to_json(reading_from_json(d, lv("7"))) == d


@given(st.sampled_from(list(range(13))), st.lists(st.sampled_from(range(54)), min_size=1, max_size=6))
def test_every_reading_survives_json(level: int, picked: list[int]) -> None:
    for r in readings(picked, level):
        back = reading_from_json(reading_to_json(r), level)
        assert back == r._replace(cards=())


@pytest.mark.parametrize(
    ("d", "words"),
    [
        ({"type": "kite", "rank": "7"}, "prev.type"),
        ({"rank": "7"}, "prev.type"),
        ({"type": "bomb", "rank": "7"}, "prev.size"),
        ({"type": "bomb", "rank": "7", "size": 11}, "prev.size"),
        ({"type": "pair", "rank": "7", "size": 3}, "prev.size"),
        ({"type": "pair", "rank": "X"}, "prev.rank"),
        ({"type": "pair", "rank": 7}, "prev.rank"),
        ({"type": "straight", "rank": "4"}, "prev.rank"),
        ({"type": "pair_straight", "rank": "2"}, "prev.rank"),
        ({"type": "triple", "rank": "BJ"}, "prev.rank"),
        ({"type": "joker_bomb", "rank": "RJ"}, "prev.rank"),
        ("pair", "'prev'"),
    ],
)
def test_reading_from_json_errors_name_the_field(d: object, words: str) -> None:
    with pytest.raises(DeckhandError, match=words.replace(".", r"\.")):
        reading_from_json(d, lv("7"))


def test_readings_sorted_by_type_name_then_strength() -> None:
    r = readings(cards("S7 D7 S8 D8 H2 H2"), lv("2"))
    names = [x.type.json_name for x in r]
    assert names == sorted(names)
    assert [x.rank for x in r if x.type == Combo.PAIR_STRAIGHT] == [8, 9]


# --------------------------------------------------------------------------------- referee ops


def test_beats_op() -> None:
    prev = {"type": "straight", "rank": "9"}
    ask = OPS["beats"]
    assert ask({"op": "beats", "level": "7", "prev": prev, "play": ["S6", "D7", "C8", "S9", "DT"]}) == {
        "beats": True
    }
    assert ask({"op": "beats", "level": "7", "prev": prev, "play": ["S5", "D6", "C7", "S8", "D9"]}) == {
        "beats": False
    }
    # Some reading beats it: ♥7 + S6 S8 S9 ST is the straight 6…T (the wild as 7).
    assert ask({"op": "beats", "level": "7", "prev": prev, "play": ["H7", "S6", "S8", "S9", "ST"]}) == {
        "beats": True
    }
    bomb5 = {"type": "bomb", "rank": "3", "size": 5}
    sf = ["S5", "S6", "S7", "S8", "S9"]
    assert ask({"op": "beats", "level": "2", "prev": bomb5, "play": sf}) == {"beats": True}
    bomb6 = {"type": "bomb", "rank": "3", "size": 6}
    assert ask({"op": "beats", "level": "2", "prev": bomb6, "play": sf}) == {"beats": False}
    assert ask({"op": "beats", "level": "2", "prev": prev, "play": ["S3", "D4"]}) == {"beats": False}


def test_classify_op_bomb_has_size_and_joker_bomb_null_rank() -> None:
    assert classify("2", "S6 D6 C6 H2") == {"readings": [{"type": "bomb", "rank": "6", "size": 4}]}
    assert classify("2", "BJ BJ RJ RJ") == {"readings": [{"type": "joker_bomb", "rank": None}]}
    assert classify("10", "SA D2 C3 S4 D5") == {"readings": [{"type": "straight", "rank": "5"}]}


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        ({"op": "classify", "cards": ["S3"]}, "'level'"),
        ({"op": "classify", "level": "A+", "cards": ["S3"]}, "'level'"),
        ({"op": "classify", "level": 7, "cards": ["S3"]}, "'level'"),
        ({"op": "classify", "level": "7"}, "'cards'"),
        ({"op": "classify", "level": "7", "cards": ["S3", "X9"]}, "'cards'"),
        ({"op": "classify", "level": "7", "cards": ["S3", "S3", "S3"]}, "'cards'"),
        ({"op": "classify", "level": "7", "cards": "S3"}, "'cards'"),
        ({"op": "beats", "level": "7", "play": ["S3"]}, "'prev'"),
        ({"op": "beats", "level": "7", "prev": {"type": "single", "rank": "3"}}, "'play'"),
        ({"op": "beats", "level": "7", "prev": {"type": "single"}, "play": ["S3"]}, "prev.rank"),
    ],
)
def test_ops_errors_name_the_field(request_: dict[str, Any], words: str) -> None:
    with pytest.raises(DeckhandError, match=words.replace(".", r"\.")):
        OPS[request_["op"]](request_)


def test_reading_is_a_named_tuple() -> None:
    r = one("S9 D9")
    assert isinstance(r, Reading) and r == Reading(Combo.PAIR, 9, 2, tuple(cards("D9 S9")))

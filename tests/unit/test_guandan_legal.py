"""Guandan legal-play generation (RULES.md §4, §4.2): every (cards, reading) once, and exactly the plays
that ``readings`` + ``beats`` accept — checked against a brute force over every sub-multiset."""

import gc
import random
from collections import Counter
from itertools import product
from typing import Any

import pytest
from deckhand.engines.common.cards import format_cards, make_deck, parse_cards
from deckhand.engines.guandan.combos import (
    FACE,
    Combo,
    Reading,
    beats,
    reading_from_json,
    readings,
    wild_of,
)
from deckhand.engines.guandan.legal import Play, legal_plays
from deckhand.errors import DeckhandError
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DECK = make_deck(decks=2, jokers=True)


def cards(text: str) -> list[int]:
    return parse_cards(text.split(), decks=2, jokers=True)


def brute(hand: list[int], level: int, prev: Reading | None) -> set[Play]:
    """The oracle: every sub-multiset of the hand with every reading that is legal now."""
    counts = Counter(hand)
    items = sorted(counts)
    found = set()
    for pick in product(*(range(counts[c] + 1) for c in items)):
        if not 0 < sum(pick) <= 10:
            continue
        play = tuple(c for c, k in zip(items, pick, strict=True) for _ in range(k))
        for r in readings(play, level):
            if prev is None or beats(r, prev):
                found.add((play, r))
    return found


def check(hand: list[int], level: int, prev: Reading | None) -> list[Play]:
    plays = legal_plays(hand, level, prev)
    assert len(plays) == len(set(plays)), "a play listed twice"
    got = set(plays)
    want = brute(hand, level, prev)
    missing = sorted(want - got)[:3]
    extra = sorted(got - want)[:3]
    assert not missing and not extra, (
        format_cards(sorted(hand)),
        level,
        prev,
        [(format_cards(c), r) for c, r in missing],
        [(format_cards(c), r) for c, r in extra],
    )
    return plays


# Hands drawn from a few neighbouring ranks (so sequences, full houses and bombs are common), a few
# suits (so straight flushes are), jokers, and 0…2 wilds.
@st.composite
def small_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    level = draw(st.integers(0, 12))
    low_face = draw(st.integers(1, 10))
    ranks = {(11 if f in (1, 14) else 12 if f == 2 else f - 3) for f in range(low_face, low_face + 5)}
    if draw(st.booleans()):
        ranks.add(level)
    suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))
    wild = wild_of(level)
    pool = [r * 4 + s for r in sorted(ranks) for s in sorted(suits) if r * 4 + s != wild]
    pool += [52, 53]
    pool = pool + pool  # two decks
    picked = draw(st.lists(st.integers(0, len(pool) - 1), unique=True, min_size=3, max_size=11))
    wilds = draw(st.integers(0, 2))
    return [pool[i] for i in picked] + [wild] * wilds, level


@st.composite
def json_readings(draw: st.DrawFn) -> dict[str, Any]:
    """Any reading a referee could name as ``prev``."""
    kind = draw(st.sampled_from([c.json_name for c in Combo]))
    token = draw(st.sampled_from(list("23456789TJQKA") + ["BJ", "RJ"]))
    d: dict[str, Any] = {"type": kind, "rank": None if kind == "joker_bomb" else token}
    if kind == "bomb":
        d["size"] = draw(st.integers(4, 10))
    return d


SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(small_hands())
def test_lead_is_exactly_every_reading_of_every_sub_multiset(hand_level: tuple[list[int], int]) -> None:
    hand, level = hand_level
    plays = check(hand, level, None)
    for phys, r in plays:
        assert list(phys) == sorted(phys)
        assert len(r.cards) == r.size == len(phys)


@SETTINGS
@given(small_hands(), st.data())
def test_follow_is_exactly_what_beats_prev(hand_level: tuple[list[int], int], data: st.DataObject) -> None:
    hand, level = hand_level
    if data.draw(st.booleans()):
        d = data.draw(json_readings())
        try:
            prev = reading_from_json(d, level)
        except DeckhandError:
            return
    else:
        # A previous play some hand could make (its reading carries cards, which beats ignores).
        other, _ = data.draw(small_hands())
        options = [r for _, r in legal_plays(other, level, None)]
        if not options:
            return
        prev = data.draw(st.sampled_from(options))
    check(hand, level, prev)


def random_hand(rng: random.Random, level: int, wilds: int) -> list[int]:
    wild = wild_of(level)
    rest = [c for c in DECK if c != wild]
    return rng.sample(rest, 27 - wilds) + [wild] * wilds


def test_full_hands_generated_plays_are_readings_and_follows_filter_the_lead() -> None:
    rng = random.Random(16)
    for i in range(12):
        level = rng.randrange(13)
        hand = random_hand(rng, level, i % 3)
        have = Counter(hand)
        lead = legal_plays(hand, level, None)
        assert len(lead) == len(set(lead))
        for phys, r in lead:
            assert not Counter(phys) - have
            assert r in readings(phys, level)
        for _ in range(4):
            prev = rng.choice(lead)[1]
            follow = legal_plays(hand, level, prev)
            assert sorted(follow) == sorted(p for p in lead if beats(p[1], prev))


def test_lead_lists_each_reading_of_the_same_cards() -> None:
    # ♥2 + D7 D8 D9 DJ at level 2: the same five cards as a straight and as a straight flush.
    hand = cards("D7 D8 D9 DJ H2")
    plays = [r for phys, r in legal_plays(hand, 12, None) if len(phys) == 5]
    assert sorted((r.type, r.rank) for r in plays) == [(Combo.STRAIGHT, 11), (Combo.STRAIGHT_FLUSH, 11)]


def test_two_wilds_alone_are_only_a_pair_of_level_cards() -> None:
    hand = cards("H7 H7 S3")
    plays = {(tuple(format_cards(p)), r.type, r.rank) for p, r in legal_plays(hand, 4, None)}
    assert plays == {
        (("S3",), Combo.SINGLE, FACE[0]),
        (("H7",), Combo.SINGLE, 107),
        (("H7", "H7"), Combo.PAIR, 107),
        (("S3", "H7"), Combo.PAIR, 3),
        (("S3", "H7", "H7"), Combo.TRIPLE, 3),
    }


def test_identical_cards_are_one_play() -> None:
    # Two S9 from two decks: one single S9, not two.
    plays = legal_plays(cards("S9 S9"), 0, None)
    assert [(format_cards(p), r.type) for p, r in plays] == [
        (["S9"], Combo.SINGLE),
        (["S9", "S9"], Combo.PAIR),
    ]


def test_follow_keeps_type_or_bombs() -> None:
    # Pairs above Q: KK, BJ BJ, RJ RJ; bombs: 3333, the straight flushes ♠34567 and ♠45678, four jokers.
    hand = cards("S3 D3 C3 H3 SK DK S4 S5 S6 S7 S8 BJ BJ RJ RJ")
    prev = reading_from_json({"type": "pair", "rank": "Q"}, 12)
    kinds = Counter(r.type for _, r in legal_plays(hand, 12, prev))
    assert kinds == {Combo.PAIR: 3, Combo.BOMB: 1, Combo.STRAIGHT_FLUSH: 2, Combo.JOKER_BOMB: 1}
    prev = reading_from_json({"type": "bomb", "rank": "A", "size": 5}, 12)
    assert [r.type for _, r in legal_plays(hand, 12, prev)] == [Combo.STRAIGHT_FLUSH] * 2 + [Combo.JOKER_BOMB]
    prev = reading_from_json({"type": "joker_bomb", "rank": None}, 12)
    assert legal_plays(hand, 12, prev) == []


def test_previous_reading_from_json_has_no_cards() -> None:
    prev = reading_from_json({"type": "straight", "rank": "9"}, 5)
    assert prev == Reading(Combo.STRAIGHT, 9, 5, ())
    # Level 8 (rank index 5): ♥8 is wild, so 6…T and, the wild as a J, 7…J beat the straight to 9.
    plays = legal_plays(cards("S6 D7 C8 S9 DT H8"), 5, prev)
    assert {r.rank for _, r in plays} == {10, 11}


def test_generation_leaves_the_cyclic_collector_as_it_found_it() -> None:
    # legal_plays pauses the collector while it makes the plays (docs/guandan-engine.md, Speed).
    hand = random_hand(random.Random(22), 0, 2)
    was = gc.isenabled()
    try:
        gc.enable()
        assert legal_plays(hand, 0, None)
        assert gc.isenabled()
        gc.disable()
        assert legal_plays(hand, 0, None)
        assert not gc.isenabled()
        gc.enable()
        with pytest.raises(AttributeError):  # a malformed previous play: the collector is on again
            legal_plays(hand, 0, object())  # type: ignore[arg-type]
        assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()

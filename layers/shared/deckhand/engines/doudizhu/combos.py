"""Dou Dizhu combinations (RULES.md §3): what a set of cards is, and whether one play beats another.

Suits never matter, so everything works on rank counts: ranks 0…12 are 3…A,2 and 13, 14 the black
and red jokers (``cards.rank_of``). Chains (straights, pair straights, planes) use ranks 3…A only.

Kicker rulings: kickers never hold the rank of their own triple, four or plane, nor both jokers; two
single kickers may be a pair (5555+33, 333444+55); pair kickers are of different ranks; four of a
kind is never kickers (33334444 is no play); a plane's single wings may not be a triple that extends
the plane (333444555+666 is only the plane 333444555666). Single wings may otherwise repeat a rank.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..common.cards import rank_of

SINGLE = "single"
PAIR = "pair"
TRIPLE = "triple"
TRIPLE_SINGLE = "triple_single"
TRIPLE_PAIR = "triple_pair"
STRAIGHT = "straight"
PAIR_STRAIGHT = "pair_straight"
PLANE = "plane"
PLANE_SINGLES = "plane_singles"
PLANE_PAIRS = "plane_pairs"
FOUR_TWO_SINGLES = "four_two_singles"
FOUR_TWO_PAIRS = "four_two_pairs"
BOMB = "bomb"
ROCKET = "rocket"

TYPES = (
    SINGLE,
    PAIR,
    TRIPLE,
    TRIPLE_SINGLE,
    TRIPLE_PAIR,
    STRAIGHT,
    PAIR_STRAIGHT,
    PLANE,
    PLANE_SINGLES,
    PLANE_PAIRS,
    FOUR_TWO_SINGLES,
    FOUR_TWO_PAIRS,
    BOMB,
    ROCKET,
)

RANK_COUNT = 15
TWO = 12
BLACK = 13
RED = 14
CHAIN_TOP = 11  # A: the highest rank a chain may reach
RANK_NAMES = "3456789TJQKA2BR"


class Combo(NamedTuple):
    """``rank``: the main part's rank (a chain's lowest); ``length``: triples in a plane, ranks in a chain."""

    type: str
    rank: int
    length: int
    size: int


def counts_of(cards: Iterable[int]) -> list[int]:
    counts = [0] * RANK_COUNT
    for c in cards:
        counts[rank_of(c)] += 1
    return counts


def _run(counts: list[int], need: int, start: int, length: int) -> bool:
    """Ranks start … start+length-1 are all within 3…A and each has at least ``need`` cards."""
    if start < 0 or start + length - 1 > CHAIN_TOP:
        return False
    return all(counts[r] >= need for r in range(start, start + length))


def _only(counts: list[int], value: int) -> list[int]:
    """The ranks present, if every present rank has exactly ``value`` cards; else []."""
    ranks = [r for r in range(RANK_COUNT) if counts[r]]
    return ranks if all(counts[r] == value for r in ranks) else []


def _chain(counts: list[int], value: int, min_length: int) -> int:
    """The lowest rank of a chain made of exactly ``value`` cards of consecutive ranks; -1 if none."""
    ranks = _only(counts, value)
    if len(ranks) < min_length or ranks[-1] > CHAIN_TOP or ranks[-1] - ranks[0] != len(ranks) - 1:
        return -1
    return ranks[0]


def single_wings_ok(wings: list[int], start: int, length: int) -> bool:
    """``wings``: rank counts of the kickers of the plane ``start``…``start+length-1`` (or of a four when
    ``length`` is 1 and ``start`` its rank, with no extension rule)."""
    if wings[BLACK] and wings[RED]:
        return False
    for r in range(RANK_COUNT):
        n = wings[r]
        if not n:
            continue
        if start <= r < start + length or n == 4:
            return False
        if n == 3 and length > 1 and r in (start - 1, start + length) and r <= CHAIN_TOP:
            return False
    return True


def pair_wings_ok(wings: list[int], start: int, length: int) -> bool:
    """Pair kickers: each present rank exactly two cards, no joker, none of the main part's ranks."""
    for r in range(RANK_COUNT):
        n = wings[r]
        if not n:
            continue
        if n != 2 or r > TWO or start <= r < start + length:
            return False
    return True


def _plane_with_wings(counts: list[int], size: int) -> Combo | None:
    """The highest reading of ``counts`` as a plane with single wings or with pair wings."""
    if size % 4 == 0 and size >= 8:
        k = size // 4
        for start in range(CHAIN_TOP - k + 1, -1, -1):
            if _run(counts, 3, start, k):
                wings = list(counts)
                for r in range(start, start + k):
                    wings[r] -= 3
                if single_wings_ok(wings, start, k):
                    return Combo(PLANE_SINGLES, start, k, size)
    if size % 5 == 0 and size >= 10:
        k = size // 5
        for start in range(CHAIN_TOP - k + 1, -1, -1):
            if _run(counts, 3, start, k):
                wings = list(counts)
                for r in range(start, start + k):
                    wings[r] -= 3
                if pair_wings_ok(wings, start, k) and sum(1 for n in wings if n) == k:
                    return Combo(PLANE_PAIRS, start, k, size)
    return None


def classify_counts(counts: list[int], size: int) -> Combo | None:
    """The combination these rank counts make, or None when they are no Dou Dizhu play."""
    if size == 0:
        return None
    if size == 1:
        return Combo(SINGLE, next(r for r in range(RANK_COUNT) if counts[r]), 1, 1)
    if size == 2:
        if counts[BLACK] and counts[RED]:
            return Combo(ROCKET, RED, 1, 2)
        ranks = _only(counts, 2)
        return Combo(PAIR, ranks[0], 1, 2) if ranks else None
    top = max(counts)
    main = counts.index(top)
    if size == 3:
        return Combo(TRIPLE, main, 1, 3) if top == 3 else None
    if top == 4:
        if size == 4:
            return Combo(BOMB, main, 1, 4)
        wings = list(counts)
        wings[main] = 0
        if size == 6 and single_wings_ok(wings, main, 1):
            return Combo(FOUR_TWO_SINGLES, main, 1, 6)
        if size == 8 and pair_wings_ok(wings, main, 1) and sum(1 for n in wings if n) == 2:
            return Combo(FOUR_TWO_PAIRS, main, 1, 8)
        return _plane_with_wings(counts, size)
    if top == 3:
        if size == 4:
            return Combo(TRIPLE_SINGLE, main, 1, 4)
        if size == 5:
            pair = next((r for r in range(RANK_COUNT) if counts[r] == 2), -1)
            return Combo(TRIPLE_PAIR, main, 1, 5) if 0 <= pair <= TWO else None
        start = _chain(counts, 3, 2)
        if start >= 0:
            return Combo(PLANE, start, size // 3, size)
        return _plane_with_wings(counts, size)
    if top == 2 and size >= 6:
        start = _chain(counts, 2, 3)
        return Combo(PAIR_STRAIGHT, start, size // 2, size) if start >= 0 else None
    if top == 1 and size >= 5:
        start = _chain(counts, 1, 5)
        return Combo(STRAIGHT, start, size, size) if start >= 0 else None
    return None


def classify(cards: Iterable[int]) -> Combo | None:
    cards = list(cards)
    return classify_counts(counts_of(cards), len(cards))


def beats(prev: Combo, play: Combo) -> bool:
    """Rocket beats everything; a bomb beats every non-bomb and lower bombs; otherwise the same type
    and number of cards with a higher main rank."""
    if play.type == ROCKET:
        return True
    if prev.type == ROCKET:
        return False
    if play.type == BOMB:
        return prev.type != BOMB or play.rank > prev.rank
    if prev.type == BOMB:
        return False
    return play.type == prev.type and play.size == prev.size and play.rank > prev.rank

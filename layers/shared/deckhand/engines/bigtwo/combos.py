"""Combination classification and comparison for Big Two (RULES.md §2).

A combination is reduced to ``Combo(kind, size, strength)``: two plays compare only when their
sizes are equal, and then by ``strength`` alone. For five-card hands the strength is
``class * 64 + deciding card`` so the class order (straight < flush < full house < four of a kind
< straight flush) comes first; singles, pairs, triples, straights and flushes are decided by their
highest card (rank, then suit: the card int), full house and four of a kind by their rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

SINGLE, PAIR, TRIPLE, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = range(8)
TYPE_NAMES = (
    "single",
    "pair",
    "triple",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)


class Combo(NamedTuple):
    kind: int
    size: int
    strength: int

    @property
    def name(self) -> str:
        return TYPE_NAMES[self.kind]


def _natural_to_index(natural: int) -> int:
    """Natural rank A=1,2,…,K=13,A=14 to the rank index (3=0 … A=11, 2=12)."""
    if natural in (1, 14):
        return 11
    if natural == 2:
        return 12
    return natural - 3


def _straight_rank_masks() -> frozenset[int]:
    """Five consecutive ranks of A-2-3-…-K-A with A only at an end: A2345 … TJQKA (10 windows)."""
    masks = set()
    for start in range(1, 11):
        mask = 0
        for natural in range(start, start + 5):
            mask |= 1 << _natural_to_index(natural)
        masks.add(mask)
    return frozenset(masks)


STRAIGHT_RANK_MASKS = _straight_rank_masks()
# Rank-index windows for generating straights, each ascending in rank index.
STRAIGHT_WINDOWS: tuple[tuple[int, ...], ...] = tuple(
    sorted(tuple(r for r in range(13) if m >> r & 1) for m in STRAIGHT_RANK_MASKS)
)
_FIVE_BASE = 64


def five_strength(kind: int, key: int) -> int:
    return (kind - STRAIGHT) * _FIVE_BASE + key


def classify(cards: Sequence[int]) -> Combo | None:
    """The combination formed by distinct one-deck cards, or None. Hot path: no needless work."""
    n = len(cards)
    if n == 1:
        return Combo(SINGLE, 1, cards[0])
    if n == 2:
        a, b = cards
        if a >> 2 == b >> 2:
            return Combo(PAIR, 2, a if a > b else b)
        return None
    if n == 3:
        a, b, c = cards
        if a >> 2 == b >> 2 == c >> 2:
            return Combo(TRIPLE, 3, max(a, b, c))
        return None
    if n == 5:
        return _classify_five(sorted(cards))
    return None


def _classify_five(s: list[int]) -> Combo | None:
    c0, c1, c2, c3, c4 = s
    r0, r1, r2, r3, r4 = c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, c4 >> 2
    if r0 == r3 or r1 == r4:
        return Combo(FOUR_OF_A_KIND, 5, five_strength(FOUR_OF_A_KIND, r2))
    if (r0 == r2 and r3 == r4) or (r0 == r1 and r2 == r4):
        return Combo(FULL_HOUSE, 5, five_strength(FULL_HOUSE, r2))
    flush = (c0 & 3) == (c1 & 3) == (c2 & 3) == (c3 & 3) == (c4 & 3)
    straight = ((1 << r0) | (1 << r1) | (1 << r2) | (1 << r3) | (1 << r4)) in STRAIGHT_RANK_MASKS
    if straight:
        return Combo(
            STRAIGHT_FLUSH if flush else STRAIGHT, 5, five_strength(STRAIGHT_FLUSH if flush else STRAIGHT, c4)
        )
    if flush:
        return Combo(FLUSH, 5, five_strength(FLUSH, c4))
    return None


def beats(prev: Combo, play: Combo) -> bool:
    """Whether ``play`` may follow ``prev``: same number of cards and strictly stronger."""
    return play.size == prev.size and play.strength > prev.strength

"""A hand split by rank for Guandan's generator (RULES.md §4, §4.2), and each rank's blocks: its
sub-multisets and the ways to make two or three cards of it, cached across calls by the rank's
natural cards (a rank's cards recur).

Cards of one rank are one run of the sorted order, so a play of several ranks is its blocks
concatenated; only the wilds need placing, and each block carries its naturals with 0, 1 or 2 wilds
already sorted in.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache

from ..common.cards import BLACK_JOKER
from .combos import HEART, POWERS

Subs = tuple[tuple[tuple[int, ...], ...], ...]  # Subs[k]: every distinct k-card sub-multiset
# natural cards, read cards (wilds as hearts of the rank), wilds used, how many naturals sort below the
# rank's heart (where a wild goes when the rank is the level's)
Part = tuple[tuple[int, ...], tuple[int, ...], int, int]
Cards = tuple[tuple[int, ...], ...]
# The parts using a given number of wilds, as two parallel columns: naturals and read cards.
Group = tuple[Cards, Cards]
MAX_WILDS = 2  # a player holds at most both heart level cards


@lru_cache(maxsize=4096)
def subsets(cards: tuple[int, ...]) -> Subs:
    """Every distinct sub-multiset of one rank's natural cards (sorted), grouped by size."""
    by_size: list[set[tuple[int, ...]]] = [set() for _ in range(len(cards) + 1)]
    n = len(cards)
    for bits in range(1 << n):
        by_size[bits.bit_count()].add(tuple(cards[i] for i in range(n) if bits >> i & 1))
    return tuple(tuple(sorted(s)) for s in by_size)


@lru_cache(maxsize=4096)
def _rank(cards: tuple[int, ...]) -> tuple[Subs, tuple[int, ...], int]:
    """One rank's natural cards: their sub-multisets, the distinct cards, a bit mask of their suits."""
    held = 0
    for c in cards:
        held |= 1 << (c & 3)
    return subsets(cards), tuple(dict.fromkeys(cards)), held


class Hand:
    """A hand split for generation: each rank's natural cards, sub-multisets, distinct cards and suits,
    the wild count and the jokers."""

    __slots__ = (
        "level",
        "wild",
        "wilds",
        "subs",
        "counts",
        "power",
        "cards",
        "bj",
        "rj",
        "suits",
        "hearts_mask",
        "own",
        "present",
    )

    def __init__(self, hand: Sequence[int], level: int) -> None:
        self.level = level
        self.wild = wild = level * 4 + HEART
        self.power = POWERS[level]
        per_rank: list[list[int]] = [[], [], [], [], [], [], [], [], [], [], [], [], [], []]
        for c in sorted(hand):  # sorted once: each rank's list comes out sorted (13: the jokers)
            per_rank[c >> 2].append(c)
        jokers = per_rank.pop()
        self.bj = bj = jokers.count(BLACK_JOKER)
        self.rj = len(jokers) - bj
        at_level = per_rank[level]
        self.wilds = wilds = at_level.count(wild)
        if wilds:
            per_rank[level] = [c for c in at_level if c != wild]
        self.own = own = [tuple(cards) for cards in per_rank]
        ranks = [_rank(cards) for cards in own]
        self.subs: list[Subs] = [r[0] for r in ranks]
        self.counts: list[int] = [len(cards) for cards in own]
        self.cards: list[tuple[int, ...]] = [r[1] for r in ranks]
        self.suits: list[int] = [r[2] for r in ranks]
        hearts_mask = present = 0
        for r in range(13):
            held = self.suits[r]
            if held:
                present |= 1 << r
                if held >> HEART & 1:
                    hearts_mask |= 1 << r
        self.hearts_mask = hearts_mask  # the ranks whose natural heart is held
        self.present = present  # the ranks with a natural card


@lru_cache(maxsize=8192)
def parts(own: tuple[int, ...], need: int) -> tuple[Part, ...]:
    """Ways to make ``need`` cards of one rank from its naturals ``own`` with at least one natural and
    at most two wilds, in order of the wilds used (a hand with fewer wilds stops early). Nothing here
    depends on the level or the hand's wilds, so the cache serves every hand holding these cards."""
    if not own:
        return ()
    subs = subsets(own)
    heart = (own[0] >> 2) * 4 + HEART
    out: list[Part] = []
    for w in range(MAX_WILDS + 1):
        k = need - w
        if 0 < k < len(subs):
            hearts = (heart,) * w
            for t in subs[k]:  # sorted: the hearts go in by bisection
                at = bisect_left(t, heart)
                out.append((t, t[:at] + hearts + t[at:] if w else t, w, at))
    return tuple(out)


@lru_cache(maxsize=8192)
def groups(own: tuple[int, ...], need: int) -> tuple[Group, ...]:
    """:func:`parts` by the wilds they use (index 0, 1, 2), as columns a product can draw from."""
    found = parts(own, need)
    out: list[Group] = []
    for used in range(MAX_WILDS + 1):
        mine = [p for p in found if p[2] == used]
        out.append((tuple(p[0] for p in mine), tuple(p[1] for p in mine)))
    return tuple(out)


@lru_cache(maxsize=16384)
def placed(own: tuple[int, ...], need: int, side: int) -> tuple[Part, ...]:
    """:func:`parts` with their last item the count of naturals that sort below the wild: all of them
    for a rank below the level (``side`` -1), none above it (1), the ♦♣ of the level rank (0)."""
    if side:
        return tuple((n, r, w, len(n) if side < 0 else 0) for n, r, w, _ in parts(own, need))
    return parts(own, need)


def with_wilds(blocks: Sequence[tuple[int, ...]], rank: int, level: int, wilds: tuple[int, ...]) -> Cards:
    """Each block of ``rank`` (sorted naturals) with the ``wilds`` sorted in: after the block below
    the level rank, before it above, and among the level rank's own cards after its ♦♣."""
    if rank < level:
        return tuple([b + wilds for b in blocks])
    if rank > level:
        return tuple([wilds + b for b in blocks])
    heart = rank * 4 + HEART
    out = []
    for b in blocks:
        at = bisect_left(b, heart)
        out.append(b[:at] + wilds + b[at:])
    return tuple(out)

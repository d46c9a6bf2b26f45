"""Complete legal-play generation (RULES.md §5 "Play"): every lead and every follow, once each.

Identical cards (two decks) make identical plays, so plays are multisets: generated from the counts
of the distinct cards, never from positions in the hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from .cards import Trump
from .combos import decompose, match

Play = tuple[int, ...]


def multisets(items: Sequence[tuple[int, int]], k: int, start: int = 0) -> Iterator[Play]:
    """Every sub-multiset of size ``k`` of (card, count) items, each once, cards ascending."""
    if k == 0:
        yield ()
        return
    room = sum(n for _, n in items[start:])
    if room < k:
        return
    card, n = items[start]
    for take in range(min(n, k), -1, -1):
        for rest in multisets(items, k - take, start + 1):
            yield (card,) * take + rest


def all_submultisets(items: Sequence[tuple[int, int]], start: int = 0) -> Iterator[Play]:
    """Every sub-multiset of the items, the empty one included."""
    if start == len(items):
        yield ()
        return
    card, n = items[start]
    for rest in all_submultisets(items, start + 1):
        for take in range(n + 1):
            yield (card,) * take + rest


def by_suit(hand: Sequence[int], ctx: Trump) -> dict[int, list[tuple[int, int]]]:
    suits: dict[int, Counter[int]] = {}
    for c in hand:
        suits.setdefault(ctx.eff[c], Counter())[c] += 1
    return {s: sorted(cnt.items()) for s, cnt in suits.items()}


def leads(hand: Sequence[int], ctx: Trump) -> list[Play]:
    """Every lead: any non-empty set of cards of one effective suit (several components are a throw,
    which stands or fails when played)."""
    out: list[Play] = []
    for items in by_suit(hand, ctx).values():
        out.extend(p for p in all_submultisets(items) if p)
    return out


def iter_follows(lead: Sequence[int], hand: Sequence[int], ctx: Trump) -> Iterator[Play]:
    """Every legal follow to ``lead`` from ``hand`` (§5.1 "following"), each once."""
    n = len(lead)
    suit = ctx.eff[lead[0]]
    in_suit = [c for c in hand if ctx.eff[c] == suit]
    others = sorted(Counter(c for c in hand if ctx.eff[c] != suit).items())
    if len(in_suit) <= n:
        must = tuple(sorted(in_suit))
        for rest in multisets(others, n - len(in_suit)):
            yield tuple(sorted(must + rest))
        return
    comps = decompose(lead, ctx)
    need = match(in_suit, comps, ctx, suit)
    for play in multisets(sorted(Counter(in_suit).items()), n):
        have = match(play, comps, ctx, suit)
        if have.runs >= need.runs and have.pairs >= need.pairs:
            yield play


def follows(lead: Sequence[int], hand: Sequence[int], ctx: Trump) -> list[Play]:
    return list(iter_follows(lead, hand, ctx))

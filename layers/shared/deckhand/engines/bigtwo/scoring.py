"""Penalty points and board scores for Big Two (RULES.md §2, seed 000 appendix 1)."""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import DeckhandError
from . import HAND_SIZE, SEATS


def penalty(cards_left: int) -> int:
    """n<8 → n; 8≤n<10 → 2n; 10≤n<13 → 3n; n=13 → 4n."""
    if not 0 <= cards_left <= HAND_SIZE:
        raise DeckhandError(f"cards left must be 0..{HAND_SIZE}, got {cards_left}")
    if cards_left < 8:
        return cards_left
    if cards_left < 10:
        return 2 * cards_left
    if cards_left < 13:
        return 3 * cards_left
    return 4 * cards_left


def scores(cards_left: Sequence[int], shown: Sequence[bool], doubled: Sequence[bool]) -> list[int]:
    """score(i) = Σ_{j≠i} (pen(j) − pen(i)) · show(i)·show(j)·dbl(i)·dbl(j); the scores sum to zero."""
    for name, values in (("cards_left", cards_left), ("shown", shown), ("doubled", doubled)):
        if len(values) != SEATS:
            raise DeckhandError(f"{name} must have {SEATS} entries, got {len(values)}")
    if sum(1 for n in cards_left if n == 0) != 1:
        raise DeckhandError("exactly one player must have 0 cards left at the end of a board")
    pens = [penalty(n) for n in cards_left]
    factor = [(3 if shown[i] else 1) * (2 if doubled[i] else 1) for i in range(SEATS)]
    return [
        sum((pens[j] - pens[i]) * factor[i] * factor[j] for j in range(SEATS) if j != i) for i in range(SEATS)
    ]

"""Dou Dizhu board scores (RULES.md §3; seed 001 appendix 1).

For each defender d: ``n_d`` = rockets + bombs played (by anyone) + spring + anti-spring, +1 if d
doubled, +1 more if d doubled and the landlord redoubled; ``score(d) = bid · w · 2^n_d`` with w = +1
when the defenders won and −1 when the landlord won; the landlord scores minus the defenders' sum.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import DeckhandError
from . import SEATS


def scores(
    *,
    bid: int,
    landlord: int,
    defenders_won: bool,
    bombs: int,
    rockets: int,
    spring: bool,
    anti_spring: bool,
    doubled: Sequence[bool],
    redoubled: bool,
) -> list[int]:
    """Scores by seat; ``doubled`` is by seat (the landlord's entry is ignored)."""
    if bid not in (1, 2, 3):
        raise DeckhandError(f"bid must be 1, 2 or 3, got {bid!r}")
    if not 0 <= landlord < SEATS:
        raise DeckhandError(f"landlord must be a seat 0..{SEATS - 1}, got {landlord!r}")
    if bombs < 0 or rockets < 0 or rockets > 1:
        raise DeckhandError("bombs must be ≥ 0 and rockets 0 or 1 (one deck has one rocket)")
    if spring and anti_spring:
        raise DeckhandError("a board cannot be both a spring and an anti-spring")
    if spring and defenders_won or anti_spring and not defenders_won:
        raise DeckhandError("a spring is the landlord's win, an anti-spring the defenders'")
    if len(doubled) != SEATS:
        raise DeckhandError(f"doubled must have {SEATS} entries")
    defenders = [s for s in range(SEATS) if s != landlord]
    if redoubled and not any(doubled[d] for d in defenders):
        raise DeckhandError("the landlord may redouble only when a defender doubled")
    w = 1 if defenders_won else -1
    base = rockets + bombs + int(spring) + int(anti_spring)
    out = [0] * SEATS
    for d in defenders:
        n = base + (1 + int(redoubled) if doubled[d] else 0)
        out[d] = bid * w * 2**n
    out[landlord] = -sum(out[d] for d in defenders)
    return out

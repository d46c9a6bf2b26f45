"""Matchpoints (RULES.md §1.1) and board places and rank points (§1.2)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

COMPETITION = "competition"  # 1, 1, 3
DENSE = "dense"  # 1, 1, 2
RANKINGS = (COMPETITION, DENSE)


def matchpoints(scores: Sequence[float]) -> list[int]:
    """MP = 2·(#worse) + (#equal incl. self) − 1 for each result among ``scores`` (one board, one seat)."""
    ordered = sorted(scores)
    out = []
    for s in scores:
        worse = bisect_left(ordered, s)
        equal = bisect_right(ordered, s) - worse
        out.append(2 * worse + equal - 1)
    return out


def top(n: int) -> int:
    return 2 * (n - 1)


def mp_percent(mp: int, n: int) -> float:
    """MP as a percentage of the top, 2 decimals; a lone result (N = 1) is 100."""
    if n == 1:
        return 100.0
    return round(mp * 100 / top(n), 2)


def places(values: Sequence[float], ranking: str = COMPETITION) -> list[int]:
    """Places for ``values`` (higher is better): ties share a place; competition 1,1,3 or dense 1,1,2."""
    if ranking not in RANKINGS:
        raise ValueError(f"ranking must be one of {', '.join(RANKINGS)}, got {ranking!r}")
    ordered = sorted(values, reverse=True)
    if ranking == COMPETITION:
        first_index: dict[float, int] = {}
        for i, v in enumerate(ordered):
            first_index.setdefault(v, i + 1)
        return [first_index[v] for v in values]
    dense = {v: i + 1 for i, v in enumerate(sorted(set(values), reverse=True))}
    return [dense[v] for v in values]


@lru_cache(maxsize=4096)
def rank_points_cents(place: int) -> int:
    """Rank points for a place, in hundredths: 10000·0.5^((x−1)/2) (odd x), 7000·0.5^((x−2)/2) (even x).

    Kept as exact integers so totals never drift; rounded half up to 2 decimals as RULES.md says.
    """
    if place < 1:
        raise ValueError(f"place must be ≥ 1, got {place}")
    if place % 2:
        exact = Fraction(10000) / 2 ** ((place - 1) // 2)
    else:
        exact = Fraction(7000) / 2 ** ((place - 2) // 2)
    cents = exact * 100
    return int(cents + Fraction(1, 2)) if cents.denominator != 1 else int(cents)


def rank_points(place: int) -> float:
    return rank_points_cents(place) / 100

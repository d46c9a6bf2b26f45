"""Artificial adjusted scores: a referee's answer to a board a table could not play normally.

The table is taken out of that board's comparison: the other tables are matchpointed among
themselves and scaled to the full board's top (Neuberg), and each seat of the table gets a fixed
share of that top instead of a matchpoint score (docs/competition.md, Artificial scores).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from fractions import Fraction
from typing import NamedTuple

from .matchpoints import matchpoints


class Artificial(StrEnum):
    """The kinds a referee may give one seat; ``averaged`` is the seat's own mean MP% of the round."""

    AVERAGE_PLUS = "average_plus"
    AVERAGE = "average"
    AVERAGE_MINUS = "average_minus"
    AVERAGED = "averaged"


# The bridge convention (RULES.md is silent): 60 / 50 / 40 % of the board's top.
PERCENT: dict[Artificial, Fraction] = {
    Artificial.AVERAGE_PLUS: Fraction(60),
    Artificial.AVERAGE: Fraction(50),
    Artificial.AVERAGE_MINUS: Fraction(40),
}


def neuberg(mp: int, compared: int, expected: int) -> Fraction:
    """Matchpoints earned among ``compared`` results, scaled to a board of ``expected`` results:
    ``(MP + 1) · N / n − 1``, so a result's share of the top is as if every table had played."""
    return Fraction((mp + 1) * expected, compared) - 1


def percent_of(mp: Fraction, expected: int) -> Fraction:
    """MP as an exact share of the top of ``expected`` results (a lone result is 100 %)."""
    top = 2 * (expected - 1)
    return mp * 100 / top if top else Fraction(100)


def place_among(pct: Fraction, others: Sequence[Fraction], dense: bool) -> int:
    """The place a result of ``pct`` takes among the compared results' shares (higher is better),
    without moving them: 1 + the results above it (dense: + their distinct shares)."""
    above = [o for o in others if o > pct]
    return 1 + (len(set(above)) if dense else len(above))


def averaged(percents: Sequence[float]) -> Fraction:
    """A seat's own mean MP% over its other boards of the round; ``average`` (50) if it has none."""
    if not percents:
        return PERCENT[Artificial.AVERAGE]
    return Fraction(sum(Fraction(p).limit_denominator(100) for p in percents), len(percents))


class Scored(NamedTuple):
    """One seat's result on a board with an artificial score: exact MP and MP%, and its place."""

    player: str
    mp: Fraction
    pct: Fraction
    place: int
    kind: Artificial | None


def compare(
    played: Sequence[tuple[str, float]],
    given: Sequence[tuple[str, Artificial]],
    dense: bool,
    own: Callable[[str], Fraction],
) -> list[Scored]:
    """One board's comparison for one seat, best first: the ``played`` results (player, score) among
    themselves, Neuberg-scaled to every table's top; the ``given`` artificial ones placed where
    their share falls among them (``own``: a player's mean MP% for ``averaged``)."""
    expected = len(played) + len(given)
    mps = [neuberg(mp, len(played), expected) for mp in matchpoints([s for _, s in played])]
    pcts = [percent_of(mp, expected) for mp in mps]
    out = [
        Scored(p, mp, pct, place_among(pct, pcts, dense), None)
        for (p, _), mp, pct in zip(played, mps, pcts, strict=True)
    ]
    for player, kind in given:
        pct = PERCENT[kind] if kind in PERCENT else own(player)
        out.append(Scored(player, pct * 2 * (expected - 1) / 100, pct, place_among(pct, pcts, dense), kind))
    return sorted(out, key=lambda s: (s.place, -s.pct, s.player))

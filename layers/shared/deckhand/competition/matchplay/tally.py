"""Totals from a history of results: match points, level points, opponents, byes, meetings."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .entrants import MatchResult


@dataclass
class TeamTotals:
    mp: int = 0
    lp: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)  # one entry per game played (forfeits count)


@dataclass(frozen=True)
class Tally:
    totals: dict[str, TeamTotals]
    met: frozenset[frozenset[str]]  # every pair of teams that has met (a rematch is never paired)
    results: tuple[MatchResult, ...]

    def get(self, team: str) -> TeamTotals:
        return self.totals.get(team, TeamTotals())

    def have_met(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.met

    def opponents_lp(self, team: str) -> int:
        """对手分 (RULES.md §4.3 ranking 4): each opponent's total LP, once per game; byes add nothing."""
        return sum(self.get(o).lp for o in self.get(team).opponents)


def tally(results: Iterable[MatchResult]) -> Tally:
    totals: dict[str, TeamTotals] = {}
    met: set[frozenset[str]] = set()
    kept = tuple(results)
    for r in kept:
        ta = totals.setdefault(r.a, TeamTotals())
        ta.mp += r.mp[0]
        ta.lp += r.lp[0]
        if r.b is None:
            ta.byes += 1
            continue
        tb = totals.setdefault(r.b, TeamTotals())
        tb.mp += r.mp[1]
        tb.lp += r.lp[1]
        ta.opponents.append(r.b)
        tb.opponents.append(r.a)
        met.add(frozenset((r.a, r.b)))
    return Tally(totals, frozenset(met), kept)

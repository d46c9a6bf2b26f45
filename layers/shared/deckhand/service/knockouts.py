"""A knockout of pairs run by the service (RULES.md §4.3 Single elimination; 002 §25.一): the bracket
drawn from the pairs' seeds (then registration numbers), each round's matches resolved from the
results so far, places by the round a pair was knocked out in."""

from __future__ import annotations

from dataclasses import dataclass

from ..competition.matchplay import knockout
from ..competition.matchplay.entrants import Entrant, MatchResult
from .events import Conflict


@dataclass(frozen=True)
class Bracket:
    plan: list[knockout.Match]
    team_of: dict[int, str]  # seed → pair
    seed_of: dict[str, int]
    winners: dict[str, int]  # match id → the winner's seed, for every match played so far

    @property
    def rounds(self) -> int:
        return max(m.round for m in self.plan)

    def matches(self, round_no: int) -> list[tuple[str | None, str | None]]:
        """The pairs of a round's matches (None: a walkover's empty side — the other goes on)."""
        resolved = knockout.resolve(self.plan, self.winners)
        out = []
        for m in self.plan:
            r = resolved.get(m.id)
            if m.round == round_no and r is not None:
                out.append((self.team_of.get(r.a) if r.a else None, self.team_of.get(r.b) if r.b else None))
        return out

    def places(self) -> dict[str, int]:
        seeds = list(self.team_of)
        return {
            self.team_of[s]: p for s, p in knockout.knockout_places(self.plan, self.winners, seeds).items()
        }


def bracket(field: list[Entrant], history: list[MatchResult], upto_round: int) -> Bracket:
    """The bracket with the results of rounds 1…``upto_round`` filled in."""
    order = sorted(field, key=lambda e: (e.seed is None, e.seed or 0, e.reg))
    team_of = {i + 1: e.id for i, e in enumerate(order)}
    seed_of = {t: s for s, t in team_of.items()}
    plan = knockout.single_elimination(len(order))
    winners: dict[str, int] = {}
    for r in range(1, upto_round + 1):
        resolved = knockout.resolve(plan, winners)
        for m in plan:
            sides = resolved.get(m.id)
            if m.round != r or sides is None or sides.a is None or sides.b is None:
                continue
            a, b = team_of[sides.a], team_of[sides.b]
            result = next((h for h in history if h.round == r and {h.a, h.b} == {a, b}), None)
            if result is None:
                raise Conflict(f"the knockout's round {r} match {a} v {b} has no result")
            if result.mp[0] == result.mp[1]:
                raise Conflict(f"a knockout match cannot end level: {a} v {b} in round {r}")
            winner = result.a if result.mp[0] > result.mp[1] else result.b
            assert winner is not None
            winners[m.id] = seed_of[winner]
    return Bracket(plan, team_of, seed_of, winners)

"""Brackets run by the service (RULES.md §4.3; 002 §25, §29): single elimination (an optional 3rd-place
match) and double elimination (a reset final as an option), seeded by the order a format gives.

A bracket is played in waves: each round of the event plays every match of the bracket whose two
pairs are known and that is not played yet (a walkover — one side empty — advances its pair without
a game). So a double elimination's winners' and losers' matches of one wave share a round, and the
number of rounds follows from the field alone (the reset final, when the option is on, is the last
and is not played when the winners' bracket's pair wins the first final).
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass, field

from ...competition.matchplay import knockout
from ...competition.matchplay.entrants import MatchResult
from ...competition.matchplay.knockout import Bracket as Part
from ...competition.matchplay.knockout import FinalReset
from ..organiser.events import Conflict

# How late in a wave a pair's elimination ranks it: the final's loser is second, the 3rd-place match's
# winner third, its loser fourth — all eliminated in the same wave.
_TIER = {Part.FINAL: 3, Part.RESET: 3, Part.THIRD_PLACE: 1}


@dataclass
class BracketRun:
    plan: list[knockout.Match]
    team_of: dict[int, str]  # seed → pair
    double: bool
    final: FinalReset = FinalReset.ONE_FINAL
    winners: dict[str, int] = field(default_factory=dict)  # match id → the winner's seed
    wave_of: dict[str, int] = field(default_factory=dict)  # match id → the wave it was played in

    @property
    def seed_of(self) -> dict[str, int]:
        return {t: s for s, t in self.team_of.items()}

    def ready(self) -> list[tuple[knockout.Match, int, int]]:
        """The matches the next wave plays: both pairs known, not played yet."""
        resolved = knockout.resolve(self.plan, self.winners)
        out = []
        for m in self.plan:
            r = resolved.get(m.id)
            if r is not None and r.a is not None and r.b is not None and m.id not in self.winners:
                out.append((m, r.a, r.b))
        return out

    def walkovers(self) -> list[str]:
        """Pairs advanced without a game in the bracket's first round (byes to the strongest)."""
        resolved = knockout.resolve(self.plan, {})
        return [
            self.team_of[r.a or r.b]  # type: ignore[index]
            for m in self.plan
            if m.round == 1 and m.bracket is Part.WINNERS
            for r in [resolved[m.id]]
            if (r.a is None) != (r.b is None)
        ]

    def play_wave(
        self, results: Sequence[MatchResult], round_no: int, inactive: Set[str] = frozenset()
    ) -> None:
        """Fill in the next wave from the event's results of ``round_no``.

        ⚖ Two pairs both withdrawn or disqualified meet in no game and leave no result: the better
        seed goes on, so its next opponent wins by forfeit (the bracket keeps its shape)."""
        wave = 1 + max(self.wave_of.values(), default=0)
        for m, a, b in self.ready():
            ta, tb = self.team_of[a], self.team_of[b]
            result = next((h for h in results if h.round == round_no and {h.a, h.b} == {ta, tb}), None)
            if result is None and ta in inactive and tb in inactive:
                self.winners[m.id] = min(a, b)
                self.wave_of[m.id] = wave
                continue
            if result is None:
                raise Conflict(f"round {round_no}: the bracket's match {m.id}, {ta} v {tb}, has no result")
            if result.mp[0] == result.mp[1]:
                raise Conflict(f"a bracket's match cannot end level: {ta} v {tb} in round {round_no}")
            winner = result.a if result.mp[0] > result.mp[1] else result.b
            assert winner is not None
            self.winners[m.id] = self.seed_of[winner]
            self.wave_of[m.id] = wave

    def waves(self) -> int:
        """How many waves the bracket takes for its field, the reset final included (the most)."""
        trial = BracketRun(self.plan, self.team_of, self.double, self.final)
        count = 0
        while ready := trial.ready():
            count += 1
            for m, a, b in ready:
                # The losers' bracket's pair wins the first final, so the reset (if any) is counted.
                trial.winners[m.id] = b if m.bracket is Part.FINAL else a
                trial.wave_of[m.id] = count
        return count

    def finished(self) -> bool:
        return not self.ready()

    def places(self) -> dict[str, int]:
        """Places so far: a pair knocked out in a later wave ranks above one knocked out earlier; pairs
        knocked out in the same wave share a place; the pairs still in share the first place."""
        resolved = knockout.resolve(self.plan, self.winners)
        out_at: dict[int, tuple[int, int]] = {}
        for m in self.plan:
            r = resolved.get(m.id)
            if r is None or r.a is None or r.b is None or m.id not in self.winners:
                continue
            won = self.winners[m.id]
            lost = r.b if won == r.a else r.a
            wave = self.wave_of[m.id]
            if m.bracket is Part.THIRD_PLACE:
                out_at[won] = (wave, 2)
                out_at[lost] = (wave, 1)
            elif self._eliminates(m, lost, r.a):
                final = not self.double and m.bracket is Part.WINNERS and m.round == self._last()
                out_at[lost] = (wave, 3 if final else _TIER.get(m.bracket, 0))
                third = self._walkover_third(resolved) if final else None
                if third is not None:  # a field of three: the 3rd-place match is a walkover
                    out_at[third] = (wave, 2)
        never = (10**6, 0)
        keys = {s: out_at.get(s, never) for s in self.team_of}
        return {t: 1 + sum(1 for k in keys.values() if k > keys[s]) for s, t in self.team_of.items()}

    def _walkover_third(self, resolved: dict[str, knockout.Resolved]) -> int | None:
        third = next((m for m in self.plan if m.bracket is Part.THIRD_PLACE), None)
        r = resolved.get(third.id) if third is not None else None
        if r is None or (r.a is None) == (r.b is None):
            return None
        return r.a if r.a is not None else r.b

    def _last(self) -> int:
        return max(m.round for m in self.plan if m.bracket is Part.WINNERS)

    def _eliminates(self, m: knockout.Match, lost: int | None, side_a: int | None) -> bool:
        if lost is None:
            return False
        if not self.double:
            if m.bracket is Part.WINNERS and any(x.bracket is Part.THIRD_PLACE for x in self.plan):
                return m.round != self._last() - 1  # a semi-final's loser plays for 3rd place
            return True
        if m.bracket is Part.WINNERS:
            return False  # a first loss drops the pair into the losers' bracket
        if m.bracket is Part.FINAL and self.final is FinalReset.RESET:
            return lost != side_a  # the winners' bracket's pair, beaten once, plays the reset final
        return True


def run(
    plan: list[knockout.Match],
    seeds: Sequence[str],
    results: Sequence[MatchResult],
    first_round: int,
    upto_round: int,
    *,
    double: bool = False,
    final: FinalReset = FinalReset.ONE_FINAL,
    inactive: Set[str] = frozenset(),
) -> BracketRun:
    """The bracket of ``seeds`` (best first) played from ``first_round``, with the results of its
    rounds up to ``upto_round`` filled in (``inactive``: pairs withdrawn or disqualified)."""
    bracket = BracketRun(plan, {i + 1: t for i, t in enumerate(seeds)}, double, final)
    for r in range(first_round, upto_round + 1):
        if bracket.finished():
            break
        bracket.play_wave(results, r, inactive)
    return bracket


def first_round(seeds: Sequence[str]) -> list[list[str]]:
    """The matches a single-elimination bracket of ``seeds`` (best first) plays in its first round."""
    bracket = run(knockout.single_elimination(len(seeds), knockout.ThirdPlace.NONE), seeds, [], 1, 0)
    return [[bracket.team_of[a], bracket.team_of[b]] for _, a, b in bracket.ready()]

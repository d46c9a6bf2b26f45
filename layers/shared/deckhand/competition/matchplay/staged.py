"""Staged formats (RULES.md §4.3; 002 §28–29): Swiss with cut, and Swiss then knockout."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .entrants import Entrant, MatchResult, Status
from .errors import MatchPlayError
from .knockout import KnockoutMatchRule, Match, ThirdPlace, single_elimination
from .ranking import DEFAULT_RANKING, FinalTie, RankingOptions, rank


@dataclass(frozen=True)
class CutUnit:
    """A unit of Swiss rounds (§28: 2–3) after which the lowest ``leave`` pairs leave."""

    rounds: int
    leave: int


@dataclass(frozen=True)
class SwissWithCut:
    """§28: units of Swiss; scores carry on and no rematch across units (one history for all)."""

    units: tuple[CutUnit, ...]

    def __post_init__(self) -> None:
        for i, unit in enumerate(self.units):
            last = i == len(self.units) - 1
            if unit.rounds < 1 or (not last and not 2 <= unit.rounds <= 3):
                raise MatchPlayError(f"units[{i}].rounds", "a unit before a cut has 2–3 rounds (§28)")
            if unit.leave < 0 or (last and unit.leave):
                raise MatchPlayError(f"units[{i}].leave", "the last unit ranks the field; it cuts nobody")

    def cut_after(self, round_no: int) -> int:
        """How many pairs leave after ``round_no`` (0 unless it ends a unit)."""
        end = 0
        for unit in self.units:
            end += unit.rounds
            if round_no == end:
                return unit.leave
        return 0


def apply_cut(
    entrants: Sequence[Entrant],
    history: Sequence[MatchResult],
    leave: int,
    options: RankingOptions = DEFAULT_RANKING,
) -> list[Entrant]:
    """The field after a cut: the lowest ``leave`` active pairs by the ranking chain are withdrawn.

    ⚖ Pairs sharing the cut line are separated by lot (the chain's step 5 with ``FinalTie.LOT``):
    a cut must decide who stays.
    """
    active = [e for e in entrants if e.active]
    if not 0 <= leave < len(active):
        raise MatchPlayError("leave", f"cannot cut {leave} of {len(active)} active pairs")
    lot = replace(options, final=FinalTie.LOT)
    order = [s.team for s in rank(active, history, lot)]
    out_ids = set(order[len(order) - leave :]) if leave else set()
    return [replace(e, status=Status.WITHDRAWN) if e.id in out_ids else e for e in entrants]


@dataclass(frozen=True)
class SwissThenKnockout:
    """§29: 2ⁿ pairs from the Swiss go on to a knockout of several games a match."""

    qualifiers: int
    match_rule: KnockoutMatchRule | None = None  # None: each match is one game (or the round's format)
    third_place: ThirdPlace = ThirdPlace.NONE

    def __post_init__(self) -> None:
        q = self.qualifiers
        if q < 2 or q & (q - 1):
            raise MatchPlayError("qualifiers", f"the knockout takes 2ⁿ pairs, got {q}")

    def draw(
        self,
        entrants: Sequence[Entrant],
        history: Sequence[MatchResult],
        options: RankingOptions = DEFAULT_RANKING,
    ) -> tuple[list[str], list[Match]]:
        """The qualifiers in seed order (Swiss places, ties by lot) and the knockout plan."""
        lot = replace(options, final=FinalTie.LOT)
        standings = rank([e for e in entrants if e.active], history, lot)
        if len(standings) < self.qualifiers:
            raise MatchPlayError(
                "qualifiers", f"only {len(standings)} active pairs for {self.qualifiers} places"
            )
        seeds = [s.team for s in standings[: self.qualifiers]]
        return seeds, single_elimination(self.qualifiers, self.third_place)

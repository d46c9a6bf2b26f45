"""A manual Swiss pairing checked against the same rules (RULES.md §4.3: warnings, an override)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from .entrants import Entrant, MatchResult
from .errors import CannotPairError, MatchPlayError
from .swiss import DEFAULT_OPTIONS, ClubRule, RegionRule, SwissOptions, pair_round, table_cost
from .tally import tally


class Concern(Enum):
    REMATCH = "rematch"
    FORBIDDEN = "forbidden_pair"
    SAME_CLUB = "same_club"
    SAME_REGION_ROUND1 = "same_region_round1"
    REPEATED_BYE = "repeated_bye"
    INACTIVE = "inactive"
    UNPAIRED = "unpaired"
    COSTLIER = "costlier_than_swiss"  # a higher Σ (match-point difference)² than the computed pairing
    BYE_RULE = "bye_rule"  # the bye is not where the §4.3 bye rule puts it


@dataclass(frozen=True)
class Warning:
    concern: Concern
    teams: tuple[str, ...]
    message: str


@dataclass(frozen=True)
class Override:
    """What the log keeps when an organiser pairs by hand: the pairing, its warnings and why."""

    round: int
    pairs: tuple[tuple[str, str], ...]
    bye: str | None
    warnings: tuple[Warning, ...]
    reason: str


def check_pairing(
    entrants: Sequence[Entrant],
    history: Sequence[MatchResult],
    round_no: int,
    pairs: Sequence[tuple[str, str]],
    bye: str | None = None,
    options: SwissOptions = DEFAULT_OPTIONS,
) -> list[Warning]:
    """Every way a manual pairing departs from the Swiss rules; unknown or repeated teams are errors."""
    by_id = {e.id: e for e in entrants}
    seated: list[str] = [t for p in pairs for t in p] + ([bye] if bye is not None else [])
    for t in seated:
        if t not in by_id:
            raise MatchPlayError("pairs", f"unknown team {t!r}")
    if len(seated) != len(set(seated)):
        raise MatchPlayError("pairs", "a team is seated twice")
    totals = tally(history)
    out: list[Warning] = []
    for a, b in pairs:
        ea, eb = by_id[a], by_id[b]
        if totals.have_met(a, b):
            out.append(Warning(Concern.REMATCH, (a, b), f"{a} and {b} have met before"))
        if frozenset((a, b)) in options.forbidden_pairs:
            out.append(Warning(Concern.FORBIDDEN, (a, b), f"{a} and {b} may not meet"))
        if options.clubs is ClubRule.FORBID and ea.club is not None and ea.club == eb.club:
            out.append(Warning(Concern.SAME_CLUB, (a, b), f"{a} and {b} are both of club {ea.club}"))
        if (
            round_no == 1
            and options.regions is RegionRule.SEPARATE_ROUND1
            and ea.region is not None
            and ea.region == eb.region
        ):
            out.append(Warning(Concern.SAME_REGION_ROUND1, (a, b), f"{a} and {b} are both of {ea.region}"))
    if bye is not None and totals.get(bye).byes:
        out.append(Warning(Concern.REPEATED_BYE, (bye,), f"{bye} has had a bye already"))
    for t in seated:
        if not by_id[t].active:
            out.append(Warning(Concern.INACTIVE, (t,), f"{t} has withdrawn"))
    for e in entrants:
        if e.active and e.id not in seated:
            out.append(Warning(Concern.UNPAIRED, (e.id,), f"{e.id} is not paired"))
    try:
        computed = pair_round(entrants, history, round_no, options)
    except CannotPairError:
        computed = None
    if computed is not None and computed.bye is not None and bye != computed.bye:
        out.append(
            Warning(Concern.BYE_RULE, (computed.bye,), f"the bye rule gives the bye to {computed.bye}")
        )
    if (
        round_no > 1
        and computed is not None
        and table_cost(pairs, totals) > table_cost(computed.pairs, totals)
    ):
        out.append(Warning(Concern.COSTLIER, (), "the Swiss pairing has a lower Σ (match-point difference)²"))
    return out


def override(
    entrants: Sequence[Entrant],
    history: Sequence[MatchResult],
    round_no: int,
    pairs: Sequence[tuple[str, str]],
    bye: str | None,
    reason: str,
    options: SwissOptions = DEFAULT_OPTIONS,
) -> Override:
    """Accept a manual pairing as an override, recording its warnings and the reason given."""
    if not reason.strip():
        raise MatchPlayError("reason", "an override needs a reason for the log")
    warnings = check_pairing(entrants, history, round_no, pairs, bye, options)
    return Override(round_no, tuple((a, b) for a, b in pairs), bye, tuple(warnings), reason)

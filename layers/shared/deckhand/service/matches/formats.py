"""What a match event's format decides (RULES.md §4.3; 002 §25–29): who meets whom in a round, how
many rounds the field takes, when the event is over, and the places.

The competition core draws (Swiss pairing, Berger tables, brackets, cuts); this module reads the
event's settings and its results into those and answers per round. Everything is recomputed from
the registered field and the results, so a retry or a restart finds the same answer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from string import ascii_uppercase

from ...competition.matchplay import knockout, ranking, round_robin, swiss
from ...competition.matchplay.entrants import Entrant, MatchResult, Status
from ...competition.matchplay.errors import CannotPairError, MatchPlayError
from ...competition.matchplay.staged import SwissThenKnockout, apply_cut
from ..organiser.events import Conflict
from ..organiser.match_settings import KnockoutDraw, MatchFormat, MatchSettings
from .knockouts import BracketRun, run


class PairingProblem(Conflict):
    """The round cannot be paired (no rematch-free pairing): the organiser is told (RULES.md §4.3)."""


@dataclass
class RoundPlan:
    """One round's tables and the pairs without a game in it."""

    pairs: list[list[str]]  # [pair at seats 0/2, pair at seats 1/3] a table
    source: str  # swiss | schedule | knockout
    bye: str | None = None  # Swiss: a forfeit win, no opponent
    rests: list[str] = field(default_factory=list)  # round robin: no game this round, no score
    forfeits: list[list[str]] = field(default_factory=list)  # [winner, loser]: a withdrawn pair's game
    walkovers: list[str] = field(default_factory=list)  # a bracket's byes: on without a game
    labels: list[str] = field(default_factory=list)  # per table: its bracket match (W1-1, L2-1, F, 3rd)
    stage: str = ""  # swiss | group | knockout
    bracket: bool = False  # no game is drawn; the knockout match rule applies
    seeds: list[str] = field(default_factory=list)  # the knockout's first round: its seeds, kept
    cuts: dict[int, list[str]] = field(default_factory=dict)  # a unit's first round: who was cut, kept


@dataclass(frozen=True)
class Frozen:
    """Draws made once and kept (stored with the pairing of the round that first used them), so a
    later withdrawal or disqualification never redraws the past: the knockout's seeds after the
    Swiss, and who each cut of a Swiss with cut removed (end of unit → pairs)."""

    seeds: tuple[str, ...] = ()
    cuts: tuple[tuple[int, tuple[str, ...]], ...] = ()

    def cut_after(self, end: int) -> tuple[str, ...] | None:
        return next((teams for e, teams in self.cuts if e == end), None)


NOTHING_KEPT = Frozen()


def _by_seed(entrants: Sequence[Entrant], lot: str | None = None) -> list[Entrant]:
    """Seeds first, then registration — or, drawn by ``lot`` (a round's secret), the rest by lot."""

    def drawn(e: Entrant) -> str:
        return hashlib.sha256(f"deckhand/draw/{lot}/{e.id}".encode()).hexdigest() if lot is not None else ""

    return sorted(entrants, key=lambda e: (e.seed is None, e.seed or 0, drawn(e), e.reg))


def drawn_by_lot(entrants: Sequence[Entrant], lot: str) -> list[str]:
    """A knockout's seeds drawn by lot from round 1's secret (the registered seeds first): ``deckhand
    verify`` draws them again from an export."""
    return [e.id for e in _by_seed(entrants, lot)]


def groups(settings: MatchSettings, entrants: Sequence[Entrant]) -> list[list[str]]:
    """A round robin's groups (002 §26.一): snake by strength (seeds, then registration); one group
    holds the whole field. Fixed by the registered field: a pair that leaves keeps its place."""
    n = settings.round_robin.groups
    if n > 1 and len(entrants) < 2 * n:
        raise Conflict(f"{n} round-robin groups need at least {2 * n} pairs, {len(entrants)} registered")
    reg = {e.id: e.reg for e in entrants}
    if n == 1:
        return [sorted(reg, key=reg.__getitem__)]
    drawn = round_robin.snake_groups([e.id for e in _by_seed(entrants)], n)
    return [sorted(g, key=reg.__getitem__) for g in drawn]


def group_name(index: int) -> str:
    return ascii_uppercase[index] if index < 26 else f"G{index + 1}"


def _schedules(
    settings: MatchSettings, entrants: Sequence[Entrant]
) -> list[list[list[tuple[str | None, str | None]]]]:
    return [round_robin.schedule(g, settings.round_robin.legs) for g in groups(settings, entrants)]


def _games_of(
    games: Sequence[tuple[str | None, str | None]],
    active: set[str],
    plan: RoundPlan,
    labels: Sequence[str] = (),
) -> None:
    """Tables for the games of pairs both still in; a withdrawn or disqualified pair's game is its
    opponent's forfeit win (RULES.md §4.3); an empty side is a rest (round robin) or a walkover."""
    for i, (a, b) in enumerate(games):
        if a is None or b is None:
            if a or b:
                plan.rests.append(a or b)  # type: ignore[arg-type]
            continue
        if a in active and b in active:
            plan.pairs.append([a, b])
            if labels:
                plan.labels.append(labels[i])
        elif a in active or b in active:
            plan.forfeits.append([a, b] if a in active else [b, a])


def _bracket(
    settings: MatchSettings,
    entrants: Sequence[Entrant],
    history: Sequence[MatchResult],
    upto_round: int,
    frozen: Frozen = NOTHING_KEPT,
    lot: str | None = None,
) -> tuple[BracketRun, int] | None:
    """The event's bracket (None before the knockout stage) and the round it starts in; a bracket
    drawn by lot is drawn by round 1's secret (``lot``) and kept from then on (``frozen``)."""
    ko = settings.knockout
    inactive = {e.id for e in entrants if not e.active}
    if settings.format is MatchFormat.SWISS_THEN_KNOCKOUT:
        first = settings.stages.swiss_rounds + 1
        if upto_round < first - 1:
            return None
        seeds = list(frozen.seeds) or knockout_seeds(settings, entrants, history)
        plan = knockout.single_elimination(len(seeds), ko.third_place)
        return run(plan, seeds, history, first, upto_round, inactive=inactive), first
    if settings.format is MatchFormat.KNOCKOUT:
        plan = knockout.single_elimination(len(entrants), ko.third_place)
    elif settings.format is MatchFormat.DOUBLE_ELIMINATION:
        plan = knockout.double_elimination(len(entrants), ko.final)
    else:
        return None
    by_lot = settings.knockout.draw is KnockoutDraw.LOT
    seeds = list(frozen.seeds) or [e.id for e in _by_seed(entrants, (lot or "") if by_lot else None)]
    double = settings.format is MatchFormat.DOUBLE_ELIMINATION
    return run(plan, seeds, history, 1, upto_round, double=double, final=ko.final, inactive=inactive), 1


def knockout_seeds(
    settings: MatchSettings, entrants: Sequence[Entrant], history: Sequence[MatchResult]
) -> list[str]:
    """002 §29: the Swiss's top pairs still in, by their Swiss places (ties by lot), drawn when the
    Swiss ends and kept from then on (Frozen)."""
    ko = settings.knockout
    stage = SwissThenKnockout(settings.stages.qualifiers, ko.match, ko.third_place)
    first = settings.stages.swiss_rounds + 1
    try:
        seeds, _ = stage.draw(entrants, [h for h in history if h.round < first], settings.ranking_options())
    except MatchPlayError as exc:
        raise Conflict(f"the knockout stage cannot be drawn: {exc}") from None
    return seeds


def rounds_needed(settings: MatchSettings, entrants: Sequence[Entrant]) -> int | None:
    """The rounds the format takes for this field (None: the organiser's choice — a plain Swiss)."""
    fixed = settings.stages.fixed_rounds()
    if fixed is not None:
        return fixed
    if settings.format is MatchFormat.ROUND_ROBIN:
        return max(len(s) for s in _schedules(settings, entrants))
    if settings.format in (MatchFormat.KNOCKOUT, MatchFormat.DOUBLE_ELIMINATION):
        drawn = _bracket(settings, entrants, [], 0)
        assert drawn is not None
        return drawn[0].waves()
    return None


def check_rounds(settings: MatchSettings, entrants: Sequence[Entrant], rounds: int) -> None:
    """The event's rounds are the format's for this field, and the field is large enough for its
    stages (checked at every pairing: a withdrawal may shrink it)."""
    need = rounds_needed(settings, entrants)
    if need is not None and need != rounds:
        raise Conflict(
            f"a {settings.format.value} of {len(entrants)} pairs takes {need} rounds; the event has {rounds}"
        )
    active = len([e for e in entrants if e.active])
    stages = settings.stages
    if stages.qualifiers and active < stages.qualifiers:
        raise Conflict(f"the knockout takes {stages.qualifiers} pairs; only {active} are still in the event")
    if stages.cut is not None:
        leaving = sum(u.leave for u in stages.cut.units)
        if active - leaving < 2:
            raise Conflict(f"the cuts remove {leaving} of {active} pairs still in: at least 2 must play on")


def _swiss_field(
    settings: MatchSettings,
    entrants: Sequence[Entrant],
    history: Sequence[MatchResult],
    round_no: int,
    frozen: Frozen = NOTHING_KEPT,
) -> tuple[list[Entrant], dict[int, list[str]]]:
    """The Swiss field of ``round_no`` and who each cut before it removed: after each unit of a
    Swiss with cut, its lowest pairs leave (002 §28; ties at the line by lot), scores carried on. A
    cut made before is kept as it was (``frozen``)."""
    out = list(entrants)
    cuts: dict[int, list[str]] = {}
    cut = settings.stages.cut
    if cut is None:
        return out, cuts
    end = 0
    for unit in cut.units:
        end += unit.rounds
        if end >= round_no or not unit.leave:
            continue
        kept = frozen.cut_after(end)
        if kept is not None:
            gone = set(kept)
        else:
            before = {e.id for e in out if e.active}
            try:
                after = apply_cut(
                    out, [h for h in history if h.round <= end], unit.leave, settings.ranking_options()
                )
            except MatchPlayError as exc:
                raise Conflict(f"the cut after round {end}: {exc}") from None
            gone = before - {e.id for e in after if e.active}
        cuts[end] = sorted(gone)
        out = [replace(e, status=Status.WITHDRAWN) if e.id in gone and e.active else e for e in out]
    return out, cuts


def plan_round(
    settings: MatchSettings,
    entrants: Sequence[Entrant],
    history: Sequence[MatchResult],
    round_no: int,
    frozen: Frozen = NOTHING_KEPT,
    lot: str | None = None,
) -> RoundPlan:
    """The round's tables by the event's format (``history``: the results of the rounds before;
    ``lot``: the round's secret, for a bracket drawn by lot)."""
    active = {e.id for e in entrants if e.active}
    fmt = settings.format
    if fmt is MatchFormat.ROUND_ROBIN:
        schedules = _schedules(settings, entrants)
        plan = RoundPlan([], "schedule", stage="group")
        for sched in schedules:
            if round_no <= len(sched):
                _games_of(sched[round_no - 1], active, plan)
        if round_no > max(len(s) for s in schedules):
            raise Conflict(f"the round robin has {max(len(s) for s in schedules)} rounds")
        return plan
    drawn = _bracket(settings, entrants, history, round_no - 1, frozen, lot)
    if drawn is not None:
        bracket, first = drawn
        ready = bracket.ready()
        if not ready:
            raise Conflict(f"the bracket is complete: no match is left for round {round_no}")
        plan = RoundPlan([], "knockout", stage="knockout", bracket=True)
        games = [(bracket.team_of[a], bracket.team_of[b]) for _, a, b in ready]
        labels = [m.id for m, _, _ in ready]
        for (a, b), label in zip(games, labels, strict=True):
            if a in active and b in active:
                plan.pairs.append([a, b])
                plan.labels.append(label)
            elif a in active or b in active:
                plan.forfeits.append([a, b] if a in active else [b, a])
        if round_no == first:
            plan.walkovers = bracket.walkovers()
            if fmt is MatchFormat.SWISS_THEN_KNOCKOUT or settings.knockout.draw is KnockoutDraw.LOT:
                plan.seeds = [bracket.team_of[i] for i in sorted(bracket.team_of)]
        return plan
    field_now, cuts = _swiss_field(settings, entrants, history, round_no, frozen)
    try:
        pairing = swiss.pair_round(field_now, list(history), round_no, settings.swiss_options(list(entrants)))
    except CannotPairError as exc:
        raise PairingProblem(str(exc)) from None
    plan = RoundPlan([list(p) for p in pairing.pairs], "swiss", bye=pairing.bye, stage="swiss")
    if round_no - 1 in cuts:  # the first round after a cut keeps who it removed
        plan.cuts = {round_no - 1: cuts[round_no - 1]}
    return plan


def is_bracket_round(settings: MatchSettings, round_no: int) -> bool:
    """Rounds of a bracket: no game is drawn in them, and the knockout match rule applies."""
    if settings.format is MatchFormat.SWISS_THEN_KNOCKOUT:
        return round_no > settings.stages.swiss_rounds
    return settings.format in (MatchFormat.KNOCKOUT, MatchFormat.DOUBLE_ELIMINATION)


def undrawn_tables(
    settings: MatchSettings, entrants: Sequence[Entrant], history: Sequence[MatchResult], round_no: int,
    rounds: int, pairs: Sequence[Sequence[str]],
) -> set[int]:  # fmt: skip
    """The tables of a round whose match may not be drawn: every table of a bracket's round; in a
    Swiss's last rounds with the extra-board option, the matches between two leading pairs."""
    if is_bracket_round(settings, round_no):
        return set(range(len(pairs)))
    extra = settings.extra_board
    if not extra.last_rounds or round_no <= rounds - extra.last_rounds:
        return set()
    before = [h for h in history if h.round < round_no]
    leading = {s.team for s in ranking.rank(entrants, before, settings.ranking_options())[: extra.leading]}
    return {i for i, (a, b) in enumerate(pairs) if a in leading and b in leading}


def over_after(
    settings: MatchSettings,
    entrants: Sequence[Entrant],
    history: Sequence[MatchResult],
    round_no: int,
    frozen: Frozen = NOTHING_KEPT,
) -> bool:
    """The format has nothing left to play after ``round_no`` (a double elimination's reset final is
    not played when the winners' bracket's pair won the first final)."""
    if not is_bracket_round(settings, round_no):
        return False
    drawn = _bracket(settings, entrants, history, round_no, frozen)
    return drawn is not None and drawn[0].finished()


@dataclass(frozen=True)
class Placed:
    standing: ranking.Standing
    group: str | None = None


def places(
    settings: MatchSettings,
    entrants: Sequence[Entrant],
    history: Sequence[MatchResult],
    upto_round: int,
    frozen: Frozen = NOTHING_KEPT,
) -> list[Placed]:
    """The standings after ``upto_round`` as the format places them (RULES.md §4.3 Ranking; a bracket's
    places by the round a pair was knocked out in; a staged event's by the stage a pair reached,
    each stage's pairs ranked on the results up to the stage they left in)."""
    options = settings.ranking_options()
    results = [h for h in history if h.round <= upto_round]
    if settings.format is MatchFormat.ROUND_ROBIN and settings.round_robin.groups > 1:
        out: list[Placed] = []
        for i, members in enumerate(groups(settings, entrants)):
            inside = [e for e in entrants if e.id in members]
            own = [h for h in results if h.a in members]
            out += [Placed(s, group_name(i)) for s in ranking.rank(inside, own, options)]
        return out
    ranked = ranking.rank(entrants, results, options)
    if is_bracket_round(settings, upto_round):
        drawn = _bracket(settings, entrants, results, upto_round, frozen)
        assert drawn is not None
        bracket_places = drawn[0].places()
        top = sorted(
            (replace(s, place=bracket_places[s.team], decided_by=ranking.Step.KNOCKOUT)
             for s in ranked if s.team in bracket_places),
            key=lambda s: s.place,
        )  # fmt: skip
        rest = [e for e in entrants if e.id not in bracket_places]
        swiss_end = settings.stages.swiss_rounds
        below = ranking.rank(rest, [h for h in results if h.round <= swiss_end], options) if rest else []
        return _stacked([(top, None), (below, ranking.Step.CUT)])
    if settings.stages.cut is not None:
        return _cut_places(settings, entrants, results, upto_round, frozen, ranked)
    return [Placed(s) for s in ranked]


def _cut_places(
    settings: MatchSettings,
    entrants: Sequence[Entrant],
    results: Sequence[MatchResult],
    upto_round: int,
    frozen: Frozen,
    ranked: list[ranking.Standing],
) -> list[Placed]:
    """A Swiss with cut: the pairs that played on first, then those cut after each unit, latest cut
    first; a pair that left otherwise ranks with the stage of its last game."""
    try:
        _, cuts = _swiss_field(settings, entrants, results, upto_round + 1, frozen)
    except Conflict:
        cuts = {}
    stage: dict[str, int] = {}
    for end, teams in cuts.items():
        for t in teams:
            stage[t] = end
    for e in entrants:
        if e.id not in stage and not e.active:
            stage[e.id] = max((h.round for h in results if e.id in h.teams()), default=0)
    on = 10**6
    levels = sorted({stage.get(e.id, on) for e in entrants}, reverse=True)
    options = settings.ranking_options()
    layers: list[tuple[list[ranking.Standing], ranking.Step | None]] = []
    for level in levels:
        members = [e for e in entrants if stage.get(e.id, on) == level]
        upto = upto_round if level == on else level
        inside = ranking.rank(members, [h for h in results if h.round <= upto], options)
        layers.append((inside, ranking.Step.CUT if layers else None))
    return _stacked(layers)


def _stacked(layers: list[tuple[list[ranking.Standing], ranking.Step | None]]) -> list[Placed]:
    """Layers best first, each with its own places (shared places kept); the pair at the top of a
    lower layer is placed there by ``step`` (it went less far)."""
    out: list[Placed] = []
    offset = 0
    for standings, step in layers:
        for i, s in enumerate(standings):
            decided = step if (i == 0 and step is not None and offset) else s.decided_by
            out.append(Placed(replace(s, place=offset + s.place, decided_by=decided)))
        offset += len(standings)
    return out

"""What a match event's format decides (RULES.md §4.3; 002 §25–29): who meets whom in a round, how
many rounds the field takes, when the event is over, and the places.

The competition core draws (Swiss pairing, Berger tables, brackets, cuts); this module reads the
event's settings and its results into those and answers per round. Everything is recomputed from
the registered field and the results, so a retry or a restart finds the same answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from string import ascii_uppercase

from ..competition.matchplay import knockout, ranking, round_robin, swiss
from ..competition.matchplay.entrants import Entrant, MatchResult
from ..competition.matchplay.errors import CannotPairError, MatchPlayError
from ..competition.matchplay.staged import SwissThenKnockout, apply_cut
from .events import Conflict
from .knockouts import BracketRun, run
from .match_settings import MatchFormat, MatchSettings


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


def _by_seed(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (e.seed is None, e.seed or 0, e.reg))


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
    settings: MatchSettings, entrants: Sequence[Entrant], history: Sequence[MatchResult], upto_round: int
) -> tuple[BracketRun, int] | None:
    """The event's bracket (None before the knockout stage) and the round it starts in."""
    ko = settings.knockout
    if settings.format is MatchFormat.SWISS_THEN_KNOCKOUT:
        first = settings.stages.swiss_rounds + 1
        if upto_round < first - 1:
            return None
        stage = SwissThenKnockout(settings.stages.qualifiers, ko.match, ko.third_place)
        swiss_results = [h for h in history if h.round < first]
        try:
            seeds, plan = stage.draw(entrants, swiss_results, settings.ranking_options())
        except MatchPlayError as exc:
            raise Conflict(f"the knockout stage cannot be drawn: {exc}") from None
        return run(plan, seeds, history, first, upto_round), first
    if settings.format is MatchFormat.KNOCKOUT:
        plan = knockout.single_elimination(len(entrants), ko.third_place)
    elif settings.format is MatchFormat.DOUBLE_ELIMINATION:
        plan = knockout.double_elimination(len(entrants), ko.final)
    else:
        return None
    seeds = [e.id for e in _by_seed(entrants)]
    double = settings.format is MatchFormat.DOUBLE_ELIMINATION
    return run(plan, seeds, history, 1, upto_round, double=double, final=ko.final), 1


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
    need = rounds_needed(settings, entrants)
    if need is not None and need != rounds:
        raise Conflict(
            f"a {settings.format.value} of {len(entrants)} pairs takes {need} rounds; the event has {rounds}"
        )


def _swiss_field(settings: MatchSettings, entrants: Sequence[Entrant], history: Sequence[MatchResult],
                 round_no: int) -> list[Entrant]:  # fmt: skip
    """The Swiss field of ``round_no``: after each unit of a Swiss with cut, its lowest pairs leave
    (002 §28; ties at the line by lot), scores carried on."""
    out = list(entrants)
    cut = settings.stages.cut
    if cut is None:
        return out
    end = 0
    for unit in cut.units:
        end += unit.rounds
        if end >= round_no or not unit.leave:
            continue
        try:
            out = apply_cut(
                out, [h for h in history if h.round <= end], unit.leave, settings.ranking_options()
            )
        except MatchPlayError as exc:
            raise Conflict(f"the cut after round {end}: {exc}") from None
    return out


def plan_round(
    settings: MatchSettings, entrants: Sequence[Entrant], history: Sequence[MatchResult], round_no: int
) -> RoundPlan:
    """The round's tables by the event's format (``history``: the results of the rounds before)."""
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
    drawn = _bracket(settings, entrants, history, round_no - 1)
    if drawn is not None:
        bracket, first = drawn
        ready = bracket.ready()
        if not ready:
            raise Conflict(f"the bracket is complete: no match is left for round {round_no}")
        plan = RoundPlan([], "knockout", stage="knockout", bracket=True)
        games = [(bracket.team_of[a], bracket.team_of[b]) for _, a, b in ready]
        _games_of(games, active, plan, [m.id for m, _, _ in ready])
        if round_no == first:
            plan.walkovers = bracket.walkovers()
        return plan
    field_now = _swiss_field(settings, entrants, history, round_no)
    try:
        pairing = swiss.pair_round(field_now, list(history), round_no, settings.swiss_options(list(entrants)))
    except CannotPairError as exc:
        raise PairingProblem(str(exc)) from None
    return RoundPlan([list(p) for p in pairing.pairs], "swiss", bye=pairing.bye, stage="swiss")


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


def over_after(settings: MatchSettings, entrants: Sequence[Entrant], history: Sequence[MatchResult],
               round_no: int) -> bool:  # fmt: skip
    """The format has nothing left to play after ``round_no`` (a double elimination's reset final is
    not played when the winners' bracket's pair won the first final)."""
    drawn = _bracket(settings, entrants, history, round_no)
    return drawn is not None and round_no >= drawn[1] and drawn[0].finished()


@dataclass(frozen=True)
class Placed:
    standing: ranking.Standing
    group: str | None = None


def places(
    settings: MatchSettings, entrants: Sequence[Entrant], history: Sequence[MatchResult], upto_round: int
) -> list[Placed]:
    """The standings after ``upto_round`` as the format places them (RULES.md §4.3 Ranking; a bracket's
    places by the round a pair was knocked out in; a staged event's by the stage a pair reached)."""
    options = settings.ranking_options()
    results = [h for h in history if h.round <= upto_round]
    ranked = ranking.rank(entrants, results, options)
    if settings.format is MatchFormat.ROUND_ROBIN and settings.round_robin.groups > 1:
        out: list[Placed] = []
        for i, members in enumerate(groups(settings, entrants)):
            inside = [e for e in entrants if e.id in members]
            own = [h for h in results if h.a in members]
            out += [Placed(s, group_name(i)) for s in ranking.rank(inside, own, options)]
        return out
    drawn = _bracket(settings, entrants, results, upto_round)
    if drawn is not None and (
        upto_round >= drawn[1] or settings.format is not MatchFormat.SWISS_THEN_KNOCKOUT
    ):
        bracket_places = drawn[0].places()
        return _layered(ranked, {t: (1, -p) for t, p in bracket_places.items()}, ranking.Step.KNOCKOUT,
                        shared_inside=set(bracket_places), stage_step=ranking.Step.CUT)  # fmt: skip
    if settings.stages.cut is not None:
        level: dict[str, tuple[int, ...]] = {}
        before = [e.id for e in entrants if e.active]
        still = set(before)
        end = 0
        for unit in settings.stages.cut.units:
            end += unit.rounds
            if end > upto_round or not unit.leave:
                continue
            still = {e.id for e in _swiss_field(settings, entrants, history, end + 1) if e.active}
            for t in set(before) - still:
                level.setdefault(t, (end,))
            before = sorted(still)
        keys = {s.team: level.get(s.team, (10**6,)) for s in ranked}
        return _layered(ranked, keys, ranking.Step.CUT, shared_inside=set(), stage_step=ranking.Step.CUT)
    return [Placed(s) for s in ranked]


def _layered(
    ranked: list[ranking.Standing],
    keys: dict[str, tuple[int, ...]],
    step: ranking.Step,
    *,
    shared_inside: set[str],
    stage_step: ranking.Step,
) -> list[Placed]:
    """Places by a stage key (higher first), then by the ranking inside a key — except the pairs of
    ``shared_inside``, whose key alone places them (pairs out in one knockout round share a place)."""
    order = {s.team: i for i, s in enumerate(ranked)}
    rank_place = {s.team: s.place for s in ranked}
    default = (0,)
    key = {s.team: keys.get(s.team, default) for s in ranked}
    rows = sorted(ranked, key=lambda s: (tuple(-x for x in key[s.team]), order[s.team]))
    out = []
    for i, s in enumerate(rows):
        k = key[s.team]
        higher = sum(1 for t in key.values() if t > k)
        if s.team in shared_inside:
            place, decided = 1 + higher, step
        else:
            place = 1 + higher + sum(1 for t in ranked if key[t.team] == k and rank_place[t.team] < s.place)
            separated = i > 0 and key[rows[i - 1].team] != k
            decided = stage_step if separated else s.decided_by
        out.append(Placed(replace(s, place=place, decided_by=decided)))
    return out

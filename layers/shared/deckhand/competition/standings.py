"""Board comparisons, round totals and standings with the tie-break chains of RULES.md §1.3.

Totals are kept in hundredths of a rank point (ints) so equal totals are equal exactly. AI results
(players-vs-AI bots and AI fill seats) are never compared or ranked.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from operator import itemgetter
from typing import Any, NamedTuple

from ..engines.registry import game
from ..engines.spec import BeatenCount, StandingsRule
from ..errors import DeckhandError
from . import artificial
from .artificial import Artificial
from .matchpoints import COMPETITION, DENSE, places, rank_points_cents


class Result(NamedTuple):
    """One player's result on one board."""

    player: str
    table: str
    seat: int
    score: float
    play_time: float = 0.0
    ai: bool = False
    artificial: Artificial | None = None  # a referee's artificial score: out of the comparison


class BoardResults(NamedTuple):
    """Every table's result of one board in one group of one round."""

    board: str
    round: int
    group: str
    results: tuple[Result, ...]


class Outcome(NamedTuple):
    player: str
    mp: float  # whole, but for a board with an artificial score (Neuberg-scaled, 2 decimals)
    mp_pct: float
    place: int
    rank_points_cents: int
    artificial: Artificial | None = None


class Comparison(NamedTuple):
    """The results of one board compared within one group and one seat."""

    board: str
    round: int
    group: str
    seat: int
    outcomes: tuple[Outcome, ...]


class Standing(NamedTuple):
    player: str
    place: int
    total_cents: int
    tie_break: str | None  # the step that ordered this player below the one above, or "unresolved"
    boards: int
    play_time: float


UNRESOLVED = "unresolved"


def compare_boards(boards: Sequence[BoardResults], ranking: str = COMPETITION) -> list[Comparison]:
    """Matchpoints, MP%, places and rank points for every (round, board, group, seat), best first.

    One sort per comparison, then one pass over runs of equal scores: the same numbers as
    :func:`matchpoints` and :func:`places` (tested against them), without an N log N search per result.
    """
    if ranking not in (COMPETITION, DENSE):
        raise DeckhandError(f"ranking must be competition or dense, got {ranking!r}")
    _check_boards(boards)
    dense = ranking == DENSE
    out: list[Comparison] = []
    new = tuple.__new__
    held: list[tuple[int, BoardResults, int, list[Result]]] = []  # boards with an artificial score
    for b in boards:
        by_seat: dict[int, list[Result]] = {}
        marked = False  # a result with an artificial score (rare): its seat is compared last
        for r in b.results:
            if not r.ai:
                marked = marked or r[6] is not None
                seat_results = by_seat.get(r.seat)
                if seat_results is None:
                    by_seat[r.seat] = [r]
                else:
                    seat_results.append(r)
        for seat in sorted(by_seat):
            if marked and any(r[6] for r in by_seat[seat]):  # Result.artificial
                held.append((len(out), b, seat, by_seat[seat]))
                out.append(Comparison(b.board, b.round, b.group, seat, ()))
                continue
            results = sorted(by_seat[seat], key=_score, reverse=True)
            n = len(results)
            top = 2 * (n - 1)
            outcomes: list[Outcome] = []
            i = run = 0
            while i < n:
                score = results[i][3]
                j = i + 1
                while j < n and results[j][3] == score:
                    j += 1
                run += 1
                mp = 2 * (n - j) + (j - i) - 1
                pct = round(mp * 100 / top, 2) if top else 100.0
                place = run if dense else i + 1
                points = rank_points_cents(place)
                # Outcomes straight from tuples (no NamedTuple constructor): 120,000 of them a field.
                outcomes += [new(Outcome, (r[0], mp, pct, place, points, None)) for r in results[i:j]]
                i = j
            out.append(Comparison(b.board, b.round, b.group, seat, tuple(outcomes)))
    if held:
        _compare_held(out, held, dense)
    return out


def _compare_held(
    out: list[Comparison], held: list[tuple[int, BoardResults, int, list[Result]]], dense: bool
) -> None:
    """Fill in the boards with an artificial score (competition/artificial.py). ``averaged`` is the
    seat's mean MP% over its boards of the round that were compared normally, so every other
    comparison is done first; a board with an artificial score counts only for the tables that
    played it (scaled)."""
    own: dict[tuple[int, str], list[float]] = {}
    for c in out:
        for o in c.outcomes:
            own.setdefault((c.round, o[0]), []).append(o[2])
    split = [
        (
            [(r.player, r.score) for r in results if r.artificial is None],
            [(r.player, r.artificial) for r in results if r.artificial is not None],
        )
        for _, _, _, results in held
    ]
    for (_, b, _, _), (played, given) in zip(held, split, strict=True):
        # The tables that played: their shares do not depend on the artificial ones.
        for row in artificial.compare(played, given, dense, lambda _p: Fraction(0)):
            if row.kind is None:
                own.setdefault((b.round, row.player), []).append(round(float(row.pct), 2))
    for (index, b, seat, _), (played, given) in zip(held, split, strict=True):
        rnd = b.round

        def mean(player: str, rnd: int = rnd) -> Fraction:
            return artificial.averaged(own.get((rnd, player), []))

        rows = artificial.compare(played, given, dense, mean)
        outcomes = tuple(
            Outcome(
                r.player,
                round(float(r.mp), 2),
                round(float(r.pct), 2),
                r.place,
                rank_points_cents(r.place),
                r.kind,
            )
            for r in rows
        )
        out[index] = Comparison(b.board, b.round, b.group, seat, outcomes)


_score = itemgetter(3)  # Result.score


def _check_boards(boards: Sequence[BoardResults]) -> None:
    """No player has two results for one board of one round: one set of players per board, and the
    slow search for the first offender only when a set comes out short."""
    seen: dict[tuple[int, str], set[str]] = {}
    for b in boards:
        players = seen.setdefault((b.round, b.board), set())
        before = len(players)
        players.update([r.player for r in b.results])
        if len(players) - before != len(b.results):
            _first_repeat(boards)


def _first_repeat(boards: Sequence[BoardResults]) -> None:
    """Raise for the first repeated (round, board, player), in the order the results are given."""
    seen: set[tuple[int, str, str]] = set()
    for b in boards:
        for r in b.results:
            key = (b.round, b.board, r.player)
            if key in seen:
                raise DeckhandError(
                    f"player {r.player!r} has two results for board {b.board!r} of round {b.round}"
                )
            seen.add(key)


def _trimmed_mean(times: list[float]) -> float:
    """Mean play time without the longest and the shortest board (plain mean under 3 boards)."""
    if not times:
        return 0.0
    if len(times) < 3:
        return sum(times) / len(times)
    ordered = sorted(times)
    return sum(ordered[1:-1]) / (len(ordered) - 2)


def _place_counts_key(place_list: list[int]) -> tuple[int, ...]:
    """More firsts first, then more seconds, … as a key where smaller sorts first.

    Comparing the ascending place lists with an end marker is the same comparison as counting
    firsts, then seconds, …: the first difference is a better place, or a list that goes on.
    """
    return (*sorted(place_list), _END)


_END = 1 << 60


def standings(
    boards: Sequence[BoardResults], ruleset: str, ranking: str = COMPETITION
) -> tuple[list[Comparison], list[Standing]]:
    """Compare every board, total the rank points, rank the field and break ties by the rule set's chain."""
    _duplicate_rule(ruleset)
    return ranked(compare_boards(boards, ranking), boards, ruleset, ranking)


def _duplicate_rule(ruleset: str) -> StandingsRule:
    rule = game(ruleset).standings  # the rule set's tie-break chain (RULES.md §1.3 table)
    if rule is None:
        raise DeckhandError(f"rule set {ruleset!r} is not played as a duplicate event: it ranks by matches")
    return rule


def ranked(
    comparisons: Sequence[Comparison],
    boards: Sequence[BoardResults],
    ruleset: str,
    ranking: str = COMPETITION,
) -> tuple[list[Comparison], list[Standing]]:
    """The standings from boards already compared (``comparisons``: :func:`compare_boards` of ``boards``,
    in its order — a service that matchpoints each board as it completes keeps them): totals, places
    and the tie-break chain, which needs the whole field's results (``boards``: play times, table sums)."""
    rule = _duplicate_rule(ruleset)
    _check_boards(boards)
    comparisons = list(comparisons)
    total: dict[str, int] = defaultdict(int)
    for c in comparisons:
        for o in c.outcomes:
            total[o[0]] += o[4]
    times: dict[str, list[float]] = defaultdict(list)
    for b in boards:
        for r in b.results:
            if not r.ai:
                times[r.player].append(r.play_time)

    def beaten_by_table(need: set[str]) -> dict[str, tuple[int, int]]:
        # By table: opponents at the same table in a round whose summed game score there is lower.
        # (round, group) → table → player → summed score: no key tuple made per result.
        table_sum: dict[tuple[int, str], dict[str, dict[str, float]]] = {}
        for b in boards:
            tables = table_sum.setdefault((b.round, b.group), {})
            for r in b.results:
                if not r.ai:
                    sums = tables.get(r.table)
                    if sums is None:
                        sums = tables[r.table] = {}
                    sums[r.player] = sums.get(r.player, 0.0) + r.score
        beaten: dict[str, tuple[int, int]] = {}
        for tables in table_sum.values():
            for sums in tables.values():
                items = sums.items()
                for p, s in items:
                    if p in need:
                        lower = [total[q] for q, t in items if t < s]
                        acc = beaten.get(p, (0, 0))
                        beaten[p] = (acc[0] + sum(lower), acc[1] + len(lower))
        return beaten

    def beaten_by_board(need: set[str]) -> dict[str, tuple[int, int]]:
        # By board: players of the same board (group, seat) who ranked lower on it. Outcomes are
        # sorted by place, so "everyone below" is a suffix: one pass from the bottom, no N² scan;
        # only comparisons holding a player still tied are walked.
        beaten: dict[str, tuple[int, int]] = {}
        for c in comparisons:
            outcomes = c.outcomes
            if need.isdisjoint([o[0] for o in outcomes]):
                continue
            below_sum = below_count = 0
            i = len(outcomes)
            while i:
                j = i
                place = outcomes[i - 1][3]
                while j and outcomes[j - 1][3] == place:
                    j -= 1
                for o in outcomes[j:i]:
                    if o[0] in need:
                        acc = beaten.get(o[0], (0, 0))
                        beaten[o[0]] = (acc[0] + below_sum, acc[1] + below_count)
                for o in outcomes[j:i]:
                    below_sum += total[o[0]]
                    below_count += 1
                i = j
        return beaten

    def board_places(need: set[str]) -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for c in comparisons:
            for o in c.outcomes:
                if o[0] in need:
                    out[o[0]].append(o[3])
        return out

    def round_places(need: set[str]) -> dict[str, list[int]]:
        round_total: dict[tuple[int, str], dict[str, int]] = {}
        for c in comparisons:
            totals = round_total.setdefault((c.round, c.group), {})
            for o in c.outcomes:
                totals[o[0]] = totals.get(o[0], 0) + o[4]
        out: dict[str, list[int]] = defaultdict(list)
        for totals in round_total.values():
            if need.isdisjoint(totals):
                continue
            names = list(totals)
            for name, place in zip(names, places([totals[n] for n in names], ranking), strict=True):
                out[name].append(place)
        return out

    def step_keys(step: str, need: set[str]) -> dict[str, Any]:
        """The key of one tie-break step for each player in ``need``; a smaller key places higher."""
        if step == "beaten_opponents":
            beaten = beaten_by_table(need) if rule.beaten is BeatenCount.BY_TABLE else beaten_by_board(need)
            return {p: _ratio_key(*beaten.get(p, (0, 0))) for p in need}
        if step in ("round_places", "board_places"):
            place_lists = round_places(need) if step == "round_places" else board_places(need)
            return {p: _place_counts_key(place_lists[p]) for p in need}
        if step == "play_time":
            return {p: round(sum(times[p]), 3) for p in need}
        return {p: round(_trimmed_mean(times[p]), 3) for p in need}

    # Sort once by total (then name), then once per tie-break step within the groups still tied,
    # computing that step's key only for their players: the same order as sorting by every key.
    chain = [step.value for step in rule.chain]
    ordered = sorted(total, key=lambda p: (-total[p], p))
    # Groups of players equal so far, each with the step that set it apart from the group above
    # (None: a lower total, or the first group).
    groups: list[tuple[str | None, list[str]]] = []
    for p in ordered:
        if groups and total[groups[-1][1][0]] == total[p]:
            groups[-1][1].append(p)
        else:
            groups.append((None, [p]))
    for step in chain:
        need = {p for _, g in groups if len(g) > 1 for p in g}
        if not need:
            break
        keys = step_keys(step, need)
        refined: list[tuple[str | None, list[str]]] = []
        for label, g in groups:
            if len(g) == 1:
                refined.append((label, g))
                continue
            g = sorted(g, key=keys.__getitem__)  # stable: names stay in order within equal keys
            refined.append((label, [g[0]]))
            for p in g[1:]:
                if keys[p] == keys[refined[-1][1][0]]:
                    refined[-1][1].append(p)
                else:
                    refined.append((step, [p]))
        groups = refined

    out: list[Standing] = []
    for label, g in groups:
        place = len(out) + 1
        for k, p in enumerate(g):
            tie_break = UNRESOLVED if k else label
            out.append(Standing(p, place, total[p], tie_break, len(times[p]), round(sum(times[p]), 3)))
    return comparisons, out


def _ratio_key(beaten_sum: int, beaten: int) -> tuple[float, Fraction]:
    """Minus the mean total of the opponents beaten (0 for none), as (float, exact fraction): the
    float orders nearly every pair at once (rounding is monotonic, so a smaller float is a smaller
    fraction) and the exact fraction decides when the floats are equal."""
    if not beaten:
        return _NONE_BEATEN
    return (-(beaten_sum / beaten), -Fraction(beaten_sum, beaten))


_NONE_BEATEN = (0.0, Fraction(0))

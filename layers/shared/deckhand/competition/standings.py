"""Board comparisons, round totals and standings with the tie-break chains of RULES.md §1.3.

Totals are kept in hundredths of a rank point (ints) so equal totals are equal exactly. AI results
(players-vs-AI bots and AI fill seats) are never compared or ranked.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

from ..engines.registry import game
from ..engines.spec import BeatenCount
from ..errors import DeckhandError
from .matchpoints import COMPETITION, DENSE, places, rank_points_cents


class Result(NamedTuple):
    """One player's result on one board."""

    player: str
    table: str
    seat: int
    score: float
    play_time: float = 0.0
    ai: bool = False


class BoardResults(NamedTuple):
    """Every table's result of one board in one group of one round."""

    board: str
    round: int
    group: str
    results: tuple[Result, ...]


class Outcome(NamedTuple):
    player: str
    mp: int
    mp_pct: float
    place: int
    rank_points_cents: int


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
    out = []
    for b in boards:
        by_seat: dict[int, list[Result]] = defaultdict(list)
        for r in b.results:
            if not r.ai:
                by_seat[r.seat].append(r)
        for seat in sorted(by_seat):
            results = sorted(by_seat[seat], key=_score, reverse=True)
            n = len(results)
            top = 2 * (n - 1)
            outcomes: list[Outcome] = []
            i = run = 0
            while i < n:
                score = results[i].score
                j = i + 1
                while j < n and results[j].score == score:
                    j += 1
                run += 1
                mp = 2 * (n - j) + (j - i) - 1
                pct = round(mp * 100 / top, 2) if top else 100.0
                place = run if dense else i + 1
                points = rank_points_cents(place)
                outcomes.extend(Outcome(r.player, mp, pct, place, points) for r in results[i:j])
                i = j
            out.append(Comparison(b.board, b.round, b.group, seat, tuple(outcomes)))
    return out


def _score(r: Result) -> float:
    return r.score


def _check_boards(boards: Sequence[BoardResults]) -> None:
    seen: dict[tuple[int, str, str], str] = {}
    for b in boards:
        for r in b.results:
            key = (b.round, b.board, r.player)
            if key in seen:
                raise DeckhandError(
                    f"player {r.player!r} has two results for board {b.board!r} of round {b.round}"
                )
            seen[key] = b.group


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
    rule = game(ruleset).standings  # the rule set's tie-break chain (RULES.md §1.3 table)
    if rule is None:
        raise DeckhandError(f"rule set {ruleset!r} is not played as a duplicate event: it ranks by matches")
    comparisons = compare_boards(boards, ranking)
    total: dict[str, int] = defaultdict(int)
    board_places: dict[str, list[int]] = defaultdict(list)
    for c in comparisons:
        for o in c.outcomes:
            total[o.player] += o.rank_points_cents
            board_places[o.player].append(o.place)
    times: dict[str, list[float]] = defaultdict(list)
    for b in boards:
        for r in b.results:
            if not r.ai:
                times[r.player].append(r.play_time)
    players = sorted(total)

    def beaten_by_table() -> dict[str, tuple[int, int]]:
        # By table: opponents at the same table in a round whose summed game score there is lower.
        table_sum: dict[tuple[int, str, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for b in boards:
            for r in b.results:
                if not r.ai:
                    table_sum[(b.round, b.group, r.table)][r.player] += r.score
        beaten: dict[str, tuple[int, int]] = defaultdict(lambda: (0, 0))
        for sums in table_sum.values():
            for p, s in sums.items():
                lower = [total[q] for q, t in sums.items() if t < s]
                acc = beaten[p]
                beaten[p] = (acc[0] + sum(lower), acc[1] + len(lower))
        return beaten

    def beaten_by_board() -> dict[str, tuple[int, int]]:
        # By board: players of the same board (group, seat) who ranked lower on it. Outcomes are
        # sorted by place, so "everyone below" is a suffix: one pass from the bottom, no N² scan.
        beaten: dict[str, tuple[int, int]] = defaultdict(lambda: (0, 0))
        for c in comparisons:
            outcomes = c.outcomes
            below_sum = below_count = 0
            i = len(outcomes)
            while i:
                j = i
                place = outcomes[i - 1].place
                while j and outcomes[j - 1].place == place:
                    j -= 1
                for o in outcomes[j:i]:
                    acc = beaten[o.player]
                    beaten[o.player] = (acc[0] + below_sum, acc[1] + below_count)
                for o in outcomes[j:i]:
                    below_sum += total[o.player]
                    below_count += 1
                i = j
        return beaten

    def round_places() -> dict[str, list[int]]:
        round_total: dict[tuple[int, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for c in comparisons:
            for o in c.outcomes:
                round_total[(c.round, c.group)][o.player] += o.rank_points_cents
        out: dict[str, list[int]] = defaultdict(list)
        for totals in round_total.values():
            names = list(totals)
            for name, place in zip(names, places([totals[n] for n in names], ranking), strict=True):
                out[name].append(place)
        return out

    def step_keys(step: str) -> dict[str, object]:
        """Each player's key for one tie-break step; a smaller key places higher."""
        if step == "beaten_opponents":
            beaten = beaten_by_table() if rule.beaten is BeatenCount.BY_TABLE else beaten_by_board()
            return {
                p: -Fraction(beaten[p][0], beaten[p][1]) if beaten[p][1] else Fraction(0) for p in players
            }
        if step in ("round_places", "board_places"):
            place_lists = round_places() if step == "round_places" else board_places
            return {p: _place_counts_key(place_lists[p]) for p in players}
        if step == "play_time":
            return {p: round(sum(times[p]), 3) for p in players}
        return {p: round(_trimmed_mean(times[p]), 3) for p in players}

    chain = [step.value for step in rule.chain]
    keys: dict[str, list[object]] = {p: [-total[p]] for p in players}
    for step in chain:
        for p, key in step_keys(step).items():
            keys[p].append(key)

    ordered = sorted(players, key=lambda p: (keys[p], p))
    out: list[Standing] = []
    for i, p in enumerate(ordered):
        tie_break: str | None = None
        place = i + 1
        if i:
            above = ordered[i - 1]
            if keys[p][0] == keys[above][0]:
                step_index = next((k for k in range(1, len(chain) + 1) if keys[p][k] != keys[above][k]), None)
                if step_index is None:
                    tie_break = UNRESOLVED
                    place = out[-1].place
                else:
                    tie_break = chain[step_index - 1]
        out.append(Standing(p, place, total[p], tie_break, len(times[p]), round(sum(times[p]), 3)))
    return comparisons, out

"""Swiss pairing of pairs (积分编排, RULES.md §4.3 Swiss; 002 §27; 003 part 二).

Round 1 by lot or by snake of strength, keeping pairs of one region apart (003). Later rounds:
standing order match points, level points, registration number; the pairing minimises
Σ (match-point difference)² over the tables — high against high — and never repeats a meeting.
The minimisation is a maximum-weight perfect matching (networkx) with integer weights; rematches
and forbidden meetings are simply not edges, so they can never be chosen.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

import networkx as nx

from .entrants import Entrant, MatchResult
from .errors import CannotPairError
from .tally import Tally, tally


class Round1Method(Enum):
    """How round 1 is paired (§4.3: by lot, or snake by strength — option)."""

    LOT = "lot"  # a seeded shuffle, then neighbours meet: 1 v 2, 3 v 4 …
    SNAKE = "snake"  # ⚖ by strength folded like a bracket: 1 v n, 2 v n−1 …


class RegionRule(Enum):
    """003: no two pairs of one region meet in round 1 (as few as possible when unavoidable)."""

    SEPARATE_ROUND1 = "separate_round1"
    IGNORE = "ignore"


class ClubRule(Enum):
    """Same-club prohibition (§4.3 organiser option): a hard rule like a rematch."""

    ALLOW = "allow"
    FORBID = "forbid"


@dataclass(frozen=True)
class SwissOptions:
    round1: Round1Method = Round1Method.LOT
    lot_seed: int = 0
    regions: RegionRule = RegionRule.SEPARATE_ROUND1
    clubs: ClubRule = ClubRule.ALLOW
    forbidden_pairs: frozenset[frozenset[str]] = frozenset()


DEFAULT_OPTIONS = SwissOptions()


@dataclass(frozen=True)
class Pairing:
    """Tables of a round, best standing first, the higher-standing pair first at each table."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None


def standing_order(entrants: Sequence[Entrant], totals: Tally) -> list[Entrant]:
    """§4.3 Swiss standing order: match points, then level points, then registration number."""
    return sorted(entrants, key=lambda e: (-totals.get(e.id).mp, -totals.get(e.id).lp, e.reg))


def round1_order(entrants: Sequence[Entrant], options: SwissOptions) -> list[Entrant]:
    """The order round 1 reads: the lot (reproducible from ``lot_seed``) or strength."""
    by_reg = sorted(entrants, key=lambda e: e.reg)
    if options.round1 is Round1Method.LOT:
        random.Random(options.lot_seed).shuffle(by_reg)
        return by_reg
    return sorted(by_reg, key=lambda e: (e.seed is None, e.seed or 0, e.reg))


def allowed(a: Entrant, b: Entrant, totals: Tally, options: SwissOptions) -> bool:
    """Whether two pairs may meet at all: never a rematch, a forbidden pair or (option) one club."""
    if totals.have_met(a.id, b.id) or frozenset((a.id, b.id)) in options.forbidden_pairs:
        return False
    return not (options.clubs is ClubRule.FORBID and a.club is not None and a.club == b.club)


def pair_round(
    entrants: Sequence[Entrant],
    history: Sequence[MatchResult],
    round_no: int,
    options: SwissOptions = DEFAULT_OPTIONS,
) -> Pairing:
    """Pair round ``round_no`` of a Swiss; raises CannotPairError when no valid pairing exists."""
    totals = tally(history)
    field = [e for e in entrants if e.active]
    first = round_no == 1
    order = round1_order(field, options) if first else standing_order(field, totals)
    # Round 1 weighs regions and the lot, not the standing order: the window lemma needs the latter.
    window = None if first else _window(order, totals, options)
    cost = _round1_cost(options) if window is None else _later_cost(totals, window)
    if len(order) % 2 == 0:
        tables = _perfect_matching(order, totals, options, cost, window)
        if tables is None:
            raise CannotPairError(
                f"round {round_no} cannot be paired: no pairing of the {len(order)} active pairs "
                "avoids every rematch and forbidden meeting"
            )
        return _pairing(order, tables, None)
    for candidate in bye_candidates(order, totals):
        rest = [e for e in order if e.id != candidate.id]
        tables = _perfect_matching(rest, totals, options, cost, window)
        if tables is not None:
            return _pairing(rest, tables, candidate.id)
    raise CannotPairError(
        f"round {round_no} cannot be paired: no bye leaves the other {len(order) - 1} active pairs "
        "a pairing without rematches and forbidden meetings"
    )


def bye_candidates(order: Sequence[Entrant], totals: Tally) -> list[Entrant]:
    """Who may sit out, in the order tried (§4.3 Odd field).

    The lowest-ranked pair that has not had a bye first; ⚖ when every pair has had one, the fewest
    byes, then the lowest-ranked.
    """
    ranked = list(enumerate(order))
    ranked.sort(key=lambda item: (totals.get(item[1].id).byes, -item[0]))
    return [e for _, e in ranked]


Cost = Callable[[Sequence[Entrant], int, int], int]


def _later_cost(totals: Tally, window: int) -> Cost:
    """Σ (match-point difference)² first; ties broken by Σ (place difference)², then by shorter
    tables higher up: Σ (place difference) × (n − higher place).

    ⚖ The two tie-breaks make "high against high by match points then level points" exact: within a
    score group 1 v 2, 3 v 4 …, the pair that must float is the lowest of its group, and when two
    pairings tie on both sums the one that keeps the top tables tight wins. Each term's factor exceeds
    the largest possible sum of the terms after it (no table spans more than ``window`` places), so
    a later term never outweighs an earlier one.
    """

    def cost(order: Sequence[Entrant], i: int, j: int) -> int:
        n = len(order)
        w = min(window, n)
        k2 = n * n * w + 1
        k1 = k2 * (n * w * w + 1)
        d = totals.get(order[i].id).mp - totals.get(order[j].id).mp
        span = abs(i - j)
        return k1 * d * d + k2 * span * span + span * (n - min(i, j))

    return cost


def _round1_cost(options: SwissOptions) -> Cost:
    """As few same-region meetings as possible (003), then as close to the lot or snake as can be."""

    def cost(order: Sequence[Entrant], i: int, j: int) -> int:
        n = len(order)
        if options.round1 is Round1Method.LOT:
            ti, tj = i ^ 1, j ^ 1
        else:
            ti, tj = n - 1 - i, n - 1 - j
        deviation = (j - ti) ** 2 + (i - tj) ** 2
        a, b = order[i], order[j]
        same = options.regions is RegionRule.SEPARATE_ROUND1 and a.region is not None and a.region == b.region
        return (2 * n**3 + 1) * int(same) + deviation

    return cost


def _window(order: Sequence[Entrant], totals: Tally, options: SwissOptions) -> int:
    """How far apart in standing order two tables' pairs can ever be in an optimal later round.

    Lemma: the standing order sorts match points, and both cost terms are convex in the distance,
    so two tables (a, d), (b, c) with a < b < c < d (nested) or (a, c), (b, d) (crossing) can be
    swapped to (a, b), (c, d) — or, nested, (a, c), (b, d) — at a strictly lower cost unless a
    disallowed meeting blocks it. Every such swap uses a meeting of one end of the long table, and
    one disallowed meeting blocks the swaps of at most two pairs in between; so when each pair has
    at most R disallowed partners, no table of an optimal pairing spans more than 4R + 1 places.
    Leaving out the longer edges changes neither the optimum nor whether a pairing exists.
    """
    ids = {e.id for e in order}
    worst = 0
    club_size: dict[str, int] = {}
    if options.clubs is ClubRule.FORBID:
        for e in order:
            if e.club is not None:
                club_size[e.club] = club_size.get(e.club, 0) + 1
    forbidden: dict[str, set[str]] = {}
    for pair in options.forbidden_pairs:
        for x in pair:
            forbidden.setdefault(x, set()).update(pair - {x})
    for e in order:
        barred = {o for o in totals.get(e.id).opponents if o in ids}
        barred |= {o for o in forbidden.get(e.id, set()) if o in ids}
        same_club = club_size.get(e.club, 1) - 1 if e.club is not None else 0
        worst = max(worst, len(barred) + same_club)
    return 4 * worst + 1


def _perfect_matching(
    order: Sequence[Entrant], totals: Tally, options: SwissOptions, cost: Cost, window: int | None
) -> list[tuple[int, int]] | None:
    """The cheapest perfect matching of ``order`` over allowed meetings, or None if there is none."""
    n = len(order)
    if n == 0:
        return []
    reach = n if window is None else window
    edges: list[tuple[int, int, int]] = []
    for i in range(n):
        for j in range(i + 1, min(n, i + reach + 1)):
            if allowed(order[i], order[j], totals, options):
                edges.append((i, j, cost(order, i, j)))
    if not edges:
        return None
    top = max(c for _, _, c in edges) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from((i, j, top - c) for i, j, c in edges)
    if any(graph.degree(v) == 0 for v in range(n)):
        return None
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n:
        return None
    return [(min(i, j), max(i, j)) for i, j in matching]


def _pairing(order: Sequence[Entrant], tables: list[tuple[int, int]], bye: str | None) -> Pairing:
    tables.sort()
    return Pairing(pairs=tuple((order[i].id, order[j].id) for i, j in tables), bye=bye)


def table_cost(pairs: Sequence[tuple[str, str]], totals: Tally) -> int:
    """Σ (match-point difference)² of a pairing: the quantity Swiss minimises."""
    return sum((totals.get(a).mp - totals.get(b).mp) ** 2 for a, b in pairs)

"""Swiss pairing of pairs (积分编排, RULES.md §4.3 Swiss; 002 §27; 003 part 二).

Round 1 by lot or by snake of strength, keeping pairs of one region apart (003). Later rounds:
standing order match points, level points, registration number; the pairing minimises
Σ (match-point difference)² over the tables — high against high — and never repeats a meeting.
The minimisation is a maximum-weight perfect matching (networkx) with integer weights; rematches
and forbidden meetings are simply not edges, so they can never be chosen. For speed the graph
holds only the tables an optimal pairing can use and the field is solved in independent parts;
each shortcut has its proof in a docstring below and a property test against the full graph.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from types import ModuleType

from .entrants import Entrant, MatchResult
from .errors import CannotPairError
from .tally import Tally, tally


def _networkx() -> ModuleType:
    """networkx, imported when a round is paired: the handlers that only read an event's settings
    (every device message does) never pay its import, a quarter of a cold start."""
    import importlib

    return importlib.import_module("networkx")


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
    solve = _solve_round1 if first else _solve_later
    if len(order) % 2 == 0:
        tables = solve(order, totals, options)
        if tables is None:
            raise CannotPairError(
                f"round {round_no} cannot be paired: no pairing of the {len(order)} active pairs "
                "avoids every rematch and forbidden meeting"
            )
        return _pairing(order, tables, None)
    for candidate in bye_candidates(order, totals):
        rest = [e for e in order if e.id != candidate.id]
        tables = solve(rest, totals, options)
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


Tables = list[tuple[int, int]]  # positions in the order being paired, lower first


def _barred(order: Sequence[Entrant], totals: Tally, options: SwissOptions) -> list[set[int]]:
    """For each position, the positions it may not meet (a rematch, a forbidden pair, one club)."""
    at = {e.id: i for i, e in enumerate(order)}
    barred: list[set[int]] = [set() for _ in order]
    for i, e in enumerate(order):
        for other in totals.get(e.id).opponents:
            j = at.get(other)
            if j is not None:
                barred[i].add(j)
    for pair in options.forbidden_pairs:
        ends = [at[x] for x in pair if x in at]
        if len(ends) == 2:
            barred[ends[0]].add(ends[1])
            barred[ends[1]].add(ends[0])
    if options.clubs is ClubRule.FORBID:
        clubs: dict[str, list[int]] = {}
        for i, e in enumerate(order):
            if e.club is not None:
                clubs.setdefault(e.club, []).append(i)
        for members in clubs.values():
            for i in members:
                barred[i].update(j for j in members if j != i)
    return barred


def _solve_later(order: Sequence[Entrant], totals: Tally, options: SwissOptions) -> Tables | None:
    """The optimal tables of a later round (costs in ``_Later``), or None if there are none.

    Solved over the edges the reach lemma keeps (``_Later._reach``), part by part between free cuts
    (``_Later.free_cuts``) and block by block within a part (``_first_unsafe_run``); each step
    leaves out only what no optimal pairing uses, so the answer costs what the full solve's does.
    """
    if not order:
        return []
    mp = [totals.get(e.id).mp for e in order]
    return _Later(mp, _barred(order, totals, options)).solve()


class _Later:
    """One later round's matching problem over positions 0…n−1 of the standing order.

    The cost of a table (i, j), i < j, is lexicographic: first (match-point difference)² — the rule
    — then ⚖ (place difference)², then (place difference) × (n − i). The tie-breaks make "high
    against high by match points then level points" exact: within a score group 1 v 2, 3 v 4 …, the
    pair that must float is the lowest of its group, and when two pairings tie on both sums the one
    that keeps the top tables tight wins.

    **Reach lemma.** In every optimal pairing a table (a, d) spans at most R(a) + R(d) + 1 places,
    R(x) the number of pairs x may not meet. Take any pair b strictly between a and d and its table
    (b, c). The standing order sorts match points, so if (b, c) crosses (a, d) — c outside [a, d] —
    replacing the two tables by the two "side by side" ones, (a, b) and (d, c) (or (c, a) and (b, d)
    when c < a), never raises Σ (MP difference)² and strictly lowers Σ (place difference)²; if
    (b, c) is nested in (a, d), both (a, b) + (c, d) and (a, c) + (b, d) do. So an optimal pairing
    has each such swap blocked by a disallowed meeting of a or d with b or with b's partner c: one
    for a crossing table, two for a nested one (which holds two pairs in between). Every disallowed
    meeting of a or d is used by one table only (the table of its other end, or of that end's
    partner), so the span − 1 pairs in between need at most R(a) + R(d) of them. Longer edges are
    left out; that changes neither the optimum nor whether a pairing exists.
    """

    def __init__(self, mp: list[int], barred: list[set[int]]) -> None:
        self.mp = mp
        self.barred = barred
        self.n = len(mp)
        self.kept = self._reach()

    def _reach(self) -> list[tuple[int, int]]:
        """The allowed edges the reach lemma keeps, refined until nothing more drops out.

        A disallowed meeting (a, x) blocks a swap only when x, or x's partner, is between a and d;
        once every optimal table is known to span at most m places, x's partner lies within m of x,
        so only the barred partners within m of [a, d] count. Each pass keeps a superset of the
        tables any optimal pairing uses, with a maximum span m no larger than the last.
        """
        n, barred = self.n, self.barred
        reach = [len(b) for b in barred]
        most = max(reach, default=0)
        edges = [
            (i, j)
            for i in range(n)
            for j in range(i + 1, min(n, i + 2 * most + 2))
            if j - i <= reach[i] + reach[j] + 1 and j not in barred[i]
        ]
        while edges:
            m = max(j - i for i, j in edges)

            def near(x: int, lo: int, hi: int) -> int:
                return sum(1 for y in barred[x] if lo <= y <= hi)

            kept = [(i, j) for i, j in edges if j - i <= near(i, i - m, j + m) + near(j, i - m, j + m) + 1]
            if len(kept) == len(edges):
                break
            edges = kept
        return edges

    def edges(self, start: int, end: int) -> list[tuple[int, int]]:
        return [(i, j) for i, j in self.kept if start <= i and j < end]

    def solve_block(self, start: int, end: int) -> tuple[Tables, int] | None:
        """The optimal tables of positions start…end−1 alone and their Σ (MP difference)²."""
        edges = self.edges(start, end)
        size = end - start
        if size % 2 or (size and not edges):
            return None
        mp, n = self.mp, self.n
        tables_at_most = size // 2
        longest = max((j - i for i, j in edges), default=0)
        k2 = tables_at_most * longest * n + 1  # > any Σ of the third term
        k1 = k2 * (tables_at_most * longest * longest + 1)  # > any Σ of the second and third
        costs = [(i, j, k1 * (mp[i] - mp[j]) ** 2 + k2 * (j - i) ** 2 + (j - i) * (n - i)) for i, j in edges]
        top = max((c for _, _, c in costs), default=0) + 1
        nx = _networkx()
        graph = nx.Graph()
        graph.add_nodes_from(range(start, end))
        graph.add_weighted_edges_from((i, j, top - c) for i, j, c in costs)
        if any(d == 0 for _, d in graph.degree()):
            return None
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) != size:
            return None
        tables = [(min(i, j), max(i, j)) for i, j in matching]
        return tables, sum((mp[i] - mp[j]) ** 2 for i, j in tables)

    def free_cuts(self) -> list[int]:
        """Even positions t that no optimal pairing crosses, whatever the rest (**free cuts**).

        Tables that can cross t are edges kept by the reach lemma: left ends L(t) < t ≤ right ends
        R(t). A pairing crosses an even t with an even number of tables, so with at least two; two
        crossing tables (a, x) and (b, y), a < b, can always be replaced by (a, b) and (x, y) —
        side by side, never a higher Σ (MP difference)² as the order sorts match points, strictly
        lower Σ (place difference)² — unless one of those two meetings is disallowed. When no two
        pairs of L(t) and no two of R(t) are barred from each other, no optimal pairing crosses t.
        """
        n, barred = self.n, self.barred
        left: list[set[int]] = [set() for _ in range(n + 1)]
        right: list[set[int]] = [set() for _ in range(n + 1)]
        for i, j in self.kept:
            for t in range(i + 1, j + 1):
                left[t].add(i)
                right[t].add(j)
        return [
            t
            for t in range(2, n - 1, 2)
            if all(not (barred[a] & left[t]) for a in left[t])
            and all(not (barred[x] & right[t]) for x in right[t])
        ]

    def solve(self) -> Tables | None:
        """Solve between free cuts, each part by blocks (``_first_unsafe_run``); None: no pairing."""
        out: Tables = []
        for start, end in itertools.pairwise([0, *self.free_cuts(), self.n]):
            part = self.solve_part(start, end)
            if part is None:
                return None  # a part that cannot be paired: then nothing can (the cuts are free)
            out.extend(part)
        return out

    def solve_part(self, start: int, end: int) -> Tables | None:
        """Positions start…end−1 by blocks, merged until the split is provably optimal."""
        mp = self.mp
        gap = {s: mp[s - 1] - mp[s] for s in range(start + 1, end) if mp[s - 1] != mp[s]}
        cuts = [start] + [s for s in sorted(gap) if (s - start) % 2 == 0] + [end]
        bound = {s: g * g for s, g in gap.items() if (s - start) % 2}  # one table crosses each
        solved: dict[tuple[int, int], tuple[Tables, int] | None] = {}
        while True:
            blocks = list(itertools.pairwise(cuts))
            excess: list[float] = []
            for block in blocks:
                if block not in solved:
                    solved[block] = self.solve_block(*block)
                found = solved[block]
                if found is None:
                    excess.append(math.inf)
                else:
                    lower = sum(v for s, v in bound.items() if block[0] < s < block[1])
                    excess.append(found[1] - lower)
            run = _first_unsafe_run(excess, [2 * gap[s] ** 2 for s in cuts[1:-1]])
            if run is None:
                break
            first, last = run
            cuts = cuts[: first + 1] + cuts[last + 1 :]
        out: Tables = []
        for block in blocks:
            found = solved[block]
            if found is None:
                return None
            out.extend(found[0])
        return out


def _first_unsafe_run(excess: Sequence[float], toll: Sequence[int]) -> tuple[int, int] | None:
    """The first run of two or more blocks whose split may not be optimal, or None (safe split).

    **Blocks.** The order is cut at every score-group boundary with an even number of pairs above
    it, and each block is solved alone. A boundary s between match points m > m' with an odd number
    above is crossed by at least one table, and a table crossing boundaries s₁ … s_k costs
    (Σ gaps)² ≥ Σ gap²; so any pairing of a block costs at least L = Σ gap² over its odd
    boundaries, and a pairing that crosses the cuts inside a run of blocks (at least two tables at
    each, by parity) costs at least Σ L + Σ 2·gap² over those cuts. A block's *excess* is its
    optimum minus L. If, for every run of consecutive blocks, the excess summed over the run is
    below the run's toll Σ 2·gap², every pairing that crosses a cut costs strictly more than the
    blocks' solutions together: the optimum crosses no cut and is the union of the blocks' optima.
    Otherwise the caller merges the run returned here and solves it again (an infeasible block
    has infinite excess; merging everything is the full solve). Equality counts as unsafe: a
    crossing pairing might tie there and win on a later term.
    """
    # Kadane's scan: best[l] is the largest excess − toll of a run ending at block l; a run of
    # two or more ending at l extends the best run ending at l − 1 over the cut between them.
    best, start = excess[0], 0
    for last in range(1, len(excess)):
        joined = best - toll[last - 1] + excess[last]
        if joined >= 0:
            return start, last
        if excess[last] >= joined:
            best, start = excess[last], last
        else:
            best = joined
    return None


def _solve_round1(order: Sequence[Entrant], totals: Tally, options: SwissOptions) -> Tables | None:
    """Round 1: the lot or snake pairing itself when it is valid, else the cheapest by ``_round1_cost``.

    The lot's or snake's own tables cost 0 and every other pairing more, so when none of them is
    disallowed or (003) of one region they are the optimum without a search.
    """
    n = len(order)
    targets = (
        [(i, i + 1) for i in range(0, n, 2)]
        if options.round1 is Round1Method.LOT
        else [(i, n - 1 - i) for i in range(n // 2)]
    )
    if all(
        allowed(order[i], order[j], totals, options) and not _same_region(order[i], order[j], options)
        for i, j in targets
    ):
        return targets
    return _full_matching(order, totals, options, _round1_cost(options))


Cost = Callable[[Sequence[Entrant], int, int], int]


def _same_region(a: Entrant, b: Entrant, options: SwissOptions) -> bool:
    return options.regions is RegionRule.SEPARATE_ROUND1 and a.region is not None and a.region == b.region


def _round1_cost(options: SwissOptions) -> Cost:
    """As few same-region meetings as possible (003), then as close to the lot or snake as can be."""

    def cost(order: Sequence[Entrant], i: int, j: int) -> int:
        n = len(order)
        if options.round1 is Round1Method.LOT:
            ti, tj = i ^ 1, j ^ 1
        else:
            ti, tj = n - 1 - i, n - 1 - j
        deviation = (j - ti) ** 2 + (i - tj) ** 2
        same = _same_region(order[i], order[j], options)
        return (2 * n**3 + 1) * int(same) + deviation

    return cost


def _full_matching(
    order: Sequence[Entrant], totals: Tally, options: SwissOptions, cost: Cost
) -> Tables | None:
    """The cheapest perfect matching of ``order`` over every allowed meeting, or None."""
    n = len(order)
    edges = [
        (i, j, cost(order, i, j))
        for i in range(n)
        for j in range(i + 1, n)
        if allowed(order[i], order[j], totals, options)
    ]
    if not edges:
        return None
    top = max(c for _, _, c in edges) + 1
    nx = _networkx()
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from((i, j, top - c) for i, j, c in edges)
    if any(d == 0 for _, d in graph.degree()):
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

"""Property tests of match play: Swiss optimality by brute force, round robin and brackets."""

import itertools

from deckhand.competition.matchplay.entrants import Entrant, MatchResult, bye
from deckhand.competition.matchplay.errors import CannotPairError
from deckhand.competition.matchplay.knockout import (
    FinalReset,
    bracket_size,
    double_elimination,
    first_round,
    resolve,
)
from deckhand.competition.matchplay.round_robin import schedule
from deckhand.competition.matchplay.swiss import (
    ClubRule,
    SwissOptions,
    pair_round,
    standing_order,
    table_cost,
)
from deckhand.competition.matchplay.tally import tally
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

FAST = settings(max_examples=examples(60), deadline=None)


def perfect_matchings(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, other in enumerate(rest):
        for m in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *m]


@st.composite
def swiss_cases(draw):
    n = draw(st.integers(2, 8))
    ids = [f"T{i}" for i in range(n)]
    all_pairs = list(itertools.combinations(ids, 2))
    met = draw(st.lists(st.sampled_from(all_pairs), unique=True, max_size=min(len(all_pairs), 10)))
    history = []
    for a, b in met:
        mp = draw(st.sampled_from([(2, 0), (1, 1), (0, 2)]))
        d = draw(st.integers(0, 13))
        lp = (13 + d, 13 - d) if mp == (2, 0) else (13 - d, 13 + d) if mp == (0, 2) else (13, 13)
        history.append(MatchResult(1, a, b, mp, lp))
    for t in draw(st.lists(st.sampled_from(ids), unique=True, max_size=2)):
        history.append(bye(1, t))
    forbidden = draw(st.lists(st.sampled_from(all_pairs), unique=True, max_size=2))
    return ids, history, frozenset(frozenset(p) for p in forbidden)


@FAST
@given(swiss_cases())
def test_swiss_is_an_optimal_rematch_free_partition(case):
    ids, history, forbidden = case
    teams = [Entrant(id=t, reg=i + 1) for i, t in enumerate(ids)]
    options = SwissOptions(forbidden_pairs=forbidden)
    totals = tally(history)

    def ok(a, b):
        return not totals.have_met(a, b) and frozenset((a, b)) not in forbidden

    def valid(rest):
        return [m for m in perfect_matchings(rest) if all(ok(a, b) for a, b in m)]

    order = [e.id for e in standing_order(teams, totals)]
    if len(order) % 2 == 0:
        choices = [(None, order)]
    else:
        candidates = sorted(range(len(order)), key=lambda i: (totals.get(order[i]).byes, -i))
        choices = [(order[i], order[:i] + order[i + 1 :]) for i in candidates]
    expected_bye, expected = None, None
    for out, rest in choices:
        found = valid(rest)
        if found:
            expected_bye, expected = out, min(table_cost(m, totals) for m in found)
            break
    try:
        p = pair_round(teams, history, 2, options)
    except CannotPairError:
        assert expected is None
        return
    assert expected is not None
    seated = [t for pair in p.pairs for t in pair] + ([p.bye] if p.bye else [])
    assert sorted(seated) == sorted(ids)  # a partition, at most one bye
    assert (p.bye is not None) == (len(ids) % 2 == 1)
    assert all(ok(a, b) for a, b in p.pairs)  # never a rematch or a forbidden meeting
    assert p.bye == expected_bye
    assert table_cost(p.pairs, totals) == expected  # nothing valid is cheaper
    rank = {t: i for i, t in enumerate(order)}
    assert all(rank[a] < rank[b] for a, b in p.pairs)


@FAST
@given(st.integers(2, 14), st.integers(1, 3))
def test_round_robin_meets_every_two_exactly_legs_times(n, legs):
    names = [f"T{i}" for i in range(n)]
    rounds = schedule(names, legs)
    assert len(rounds) == legs * (n - 1 if n % 2 == 0 else n)
    meetings = {}
    for rnd in rounds:
        seen = [t for game in rnd for t in game if t is not None]
        assert sorted(seen) == sorted(names)  # everyone once a round: a game or the rest
        playing = [t for game in rnd if None not in game for t in game]
        assert len(playing) == n - n % 2
        for a, b in rnd:
            if a is not None and b is not None:
                key = frozenset((a, b))
                meetings[key] = meetings.get(key, 0) + 1
    assert len(meetings) == n * (n - 1) // 2
    assert set(meetings.values()) == {legs}


@FAST
@given(st.integers(2, 130))
def test_a_bracket_places_every_seed_once_byes_to_the_strongest(n):
    slots = [s for game in first_round(n) for s in game]
    assert len(slots) == bracket_size(n)
    assert sorted(s for s in slots if s is not None) == list(range(1, n + 1))
    byes = bracket_size(n) - n
    for a, b in first_round(n):
        if b is None or a is None:
            assert (a or b) <= byes


@FAST
@given(st.integers(2, 20), st.sampled_from(list(FinalReset)), st.randoms(use_true_random=False))
def test_double_elimination_out_after_two_losses(n, final, rng):
    plan = double_elimination(n, final)
    winners = {}
    losses = dict.fromkeys(range(1, n + 1), 0)
    while True:
        known = resolve(plan, winners)
        todo = [m for m, r in known.items() if m not in winners and r.a is not None and r.b is not None]
        if not todo:
            break
        for m in todo:
            r = known[m]
            assert losses[r.a] < 2 and losses[r.b] < 2
            w = rng.choice([r.a, r.b])
            winners[m] = w
            losses[r.b if w == r.a else r.a] += 1
    unbeaten_twice = [t for t, k in losses.items() if k < 2]
    assert len(unbeaten_twice) in (1, 2)  # the champion, and the runner-up if it lost once only
    assert "F" in winners


def reference_tables(order, totals, options):
    """The full solve the fast path must agree with: every allowed edge, exact lexicographic weights."""
    import networkx as nx
    from deckhand.competition.matchplay import swiss

    n = len(order)
    mp = [totals.get(e.id).mp for e in order]
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            if swiss.allowed(order[i], order[j], totals, options):
                cost = (mp[i] - mp[j]) ** 2 * 10**12 + (j - i) ** 2 * 10**6 + (j - i) * (n - i)
                graph.add_edge(i, j, weight=10**15 - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n:
        return None
    return [(min(i, j), max(i, j)) for i, j in matching]


def lexicographic(tables, order, totals):
    mp = [totals.get(e.id).mp for e in order]
    n = len(order)
    return (
        sum((mp[i] - mp[j]) ** 2 for i, j in tables),
        sum((j - i) ** 2 for i, j in tables),
        sum((j - i) * (n - i) for i, j in tables),
    )


@st.composite
def later_rounds(draw):
    """A field after a few rounds of random (not Swiss) meetings: many score groups, dense
    rematches, odd group boundaries, sometimes clubs and forbidden pairs."""
    n = draw(st.integers(4, 13)) * 2
    ids = [f"T{i}" for i in range(n)]
    rng = draw(st.randoms(use_true_random=False))
    history = []
    for r in range(1, draw(st.integers(1, 5)) + 1):
        shuffled = ids[:]
        rng.shuffle(shuffled)
        for a, b in zip(shuffled[::2], shuffled[1::2], strict=True):
            mp = rng.choice([(2, 0), (1, 1), (0, 2)])
            history.append(
                MatchResult(r, a, b, mp, (13, 13) if mp == (1, 1) else (16, 10) if mp == (2, 0) else (10, 16))
            )
    clubs = draw(st.lists(st.sampled_from([None, "X", "Y"]), min_size=n, max_size=n))
    teams = [Entrant(id=t, reg=i + 1, club=c) for i, (t, c) in enumerate(zip(ids, clubs, strict=True))]
    forbidden = frozenset(
        frozenset(p)
        for p in draw(st.lists(st.sampled_from(list(itertools.combinations(ids, 2))), max_size=3))
    )
    club_rule = draw(st.sampled_from(list(ClubRule)))
    return teams, history, SwissOptions(forbidden_pairs=forbidden, clubs=club_rule)


@settings(max_examples=examples(80), deadline=None)
@given(later_rounds())
def test_blocks_and_reach_solve_what_the_full_graph_solves(case):
    """The reach lemma and the block split (swiss._Later, swiss._first_unsafe_run) leave out only
    what no optimal pairing uses: same feasibility, same (Σ MP², Σ place², tie-break) as the full
    solve over every allowed meeting."""
    from deckhand.competition.matchplay import swiss

    teams, history, options = case
    totals = tally(history)
    order = standing_order(teams, totals)
    fast = swiss._solve_later(order, totals, options)
    full = reference_tables(order, totals, options)
    assert (fast is None) == (full is None)
    if fast is not None:
        assert sorted(t for table in fast for t in table) == list(range(len(order)))
        assert all(swiss.allowed(order[i], order[j], totals, options) for i, j in fast)
        assert lexicographic(fast, order, totals) == lexicographic(full, order, totals)


def test_a_block_that_cannot_be_paired_alone_is_merged():
    """A, B on 3 MP met; C, D on 2; E, F on 1: the cut after B is even but A–B is a rematch, so
    the block of A and B cannot be paired alone; the blocks merge and A, B float to C, D."""
    teams = [Entrant(id=t, reg=i + 1) for i, t in enumerate("ABCDEF")]
    history = [
        MatchResult(1, "A", "E", (2, 0), (16, 10)),
        MatchResult(1, "B", "F", (2, 0), (16, 10)),
        MatchResult(1, "C", "D", (1, 1), (13, 13)),
        MatchResult(2, "A", "B", (1, 1), (13, 13)),
        MatchResult(2, "C", "E", (1, 1), (13, 13)),
        MatchResult(2, "D", "F", (1, 1), (13, 13)),
    ]
    p = pair_round(teams, history, 3)
    assert p.pairs == (("A", "C"), ("B", "D"), ("E", "F"))

"""Competition core figures: standings for 10,000 players × 12 boards, and seating 10,000 players.

Run with ``make bench`` (or ``python bench/competition_bench.py``). Prints figures beside their aims
(issue 22); asserts nothing. Standings times are this process's CPU time (the machine is shared),
the median of ``RUNS`` runs.
"""

from __future__ import annotations

import platform
import random
import statistics
import time

from deckhand.competition.standings import BoardResults, Result, standings
from deckhand.competition.swiss import first_round, next_round

PLAYERS = 10_000
GROUPS = 10
ROUNDS = 3
BOARDS_PER_ROUND = 4
RUNS = 3
STANDINGS_AIM_S = 1.0  # issue 22: 10,000 players × 12 boards under a second


def make_field(rng: random.Random) -> list[BoardResults]:
    """A Big Two event: Swiss seating each round, random scores and play times."""
    players = [f"P{i:05d}" for i in range(PLAYERS)]
    tables = first_round(players, 4, GROUPS, "bench")
    boards = []
    for rnd in range(1, ROUNDS + 1):
        for b in range(BOARDS_PER_ROUND):
            for group in range(1, GROUPS + 1):
                results = tuple(
                    Result(p, f"{t.table}", seat, rng.randint(-60, 60), rng.uniform(10, 90))
                    for t in tables
                    if t.group == group
                    for seat, p in enumerate(t.seats)
                    if p is not None
                )
                boards.append(BoardResults(f"{rnd}-{b}", rnd, str(group), results))
        tables = next_round(sorted(players, key=lambda _: rng.random()), 4, GROUPS)
    return boards


def main() -> None:
    print(f"Competition core — Python {platform.python_version()} on {platform.machine()}, one core")
    boards = make_field(random.Random(3))
    results = sum(len(b.results) for b in boards)
    for ruleset in ("bigtwo-2017", "doudizhu-2016"):
        times = []
        for _ in range(RUNS):
            start = time.process_time()
            comparisons, table = standings(boards, ruleset)
            times.append(time.process_time() - start)
        elapsed = statistics.median(times)
        met = "met" if elapsed < STANDINGS_AIM_S else "not met"
        print(
            f"standings {ruleset}: {PLAYERS:,} players × {ROUNDS * BOARDS_PER_ROUND} boards "
            f"({results:,} results, {len(comparisons):,} comparisons): {elapsed:.2f} s"
            f" (CPU, median of {RUNS}; aim < {STANDINGS_AIM_S:.0f} s: {met})"
        )
    players = [f"P{i:05d}" for i in range(PLAYERS)]
    start = time.perf_counter()
    first_round(players, 4, GROUPS, "seed")
    mid = time.perf_counter()
    next_round(players, 4, GROUPS)
    end = time.perf_counter()
    print(
        f"seating {PLAYERS:,} players: first round {1000 * (mid - start):.1f} ms, later round {1000 * (end - mid):.1f} ms"
    )


if __name__ == "__main__":
    main()

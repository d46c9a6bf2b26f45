"""Swiss pairing of pairs (match play, RULES.md §4.3): one round after 5 simulated rounds.

Prints the time to pair round 6 for 64, 256 and 1,024 pairs (one process, one core), and round 1
of the same fields with pairs from 16 regions kept apart (seed 003). Results are random but
reproducible: each table's winner and level difference come from a seeded generator.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

from deckhand.competition.matchplay.entrants import Entrant, MatchResult, bye
from deckhand.competition.matchplay.swiss import pair_round

SIZES = (64, 256, 1024)


def simulate(pairs: int, rounds: int, seed: int = 1) -> tuple[list[Entrant], list[MatchResult]]:
    rng = random.Random(seed)
    field = [Entrant(id=f"P{i:04d}", reg=i + 1, seed=i + 1) for i in range(pairs)]
    history: list[MatchResult] = []
    for r in range(1, rounds + 1):
        pairing = pair_round(field, history, r)
        for a, b in pairing.pairs:
            d = rng.randint(0, 13)
            outcome = rng.choice(((2, 0), (1, 1), (0, 2)))
            lp = (
                (13, 13) if outcome == (1, 1) else (13 + d, 13 - d) if outcome == (2, 0) else (13 - d, 13 + d)
            )
            history.append(MatchResult(r, a, b, outcome, lp))
        if pairing.bye:
            history.append(bye(r, pairing.bye))
    return field, history


def timed(field: list[Entrant], history: list[MatchResult], round_no: int) -> tuple[float, int]:
    start = time.perf_counter()
    pairing = pair_round(field, history, round_no)
    return time.perf_counter() - start, len(pairing.pairs)


def main() -> None:
    print("Swiss pairing of pairs (networkx max_weight_matching), seconds for one round")
    for pairs in SIZES:
        start = time.perf_counter()
        field, history = simulate(pairs, 5)
        simulated = time.perf_counter() - start
        took, tables = timed(field, history, 6)
        rng = random.Random(3)
        regional = [replace(e, region=f"R{rng.randrange(16)}") for e in field]
        first, _ = timed(regional, [], 1)
        print(
            f"  {pairs:5d} pairs: round 6 {took:7.3f} s ({tables} tables)"
            f"   round 1, 16 regions {first:7.3f} s   5 rounds simulated in {simulated:6.1f} s"
        )


if __name__ == "__main__":
    main()

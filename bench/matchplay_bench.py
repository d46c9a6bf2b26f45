"""Swiss pairing of pairs (match play, RULES.md §4.3): one round after 5 simulated rounds.

Prints the time to pair round 6 for 64, 256 and 1,024 pairs (one process, one core). Results are
random but reproducible: each table's winner and level difference come from a seeded generator.
"""

from __future__ import annotations

import random
import time

from deckhand.competition.matchplay.entrants import Entrant, MatchResult, bye
from deckhand.competition.matchplay.swiss import pair_round


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


def main() -> None:
    print("Swiss pairing of round 6 after 5 simulated rounds (networkx max_weight_matching)")
    for pairs in (64, 256, 1024):
        field, history = simulate(pairs, 5)
        start = time.perf_counter()
        pairing = pair_round(field, history, 6)
        took = time.perf_counter() - start
        print(f"  {pairs:5d} pairs: {took:7.3f} s  ({len(pairing.pairs)} tables, bye {pairing.bye})")


if __name__ == "__main__":
    main()

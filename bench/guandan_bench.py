"""Guandan legal-play generation and classification speed (issue 16, docs/guandan-engine.md).

Measures, on one core, the median time to list every legal play:
- for a lead from random 27-card hands holding 0, 1 and 2 wild cards (the heart level card);
- for a follow against a random previous play (a reading some other random hand can make);
and how many plays per second ``readings`` classifies (random plays drawn from generated leads).
The open engines take about 2 / 7 / 16 ms (median) to list every lead with 0 / 1 / 2 wilds; the aim
is 10× faster. Prints figures; asserts nothing about speed.

    .venv/bin/python bench/guandan_bench.py [--hands 300] [--seed 16]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from deckhand.engines.common.cards import make_deck
from deckhand.engines.guandan.combos import Reading, readings, wild_of
from deckhand.engines.guandan.legal import legal_plays

DECK = make_deck(decks=2, jokers=True)
OPEN_ENGINES_MS = {0: 2.0, 1: 7.0, 2: 16.0}


def deal(rng: random.Random, level: int, wilds: int) -> list[int]:
    """A 27-card hand with exactly ``wilds`` heart level cards."""
    wild = wild_of(level)
    rest = [c for c in DECK if c != wild]
    return rng.sample(rest, 27 - wilds) + [wild] * wilds


def timed(fn: object, *args: object) -> tuple[float, int]:
    start = time.process_time()
    out = fn(*args)  # type: ignore[operator]
    return time.process_time() - start, len(out)


def lead(hands: int, rng: random.Random) -> None:
    print("lead: every legal play of a 27-card hand")
    for wilds in (0, 1, 2):
        times, counts = [], []
        for _ in range(hands):
            level = rng.randrange(13)
            t, n = timed(legal_plays, deal(rng, level, wilds), level, None)
            times.append(t)
            counts.append(n)
        ms = statistics.median(times) * 1000
        aim = OPEN_ENGINES_MS[wilds] / 10
        print(
            f"  {wilds} wild(s): median {ms:.3f} ms, p90 {statistics.quantiles(times, n=10)[-1] * 1000:.3f} ms,"
            f" median {statistics.median(counts):.0f} plays"
            f" (open engines ~{OPEN_ENGINES_MS[wilds]:.0f} ms; 10x aim {aim:.1f} ms: {'met' if ms <= aim else 'not met'})"
        )


def follow(hands: int, rng: random.Random) -> None:
    times, counts = [], []
    for _ in range(hands):
        level = rng.randrange(13)
        wilds = rng.choice((0, 0, 1, 2))
        other = legal_plays(deal(rng, level, rng.choice((0, 1))), level, None)
        prev: Reading = rng.choice(other)[1]
        t, n = timed(legal_plays, deal(rng, level, wilds), level, prev)
        times.append(t)
        counts.append(n)
    print(
        f"follow: median {statistics.median(times) * 1000:.3f} ms,"
        f" median {statistics.median(counts):.0f} plays (random previous play, 0–2 wilds)"
    )


def classify(rng: random.Random, n: int = 20000) -> None:
    plays: list[tuple[tuple[int, ...], int]] = []
    while len(plays) < n:
        level = rng.randrange(13)
        found = legal_plays(deal(rng, level, rng.choice((0, 1, 2))), level, None)
        plays.extend((p, level) for p, _ in rng.sample(found, min(200, len(found))))
    # Half of them broken (one card swapped) so misses are measured too.
    for i in range(0, n, 2):
        p, level = plays[i]
        plays[i] = ((*p[:-1], rng.choice(DECK)), level)
    plays = plays[:n]
    start = time.process_time()
    for p, level in plays:
        readings(p, level)
    spent = time.process_time() - start
    print(
        f"classify: {n / spent:,.0f} plays per second ({spent / n * 1e6:.1f} µs each; half of them no play)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"Python {platform.python_version()} on {platform.machine()}, process CPU time, one core")
    for _ in range(30):  # warm the per-rank sub-multiset cache as a running engine would have it
        level = rng.randrange(13)
        legal_plays(deal(rng, level, 2), level, None)
    lead(args.hands, rng)
    follow(args.hands, rng)
    classify(rng)


if __name__ == "__main__":
    main()

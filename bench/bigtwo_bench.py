"""Big Two engine figures: classify+compare, legal-play generation, whole bot boards (one core).

Run with ``make bench`` (or ``python bench/bigtwo_bench.py [--quick]``). Prints figures beside their
aims (issue 22); asserts nothing. Times are this process's CPU time (the machine is shared: other
processes' load does not count) and each figure is the median of ``--runs`` runs.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from deckhand.engines.bigtwo.board import BigTwoBoard
from deckhand.engines.bigtwo.bot import BigTwoBot
from deckhand.engines.bigtwo.combos import beats, classify
from deckhand.engines.bigtwo.legal import candidate_plays, legal_plays
from deckhand.engines.common.cards import make_deck
from deckhand.engines.common.shuffle import seeded_shuffle

RUNS = 3
BOARDS_AIM = 500  # whole bot boards a second (issue 22)


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>12,.0f}/s"


def median_time(fn: Callable[[], None], runs: int) -> float:
    """The median CPU time of ``runs`` calls of ``fn`` (a shared machine: one run can be unlucky)."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def bench_classify(n: int, runs: int = RUNS) -> None:
    rng = random.Random(1)
    deck = make_deck()
    pairs = []
    for _ in range(1000):  # realistic inputs: real combinations of the same size, half 5-card
        hand = rng.sample(deck, 13)
        plays = candidate_plays(hand)
        by_size: dict[int, list[tuple[int, ...]]] = {}
        for cards, _ in plays:
            by_size.setdefault(len(cards), []).append(cards)
        size = 5 if 5 in by_size and rng.random() < 0.5 else rng.choice([1, 2, 1])
        options = by_size.get(size) or by_size[1]
        pairs.append((rng.choice(options), rng.choice(options)))
    work = (pairs * (n // len(pairs) + 1))[:n]
    hits = 0

    def run() -> None:
        nonlocal hits
        hits = 0
        for prev_cards, play_cards in work:
            prev = classify(prev_cards)
            play = classify(play_cards)
            if prev is not None and play is not None and beats(prev, play):
                hits += 1

    elapsed = median_time(run, runs)
    print(f"classify+compare (two classifies and a compare): {rate(n, elapsed)}  ({hits} beat)")


def bench_legal(n: int, runs: int = RUNS) -> None:
    rng = random.Random(2)
    deck = make_deck()
    hands = [sorted(rng.sample(deck, 13)) for _ in range(200)]
    total = 0

    def run() -> None:
        nonlocal total
        total = 0
        for i in range(n):
            total += len(legal_plays(hands[i % len(hands)], None))

    elapsed = median_time(run, runs)
    print(
        f"legal plays of a 13-card hand (lead, all sizes): {rate(n, elapsed)}  ({total / n:.1f} plays each;"
        " aim: report)"
    )


def bench_boards(n: int, runs: int = RUNS) -> None:
    bots = [BigTwoBot(s) for s in ("steady", "bold", "careful", "steady")]
    deals = [seeded_shuffle(make_deck(), f"bench/{i}") for i in range(n)]
    actions = 0

    def run() -> None:
        nonlocal actions
        actions = 0
        for order in deals:
            board = BigTwoBoard.from_order(order)
            while not board.finished:
                seat = board.pending()[0]
                action = bots[seat].decide(board.seat_view(seat))
                assert action is not None
                board.apply(action)
                actions += 1

    elapsed = median_time(run, runs)
    met = "met" if n / elapsed >= BOARDS_AIM else "not met"
    print(
        f"whole bot boards (deal, show, double, play, score): {rate(n, elapsed)}  ({actions / n:.0f} actions each;"
        f" aim ≥ {BOARDS_AIM}/s: {met})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few seconds instead of a minute")
    parser.add_argument("--runs", type=int, default=RUNS, help="runs of each figure; the median is printed")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    print(
        f"Big Two engine — Python {platform.python_version()} on {platform.machine()}, one core,"
        f" process CPU time, median of {args.runs} runs"
    )
    bench_classify(1_000_000 // scale, args.runs)
    bench_legal(20_000 // scale, args.runs)
    bench_boards(2_000 // scale, args.runs)


if __name__ == "__main__":
    main()

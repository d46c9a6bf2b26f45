"""Shengji engine figures: legal follows for random hands against random leads, throw checks, whole
bot boards (one core).

Run with ``python bench/shengji_bench.py [--quick]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from deckhand.engines.common.cards import make_deck
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.shengji.cards import Trump, trump
from deckhand.engines.shengji.combos import follow_error, throw_failures
from deckhand.engines.shengji.legal import follows
from deckhand.engines.shengji.options import LevelChain
from deckhand.engines.shengji.spec import SPECS


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>12,.0f}/s"


def contexts(rng: random.Random) -> Trump:
    return trump(rng.randint(2, 14), rng.choice([None, 0, 1, 2, 3]), rng.choice(list(LevelChain)))


def cases(n: int, seed: int) -> list[tuple[Trump, list[int], list[int], list[list[int]]]]:
    """(context, a lead of 1–6 cards of one suit, the follower's hand, the other three hands)."""
    rng = random.Random(seed)
    out = []
    deck = make_deck(decks=2, jokers=True)
    while len(out) < n:
        ctx = contexts(rng)
        cards = rng.sample(deck, 100)
        hands = [sorted(cards[i * 25 : (i + 1) * 25]) for i in range(4)]
        suit = ctx.eff[rng.choice(hands[0])]
        own = [c for c in hands[0] if ctx.eff[c] == suit]
        lead = sorted(rng.sample(own, min(len(own), rng.randint(1, 6))))
        out.append((ctx, lead, hands[1], hands[1:]))
    return out


def bench_follows(n: int) -> None:
    work = cases(n, 1)
    start = time.perf_counter()
    generated = 0
    for ctx, lead, hand, _ in work:
        generated += len(follows(lead, hand, ctx))
    took = time.perf_counter() - start
    print(f"legal follows, generated     {rate(n, took)} hands   ({generated / n:,.0f} follows a hand)")
    checks = [(ctx, lead, hand, follows(lead, hand, ctx)[0]) for ctx, lead, hand, _ in work]
    start = time.perf_counter()
    for ctx, lead, hand, play in checks:
        follow_error(lead, hand, play, ctx)
    print(f"follow checks                {rate(n, time.perf_counter() - start)}")


def bench_throws(n: int) -> None:
    work = cases(n, 2)
    start = time.perf_counter()
    failed = 0
    for ctx, lead, _, others in work:
        failed += bool(throw_failures(lead, others, ctx))
    print(f"throw checks (3 hands)       {rate(n, time.perf_counter() - start)}   ({failed / n:.0%} fail)")


def bench_boards(n: int) -> None:
    for ruleset, spec in SPECS.items():
        decide = spec.bot()
        start = time.perf_counter()
        actions = 0
        for i in range(n):
            board = spec.new_board(seeded_shuffle(make_deck(decks=2, jokers=True), f"bench/{i}"), None)
            while not board.finished:
                board.apply(decide(board, board.pending()[0]))
                actions += 1
        took = time.perf_counter() - start
        print(f"bot boards {ruleset:<18}{rate(n, took)}   ({actions / took:,.0f} actions/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    scale = 1 if args.quick else 10
    print(f"Python {platform.python_version()} on {platform.machine()}")
    bench_follows(300 * scale)
    bench_throws(1000 * scale)
    bench_boards(5 * scale)


if __name__ == "__main__":
    main()

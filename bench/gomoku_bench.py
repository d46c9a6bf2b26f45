"""Gomoku engine figures: Black's forbidden-move checks a second, and the bot's time a move (one core).

Run with ``make bench`` (or ``python bench/gomoku_bench.py [--quick]``). Prints figures beside their
aims (issue 38); asserts nothing. Times are this process's CPU time (the machine is shared) and each
figure is the median of ``--runs`` runs. Checks are timed on every empty point of positions from
bot games (the three styles, every fifth move) and of dense random positions around the centre,
the line patterns' cache first empty ("cold") and then filled ("warm").
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from deckhand.engines.gomoku import forbidden as fb
from deckhand.engines.gomoku.board import GomokuBoard
from deckhand.engines.gomoku.bot import GomokuBot
from deckhand.engines.gomoku.stones import POINTS, B, Stones, W

RUNS = 3
CHECKS_AIM = 20_000  # forbidden-move checks a second (issue 38)


def median_time(fn: Callable[[], None], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def bot_games(games: int) -> tuple[list[Stones], list[float]]:
    """Games of the three bot styles against each other: the positions every fifth move, and the
    CPU time of each of the bots' moves."""
    styles = ["steady", "bold", "careful"]
    positions, times = [], []
    for game in range(games):
        bots = [GomokuBot(styles[game % 3]), GomokuBot(styles[(game + 1) % 3])]
        board = GomokuBoard()
        while not board.finished:
            seat = board.pending()[0]
            start = time.process_time()
            action = bots[seat].decide(board.seat_view(seat))
            times.append(time.process_time() - start)
            assert action is not None
            board.apply(action)
            if len(board.moves) % 5 == 0:
                positions.append(GomokuBoard.from_json(board.to_json()).stones)
    return positions, times


def dense_positions(count: int) -> list[Stones]:
    """Stones dense in a 9×9 window around the centre, Black a little more numerous."""
    rng = random.Random(38)
    spots = [p for p in POINTS if abs(p % 20 - 12) <= 4 and abs(p // 20 - 12) <= 4]
    found = []
    for _ in range(count):
        stones = Stones()
        for p in rng.sample(spots, rng.randint(15, 50)):
            stones.put(p, B if rng.random() < 0.6 else W)
        found.append(stones)
    return found


def bench_checks(label: str, positions: list[Stones], runs: int) -> None:
    todo = [(s, p) for s in positions for p in s.empty_points()]

    def check_all() -> None:
        for stones, p in todo:
            fb.verdict(stones, p)

    fb._LINES.clear()
    cold = median_time(check_all, 1)
    warm = median_time(check_all, runs)
    verdicts: dict[str, int] = {}
    for stones, p in todo:
        v = fb.verdict(stones, p).value
        verdicts[v] = verdicts.get(v, 0) + 1
    print(
        f"forbidden checks, {label}: {len(todo) / cold:>10,.0f}/s cold, {len(todo) / warm:>10,.0f}/s warm"
        f"  (aim ≥ {CHECKS_AIM:,}/s: {'met' if len(todo) / cold >= CHECKS_AIM else 'not met'};"
        f" {len(todo):,} checks: {verdicts}; {len(fb._LINES):,} line patterns)"
    )


def report_bot(times: list[float], games: int) -> None:
    times = sorted(times)
    print(
        f"bot move time over {len(times)} moves of {games} bot games: median {statistics.median(times) * 1000:.1f} ms,"
        f" 95th percentile {times[int(len(times) * 0.95)] * 1000:.1f} ms, worst {times[-1] * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer positions and games")
    parser.add_argument("--runs", type=int, default=RUNS, help="runs of each figure; the median is printed")
    args = parser.parse_args()
    print(f"Gomoku engine — Python {platform.python_version()} on {platform.machine()}, one core, CPU time")
    games = 3 if args.quick else 12
    positions, times = bot_games(games)
    bench_checks("bot-game positions", positions, args.runs)
    bench_checks("dense random positions", dense_positions(50 if args.quick else 400), args.runs)
    report_bot(times, games)


if __name__ == "__main__":
    main()

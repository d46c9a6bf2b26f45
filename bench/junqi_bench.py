"""Junqi engine figures: the umpire's legal moves a second and whole bot games a second (one core).

Run with ``make bench`` (or ``python bench/junqi_bench.py [--quick]``). Prints figures; asserts
nothing. Times are this process's CPU time (the machine is shared); each figure is the median of
``--runs`` runs. Legal moves are generated for both sides of positions taken every fifth ply from
bot-against-random games (so the railways are as full and as empty as real games make them); the
games are played from both setups to the end (the bot against itself, and against a random mover).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from deckhand.engines.junqi.board import JunqiBoard
from deckhand.engines.junqi.bot import JunqiBot
from deckhand.engines.junqi.moves import Cell, legal_moves

RUNS = 3


def median_time(fn: Callable[[], None], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def play(seed: int, random_seat: int | None) -> tuple[JunqiBoard, list[list[Cell]]]:
    """One game from its seed: the bot in both seats, or against a random mover in ``random_seat``."""
    board = JunqiBoard.from_order([], {"seed": str(seed)})
    bots, rng, positions = [JunqiBot("steady"), JunqiBot("bold")], random.Random(seed), []
    while not board.finished:
        seat = board.pending()[0]
        if seat == random_seat:
            action = rng.choice(board.legal_actions(seat))
        else:
            decided = bots[seat].decide(board.seat_view(seat))
            assert decided is not None
            action = decided
        board.apply(action)
        if board.log and len(board.log) % 5 == 0:
            positions.append(list(board.cells))
    return board, positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games (a smoke run)")
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    games = 4 if args.quick else 20
    positions = [p for seed in range(games) for p in play(seed, seed % 2)[1]]
    moves = sum(len(legal_moves(p, side)) for p in positions for side in (0, 1))

    def generate() -> None:
        for p in positions:
            legal_moves(p, 0)
            legal_moves(p, 1)

    t_legal = median_time(generate, args.runs)
    plies: list[int] = []

    def bot_games() -> None:
        plies.clear()
        for seed in range(games):
            plies.append(len(play(seed, None)[0].log))

    t_bots = median_time(bot_games, args.runs)
    wins, t_random = 0, 0.0
    for seed in range(games):
        start = time.process_time()
        board, _ = play(seed, seed % 2)
        t_random += time.process_time() - start
        wins += board.winner == 1 - seed % 2
    print(f"junqi bench on {platform.python_implementation()} {platform.python_version()}, one core")
    print(
        f"legal moves: {2 * len(positions)} generations, {moves} moves: {2 * len(positions) / t_legal:,.0f} generations/s, {moves / t_legal:,.0f} moves/s"
    )
    print(
        f"bot against bot: {games} games, {statistics.mean(plies):.0f} plies on average: {games / t_bots:.1f} games/s"
    )
    print(f"bot against a random mover: {games} games, the bot won {wins}: {games / t_random:.1f} games/s")


if __name__ == "__main__":
    main()

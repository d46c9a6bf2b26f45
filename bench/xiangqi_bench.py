"""Xiangqi engine figures: perft nodes per second of the move generator, and the bot's move time.

Run with ``make bench`` (or ``python bench/xiangqi_bench.py [--quick] [--peer MODULE]``). Prints
figures beside their aims (issue 38); asserts nothing but the node counts. Times are this process's
CPU time on one core, each figure the median of ``--runs`` runs.

``--peer MODULE``: a pure-Python Xiangqi move generator installed in the bench's own environment
(never a dependency of the project), timed on the same positions for the side-by-side figure. The
module must offer ``perft(fen, depth) -> int``; a thin adapter is the bench-runner's to write.

``--fairy-stockfish PATH``: a Fairy-Stockfish binary the bench-runner built from its public source
(with large-board support, which Xiangqi needs; never part of the project), run over UCI on the same
positions and depths: its counts must equal ours, and its nodes per second (wall clock, C++ on
bitboards) stand beside ours as the physical reference, not as an aim.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from types import ModuleType

from deckhand.engines.xiangqi.board import XiangqiBoard
from deckhand.engines.xiangqi.bot import XiangqiBot
from deckhand.engines.xiangqi.position import START, Position, perft
from uci_perft import UciError, UciPerft

RUNS = 3
NODES_AIM = 100_000  # perft nodes a second, pure Python (issue 38)
BOT_AIM = 1.0  # seconds a bot move may take
# (position, depth, nodes): the start and two of the chessprogramming wiki's perft positions.
POSITIONS = [
    (START, 3, 79_666),
    ("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w", 3, 43_929),
    ("1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w", 3, 22_787),
]
DEEP = [(START, 4, 3_290_240)]


def timed(run: Callable[[], int], runs: int) -> tuple[int, float]:
    times, count = [], 0
    for _ in range(runs):
        began = time.process_time()
        count = run()
        times.append(time.process_time() - began)
    return count, statistics.median(times)


def ours(fen: str, depth: int) -> int:
    return perft(Position.from_fen(fen), depth)


def peer_perft(peer: ModuleType, fen: str, depth: int) -> int:
    return int(peer.perft(fen, depth))


def bot_moves(games: int) -> list[float]:
    """CPU seconds of each bot move in games against a random mover."""
    bot, times = XiangqiBot(), []
    for game in range(games):
        rng, board = random.Random(game), XiangqiBoard.from_order([], None)
        while not board.finished:
            seat = board.pending()[0]
            if seat == game % 2:
                began = time.process_time()
                action = bot.decide(board.seat_view(seat))
                times.append(time.process_time() - began)
            else:
                action = rng.choice([a for a in board.legal_actions(seat) if a.kind == "move"])
            assert action is not None
            board.apply(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="depth 3 only, two bot games")
    parser.add_argument("--runs", type=int, default=RUNS, help="runs of each figure; the median is printed")
    parser.add_argument("--peer", help="a module with perft(fen, depth) -> int, timed beside ours")
    parser.add_argument(
        "--fairy-stockfish",
        metavar="PATH",
        help="a Fairy-Stockfish binary (large boards), run over UCI beside ours",
    )
    args = parser.parse_args()
    print(f"Xiangqi engine — Python {platform.python_version()} on {platform.machine()}, one core, CPU time")
    peer = importlib.import_module(args.peer) if args.peer else None
    try:
        fsf = UciPerft(args.fairy_stockfish) if args.fairy_stockfish else None
    except (UciError, OSError) as error:
        parser.error(f"--fairy-stockfish {args.fairy_stockfish}: {error}")
    total_nodes, total_time, peer_time = 0, 0.0, 0.0
    fsf_nodes, fsf_time, mismatches = 0, 0.0, 0
    for fen, depth, expected in POSITIONS + ([] if args.quick else DEEP):
        nodes, seconds = timed(partial(ours, fen, depth), args.runs)
        assert nodes == expected, (fen, depth, nodes)
        total_nodes, total_time = total_nodes + nodes, total_time + seconds
        line = f"  perft {depth} {fen.split()[0][:28]:<28} {nodes:>10,} nodes {nodes / seconds:>10,.0f}/s"
        if peer is not None:
            theirs, their_seconds = timed(partial(peer_perft, peer, fen, depth), 1)
            peer_time += their_seconds
            line += f"   peer {theirs:>10,} nodes {theirs / their_seconds:>10,.0f}/s"
        if fsf is not None:
            counted, fsf_seconds = fsf.timed(fen, depth, args.runs)
            fsf_nodes, fsf_time = fsf_nodes + counted, fsf_time + fsf_seconds
            line += f"   fsf {counted:>10,} nodes {counted / fsf_seconds:>12,.0f}/s ({counted / fsf_seconds / (nodes / seconds):,.0f}×)"
            if counted != nodes:
                mismatches += 1
                line += f"   !!! MISMATCH: Fairy-Stockfish counts {counted:,}, ours {nodes:,}"
        print(line)
    print(f"perft: {total_nodes / total_time:,.0f} nodes/s (aim ≥ {NODES_AIM:,})")
    if peer is not None:
        print(f"peer: ours is {peer_time / total_time:.1f}× as fast (aim ≥ 50×)")
    if fsf is not None:
        fsf.close()
        print(
            f"Fairy-Stockfish (C++, bitboards; wall clock; the physical reference, not an aim): "
            f"{fsf_nodes / fsf_time:,.0f} nodes/s, {fsf_nodes / fsf_time / (total_nodes / total_time):,.0f}× ours"
        )
        if mismatches:
            print(
                f"!!! {mismatches} perft count(s) differ from Fairy-Stockfish's: see MISMATCH above",
                file=sys.stderr,
            )
    times = bot_moves(2 if args.quick else 6)
    print(
        f"bot: {len(times)} moves, median {statistics.median(times) * 1000:.0f} ms, "
        f"slowest {max(times) * 1000:.0f} ms (aim < {BOT_AIM * 1000:.0f} ms)"
    )
    if mismatches:
        sys.exit(1)


if __name__ == "__main__":
    main()

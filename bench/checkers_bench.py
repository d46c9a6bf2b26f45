"""Chinese checkers engine figures: legal destinations a second, and the bot's race (one core).

Run with ``make bench`` (or ``python bench/checkers_bench.py [--quick]``). Prints figures; asserts
nothing. Times are this process's CPU time (the machine is shared), each the median of ``--runs`` runs.

- Legal destinations (the calculator's ``legal``, every (from, to) of a side) on positions from bot
  games, and on long-chain positions: random arrangements of the twenty pieces in the hexagon, the
  ones kept whose pieces have the longest jump chains (the search's worst case).
- The bot against itself from a seeded opening of four random moves, passive play off so each side
  plays until it fills: the moves each side takes to fill its target. Then the bot against a random
  mover: its results under the default rules, and its moves to fill with passive play off (the
  random mover's pieces linger in the bot's target, so these games are long).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from deckhand.engines.checkers.board import CheckersBoard
from deckhand.engines.checkers.bot import CheckersBot, own
from deckhand.engines.checkers.ending import round_end
from deckhand.engines.checkers.options import Options
from deckhand.engines.checkers.pieces import EMPTY, Pieces, destinations, reach
from deckhand.engines.checkers.star import BLUE, JUMPS, POINTS, RED, region

RUNS = 3
OPENING = 4  # random plies before the bots take over, so games differ


def median_time(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def longest_chain(pieces: Pieces, start: int) -> int:
    """The most jumps on a shortest way to any landing point of the piece on ``start``."""
    cells, side = pieces.cells, pieces.cells[start]
    cells[start] = EMPTY
    depth, seen, frontier = 0, {start}, [start]
    while frontier:
        later = [
            land
            for p in frontier
            for over, land in JUMPS[p]
            if cells[over] != EMPTY and cells[land] == EMPTY and land not in seen and not seen.add(land)
        ]
        depth += bool(later)
        frontier = later
    cells[start] = side
    return depth


def long_chain_positions(count: int, tries: int) -> list[Pieces]:
    """Of ``tries`` random arrangements in the hexagon, the ``count`` with the longest chains."""
    rng = random.Random(39)
    hexagon = [p for p in POINTS if region(p) == "hexagon"]
    scored = []
    for _ in range(tries):
        spots = rng.sample(hexagon, 20)
        pieces = Pieces(spots[:10], spots[10:])
        scored.append(
            (
                max(longest_chain(pieces, p) for p in spots),
                sum(len(reach(pieces.cells, p)) for p in spots),
                pieces,
            )
        )
    scored.sort(key=lambda s: (-s[0], -s[1]))
    return [s[2] for s in scored[:count]]


def race(bots: list[CheckersBot | None], seed: int, limit: int = 400) -> list[int | None]:
    """Moves each side takes to fill its target (None: not within ``limit``), passive play off; a side
    that has filled stops (passes); a None bot is a random mover."""
    rng = random.Random(seed)
    pieces = Pieces.start()
    seen = [{own(pieces, RED)}, {own(pieces, BLUE)}]
    done: list[int | None] = [None, None]
    for ply in range(2 * limit):
        side = ply % 2
        if done[side] is not None:
            continue
        bot = bots[side]
        if ply < OPENING or bot is None:
            options = destinations(pieces, side)
            found = rng.choice(options) if options else None
        else:
            found = bot.choose(pieces, side, frozenset(seen[side]))
        if found is not None:
            pieces.move(*found)
        seen[side].add(own(pieces, side))
        if pieces.filled(side):
            done[side] = ply // 2 + 1
            if bots[1 - side] is None or done[1 - side] is not None:
                break
    return done


def random_game(bot: CheckersBot, seed: int, bot_seat: int) -> tuple[str | None, str]:
    """A game under the default rules between the bot and a random mover: (winner, why)."""
    rng = random.Random(seed)
    board = CheckersBoard(Options())
    while not board.finished:
        seat = board.pending()[0]
        if seat == bot_seat:
            action = bot.decide(board.seat_view(seat))
            assert action is not None
        else:
            action = rng.choice([a for a in board.legal_actions(seat) if a.kind in ("move", "pass")])
        board.apply(action)
    result = board.result()
    return result["winner"], result["why"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games and positions")
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    games = 6 if args.quick else 40
    print(f"Python {platform.python_version()}, one core, CPU time; median of {args.runs} runs")
    bot = CheckersBot("steady")

    game_positions: list[Pieces] = []
    moves_to_fill: list[int] = []
    bot_times: list[float] = []
    for seed in range(games):
        rng = random.Random(seed)
        pieces = Pieces.start()
        seen = [{own(pieces, RED)}, {own(pieces, BLUE)}]
        for ply in range(400):
            side = ply % 2
            start = time.process_time()
            found = (
                rng.choice(destinations(pieces, side))
                if ply < OPENING
                else bot.choose(pieces, side, frozenset(seen[side]))
            )
            bot_times.append(time.process_time() - start)
            if found is not None:
                pieces.move(*found)
            seen[side].add(own(pieces, side))
            game_positions.append(pieces.copy())
            if side == BLUE and round_end(pieces, ply // 2 + 1, None) is not None:
                break
    for seed in range(games):
        moves_to_fill += [n for n in race([bot, bot], seed) if n is not None]

    chains = long_chain_positions(20 if args.quick else 100, 500 if args.quick else 5_000)
    for label, positions in (("positions of bot games", game_positions), ("long-chain positions", chains)):
        found = sum(len(destinations(p, s)) for p in positions for s in (RED, BLUE))
        spent = median_time(
            lambda ps=positions: [destinations(p, s) for p in ps for s in (RED, BLUE)], args.runs
        )
        longest = max(longest_chain(p, q) for p in positions for q in POINTS if p.cells[q] != EMPTY)
        print(
            f"legal, {label}: {2 * len(positions):,} side-positions, {found:,} destinations, "
            f"longest chain {longest} jumps: {found / spent:,.0f} destinations/s, "
            f"{2 * len(positions) / spent:,.0f} positions/s"
        )
    print(
        f"bot against itself, {games} games, passive off: moves to fill mean {statistics.mean(moves_to_fill):.1f}, "
        f"median {statistics.median(moves_to_fill)}, best {min(moves_to_fill)}, worst {max(moves_to_fill)} "
        f"({len(moves_to_fill)} of {2 * games} sides filled)"
    )
    bot_times.sort()
    print(
        f"bot move: median {1000 * statistics.median(bot_times):.1f} ms, "
        f"95th percentile {1000 * bot_times[int(0.95 * len(bot_times))]:.1f} ms, worst {1000 * bot_times[-1]:.0f} ms"
    )
    outcomes = [random_game(bot, seed, seed % 2) for seed in range(games)]
    wins = sum(1 for seed, (winner, _) in enumerate(outcomes) if winner == ("red", "blue")[seed % 2])
    whys = sorted({why for _, why in outcomes})
    print(f"bot against a random mover, default rules: {wins} of {games} won ({', '.join(whys)})")
    alone = [race([bot, None], seed)[0] for seed in range(games // 2)]
    filled = [n for n in alone if n is not None]
    print(
        f"bot against a random mover, passive off: filled in {len(filled)} of {len(alone)} games, "
        f"moves to fill mean {statistics.mean(filled):.1f}, worst {max(filled)}"
    )


if __name__ == "__main__":
    main()

"""``deckhand demo``: a duplicate set of Big Two boards played by bots, with a readable log.

Each board is dealt once and played at two tables by different players from the same seats, so
the summary can compare everyone who held the same cards — the idea of duplicate play.
"""

from __future__ import annotations

from typing import IO

from ..common.cards import format_cards, make_deck
from ..common.shuffle import seeded_shuffle
from ..spec import ShowcaseScore
from .board import BigTwoBoard
from .bot import BigTwoBot
from .combos import classify

PLAYERS = [
    ("P1", "steady"),
    ("P2", "bold"),
    ("P3", "careful"),
    ("P4", "steady"),
    ("P5", "bold"),
    ("P6", "careful"),
    ("P7", "steady"),
    ("P8", "bold"),
]
TABLES = [PLAYERS[:4], PLAYERS[4:]]


def _cards(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(format_cards(cards))


def play_board(board: BigTwoBoard, seats: list[tuple[str, str]], out: IO[str]) -> list[int]:
    """Play one board to its end with bots, writing every decision and trick; returns the scores."""
    bots = [BigTwoBot(style) for _, style in seats]
    name = [player for player, _ in seats]
    for seat in range(4):
        out.write(f"    seat {seat} {name[seat]:<3} ({seats[seat][1]:<7}) {_cards(board.hand(seat))}\n")
    trick_no = 1
    trick_text: list[str] = []
    while not board.finished:
        seat = board.pending()[0]
        action = bots[seat].decide(board.seat_view(seat))
        assert action is not None
        phase = board.phase
        board.apply(action)
        if phase == "show":
            out.write(f"    show:   {name[seat]} {'SHOWS' if action.value else 'no'}\n")
        elif phase == "double":
            out.write(f"    double: {name[seat]} {'DOUBLES' if action.value else 'no'}\n")
        elif action.kind == "pass":
            trick_text.append(f"{name[seat]} pass")
        else:
            combo = classify(action.cards)
            assert combo is not None
            trick_text.append(f"{name[seat]} {_cards(action.cards)} ({combo.name})")
        if phase == "play" and (not board.trick or board.finished):
            out.write(f"    trick {trick_no:>2}: " + " · ".join(trick_text) + "\n")
            trick_no += 1
            trick_text = []
    result = board.result()
    out.write(
        f"    end: {name[result['winner']]} went out; cards left {result['cards_left']}, "
        f"penalties {result['penalties']}, scores {result['scores']}\n"
    )
    scores: list[int] = result["scores"]
    return scores


def run_demo(*, boards: int, seed: str, out: IO[str]) -> list[tuple[ShowcaseScore, ...]]:
    """Play and log the boards; each board's scores for the caller to rank."""
    comparison: list[str] = []
    results: list[tuple[ShowcaseScore, ...]] = []
    for number in range(1, boards + 1):
        order = seeded_shuffle(make_deck(), f"{seed}/board/{number}")
        out.write(f"\n=== Board {number} (deal seed {seed}/board/{number}) ===\n")
        per_table = []
        for t, table in enumerate(TABLES, start=1):
            # Players move one seat on every board so each plays every seat over the set.
            seats = table[-(number - 1) % 4 :] + table[: -(number - 1) % 4] if (number - 1) % 4 else table
            out.write(f"  table {t}\n")
            scores = play_board(BigTwoBoard.from_order(order), seats, out)
            per_table.append((seats, scores))
        results.append(
            tuple(
                (seats[seat][0], str(t), seat, scores[seat])
                for t, (seats, scores) in enumerate(per_table, start=1)
                for seat in range(4)
            )
        )
        for seat in range(4):
            cells = [f"{seats[seat][0]} {scores[seat]:+d}" for seats, scores in per_table]
            comparison.append(f"  board {number} seat {seat}: " + " vs ".join(cells))
    out.write("\n=== Duplicate comparison (same board, same seat) ===\n")
    out.write("\n".join(comparison) + "\n")
    return results

"""How a game of Chinese checkers ends (RULES.md §6.4 End of the game): verdicts only at a round's end.

Round n is Red's n-th move, then Blue's n-th. After Blue's move, in this order: both filled, a draw
(``same_moves``); Red alone filled, Red wins (``filled``); Blue alone filled, Blue wins (``filled``);
from round ``passive_after`` on, a side with a piece on its own home loses (``passive``; both: a
draw); else play on. After Red's move there is never a verdict.
"""

from __future__ import annotations

from typing import NamedTuple

from .pieces import Pieces
from .star import BLUE, RED

FILLED, SAME_MOVES, PASSIVE = "filled", "same_moves", "passive"
PASSIVE_AFTER = 30  # ⚖ the default round from which passive play loses


class Verdict(NamedTuple):
    winner: int | None  # RED, BLUE, or None for a draw
    why: str


def round_end(pieces: Pieces, n: int, passive_after: int | None) -> Verdict | None:
    """The verdict at the end of round ``n`` (>= 1) on ``pieces``, or None: play on."""
    red, blue = pieces.filled(RED), pieces.filled(BLUE)
    if red and blue:
        return Verdict(None, SAME_MOVES)
    if red or blue:
        return Verdict(RED if red else BLUE, FILLED)
    if passive_after is not None and n >= passive_after:
        idle = [side for side in (RED, BLUE) if pieces.at_home(side)]
        if len(idle) == 2:
            return Verdict(None, PASSIVE)
        if idle:
            return Verdict(1 - idle[0], PASSIVE)
    return None

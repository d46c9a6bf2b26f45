"""Board results, the next dealer and level, and the game's end (RULES.md §5 "Result", "Match", §5.1).

Levels are natural ranks 2…14 (A); past A is 15. Pure functions: the board calls them at its end and
the referee's calculator on their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import NamedTuple

from .options import EndMode, Options, ResultTable

PAST_A = 15


class Change(NamedTuple):
    """A board's result: which side goes up, by how many levels, whether the deal changes sides."""

    dealer_side_won: bool
    levels: int
    dealer_change: bool


def result(defender_points: int, table: ResultTable) -> Change:
    """Defenders' points → the change (§5 table; 003's row for 0 is +2, §5.1). 80 takes over, 40 a level,
    +1 for every further 40 past 200; negative totals count as 0."""
    p = max(0, defender_points)
    if p < 80:
        if p == 0 and table is ResultTable.COMMON:
            return Change(True, 3, False)
        return Change(True, 2 if p < 40 else 1, False)
    return Change(False, (p - 80) // 40, True)


def next_dealer(dealer: int, dealer_side_won: bool) -> int:
    """The dealer's partner when the dealer's side won, else the dealer's 下家 (§5 "Dealer")."""
    return (dealer + 2) % 4 if dealer_side_won else (dealer + 1) % 4


class Verdict(StrEnum):
    NEW_BOARD = "new_board"
    GAME_OVER = "game_over"


def game_over(levels: Sequence[int], options: Options, *, time_up: bool, extra: bool = False) -> bool:
    """Whether the game (局) ends after a board: a side passed the target, or the time is up and the
    levels differ (or draws are allowed, or an extra board was just played)."""
    if max(levels) > options.target:
        return True
    if not time_up:
        return False
    return levels[0] != levels[1] or options.draws or extra


class GamePoints(NamedTuple):
    """Match points (2/1/0) and the level difference (级差分) per side."""

    mp: tuple[int, int]
    lp: tuple[int, int]


def game_points(levels: Sequence[int], options: Options, decider: int | None = None) -> GamePoints:
    """2/1/0 by the higher level (first past the target is higher), level difference as level points;
    ``decider`` wins a level game that had to be decided by an extra board."""
    a, b = levels[0], levels[1]
    d = a - b
    if d == 0 and decider is not None:
        return GamePoints((2, 0) if decider == 0 else (0, 2), (0, 0))
    if d == 0:
        return GamePoints((1, 1), (0, 0))
    return GamePoints((2, 0) if d > 0 else (0, 2), (d, -d))


def uses_time(options: Options) -> bool:
    return options.end_mode in (EndMode.LEVEL_OR_TIME, EndMode.FIRST_PAST)

"""A deterministic Gomoku bot: the same view always gives the same move (RULES.md §1 ⚖).

A short threat search, then a count of the five-point windows around each point: White claims a
forbidden black move it can point out; either colour completes its own five, else blocks the
opponent's; else it plays the point whose windows promise most (an own window of three becomes a
four, two of them an open four; the opponent's windows count as what a stone there stops). Black
never plays a forbidden point unless every point it considers is forbidden. Ties go to the lowest
point (A1, B1, … O15), so the same position always gets the same move.
"""

from __future__ import annotations

from typing import NamedTuple

from ..common.bot_style import style_of
from ..contract import Action
from .board import CLAIM, PLAY, RESIGN, WHITE_SEAT, SeatView, move
from .forbidden import forbidden
from .options import ForbiddenRule
from .stones import CENTRE, DIRECTIONS, POINTS, WIDTH, B, E, Stones, W, name, parse_point

_ON_BOARD = frozenset(POINTS)
# Windows of five points (each on the board: the padding is wider than a window) through every point.


def _windows(p: int) -> tuple[tuple[int, ...], ...]:
    lines = (tuple(p + (k + j) * d for j in range(5)) for d in DIRECTIONS for k in range(-4, 1))
    return tuple(cells for cells in lines if all(c in _ON_BOARD for c in cells))


WINDOWS = {p: _windows(p) for p in POINTS}
NEAR = tuple(dc + dr * WIDTH for dr in range(-2, 3) for dc in range(-2, 3) if dc or dr)

# What a window holding n stones of one colour (and none of the other) is worth to a stone there.
OWN = (7, 35, 800, 15_000, 800_000)
THEIRS = (7, 15, 400, 1_800, 100_000)


class Style(NamedTuple):
    attack: float  # weight of the own windows against the opponent's


STYLES = {"steady": Style(1.0), "bold": Style(1.4), "careful": Style(0.7)}


def makes_five(stones: Stones, i: int, colour: int) -> bool:
    stones.put(i, colour)
    try:
        return stones.five_at(i, colour)
    finally:
        stones.take(i)


def candidates(stones: Stones) -> list[int]:
    """Empty points within two of a stone, lowest first (the whole board when it is empty)."""
    cells = stones.cells
    found = {i + n for i in POINTS if cells[i] != E for n in NEAR if i + n in _ON_BOARD and cells[i + n] == E}
    return sorted(found) if found else [CENTRE]


class GomokuBot:
    def __init__(self, style: str = "steady") -> None:
        self.style_name = style
        self.style = style_of(STYLES, style)

    def decide(self, view: SeatView) -> Action | None:
        """The action for ``view.seat`` now, or None when the game is not waiting for it."""
        seat = view.seat
        if view.phase != PLAY or view.turn != seat:
            return None
        if not view.moves:
            return move(seat, name(CENTRE))
        stones = view.stones()
        if seat == WHITE_SEAT and view.forbidden_rule == ForbiddenRule.CLAIM.value:
            last = parse_point(view.moves[-1])
            stones.take(last)
            wrong = forbidden(stones, last)
            stones.put(last, B)
            if wrong:
                return Action(seat, CLAIM)
        if stones.full:
            return Action(seat, RESIGN)  # only after an unclaimable last stone, which never happens
        point = self.choose(stones, B if seat == 0 else W)
        return move(seat, name(point))

    def choose(self, stones: Stones, me: int) -> int:
        opp = W if me == B else B
        points = candidates(stones)
        for colour in (me, opp):  # complete a five, else stop the opponent's
            fives = [p for p in points if makes_five(stones, p, colour)]
            if fives:
                allowed = [p for p in fives if me == W or colour == me or not forbidden(stones, p)]
                return (allowed or fives)[0]
        cells = stones.cells
        attack = self.style.attack

        def worth(p: int) -> float:
            total = 0.0
            for window in WINDOWS[p]:
                own = theirs = 0
                for c in window:
                    v = cells[c]
                    if v == me:
                        own += 1
                    elif v == opp:
                        theirs += 1
                if not theirs:
                    total += OWN[own] * attack
                elif not own:
                    total += THEIRS[theirs]
            return total

        ranked = sorted(points, key=lambda p: (-worth(p), p))
        if me == B:
            for p in ranked:
                if not forbidden(stones, p):
                    return p
        return ranked[0]  # White, or Black with nothing but forbidden points (forced)

"""A deterministic Gomoku bot: the same view always gives the same move (RULES.md §1 ⚖).

A threat search one move deep, then a count of the five-point windows around each point. White
claims a forbidden black move it can point out. Then, first that applies: complete a five; stop the
opponent's five; make an open four (White: two fours); stop the opponent's open four (block its
three); make a double threat (4-3; White also 3-3); stop the opponent's double threat; else the point
whose windows promise most (an own window of three becomes a four; the opponent's windows count as
what a stone there stops). Within a step the windows choose too. Black never plays a forbidden point
unless every point it considers is forbidden. Ties go to the lowest point (A1, B1, … O15), so the
same position always gets the same move.
"""

from __future__ import annotations

from typing import NamedTuple

from ..common.bot_style import style_of
from ..contract import Action
from .board import CLAIM, PLAY, RESIGN, WHITE_SEAT, SeatView, move
from .forbidden import Line, analyse, forbidden, line
from .options import ForbiddenRule
from .stones import CENTRE, DIRECTIONS, PAD, POINTS, WIDTH, B, E, Stones, W, name, parse_point

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
        """The point to play: a threat search over the points near the stones, then the windows."""
        opp = W if me == B else B
        points = candidates(stones)

        def allowed(found: list[int]) -> list[int]:
            return found if me == W else [p for p in found if not forbidden(stones, p)]

        for colour in (me, opp):  # complete a five, else stop the opponent's
            fives = [p for p in points if makes_five(stones, p, colour)]
            if fives:
                return (allowed(fives) or fives)[0]
        mine = {p: shape(stones, p, me) for p in points}
        theirs = {p: shape(stones, p, opp) for p in points}
        levels = (
            [p for p in points if mine[p].wins_next],  # an open four (White: any two fours)
            [p for p in points if theirs[p].wins_next],  # stop the opponent's open four
            [p for p in points if mine[p].double],  # 4-3 (White: 3-3 and 4-4 too)
            [p for p in points if theirs[p].double],  # stop the opponent's double threat
        )
        for found in levels:
            if ok := allowed(found):
                return self._best(stones, me, ok)
        return self._best(stones, me, allowed(points) or points)  # forced: every point is forbidden

    def _best(self, stones: Stones, me: int, points: list[int]) -> int:
        """The point whose five-point windows promise most; the lowest of equals."""
        opp = W if me == B else B
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

        return min(points, key=lambda p: (-worth(p), p))


class Shape(NamedTuple):
    """What a stone of one colour on a point makes, over its four lines."""

    open_fours: int  # lines that two points would make five
    fours: int
    threes: int  # lines that one point would make a straight four (Black's not tested for forbidden points)
    white: bool

    @property
    def wins_next(self) -> bool:
        return self.open_fours > 0 or (self.white and self.fours >= 2)

    @property
    def double(self) -> bool:
        threats = self.fours + self.threes
        return threats >= 2 and (self.white or self.fours >= 1)


_WHITE_LINES: dict[bytes, Line] = {}


def shape(stones: Stones, p: int, colour: int) -> Shape:
    """The lines a stone of ``colour`` on the empty point ``p`` would make (White's five or more)."""
    cells = stones.cells
    stones.put(p, colour)
    open_fours = fours = threes = 0
    for d in DIRECTIONS:
        pattern = bytes(cells[p - PAD * d : p + PAD * d + 1 : d])
        ln = line(pattern) if colour == B else _WHITE_LINES.get(pattern) or _white_line(pattern)
        open_fours += ln.wins >= 2
        fours += ln.fours
        threes += bool(ln.threes)
    stones.take(p)
    return Shape(open_fours, fours, threes, colour == W)


def _white_line(pattern: bytes) -> Line:
    found = _WHITE_LINES[pattern] = analyse(pattern, W, exact=False)
    return found

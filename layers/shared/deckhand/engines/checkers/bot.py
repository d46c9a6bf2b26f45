"""A deterministic Chinese checkers bot: greedy on progress with a look-ahead of its own next move.

A piece costs twice the square of its distance to the far tip of its target (hex steps; the ten
target points are exactly the points within three of it, so the least total is reached only when the
target is filled); the square makes the last pieces matter most, so none is left behind. Outside the
target a piece also costs its distance from the line joining the two tips (three per step): pieces
kept on that line stay together as ladders for each other's chains, which took the self-play race
from 39.6 moves to fill to 35.6. A piece still on its own home costs extra, so the home empties early
and passive play never catches the bot. Every move is tried with the best own move after it (the opponent's reply is
not guessed: the race is about one's own chains), and the move whose two-move gain is greatest is
played; ties go to the greater gain now, then to a piece that is not yet in the target
nearest an empty target point, then to the lowest (from, to). A move that brings back an arrangement
of its own pieces it had before is played only when every move does, so the endgame never cycles.
Once at most six target points are empty, a search for the fewest moves that fill the target
(``filling.py``) plays first, when it finds one in its node budget: greedy costs waste moves there
(the race: 35.1 moves to fill instead of 35.6). Before that, once no opposing piece stands in the
target, the bot plays the first move of a plan to fill it (``planning.py``, a beam search over its own
moves, the opponent's pieces standing still), made again every move: the two-move look-ahead brings
the last pieces home one slow step at a time.
"""

from __future__ import annotations

from typing import NamedTuple

from ..common.bot_style import style_of
from ..contract import Action
from .board import PASS, PLAY, SeatView, move, replay
from .filling import finishing_move
from .pieces import EMPTY, Pieces, destinations, reach
from .planning import plan
from .star import HOMES, POINTS, TARGETS, TIPS, cube, distance, name, parse_point

HOME_EXTRA = 30  # what a piece on its own home costs beyond its distance (it must leave before round 30)
OFF_LINE = 3  # what each step away from the line through both tips costs, outside the target
FILL_HOLES = 6  # the endgame search starts when at most this many target points are empty,
FILL_SPARE = 2  # finds fillings with at most this many moves beyond one per empty point,
FILL_NODES = 1_000  # and looks at no more positions than this (else the costs decide)
PLAN_WIDTH = 60  # the race's plan (no opposing piece in the target) keeps this many arrangements a move,
PLAN_DEPTH = 25  # and looks this many moves ahead (else the costs decide)


class Style(NamedTuple):
    breadth: int  # how many of the best moves now are looked at with the move after them
    later: float  # the weight of the next move's gain against this one's


STYLES = {"steady": Style(1_000, 1.0), "bold": Style(30, 0.8), "careful": Style(1_000, 0.9)}


def off_line(point: int) -> int:
    """How far ``point`` is off the line through both tips (x = y in cube coordinates): 0 on it."""
    x, y, _ = cube(point)
    return abs(x - y)


def point_cost(side: int, point: int) -> int:
    """What a piece of ``side`` on ``point`` costs (the bot lowers the total)."""
    cost = 2 * distance(point, TIPS[side]) ** 2
    if point not in TARGETS[side]:
        cost += OFF_LINE * off_line(point)
    return cost + (HOME_EXTRA if point in HOMES[side] else 0)


COST: tuple[tuple[int, ...], tuple[int, ...]] = tuple(  # type: ignore[assignment]
    tuple(point_cost(side, p) for p in POINTS) for side in (0, 1)
)


def best_gain(pieces: Pieces, side: int) -> int:
    """The most one move of ``side`` gains from here (0 when none gains)."""
    cost, cells = COST[side], pieces.cells
    best = 0
    for p in pieces.of(side):
        for to in reach(cells, p):
            best = max(best, cost[p] - cost[to])
    return best


def hole_distance(pieces: Pieces, side: int, point: int) -> int:
    """How far ``point`` is from the nearest empty point of ``side``'s target (0 inside the target)."""
    target = TARGETS[side]
    if point in target:
        return 0
    holes = [t for t in target if pieces.cells[t] == EMPTY]
    return min((distance(point, t) for t in holes), default=0)


def own(pieces: Pieces, side: int) -> frozenset[int]:
    return frozenset(pieces.of(side))


class CheckersBot:
    def __init__(self, style: str = "steady") -> None:
        self.style_name = style
        self.style = style_of(STYLES, style)

    def decide(self, view: SeatView) -> Action | None:
        """The action for ``view.seat`` now, or None when the game is not waiting for it."""
        seat = view.seat
        if view.phase != PLAY or view.turn != seat:
            return None
        pieces = view.pieces()
        found = self.choose(pieces, seat, seen(view))
        if found is None:
            return Action(seat, PASS)
        return move(seat, name(found[0]), name(found[1]))

    def choose(
        self, pieces: Pieces, side: int, before: frozenset[frozenset[int]] = frozenset()
    ) -> tuple[int, int] | None:
        """The (from, to) to play, or None when ``side`` has no move (it passes)."""
        cost = COST[side]
        options = destinations(pieces, side)
        if not options:
            return None
        finish = finishing_move(pieces, side, FILL_HOLES, FILL_SPARE, FILL_NODES)
        if finish is not None:
            return finish
        planned = plan(pieces, side, cost, PLAN_WIDTH, PLAN_DEPTH, before)
        if planned:
            return planned[0]
        mine = own(pieces, side)
        fresh = [(a, b) for a, b in options if mine - {a} | {b} not in before] or options
        fresh.sort(key=lambda m: (cost[m[1]] - cost[m[0]], m))
        ranked = []
        for a, b in fresh[: self.style.breadth]:
            now = cost[a] - cost[b]
            pieces.move(a, b)
            later = best_gain(pieces, side)
            pieces.move(b, a)
            ranked.append((-(now + self.style.later * later), -now, hole_distance(pieces, side, b), (a, b)))
        return min(ranked)[3]


def seen(view: SeatView) -> frozenset[frozenset[int]]:
    """The arrangements of the seat's own pieces after each of its moves so far (and at the start)."""
    pieces, side = replay(()), view.seat
    found = {own(pieces, side)}
    for n, path in enumerate(view.moves):
        if path:
            pieces.move(parse_point(path[0]), parse_point(path[-1]))
        if n % 2 == side:
            found.add(own(pieces, side))
    return frozenset(found)

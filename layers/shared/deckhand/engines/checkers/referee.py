"""``deckhand rules --game checkers``: the referee's calculator for ``checkers-2004`` (RULES.md §6.4).

A position is ``{"red": [10 points], "blue": [10 points]}``, twenty distinct point names; the ops judge
it alone (who is to move and whether the game is over matter only to ``result``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...errors import DeckhandError
from ..common.requests import field
from .ending import PASSIVE_AFTER, round_end
from .options import passive_after, whole
from .pieces import PIECES, Pieces, destinations, path_fault
from .star import BLUE, RED, SIDES, name, parse_point


def position(request: dict[str, Any]) -> Pieces:
    """The request's ``position``: each side's ten pieces on twenty distinct points."""
    value = field(request, "position")
    if not isinstance(value, dict) or set(value) != set(SIDES):
        raise DeckhandError('a position is {"red": [10 points], "blue": [10 points]}')
    lists = [value[side] for side in SIDES]
    for side, points in zip(SIDES, lists, strict=True):
        if not isinstance(points, list) or len(points) != PIECES:
            raise DeckhandError(f"{side!r} must be a list of {PIECES} points")
    red, blue = ([parse_point(p) for p in points] for points in lists)
    if len(set(red) | set(blue)) != 2 * PIECES:
        raise DeckhandError("the twenty pieces must stand on twenty distinct points")
    return Pieces(red, blue)


def side_of(request: dict[str, Any], key: str) -> int:
    value = field(request, key)
    if value not in SIDES:
        raise DeckhandError(f"{key!r} must be 'red' or 'blue', got {value!r}")
    return SIDES.index(value)


class CheckersReferee:
    """legal, path_ok and result (RULES.md §6.4's calculator contract)."""

    def ops(self) -> Mapping[str, Callable[[dict[str, Any]], dict[str, Any]]]:
        return {"legal": self.legal, "path_ok": self.path_ok, "result": self.result}

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        """Every "from-to" a legal move of ``side`` makes, once however many ways reach it, sorted by
        (from row, from col, to row, to col); [] when the side must pass."""
        pieces = position(request)
        side = side_of(request, "side")
        return {"moves": [f"{name(a)}-{name(b)}" for a, b in destinations(pieces, side)]}

    def path_ok(self, request: dict[str, Any]) -> dict[str, Any]:
        """Whether ``path`` is a legal move of ``side``: a step, or a jump chain landing by landing."""
        pieces = position(request)
        side = side_of(request, "side")
        given = field(request, "path")
        if not isinstance(given, list) or len(given) < 2:
            raise DeckhandError("'path' must be a list of at least 2 points, the start first")
        fault = path_fault(pieces, side, [parse_point(p) for p in given])
        return {"ok": True} if fault is None else {"ok": False, "reason": fault[1]}

    def result(self, request: dict[str, Any]) -> dict[str, Any]:
        """The verdict on the position after ``moves`` (Red's and Blue's counts), judged as if the game
        was not over before the last move: only at a round's end (Red to move)."""
        pieces = position(request)
        counts = field(request, "moves")
        if not isinstance(counts, dict) or not set(SIDES) <= set(counts):
            raise DeckhandError('\'moves\' must be {"red": nr, "blue": nb}')
        nr, nb = counts["red"], counts["blue"]
        if not (whole(nr) and whole(nb) and nr >= 0 and nb >= 0):
            raise DeckhandError(f"move counts must be whole numbers >= 0, got red {nr!r}, blue {nb!r}")
        to_move = side_of(request, "to_move")
        after = passive_after(request.get("passive_after", PASSIVE_AFTER))
        if nr != nb + to_move:
            raise DeckhandError(
                f"red {nr} and blue {nb} moves: with {SIDES[to_move]} to move red has "
                + ("as many moves as blue" if to_move == RED else "one move more than blue")
            )
        if to_move == BLUE:
            if nb >= 1 and pieces.filled(BLUE):
                raise DeckhandError(f"unreachable: blue had filled its target when round {nb} ended")
            if after is not None and nb >= after and pieces.at_home(BLUE):
                raise DeckhandError(f"unreachable: blue stood on its home when round {nb} ended (passive)")
            return {"result": None}
        if nb == 0:
            return {"result": None}
        verdict = round_end(pieces, nb, after)
        if verdict is None:
            return {"result": None}
        winner = None if verdict.winner is None else SIDES[verdict.winner]
        return {"result": {"winner": winner, "why": verdict.why}}
